/* build_sweep: the document of `coreplan sweep` (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The intervals' confidence level as a fact, so a note's "95%" is a number in every format. */
static const char *confidence(struct doc *d)
{
	return doc_fact_int(d, "interval_confidence", "confidence level of the intervals",
			    DOC_QUIET, 95, "%");
}

enum {
	C_LEVEL,
	C_N,
	C_MEDIAN,
	C_MIN,
	C_MAX,
	C_RANGE,
	C_SPEEDUP,
	C_EFFICIENCY,
	C_PER_DOUBLING,
	C_PER_UNIT,
	C_APP_CORES,
	C_CPU_US,
	C_NOTE,
	C_RANGE_ABS,
	C_CORE_KIND,
	C_SMT_STEP,
	C_MIXED_STEP,
	C_STEP,
	C_STEP_P,
	NCOLS
};

static void levels_table(struct doc_section *s, const struct sweep *sw, const char *by,
			 const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[NCOLS] = {
		[C_LEVEL] = DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct sweep_level,
					level),
		[C_N] = DOC_INT_OF("n", "runs", struct sweep_level, s.n),
		[C_MEDIAN] = DOC_REAL_OF("median", u, 'g', 6, struct sweep_level, s.median),
		[C_MIN] = DOC_REAL_OF("min", u, 'g', 6, struct sweep_level, s.min),
		[C_MAX] = DOC_REAL_OF("max", u, 'g', 6, struct sweep_level, s.max),
		[C_RANGE] = DOC_REAL_OF("range_pct", "%", 'f', 2, struct sweep_level, s.range_pct),
		[C_SPEEDUP] = DOC_REAL_OF("speedup", "x", 'f', 3, struct sweep_level, speedup),
		[C_EFFICIENCY] =
			DOC_REAL_OF("efficiency", NULL, 'f', 3, struct sweep_level, efficiency),
		[C_PER_DOUBLING] =
			DOC_REAL_OF("per_doubling", "x", 'f', 3, struct sweep_level, per_doubling),
		[C_PER_UNIT] = DOC_REAL_OF("per_unit", NULL, 'g', 6, struct sweep_level, per_unit),
		[C_APP_CORES] =
			DOC_REAL_OF("app_cores", "cores", 'f', 3, struct sweep_level, app_cores),
		[C_CPU_US] = DOC_REAL_OF("cpu_us_per_op", "us", 'f', 1, struct sweep_level,
					 cpu_us_per_op),
		[C_NOTE] = DOC_FIELD_NONE(DOC_COL_TEXT("note")),
		[C_RANGE_ABS] =
			DOC_REAL_OF("range_abs", u, 'g', 6, struct sweep_level, s.range_abs),
		[C_CORE_KIND] = DOC_FIELD_NONE(DOC_COL_TEXT("core_kind")),
		[C_SMT_STEP] = DOC_REAL_OF("smt_step", "x", 'f', 3, struct sweep_level, smt_step),
		[C_MIXED_STEP] = DOC_REAL_OF("cores_and_smt_step", "x", 'f', 3, struct sweep_level,
					     mixed_step),
		[C_STEP] = DOC_FIELD_NONE(DOC_COL_TEXT("step")),
		[C_STEP_P] = DOC_FIELD_NONE(DOC_COL_REAL("step_p", NULL, 'g', 3)),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	/* figures that do not apply are missing cells: Markdown leaves their columns out */
	doc_table_hide_empty(t);
	for (size_t i = 0; i < sw->nlevels; i++) {
		const struct sweep_level *lv = &sw->levels[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, lv);
		if (sw->classified)
			doc_set_text(t, C_CORE_KIND, level_kind_name(lv->kind));
		if (lv->has_step) {
			doc_set_text(t, C_STEP,
				     verdict_real(&lv->step) ? "resolved"
							     : verdict_call_name(lv->step.call));
			doc_set_real(t, C_STEP_P, lv->step.p);
		}
		if (lv->scaling_stops)
			doc_set_text(t, C_NOTE, "scaling stops");
		else if (lv->kind == LEVEL_SMT && lv->mixed)
			doc_set_text(
				t, C_NOTE,
				"unmeasured physical cores and SMT siblings together: no SMT step");
		else if (lv->kind == LEVEL_SMT)
			doc_set_text(t, C_NOTE, "SMT siblings");
		else if (lv->kind == LEVEL_BEYOND)
			doc_set_text(t, C_NOTE, "beyond the logical CPUs");
	}
}

