/*
 * compare: is the difference between two arms real, and could these runs
 * have shown it? (coreplan compare)
 *
 * The decision is analysis/verdict.h's, the same rule noise and sweep use
 * (docs/statistics.md): Welch's t on ln values (absolute scale: on values;
 * --pair-by: the paired t), real when p < alpha, the words by the metric's
 * kind (higher / lower; faster / slower for a time or latency; uses more /
 * uses less for memory and CPU), no-difference when an effect bound is
 * given and the interval lies inside it, within-noise otherwise,
 * unreplicated with one run in an arm. The rank test and the range rule are
 * evidence beside it, never the verdict.
 *
 * For arms a and b (two sets of runs, one metric), b relative to a, the
 * description beside the verdict:
 *   each arm    n, median, min, max, spread_pct = (max / min - 1) * 100
 *               (stats_summary_abs: a median of 0 is no error)
 *   ratio       median(b) / median(a), with a bootstrap 95% interval
 *               (stats_bootstrap_median_ratio: resamples, seed); the
 *               interval is missing when an arm has one run; absolute
 *               scale: missing
 *   effect      log: (max(r, 1/r) - 1) * 100 with r the ratio of medians;
 *               absolute: |median(b) - median(a)|; against each arm's
 *               spread (spread_pct, or max - min): `separated` when it
 *               exceeds both; spread / effect bound
 *
 * Designs (struct compare_request):
 *   unpaired    the arms' runs as two samples (compare_arms). An arm whose
 *               runs differ in a field nobody declared (pooling.h: gomaxprocs
 *               1, 4, 8 in one arm) is refused with the fields and how to go
 *               on (--by, --pair-by, --where, --pool); a field the arm's own
 *               conditions name with several values (--a gogc=100,400) is
 *               pooled on purpose
 *   by FIELD    compare within each level of FIELD (runs of both arms that
 *               share its value): each level keeps its own verdict
 *               (compare_arms); the summary is a count with the geometric
 *               mean of the levels' ratios and its interval
 *               (verdict_tally: "3 of 4 faster, 1 within-noise"), never one
 *               verdict over different levels. A field that varies within a
 *               level of an arm (Go's GOMAXPROCS beside the benchmark name)
 *               splits the levels: the level is then "NAME, gomaxprocs=2"
 *               and the fields are listed (result `split`)
 *   pair by F   pair the run of a and the run of b that share F's value
 *               (compare_pairs): the paired t on ln differences (absolute:
 *               differences), df = pairs - 1. A value with no run in one arm,
 *               or with more than one run in an arm, pairs nothing: its runs
 *               are left out with the reason.
 *
 * compare_run() is what `coreplan compare` asks: each arm's runs are the
 * common filter AND the arm's own conditions (run_filter_add_conditions),
 * selected apart; the metric's kind and direction are
 * field_metric_meaning()'s, the request's direction winning.
 */
#ifndef COREPLAN_COMPARE_H
#define COREPLAN_COMPARE_H

#include "benchstat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select.h"
#include "stats.h"
#include "verdict.h"

#define COMPARE_RESAMPLES 10000
#define COMPARE_SEED 1
/* the bootstrap interval of stats_bootstrap_median_ratio and the t intervals, in % */
#define COMPARE_CI_PCT 95.0

struct compare_options {
	/* the decision: alpha, power, effect bound, the metric's kind and direction */
	struct verdict_options v;
	size_t resamples;
	uint64_t seed;
};

struct compare {
	struct summary a, b;
	struct ratio_ci
		ratio; /* log scale; NaN on the absolute scale; lo, hi NaN with a 1-run arm */
	double cv;     /* pooled coefficient of variation; NaN if no arm has 2 runs */
	struct compare_options opts;
	bool log_scale;
	double diff;               /* median(b) - median(a) */
	double observed_effect;    /* log: in % (see above); absolute: |diff| */
	double spread_a, spread_b; /* log: spread_pct; absolute: max - min */
	double effect_over_spread_a, effect_over_spread_b; /* NaN when the spread is 0 */
	double spread_over_bound_a, spread_over_bound_b;   /* NaN without a bound */
	bool separated;   /* observed_effect > spread_a and > spread_b */
	struct verdict v; /* the decision (verdict_two_samples); v.rank the Mann-Whitney test */
};

