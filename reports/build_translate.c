/* build_translate: the document of `coreplan translate` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
	F_KIND,
	F_STATUS,
	F_MEASURE,
	F_STATISTIC,
	F_FROM_N,
	F_FROM_VALUE,
	F_FROM_LO,
	F_FROM_HI,
	F_TO_N,
	F_TO_VALUE,
	F_TO_LO,
	F_TO_HI,
	F_FACTOR,
	F_CI_LO,
	F_CI_HI,
	F_END_LO,
	F_END_HI,
	F_MEAN_FACTOR,
	F_RANGE_LO,
	F_RANGE_HI,
	F_METHOD,
	F_RULE,
	F_IN_WORDS,
	NF
};

static void factors_table(struct doc_section *s, const struct translate_result *res)
{
	static const struct doc_field cols[NF] = {
		[F_KIND] = DOC_FIELD_NONE(DOC_COL_TEXT("kind")),
		[F_STATUS] = DOC_FIELD_NONE(DOC_COL_TEXT("status")),
		[F_MEASURE] = DOC_TEXT_OF("measure", struct translate_factor, measure),
		[F_STATISTIC] = DOC_TEXT_OF("statistic", struct translate_factor, statistic),
		[F_FROM_N] = DOC_FIELD_NONE(DOC_COL_INT("from_n", "runs")),
		[F_FROM_VALUE] = DOC_REAL_OF("from_value", NULL, 'g', 6, struct translate_factor,
					     from.median),
		[F_FROM_LO] =
			DOC_REAL_OF("from_lo", NULL, 'g', 6, struct translate_factor, from_lo),
		[F_FROM_HI] =
			DOC_REAL_OF("from_hi", NULL, 'g', 6, struct translate_factor, from_hi),
		[F_TO_N] = DOC_FIELD_NONE(DOC_COL_INT("to_n", "runs")),
		[F_TO_VALUE] =
			DOC_REAL_OF("to_value", NULL, 'g', 6, struct translate_factor, to.median),
		[F_TO_LO] = DOC_REAL_OF("to_lo", NULL, 'g', 6, struct translate_factor, to_lo),
		[F_TO_HI] = DOC_REAL_OF("to_hi", NULL, 'g', 6, struct translate_factor, to_hi),
		[F_FACTOR] = DOC_REAL_OF("factor", "x", 'f', 4, struct translate_factor, factor),
		[F_CI_LO] = DOC_REAL_OF("ci_lo", "x", 'f', 4, struct translate_factor, ci_lo),
		[F_CI_HI] = DOC_REAL_OF("ci_hi", "x", 'f', 4, struct translate_factor, ci_hi),
		[F_END_LO] = DOC_REAL_OF("end_lo", "x", 'f', 4, struct translate_factor, end_lo),
		[F_END_HI] = DOC_REAL_OF("end_hi", "x", 'f', 4, struct translate_factor, end_hi),
		[F_MEAN_FACTOR] = DOC_REAL_OF("mean_factor", "x", 'f', 4, struct translate_factor,
					      mean_factor),
		[F_RANGE_LO] =
			DOC_REAL_OF("range_lo", "x", 'f', 4, struct translate_factor, range_lo),
		[F_RANGE_HI] =
			DOC_REAL_OF("range_hi", "x", 'f', 4, struct translate_factor, range_hi),
		[F_METHOD] = DOC_TEXT_SET_OF("method", struct translate_factor, method),
		[F_RULE] = DOC_TEXT_OF("rule", struct translate_factor, rule),
		[F_IN_WORDS] = DOC_TEXT_OF("in_words", struct translate_factor, words),
	};
	struct doc_table *t = doc_table_of(s, cols, NF);
	for (int i = 0; i < TRANSLATE_NKINDS; i++) {
		const struct translate_factor *x = &res->factors[i];
		doc_row(t);
		doc_set_text(t, F_KIND, translate_kind_name(x->kind));
		doc_set_text(t, F_STATUS, x->measured ? "measured" : "not measured");
		doc_set_fields(t, cols, F_MEASURE, F_FROM_N, x);
		doc_set_fields(t, cols, F_IN_WORDS, NF, x);
		/* not measured: the kind and why; the slope's sides when they exist */
		if (x->from.n)
			doc_set_int(t, F_FROM_N, (int64_t)x->from.n);
		if (x->to.n)
			doc_set_int(t, F_TO_N, (int64_t)x->to.n);
		if (!x->measured)
			continue;
		doc_set_fields(t, cols, F_FROM_VALUE, F_TO_N, x);
		doc_set_fields(t, cols, F_TO_VALUE, x->has_ci ? F_END_LO : F_CI_LO, x);
		doc_set_fields(t, cols, F_END_LO, F_IN_WORDS, x);
	}
}

