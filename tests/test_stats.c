/*
 * Unit tests for analysis/stats.
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only). The
 * Mann-Whitney switch tests (N = 40 exact, N = 41 normal) and the tied
 * normal test fail if MW_EXACT_MAX, the continuity correction or the tie
 * correction changes.
 *
 * The t tests (Welch, paired, inverse-variance pooling) are checked against
 * SciPy 1.10.1 (/usr/bin/python3, numpy and scipy.stats; the call is in each
 * comment) on real corpus values: sky/gcp-x86-capacity-20260816/results.tsv
 * (tput of target small and medium, cfg pg, blocks 1-3, and the core
 * sub-corpus), writeups/gomaxprocs-affinity/runs.tsv (arm shard) and
 * sky/gomaxprocs-scaling-20260816/results.tsv (the GOGC arms). SciPy's
 * repr() is copied and compared to 1e-9 relative (the t quantile of GSL
 * and SciPy agree to about 1e-12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/stats.h"
#include "common/err.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void check_error(int rc, const char *message)
{
	assert_int_equal(rc, ERR_DATA);
	if (strstr(err_msg(), message) == NULL)
		fail_msg("message '%s' does not contain '%s'", err_msg(), message);
}

/* The real GOMAXPROCS=2 throughputs (runs/s) of the sweep. */
static const double g2[] = {853.212014958686, 881.2907259769522, 865.4682448787189};

static void test_median_odd_even(void **state)
{
	double odd[] = {5, 1, 4, 2, 3};
	double even[] = {5, 1, 4, 2, 3, 9};
	const double even_before[] = {5, 1, 4, 2, 3, 9};
	double m;
	(void)state;
	/* by hand: sorted 1 2 3 4 5, middle value 3 */
	assert_int_equal(stats_median(odd, ARRAY_LEN(odd), &m), 0);
	check_close(m, 3, 0, "odd median");
	/* by hand: sorted 1 2 3 4 5 9, mean of the middles (3 + 4) / 2 = 3.5 */
	assert_int_equal(stats_median(even, ARRAY_LEN(even), &m), 0);
	check_close(m, 3.5, 0, "even median");
	/* the input is not reordered (gsl_stats_median would have reordered it) */
	assert_memory_equal(even, even_before, sizeof(even));
	/* by hand: one value is its own median */
	assert_int_equal(stats_median(g2, 1, &m), 0);
	check_close(m, 853.212014958686, 0, "single median");
}

static void test_summary_real_g2(void **state)
{
	struct summary s;
	(void)state;
	assert_int_equal(stats_summary(g2, ARRAY_LEN(g2), &s), 0);
	assert_int_equal(s.n, 3);
	/* by hand: sorted 853.21..., 865.46..., 881.29...: the middle one */
	check_close(s.median, 865.4682448787189, 0, "median");
	check_close(s.min, 853.212014958686, 0, "min");
	check_close(s.max, 881.2907259769522, 0, "max");
	/* python3: statistics.fmean(g2) = 866.6569952714523 */
	check_close(s.mean, 866.6569952714523, 1e-12, "mean");
	/*
	 * by hand: (881.2907259769522 - 853.212014958686) / 865.4682448787189 * 100
	 *          = 28.0787110182662 / 865.4682448787189 * 100 ~= 3.2443;
	 * python3: (max(g2) - min(g2)) / statistics.median(g2) * 100 = 3.244337523001892
	 */
	check_close(s.range_pct, 3.244337523001892, 1e-12, "range_pct");
	assert_true(fabs(s.range_pct - 3.2443) < 5e-5);
	/*
	 * python3: (max(g2) / min(g2) - 1) * 100 = 3.2909418205539165
	 * (by hand 28.0787 / 853.212 = 3.291%)
	 */
	check_close(s.spread_pct, 3.2909418205539165, 1e-12, "spread_pct");
}

static void test_summary_single_value(void **state)
{
	struct summary s;
	(void)state;
	/* by hand: n = 1 -> min = max = median = mean, range 0 / median = 0, spread 0 */
	assert_int_equal(stats_summary(g2 + 2, 1, &s), 0);
	assert_int_equal(s.n, 1);
	check_close(s.median, 865.4682448787189, 0, "median");
	check_close(s.mean, 865.4682448787189, 0, "mean");
	check_close(s.range_pct, 0, 0, "range_pct");
	check_close(s.spread_pct, 0, 0, "spread_pct");
}

static void test_summary_errors(void **state)
{
	const double zero_median[] = {-1, 0, 1};
	const double zero_min[] = {0, 2, 3};
	const double with_nan[] = {1, NAN, 3};
	const double with_inf[] = {1, 2, INFINITY};
	struct summary s;
	double m;
	(void)state;
	check_error(stats_summary(g2, 0, &s), "need at least 1 value");
	check_error(stats_median(g2, 0, &m), "need at least 1 value");
	/* by hand: median of -1 0 1 is 0 */
	check_error(stats_summary(zero_median, 3, &s), "median is 0: range_pct undefined");
	/* by hand: 3 / 0 - 1 is infinite */
	check_error(stats_summary(zero_min, 3, &s), "minimum is 0 or below: spread_pct undefined");
	check_error(stats_summary(with_nan, 3, &s), "values must be finite");
	check_error(stats_median(with_inf, 3, &m), "values must be finite");
}