static void fit_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	const struct doubling_fit *f = &sw->fit;
	const char *factor, *se, *r2, *n, *lo, *hi, *df;
	if (!sw->has_fit) {
		doc_fact_real(d, "per_doubling", "whole-sweep per-doubling factor", DOC_QUIET, NAN,
			      "x", 'f', 4);
		doc_note(s, "%s", sw->fit_note);
		return;
	}
	if (sw->metric.lower_is_better)
		doc_fact_text(d, "per_doubling_method", "method", DOC_QUIET,
			      "least squares of ln(median) on log2(level) over the level medians; "
			      "lower is better, so the factor is exp(-slope), the speedup per "
			      "doubling; SE by the delta method");
	factor = doc_fact_real(d, "per_doubling", "whole-sweep per-doubling factor", DOC_QUIET,
			       f->factor, "x", 'f', 4);
	se = doc_fact_real(d, "per_doubling_se", "its standard error", DOC_QUIET, f->factor_se, "x",
			   'f', 4);
	r2 = doc_fact_real(d, "per_doubling_r2", "R² of the fit", DOC_QUIET, f->r2, NULL, 'f', 4);
	n = doc_fact_int(d, "per_doubling_levels", "level medians fitted", DOC_QUIET, (int64_t)f->n,
			 "levels");
	lo = doc_fact_real(d, "per_doubling_lo", "its 95% t interval, low end", DOC_QUIET, f->lo,
			   "x", 'f', 4);
	hi = doc_fact_real(d, "per_doubling_hi", "its 95% t interval, high end", DOC_QUIET, f->hi,
			   "x", 'f', 4);
	df = doc_fact_real(d, "per_doubling_df", "the fit's degrees of freedom (levels - 2)",
			   DOC_QUIET, f->df, NULL, 'g', 3);
	if (!sw->metric.lower_is_better)
		doc_fact_text(d, "per_doubling_method", "method", DOC_QUIET,
			      "least squares of ln(median) on log2(level) over the level medians; "
			      "SE by the delta method");
	doc_note(s,
		 "whole-sweep per-doubling factor %s, %s%% interval [%s, %s] (Student's t, %s df; "
		 "SE %s, R² %s; least squares of ln(median) on log2(level) over %s level "
		 "medians%s%s)",
		 factor, confidence(d), lo, hi, df, se, r2, n,
		 sw->metric.lower_is_better ? "; lower is better: exp(-slope), the speedup" : "",
		 sw->nsmt + sw->nbeyond ? "; levels beyond the physical cores included: not the "
					  "scaling over physical cores"
					: "");
}

/* "1, 2, 4": the physical (and assumed) levels, or (smt) the others. */
static void level_list(const struct sweep *sw, bool smt, struct strbuf *sb)
{
	for (size_t i = 0; i < sw->nlevels; i++) {
		const struct sweep_level *lv = &sw->levels[i];
		bool physical = lv->kind == LEVEL_PHYSICAL || lv->kind == LEVEL_ASSUMED;
		if (physical == smt)
			continue;
		strbuf_addf(sb, "%s%g", sb->len ? ", " : "", lv->level);
	}
}

/* The host the levels are counted on, and what that makes each level. */
static void host_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	const struct run_host *h = &sw->host;
	if (!sw->classified)
		return;
	doc_fact_text(d, "host", "host", DOC_LISTED, h->known ? h->name : "none");
	if (!h->known) {
		doc_fact_text(d, "core_kinds", "levels counted as", DOC_QUIET, "assumed physical");
		if (h->mixed)
			doc_note(s,
				 "levels are assumed to be physical cores (%s: sweep --host NAME, "
				 "or select one host's runs)",
				 h->mixed_note);
		else
			doc_note(s,
				 "levels are assumed to be physical cores (no topology recorded: "
				 "coreplan import --host / a manifest's topology)");
		return;
	}
	doc_fact_text(d, "core_kinds", "levels counted as", DOC_QUIET,
		      "physical cores of the host");
	doc_fact_text(d, "host_source", "host topology from", DOC_QUIET, h->source);
	{
		const char *cores = doc_fact_int(d, "physical_cores", "physical cores", DOC_LISTED,
						 (int64_t)h->physical_cores, "cores");
		const char *cpus = doc_fact_int(d, "logical_cpus", "logical CPUs", DOC_QUIET,
						(int64_t)h->logical_cpus, "CPUs");
		struct strbuf phys = STRBUF_INIT, smt = STRBUF_INIT;
		level_list(sw, false, &phys);
		level_list(sw, true, &smt);
		doc_fact_int(d, "threads_per_core", "threads per core", DOC_QUIET,
			     (int64_t)h->threads_per_core, NULL);
		doc_fact_int(d, "physical_levels", "physical-core levels", DOC_QUIET,
			     (int64_t)sw->nphysical, "levels");
		doc_fact_int(d, "smt_levels", "SMT levels", DOC_QUIET, (int64_t)sw->nsmt, "levels");
		doc_fact_int(d, "beyond_levels", "levels beyond the logical CPUs", DOC_QUIET,
			     (int64_t)sw->nbeyond, "levels");
		doc_note(s,
			 "levels are counted on host %s (%s physical cores, %s logical CPUs; "
			 "topology source: %s): physical-core levels %s%s%s",
			 h->name, cores, cpus, h->source, phys.len ? strbuf_str(&phys) : "none",
			 smt.len ? "; beyond the physical cores: " : "", strbuf_str(&smt));
		strbuf_release(&phys);
		strbuf_release(&smt);
	}
}