enum {
	A_NAME,
	A_VALUE,
	A_UNIT,
	A_KIND,
	A_KIND_FROM,
	A_FACTOR,
	A_FACTOR_LO,
	A_FACTOR_HI,
	A_MID,
	A_LO,
	A_HI,
	A_STATUS,
	A_HOW,
	A_MEASURED,
	A_MEASURED_N,
	A_CHECK,
	NA
};

static void applied_table(struct doc_section *s, const struct translate_result *res,
			  const char *seed)
{
	static const struct doc_field cols[NA] = {
		[A_NAME] = DOC_TEXT_OF("name", struct translate_applied, name),
		[A_VALUE] = DOC_REAL_OF("value", NULL, 'g', 10, struct translate_applied, value),
		[A_UNIT] = DOC_TEXT_OF("unit", struct translate_applied, unit),
		[A_KIND] = DOC_FIELD_NONE(DOC_COL_TEXT("kind")),
		[A_KIND_FROM] = DOC_TEXT_OF("kind_from", struct translate_applied, kind_how),
		[A_FACTOR] = DOC_REAL_OF("factor", "x", 'f', 4, struct translate_applied, factor),
		[A_FACTOR_LO] =
			DOC_REAL_OF("factor_lo", "x", 'f', 4, struct translate_applied, factor_lo),
		[A_FACTOR_HI] =
			DOC_REAL_OF("factor_hi", "x", 'f', 4, struct translate_applied, factor_hi),
		[A_MID] = DOC_REAL_OF("translated", NULL, 'g', 6, struct translate_applied,
				      translated_value),
		[A_LO] = DOC_REAL_OF("translated_lo", NULL, 'g', 6, struct translate_applied, lo),
		[A_HI] = DOC_REAL_OF("translated_hi", NULL, 'g', 6, struct translate_applied, hi),
		[A_STATUS] = DOC_FIELD_NONE(DOC_COL_TEXT("status")),
		[A_HOW] = DOC_FIELD_NONE(DOC_COL_TEXT("how")),
		[A_MEASURED] =
			DOC_REAL_OF("measured", NULL, 'g', 6, struct translate_applied, measured),
		[A_MEASURED_N] =
			DOC_INT_OF("measured_n", "runs", struct translate_applied, measured_n),
		[A_CHECK] = DOC_TEXT_SET_OF("check", struct translate_applied, check),
	};
	struct doc_table *t = doc_table_of(s, cols, NA);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "nothing to translate (--apply FILE, --apply-medians)");
	for (size_t i = 0; i < res->napplied; i++) {
		const struct translate_applied *a = &res->applied[i];
		const struct translate_factor *f = &res->factors[a->kind];
		const char *kind = translate_kind_name(a->kind);
		char how[1024];
		doc_row(t);
		doc_set_fields(t, cols, A_NAME, A_FACTOR, a);
		doc_set_text(t, A_KIND, kind);
		if (a->translated) {
			doc_set_fields(t, cols, A_FACTOR, A_STATUS, a);
			doc_set_text(t, A_STATUS, "translated");
			snprintf(how, sizeof(how),
				 "translated from %s to %s with the %s factor (%s of %s, %s; "
				 "bootstrap 95%% interval, seed %s)%s%s",
				 res->from.name, res->to.name, kind, f->statistic, f->measure,
				 f->to_over_from ? "multiplied" : "divided", seed,
				 f->method[0] ? ": " : "", f->method);
		} else {
			doc_set_text(t, A_STATUS, "not translated");
			snprintf(how, sizeof(how), "no %s factor: %s", kind, f->words);
		}
		doc_set_text(t, A_HOW, how);
		if (!isnan(a->measured))
			doc_set_fields(t, cols, A_MEASURED, A_CHECK, a);
		doc_set_fields(t, cols, A_CHECK, NA, a);
	}
}