/* A metric that can be 0 (an error rate): no error, the relative figures NaN. */
static void test_summary_abs_zeros(void **state)
{
	/* capacity corpus, e2-medium pg, err at 100 sessions in blocks 1-3: all 0 */
	const double zeros[] = {0, 0, 0};
	/* e2-small mem, err at 500 sessions (results.tsv): 0.00124, 0.00161, 0 */
	const double some[] = {0.0012400110223201985, 0.0016055329134247252, 0.0};
	const double zero_median[] = {-1, 0, 1};
	struct summary s;
	(void)state;
	assert_int_equal(stats_summary_abs(zeros, 3, &s), 0);
	check_close(s.median, 0, 0, "median");
	assert_true(isnan(s.range_pct));
	check_close(s.range_abs, 0, 0, "range_abs");
	check_close(s.spread_pct, 0, 0, "spread_pct (all equal)");
	assert_int_equal(stats_summary_abs(some, 3, &s), 0);
	check_close(s.median, 0.0012400110223201985, 0, "median");
	check_close(s.min, 0, 0, "min");
	/* by hand: max - min = 0.0016055329134247252 */
	check_close(s.range_abs, 0.0016055329134247252, 0, "range_abs");
	/* python3: 0.0016055329134247252 / 0.0012400110223201985 * 100 */
	check_close(s.range_pct, 129.4773098404073, 1e-12, "range_pct");
	assert_true(isnan(s.spread_pct)); /* min 0 */
	assert_int_equal(stats_summary_abs(zero_median, 3, &s), 0);
	assert_true(isnan(s.range_pct));
	check_close(s.range_abs, 2, 0, "range_abs -1..1");
	/* stats_summary keeps refusing both (test_summary_errors) and fills range_abs */
	assert_int_equal(stats_summary(g2, 3, &s), 0);
	/* python3: 881.2907259769522 - 853.212014958686 */
	check_close(s.range_abs, 28.078711018266176, 1e-12, "range_abs g2");
	assert_int_equal(stats_summary_abs(g2, 0, &s), ERR_DATA);
}

/*
 * python3 (OLS by the textbook formulas):
 *   import math
 *   def ols(X, Y):
 *       n = len(X); mx = sum(X)/n; my = sum(Y)/n
 *       sxx = sum((a-mx)**2 for a in X); sxy = sum((a-mx)*(b-my) for a, b in zip(X, Y))
 *       b = sxy/sxx; a = my - b*mx
 *       rss = sum((y - a - b*x)**2 for x, y in zip(X, Y)); s2 = rss/(n-2)
 *       sst = sum((y-my)**2 for y in Y)
 *       return dict(slope=b, intercept=a, se_b=math.sqrt(s2/sxx),
 *                   se_a=math.sqrt(s2*(1/n + mx*mx/sxx)), rss=rss, r2=1-rss/sst,
 *                   res_se=math.sqrt(s2), cov01=-mx*s2/sxx)
 */
static void test_ols_small(void **state)
{
	const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	const double y[] = {2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8, 16.1, 18.0, 19.9, 22.3};
	const double t975_9 = 2.262157; /* published t table, t(0.975, 9) to 6 decimals */
	struct ols o;
	(void)state;
	assert_int_equal(stats_ols(x, y, ARRAY_LEN(x), &o), 0);
	assert_int_equal(o.n, 11);
	/* python3 ols(x, y): slope 2.0063636363636363, se_b 0.016847503786566877 */
	check_close(o.slope, 2.0063636363636363, 1e-12, "slope");
	check_close(o.slope_se, 0.016847503786566877, 1e-9, "slope_se");
	/* intercept -0.001818181818181941 (near 0: absolute tolerance), se_a 0.11426533007244902 */
	assert_true(fabs(o.intercept - -0.001818181818181941) < 1e-12);
	check_close(o.intercept_se, 0.11426533007244902, 1e-9, "intercept_se");
	/* rss 0.2810000000000014, r2 0.9993658108224558, res_se 0.17669811040931474 */
	check_close(o.sumsq, 0.2810000000000014, 1e-9, "sumsq");
	check_close(o.r2, 0.9993658108224558, 1e-12, "r2");
	check_close(o.residual_se, 0.17669811040931474, 1e-9, "residual_se");
	/* cov11 = se_b^2, cov00 = se_a^2, cov01 = -mean(x) s2 / sxx = -0.0017030303030303117 */
	check_close(o.cov11, 0.016847503786566877 * 0.016847503786566877, 1e-9, "cov11");
	check_close(o.cov00, 0.11426533007244902 * 0.11426533007244902, 1e-9, "cov00");
	check_close(o.cov01, -0.0017030303030303117, 1e-9, "cov01");
	/*
	 * python3: slope -/+ 2.262157 * se_b = 1.9682519377403276, 2.044475334986945;
	 * the table value has 7 significant digits, so the bounds agree to
	 * 0.5e-6 * se_b ~= 1e-8 absolute.
	 */
	assert_true(fabs(o.slope_lo - 1.9682519377403276) < 1e-8);
	assert_true(fabs(o.slope_hi - 2.044475334986945) < 1e-8);
	check_close((o.slope_hi - o.slope) / o.slope_se, t975_9, 1e-6, "t(0.975, 9)");
}

