/* build_compare: the document of `coreplan compare` (builders.h). */
#include "builders.h"

#include "../analysis/compare.h"
#include "../common/err.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The unit of a field for column headers and facts ("" when unknown). */
static const char *unit_of(const char *field)
{
	const struct field_info *f = field_find(field);
	return f ? f->unit : "";
}

enum {
	C_ARM,
	C_WHERE,
	C_N,
	C_MEDIAN,
	C_MIN,
	C_MAX,
	C_SPREAD,
	C_OVER_BOUND,
	C_RATIO,
	C_RATIO_LO,
	C_RATIO_HI,
	C_U,
	C_P,
	C_EXACT,
	C_MIN_P,
	C_VERDICT,
	C_RUNS_NEEDED,
	C_REASON,
	NCOLS
};

/* One row per arm; the comparison's figures on arm b's row (b relative to a). */
static void arms_table(struct doc_section *s, const struct compare_request *req,
		       const struct compare *c, const char *metric)
{
	const struct doc_col cols[NCOLS] = {
		[C_ARM] = DOC_COL_TEXT("arm"),
		[C_WHERE] = DOC_COL_TEXT("where"),
		[C_N] = DOC_COL_INT("n", "runs"),
		[C_MEDIAN] = DOC_COL_REAL("median", unit_of(metric), 'g', 6),
		[C_MIN] = DOC_COL_REAL("min", unit_of(metric), 'g', 6),
		[C_MAX] = DOC_COL_REAL("max", unit_of(metric), 'g', 6),
		[C_SPREAD] = DOC_COL_REAL("spread_pct", "%", 'f', 1),
		[C_OVER_BOUND] = DOC_COL_REAL("spread_over_bound", "x", 'f', 1),
		[C_RATIO] = DOC_COL_REAL("ratio", "x", 'f', 4),
		[C_RATIO_LO] = DOC_COL_REAL("ratio_lo", "x", 'f', 4),
		[C_RATIO_HI] = DOC_COL_REAL("ratio_hi", "x", 'f', 4),
		[C_U] = DOC_COL_REAL("u", NULL, 'g', 6),
		[C_P] = DOC_COL_REAL("p", NULL, 'g', 4),
		[C_EXACT] = DOC_COL_TEXT("exact"),
		[C_MIN_P] = DOC_COL_REAL("min_p", NULL, 'g', 4),
		[C_VERDICT] = DOC_COL_TEXT("verdict"),
		[C_RUNS_NEEDED] = DOC_COL_REAL("runs_needed", "runs", 'g', 6),
		[C_REASON] = DOC_COL_TEXT("reason"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	for (int arm = 0; arm < 2; arm++) {
		const struct summary *x = arm ? &c->b : &c->a;
		doc_row(t);
		doc_set_text(t, C_ARM, arm ? "b" : "a");
		doc_set_text(t, C_WHERE, req->arm[arm]);
		doc_set_int(t, C_N, (int64_t)x->n);
		doc_set_real(t, C_MEDIAN, x->median);
		doc_set_real(t, C_MIN, x->min);
		doc_set_real(t, C_MAX, x->max);
		doc_set_real(t, C_SPREAD, x->spread_pct);
		doc_set_real(t, C_OVER_BOUND,
			     arm ? c->spread_over_bound_b : c->spread_over_bound_a);
		if (arm == 0)
			continue;
		doc_set_real(t, C_RATIO, c->ratio.ratio);
		doc_set_real(t, C_RATIO_LO, c->ratio.lo);
		doc_set_real(t, C_RATIO_HI, c->ratio.hi);
		doc_set_real(t, C_U, c->test.u);
		doc_set_real(t, C_P, c->test.p);
		doc_set_text(t, C_EXACT, c->test.exact ? "exact" : "normal");
		doc_set_real(t, C_MIN_P, c->test.min_p);
		doc_set_text(t, C_VERDICT, c->verdict);
		doc_set_real(t, C_RUNS_NEEDED, c->runs_needed);
		doc_set_text(t, C_REASON, c->reason);
	}
}

/* The test and the interval: facts, and the notes that quote them. */
static void method_notes(struct doc *d, struct doc_section *s, const struct compare *c,
			 const char *metric)
{
	const struct compare_options *o = &c->opts;
	const char *ratio, *lo, *hi, *resamples, *seed, *ci;
	doc_note(s, "verdict: %s (%s)", doc_fact_string(d, "verdict"),
		 doc_fact_string(d, "reason"));
	ratio = doc_fact_real(d, "ratio", "median(b) / median(a)", DOC_QUIET, c->ratio.ratio, "x",
			      'f', 4);
	lo = doc_fact_real(d, "ratio_lo", "ratio interval, low end", DOC_QUIET, c->ratio.lo, "x",
			   'f', 4);
	hi = doc_fact_real(d, "ratio_hi", "ratio interval, high end", DOC_QUIET, c->ratio.hi, "x",
			   'f', 4);
	ci = doc_fact_real(d, "ratio_ci_pct", "bootstrap interval coverage", DOC_QUIET,
			   COMPARE_CI_PCT, "%", 'g', 6);
	resamples = doc_fact_int(d, "resamples", "bootstrap resamples", DOC_QUIET,
				 (int64_t)c->ratio.resamples, NULL);
	seed = doc_fact_int(d, "seed", "bootstrap seed", DOC_QUIET, (int64_t)c->ratio.seed, NULL);
	doc_note(s,
		 "metric %s, %s is better; ratio = median(b) / median(a) = %s, bootstrap %s%% "
		 "interval [%s, %s] (%s resamples, seed %s)",
		 metric, o->lower_is_better ? "lower" : "higher", ratio, ci, lo, hi, resamples,
		 seed);
	doc_fact_real(d, "u", "Mann-Whitney U of b against a", DOC_QUIET, c->test.u, NULL, 'g', 6);
	doc_fact_real(d, "p", "two-sided p", DOC_QUIET, c->test.p, NULL, 'g', 4);
	doc_fact_bool(d, "exact", "exact distribution (else normal approximation)", DOC_QUIET,
		      c->test.exact);
	doc_fact_real(d, "min_p", "smallest p these arm sizes can reach", DOC_QUIET, c->test.min_p,
		      NULL, 'g', 4);
	{
		const char *alpha = doc_fact_real(d, "alpha", "two-sided significance level",
						  DOC_QUIET, o->alpha, NULL, 'g', 3);
		const char *power = doc_fact_real(d, "power", "power for runs_needed", DOC_QUIET,
						  o->power, NULL, 'g', 3);
		const char *cv = doc_fact_real(d, "cv", "pooled coefficient of variation",
					       DOC_QUIET, c->cv, NULL, 'f', 4);
		const char *effect = doc_fact_real(d, "effect_pct", "effect runs_needed resolves",
						   DOC_QUIET, c->effect_pct, "%", 'g', 3);
		const char *needed = doc_fact_real(d, "runs_needed", "runs needed per arm",
						   DOC_QUIET, c->runs_needed, "runs", 'f', 0);
		const char *floor =
			doc_fact_real(d, "rank_floor", "fewest runs per arm the rank test can use",
				      DOC_QUIET, c->rank_floor, "runs", 'f', 0);
		if (isnan(c->runs_needed))
			doc_note(s, "runs needed: not computable (an arm needs at least two runs "
				    "for a spread, and the effect must be above zero)");
		else
			doc_note(
				s,
				"runs needed per arm to resolve a %s%% effect at cv %s: %s (normal "
				"approximation, power %s, two-sided alpha %s; at least %s, the "
				"fewest with which the rank test can reach alpha)",
				effect, cv, needed, power, alpha, floor);
	}
}

int build_compare(const struct compare_request *req, const struct compare_result *res,
		  struct doc **out)
{
	const struct compare *c = &res->c;
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = doc_new("compare", "");
	struct doc_section *s;
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	doc_set_title(d, "Comparison of %s: arm b against arm a", metric);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_text(d, "a_where", "arm a (the baseline)", DOC_LISTED, req->arm[0]);
	doc_fact_text(d, "b_where", "arm b (the change)", DOC_LISTED, req->arm[1]);
	doc_fact_bool(d, "lower_is_better", "lower is better", DOC_LISTED, c->opts.lower_is_better);
	if (c->opts.has_effect_bound)
		doc_fact_real(d, "effect_bound_pct", "effect bound", DOC_LISTED,
			      c->opts.effect_bound_pct, "%", 'g', 6);
	doc_fact_text(d, "verdict", "verdict", DOC_LISTED, c->verdict);
	doc_fact_text(d, "reason", "reason", DOC_QUIET, c->reason);
	s = doc_section(d, "arms", "Arms");
	arms_table(s, req, c, metric);
	method_notes(d, s, c, metric);
	doc_note(s, "definitions: `coreplan compare --help`");
	build_left_out(d, &res->sel[0]);
	/* a run left out of both arms is listed once */
	for (size_t i = 0; i < res->sel[1].nleft_out; i++) {
		const struct sel_left_out *x = &res->sel[1].left_out[i];
		bool listed = false;
		for (size_t j = 0; j < res->sel[0].nleft_out && !listed; j++)
			listed = !strcmp(res->sel[0].left_out[j].tag, x->tag) &&
				 !strcmp(res->sel[0].left_out[j].reason, x->reason);
		if (!listed)
			doc_left_out(d, x->tag, x->reason);
	}
	build_left_out_count(d);
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
