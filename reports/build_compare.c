/* build_compare: the document of `coreplan compare` (builders.h). */
#include "builders.h"

#include "../analysis/compare.h"
#include "../analysis/comparepy.h"
#include "../common/err.h"
#include "../common/units.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *design_word(const struct compare_result *res)
{
	switch (res->design) {
	case COMPARE_BY:
		return "by";
	case COMPARE_PAIRED:
		return "paired";
	default:
		return "unpaired";
	}
}

/* ---- comparison: one row, the design's comparison ---- */

enum {
	R_DESIGN,
	R_SCALE,
	R_A_N,
	R_A_MEDIAN,
	R_A_MIN,
	R_A_MAX,
	R_A_SPREAD,
	R_A_RANGE,
	R_B_N,
	R_B_MEDIAN,
	R_B_MIN,
	R_B_MAX,
	R_B_SPREAD,
	R_B_RANGE,
	R_RATIO,
	R_RATIO_LO,
	R_RATIO_HI,
	R_DIFF,
	R_TEST,
	R_GM,
	R_GM_LO,
	R_GM_HI,
	R_MEAN_DIFF,
	R_MEAN_DIFF_LO,
	R_MEAN_DIFF_HI,
	R_T,
	R_DF,
	R_T_P,
	R_MW_U,
	R_MW_P,
	R_MIN_P,
	R_EFFECT_PCT,
	R_EFFECT,
	R_OVER_SPREAD_A,
	R_OVER_SPREAD_B,
	R_OVER_BOUND_A,
	R_OVER_BOUND_B,
	R_DISJOINT,
	R_VERDICT,
	R_RUNS_NEEDED,
	RCOLS
};

/*
 * The estimate and t-test columns the headline and the levels tables both
 * carry, in this order from P_GM on (u: the metric's unit, for differences):
 * the estimate in the ratio or the difference columns by the scale
 * (build_set_interval), the t test from the struct verdict.
 */