static void test_ols_errors(void **state)
{
	const double x[] = {1, 2, 3};
	const double flat_x[] = {2, 2, 2};
	const double y[] = {1, 2, 4};
	const double bad_y[] = {1, INFINITY, 4};
	struct ols o;
	(void)state;
	/* n = 2 gives the exact line without an error estimate: refused */
	check_error(stats_ols(x, y, 2, &o),
		    "need at least 3 points for a least-squares fit, got 2");
	check_error(stats_ols(flat_x, y, 3, &o), "x values are all equal");
	check_error(stats_ols(x, bad_y, 3, &o), "y values must be finite");
}

/* The real sweep: medians at GOMAXPROCS 1, 2, 4, 8. */
static const double sweep_level[] = {1, 2, 4, 8};
static const double sweep_median[] = {484.13466860190584, 865.4682448787189, 1538.8011664466776,
				      1796.1987044774646};

static void test_per_doubling_real_sweep(void **state)
{
	struct doubling_fit f;
	(void)state;
	assert_int_equal(stats_per_doubling(sweep_level, sweep_median, 4, &f), 0);
	assert_int_equal(f.n, 4);
	/*
	 * python3, with ols() from test_ols_small:
	 *   o = ols([math.log2(v) for v in (1, 2, 4, 8)], [math.log(m) for m in medians])
	 *   f = math.exp(o['slope'])          -> 1.5696744729671108
	 *   f * o['se_b']                     -> 0.11539797681032035
	 *   o['r2']                           -> 0.9495097739180611
	 */
	check_close(f.factor, 1.5696744729671108, 1e-9, "factor");
	check_close(f.factor_se, 0.11539797681032035, 1e-9, "factor_se");
	check_close(f.r2, 0.9495097739180611, 1e-9, "r2");
}

static void test_per_doubling_errors(void **state)
{
	const double zero_level[] = {0, 2, 4};
	const double neg_median[] = {1, -2, 3};
	const double nan_median[] = {1, NAN, 3};
	const double same_level[] = {4, 4, 4};
	struct doubling_fit f;
	(void)state;
	check_error(stats_per_doubling(sweep_level, sweep_median, 2, &f),
		    "need at least 3 levels for a per-doubling fit, got 2");
	check_error(stats_per_doubling(zero_level, sweep_median, 3, &f), "levels must be positive");
	check_error(stats_per_doubling(sweep_level, neg_median, 3, &f), "medians must be positive");
	check_error(stats_per_doubling(sweep_level, nan_median, 3, &f), "medians must be finite");
	check_error(stats_per_doubling(same_level, sweep_median, 3, &f), "levels are all equal");
}

/*
 * stats_mann_whitney of A and B into MW, which must succeed; whether it was
 * exact and saw ties, EXACT and TIES (1 or 0; -1: not checked).
 */
static void mw_of(const double *a, size_t na, const double *b, size_t nb, int exact, int ties,
		  struct mann_whitney *mw)
{
	assert_int_equal(stats_mann_whitney(a, na, b, nb, mw), 0);
	if (exact >= 0)
		assert_int_equal(mw->exact, exact);
	if (ties >= 0)
		assert_int_equal(mw->ties, ties);
}

/*
 * A Mann-Whitney result against the reference (by hand or the python3
 * below): U exactly, p and min_p to their tolerances; NAN: not checked.
 */
static void check_mw(const struct mann_whitney *mw, double u, double p, double p_tol, double min_p,
		     double min_p_tol, const char *what)
{
	char label[64];
	if (!isnan(u)) {
		snprintf(label, sizeof(label), "u %s", what);
		check_close(mw->u, u, 0, label);
	}
	if (!isnan(p)) {
		snprintf(label, sizeof(label), "p %s", what);
		check_close(mw->p, p, p_tol, label);
	}
	if (!isnan(min_p)) {
		snprintf(label, sizeof(label), "min_p %s", what);
		check_close(mw->min_p, min_p, min_p_tol, label);
	}
}

/*
 * python3, exact two-sided p by enumerating every rank set of a:
 *   def exact(a, b):
 *       na, N = len(a), len(a) + len(b)
 *       r = {v: i + 1 for i, v in enumerate(sorted(a + b))}   # no ties
 *       u = sum(r[v] for v in a) - na*(na+1)/2; lo = hi = tot = 0
 *       for c in itertools.combinations(range(1, N+1), na):
 *           uu = sum(c) - na*(na+1)/2; tot += 1; lo += uu <= u; hi += uu >= u
 *       return u, min(1, 2*min(lo, hi)/tot), 2/tot
 */
static void test_mw_exact_tiny(void **state)
{
	const double a[] = {1, 2, 3};
	const double b[] = {4, 5, 6};
	struct mann_whitney mw;
	(void)state;
	/*
	 * by hand: a has ranks 1 2 3, R_a = 6, U = 6 - 3*4/2 = 0; P(U <= 0) =
	 * 1/C(6,3) = 1/20, p = 2/20 = 0.1; min_p = 2/20 = 0.1
	 */
	mw_of(a, 3, b, 3, 1, 0, &mw);
	check_mw(&mw, 0, 0.1, 1e-12, 0.1, 1e-12, "3v3");
	/* by hand: a above b, ranks 4 5 6, R_a = 15, U = 15 - 6 = 9 = na*nb; p = 0.1 */
	mw_of(b, 3, a, 3, -1, -1, &mw);
	check_mw(&mw, 9, 0.1, 1e-12, NAN, 0, "reversed");
	/* by hand: one value each, C(2,1) = 2, min_p = 2/2 = 1, U = 0 -> p = min(1, 2 * 1/2) = 1 */
	mw_of(a, 1, b, 1, -1, -1, &mw);
	check_mw(&mw, NAN, 1, 0, 1, 0, "1v1");
}

