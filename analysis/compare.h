/*
 * compare: is the difference between two arms real, and could these runs
 * have shown it? (coreplan compare)
 *
 * For arms a and b (two sets of runs, one metric):
 *   each arm    n, median, min, max, spread_pct = (max / min - 1) * 100
 *   ratio       median(b) / median(a), with a bootstrap 95% interval
 *               (stats_bootstrap_median_ratio: resamples, seed)
 *   test        two-sided Mann-Whitney U (stats_mann_whitney): exact without
 *               ties for small samples, else normal with tie correction
 *   verdict     unresolvable  when the smallest p-value these sample sizes
 *                             can reach exceeds alpha (3 runs against 3:
 *                             2/20 = 0.1), or when an arm's spread_pct
 *                             exceeds the effect bound (the factor
 *                             spread / bound is reported)
 *               faster/slower when p < alpha; b relative to a, where higher
 *                             is better unless lower_is_better
 *               no-difference otherwise
 *   runs_needed per arm, to detect a relative effect of the bound (or, with
 *               no bound, the observed |ratio - 1|) at the observed spread:
 *               n = ceil(2 (z_{1-alpha/2} + z_{power})^2 (cv / effect)^2),
 *               cv = the pooled coefficient of variation of the arms
 *               (root mean square of sd/mean over arms with 2+ runs), and
 *               never fewer than the rank test needs to reach alpha at all
 *               (the smallest k with 2 / C(2k, k) <= alpha: 4 at 0.05)
 *
 * compare_run() is what `coreplan compare` asks (struct compare_request):
 * each arm's runs are the common filter AND the arm's own conditions
 * (run_filter_add_conditions), selected apart; lower is better when the
 * request says so, else when the metric's name says so
 * (compare_lower_is_better_name).
 */
#ifndef COREPLAN_COMPARE_H
#define COREPLAN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select.h"
#include "stats.h"

#define COMPARE_ALPHA 0.05
#define COMPARE_POWER 0.8
#define COMPARE_RESAMPLES 10000
#define COMPARE_SEED 1
/* the bootstrap interval of stats_bootstrap_median_ratio, in % */
#define COMPARE_CI_PCT 95.0

struct compare_options {
	double alpha;
	double power;
	bool has_effect_bound;
	double effect_bound_pct; /* the largest effect the change could have, in % */
	size_t resamples;
	uint64_t seed;
	bool lower_is_better;
};

struct compare {
	struct summary a, b;
	struct ratio_ci ratio;
	struct mann_whitney test;
	double cv;          /* pooled coefficient of variation; NaN if no arm has 2 runs */
	double effect_pct;  /* the effect used for runs_needed, in % */
	double runs_needed; /* per arm; NaN when cv or effect is unavailable */
	double rank_floor;  /* fewest runs per arm with which the rank test can reach alpha */
	double spread_over_bound_a, spread_over_bound_b; /* NaN without a bound */
	const char *verdict;
	char reason[256];
	struct compare_options opts;
};

/* What `coreplan compare` asks: the common filter, the two arms, the metric. */
struct compare_request {
	const struct run_filter *filter;
	const char *arm[2];          /* arm a, arm b: FIELD=V[,V] conditions, space-separated */
	const char *metric;          /* NULL: tput */
	struct compare_options opts; /* lower_is_better is set by compare_run */
	int direction;               /* -1 lower is better, +1 higher, 0 from the metric's name */
};

/* A request's answer: each arm's runs (with those left out) and values, the comparison. */
struct compare_result {
	struct selection sel[2];
	double *values[2]; /* sel[i].n metric values */
	struct compare c;
};

void compare_options_init(struct compare_options *opts);
int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out);
/* A metric whose name ends in _ms, _s, _per_op or _per_int: a time, lower is better. */
bool compare_lower_is_better_name(const char *metric);
/*
 * Select both arms and compare; release the result either way. An arm
 * with no run: the error names it and says what its filter matched.
 */
int compare_run(sqlite3 *db, const struct compare_request *req, struct compare_result *out);
void compare_result_release(struct compare_result *r);

#endif