#define ESTIMATE_COLS(P, u)                                                                        \
	[P##_GM] = DOC_FIELD_NONE(DOC_COL_REAL("gm_ratio", "x", 'f', 4)),                          \
	[P##_GM_LO] = DOC_FIELD_NONE(DOC_COL_REAL("gm_ratio_lo", "x", 'f', 4)),                    \
	[P##_GM_HI] = DOC_FIELD_NONE(DOC_COL_REAL("gm_ratio_hi", "x", 'f', 4)),                    \
	[P##_MEAN_DIFF] = DOC_FIELD_NONE(DOC_COL_REAL("mean_diff", u, 'g', 4)),                    \
	[P##_MEAN_DIFF_LO] = DOC_FIELD_NONE(DOC_COL_REAL("mean_diff_lo", u, 'g', 4)),              \
	[P##_MEAN_DIFF_HI] = DOC_FIELD_NONE(DOC_COL_REAL("mean_diff_hi", u, 'g', 4)),              \
	[P##_T] = DOC_REAL_OF("t", NULL, 'g', 4, struct verdict, t.t),                             \
	[P##_DF] = DOC_REAL_OF("df", NULL, 'g', 3, struct verdict, t.df),                          \
	[P##_T_P] = DOC_REAL_OF("t_p", NULL, 'g', 3, struct verdict, p)

/* An arm's columns from its struct summary, named pre "n", pre "median", ... */
#define SUMMARY_COLS(P, pre, u)                                                                    \
	[P##_N] = DOC_INT_OF(pre "n", "runs", struct summary, n),                                  \
	[P##_MEDIAN] = DOC_REAL_OF(pre "median", u, 'g', 6, struct summary, median),               \
	[P##_MIN] = DOC_REAL_OF(pre "min", u, 'g', 6, struct summary, min),                        \
	[P##_MAX] = DOC_REAL_OF(pre "max", u, 'g', 6, struct summary, max),                        \
	[P##_SPREAD] = DOC_REAL_OF(pre "spread_pct", "%", 'f', 1, struct summary, spread_pct)

/* A verdict's word, runs needed and reason, the arms' and the levels' last columns. */
#define VERDICT_COLS(P)                                                                            \
	[P##_VERDICT] = DOC_TEXT_OF("verdict", struct verdict, word),                              \
	[P##_RUNS_NEEDED] =                                                                        \
		DOC_REAL_OF("runs_needed", "runs", 'g', 6, struct verdict, runs_needed),           \
	[P##_REASON] = DOC_TEXT_OF("reason", struct verdict, reason)

static void comparison_table(struct doc_section *s, const struct compare_result *res,
			     const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[RCOLS] = {
		[R_DESIGN] = DOC_FIELD_NONE(DOC_COL_TEXT("design")),
		[R_SCALE] = DOC_FIELD_NONE(DOC_COL_TEXT("scale")),
		SUMMARY_COLS(R_A, "a_", u),
		[R_A_RANGE] = DOC_FIELD_NONE(DOC_COL_REAL("a_range", u, 'g', 4)),
		SUMMARY_COLS(R_B, "b_", u),
		[R_B_RANGE] = DOC_FIELD_NONE(DOC_COL_REAL("b_range", u, 'g', 4)),
		[R_RATIO] = DOC_FIELD_NONE(DOC_COL_REAL("ratio", "x", 'f', 4)),
		[R_RATIO_LO] = DOC_FIELD_NONE(DOC_COL_REAL("ratio_lo", "x", 'f', 4)),
		[R_RATIO_HI] = DOC_FIELD_NONE(DOC_COL_REAL("ratio_hi", "x", 'f', 4)),
		[R_DIFF] = DOC_FIELD_NONE(DOC_COL_REAL("diff", u, 'g', 4)),
		[R_TEST] = DOC_FIELD_NONE(DOC_COL_TEXT("test")),
		ESTIMATE_COLS(R, u),
		[R_MW_U] = DOC_FIELD_NONE(DOC_COL_REAL("mw_u", NULL, 'g', 6)),
		[R_MW_P] = DOC_FIELD_NONE(DOC_COL_REAL("mw_p", NULL, 'g', 3)),
		[R_MIN_P] = DOC_FIELD_NONE(DOC_COL_REAL("min_p", NULL, 'g', 3)),
		[R_EFFECT_PCT] = DOC_FIELD_NONE(DOC_COL_REAL("effect_pct", "%", 'g', 3)),
		[R_EFFECT] = DOC_FIELD_NONE(DOC_COL_REAL("effect", u, 'g', 4)),
		[R_OVER_SPREAD_A] =
			DOC_FIELD_NONE(DOC_COL_REAL("effect_over_spread_a", "x", 'f', 2)),
		[R_OVER_SPREAD_B] =
			DOC_FIELD_NONE(DOC_COL_REAL("effect_over_spread_b", "x", 'f', 2)),
		[R_OVER_BOUND_A] = DOC_FIELD_NONE(DOC_COL_REAL("spread_over_bound_a", "x", 'f', 1)),
		[R_OVER_BOUND_B] = DOC_FIELD_NONE(DOC_COL_REAL("spread_over_bound_b", "x", 'f', 1)),
		[R_DISJOINT] = DOC_FIELD_NONE(DOC_COL_TEXT("ranges_disjoint")),
		[R_VERDICT] = DOC_FIELD_NONE(DOC_COL_TEXT("verdict")),
		[R_RUNS_NEEDED] = DOC_FIELD_NONE(DOC_COL_REAL("runs_needed", "runs", 'g', 6)),
	};
	const struct compare *c = &res->c;
	const struct verdict *o = res->headline;
	struct doc_table *t = doc_table_of(s, cols, RCOLS);
	doc_table_hide_empty(t);
	doc_row(t);
	doc_set_text(t, R_DESIGN, design_word(res));
	doc_set_text(t, R_SCALE, c->log_scale ? "log" : "absolute");
	doc_set_fields(t, cols, R_A_N, R_A_SPREAD + 1, &c->a);
	doc_set_fields(t, cols, R_B_N, R_B_SPREAD + 1, &c->b);
	if (!c->log_scale) {
		doc_set_real(t, R_A_RANGE, c->a.max - c->a.min);
		doc_set_real(t, R_B_RANGE, c->b.max - c->b.min);
	}
	doc_set_real(t, R_RATIO, c->ratio.ratio);
	if (res->design == COMPARE_UNPAIRED) {
		doc_set_real(t, R_RATIO_LO, c->ratio.lo);
		doc_set_real(t, R_RATIO_HI, c->ratio.hi);
		doc_set_real(t, R_MW_U, c->v.rank.u);
		doc_set_real(t, R_MW_P, c->v.rank.p);
		doc_set_real(t, R_MIN_P, c->v.rank.min_p);
		doc_set_text(t, R_DISJOINT, c->v.ranges_disjoint ? "yes" : "no");
	}
	if (!c->log_scale)
		doc_set_real(t, R_DIFF, c->diff);
	if (!o) { /* --by: the levels' summary (verdict_tally) */
		const struct verdict_tally *tl = &res->tally;
		doc_set_text(t, R_TEST, tl->method);
		build_set_interval(t, c->log_scale ? R_GM : R_MEAN_DIFF, tl->estimate, tl->lo,
				   tl->hi);
		doc_set_real(t, R_DF, tl->df);
		doc_set_text(t, R_VERDICT, tl->text);
		return;
	}
	doc_set_text(t, R_TEST, o->test);
	build_set_interval(t, c->log_scale ? R_GM : R_MEAN_DIFF, o->estimate, o->lo, o->hi);
	doc_set_fields(t, cols, R_T, R_T_P + 1, o);
	doc_set_real(t, c->log_scale ? R_EFFECT_PCT : R_EFFECT,
		     c->log_scale ? o->observed_pct : fabs(o->estimate));
	if (res->design == COMPARE_UNPAIRED) {
		doc_set_real(t, R_OVER_SPREAD_A, c->effect_over_spread_a);
		doc_set_real(t, R_OVER_SPREAD_B, c->effect_over_spread_b);
		doc_set_real(t, R_OVER_BOUND_A, c->spread_over_bound_a);
		doc_set_real(t, R_OVER_BOUND_B, c->spread_over_bound_b);
	}
	doc_set_text(t, R_VERDICT, o->word);
	doc_set_real(t, R_RUNS_NEEDED, o->runs_needed);
}

/* ---- arms: one row per arm, the unpaired comparison on arm b's row ---- */

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

static void arms_table(struct doc_section *s, const struct compare_request *req,
		       const struct compare *c, const char *metric)
{
	const struct doc_field cols[NCOLS] = {
		[C_ARM] = DOC_FIELD_NONE(DOC_COL_TEXT("arm")),
		[C_WHERE] = DOC_FIELD_NONE(DOC_COL_TEXT("where")),
		SUMMARY_COLS(C, "", field_known_unit(metric)),
		[C_OVER_BOUND] = DOC_FIELD_NONE(DOC_COL_REAL("spread_over_bound", "x", 'f', 1)),
		[C_RATIO] = DOC_REAL_OF("ratio", "x", 'f', 4, struct ratio_ci, ratio),
		[C_RATIO_LO] = DOC_REAL_OF("ratio_lo", "x", 'f', 4, struct ratio_ci, lo),
		[C_RATIO_HI] = DOC_REAL_OF("ratio_hi", "x", 'f', 4, struct ratio_ci, hi),
		[C_U] = DOC_REAL_OF("u", NULL, 'g', 6, struct verdict, rank.u),
		[C_P] = DOC_REAL_OF("p", NULL, 'g', 4, struct verdict, rank.p),
		[C_EXACT] = DOC_FIELD_NONE(DOC_COL_TEXT("exact")),
		[C_MIN_P] = DOC_REAL_OF("min_p", NULL, 'g', 4, struct verdict, rank.min_p),
		VERDICT_COLS(C),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	for (int arm = 0; arm < 2; arm++) {
		doc_row(t);
		doc_set_text(t, C_ARM, arm ? "b" : "a");
		doc_set_text(t, C_WHERE, req->arm[arm]);
		doc_set_fields(t, cols, C_N, C_SPREAD + 1, arm ? &c->b : &c->a);
		doc_set_real(t, C_OVER_BOUND,
			     arm ? c->spread_over_bound_b : c->spread_over_bound_a);
	}
	/* the unpaired comparison on arm b's row */
	doc_set_fields(t, cols, C_RATIO, C_RATIO_HI + 1, &c->ratio);
	doc_set_fields(t, cols, C_U, NCOLS, &c->v);
	doc_set_text(t, C_EXACT, c->v.rank.exact ? "exact" : "normal");
}

/* ---- levels (--by) ---- */

enum {
	L_LEVEL,
	L_A_N,
	L_B_N,
	L_A_MEDIAN,
	L_B_MEDIAN,
	L_A_SPREAD,
	L_B_SPREAD,
	L_RATIO,
	L_DIFF,
	L_GM,
	L_GM_LO,
	L_GM_HI,
	L_MEAN_DIFF,
	L_MEAN_DIFF_LO,
	L_MEAN_DIFF_HI,
	L_T,
	L_DF,
	L_T_P,
	L_DISJOINT,
	L_VERDICT,
	L_RUNS_NEEDED,
	L_REASON,
	LCOLS
};

static void levels_table(struct doc_section *s, const struct compare_result *res,
			 const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[LCOLS] = {
		[L_LEVEL] = DOC_TEXT_OF("level", struct compare_level, level),
		[L_A_N] = DOC_INT_OF("a_n", "runs", struct compare_level, c.a.n),
		[L_B_N] = DOC_INT_OF("b_n", "runs", struct compare_level, c.b.n),
		[L_A_MEDIAN] = DOC_REAL_OF("a_median", u, 'g', 6, struct compare_level, c.a.median),
		[L_B_MEDIAN] = DOC_REAL_OF("b_median", u, 'g', 6, struct compare_level, c.b.median),
		[L_A_SPREAD] = DOC_REAL_OF("a_spread_pct", "%", 'f', 1, struct compare_level,
					   c.a.spread_pct),
		[L_B_SPREAD] = DOC_REAL_OF("b_spread_pct", "%", 'f', 1, struct compare_level,
					   c.b.spread_pct),
		[L_RATIO] = DOC_REAL_OF("ratio", "x", 'f', 4, struct compare_level, c.ratio.ratio),
		[L_DIFF] = DOC_FIELD_NONE(DOC_COL_REAL("diff", u, 'g', 4)),
		ESTIMATE_COLS(L, u),
		[L_DISJOINT] = DOC_YES_NO_OF("ranges_disjoint", struct verdict, ranges_disjoint),
		VERDICT_COLS(L),
	};
	struct doc_table *t = doc_table_of(s, cols, LCOLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "none: no --by FIELD");
	for (size_t i = 0; i < res->nlevels; i++) {
		const struct compare *c = &res->levels[i].c;
		doc_row(t);
		doc_set_fields(t, cols, L_LEVEL, L_RATIO + 1, &res->levels[i]);
		if (!c->log_scale)
			doc_set_real(t, L_DIFF, c->diff);
		build_set_interval(t, c->log_scale ? L_GM : L_MEAN_DIFF, c->v.estimate, c->v.lo,
				   c->v.hi);
		doc_set_fields(t, cols, L_T, LCOLS, &c->v);
	}
}

/* ---- benchstat's view (analysis/benchstat.h) ---- */

/*
 * The first two columns of a row of benchstat's or compare.py's view: its
 * level (--by's, else "all") and the metric, its unit.
 */
enum { LEVEL_COL, UNIT_COL };
static void level_and_unit(struct doc_table *t, const struct compare_result *res, size_t i,
			   const char *metric)
{
	doc_set_text(t, LEVEL_COL, res->design == COMPARE_BY ? res->levels[i].level : "all");
	doc_set_text(t, UNIT_COL, metric);
}

enum {
	B_LEVEL,
	B_UNIT,
	B_A_MEDIAN,
	B_A_CI,
	B_B_MEDIAN,
	B_B_CI,
	B_DELTA,
	B_CHANGE,
	B_P,
	B_A_N,
	B_B_N,
	B_A_LO,
	B_A_HI,
	B_B_LO,
	B_B_HI,
	B_TEST,
	BCOLS
};

static void benchstat_table(struct doc *d, struct doc_section *s, const struct compare_request *req,
			    const struct compare_result *res, const char *metric)
{
	const char *u = field_known_unit(metric);
	/* an infinite interval (benchstat's ± ∞) is a missing cell, as NaN is */
	const struct doc_field cols[BCOLS] = {
		[B_LEVEL] = DOC_FIELD_NONE(DOC_COL_TEXT("level")),
		[B_UNIT] = DOC_FIELD_NONE(DOC_COL_TEXT("unit")),
		[B_A_MEDIAN] = DOC_REAL_OF("a_median", u, 'g', 6, struct benchstat_row, a.median),
		[B_A_CI] = DOC_REAL_OF("a_ci_pct", "%", 'f', 0, struct benchstat_row, a.ci_pct),
		[B_B_MEDIAN] = DOC_REAL_OF("b_median", u, 'g', 6, struct benchstat_row, b.median),
		[B_B_CI] = DOC_REAL_OF("b_ci_pct", "%", 'f', 0, struct benchstat_row, b.ci_pct),
		[B_DELTA] = DOC_FIELD_NONE(DOC_COL_REAL("delta_pct", "%", 'f', 2)),
		[B_CHANGE] = DOC_FIELD_NONE(DOC_COL_TEXT("change")),
		[B_P] = DOC_REAL_OF("p", NULL, 'f', 3, struct benchstat_row, test.p),
		[B_A_N] = DOC_INT_OF("a_n", "runs", struct benchstat_row, a.n),
		[B_B_N] = DOC_INT_OF("b_n", "runs", struct benchstat_row, b.n),
		[B_A_LO] = DOC_REAL_OF("a_lo", u, 'g', 6, struct benchstat_row, a.lo),
		[B_A_HI] = DOC_REAL_OF("a_hi", u, 'g', 6, struct benchstat_row, a.hi),
		[B_B_LO] = DOC_REAL_OF("b_lo", u, 'g', 6, struct benchstat_row, b.lo),
		[B_B_HI] = DOC_REAL_OF("b_hi", u, 'g', 6, struct benchstat_row, b.hi),
		[B_TEST] = DOC_FIELD_NONE(DOC_COL_TEXT("test")),
	};
	struct doc_table *t = doc_table_of(s, cols, BCOLS);
	bool infinite = false;
	doc_text(s,
		 "benchstat's columns (golang.org/x/perf/cmd/benchstat): each arm's median and "
		 "the half-width of its %s%% confidence interval of the median as a percentage "
		 "of it (benchstat's ± N%%), the change of the medians (empty and change ~ when "
		 "the Mann-Whitney p is above alpha %s), p and the runs.",
		 doc_fact_real(d, "benchstat_confidence_pct", "benchstat interval", DOC_QUIET,
			       BENCHSTAT_CONFIDENCE * 100, "%", 'g', 3),
		 doc_fact_real(d, "benchstat_alpha", "benchstat alpha", DOC_QUIET, BENCHSTAT_ALPHA,
			       NULL, 'g', 3));
	doc_table_empty_text(t, "none: benchstat compares unpaired arms, or the levels of --by");
	for (size_t i = 0; i < res->nbenchstat; i++) {
		const struct benchstat_row *r = &res->benchstat[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, BCOLS, r);
		level_and_unit(t, res, i, metric);
		if (r->significant)
			doc_set_real(t, B_DELTA, r->delta_pct);
		doc_set_text(t, B_CHANGE, r->significant ? "changed" : "~");
		doc_set_text(t, B_TEST,
			     r->test.exact ? (r->test.ties ? "exact given ties" : "exact")
					   : "normal");
		infinite |= !isfinite(r->a.ci_pct) || !isfinite(r->b.ci_pct);
	}
	(void)req;
	if (infinite)
		doc_note(s, "a missing ci_pct (NA) is benchstat's ± ∞: the interval reaches past the "
			    "sample (fewer than 6 runs at 95%%) or crosses zero");
}

/* ---- compare.py's view (analysis/comparepy.h) on one metric ---- */

enum { Y_LEVEL, Y_UNIT, Y_A_MEAN, Y_B_MEAN, Y_CHANGE, Y_P, Y_A_N, Y_B_N, Y_TEST, YCOLS };
_Static_assert((int)B_LEVEL == LEVEL_COL && (int)B_UNIT == UNIT_COL && (int)Y_LEVEL == LEVEL_COL &&
		       (int)Y_UNIT == UNIT_COL,
	       "both views start with the columns level_and_unit sets");

static void comparepy_table(struct doc *d, struct doc_section *s, const struct compare_result *res,
			    const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[YCOLS] = {
		[Y_LEVEL] = DOC_FIELD_NONE(DOC_COL_TEXT("level")),
		[Y_UNIT] = DOC_FIELD_NONE(DOC_COL_TEXT("unit")),
		[Y_A_MEAN] = DOC_REAL_OF("a_mean", u, 'g', 6, struct compare_comparepy, mean[0]),
		[Y_B_MEAN] = DOC_REAL_OF("b_mean", u, 'g', 6, struct compare_comparepy, mean[1]),
		[Y_CHANGE] = DOC_REAL_OF("change", NULL, 'f', 4, struct compare_comparepy, change),
		[Y_P] = DOC_FIELD_NONE(DOC_COL_REAL("utest_p", NULL, 'f', 4)),
		[Y_A_N] = DOC_INT_OF("a_n", "runs", struct compare_comparepy, n[0]),
		[Y_B_N] = DOC_INT_OF("b_n", "runs", struct compare_comparepy, n[1]),
		[Y_TEST] = DOC_FIELD_NONE(DOC_COL_TEXT("test")),
	};
	struct doc_table *t = doc_table_of(s, cols, YCOLS);
	bool unreliable = false;
	doc_text(s, "Google Benchmark's tools/compare.py on the same runs: each arm's mean, the "
		    "relative change (b - a) / |a| of the means, and the two-sided Mann-Whitney U "
		    "test with SciPy's choice of method when each arm has %s runs or more.",
		 doc_fact_int(d, "comparepy_utest_min", "compare.py U test from", DOC_QUIET,
			      COMPAREPY_UTEST_MIN, "runs"));
	doc_table_empty_text(t, "none: compare.py compares unpaired arms, or the levels of --by");
	for (size_t i = 0; i < res->ncomparepy; i++) {
		const struct compare_comparepy *c = &res->comparepy[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, YCOLS, c);
		level_and_unit(t, res, i, metric);
		if (c->utest)
			doc_set_real(t, Y_P, c->test.p);
		doc_set_text(t, Y_TEST,
			     !c->utest ? "too few runs" : c->test.exact ? "exact" : "normal");
		unreliable |= c->utest && !c->optimal;
	}
	if (unreliable)
		doc_note(s, "fewer than %s runs in an arm: compare.py calls such a U test's result "
			    "unreliable",
			 doc_fact_int(d, "comparepy_utest_optimal", "compare.py reliable from",
				      DOC_QUIET, COMPAREPY_UTEST_OPTIMAL, "runs"));
}

/* ---- pairs (--pair-by) ---- */

enum { P_KEY, P_A_TAG, P_B_TAG, P_A, P_B, P_RATIO, P_DIFF, P_AGREES, PCOLS };

static void pairs_table(struct doc_section *s, const struct compare_result *res, const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[PCOLS] = {
		[P_KEY] = DOC_TEXT_OF("key", struct compare_pair, key),
		[P_A_TAG] = DOC_TEXT_OF("a_tag", struct compare_pair, tag_a),
		[P_B_TAG] = DOC_TEXT_OF("b_tag", struct compare_pair, tag_b),
		[P_A] = DOC_REAL_OF("a", u, 'g', 6, struct compare_pair, a),
		[P_B] = DOC_REAL_OF("b", u, 'g', 6, struct compare_pair, b),
		[P_RATIO] = DOC_FIELD_NONE(DOC_COL_REAL("ratio", "x", 'f', 4)),
		[P_DIFF] = DOC_FIELD_NONE(DOC_COL_REAL("diff", u, 'g', 4)),
		[P_AGREES] = DOC_FIELD_NONE(DOC_COL_BOOL("agrees")),
	};
	const struct verdict *o = &res->paired;
	bool log_scale = res->c.log_scale;
	double null = log_scale ? 1 : 0;
	struct doc_table *t = doc_table_of(s, cols, PCOLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "none: no --pair-by FIELD");
	for (size_t i = 0; i < res->npairs; i++) {
		const struct compare_pair *p = &res->pairs[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, PCOLS, p);
		doc_set_real(t, log_scale ? P_RATIO : P_DIFF, p->estimate);
		doc_set_bool(t, P_AGREES,
			     (p->estimate > null && o->estimate > null) ||
				     (p->estimate < null && o->estimate < null));
	}
}

/*
 * A figure named by the scale: the log scale's fact (a ratio, a %) and the
 * absolute scale's (metric units) are both in every document, the other
 * scale's missing, so a script finds the same names either way. Returns
 * the shown value of this scale's fact.
 */
static const char *scaled_fact(struct doc *d, bool log_scale, const char *log_name,
			       const char *log_label, const char *log_unit, const char *abs_name,
			       const char *abs_label, const char *abs_unit, double value,
			       char style, int precision)
{
	const char *lg = doc_fact_real(d, log_name, log_label, DOC_QUIET, log_scale ? value : NAN,
				       log_unit, style, precision);
	const char *ab = doc_fact_real(d, abs_name, abs_label, DOC_QUIET, log_scale ? NAN : value,
				       abs_unit, 'g', precision);
	return log_scale ? lg : ab;
}

/* ---- facts and notes ---- */

/*
 * The unpaired comparison of the runs used: the ratio and its bootstrap
 * interval, Welch, the rank test, the effect against the spreads and the
 * bound (facts, and the notes in s that quote them).
 */
static void unpaired_notes(struct doc *d, struct doc_section *s, const struct compare_result *res,
			   const char *metric)
{
	const struct compare *c = &res->c;
	const struct compare_options *o = &c->opts;
	const char *better = res->metric.lower_is_better ? "lower" : "higher";
	const char *ratio, *lo, *hi, *resamples, *seed, *ci, *wt, *wdf, *wp, *gm, *gmlo, *gmhi;
	const char *u, *p, *min_p;
	ci = doc_fact_real(d, "ratio_ci_pct", "bootstrap and t interval coverage", DOC_QUIET,
			   COMPARE_CI_PCT, "%", 'g', 6);
	ratio = doc_fact_real(d, "ratio", "median(b) / median(a)", DOC_QUIET, c->ratio.ratio, "x",
			      'f', 4);
	lo = doc_fact_real(d, "ratio_lo", "ratio interval, low end", DOC_QUIET, c->ratio.lo, "x",
			   'f', 4);
	hi = doc_fact_real(d, "ratio_hi", "ratio interval, high end", DOC_QUIET, c->ratio.hi, "x",
			   'f', 4);
	resamples = doc_fact_int(d, "resamples", "bootstrap resamples", DOC_QUIET,
				 (int64_t)c->ratio.resamples, NULL);
	seed = doc_fact_int(d, "seed", "bootstrap seed", DOC_QUIET, (int64_t)c->ratio.seed, NULL);
	if (!c->log_scale) {
		const char *diff = doc_fact_real(d, "diff", "median(b) - median(a)", DOC_QUIET,
						 c->diff, field_known_unit(metric), 'g', 4);
		doc_note(s,
			 "metric %s, %s is better; a value is 0 or below, so the comparison is "
			 "of differences in the metric's units and ratios are undefined; "
			 "median(b) - median(a) = %s",
			 metric, better, diff);
	} else if (isnan(c->ratio.lo)) {
		doc_note(s,
			 "metric %s, %s is better; ratio = median(b) / median(a) = %s; no "
			 "interval: an arm has one run",
			 metric, better, ratio);
		doc_fact_real(d, "diff", "median(b) - median(a)", DOC_QUIET, c->diff,
			      field_known_unit(metric), 'g', 4);
	} else {
		doc_note(s,
			 "metric %s, %s is better; ratio = median(b) / median(a) = %s, bootstrap "
			 "%s%% interval [%s, %s] (%s resamples, seed %s)",
			 metric, better, ratio, ci, lo, hi, resamples, seed);
		doc_fact_real(d, "diff", "median(b) - median(a)", DOC_QUIET, c->diff,
			      field_known_unit(metric), 'g', 4);
	}
	/* Welch (the unpaired test of the runs used) */
	wt = doc_fact_real(d, "welch_t", "Welch t of b against a", DOC_QUIET, c->v.t.t, NULL, 'g',
			   4);
	wdf = doc_fact_real(d, "welch_df", "Welch-Satterthwaite degrees of freedom", DOC_QUIET,
			    c->v.t.df, NULL, 'g', 3);
	wp = doc_fact_real(d, "welch_p", "Welch two-sided p", DOC_QUIET, c->v.p, NULL, 'g', 3);
	gm = scaled_fact(d, c->log_scale, "gm_ratio", "ratio of geometric means (Welch)", "x",
			 "mean_diff", "mean(b) - mean(a) (Welch)", field_known_unit(metric), c->v.estimate,
			 'f', 4);
	gmlo = scaled_fact(d, c->log_scale, "gm_ratio_lo", "its t interval, low end", "x",
			   "mean_diff_lo", "its t interval, low end", field_known_unit(metric), c->v.lo, 'f',
			   4);
	gmhi = scaled_fact(d, c->log_scale, "gm_ratio_hi", "its t interval, high end", "x",
			   "mean_diff_hi", "its t interval, high end", field_known_unit(metric), c->v.hi,
			   'f', 4);
	if (c->v.has_test && strcmp(c->v.test, "exact"))
		doc_note(s, "Welch t on %s: t = %s, df = %s, p = %s; %s %s, %s%% interval [%s, %s]",
			 c->log_scale ? "ln values" : "values", wt, wdf, wp,
			 c->log_scale ? "ratio of geometric means" : "mean difference", gm, ci,
			 gmlo, gmhi);
	else if (c->v.has_test)
		doc_note(s, "Welch t: none (%s): %s", c->v.test_words, gm);
	else
		doc_note(s, "Welch t: none (an arm has one run)");
	/* the rank test and the range rule: evidence, not the verdict */
	u = doc_fact_real(d, "u", "Mann-Whitney U of b against a", DOC_QUIET, c->v.rank.u, NULL,
			  'g', 6);
	p = doc_fact_real(d, "p", "Mann-Whitney two-sided p", DOC_QUIET, c->v.rank.p, NULL, 'g', 4);
	doc_fact_bool(d, "exact", "exact distribution (else normal approximation)", DOC_QUIET,
		      c->v.rank.exact);
	min_p = doc_fact_real(d, "min_p", "smallest p these arm sizes can reach", DOC_QUIET,
			      c->v.rank.min_p, NULL, 'g', 4);
	doc_fact_bool(d, "ranges_disjoint", "the arms' [min, max] ranges do not overlap", DOC_QUIET,
		      c->v.ranges_disjoint);
	doc_note(s,
		 "evidence beside the verdict: Mann-Whitney U = %s, p = %s (%s), the smallest p "
		 "these sizes can reach %s; the arms' ranges %s",
		 u, p, c->v.rank.exact ? "exact" : "normal approximation", min_p,
		 c->v.ranges_disjoint ? "are disjoint" : "overlap");
	/* effect against spread and bound */
	{
		const char *pct = c->log_scale ? "%" : "";
		const char *eff =
			scaled_fact(d, c->log_scale, "observed_effect_pct",
				    "observed effect, larger median over smaller", "%",
				    "observed_effect", "observed effect, |median(b) - median(a)|",
				    field_known_unit(metric), c->observed_effect, 'g', 3);
		const char *sa = scaled_fact(d, c->log_scale, "spread_a_pct",
					     "arm a's within-arm spread (max / min - 1)", "%",
					     "spread_a", "arm a's within-arm spread (max - min)",
					     field_known_unit(metric), c->spread_a, 'g', 3);
		const char *sb = scaled_fact(d, c->log_scale, "spread_b_pct",
					     "arm b's within-arm spread (max / min - 1)", "%",
					     "spread_b", "arm b's within-arm spread (max - min)",
					     field_known_unit(metric), c->spread_b, 'g', 3);
		const char *ea = doc_fact_real(d, "effect_over_spread_a", "effect / a's spread",
					       DOC_QUIET, c->effect_over_spread_a, "x", 'f', 2);
		const char *eb = doc_fact_real(d, "effect_over_spread_b", "effect / b's spread",
					       DOC_QUIET, c->effect_over_spread_b, "x", 'f', 2);
		doc_fact_bool(d, "separated", "the effect exceeds both arms' spread", DOC_QUIET,
			      c->separated);
		/* a spread of 0 (one run, or equal values) has no effect / spread */
		doc_note(s,
			 "effect %s%s against within-arm spread a %s%s, b %s%s (effect / spread: a "
			 "%s%s, b %s%s): %s",
			 eff, pct, sa, pct, sb, pct, isnan(c->effect_over_spread_a) ? "none" : ea,
			 isnan(c->effect_over_spread_a) ? "" : "x",
			 isnan(c->effect_over_spread_b) ? "none" : eb,
			 isnan(c->effect_over_spread_b) ? "" : "x",
			 c->separated ? "separated" : "not separated");
		if (o->v.has_effect_bound) {
			const char *ba =
				doc_fact_real(d, "spread_over_bound_a", "a's spread / effect bound",
					      DOC_QUIET, c->spread_over_bound_a, "x", 'f', 1);
			const char *bb =
				doc_fact_real(d, "spread_over_bound_b", "b's spread / effect bound",
					      DOC_QUIET, c->spread_over_bound_b, "x", 'f', 1);
			doc_note(s, "within-arm spread / effect bound: a %sx, b %sx", ba, bb);
		}
	}
}

/* The headline's verdict and reason. */
static void verdict_note(struct doc *d, struct doc_section *s)
{
	doc_note(s, "verdict: %s (%s)", doc_fact_string(d, "verdict"),
		 doc_fact_string(d, "reason"));
}

/* The headline's runs needed and what it is computed from (--by: per level, view levels). */
static void runs_needed_note(struct doc *d, struct doc_section *s, const struct compare_result *res,
			     const char *metric)
{
	const struct compare *c = &res->c;
	const struct compare_options *o = &c->opts;
	const struct verdict *h = res->headline;
	const char *what = res->design == COMPARE_PAIRED ? "pairs needed" : "runs needed per arm";
	const char *alpha = doc_fact_real(d, "alpha", "two-sided significance level", DOC_QUIET,
					  o->v.alpha, NULL, 'g', 3);
	const char *power = doc_fact_real(d, "power", "power for runs_needed", DOC_QUIET,
					  o->v.power, NULL, 'g', 3);
	const char *least = doc_fact_int(d, "min_runs", "fewest runs runs_needed gives", DOC_QUIET,
					 VERDICT_MIN_RUNS, "runs");
	const char *sd, *effect, *needed;
	doc_fact_real(d, "cv", "pooled coefficient of variation", DOC_QUIET, c->cv, NULL, 'f', 4);
	if (!h) {
		doc_note(s, "runs needed: per level (view levels), each for its own effect");
		return;
	}
	sd = doc_fact_real(
		d, "sd", c->log_scale ? "sd runs_needed uses, of ln values" : "sd runs_needed uses",
		DOC_QUIET, h->sd, c->log_scale ? NULL : field_known_unit(metric), 'g', 4);
	effect = doc_fact_real(d, "effect_pct", "effect runs_needed resolves", DOC_QUIET,
			       h->effect_pct, "%", 'g', 3);
	needed = doc_fact_real(d, "runs_needed", what, DOC_QUIET, h->runs_needed, "runs", 'f', 0);
	if (isnan(h->runs_needed))
		doc_note(s,
			 "%s: not computable (no run-to-run spread to size it from, or no "
			 "effect above zero)",
			 what);
	else
		doc_note(s,
			 "%s to resolve a %s%% effect at sd %s%s: %s (normal approximation, "
			 "power %s, two-sided alpha %s; at least %s)",
			 what, effect, sd, c->log_scale ? " of ln values" : "", needed, power,
			 alpha, least);
}

/* --by: the count of the levels' verdicts and the geometric-mean change. */
static void by_notes(struct doc *d, struct doc_section *s, const struct compare_request *req,
		     const struct compare_result *res, const char *metric)
{
	const struct verdict_tally *tl = &res->tally;
	bool log_scale = res->c.log_scale;
	const char *est, *lo, *hi, *levels, *df;
	char phrase[192];
	levels = doc_fact_int(d, "levels", "levels compared", DOC_QUIET, (int64_t)tl->k, NULL);
	doc_fact_int(d, "levels_up", "levels real, b above a", DOC_QUIET, (int64_t)tl->up, NULL);
	doc_fact_int(d, "levels_down", "levels real, b below a", DOC_QUIET, (int64_t)tl->down,
		     NULL);
	doc_fact_int(d, "levels_no_difference", "levels no-difference", DOC_QUIET,
		     (int64_t)tl->no_difference, NULL);
	doc_fact_int(d, "levels_within_noise", "levels within-noise", DOC_QUIET,
		     (int64_t)tl->within_noise, NULL);
	doc_fact_int(d, "levels_unreplicated", "levels unreplicated", DOC_QUIET,
		     (int64_t)tl->unreplicated, NULL);
	est = scaled_fact(d, log_scale, "summary_ratio", "geometric mean of the levels' ratios",
			  "x", "summary_diff", "mean of the levels' differences", field_known_unit(metric),
			  tl->estimate, 'f', 4);
	lo = scaled_fact(d, log_scale, "summary_ratio_lo", "its t interval, low end", "x",
			 "summary_diff_lo", "its t interval, low end", field_known_unit(metric), tl->lo, 'f',
			 4);
	hi = scaled_fact(d, log_scale, "summary_ratio_hi", "its t interval, high end", "x",
			 "summary_diff_hi", "its t interval, high end", field_known_unit(metric), tl->hi,
			 'f', 4);
	df = doc_fact_real(d, "summary_df", "its degrees of freedom", DOC_QUIET, tl->df, NULL, 'g',
			   3);
	doc_fact_text(d, "summary_method", "how the interval is made", DOC_QUIET, tl->method);
	units_change_phrase(phrase, sizeof(phrase), res->metric.kind, log_scale, tl->estimate,
			    tl->lo, tl->hi, log_scale ? "" : field_known_unit(metric));
	doc_fact_text(d, "change", "the change in words", DOC_LISTED, phrase);
	if (!strcmp(tl->method, "within"))
		doc_note(s,
			 "each of %s levels of %s keeps its own verdict (view levels): %s; the %s "
			 "of the levels' %s is %s, %s%% interval [%s, %s] from the levels' own "
			 "standard errors (df %s)",
			 levels, req->by, tl->text, log_scale ? "geometric mean" : "mean",
			 log_scale ? "ratios" : "differences", est,
			 doc_fact_shown(d, "ratio_ci_pct"), lo, hi, df);
	else if (!strcmp(tl->method, "across"))
		doc_note(s,
			 "each of %s levels of %s keeps its own verdict (view levels): %s; the %s "
			 "of the levels' %s is %s, %s%% interval [%s, %s] from their spread "
			 "across the levels (a level has an arm with one run: df %s)",
			 levels, req->by, tl->text, log_scale ? "geometric mean" : "mean",
			 log_scale ? "ratios" : "differences", est,
			 doc_fact_shown(d, "ratio_ci_pct"), lo, hi, df);
	else
		doc_note(s, "one level of %s (view levels): %s; its estimate %s, no interval",
			 req->by, tl->text, est);
	if (res->split)
		doc_note(s,
			 "%s varies within a level of %s in an arm: the levels are split by it "
			 "too (a level reads \"VALUE, %s=V\"), never pooled",
			 res->split, req->by, res->split);
}

/* --pair-by: the paired estimate. */
static void paired_notes(struct doc *d, struct doc_section *s, const struct compare_result *res,
			 const char *metric)
{
	const struct verdict *o = &res->paired;
	bool log_scale = res->c.log_scale;
	const char *est, *lo, *hi, *t, *df, *p, *pairs, *agree;
	est = scaled_fact(d, log_scale, "paired_ratio", "ratio of geometric means", "x",
			  "paired_diff", "difference", field_known_unit(metric), o->estimate, 'f', 4);
	lo = scaled_fact(d, log_scale, "paired_ratio_lo", "its t interval, low end", "x",
			 "paired_diff_lo", "its t interval, low end", field_known_unit(metric), o->lo, 'f',
			 4);
	hi = scaled_fact(d, log_scale, "paired_ratio_hi", "its t interval, high end", "x",
			 "paired_diff_hi", "its t interval, high end", field_known_unit(metric), o->hi, 'f',
			 4);
	t = doc_fact_real(d, "paired_t", "t", DOC_QUIET, o->t.t, NULL, 'g', 4);
	df = doc_fact_real(d, "paired_df", "degrees of freedom", DOC_QUIET, o->t.df, NULL, 'g', 3);
	p = doc_fact_real(d, "paired_p", "two-sided p", DOC_QUIET, o->p, NULL, 'g', 3);
	pairs = doc_fact_int(d, "pairs", "pairs compared", DOC_QUIET, (int64_t)res->npairs, NULL);
	agree = doc_fact_int(d, "pairs_agree", "pairs moving the estimate's way", DOC_QUIET,
			     (int64_t)o->agree, NULL);
	if (o->has_test && strcmp(o->test, "exact"))
		doc_note(s,
			 "paired t on %s over %s pairs: %s, %s%% interval [%s, %s]; t = %s, df = "
			 "%s, p = %s; %s of the pairs move the same way",
			 log_scale ? "ln differences" : "differences", pairs, est,
			 doc_fact_shown(d, "ratio_ci_pct"), lo, hi, t, df, p, agree);
	else
		doc_note(s, "paired over %s pairs: %s (%s)", pairs, est, o->reason);
}

int build_compare(const struct compare_request *req, const struct compare_result *res,
		  struct doc **out)
{
	const struct compare *c = &res->c;
	const char *metric = req->metric ? req->metric : "tput";
	const struct verdict *h =
		res->headline || res->design == COMPARE_BY ? res->headline : &res->c.v;
	const char *verdict = res->verdict ? res->verdict : h ? h->word : res->tally.text;
	struct doc *d = build_doc(out, "compare", "");
	struct doc_section *s, *arms;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Comparison of %s: arm b against arm a", metric);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_text(d, "a_where", "arm a (the baseline)", DOC_LISTED, req->arm[0]);
	doc_fact_text(d, "b_where", "arm b (the change)", DOC_LISTED, req->arm[1]);
	doc_fact_text(d, "metric_kind", "metric kind", DOC_LISTED,
		      field_kind_name(res->metric.kind));
	if (res->metric.kind_from)
		doc_fact_text(d, "metric_kind_from", "kind from", DOC_QUIET, res->metric.kind_from);
	doc_fact_bool(d, "lower_is_better", "lower is better", DOC_LISTED,
		      res->metric.lower_is_better);
	if (res->metric.direction_from)
		doc_fact_text(d, "metric_direction_from", "direction from", DOC_QUIET,
			      res->metric.direction_from);
	if (c->opts.v.has_effect_bound)
		doc_fact_real(d, "effect_bound_pct", "effect bound", DOC_LISTED,
			      c->opts.v.effect_bound_pct, "%", 'g', 6);
	doc_fact_text(d, "design", "design",
		      res->design == COMPARE_UNPAIRED ? DOC_QUIET : DOC_LISTED, design_word(res));
	if (req->by)
		doc_fact_text(d, "by", "compared within each level of", DOC_LISTED, req->by);
	if (res->split)
		doc_fact_text(d, "split_by", "levels also split by", DOC_LISTED, res->split);
	if (req->pair_by)
		doc_fact_text(d, "pair_by", "runs paired by", DOC_LISTED, req->pair_by);
	doc_fact_text(d, "scale", "scale", DOC_QUIET, c->log_scale ? "log" : "absolute");
	doc_fact_text(d, "verdict", "verdict", DOC_LISTED, verdict);
	if (h) {
		char sentence[320];
		verdict_sentence(h, c->log_scale ? "" : field_known_unit(metric), sentence,
				 sizeof(sentence));
		doc_fact_text(d, "change", "the change in words", DOC_LISTED, sentence);
		doc_fact_text(d, "effect", "better or worse, by the metric's direction", DOC_QUIET,
			      h->effect);
		doc_fact_text(d, "test", "the test", DOC_QUIET, h->test);
		doc_fact_text(d, "method", "decided by", DOC_LISTED, h->test_words);
		doc_fact_text(d, "reason", "reason", DOC_QUIET, h->reason);
	} else {
		double null = c->log_scale ? 1 : 0, e = res->tally.estimate;
		doc_fact_text(d, "effect", "better or worse, by the metric's direction", DOC_QUIET,
			      !(e != null)                                ? "none"
			      : (e > null) != res->metric.lower_is_better ? "better"
									  : "worse");
		doc_fact_text(d, "test", "the test", DOC_QUIET, "per level");
		doc_fact_text(d, "method", "decided by", DOC_LISTED,
			      "each level's own test (view levels)");
		doc_fact_text(d, "reason", "reason", DOC_QUIET, res->tally.text);
	}

	s = doc_section(d, "comparison", "Comparison");
	arms = doc_section(d, "arms", "Arms");
	if (res->design == COMPARE_BY)
		doc_text(s,
			 "Each arm's columns describe every run compared; the verdict counts the "
			 "levels' own verdicts of --by %s (view levels), and the estimate is "
			 "their geometric mean with its interval.",
			 req->by);
	else if (res->design == COMPARE_PAIRED)
		doc_text(s,
			 "Each arm's columns describe the paired runs; the estimate, its "
			 "interval and the test are paired by %s (view pairs).",
			 req->pair_by);
	{
		struct compare_result view = *res;
		view.headline = h;
		comparison_table(s, &view, metric);
		verdict_note(d, s);
		unpaired_notes(d, res->design == COMPARE_UNPAIRED ? s : arms, &view, metric);
		if (res->design == COMPARE_BY)
			by_notes(d, s, req, &view, metric);
		else if (res->design == COMPARE_PAIRED)
			paired_notes(d, s, &view, metric);
		runs_needed_note(d, s, &view, metric);
	}
	doc_note(s, "definitions and the verdict rule: `coreplan compare --help`, "
		    "docs/statistics.md");

	if (res->design != COMPARE_UNPAIRED)
		doc_text(arms,
			 "The unpaired comparison of the same runs (arm b's row), for "
			 "reference: the verdict above is the %s one.",
			 res->design == COMPARE_BY ? "levels'" : "paired");
	arms_table(arms, req, c, metric);

	s = doc_section(d, "levels", "Levels");
	levels_table(s, res, metric);
	s = doc_section(d, "pairs", "Pairs");
	pairs_table(s, res, metric);
	s = doc_section(d, "benchstat", "Benchstat");
	benchstat_table(d, s, req, res, metric);
	s = doc_section(d, "comparepy", "compare.py");
	comparepy_table(d, s, res, metric);

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
	return build_done(d, out);
}

const char *const build_compare_views[] = {"comparison", "arms",      "levels", "pairs",
					   "benchstat",  "comparepy", NULL};