/* Each kind's factor and interval: rate_factor, rate_ci_lo, ... */
static void factor_facts(struct doc *d, const struct translate_result *res)
{
	for (int i = 0; i < TRANSLATE_NKINDS; i++) {
		const struct translate_factor *x = &res->factors[i];
		const char *kind = translate_kind_name(x->kind);
		char name[80], label[128];
		bool ci = x->measured && x->has_ci;
		snprintf(name, sizeof(name), "%s_factor", kind);
		snprintf(label, sizeof(label), "%s factor (%s)", kind, x->statistic);
		doc_fact_real(d, name, label, DOC_QUIET, x->measured ? x->factor : NAN, "x", 'f',
			      4);
		snprintf(name, sizeof(name), "%s_ci_lo", kind);
		snprintf(label, sizeof(label), "%s factor: 95%% interval, low", kind);
		doc_fact_real(d, name, label, DOC_QUIET, ci ? x->ci_lo : NAN, "x", 'f', 4);
		snprintf(name, sizeof(name), "%s_ci_hi", kind);
		snprintf(label, sizeof(label), "%s factor: 95%% interval, high", kind);
		doc_fact_real(d, name, label, DOC_QUIET, ci ? x->ci_hi : NAN, "x", 'f', 4);
		snprintf(name, sizeof(name), "%s_mean_factor", kind);
		snprintf(label, sizeof(label), "%s factor on means", kind);
		doc_fact_real(d, name, label, DOC_QUIET, x->measured ? x->mean_factor : NAN, "x",
			      'f', 4);
		snprintf(name, sizeof(name), "%s_measured", kind);
		snprintf(label, sizeof(label), "%s factor measured", kind);
		doc_fact_bool(d, name, label, DOC_QUIET, x->measured);
	}
}

/* The arms: names, conditions and run counts as facts, and the line that shows them. */
static void arm_facts(struct doc *d, struct doc_section *s, const struct translate_request *req,
		      const struct translate_result *res, const char *metric)
{
	const char *nfrom, *nto;
	doc_fact_text(d, "from", "from", DOC_QUIET, res->from.name);
	doc_fact_text(d, "to", "to", DOC_QUIET, res->to.name);
	doc_fact_text(d, "from_where", "from: conditions", DOC_QUIET, req->from);
	doc_fact_text(d, "to_where", "to: conditions", DOC_QUIET, req->to);
	nfrom = doc_fact_int(d, "from_runs", "from: runs", DOC_QUIET, (int64_t)res->from.sel.n,
			     "runs");
	nto = doc_fact_int(d, "to_runs", "to: runs", DOC_QUIET, (int64_t)res->to.sel.n, "runs");
	doc_fact_text(d, "metric", "metric", DOC_QUIET, metric);
	doc_text(s, "from: %s (%s runs, %s); to: %s (%s runs, %s); metric %s", res->from.name,
		 nfrom, req->from, res->to.name, nto, req->to, metric);
}

/* --check: the runs, and how many translations fell inside. */
static void check_facts(struct doc *d, struct doc_section *s, const struct translate_request *req,
			const struct translate_result *res)
{
	size_t inside = 0, outside = 0;
	const char *nin, *nout, *nruns;
	for (size_t i = 0; i < res->napplied; i++)
		if (res->applied[i].checked)
			res->applied[i].inside ? inside++ : outside++;
	doc_fact_text(d, "check_where", "check: conditions", DOC_QUIET, req->check);
	nruns = doc_fact_int(d, "check_runs", "check: runs", DOC_QUIET,
			     res->has_check ? (int64_t)res->check.sel.n : 0, "runs");
	nin = doc_fact_int(d, "checks_inside",
			   "translations whose interval holds the measured value", DOC_QUIET,
			   (int64_t)inside, NULL);
	nout = doc_fact_int(d, "checks_outside",
			    "translations whose interval misses the measured value", DOC_QUIET,
			    (int64_t)outside, NULL);
	doc_fact_bool(d, "check_is_to", "the check runs include the to-arm's own runs", DOC_QUIET,
		      res->check_is_to);
	if (!res->has_check)
		return;
	doc_text(s,
		 "checked against %s (%s runs, %s): %s inside the translated interval, %s outside",
		 res->check.name, nruns, req->check, nin, nout);
	if (res->check_is_to)
		doc_note(s, "the check runs include the to-arm's own runs: the from-arm's medians "
			    "translated by the median factors land on them by construction; an "
			    "independent check needs other runs on the target CPU");
}