static void test_mw_exact_7v8(void **state)
{
	const double a[] = {12.1, 15.3, 9.8, 14.7, 11.2, 16.0, 13.3};
	const double b[] = {17.2, 14.9, 18.8, 13.9, 19.5, 16.4, 20.1, 15.8};
	struct mann_whitney mw;
	(void)state;
	mw_of(a, 7, b, 8, 1, 0, &mw);
	/*
	 * python3 exact(a, b) over C(15, 7) = 6435 sets:
	 * (6.0, 0.009324009324009324, 0.0003108003108003108)
	 */
	check_mw(&mw, 6, 0.009324009324009324, 1e-12, 0.0003108003108003108, 1e-12, "7v8");
}

/*
 * The exact/normal switch: a holds ranks 1, 2, 5 of N, b the rest, no ties.
 * N = 40 is exact, N = 41 is the normal approximation.
 *   python3: exact(..) as above, and the untied normal approximation
 *     Q = lambda z: 0.5 * math.erfc(z / math.sqrt(2))
 *     def normal(u, na, nb):
 *         N = na + nb; var = na*nb/12*(N+1)
 *         return min(1, 2*Q((abs(u - na*nb/2) - 0.5)/math.sqrt(var)))
 *   N = 40: u 2.0, exact p 0.0008097165991902834, min_p 2/9880 = 0.00020242914979757084
 *           (the normal value would be 0.006498054976979941)
 *   N = 41: u 2.0, normal p 0.006363994235016064, normal(0, 3, 38) = 0.004676116611387249
 *           (the exact value would be 0.00075046904315197)
 */
static void ranks_case(size_t n, double *a, double *b, size_t *nb)
{
	size_t ia = 0, ib = 0;
	for (size_t r = 1; r <= n; r++) {
		if (r == 1 || r == 2 || r == 5)
			a[ia++] = (double)r;
		else
			b[ib++] = (double)r;
	}
	*nb = ib;
}

static void test_mw_exact_normal_switch(void **state)
{
	double a[3], b[40];
	size_t nb;
	struct mann_whitney mw;
	(void)state;
	assert_int_equal(MW_EXACT_MAX, 40);
	ranks_case(40, a, b, &nb);
	assert_int_equal(nb, 37);
	mw_of(a, 3, b, nb, 1, -1, &mw);
	check_mw(&mw, 2, 0.0008097165991902834, 1e-12, 0.00020242914979757084, 1e-12, "40");

	ranks_case(41, a, b, &nb);
	assert_int_equal(nb, 38);
	mw_of(a, 3, b, nb, 0, 0, &mw);
	check_mw(&mw, 2, 0.006363994235016064, 1e-9, 0.004676116611387249, 1e-9, "41");
}

static void test_mw_normal_ties(void **state)
{
	const double a[] = {10, 12, 12, 15, 17, 17, 17, 20, 22};
	const double b[] = {12, 14, 17, 18, 20, 20, 23, 25, 26, 27};
	struct mann_whitney mw;
	(void)state;
	mw_of(a, 9, b, 10, 0, 1, &mw);
	/*
	 * by hand, mid-ranks of the 19 values: 10->1, 12 (x3)->3, 14->5,
	 * 15->6, 17 (x4)->8.5, 18->10, 20 (x3)->12, 22->14, 23..27->15..19.
	 * R_a = 1 + 3 + 3 + 6 + 8.5*3 + 12 + 14 = 66.5, U = 66.5 - 45 = 21.5
	 * ties: t = 3, 4, 3 -> sum(t^3 - t) = 24 + 60 + 24 = 108
	 * python3:
	 *   var = 9*10/12*((19+1) - 108/(19*18))         -> 147.63157894736844
	 *   z = (abs(21.5 - 45) - 0.5)/math.sqrt(var)
	 *   p = 2*0.5*math.erfc(z/math.sqrt(2))          -> 0.058365063416765395
	 * (python3: without the continuity correction p would be 0.053101214402405894,
	 *  without the tie correction 0.06038908130927025, so this test pins both)
	 */
	check_mw(&mw, 21.5, 0.058365063416765395, 1e-9, NAN, 0, "ties");
	/* min_p for N = 19 <= 40 depends on sizes only: 2/C(19, 9) = 2/92378 (by hand) */
	check_mw(&mw, NAN, NAN, 0, 2.0 / 92378, 1e-12, "ties");
}

static void test_mw_all_tied(void **state)
{
	const double a[] = {5, 5, 5};
	const double b[] = {5, 5};
	struct mann_whitney mw;
	(void)state;
	/* by hand: every rank is 3, R_a = 9, U = 9 - 6 = 3 = na*nb/2; tie variance 0 -> p = 1 */
	mw_of(a, 3, b, 2, -1, 1, &mw);
	check_mw(&mw, 3, 1, 0, NAN, 0, "all tied");
}

static void test_mw_errors(void **state)
{
	const double a[] = {1, 2, 3};
	const double bad[] = {1, NAN};
	struct mann_whitney mw;
	(void)state;
	check_error(stats_mann_whitney(a, 0, a, 3, &mw), "need at least 1 value in each sample");
	check_error(stats_mann_whitney(a, 3, a, 0, &mw), "need at least 1 value in each sample");
	check_error(stats_mann_whitney(a, 3, bad, 2, &mw), "values must be finite");
}

