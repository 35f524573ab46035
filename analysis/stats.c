/* stats: see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "common/err.h"

static int check_finite(const double *x, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return err_set("%s must be finite, value %zu is %g", what, i + 1, x[i]);
	return 0;
}

/* A sorted private copy: GSL's order statistics want sorted data and the input is const. */
static int sorted_copy(const double *x, size_t n, double **out)
{
	double *copy = malloc(n * sizeof(*copy));
	if (!copy)
		return err_set("out of memory");
	memcpy(copy, x, n * sizeof(*copy));
	gsl_sort(copy, 1, n);
	*out = copy;
	return 0;
}

int stats_median(const double *x, size_t n, double *median)
{
	double *sorted = NULL;
	int ret;
	if (n < 1)
		return err_set("need at least 1 value for a median, got 0");
	if ((ret = check_finite(x, n, "values")) < 0)
		return ret;
	if ((ret = sorted_copy(x, n, &sorted)) < 0)
		return ret;
	*median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	free(sorted);
	return 0;
}

int stats_summary_abs(const double *x, size_t n, struct summary *out)
{
	double *sorted = NULL;
	struct summary s = {0};
	int ret;
	if (n < 1)
		return err_set("need at least 1 value for a summary, got 0");
	if ((ret = check_finite(x, n, "values")) < 0)
		goto done;
	if ((ret = sorted_copy(x, n, &sorted)) < 0)
		goto done;
	s.n = n;
	s.median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.mean = gsl_stats_mean(x, 1, n);
	s.range_abs = s.max - s.min;
	s.range_pct = s.median != 0 ? (s.max - s.min) / s.median * 100 : NAN;
	if (s.min == s.max)
		s.spread_pct = 0; /* also covers n == 1 */
	else
		s.spread_pct = s.min > 0 ? (s.max / s.min - 1) * 100 : NAN;
	*out = s;
	ret = 0;
done:
	free(sorted);
	return ret;
}

int stats_summary(const double *x, size_t n, struct summary *out)
{
	struct summary s;
	int ret = stats_summary_abs(x, n, &s);
	if (ret < 0)
		return ret;
	if (s.median == 0)
		return err_set("median is 0: range_pct undefined");
	if (isnan(s.spread_pct))
		return err_set("minimum is 0 or below: spread_pct undefined");
	*out = s;
	return 0;
}

int stats_ols(const double *x, const double *y, size_t n, struct ols *out)
{
	struct ols o = {0};
	double c0, c1, cov00, cov01, cov11, sumsq, t, ymean, sst = 0;
	bool x_varies = false;
	int ret, rc;
	if (n < 3)
		return err_set("need at least 3 points for a least-squares fit, got %zu", n);
	if ((ret = check_finite(x, n, "x values")) < 0 ||
	    (ret = check_finite(y, n, "y values")) < 0)
		return ret;
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			x_varies = true;
	if (!x_varies)
		return err_set("x values are all equal: slope undefined");
	rc = gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
	if (rc != GSL_SUCCESS)
		return err_set("least-squares fit failed: %s", gsl_strerror(rc));
	if (!isfinite(c0) || !isfinite(c1) || !isfinite(cov00) || !isfinite(cov11) ||
	    !isfinite(sumsq))
		return err_set("least-squares fit failed: non-finite result");
	ymean = gsl_stats_mean(y, 1, n);
	for (size_t i = 0; i < n; i++)
		sst += (y[i] - ymean) * (y[i] - ymean);
	t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 2));
	o.n = n;
	o.slope = c1;
	o.slope_se = sqrt(cov11);
	o.slope_lo = c1 - t * o.slope_se;
	o.slope_hi = c1 + t * o.slope_se;
	o.intercept = c0;
	o.intercept_se = sqrt(cov00);
	/* Constant y is fitted exactly (sumsq <= sst == 0): call that r2 = 1, not 0/0. */
	o.r2 = sst > 0 ? 1 - sumsq / sst : 1;
	o.residual_se = sqrt(sumsq / (double)(n - 2));
	o.cov00 = cov00;
	o.cov01 = cov01;
	o.cov11 = cov11;
	o.sumsq = sumsq;
	*out = o;
	return 0;
}

