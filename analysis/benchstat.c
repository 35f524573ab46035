/* benchstat: benchstat's median interval and U test (benchstat.h). */
#include "benchstat.h"

#include "../common/err.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int check(const double *x, size_t n, const char *what)
{
	if (n < 1)
		return err_set("benchstat: %s: need at least 1 value", what);
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return err_set("benchstat: %s: value %zu is not finite", what, i + 1);
	return 0;
}

static double pmf(long k, size_t n)
{
	if (k < 0 || (size_t)k > n)
		return 0;
	return gsl_ran_binomial_pdf((unsigned)k, 0.5, (unsigned)n);
}

/* The order statistics [l, r) bounding the median's interval (benchstat.h). */
static void median_orders(size_t n, double confidence, long *lo, long *hi, double *coverage)
{
	long l, r;
	if (n <= 30) {
		long x = (long)ceil((double)(n + 1) * 0.5) - 1;
		double accum = pmf(x, n), lp, rp;
		l = x;
		r = x + 1;
		lp = pmf(l - 1, n);
		rp = pmf(r, n);
		while (accum < confidence && (lp > 0 || rp > 0)) {
			if (lp >= rp) { /* left-biased */
				accum += lp;
				l--;
				lp = pmf(l - 1, n);
			} else {
				accum += rp;
				r++;
				rp = pmf(r, n);
			}
		}
		*coverage = accum;
	} else {
		double mu = (double)n * 0.5, sigma = sqrt((double)n * 0.25);
		double l1 = mu + sigma * gsl_cdf_ugaussian_Pinv((1 - confidence) / 2);
		double r1 = 2 * mu - l1, cov, biased;
		l = (long)floor(floor(l1 - 0.5) + 0.5) + 1;
		r = (long)floor(ceil(r1 - 0.5) + 0.5) + 1;
		cov = gsl_cdf_gaussian_P((double)r - 0.5 - mu, sigma) -
		      gsl_cdf_gaussian_P((double)l - 0.5 - mu, sigma);
		biased = gsl_cdf_gaussian_P((double)(r - 1) - 0.5 - mu, sigma) -
			 gsl_cdf_gaussian_P((double)l - 0.5 - mu, sigma);
		if (biased >= confidence && biased < cov) {
			cov = biased;
			r--;
		}
		if (l <= 0 && r >= (long)n + 1)
			cov = 1;
		*coverage = cov;
	}
	*lo = l < 0 ? 0 : l;
	*hi = r > (long)n + 1 ? (long)n + 1 : r;
}

static int sign_of(double x)
{
	return x > 0 ? 1 : x < 0 ? -1 : 0;
}

int benchstat_summary(const double *x, size_t n, double confidence, struct benchstat_summary *out)
{
	double *s;
	long l, r;
	int rc = check(x, n, "sample");
	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	if (!(confidence > 0 && confidence < 1))
		return err_set("benchstat: confidence %g is not between 0 and 1", confidence);
	s = malloc(n * sizeof(*s));
	if (!s)
		return err_set("out of memory");
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	out->n = n;
	out->median = (s[(n - 1) / 2] + s[n / 2]) / 2;
	median_orders(n, confidence, &l, &r, &out->confidence);
	out->lo = l < 1 ? -INFINITY : s[l - 1];
	out->hi = r - 1 >= (long)n ? INFINITY : s[r - 1];
	if (isinf(out->lo) || isinf(out->hi) || sign_of(out->lo) != sign_of(out->median) ||
	    sign_of(out->hi) != sign_of(out->median))
		out->ci_pct = NAN;
	else if (out->median == 0)
		out->ci_pct = 0;
	else
		out->ci_pct = 100 * fmax(out->hi / out->median - 1, 1 - out->lo / out->median);
	free(s);
	return 0;
}

struct tagged {
	double v;
	int arm; /* 0: a, 1: b */
};

static int compare_tagged(const void *x, const void *y)
{
	double a = ((const struct tagged *)x)->v, b = ((const struct tagged *)y)->v;
	return a < b ? -1 : a > b;
}

/*
 * P(U_a <= umin2 / 2) under the null, conditional on the ties: count the
 * subsets of na of the N doubled mid-ranks by their sum (a table of
 * (na + 1) x (sum + 1) counts, as doubles: C(100, 50) ~ 1e29 fits).
 */
static int exact_cdf(const long *rank2, size_t n, size_t na, long umin2, double *out)
{
	double *cnt, all = 0, le = 0;
	size_t width, *before = malloc((n + 1) * sizeof(*before));
	if (!before)
		return err_set("out of memory");
	before[0] = 0; /* before[i]: the sum of rank2[0..i) */
	for (size_t i = 0; i < n; i++)
		before[i + 1] = before[i] + (size_t)rank2[i];
	width = before[n] + 1;
	cnt = calloc((na + 1) * width, sizeof(*cnt));
	if (!cnt) {
		free(before);
		return err_set("out of memory");
	}
	cnt[0] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t top = i + 1 < na ? i + 1 : na, r = (size_t)rank2[i];
		for (size_t k = top; k >= 1; k--) {
			double *to = cnt + k * width, *from = cnt + (k - 1) * width;
			/*
			 * k - 1 of the first i ranks (ascending: the caller's sorted
			 * order) sum to at least the k - 1 smallest, at most the k - 1
			 * largest: the other cells of `from` hold 0, and adding 0 to
			 * a count changes nothing, so they are skipped.
			 */
			size_t lo = before[k - 1] + r, hi = before[i] - before[i - (k - 1)] + r;
			for (size_t s = lo; s <= hi; s++)
				to[s] += from[s - r];
		}
	}
	free(before);
	for (size_t s = 0; s < width; s++) {
		double c = cnt[na * width + s];
		long u2 = (long)s - (long)(na * (na + 1));
		all += c;
		if (c > 0 && u2 <= umin2)
			le += c;
	}
	free(cnt);
	*out = all > 0 ? le / all : 1;
	return 0;
}