/* Arm a: 100.0, 100.1, ..., 104.9 in a scrambled order; arm b: 120.0 ... 124.9. */
static void clear_case(double *a, double *b)
{
	for (size_t i = 0; i < 50; i++) {
		a[i] = 100 + (double)(i * 37 % 50) / 10;
		b[i] = 120 + (double)(i * 23 % 50) / 10;
	}
}

static void test_bootstrap_reproducible(void **state)
{
	double a[50], b[50], a_before[50];
	struct ratio_ci c1, c2, c3;
	(void)state;
	clear_case(a, b);
	memcpy(a_before, a, sizeof(a));
	assert_int_equal(stats_bootstrap_median_ratio(a, 50, b, 50, 2000, 42, &c1), 0);
	assert_int_equal(stats_bootstrap_median_ratio(a, 50, b, 50, 2000, 42, &c2), 0);
	/* same seed, same interval, bit for bit */
	assert_memory_equal(&c1.lo, &c2.lo, sizeof(double));
	assert_memory_equal(&c1.hi, &c2.hi, sizeof(double));
	assert_int_equal(c1.resamples, 2000);
	assert_int_equal(c1.seed, 42);
	/* another seed draws other resamples: the interval moves (checked once; deterministic) */
	assert_int_equal(stats_bootstrap_median_ratio(a, 50, b, 50, 2000, 43, &c3), 0);
	assert_true(c3.lo != c1.lo || c3.hi != c1.hi);
	assert_memory_equal(a, a_before, sizeof(a));
}

static void test_bootstrap_clear_case(void **state)
{
	double a[50], b[50];
	struct ratio_ci c;
	(void)state;
	clear_case(a, b);
	assert_int_equal(stats_bootstrap_median_ratio(a, 50, b, 50, 10000, 7, &c), 0);
	/*
	 * by hand: i*37 % 50 and i*23 % 50 run over 0..49 (37, 23 prime to 50),
	 * so median(a) = 100 + 24.5/10 = 102.45, median(b) = 122.45 and the
	 * ratio is 122.45 / 102.45 = 1.19521...
	 */
	check_close(c.ratio, 122.45 / 102.45, 1e-12, "ratio");
	assert_true(c.lo <= c.ratio && c.ratio <= c.hi);
	/* by hand: any resample median lies in [100, 104.9] resp. [120, 124.9] */
	assert_true(c.lo >= 120 / 104.9);
	assert_true(c.hi <= 124.9 / 100);
	assert_true(c.lo > 1); /* a clear 20% effect */
}

static void test_bootstrap_degenerate(void **state)
{
	const double a[] = {4};
	const double b[] = {5};
	const double zero[] = {0, 0, 1};
	const double bad[] = {1, INFINITY};
	struct ratio_ci c;
	(void)state;
	/* by hand: one value per arm, every resample is the data: lo = hi = 5/4 = 1.25 */
	assert_int_equal(stats_bootstrap_median_ratio(a, 1, b, 1, 100, 1, &c), 0);
	check_close(c.ratio, 1.25, 0, "ratio");
	check_close(c.lo, 1.25, 0, "lo");
	check_close(c.hi, 1.25, 0, "hi");
	check_error(stats_bootstrap_median_ratio(zero, 3, b, 1, 100, 1, &c),
		    "median of the first arm is 0");
	check_error(stats_bootstrap_median_ratio(a, 1, bad, 2, 100, 1, &c),
		    "values must be finite");
	check_error(stats_bootstrap_median_ratio(a, 0, b, 1, 100, 1, &c),
		    "need at least 1 value in each arm");
	check_error(stats_bootstrap_median_ratio(a, 1, b, 1, 0, 1, &c), "need at least 1 resample");
}

static void test_runs_needed(void **state)
{
	double n;
	(void)state;
	/*
	 * by hand, z(0.975) = 1.959964, z(0.8) = 0.841621 (normal table):
	 * 2 * (1.959964 + 0.841621)^2 * (0.1 / 0.047)^2
	 *   = 2 * 7.848879 * 4.526935 = 71.06 -> ceil 72
	 */
	assert_int_equal(stats_runs_needed(0.1, 0.047, 0.05, 0.8, &n), 0);
	check_close(n, 72, 0, "n");
	/* by hand: 2 * 7.848879 * (0.02 / 0.05)^2 = 2 * 7.848879 * 0.16 = 2.51 -> 3 */
	assert_int_equal(stats_runs_needed(0.02, 0.05, 0.05, 0.8, &n), 0);
	check_close(n, 3, 0, "n small");
	/*
	 * by hand, z(0.995) = 2.575829, z(0.9) = 1.281552:
	 * 2 * (3.857381)^2 * (0.05 / 0.02)^2 = 2 * 14.879388 * 6.25 = 185.99 -> 186
	 */
	assert_int_equal(stats_runs_needed(0.05, 0.02, 0.01, 0.9, &n), 0);
	check_close(n, 186, 0, "n strict");
	check_error(stats_runs_needed(0, 0.05, 0.05, 0.8, &n), "cv must be a positive number");
	check_error(stats_runs_needed(0.1, NAN, 0.05, 0.8, &n), "effect must be a positive number");
	check_error(stats_runs_needed(0.1, 0.05, 1, 0.8, &n), "alpha must be between 0 and 1");
	check_error(stats_runs_needed(0.1, 0.05, 0.05, 0, &n), "power must be between 0 and 1");
}

/* ---- t tests, pooling, summaries with zeros ---- */