int stats_per_doubling(const double *level, const double *median, size_t n,
		       struct doubling_fit *out)
{
	double *lx = NULL, *ly = NULL;
	struct ols o;
	bool varies = false;
	int ret;
	if (n < 3)
		return err_set("need at least 3 levels for a per-doubling fit, got %zu", n);
	if ((ret = check_finite(level, n, "levels")) < 0 ||
	    (ret = check_finite(median, n, "medians")) < 0)
		return ret;
	for (size_t i = 0; i < n; i++) {
		if (level[i] <= 0)
			return err_set("levels must be positive, level %zu is %g", i + 1, level[i]);
		if (median[i] <= 0)
			return err_set("medians must be positive, median %zu is %g", i + 1,
				       median[i]);
		if (level[i] != level[0])
			varies = true;
	}
	if (!varies)
		return err_set("levels are all equal: per-doubling fit undefined");
	lx = malloc(n * sizeof(*lx));
	ly = malloc(n * sizeof(*ly));
	if (!lx || !ly) {
		ret = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		lx[i] = log2(level[i]);
		ly[i] = log(median[i]);
	}
	if ((ret = stats_ols(lx, ly, n, &o)) < 0)
		goto done;
	out->n = n;
	out->factor = exp(o.slope);
	out->factor_se = out->factor * o.slope_se;
	out->r2 = o.r2;
	out->slope = o.slope;
	out->slope_se = o.slope_se;
	out->df = (double)(n - 2);
	{
		double q = gsl_cdf_tdist_Pinv(0.975, out->df);
		out->lo = exp(o.slope - q * o.slope_se);
		out->hi = exp(o.slope + q * o.slope_se);
	}
	if (!isfinite(out->factor) || !isfinite(out->factor_se)) {
		ret = err_set("per-doubling fit failed: non-finite factor");
		goto done;
	}
	ret = 0;
done:
	free(lx);
	free(ly);
	return ret;
}

/*
 * Null distribution of U_a without ties: f(i, j, u) arrangements of i a's
 * and j b's with U_a = u satisfy f(i, j, u) = f(i - 1, j, u - j) +
 * f(i, j - 1, u) (the largest value is an a, above all j b's, or a b).
 * Row i of `f` holds f(i, j, .) for the current j, updated in place as j
 * grows. Counts stay below C(40, 20) < 2^53, exact in a double.
 */
static int mw_exact_p(size_t na, size_t nb, double u, double *p)
{
	size_t width = na * nb + 1, k = (size_t)u;
	double *f = calloc((na + 1) * width, sizeof(*f));
	double total = 0, lower = 0, upper = 0;
	if (!f)
		return err_set("out of memory");
	for (size_t i = 0; i <= na; i++)
		f[i * width] = 1;
	for (size_t j = 1; j <= nb; j++)
		for (size_t i = 1; i <= na; i++)
			for (size_t v = j; v <= i * j; v++)
				f[i * width + v] += f[(i - 1) * width + v - j];
	for (size_t v = 0; v < width; v++) {
		double c = f[na * width + v];
		total += c;
		if (v <= k)
			lower += c;
		if (v >= k)
			upper += c;
	}
	free(f);
	*p = fmin(1, 2 * fmin(lower, upper) / total);
	return 0;
}

