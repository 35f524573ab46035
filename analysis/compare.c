/* compare: the comparison of two arms (compare.h); compare_run.c selects and designs. */
#include "compare.h"

#include "../common/err.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void compare_options_init(struct compare_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	verdict_options_init(&opts->v);
	opts->resamples = COMPARE_RESAMPLES;
	opts->seed = COMPARE_SEED;
}

/* Root mean square of sd/mean over the arms with at least 2 runs (and a mean other than 0). */
static double pooled_cv(const double *a, size_t na, const double *b, size_t nb)
{
	const double *x[2] = {a, b};
	size_t n[2] = {na, nb};
	double sum = 0.0;
	int arms = 0;
	for (int i = 0; i < 2; i++) {
		double mean, cv;
		if (n[i] < 2)
			continue;
		mean = gsl_stats_mean(x[i], 1, n[i]);
		if (mean == 0)
			continue;
		cv = gsl_stats_sd(x[i], 1, n[i]) / mean;
		sum += cv * cv;
		arms++;
	}
	return arms ? sqrt(sum / arms) : NAN;
}

/* The effect of the medians against each arm's spread and the bound (compare.h). */
static void effect_and_spreads(struct compare *c, const struct compare_options *opts)
{
	const struct verdict_options *o = &opts->v;
	c->diff = c->b.median - c->a.median;
	if (c->log_scale) {
		double ratio = c->ratio.ratio;
		c->observed_effect = (fmax(ratio, 1 / ratio) - 1) * 100;
		c->spread_a = c->a.spread_pct;
		c->spread_b = c->b.spread_pct;
	} else {
		c->observed_effect = fabs(c->diff);
		c->spread_a = c->a.max - c->a.min;
		c->spread_b = c->b.max - c->b.min;
	}
	c->effect_over_spread_a = c->spread_a > 0 ? c->observed_effect / c->spread_a : NAN;
	c->effect_over_spread_b = c->spread_b > 0 ? c->observed_effect / c->spread_b : NAN;
	c->separated = c->observed_effect > c->spread_a && c->observed_effect > c->spread_b;
	c->spread_over_bound_a = c->spread_over_bound_b = NAN;
	if (!o->has_effect_bound)
		return;
	if (c->log_scale) {
		c->spread_over_bound_a = c->a.spread_pct / o->effect_bound_pct;
		c->spread_over_bound_b = c->b.spread_pct / o->effect_bound_pct;
	} else if (c->a.median != 0) {
		double bound_abs = o->effect_bound_pct / 100 * fabs(c->a.median);
		c->spread_over_bound_a = c->spread_a / bound_abs;
		c->spread_over_bound_b = c->spread_b / bound_abs;
	}
}

int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out)
{
	struct verdict_options vo = opts->v;
	int rc;
	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	if (na == 0 || nb == 0)
		return err_set("arm %s has no runs (check --a, --b and --where)", na ? "b" : "a");
	if (!vo.name_a)
		vo.name_a = "arm a";
	if (!vo.name_b)
		vo.name_b = "arm b";
	if ((rc = verdict_two_samples(a, na, b, nb, &vo, &out->v)) < 0)
		return rc;
	out->a = out->v.a;
	out->b = out->v.b;
	out->log_scale = out->v.log_scale;
	if (out->log_scale) {
		rc = stats_bootstrap_median_ratio(a, na, b, nb, opts->resamples, opts->seed,
						  &out->ratio);
		if (rc)
			return rc;
	} else {
		out->ratio.ratio = NAN;
		out->ratio.resamples = opts->resamples;
		out->ratio.seed = opts->seed;
	}
	if (!out->log_scale || na < 2 || nb < 2)
		out->ratio.lo = out->ratio.hi = NAN; /* none, or a resample of one run: [x, x] */
	out->cv = pooled_cv(a, na, b, nb);
	effect_and_spreads(out, opts);
	return 0;
}

int compare_pairs(struct compare_pair *pairs, size_t n, bool log_scale,
		  const struct compare_options *opts, struct verdict *out)
{
	struct verdict_options vo = opts->v;
	double *a = NULL, *b = NULL;
	int rc = 0;
	if (n == 0)
		return err_set("no pairs to compare");
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	if (!a || !b) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		if (log_scale && !(pairs[i].a > 0 && pairs[i].b > 0)) {
			rc = err_set("the log scale needs values above 0 in both arms");
			goto done;
		}
		a[i] = pairs[i].a;
		b[i] = pairs[i].b;
		pairs[i].estimate = log_scale ? b[i] / a[i] : b[i] - a[i];
	}
	vo.scale = log_scale ? VERDICT_SCALE_LOG : VERDICT_SCALE_ABSOLUTE;
	rc = verdict_paired(a, b, n, &vo, out);
done:
	free(a);
	free(b);
	return rc;
}
