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
 */
#ifndef COREPLAN_COMPARE_H
#define COREPLAN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define COMPARE_ALPHA 0.05
#define COMPARE_POWER 0.8
#define COMPARE_RESAMPLES 10000
#define COMPARE_SEED 1

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

void compare_options_init(struct compare_options *opts);
int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out);

#endif
