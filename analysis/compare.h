/*
 * compare: is the difference between two arms real, and could these runs
 * have shown it? (coreplan compare)
 *
 * For arms a and b (two sets of runs, one metric), b relative to a:
 *   each arm    n, median, min, max, spread_pct = (max / min - 1) * 100
 *               (stats_summary_abs: a median of 0 is no error)
 *   scale       log when every value of both arms is > 0: the comparison
 *               is of ratios, on ln(values); otherwise absolute: of
 *               differences, in the metric's units, and every ratio is
 *               missing (a 0 has no logarithm and a ratio to 0 is no size)
 *   ratio       median(b) / median(a), with a bootstrap 95% interval
 *               (stats_bootstrap_median_ratio: resamples, seed); the
 *               interval is missing when an arm has one run
 *   welch       Welch's t test of mean(ln b) - mean(ln a) (stats_welch_ln;
 *               absolute scale: of the values), with Welch-Satterthwaite
 *               df; gm_ratio = exp(diff), the ratio of geometric means, and
 *               its 95% interval exp(diff -+ t_{0.975, df} se)
 *   rank test   two-sided Mann-Whitney U (stats_mann_whitney): exact without
 *               ties for small samples, else normal with tie correction;
 *               min_p is the smallest p these sample sizes can reach
 *   effect      log: (max(r, 1/r) - 1) * 100 with r the ratio of medians
 *               (the larger median over the smaller, the same reading as
 *               spread_pct); absolute: |median(b) - median(a)|
 *   spread      each arm's within-arm spread on the same scale: spread_pct
 *               (log) or max - min (absolute); `separated` when the effect
 *               exceeds both arms' spread
 *
 * The verdict (struct compare_outcome; b relative to a, higher is better
 * unless lower_is_better, the direction of the t estimate):
 *   faster/slower  the t test's p < alpha, AND a confirmation: unpaired,
 *                  the effect exceeds both arms' spread (method
 *                  "welch+separation") or the rank test also gives p <
 *                  alpha ("welch+rank"), with the medians moving the same
 *                  way as the means; paired and pooled, every pair (level)
 *                  moves the same way ("paired-t+agreement",
 *                  "pooled-t+agreement")
 *   no-difference  an effect bound is given and the t test's 95% interval
 *                  of the ratio lies inside [1 - bound, 1 + bound]
 *                  (absolute: of the difference inside -+ bound * |median
 *                  a|): the runs rule out an effect of that size (method
 *                  "equivalence")
 *   unresolvable   otherwise (method "none"): the reason gives the p, the
 *                  effect against the spreads, the spreads against the
 *                  bound (spread / bound) and the runs needed. Also when an
 *                  arm has one run (no within-arm spread, no interval)
 *   runs_needed    per arm, for a two-sided test at alpha with the power:
 *                  n = ceil(2 (z_{1-alpha/2} + z_{power})^2 (s / delta)^2),
 *                  s = the pooled standard deviation of ln values (absolute:
 *                  of values) over the arms with 2+ runs, delta = ln(1 +
 *                  effect) with effect = the bound when given, else the
 *                  observed effect (absolute: the bound * |median a|, or
 *                  |median(b) - median(a)|); never fewer than
 *                  COMPARE_MIN_RUNS. Paired: pairs, n = ceil((z + z)^2
 *                  (s_d / delta)^2), s_d the sd of the pairs' differences.
 *                  Pooled over L levels: per arm in each level, the
 *                  two-sample n divided by L (s pooled over every level's
 *                  arms). NaN when s is not available or is 0. Unpaired,
 *                  when Welch gives p < alpha but neither confirmation
 *                  holds: at least rank_floor, the fewest runs per arm with
 *                  which the rank test can confirm it.
 *
 * Designs (struct compare_request):
 *   unpaired    the arms' runs as two samples (compare_arms)
 *   by FIELD    compare within each level of FIELD (runs of both arms that
 *               share its value) and pool (compare_pool): when every level
 *               has a t interval, the inverse-variance weighted mean of the
 *               levels' ln ratios (stats_pool_inverse_variance, df by
 *               Welch-Satterthwaite) with its interval and t test; else the
 *               geometric mean of the levels' ratios with their range and
 *               no interval (verdict unresolvable: no within-level spread).
 *               Absolute scale: the same on the levels' differences (the
 *               fallback is their mean).
 *   pair by F   pair the run of a and the run of b that share F's value
 *               (compare_pairs): the paired t on ln differences (absolute:
 *               differences), df = pairs - 1, ratio = exp(mean difference)
 *               with its interval. A value with no run in one arm, or with
 *               more than one run in an arm, pairs nothing: its runs are
 *               left out with the reason.
 *
 * compare_run() is what `coreplan compare` asks: each arm's runs are the
 * common filter AND the arm's own conditions (run_filter_add_conditions),
 * selected apart; lower is better when the request says so, else when the
 * metric's name says so (compare_lower_is_better_name).
 */