/* The headline over physical cores: the fit, the efficiency at the last physical level. */
static void physical_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	const struct doubling_fit *f = &sw->physical_fit;
	const char *factor = NULL, *se = NULL, *r2 = NULL, *n = NULL, *eff = NULL;
	const char *lo = NULL, *hi = NULL, *df = NULL;
	char level[32] = "";
	if (!sw->classified || !sw->scaling_applies)
		return;
	if (sw->has_physical_fit) {
		factor = doc_fact_real(d, "physical_per_doubling",
				       "per-doubling factor over physical cores", DOC_LISTED,
				       f->factor, "x", 'f', 4);
		se = doc_fact_real(d, "physical_per_doubling_se", "its standard error", DOC_QUIET,
				   f->factor_se, "x", 'f', 4);
		r2 = doc_fact_real(d, "physical_per_doubling_r2", "R² of the physical-core fit",
				   DOC_QUIET, f->r2, NULL, 'f', 4);
		n = doc_fact_int(d, "physical_per_doubling_levels",
				 "physical-core level medians fitted", DOC_QUIET, (int64_t)f->n,
				 "levels");
		lo = doc_fact_real(d, "physical_per_doubling_lo", "its 95% t interval, low end",
				   DOC_QUIET, f->lo, "x", 'f', 4);
		hi = doc_fact_real(d, "physical_per_doubling_hi", "its 95% t interval, high end",
				   DOC_QUIET, f->hi, "x", 'f', 4);
		df = doc_fact_real(d, "physical_per_doubling_df",
				   "the physical-core fit's degrees of freedom", DOC_QUIET, f->df,
				   NULL, 'g', 3);
	} else {
		doc_fact_real(d, "physical_per_doubling", "per-doubling factor over physical cores",
			      DOC_QUIET, NAN, "x", 'f', 4);
	}
	if (sw->last_physical < sw->nlevels) {
		snprintf(level, sizeof(level), "%g", sw->levels[sw->last_physical].level);
		eff = doc_fact_real(d, "physical_efficiency",
				    "efficiency at the largest physical-core level", DOC_LISTED,
				    sw->physical_efficiency, NULL, 'f', 3);
		doc_fact_real(d, "physical_efficiency_level", "the largest physical-core level",
			      DOC_QUIET, sw->levels[sw->last_physical].level, NULL, 'g', 6);
	}
	if (sw->nsmt + sw->nbeyond == 0)
		return; /* every level is physical: the whole-sweep note says it all */
	if (!factor) {
		doc_note(s, "%s%s%s%s%s", sw->physical_fit_note, eff ? "; efficiency " : "",
			 eff ? eff : "", eff ? " at level " : "", eff ? level : "");
		return;
	}
	doc_note(s,
		 "per-doubling factor over the physical cores %s, %s%% interval [%s, %s] "
		 "(Student's t, %s df; SE %s, R² %s; the same least squares over the %s "
		 "physical-core level medians)%s%s%s%s",
		 factor, confidence(d), lo, hi, df, se, r2, n, eff ? "; efficiency " : "",
		 eff ? eff : "", eff ? " at level " : "", eff ? level : "");
}

/* Levels with more workers than the host has logical CPUs. */
static void beyond_note(struct doc_section *s, const struct sweep *sw)
{
	struct strbuf levels = STRBUF_INIT;
	if (!sw->classified || sw->nbeyond == 0)
		return;
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].kind == LEVEL_BEYOND)
			strbuf_addf(&levels, "%s%g", levels.len ? ", " : "", sw->levels[i].level);
	doc_note(s,
		 "level%s %s %s more workers than the host's logical CPUs (oversubscribed): left "
		 "out of the physical-core figures and the stop rule",
		 sw->nbeyond == 1 ? "" : "s", strbuf_str(&levels),
		 sw->nbeyond == 1 ? "has" : "have");
	strbuf_release(&levels);
}