/* The check runs' left-out runs that neither arm already lists. */
static void check_left_out(struct doc *d, const struct translate_result *res)
{
	const struct selection *arms[] = {&res->from.sel, &res->to.sel};
	const struct selection *c = &res->check.sel;
	for (size_t i = 0; i < c->nleft_out; i++) {
		bool seen = false;
		for (size_t a = 0; a < 2 && !seen; a++)
			for (size_t j = 0; j < arms[a]->nleft_out && !seen; j++)
				seen = !strcmp(arms[a]->left_out[j].tag, c->left_out[i].tag) &&
				       !strcmp(arms[a]->left_out[j].reason, c->left_out[i].reason);
		if (!seen)
			doc_left_out(d, c->left_out[i].tag, c->left_out[i].reason);
	}
	build_left_out_count(d);
}

int build_translate(const struct translate_request *req, const struct translate_result *res,
		    struct doc **out)
{
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = build_doc(out, "translate", "");
	struct doc_section *s;
	const char *seed;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Translating figures from %s to %s", res->from.name, res->to.name);
	seed = doc_fact_int(d, "seed", "bootstrap seed", DOC_LISTED, (int64_t)req->seed, NULL);
	doc_fact_int(d, "resamples", "bootstrap resamples", DOC_LISTED, TRANSLATE_RESAMPLES, NULL);
	factor_facts(d, res);
	doc_fact_real(d, "mixed_lo", "mixed statistics: low end", DOC_QUIET,
		      res->has_mixed ? res->mixed_lo : NAN, "x", 'f', 4);
	doc_fact_real(d, "mixed_hi", "mixed statistics: high end", DOC_QUIET,
		      res->has_mixed ? res->mixed_hi : NAN, "x", 'f', 4);

	s = doc_section(d, "factors", "Factors, one per kind of figure");
	arm_facts(d, s, req, res, metric);
	factors_table(s, res);
	doc_note(s,
		 "factor: the ratio of the medians (session_slope: of the OLS slopes), rate = "
		 "from / to (divide a rate by it), every other kind to / from (multiply); ci_lo, "
		 "ci_hi: its seeded bootstrap interval (session_slope: from the slopes' "
		 "intervals); mean_factor: the ratio of the means; from_lo, from_hi: the runs' "
		 "range (cpu_time: the ends of its window bounds; session_slope: the slope's "
		 "interval); end_lo, end_hi: cpu_time's factor on each end of its bounds; "
		 "definitions: `coreplan translate --help`");
	if (res->has_mixed) {
		static const char mean_median[] = "mean(from) / median(to)";
		static const char median_mean[] = "median(from) / mean(to)";
		bool first = res->mixed_lo_mean_first;
		doc_note(s,
			 "statistics: factor divides medians, mean_factor means; a rate factor "
			 "quoted elsewhere between %s (%s) and %s (%s) mixed the two",
			 doc_fact_shown(d, "mixed_lo"), first ? mean_median : median_mean,
			 doc_fact_shown(d, "mixed_hi"), first ? median_mean : mean_median);
	}
	doc_note(s,
		 "a kind without a measured factor translates nothing; every translated "
		 "figure is an estimate, not a measurement: `translate --apply` labels each one");

	s = doc_section(d, "applied", "Translated figures");
	check_facts(d, s, req, res);
	applied_table(s, res, seed);
	doc_note(s, "kind_from: the kind column, the unit, or the unit and the name (a time is "
		    "latency when the name says latency, p50, p90, p95 or p99, else CPU time per "
		    "operation; a memory size is idle when the name says idle, else loaded); "
		    "`coreplan translate --help` lists the units");
	build_left_out(d, &res->from.sel);
	build_left_out(d, &res->to.sel);
	if (res->has_check)
		check_left_out(d, res);
	return build_done(d, out);
}

const char *const build_translate_views[] = {"factors", "applied", NULL};