#ifndef COREPLAN_COMPARE_H
#define COREPLAN_COMPARE_H

#include "benchstat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select.h"
#include "stats.h"

#define COMPARE_ALPHA 0.05
#define COMPARE_POWER 0.8
#define COMPARE_RESAMPLES 10000
#define COMPARE_SEED 1
/* the bootstrap interval of stats_bootstrap_median_ratio and the t intervals, in % */
#define COMPARE_CI_PCT 95.0
/* runs_needed is never below this (per arm; paired: pairs) */
#define COMPARE_MIN_RUNS 3
#define COMPARE_REASON_MAX 768

enum compare_scale {
	COMPARE_SCALE_AUTO,     /* log when every value is > 0, else absolute */
	COMPARE_SCALE_LOG,      /* ratios on ln(values); a value <= 0 is an error */
	COMPARE_SCALE_ABSOLUTE, /* differences in the metric's units */
};

struct compare_options {
	double alpha;
	double power;
	bool has_effect_bound;
	double effect_bound_pct; /* the largest effect the change could have, in % */
	size_t resamples;
	uint64_t seed;
	bool lower_is_better;
	enum compare_scale scale; /* AUTO (the default) */
};

/*
 * A design's estimate and verdict: the comparison row. On the log scale
 * estimate, lo and hi are ratios (exp of the t test's diff and interval);
 * on the absolute scale, differences (the t test's own).
 */
struct compare_outcome {
	bool has_t;         /* a t test was possible (else estimate may still be set) */
	const char *test;   /* "welch", "paired-t", "pooled-t", or "" */
	struct t_test t;    /* on ln values (log scale) or values; diff = b - a */
	double estimate;    /* log: ratio of geometric means; absolute: difference */
	double observed;    /* the observed effect: log (max(e, 1/e) - 1) * 100; absolute |e| */
	double lo, hi;      /* its 95% interval; NaN without a t test */
	double effect_pct;  /* the effect runs_needed resolves, in %; NaN when unknown */
	double delta;       /* the same on the test's scale: ln(1 + effect), or metric units */
	double sd;          /* the standard deviation runs_needed uses; NaN when unknown */
	double runs_needed; /* per arm (paired: pairs; pooled: per arm in each level); NaN */
	const char *verdict;
	const char *method; /* welch+separation, welch+rank, paired-t+agreement,
			       pooled-t+agreement, equivalence, none */
	char reason[COMPARE_REASON_MAX];
};

struct compare {
	struct summary a, b;
	struct ratio_ci
		ratio; /* log scale; NaN on the absolute scale; lo, hi NaN with a 1-run arm */
	struct mann_whitney test;
	double cv;          /* pooled coefficient of variation; NaN if no arm has 2 runs */
	double effect_pct;  /* = o.effect_pct */
	double runs_needed; /* = o.runs_needed */
	double rank_floor;  /* fewest runs per arm with which the rank test can reach alpha */
	double spread_over_bound_a, spread_over_bound_b; /* NaN without a bound */
	const char *verdict;                             /* = o.verdict */
	char reason[COMPARE_REASON_MAX];                 /* = o.reason */
	struct compare_options opts;
	/* the scale, the effect against the spreads, the Welch test */
	bool log_scale;
	double diff;               /* median(b) - median(a) */
	double observed_effect;    /* log: in % (see above); absolute: |diff| */
	double spread_a, spread_b; /* log: spread_pct; absolute: max - min */
	double effect_over_spread_a, effect_over_spread_b; /* NaN when the spread is 0 */
	bool separated;           /* observed_effect > spread_a and > spread_b */
	struct compare_outcome o; /* test "welch" */
};