/* Each SMT level: its step over the last physical level, against an SMT factor measured. */
static void smt_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	const char *factor = NULL;
	if (!sw->classified || !sw->scaling_applies || sw->nsmt == 0)
		return;
	if (sw->has_smt_factor) {
		factor = doc_fact_real(d, "smt_factor", "SMT factor measured on the host",
				       DOC_QUIET, sw->smt.factor, "x", 'f', 3);
		doc_fact_real(d, "smt_factor_lo", "its lower bound", DOC_QUIET, sw->smt.lo, "x",
			      'f', 3);
		doc_fact_real(d, "smt_factor_hi", "its upper bound", DOC_QUIET, sw->smt.hi, "x",
			      'f', 3);
		doc_fact_text(d, "smt_factor_corpus", "measured in corpus", DOC_QUIET,
			      sw->smt.corpus);
		{
			char arms[256];
			snprintf(arms, sizeof(arms), "%s / %s", sw->smt.num, sw->smt.den);
			doc_fact_text(d, "smt_factor_arms", "its arms", DOC_QUIET, arms);
		}
	}
	for (size_t i = 0; i < sw->nlevels; i++) {
		const struct sweep_level *lv = &sw->levels[i];
		const struct sweep_level *over;
		char name[64], label[160], level[32], last[32], cores[80];
		const char *step;
		if (lv->kind != LEVEL_SMT || lv->smt_over >= sw->nlevels)
			continue;
		over = &sw->levels[lv->smt_over];
		snprintf(level, sizeof(level), "%g", lv->level);
		snprintf(last, sizeof(last), "%g", over->level);
		if (lv->smt_over == 0)
			snprintf(cores, sizeof(cores), "level %s's", last);
		else
			snprintf(cores, sizeof(cores), "levels %g-%s's", sw->levels[0].level, last);
		snprintf(name, sizeof(name), "smt_step_at_%s", level);
		snprintf(label, sizeof(label), "step of SMT level %s over level %s", level, last);
		step = doc_fact_real(d, name, label, DOC_QUIET, lv->smt_step, "x", 'f', 3);
		/* a sweep that skipped physical levels: the step adds cores and siblings */
		if (lv->mixed) {
			snprintf(name, sizeof(name), "cores_and_smt_step_at_%s", level);
			snprintf(
				label, sizeof(label),
				"step of level %s over level %s: unmeasured physical cores and SMT",
				level, last);
			step = doc_fact_real(d, name, label, DOC_QUIET, lv->mixed_step, "x", 'f',
					     3);
		}
		if (lv->mixed)
			doc_note(s,
				 "level %s is past the host's %zu physical cores, but the sweep's "
				 "last physical level is %s: its step %s over level %s adds "
				 "unmeasured physical cores and SMT siblings together, so it "
				 "separates neither",
				 level, sw->host.physical_cores, last, step, last);
		else if (factor)
			doc_note(s,
				 "level %s is SMT siblings of %s physical cores: step %s over "
				 "level %s; an SMT factor of %s was measured on this host (corpus "
				 "%s, coreplan smt): SMT, not an application limit",
				 level, cores, step, last, factor, sw->smt.corpus);
		else
			doc_note(s,
				 "level %s is SMT siblings of %s physical cores: step %s over "
				 "level %s; SMT, not an application limit (no SMT factor measured "
				 "on this host: coreplan smt needs pinned runs)",
				 level, cores, step, last);
	}
}

static void stop_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	const char *threshold = doc_fact_real(d, "stop_per_doubling", "per-doubling threshold",
					      DOC_QUIET, 2.0 * sw->stop_efficiency, "x", 'f', 2);
	const char *eff = doc_fact_real(d, "stop_efficiency", "efficiency threshold", DOC_QUIET,
					sw->stop_efficiency, NULL, 'f', 2);
	if (!sw->scaling_applies) {
		doc_fact_text(d, "scaling", "scaling", DOC_LISTED, "not-applicable");
		return;
	}
	if (sw->stop_index < sw->nlevels) {
		const struct sweep_level *lv = &sw->levels[sw->stop_index];
		char level[32];
		snprintf(level, sizeof(level), "%g", lv->level);
		doc_fact_real(d, "stop_level", "level where scaling stops", DOC_QUIET, lv->level,
			      NULL, 'g', 6);
		doc_fact_text(d, "scaling", "scaling", DOC_LISTED, "stops");
		doc_note(s,
			 "scaling stops at level %s: per-doubling %s is below %s (efficiency %s)",
			 level,
			 doc_fact_real(d, "stop_at_per_doubling", "its per-doubling factor",
				       DOC_QUIET, lv->per_doubling, "x", 'f', 3),
			 threshold, eff);
	} else {
		doc_fact_text(d, "scaling", "scaling", DOC_LISTED, "continues");
		doc_note(s, "no %slevel falls below a per-doubling factor of %s",
			 sw->nsmt + sw->nbeyond ? "physical-core " : "", threshold);
	}
}