/* One level of --by: its value, the runs' values of each arm, their comparison. */
struct compare_level {
	char *level;
	double *a, *b;
	struct compare c;
};

/* One pair of --pair-by: the shared value and each arm's run. */
struct compare_pair {
	char *key;
	const char *tag_a, *tag_b; /* into the selections */
	double a, b;
	double estimate; /* log: b / a; absolute: b - a */
};

enum compare_design { COMPARE_UNPAIRED, COMPARE_BY, COMPARE_PAIRED };

/* What `coreplan compare` asks: the common filter, the two arms, the metric. */
struct compare_request {
	const struct run_filter *filter;
	const char *arm[2];          /* arm a, arm b: FIELD=V[,V] conditions, space-separated */
	const char *metric;          /* NULL: tput */
	struct compare_options opts; /* kind and lower_is_better are set by compare_run */
	int direction;               /* -1 lower is better, +1 higher, 0 from the metric */
	const char *by;              /* --by FIELD, or NULL */
	const char *pair_by;         /* --pair-by FIELD, or NULL (not with by) */
};

/*
 * A request's answer: each arm's runs (with those left out) and values;
 * c compares the runs used (with --by, those of levels both arms have;
 * with --pair-by, the paired ones), unpaired, for reference; the design's
 * parts; `headline` is the verdict of the design (c.v or paired), NULL
 * with --by (its summary is `tally`); `verdict` is the headline's word or
 * the tally's text.
 */
struct compare_result {
	struct selection sel[2];
	double *values[2]; /* sel[i].n metric values */
	bool *used[2];     /* sel[i].n: the run is in the comparison */
	struct metric_meaning metric;
	struct compare c;
	enum compare_design design;
	struct compare_level *levels;
	size_t nlevels;
	char *split; /* --by: the fields that also split the levels ("gomaxprocs"), or NULL */
	struct verdict_tally tally; /* --by */
	struct compare_pair *pairs;
	size_t npairs;
	struct verdict paired; /* --pair-by */
	const struct verdict *headline;
	const char *verdict;
	/*
	 * benchstat's summary and test (analysis/benchstat.h) of the same
	 * values: one row per level of --by, one for the unpaired arms, none
	 * for --pair-by.
	 */
	struct benchstat_row *benchstat;
	size_t nbenchstat;
	/*
	 * Google Benchmark's compare.py (analysis/comparepy.h) on the same
	 * values, rows as benchstat's: the arms' means, compare.py's relative
	 * change of them, and its U test (SciPy's method) when each arm has
	 * at least COMPAREPY_UTEST_MIN runs; optimal from COMPAREPY_UTEST_OPTIMAL.
	 */
	struct compare_comparepy {
		double mean[2];
		size_t n[2];
		double change;
		bool utest, optimal;
		struct benchstat_utest test;
	} * comparepy;
	size_t ncomparepy;
};

void compare_options_init(struct compare_options *opts);
/* The unpaired comparison; an arm with no run is an error naming it. */
int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out);
/* The paired comparison of pairs[0..n) (their a, b), on the scale log_scale says. */
int compare_pairs(struct compare_pair *pairs, size_t n, bool log_scale,
		  const struct compare_options *opts, struct verdict *out);
/*
 * Select both arms and compare; release the result either way. An arm
 * with no run: the error names it and says what its filter matched. With
 * by or pair_by and no level (pair) both arms share: an error naming the
 * field. An unpaired arm that pools: the usage error of pooling.h.
 */
int compare_run(sqlite3 *db, const struct compare_request *req, struct compare_result *out);
void compare_result_release(struct compare_result *r);

#endif