/* Two-sided normal p of U with continuity correction 0.5; var 0 (all tied) gives 1. */
static double mw_normal_p(double u, double mu, double var)
{
	double z;
	if (var <= 0)
		return 1;
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z <= 0)
		return 1;
	return fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct mann_whitney *out)
{
	size_t n = na + nb;
	double *all = NULL;
	size_t *perm = NULL;
	double rank_a = 0, tie_sum = 0, u, mu, var, dn;
	bool ties = false;
	int ret;
	if (na < 1 || nb < 1)
		return err_set("need at least 1 value in each sample, got %zu and %zu", na, nb);
	if ((ret = check_finite(a, na, "values")) < 0 || (ret = check_finite(b, nb, "values")) < 0)
		return ret;
	all = malloc(n * sizeof(*all));
	perm = malloc(n * sizeof(*perm));
	if (!all || !perm) {
		ret = err_set("out of memory");
		goto done;
	}
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	gsl_sort_index(perm, all, 1, n);
	/* Mid-ranks: t equal values at sorted positions i..i+t-1 all get i + (t + 1) / 2. */
	for (size_t i = 0; i < n;) {
		size_t end = i + 1;
		double t, mid;
		while (end < n && all[perm[end]] == all[perm[i]])
			end++;
		t = (double)(end - i);
		mid = (double)i + (t + 1) / 2;
		if (t > 1) {
			ties = true;
			tie_sum += t * t * t - t;
		}
		for (size_t k = i; k < end; k++)
			if (perm[k] < na)
				rank_a += mid;
		i = end;
	}
	dn = (double)n;
	u = rank_a - (double)na * ((double)na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 * ((dn + 1) - tie_sum / (dn * (dn - 1)));
	out->u = u;
	out->ties = ties;
	out->exact = !ties && n <= MW_EXACT_MAX;
	if (out->exact) {
		if ((ret = mw_exact_p(na, nb, u, &out->p)) < 0)
			goto done;
	} else {
		out->p = mw_normal_p(u, mu, var);
	}
	/*
	 * min_p depends on the sample sizes only, so it is what the method
	 * would give for the most extreme untied outcome (U = 0).
	 */
	if (n <= MW_EXACT_MAX)
		out->min_p = fmin(1, 2 / gsl_sf_choose((unsigned)n, (unsigned)na));
	else
		out->min_p = mw_normal_p(0, mu, (double)na * (double)nb / 12 * (dn + 1));
	ret = 0;
done:
	free(all);
	free(perm);
	return ret;
}

/*
 * One bootstrap arm. Resampling draws indices into the sorted data with
 * gsl_ran_sample (the same draws as sampling the values), so a counting
 * pass over the indices yields the resample already sorted: O(n) per
 * resample instead of a heapsort, which was most of the run time.
 */
struct arm {
	const double *sorted;
	size_t n;
	size_t *index; /* 0 .. n-1, the population gsl_ran_sample draws from */
	size_t *draw;
	size_t *count;
	double *resample;
};

static int arm_init(struct arm *arm, const double *sorted, size_t n)
{
	arm->sorted = sorted;
	arm->n = n;
	arm->index = malloc(n * sizeof(*arm->index));
	arm->draw = malloc(n * sizeof(*arm->draw));
	arm->count = malloc(n * sizeof(*arm->count));
	arm->resample = malloc(n * sizeof(*arm->resample));
	if (!arm->index || !arm->draw || !arm->count || !arm->resample)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		arm->index[i] = i;
	return 0;
}

static void arm_release(struct arm *arm)
{
	free(arm->index);
	free(arm->draw);
	free(arm->count);
	free(arm->resample);
}

static double arm_resample_median(struct arm *arm, gsl_rng *rng)
{
	size_t k = 0;
	gsl_ran_sample(rng, arm->draw, arm->n, arm->index, arm->n, sizeof(*arm->draw));
	memset(arm->count, 0, arm->n * sizeof(*arm->count));
	for (size_t i = 0; i < arm->n; i++)
		arm->count[arm->draw[i]]++;
	for (size_t i = 0; i < arm->n; i++)
		for (size_t c = 0; c < arm->count[i]; c++)
			arm->resample[k++] = arm->sorted[i];
	return gsl_stats_median_from_sorted_data(arm->resample, 1, arm->n);
}

int stats_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
				 size_t resamples, uint64_t seed, struct ratio_ci *out)
{
	double *sa = NULL, *sb = NULL, *ratios = NULL;
	struct arm arm_a = {0}, arm_b = {0};
	gsl_rng *rng = NULL;
	double ma, mb;
	int ret;
	if (na < 1 || nb < 1)
		return err_set("need at least 1 value in each arm for a bootstrap, got %zu and %zu",
			       na, nb);
	if (resamples < 1)
		return err_set("need at least 1 resample for a bootstrap, got 0");
	if ((ret = check_finite(a, na, "values")) < 0 || (ret = check_finite(b, nb, "values")) < 0)
		return ret;
	if ((ret = sorted_copy(a, na, &sa)) < 0 || (ret = sorted_copy(b, nb, &sb)) < 0)
		goto done;
	ma = gsl_stats_median_from_sorted_data(sa, 1, na);
	mb = gsl_stats_median_from_sorted_data(sb, 1, nb);
	if (ma == 0) {
		ret = err_set("median of the first arm is 0: ratio undefined");
		goto done;
	}
	if ((ret = arm_init(&arm_a, sa, na)) < 0 || (ret = arm_init(&arm_b, sb, nb)) < 0)
		goto done;
	ratios = malloc(resamples * sizeof(*ratios));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!ratios || !rng) {
		ret = err_set("out of memory");
		goto done;
	}
	/* GSL's MT19937 uses the low 32 bits of the seed and maps 0 to 4357. */
	gsl_rng_set(rng, (unsigned long)seed);
	for (size_t r = 0; r < resamples; r++) {
		double rma = arm_resample_median(&arm_a, rng);
		double rmb = arm_resample_median(&arm_b, rng);
		if (rma == 0) {
			ret = err_set("a resample of the first arm has median 0: ratio undefined");
			goto done;
		}
		ratios[r] = rmb / rma;
	}
	gsl_sort(ratios, 1, resamples);
	out->ratio = mb / ma;
	out->lo = gsl_stats_quantile_from_sorted_data(ratios, 1, resamples, 0.025);
	out->hi = gsl_stats_quantile_from_sorted_data(ratios, 1, resamples, 0.975);
	out->resamples = resamples;
	out->seed = seed;
	ret = 0;