/* The metric's kind and direction, and where they came from. */
static void meaning_facts(struct doc *d, struct doc_section *s, const struct sweep *sw,
			  const char *metric)
{
	const struct metric_meaning *m = &sw->metric;
	build_metric_facts(d, m);
	doc_fact_bool(d, "level_counts_workers", "level counts threads, cores or workers",
		      DOC_QUIET, sw->level_counts_workers);
	if (sw->workers_from)
		doc_fact_text(d, "level_counts_workers_from", "the level counts workers as",
			      strcmp(sw->workers_from, "declared with --workers") ? DOC_QUIET
										  : DOC_LISTED,
			      sw->workers_from);
	if (m->kind_assumed)
		doc_note(s, "metric '%s' has no known kind: assumed a rate (pass --metric-kind)",
			 metric);
}

/* Which columns are missing for every level, and why (a fact each and the notes). */
static void left_out_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	struct strbuf cols = STRBUF_INIT, why = STRBUF_INIT;
	if (!sw->scaling_applies) {
		strbuf_adds(&cols, "speedup,efficiency,per_doubling");
		strbuf_adds(&why, sw->scaling_why);
		doc_note(s, "%s", sw->scaling_why);
	}
	if (!sw->per_unit_applies) {
		strbuf_addf(&cols, "%sper_unit,cpu_us_per_op", cols.len ? "," : "");
		strbuf_addf(&why, "%s%s", why.len ? "; " : "", sw->per_unit_why);
		doc_note(s, "%s", sw->per_unit_why);
	}
	doc_fact_text(d, "columns_left_out", "columns left out", cols.len ? DOC_LISTED : DOC_QUIET,
		      cols.len ? strbuf_str(&cols) : "none");
	doc_fact_text(d, "columns_left_out_why", "why", DOC_QUIET, strbuf_str(&why));
	if (*sw->base_note)
		doc_note(s, "%s", sw->base_note);
	if (sw->zero_median_levels > 0)
		doc_note(s,
			 "%s level%s with a median of 0: range_pct is left out there (a share of 0 "
			 "is undefined); range_abs gives the range in the metric's units",
			 doc_fact_int(d, "zero_median_levels", "levels whose median is 0",
				      DOC_QUIET, (int64_t)sw->zero_median_levels, "levels"),
			 sw->zero_median_levels == 1 ? "" : "s");
	else
		doc_fact_int(d, "zero_median_levels", "levels whose median is 0", DOC_QUIET, 0,
			     "levels");
	strbuf_release(&cols);
	strbuf_release(&why);
}

int build_sweep(const struct sweep_request *req, const struct sweep_result *res, struct doc **out)
{
	const struct sweep *sw = &res->sw;
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = build_doc(out, "sweep", "");
	struct doc_section *s;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Sweep of %s by %s", metric, req->by);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->sel.n, NULL);
	doc_fact_int(d, "levels", "levels", DOC_LISTED, (int64_t)sw->nlevels, NULL);
	doc_fact_text(d, "by", "level field", DOC_LISTED, req->by);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_real(d, "base_level", "base level", DOC_LISTED, sw->base, NULL, 'g', 6);
	s = doc_section(d, "levels", "Levels");
	levels_table(s, sw, req->by, metric);
	meaning_facts(d, s, sw, metric);
	left_out_facts(d, s, sw);
	host_facts(d, s, sw);
	physical_facts(d, s, sw);
	smt_facts(d, s, sw);
	beyond_note(s, sw);
	fit_facts(d, s, sw);
	stop_facts(d, s, sw);
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].s.n < 3) {
			char level[32];
			snprintf(level, sizeof(level), "%g", sw->levels[i].level);
			doc_note(s, "level %s has %zu run%s: its range says little about noise",
				 level, sw->levels[i].s.n, sw->levels[i].s.n == 1 ? "" : "s");
		}
	doc_note(s, "definitions: `coreplan sweep --help`");
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_sweep_views[] = {"levels", NULL};
