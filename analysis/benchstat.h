/*
 * benchstat: the summary and A/B test Go's benchstat prints
 * (golang.org/x/perf/cmd/benchstat, its default "assume nothing" method),
 * so that `coreplan compare --view benchstat` reads like it.
 *
 * Summary of one sample (benchstat_summary):
 *   median   the sample median (mean of the two middle values for an even n);
 *   lo, hi   the distribution-free confidence interval of the median from
 *            order statistics at `confidence` (benchstat: 0.95): the count of
 *            values below the population median is Binomial(n, 1/2); for
 *            n <= 30, starting at the lower mode ceil((n+1)/2) - 1, the
 *            interval [l, r) of counts is widened one step at a time to the
 *            side with the larger probability (the left on a tie) until its
 *            probability reaches the confidence; for n > 30, the normal
 *            approximation with continuity correction, rounded out to whole
 *            counts and narrowed by one on the right when that still holds
 *            the confidence; lo = x(l), hi = x(r) (1-based order statistics),
 *            -inf / +inf beyond the sample (n < 6 at 95%: benchstat's ±∞);
 *   ci_pct   max(hi / median - 1, 1 - lo / median) * 100, what benchstat
 *            prints as "± N%" (NaN when infinite or when lo or hi has another
 *            sign than the median; 0 when all three are 0).
 * Comparison (benchstat_utest): the two-sided Mann-Whitney U test, with
 * benchstat's rules: the exact null distribution of U when both samples
 * hold at most 50 values and no value ties, or at most 25 each when values
 * tie (the exact distribution conditional on the ties, counted over all
 * C(N, n_a) assignments of the mid-ranks); p = 2 P(U <= min(U_a, U_b)),
 * 1 when U_a = U_b; otherwise the normal approximation with tie-corrected
 * variance and a continuity correction of 0.5. All values equal: p = 1
 * (benchstat reports that as no difference).
 * The change is significant when p <= alpha (benchstat: 0.05); else
 * benchstat prints "~". delta_pct = (median_b / median_a - 1) * 100.
 */
#ifndef COREPLAN_BENCHSTAT_H
#define COREPLAN_BENCHSTAT_H

#include <stdbool.h>
#include <stddef.h>

#define BENCHSTAT_CONFIDENCE 0.95
#define BENCHSTAT_ALPHA 0.05
#define BENCHSTAT_EXACT_MAX 50
#define BENCHSTAT_TIES_EXACT_MAX 25

struct benchstat_summary {
	size_t n;
	double median, lo, hi;
	double ci_pct;     /* NaN: benchstat's ∞ or ? */
	double confidence; /* the interval's actual coverage (>= the one asked) */
};

struct benchstat_utest {
	double u; /* U of sample a: pairs (a, b) with a > b, ties counting 1/2 */
	double p;
	bool exact;
	bool ties;
};

struct benchstat_row {
	struct benchstat_summary a, b;
	struct benchstat_utest test;
	double delta_pct;
	bool significant; /* p <= alpha */
};

/* n >= 1 finite values (not modified). */
int benchstat_summary(const double *x, size_t n, double confidence, struct benchstat_summary *out);
/* na, nb >= 1 finite values. */
int benchstat_utest(const double *a, size_t na, const double *b, size_t nb,
		    struct benchstat_utest *out);
/* Both summaries at BENCHSTAT_CONFIDENCE, the test, the decision at BENCHSTAT_ALPHA. */
int benchstat_compare(const double *a, size_t na, const double *b, size_t nb,
		      struct benchstat_row *out);

#endif
