/*
 * stats: the statistics coreplan reports, on GSL.
 *
 * Pure functions over arrays of doubles: no database, no printing. Inputs
 * are never modified (functions that need sorted data sort a copy).
 * Every function returns 0 or a negative code with a message recorded by
 * err_set() (too few values, non-finite input, a GSL failure); GSL's
 * abort-on-error handler is off (cli/main.c), so GSL errors come back as
 * codes and are turned into messages here, never NaN in a table.
 *
 * Definitions (printed by the commands' --help and reports):
 *   median        gsl_stats_median_from_sorted_data: for an even count, the
 *                 mean of the two middle values
 *   range_pct     (max - min) / median * 100
 *   range_abs     max - min, in the metric's units
 *   spread_pct    max / min - 1, in %  (the "within-arm spread")
 */
#ifndef COREPLAN_STATS_H
#define COREPLAN_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double median;
	double min;
	double max;
	double mean;
	double range_pct;  /* (max - min) / median * 100 */
	double spread_pct; /* (max / min - 1) * 100; NaN-free: 0 when n == 1 */
	double range_abs;  /* max - min */
};

/* n >= 1, all values finite; range_pct needs median != 0, spread_pct min > 0 (or all equal). */
int stats_summary(const double *x, size_t n, struct summary *out);
/*
 * The same for a metric that can be 0 or negative (an error rate, a
 * difference): neither is an error. range_pct is NaN when the median is 0;
 * spread_pct is NaN unless every value is equal or the minimum is above 0
 * (a share of 0 or of a negative is undefined); the caller reads range_abs
 * instead. n >= 1, all values finite.
 */
int stats_summary_abs(const double *x, size_t n, struct summary *out);
int stats_median(const double *x, size_t n, double *median);

/*
 * Least squares of y on x (gsl_fit_linear), n >= 3 (n == 2 gives the exact
 * line with no error estimate and is refused). Standard errors from GSL's
 * covariance (already scaled by the residual variance); the 95% interval
 * of the slope uses Student's t with n - 2 degrees of freedom.
 */
struct ols {
	size_t n;
	double slope, slope_se, slope_lo, slope_hi;
	double intercept, intercept_se;
	double r2;
	double residual_se; /* sqrt(sumsq / (n - 2)) */
	double cov00, cov01, cov11, sumsq;
};
int stats_ols(const double *x, const double *y, size_t n, struct ols *out);

/*
 * Per-doubling growth over a whole sweep: OLS of ln(median) on
 * log2(level), n >= 3 levels; factor = exp(slope) (the growth for one
 * doubling of the level), factor_se = factor * slope_se (delta method).
 * Its 95% interval is Student's t with the fit's n - 2 degrees of freedom
 * on the slope: [exp(slope - t se), exp(slope + t se)] (with 3 levels, 1 df:
 * t = 12.706, not 1.96).
 */
struct doubling_fit {
	size_t n;
	double factor, factor_se;
	double r2;
	double slope, slope_se;
	double df;     /* n - 2 */
	double lo, hi; /* the factor's 95% t interval */
};
int stats_per_doubling(const double *level, const double *median, size_t n,
		       struct doubling_fit *out);

/*
 * Two-sided Mann-Whitney U test of samples a and b.
 *   U = U_a = R_a - n_a (n_a + 1) / 2, R_a the sum of a's mid-ranks.
 *   exact: when there are no ties and n_a + n_b <= MW_EXACT_MAX, the exact
 *          null distribution of U (counted by recursion), p = min(1, 2 *
 *          min(P(U <= u), P(U >= u)));
 *   otherwise the normal approximation with tie-corrected variance
 *          var = n_a n_b / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 *          and a continuity correction of 0.5.
 * min_p is the smallest two-sided p-value any outcome can reach with these
 * sample sizes (exact: 2 / C(N, n_a)), so a caller can say a comparison is
 * unresolvable before looking at the data.
 */
#define MW_EXACT_MAX 40
struct mann_whitney {
	double u;
	double p;
	double min_p;
	bool exact;
	bool ties;
};
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct mann_whitney *out);

/*
 * Bootstrap 95% interval of median(b) / median(a): `resamples` resamples of
 * each arm with replacement (gsl_ran_sample, MT19937 seeded with `seed`),
 * percentile interval (2.5% and 97.5% quantiles,
 * gsl_stats_quantile_from_sorted_data). Same seed, same interval.
 */