done:
	gsl_rng_free(rng);
	arm_release(&arm_a);
	arm_release(&arm_b);
	free(sa);
	free(sb);
	free(ratios);
	return ret;
}

/*
 * ceil(factor * (z_{1-alpha/2} + z_{power})^2 * (sd / effect)^2); `what`
 * names sd in messages ("cv", "sd").
 */
static int needed(const char *what, double sd, double effect, double alpha, double power,
		  double factor, double *n)
{
	double z, k, value;
	if (!isfinite(sd) || sd <= 0)
		return err_set("%s must be a positive number, got %g", what, sd);
	if (!isfinite(effect) || effect <= 0)
		return err_set("effect must be a positive number, got %g", effect);
	if (!(alpha > 0 && alpha < 1))
		return err_set("alpha must be between 0 and 1, got %g", alpha);
	if (!(power > 0 && power < 1))
		return err_set("power must be between 0 and 1, got %g", power);
	z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
	k = sd / effect;
	value = ceil(factor * z * z * k * k);
	if (!isfinite(value))
		return err_set("runs needed is not finite (%s %g, effect %g)", what, sd, effect);
	*n = value;
	return 0;
}

int stats_runs_needed(double cv, double effect, double alpha, double power, double *n)
{
	return needed("cv", cv, effect, alpha, power, 2, n);
}

/* ---- A/B at small n ---- */

/* The p and interval of a t estimate whose diff, se and df are set. */
static int t_finish(struct t_test *t, double conf)
{
	double q;
	if (!(conf > 0 && conf < 1))
		return err_set("confidence level must be between 0 and 1, got %g", conf);
	if (!(t->se > 0) || !isfinite(t->se))
		return err_set("no variation within the samples: t undefined");
	if (!(t->df > 0) || !isfinite(t->df))
		return err_set("degrees of freedom must be positive, got %g", t->df);
	t->t = t->diff / t->se;
	t->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(t->t), t->df));
	q = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, t->df);
	t->lo = t->diff - q * t->se;
	t->hi = t->diff + q * t->se;
	t->conf = conf;
	if (!isfinite(t->t) || !isfinite(t->p) || !isfinite(t->lo) || !isfinite(t->hi))
		return err_set("t test failed: non-finite result");
	return 0;
}

int stats_t_estimate(double diff, double se, double df, double conf, struct t_test *out)
{
	struct t_test t = {0};
	int ret;
	if (!isfinite(diff))
		return err_set("the estimate must be finite, got %g", diff);
	t.diff = diff;
	t.se = se;
	t.df = df;
	if ((ret = t_finish(&t, conf)) < 0)
		return ret;
	*out = t;
	return 0;
}

/* ln of every value into a new array; every value must be > 0. */
static int ln_copy(const double *x, size_t n, double **out)
{
	double *y;
	int ret;
	*out = NULL;
	if ((ret = check_finite(x, n, "values")) < 0)
		return ret;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return err_set("values must be positive for logarithms, value %zu is %g",
				       i + 1, x[i]);
	if (!(y = malloc((n ? n : 1) * sizeof(*y))))
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		y[i] = log(x[i]);
	*out = y;
	return 0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, double conf,
		struct t_test *out)
{
	struct t_test t = {0};
	double va, vb, qa, qb;
	int ret;
	if (na < 2 || nb < 2)
		return err_set(
			"need at least 2 values in each sample for a t test, got %zu and %zu", na,
			nb);
	if ((ret = check_finite(a, na, "values")) < 0 || (ret = check_finite(b, nb, "values")) < 0)
		return ret;
	va = gsl_stats_variance(a, 1, na);
	vb = gsl_stats_variance(b, 1, nb);
	qa = va / (double)na;
	qb = vb / (double)nb;
	t.n_a = na;
	t.n_b = nb;
	t.diff = gsl_stats_mean(b, 1, nb) - gsl_stats_mean(a, 1, na);
	t.se = sqrt(qa + qb);
	t.df = (qa + qb) * (qa + qb) / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	if ((ret = t_finish(&t, conf)) < 0)
		return ret;
	*out = t;
	return 0;
}

