/* build_sweep: the document of `coreplan sweep` (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>

/* The unit of a field for column headers and facts ("" when unknown). */
static const char *unit_of(const char *field)
{
	const struct field_info *f = field_find(field);
	return f ? f->unit : "";
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
	NCOLS
};

static void levels_table(struct doc_section *s, const struct sweep *sw, const char *by,
			 const char *metric)
{
	const struct doc_col cols[NCOLS] = {
		[C_LEVEL] = DOC_COL_REAL("level", unit_of(by), 'g', 6),
		[C_N] = DOC_COL_INT("n", "runs"),
		[C_MEDIAN] = DOC_COL_REAL("median", unit_of(metric), 'g', 6),
		[C_MIN] = DOC_COL_REAL("min", unit_of(metric), 'g', 6),
		[C_MAX] = DOC_COL_REAL("max", unit_of(metric), 'g', 6),
		[C_RANGE] = DOC_COL_REAL("range_pct", "%", 'f', 2),
		[C_SPEEDUP] = DOC_COL_REAL("speedup", "x", 'f', 3),
		[C_EFFICIENCY] = DOC_COL_REAL("efficiency", NULL, 'f', 3),
		[C_PER_DOUBLING] = DOC_COL_REAL("per_doubling", "x", 'f', 3),
		[C_PER_UNIT] = DOC_COL_REAL("per_unit", NULL, 'g', 6),
		[C_APP_CORES] = DOC_COL_REAL("app_cores", "cores", 'f', 3),
		[C_CPU_US] = DOC_COL_REAL("cpu_us_per_op", "us", 'f', 1),
		[C_NOTE] = DOC_COL_TEXT("note"),
		[C_RANGE_ABS] = DOC_COL_REAL("range_abs", unit_of(metric), 'g', 6),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	/* figures that do not apply are missing cells: Markdown leaves their columns out */
	doc_table_hide_empty(t);
	for (size_t i = 0; i < sw->nlevels; i++) {
		const struct sweep_level *lv = &sw->levels[i];
		doc_row(t);
		doc_set_real(t, C_LEVEL, lv->level);
		doc_set_int(t, C_N, (int64_t)lv->s.n);
		doc_set_real(t, C_MEDIAN, lv->s.median);
		doc_set_real(t, C_MIN, lv->s.min);
		doc_set_real(t, C_MAX, lv->s.max);
		doc_set_real(t, C_RANGE, lv->s.range_pct);
		doc_set_real(t, C_SPEEDUP, lv->speedup);
		doc_set_real(t, C_EFFICIENCY, lv->efficiency);
		doc_set_real(t, C_PER_DOUBLING, lv->per_doubling);
		doc_set_real(t, C_PER_UNIT, lv->per_unit);
		doc_set_real(t, C_APP_CORES, lv->app_cores);
		doc_set_real(t, C_CPU_US, lv->cpu_us_per_op);
		doc_set_real(t, C_RANGE_ABS, lv->s.range_abs);
		if (lv->scaling_stops)
			doc_set_text(t, C_NOTE, "scaling stops");
	}
}

static void fit_facts(struct doc *d, struct doc_section *s, const struct sweep *sw)
{
	const struct doubling_fit *f = &sw->fit;
	const char *factor, *se, *r2, *n;
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
	se = doc_fact_real(d, "per_doubling_se", "its standard error", DOC_QUIET, f->factor_se,
			   "x", 'f', 4);
	r2 = doc_fact_real(d, "per_doubling_r2", "R² of the fit", DOC_QUIET, f->r2, NULL, 'f', 4);
	n = doc_fact_int(d, "per_doubling_levels", "level medians fitted", DOC_QUIET,
			 (int64_t)f->n, "levels");
	if (!sw->metric.lower_is_better)
		doc_fact_text(d, "per_doubling_method", "method", DOC_QUIET,
			      "least squares of ln(median) on log2(level) over the level medians; "
			      "SE by the delta method");
	doc_note(s,
		 "whole-sweep per-doubling factor %s (SE %s, R² %s; least squares of ln(median) "
		 "on log2(level) over %s level medians%s)",
		 factor, se, r2, n,
		 sw->metric.lower_is_better ? "; lower is better: exp(-slope), the speedup" : "");
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
		doc_note(s, "scaling stops at level %s: per-doubling %s is below %s (efficiency %s)",
			 level, doc_fact_real(d, "stop_at_per_doubling", "its per-doubling factor",
					      DOC_QUIET, lv->per_doubling, "x", 'f', 3),
			 threshold, eff);
	} else {
		doc_fact_text(d, "scaling", "scaling", DOC_LISTED, "continues");
		doc_note(s, "no level falls below a per-doubling factor of %s", threshold);
	}
}

/* The metric's kind and direction, and where they came from. */
static void meaning_facts(struct doc *d, struct doc_section *s, const struct sweep *sw,
			  const char *metric)
{
	const struct metric_meaning *m = &sw->metric;
	doc_fact_text(d, "metric_kind", "metric kind", DOC_LISTED, field_kind_name(m->kind));
	doc_fact_text(d, "metric_kind_from", "metric kind from",
		      m->kind_assumed ? DOC_LISTED : DOC_QUIET, m->kind_from);
	doc_fact_text(d, "metric_direction", "better", DOC_LISTED,
		      m->lower_is_better ? "lower" : "higher");
	doc_fact_text(d, "metric_direction_from", "better from",
		      m->direction_assumed ? DOC_LISTED : DOC_QUIET, m->direction_from);
	doc_fact_bool(d, "level_counts_workers", "level counts threads, cores or workers",
		      DOC_QUIET, sw->level_counts_workers);
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

int build_sweep(const struct sweep_request *req, const struct sweep_result *res,
		struct doc **out)
{
	const struct sweep *sw = &res->sw;
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = doc_new("sweep", "");
	struct doc_section *s;
	*out = NULL;
	if (!d)
		return err_set("out of memory");
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
	fit_facts(d, s, sw);
	stop_facts(d, s, sw);
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].s.n < 3) {
			char level[32];
			snprintf(level, sizeof(level), "%g", sw->levels[i].level);
			doc_note(s, "level %s has %zu run%s: its range says little about noise", level,
				 sw->levels[i].s.n, sw->levels[i].s.n == 1 ? "" : "s");
		}
	doc_note(s, "definitions: `coreplan sweep --help`");
	build_left_out(d, &res->sel);
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