/* arms copied from the real corpora (corpus_arms.h names each source) */
#include "corpus_arms.h"

#define T_REL 1e-9

/*
 * A t test's figures as the reference (scipy, numpy) gives them, each to
 * T_REL; NAN: not checked. With LN the test ran on ln values, and diff, lo
 * and hi are compared as exp() (the geometric-mean ratio and its interval).
 */
struct t_want {
	double t, df, p, se, diff, lo, hi;
};

static void check_t_part(double got, double want, const char *what, const char *part)
{
	char label[64];
	if (isnan(want))
		return;
	snprintf(label, sizeof(label), "%s %s", what, part);
	check_close(got, want, T_REL, label);
}

static void check_t(const struct t_test *t, bool ln, struct t_want w, const char *what)
{
	check_t_part(t->t, w.t, what, "t");
	check_t_part(t->df, w.df, what, "df");
	check_t_part(t->p, w.p, what, "p");
	check_t_part(t->se, w.se, what, "se");
	check_t_part(ln ? exp(t->diff) : t->diff, w.diff, what, "diff");
	check_t_part(ln ? exp(t->lo) : t->lo, w.lo, what, "lo");
	check_t_part(ln ? exp(t->hi) : t->hi, w.hi, what, "hi");
}

static void test_welch_ln_capacity(void **state)
{
	struct t_test t;
	(void)state;
	assert_int_equal(stats_welch_ln(cap_small300, 3, cap_medium300, 3, 0.95, &t), 0);
	/*
	 * scipy.stats.ttest_ind(ln medium, ln small, equal_var=False):
	 *   t = 21.662549178758397, p = 0.0012247050963697312;
	 * Welch-Satterthwaite df (numpy, var ddof=1) = 2.2303988629556724,
	 * se = 0.06597861894189223; exp(d -+ scipy.stats.t.ppf(0.975, df) se)
	 *   = [3.2275147101453605, 5.402261994167859], exp(d) = 4.175629300385269
	 */
	check_t(&t, true,
		(struct t_want){21.662549178758397, 2.2303988629556724, 0.0012247050963697312,
				0.06597861894189223, 4.175629300385269, 3.2275147101453605,
				5.402261994167859},
		"capacity");
	assert_int_equal(t.n_a, 3);
	assert_int_equal(t.n_b, 3);
	check_close(t.conf, 0.95, 0, "conf");
}

static void test_welch_ln_core_and_affinity(void **state)
{
	struct t_test t;
	(void)state;
	/* scipy.stats.ttest_ind(ln b, ln a, equal_var=False): t = 4.102306568843705,
	 * p = 0.03700453729196605; df 2.4948913740370546; gm interval
	 * [1.018966454215028, 1.3182380561926634] */
	assert_int_equal(stats_welch_ln(cap_core100, 3, cap_medium_mem100, 3, 0.95, &t), 0);
	check_t(&t, true,
		(struct t_want){4.102306568843705, 2.4948913740370546, 0.03700453729196605, NAN,
				NAN, 1.018966454215028, 1.3182380561926634},
		"core");
	/* t = 39.76351262523003, p = 4.3250210080377405e-06, df 3.7735188787072813;
	 * gm 1.3298630778950093 [1.303027930089937, 1.357250880897327] */
	assert_int_equal(stats_welch_ln(affinity_procs1, 3, affinity_procs8, 3, 0.95, &t), 0);
	check_t(&t, true,
		(struct t_want){39.76351262523003, 3.7735188787072813, 4.3250210080377405e-06, NAN,
				1.3298630778950093, 1.303027930089937, 1.357250880897327},
		"affinity");
	/* swapping the arms flips t and the difference, not p or df */
	assert_int_equal(stats_welch_ln(affinity_procs8, 3, affinity_procs1, 3, 0.95, &t), 0);
	check_t(&t, true,
		(struct t_want){-39.76351262523003, NAN, 4.3250210080377405e-06, NAN, NAN, NAN,
				NAN},
		"swapped");
}

static void test_welch_values_and_errors(void **state)
{
	static const double same[] = {5, 5, 5};
	static const double zero[] = {0, 1, 2};
	struct t_test t;
	(void)state;
	/* scipy.stats.ttest_ind(medium, small, equal_var=False) on the values:
	 * t = 35.156263706078526, p = 3.923324511623471e-06; df 3.998279419704827,
	 * diff 198.9374897227173, interval [183.2238525653202, 214.6511268801144] */
	assert_int_equal(stats_welch(cap_small300, 3, cap_medium300, 3, 0.95, &t), 0);
	check_t(&t, false,
		(struct t_want){35.156263706078526, 3.998279419704827, 3.923324511623471e-06, NAN,
				198.9374897227173, 183.2238525653202, 214.6511268801144},
		"values");
	/* one arm constant: se from the other arm alone, df = n - 1 = 2 (by hand) */
	assert_int_equal(stats_welch(cap_small300, 3, same, 3, 0.95, &t), 0);
	check_close(t.df, 2, 1e-12, "df with one constant arm");
	check_error(stats_welch(same, 3, same, 3, 0.95, &t), "no variation");
	check_error(stats_welch(same, 1, cap_small300, 3, 0.95, &t), "at least 2 values");
	check_error(stats_welch_ln(zero, 3, cap_small300, 3, 0.95, &t), "positive");
	check_error(stats_welch(cap_small300, 3, cap_medium300, 3, 1.0, &t), "confidence");
}