/* One level of --by: its value, the runs' values of each arm, their comparison. */
struct compare_level {
	char *level;
	double *a, *b;
	struct compare c;
};

/* The --by pooled estimate: o.test "pooled-t" when inverse_variance. */
struct compare_pooled {
	size_t nlevels;
	bool inverse_variance; /* every level has a t interval */
	double min, max; /* the levels' estimates (ratios of geometric means, or differences) */
	struct compare_outcome o;
};

/* One pair of --pair-by: the shared value and each arm's run. */
struct compare_pair {
	char *key;
	const char *tag_a, *tag_b; /* into the selections */
	double a, b;
	double estimate; /* log: b / a; absolute: b - a */
};

struct compare_paired {
	size_t npairs;
	size_t agree; /* pairs moving the same way as the mean difference */
	struct compare_outcome o;
};

enum compare_design { COMPARE_UNPAIRED, COMPARE_BY, COMPARE_PAIRED };

/* What `coreplan compare` asks: the common filter, the two arms, the metric. */
struct compare_request {
	const struct run_filter *filter;
	const char *arm[2];          /* arm a, arm b: FIELD=V[,V] conditions, space-separated */
	const char *metric;          /* NULL: tput */
	struct compare_options opts; /* lower_is_better is set by compare_run */
	int direction;               /* -1 lower is better, +1 higher, 0 from the metric's name */
	const char *by;              /* --by FIELD, or NULL */
	const char *pair_by;         /* --pair-by FIELD, or NULL (not with by) */
};

/*
 * A request's answer: each arm's runs (with those left out) and values;
 * c compares the runs used (with --by, those of levels both arms have;
 * with --pair-by, the paired ones); the design's parts; `headline` is the
 * design's outcome (c.o, pooled.o or paired.o).
 */
struct compare_result {
	struct selection sel[2];
	double *values[2]; /* sel[i].n metric values */
	bool *used[2];     /* sel[i].n: the run is in the comparison */
	struct compare c;
	enum compare_design design;
	struct compare_level *levels;
	size_t nlevels;
	struct compare_pooled pooled;
	struct compare_pair *pairs;
	size_t npairs;
	struct compare_paired paired;
	const struct compare_outcome *headline;
	/*
	 * benchstat's summary and test (analysis/benchstat.h) of the same
	 * values: one row per level of --by, one for the unpaired arms, none
	 * for --pair-by.
	 */
	struct benchstat_row *benchstat;
	size_t nbenchstat;
};

void compare_options_init(struct compare_options *opts);
/* The unpaired comparison; an arm with no run is an error naming it. */
int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out);
/*
 * Pool levels already compared (each levels[i].c from compare_arms, on one
 * scale; their a and b hold c.a.n and c.b.n values). field names the level
 * field in the reason.
 */
int compare_pool(const struct compare_level *levels, size_t nlevels, const char *field,
		 const struct compare_options *opts, struct compare_pooled *out);
/* The paired comparison of pairs[0..n) (their a, b), on the scale log_scale says. */
int compare_pairs(struct compare_pair *pairs, size_t n, bool log_scale,
		  const struct compare_options *opts, struct compare_paired *out);
/*
 * A metric whose name ends in _ms, _us, _ns, _s, _per_op or _per_int (a
 * time) or is err or ends in _err (an error rate): lower is better.
 */
bool compare_lower_is_better_name(const char *metric);
/*
 * Select both arms and compare; release the result either way. An arm
 * with no run: the error names it and says what its filter matched. With
 * by or pair_by and no level (pair) both arms share: an error naming the
 * field.
 */
int compare_run(sqlite3 *db, const struct compare_request *req, struct compare_result *out);
void compare_result_release(struct compare_result *r);

#endif