/* Which samples get the exact distribution: benchstat's rule or SciPy's (method "auto"). */
enum exact_rule { RULE_BENCHSTAT, RULE_SCIPY };

static int utest(const double *a, size_t na, const double *b, size_t nb, enum exact_rule rule,
		 struct benchstat_utest *out)
{
	size_t n = na + nb, groups = 0;
	struct tagged *all = NULL;
	long *rank2 = NULL, r2a = 0, u2a, u2b;
	double tie_sum = 0;
	int rc = check(a, na, "sample a");
	memset(out, 0, sizeof(*out));
	if (rc == 0)
		rc = check(b, nb, "sample b");
	if (rc)
		return rc;
	all = malloc(n * sizeof(*all));
	rank2 = malloc(n * sizeof(*rank2));
	if (!all || !rank2) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		all[i].v = i < na ? a[i] : b[i - na];
		all[i].arm = i < na ? 0 : 1;
	}
	qsort(all, n, sizeof(*all), compare_tagged);
	/* doubled mid-ranks: values at sorted positions i..j-1 rank (i + 1 + j) / 2 */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && all[j].v == all[i].v)
			j++;
		for (size_t k = i; k < j; k++) {
			rank2[k] = (long)(i + 1 + j);
			if (all[k].arm == 0)
				r2a += rank2[k];
		}
		if (j - i > 1) {
			double t = (double)(j - i);
			out->ties = true;
			tie_sum += t * t * t - t;
		}
		groups++;
		i = j;
	}
	u2a = r2a - (long)(na * (na + 1));
	u2b = 2 * (long)(na * nb) - u2a;
	out->u = (double)u2a / 2;
	if (groups == 1) { /* all values equal: no test, no difference */
		out->p = 1;
		goto done;
	}
	if (rule == RULE_SCIPY) /* scipy.stats.mannwhitneyu: exact without ties when n <= 8 */
		out->exact = !out->ties && (na <= 8 || nb <= 8);
	else
		out->exact =
			out->ties ? na <= BENCHSTAT_TIES_EXACT_MAX && nb <= BENCHSTAT_TIES_EXACT_MAX
				  : na <= BENCHSTAT_EXACT_MAX && nb <= BENCHSTAT_EXACT_MAX;
	if (out->exact) {
		double cdf = 1;
		if (u2a == u2b) {
			out->p = 1;
			goto done;
		}
		rc = exact_cdf(rank2, n, na, u2a < u2b ? u2a : u2b, &cdf);
		out->p = fmin(1, 2 * cdf);
	} else {
		double dn = (double)n, mu = (double)na * (double)nb / 2;
		double sigma =
			sqrt((double)na * (double)nb * ((dn + 1) - tie_sum / (dn * (dn - 1))) / 12);
		double numer = out->u - mu, z;
		numer -= sign_of(numer) * 0.5;
		z = numer / sigma;
		out->p = 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
	}
done:
	free(all);
	free(rank2);
	return rc;
}

int benchstat_utest(const double *a, size_t na, const double *b, size_t nb,
		    struct benchstat_utest *out)
{
	return utest(a, na, b, nb, RULE_BENCHSTAT, out);
}

int benchstat_utest_scipy(const double *a, size_t na, const double *b, size_t nb,
			  struct benchstat_utest *out)
{
	return utest(a, na, b, nb, RULE_SCIPY, out);
}

int benchstat_compare(const double *a, size_t na, const double *b, size_t nb,
		      struct benchstat_row *out)
{
	int rc;
	memset(out, 0, sizeof(*out));
	rc = benchstat_summary(a, na, BENCHSTAT_CONFIDENCE, &out->a);
	if (rc == 0)
		rc = benchstat_summary(b, nb, BENCHSTAT_CONFIDENCE, &out->b);
	if (rc == 0)
		rc = benchstat_utest(a, na, b, nb, &out->test);
	if (rc)
		return rc;
	out->delta_pct = out->a.median != 0 ? (out->b.median / out->a.median - 1) * 100 : NAN;
	out->significant = out->test.p <= BENCHSTAT_ALPHA;
	return 0;
}

size_t benchstat_ci_samples(double confidence)
{
	/* benchmath's medianSamples: the first n with both order statistics inside the sample */
	for (size_t n = 2; n <= 50; n++) {
		long l, r;
		double coverage;
		median_orders(n, confidence, &l, &r, &coverage);
		if (l >= 1 && r <= (long)n)
			return n;
	}
	return 0;
}

size_t benchstat_utest_samples(double alpha)
{
	/* the smallest p of two samples of n is 2 / C(2n, n) (one arm wholly above the other) */
	double choose = 1;
	for (size_t n = 1; n <= 9; n++) {
		choose = choose * (double)(2 * n) * (double)(2 * n - 1) / ((double)n * (double)n);
		if (2 / choose <= alpha)
			return n;
	}
	return 0;
}

double benchstat_geomean(const double *x, size_t n)
{
	double m = 0;
	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		m += (log(x[i]) - m) / (double)(i + 1);
	}
	return exp(m);
}