static void test_paired_t(void **state)
{
	static const double a[] = {1, 2, 3};
	static const double b[] = {2, 3, 4};
	struct t_test t;
	(void)state;
	/* paired by block (1, 2, 3). scipy.stats.ttest_rel(ln medium, ln small):
	 * t = 23.677765445309184, p = 0.001778928526777874, df = 2; exp(mean
	 * d -+ t.ppf(0.975, 2) sd / sqrt 3) = [3.220521496256526, 5.413992756919357],
	 * exp(mean d) = 4.175629300385263 */
	assert_int_equal(stats_paired_t_ln(cap_small300, cap_medium300, 3, 0.95, &t), 0);
	check_t(&t, true,
		(struct t_want){23.677765445309184, NAN, 0.001778928526777874, NAN,
				4.175629300385263, 3.220521496256526, 5.413992756919357},
		"paired ln");
	check_close(t.df, 2, 0, "df");
	/* on the values: ttest_rel(medium, small): t = 45.03331509503469,
	 * p = 0.000492732359016402; mean 198.93748972271726,
	 * [179.93025182715485, 217.94472761827967] */
	assert_int_equal(stats_paired_t(cap_small300, cap_medium300, 3, 0.95, &t), 0);
	check_t(&t, false,
		(struct t_want){45.03331509503469, NAN, 0.000492732359016402, NAN, NAN,
				179.93025182715485, 217.94472761827967},
		"paired values");
	/* every pair differs by 1: no spread of the differences */
	check_error(stats_paired_t(a, b, 3, 0.95, &t), "no variation");
	check_error(stats_paired_t(a, b, 1, 0.95, &t), "at least 2 pairs");
}

static void test_pool_inverse_variance(void **state)
{
	/*
	 * Capacity corpus, small vs medium, cfg pg, blocks 1-3, by sessions:
	 * each level's Welch on ln values (numpy, as in test_welch_ln_capacity)
	 *   100: d 1.2664655054978642, se 0.06385868723821324, df 2.4182256470370187
	 *   300: d 1.4292650775753009, se 0.06597861894189223, df 2.2303988629556724
	 *   500: d 1.299078994789225,  se 0.03610370642555136, df 2.525509120989539
	 * numpy: w = 1 / se^2, d = sum(w d) / sum(w) = 1.3167169554291618,
	 * se = 1 / sqrt(sum w) = 0.028373869188294317, df = sum(w)^2 /
	 * sum(w^2 / df) = 5.479409389726017; t = 46.40597116632847,
	 * p = 2 scipy.stats.t.sf(t, df) = 2.525321826668932e-08; exp(d -+
	 * t.ppf(0.975, df) se) = [3.475220231036469, 4.005931180588833]
	 */
	static const double est[] = {1.2664655054978642, 1.4292650775753009, 1.299078994789225};
	static const double se[] = {0.06385868723821324, 0.06597861894189223, 0.03610370642555136};
	static const double df[] = {2.4182256470370187, 2.2303988629556724, 2.525509120989539};
	static const double two[] = {0.1, 0.3}, se2[] = {0.1, 0.1}, df2[] = {4, 4};
	static const double bad_se[] = {0.1, 0};
	struct t_test t;
	(void)state;
	assert_int_equal(stats_pool_inverse_variance(est, se, df, 3, 0.95, &t), 0);
	check_close(t.diff, 1.3167169554291618, T_REL, "pooled d");
	check_close(t.se, 0.028373869188294317, T_REL, "pooled se");
	check_close(t.df, 5.479409389726017, T_REL, "pooled df");
	check_close(t.t, 46.40597116632847, T_REL, "pooled t");
	check_close(t.p, 2.525321826668932e-08, 1e-8, "pooled p");
	check_close(exp(t.lo), 3.475220231036469, T_REL, "pooled lo");
	check_close(exp(t.hi), 4.005931180588833, T_REL, "pooled hi");
	assert_int_equal(t.n_a, 3);
	/*
	 * by hand: equal weights: the mean 0.2, se 0.1 / sqrt 2, df (2w)^2 /
	 * (2 w^2 / 4) = 8; t = 2.8284271247461903; scipy 2 t.sf(t, 8) =
	 * 0.022203904140477237, t.ppf(0.975, 8) = 2.3060041350333704
	 */
	assert_int_equal(stats_pool_inverse_variance(two, se2, df2, 2, 0.95, &t), 0);
	check_close(t.diff, 0.2, 1e-12, "mean");
	check_close(t.se, 0.1 / sqrt(2), 1e-12, "se");
	check_close(t.df, 8, 1e-12, "df");
	check_close(t.p, 0.022203904140477237, T_REL, "p");
	check_close(t.hi, 0.2 + 2.3060041350333704 * 0.1 / sqrt(2), T_REL, "hi");
	check_error(stats_pool_inverse_variance(two, bad_se, df2, 2, 0.95, &t), "positive");
	check_error(stats_pool_inverse_variance(two, se2, df2, 0, 0.95, &t), "at least 1");
}