struct ratio_ci {
	double ratio; /* median(b) / median(a) of the data */
	double lo, hi;
	size_t resamples;
	uint64_t seed;
};
int stats_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
				 size_t resamples, uint64_t seed, struct ratio_ci *out);

/*
 * Runs per arm needed to detect a relative effect `effect` (0.047 = 4.7%)
 * with a two-sided test at `alpha` and the given power, when the runs'
 * relative standard deviation is `cv` (normal approximation):
 *   n = ceil(2 * (z_{1-alpha/2} + z_{power})^2 * (cv / effect)^2)
 */
int stats_runs_needed(double cv, double effect, double alpha, double power, double *n);

/*
 * ---- A/B at small n: t tests, pooling, summaries that allow zeros ----
 *
 * A t estimate of a difference d (b minus a) with its standard error, its
 * degrees of freedom, the two-sided p of t = d / se from Student's t
 * (2 * gsl_cdf_tdist_Q(|t|, df)) and the interval d -+ t_{1-(1-conf)/2, df} se
 * (gsl_cdf_tdist_Pinv). On ln values, exp(d) is a ratio of geometric means
 * and exp(lo), exp(hi) its interval.
 */
struct t_test {
	size_t n_a, n_b; /* paired: the pairs in both */
	double diff;     /* the estimate of b - a */
	double se;
	double df;
	double t;
	double p;
	double lo, hi; /* the conf interval of diff */
	double conf;   /* 0.95 */
};

/*
 * The t test of an estimate already made: diff, its standard error se > 0
 * and degrees of freedom df > 0 give t, the two-sided p and the conf
 * interval (n_a, n_b are left 0 for the caller).
 */
int stats_t_estimate(double diff, double se, double df, double conf, struct t_test *out);

/*
 * Welch's unequal-variance t test of mean(b) - mean(a) (as
 * scipy.stats.ttest_ind(b, a, equal_var=False)): se = sqrt(va / na +
 * vb / nb) with sample variances (n - 1), df by Welch-Satterthwaite
 *   df = (va / na + vb / nb)^2 / ((va / na)^2 / (na - 1) + (vb / nb)^2 / (nb - 1)).
 * Needs 2+ values per sample and some variation (se > 0); conf in (0, 1).
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, double conf,
		struct t_test *out);
/* stats_welch on ln(values): every value must be > 0. */
int stats_welch_ln(const double *a, size_t na, const double *b, size_t nb, double conf,
		   struct t_test *out);

/*
 * Paired t test of the differences b[i] - a[i] (as scipy.stats.ttest_rel(b,
 * a)): diff = their mean, se = sd / sqrt(n), df = n - 1. Needs 2+ pairs
 * whose differences vary (se > 0).
 */
int stats_paired_t(const double *a, const double *b, size_t n, double conf, struct t_test *out);
/* stats_paired_t on ln(values): differences ln b[i] - ln a[i]; every value > 0. */
int stats_paired_t_ln(const double *a, const double *b, size_t n, double conf, struct t_test *out);

/*
 * Inverse-variance (fixed-effect) pooling of k independent estimates
 * est[i] with standard errors se[i] > 0 and degrees of freedom df[i] > 0:
 *   w_i = 1 / se_i^2, diff = sum(w_i est_i) / sum(w_i), se = 1 / sqrt(sum(w_i)),
 *   df = (sum w_i)^2 / sum(w_i^2 / df_i) (Welch-Satterthwaite for the
 *   weighted sum), t, p and the interval as above; n_a = n_b = k.
 */
int stats_pool_inverse_variance(const double *est, const double *se, const double *df, size_t k,
				double conf, struct t_test *out);

/* exp(mean(ln x)), n >= 1, every value > 0. */
int stats_geometric_mean(const double *x, size_t n, double *gm);

/*
 * The standard deviation pooled over samples:
 *   sqrt(sum((n_i - 1) var_i) / sum(n_i - 1)) over the samples with 2+ values
 * (a 1-value sample adds nothing). ln: of ln(values) (every value > 0).
 * ERR_DATA when no sample has 2 values.
 */
int stats_pooled_sd(const double *const *x, const size_t *n, size_t k, bool ln, double *sd);

/*
 * Pairs needed for a paired test to detect a mean difference `effect` when
 * the differences' standard deviation is sd (normal approximation):
 *   n = ceil((z_{1-alpha/2} + z_{power})^2 * (sd / effect)^2)
 * (stats_runs_needed is the two-sample form, with the factor 2).
 */
int stats_pairs_needed(double sd, double effect, double alpha, double power, double *n);

#endif