int stats_welch_ln(const double *a, size_t na, const double *b, size_t nb, double conf,
		   struct t_test *out)
{
	double *la = NULL, *lb = NULL;
	int ret;
	if ((ret = ln_copy(a, na, &la)) == 0 && (ret = ln_copy(b, nb, &lb)) == 0)
		ret = stats_welch(la, na, lb, nb, conf, out);
	free(la);
	free(lb);
	return ret;
}

int stats_paired_t(const double *a, const double *b, size_t n, double conf, struct t_test *out)
{
	struct t_test t = {0};
	double *d = NULL;
	int ret;
	if (n < 2)
		return err_set("need at least 2 pairs for a paired t test, got %zu", n);
	if ((ret = check_finite(a, n, "values")) < 0 || (ret = check_finite(b, n, "values")) < 0)
		return ret;
	if (!(d = malloc(n * sizeof(*d))))
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	t.n_a = t.n_b = n;
	t.diff = gsl_stats_mean(d, 1, n);
	t.se = gsl_stats_sd(d, 1, n) / sqrt((double)n);
	t.df = (double)(n - 1);
	free(d);
	if ((ret = t_finish(&t, conf)) < 0)
		return ret;
	*out = t;
	return 0;
}

int stats_paired_t_ln(const double *a, const double *b, size_t n, double conf, struct t_test *out)
{
	double *la = NULL, *lb = NULL;
	int ret;
	if ((ret = ln_copy(a, n, &la)) == 0 && (ret = ln_copy(b, n, &lb)) == 0)
		ret = stats_paired_t(la, lb, n, conf, out);
	free(la);
	free(lb);
	return ret;
}

int stats_pool_inverse_variance(const double *est, const double *se, const double *df, size_t k,
				double conf, struct t_test *out)
{
	struct t_test t = {0};
	double sw = 0, swe = 0, sw2df = 0;
	int ret;
	if (k < 1)
		return err_set("need at least 1 estimate to pool, got 0");
	if ((ret = check_finite(est, k, "estimates")) < 0 ||
	    (ret = check_finite(se, k, "standard errors")) < 0 ||
	    (ret = check_finite(df, k, "degrees of freedom")) < 0)
		return ret;
	for (size_t i = 0; i < k; i++) {
		double w;
		if (!(se[i] > 0))
			return err_set("standard errors must be positive, estimate %zu has %g",
				       i + 1, se[i]);
		if (!(df[i] > 0))
			return err_set("degrees of freedom must be positive, estimate %zu has %g",
				       i + 1, df[i]);
		w = 1 / (se[i] * se[i]);
		sw += w;
		swe += w * est[i];
		sw2df += w * w / df[i];
	}
	t.n_a = t.n_b = k;
	t.diff = swe / sw;
	t.se = 1 / sqrt(sw);
	t.df = sw * sw / sw2df;
	if ((ret = t_finish(&t, conf)) < 0)
		return ret;
	*out = t;
	return 0;
}

int stats_geometric_mean(const double *x, size_t n, double *gm)
{
	double *l = NULL;
	int ret;
	if (n < 1)
		return err_set("need at least 1 value for a geometric mean, got 0");
	if ((ret = ln_copy(x, n, &l)) < 0)
		return ret;
	*gm = exp(gsl_stats_mean(l, 1, n));
	free(l);
	return 0;
}

int stats_pooled_sd(const double *const *x, const size_t *n, size_t k, bool ln, double *sd)
{
	double ss = 0, dof = 0;
	int ret = 0;
	for (size_t i = 0; i < k && ret == 0; i++) {
		double *l = NULL;
		const double *v = x[i];
		if (n[i] < 2)
			continue;
		if ((ret = check_finite(x[i], n[i], "values")) < 0)
			break;
		if (ln) {
			if ((ret = ln_copy(x[i], n[i], &l)) < 0)
				break;
			v = l;
		}
		ss += gsl_stats_variance(v, 1, n[i]) * (double)(n[i] - 1);
		dof += (double)(n[i] - 1);
		free(l);
	}
	if (ret < 0)
		return ret;
	if (dof == 0)
		return err_set(
			"need a sample with at least 2 values for a pooled standard deviation");
	*sd = sqrt(ss / dof);
	return 0;
}

int stats_pairs_needed(double sd, double effect, double alpha, double power, double *n)
{
	return needed("sd", sd, effect, alpha, power, 1, n);
}