static void test_geometric_mean_and_pooled_sd(void **state)
{
	/* gomaxprocs corpus, GOGC=800 / GOGC=100 at GOMAXPROCS 1, 4, 8 (one run each):
	 * 621.5753887789881 / 467.45002353466043, 2143.0991485167087 /
	 * 1561.8288570658522, 2403.9683124863996 / 1805.138577387964;
	 * scipy.stats.gmean(ratios) = 1.3444001290698562 */
	const double ratios[] = {621.5753887789881 / 467.45002353466043,
				 2143.0991485167087 / 1561.8288570658522,
				 2403.9683124863996 / 1805.138577387964};
	static const double one[] = {4}, x1[] = {1, 3}, x2[] = {2, 4, 9}, neg[] = {1, -1};
	const double *x[3] = {x1, x2, one};
	size_t n[3] = {2, 3, 1};
	double v;
	(void)state;
	assert_int_equal(stats_geometric_mean(ratios, 3, &v), 0);
	check_close(v, 1.3444001290698562, 1e-12, "gm");
	check_error(stats_geometric_mean(neg, 2, &v), "positive");
	/*
	 * by hand: x1 var 2 (1 dof), x2 mean 5, var (9 + 1 + 16) / 2 = 13
	 * (2 dof), the 1-value sample adds nothing: sqrt((2 + 26) / 3)
	 */
	assert_int_equal(stats_pooled_sd(x, n, 3, false, &v), 0);
	check_close(v, sqrt(28.0 / 3.0), 1e-12, "pooled sd");
	/* ln: x1 -> ln 1, ln 3: var = (ln 3)^2 / 2; alone (x2 left out by n = 1) */
	n[1] = 1;
	assert_int_equal(stats_pooled_sd(x, n, 2, true, &v), 0);
	check_close(v, log(3) / sqrt(2), 1e-12, "pooled sd of ln");
	n[0] = 1;
	check_error(stats_pooled_sd(x, n, 3, false, &v), "at least 2 values");
}

static void test_pairs_needed(void **state)
{
	double n;
	(void)state;
	/*
	 * python3: z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
	 *   = 2.801585218112968; sd 0.1, effect ln(1.047) = 0.045928931...:
	 *   z^2 (sd / effect)^2 = 37.2077... -> 38 pairs; two-sample: 2x -> 75 per arm
	 */
	assert_int_equal(stats_pairs_needed(0.1, log(1.047), 0.05, 0.8, &n), 0);
	check_close(n, 38, 0, "pairs");
	assert_int_equal(stats_runs_needed(0.1, log(1.047), 0.05, 0.8, &n), 0);
	check_close(n, 75, 0, "runs per arm");
	check_error(stats_pairs_needed(0, 0.1, 0.05, 0.8, &n), "sd must be");
}

static void test_summary_any_zeros(void **state)
{
	/* capacity corpus, err of target medium, cfg pg, 300 sessions, blocks 1-3 */
	static const double zeros[] = {0, 0, 0};
	static const double mixed[] = {0, 0.0012, 0.0008};
	static const double neg[] = {-1, 2, 3};
	struct summary s;
	(void)state;
	assert_int_equal(stats_summary_abs(zeros, 3, &s), 0);
	check_close(s.median, 0, 0, "median 0");
	assert_true(isnan(s.range_pct));
	check_close(s.spread_pct, 0, 0, "all equal: spread 0");
	/* by hand: median 0.0008, range 0.0012 / 0.0008 = 150%; min 0: no spread_pct */
	assert_int_equal(stats_summary_abs(mixed, 3, &s), 0);
	check_close(s.median, 0.0008, 0, "median");
	check_close(s.range_pct, 150, 1e-12, "range_pct");
	assert_true(isnan(s.spread_pct));
	assert_int_equal(stats_summary_abs(neg, 3, &s), 0);
	assert_true(isnan(s.spread_pct));
	check_close(s.range_pct, 200, 1e-12, "range_pct with a negative");
	/* the strict summary still refuses a median of 0 */
	check_error(stats_summary(zeros, 3, &s), "median is 0");
	/* positive data: the same as stats_summary */
	{
		struct summary strict;
		assert_int_equal(stats_summary(g2, 3, &strict), 0);
		assert_int_equal(stats_summary_abs(g2, 3, &s), 0);
		assert_memory_equal(&s, &strict, sizeof(s));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_summary_real_g2),
		cmocka_unit_test(test_summary_single_value),
		cmocka_unit_test(test_summary_errors),
		cmocka_unit_test(test_summary_abs_zeros),
		cmocka_unit_test(test_ols_small),
		cmocka_unit_test(test_ols_errors),
		cmocka_unit_test(test_per_doubling_real_sweep),
		cmocka_unit_test(test_per_doubling_errors),
		cmocka_unit_test(test_mw_exact_tiny),
		cmocka_unit_test(test_mw_exact_7v8),
		cmocka_unit_test(test_mw_exact_normal_switch),
		cmocka_unit_test(test_mw_normal_ties),
		cmocka_unit_test(test_mw_all_tied),
		cmocka_unit_test(test_mw_errors),
		cmocka_unit_test(test_bootstrap_reproducible),
		cmocka_unit_test(test_bootstrap_clear_case),
		cmocka_unit_test(test_bootstrap_degenerate),
		cmocka_unit_test(test_runs_needed),
		cmocka_unit_test(test_welch_ln_capacity),
		cmocka_unit_test(test_welch_ln_core_and_affinity),
		cmocka_unit_test(test_welch_values_and_errors),
		cmocka_unit_test(test_paired_t),
		cmocka_unit_test(test_pool_inverse_variance),
		cmocka_unit_test(test_geometric_mean_and_pooled_sd),
		cmocka_unit_test(test_pairs_needed),
		cmocka_unit_test(test_summary_any_zeros),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
