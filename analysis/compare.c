/* compare: see compare.h. */
#include "compare.h"

#include "../common/err.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The fewest runs per arm (equal arms) with which the exact rank test can
 * reach alpha at all: the smallest k with 2 / C(2k, k) <= alpha.
 */
static double rank_test_floor(double alpha)
{
	double k = 1.0, choose = 2.0; /* C(2, 1) */
	while (2.0 / choose > alpha && k < 1000) {
		/* C(2k+2, k+1) = C(2k, k) (2k+1)(2k+2) / (k+1)^2 */
		choose *= (2 * k + 1) * (2 * k + 2) / ((k + 1) * (k + 1));
		k++;
	}
	return k;
}

void compare_options_init(struct compare_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->alpha = COMPARE_ALPHA;
	opts->power = COMPARE_POWER;
	opts->resamples = COMPARE_RESAMPLES;
	opts->seed = COMPARE_SEED;
	opts->scale = COMPARE_SCALE_AUTO;
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

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

/* Append to a fixed buffer (truncating). */
static void appendf(char *buf, size_t size, const char *fmt, ...) ERR_PRINTF(3, 4);
static void appendf(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static void outcome_init(struct compare_outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->test = "";
	o->estimate = o->lo = o->hi = o->observed = NAN;
	o->effect_pct = o->delta = o->sd = o->runs_needed = NAN;
	o->t.diff = o->t.se = o->t.df = o->t.t = o->t.p = o->t.lo = o->t.hi = NAN;
	o->verdict = "unresolvable";
	o->method = "none";
}

/* The t test into the outcome: the estimate and its interval on the outcome's scale. */
static void outcome_set_t(struct compare_outcome *o, const struct t_test *t, bool log_scale)
{
	o->has_t = true;
	o->t = *t;
	o->estimate = log_scale ? exp(t->diff) : t->diff;
	o->lo = log_scale ? exp(t->lo) : t->lo;
	o->hi = log_scale ? exp(t->hi) : t->hi;
}

/*
 * The effect runs_needed resolves: the bound when given, else the observed
 * effect (log: in %; absolute: in metric units). ref: |the baseline's
 * median|, which a bound in % is a share of on the absolute scale.
 */
static void outcome_effect(struct compare_outcome *o, const struct compare_options *opts,
			   bool log_scale, double observed, double ref)
{
	if (log_scale) {
		o->effect_pct = opts->has_effect_bound ? opts->effect_bound_pct : observed;
		o->delta = log1p(o->effect_pct / 100);
	} else if (opts->has_effect_bound) {
		o->effect_pct = opts->effect_bound_pct;
		o->delta = ref > 0 ? opts->effect_bound_pct / 100 * ref : NAN;
	} else {
		o->effect_pct = ref > 0 ? observed / ref * 100 : NAN;
		o->delta = observed;
	}
}

/*
 * runs_needed from o->sd and o->delta: two-sample (split: per arm in each
 * of `split` levels) or paired; never below COMPARE_MIN_RUNS; NaN when sd
 * or delta is not a positive number.
 */
static void outcome_runs_needed(struct compare_outcome *o, const struct compare_options *opts,
				bool paired, double split)
{
	double n;
	int rc;
	o->runs_needed = NAN;
	if (!(o->sd > 0) || !isfinite(o->sd) || !(o->delta > 0) || !isfinite(o->delta))
		return;
	rc = paired ? stats_pairs_needed(o->sd, o->delta, opts->alpha, opts->power, &n)
		    : stats_runs_needed(o->sd, o->delta, opts->alpha, opts->power, &n);
	if (rc != 0)
		return;
	if (split > 1)
		n = ceil(n / split);
	o->runs_needed = fmax(n, COMPARE_MIN_RUNS);
}

/* What the design adds to the verdict rule. */
struct rule {
	bool log_scale;
	double bound_abs;   /* absolute scale: the bound in metric units (NaN: unknown) */
	const char *test;   /* "Welch t on ln values", ... */
	const char *no_t;   /* why there is no t test (when !o->has_t) */
	bool confirmed;     /* the design's confirmation holds */
	const char *method; /* the method word when confirmed */
	char confirm[384];  /* the confirmation, or why it does not hold (a clause) */
	char context[384];  /* effect against spread, spread against bound (unresolvable) */
	const char *needed; /* "runs needed per arm", "pairs needed", ... */
};

static bool inside_bound(const struct compare_outcome *o, const struct compare_options *opts,
			 const struct rule *r)
{
	if (!opts->has_effect_bound || !o->has_t)
		return false;
	if (r->log_scale)
		return o->lo >= 1 - opts->effect_bound_pct / 100 &&
		       o->hi <= 1 + opts->effect_bound_pct / 100;
	return isfinite(r->bound_abs) && o->lo >= -r->bound_abs && o->hi <= r->bound_abs;
}

/* The verdict rule of compare.h, the same for every design. */
static void decide(struct compare_outcome *o, const struct compare_options *opts,
		   const struct rule *r)
{
	char *why = o->reason;
	size_t size = sizeof(o->reason);
	const char *unit = r->log_scale ? "x" : "";
	why[0] = '\0';
	if (o->has_t && o->t.p < opts->alpha && r->confirmed) {
		o->verdict = (o->t.diff > 0) != opts->lower_is_better ? "faster" : "slower";
		o->method = r->method;
		appendf(why, size, "%s: p = %.3g < alpha %.3g (t = %.4g, df = %.3g); %s", r->test,
			o->t.p, opts->alpha, o->t.t, o->t.df, r->confirm);
		return;
	}
	if (inside_bound(o, opts, r)) {
		o->verdict = "no-difference";
		o->method = "equivalence";
		if (r->log_scale)
			appendf(why, size,
				"%s: the %g%% interval of the ratio [%.4g, %.4g] lies inside 1 -+ "
				"%.3g%% (the effect bound): an effect that large is ruled out "
				"(p = %.3g)",
				r->test, COMPARE_CI_PCT, o->lo, o->hi, opts->effect_bound_pct,
				o->t.p);
		else
			appendf(why, size,
				"%s: the %g%% interval of the difference [%.4g, %.4g] lies inside "
				"-+ %.4g (the effect bound %.3g%% of a's median): an effect that "
				"large is ruled out (p = %.3g)",
				r->test, COMPARE_CI_PCT, o->lo, o->hi, r->bound_abs,
				opts->effect_bound_pct, o->t.p);
		return;
	}
	o->verdict = "unresolvable";
	o->method = "none";
	if (!o->has_t)
		appendf(why, size, "%s", r->no_t);
	else if (o->t.p >= opts->alpha)
		appendf(why, size, "%s: p = %.3g >= alpha %.3g", r->test, o->t.p, opts->alpha);
	else
		appendf(why, size, "%s: p = %.3g < alpha %.3g, but %s", r->test, o->t.p,
			opts->alpha, r->confirm);
	if (r->context[0])
		appendf(why, size, "; %s", r->context);
	if (opts->has_effect_bound && o->has_t)
		appendf(why, size, "; the %g%% interval [%.4g, %.4g]%s is not inside %s-+ %.3g%%",
			COMPARE_CI_PCT, o->lo, o->hi, unit, r->log_scale ? "1 " : "",
			opts->effect_bound_pct);
	if (!isnan(o->runs_needed))
		appendf(why, size, "; %s to resolve a %.3g%% effect: %.0f", r->needed,
			o->effect_pct, o->runs_needed);
	else if (isnan(o->sd))
		appendf(why, size, "; %s: not computable (no within-arm spread)", r->needed);
	else if (!(o->delta > 0))
		appendf(why, size,
			"; %s: not computable (no effect to size it for: give --effect-bound)",
			r->needed);
	else
		appendf(why, size, "; %s: not computable (no variation within the arms)",
			r->needed);
}

/* The scale of a comparison of these values. */
static int choose_scale(const double *a, size_t na, const double *b, size_t nb,
			enum compare_scale scale, bool *log_scale)
{
	bool positive = all_positive(a, na) && all_positive(b, nb);
	if (scale == COMPARE_SCALE_LOG && !positive)
		return err_set("the log scale needs values above 0 in both arms");
	*log_scale = scale == COMPARE_SCALE_AUTO ? positive : scale == COMPARE_SCALE_LOG;
	return 0;
}

/* The unpaired rule's confirmation and context (compare.h). */
static void unpaired_rule(const struct compare *c, struct rule *r)
{
	const struct compare_options *o = &c->opts;
	const char *u = c->log_scale ? "%" : "";
	bool same_way = (c->diff > 0) == (c->o.t.diff > 0) && c->diff != 0;
	r->confirmed = false;
	if (!same_way) {
		snprintf(r->confirm, sizeof(r->confirm),
			 "the medians (difference %.4g) do not move the way the means do", c->diff);
	} else if (c->separated) {
		r->confirmed = true;
		r->method = "welch+separation";
		snprintf(r->confirm, sizeof(r->confirm),
			 "separation: the effect %.3g%s exceeds both arms' within-arm spread (a "
			 "%.3g%s, b %.3g%s)",
			 c->observed_effect, u, c->spread_a, u, c->spread_b, u);
	} else if (c->test.p < o->alpha) {
		r->confirmed = true;
		r->method = "welch+rank";
		snprintf(r->confirm, sizeof(r->confirm),
			 "the rank test agrees: Mann-Whitney p = %.3g < alpha %.3g", c->test.p,
			 o->alpha);
	} else {
		snprintf(
			r->confirm, sizeof(r->confirm),
			"the effect %.3g%s does not exceed both arms' within-arm spread (a %.3g%s, "
			"b %.3g%s) and the rank test gives p = %.3g%s",
			c->observed_effect, u, c->spread_a, u, c->spread_b, u, c->test.p,
			c->test.min_p > o->alpha ? " (these sizes cannot reach alpha)" : "");
	}
	r->context[0] = '\0';
	/* effect against spread, unless the confirmation clause already says it */
	if (c->a.n >= 2 && c->b.n >= 2 && (!c->o.has_t || c->o.t.p >= o->alpha))
		appendf(r->context, sizeof(r->context),
			"effect %.3g%s against within-arm spreads %.3g%s (a), %.3g%s (b)",
			c->observed_effect, u, c->spread_a, u, c->spread_b, u);
	if (o->has_effect_bound && !isnan(c->spread_over_bound_a) && c->a.n >= 2 && c->b.n >= 2)
		appendf(r->context, sizeof(r->context),
			"%sspreads are %.2gx (a), %.2gx (b) the effect bound %.3g%%",
			r->context[0] ? "; " : "", c->spread_over_bound_a, c->spread_over_bound_b,
			o->effect_bound_pct);
}

int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out)
{
	struct rule r = {0};
	const double *x[2] = {a, b};
	size_t n[2] = {na, nb};
	double bound_abs = NAN;
	int rc;
	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	outcome_init(&out->o);
	if (na == 0 || nb == 0)
		return err_set("arm %s has no runs (check --a, --b and --where)", na ? "b" : "a");
	rc = stats_summary_abs(a, na, &out->a);
	if (rc == 0)
		rc = stats_summary_abs(b, nb, &out->b);
	if (rc == 0)
		rc = choose_scale(a, na, b, nb, opts->scale, &out->log_scale);
	if (rc == 0)
		rc = stats_mann_whitney(a, na, b, nb, &out->test);
	if (rc == 0 && out->log_scale)
		rc = stats_bootstrap_median_ratio(a, na, b, nb, opts->resamples, opts->seed,
						  &out->ratio);
	if (rc)
		return rc;
	if (!out->log_scale) {
		out->ratio.ratio = NAN;
		out->ratio.resamples = opts->resamples;
		out->ratio.seed = opts->seed;
	}
	if (!out->log_scale || na < 2 || nb < 2)
		out->ratio.lo = out->ratio.hi = NAN; /* none, or a resample of one run: [x, x] */
	out->cv = pooled_cv(a, na, b, nb);
	out->diff = out->b.median - out->a.median;
	if (out->log_scale) {
		double ratio = out->ratio.ratio;
		out->observed_effect = (fmax(ratio, 1 / ratio) - 1) * 100;
		out->spread_a = out->a.spread_pct;
		out->spread_b = out->b.spread_pct;
	} else {
		out->observed_effect = fabs(out->diff);
		out->spread_a = out->a.max - out->a.min;
		out->spread_b = out->b.max - out->b.min;
	}
	out->effect_over_spread_a = out->spread_a > 0 ? out->observed_effect / out->spread_a : NAN;
	out->effect_over_spread_b = out->spread_b > 0 ? out->observed_effect / out->spread_b : NAN;
	out->separated =
		out->observed_effect > out->spread_a && out->observed_effect > out->spread_b;
	out->spread_over_bound_a = out->spread_over_bound_b = NAN;
	if (opts->has_effect_bound) {
		if (out->log_scale) {
			out->spread_over_bound_a = out->a.spread_pct / opts->effect_bound_pct;
			out->spread_over_bound_b = out->b.spread_pct / opts->effect_bound_pct;
		} else if (out->a.median != 0) {
			bound_abs = opts->effect_bound_pct / 100 * fabs(out->a.median);
			out->spread_over_bound_a = out->spread_a / bound_abs;
			out->spread_over_bound_b = out->spread_b / bound_abs;
		}
	}
	/* the Welch test, the estimate without it, the sd runs_needed uses */
	out->o.test = "welch";
	if (na >= 2 && nb >= 2) {
		struct t_test t;
		rc = out->log_scale ? stats_welch_ln(a, na, b, nb, COMPARE_CI_PCT / 100, &t)
				    : stats_welch(a, na, b, nb, COMPARE_CI_PCT / 100, &t);
		if (rc == 0)
			outcome_set_t(&out->o, &t, out->log_scale);
		rc = 0; /* no variation in either arm: no t test, said below */
	}
	if (!out->o.has_t) {
		double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
		if (out->log_scale) {
			double ga, gb;
			if (stats_geometric_mean(a, na, &ga) == 0 &&
			    stats_geometric_mean(b, nb, &gb) == 0)
				out->o.estimate = gb / ga;
		} else {
			out->o.estimate = mb - ma;
		}
	}
	if (stats_pooled_sd(x, n, 2, out->log_scale, &out->o.sd) != 0)
		out->o.sd = NAN;
	out->o.observed = out->observed_effect;
	outcome_effect(&out->o, opts, out->log_scale, out->observed_effect, fabs(out->a.median));
	outcome_runs_needed(&out->o, opts, false, 1);
	out->rank_floor = rank_test_floor(opts->alpha);

	r.log_scale = out->log_scale;
	r.bound_abs = bound_abs;
	r.test = out->log_scale ? "Welch t on ln values" : "Welch t on values";
	r.needed = "runs needed per arm";
	if (na < 2 && nb < 2)
		r.no_t = "one run in each arm: no within-arm spread, no interval and no test";
	else if (na < 2 || nb < 2)
		r.no_t = na < 2 ? "one run in arm a: no within-arm spread, no interval and no test"
				: "one run in arm b: no within-arm spread, no interval and no test";
	else
		r.no_t = "no variation within either arm: the t test is undefined";
	unpaired_rule(out, &r);
	/*
	 * Welch resolves it but neither confirmation holds: more runs let the
	 * rank test confirm it, which it can only from rank_floor runs per arm
	 */
	if (out->o.has_t && out->o.t.p < opts->alpha && !r.confirmed && !isnan(out->o.runs_needed))
		out->o.runs_needed = fmax(out->o.runs_needed, out->rank_floor);
	decide(&out->o, opts, &r);
	out->verdict = out->o.verdict;
	out->effect_pct = out->o.effect_pct;
	out->runs_needed = out->o.runs_needed;
	snprintf(out->reason, sizeof(out->reason), "%s", out->o.reason);
	return 0;
}

/* The side of the null an estimate is on: +1, -1 or 0 (log: of 1; absolute: of 0). */
static int side(double estimate, bool log_scale)
{
	double null = log_scale ? 1 : 0;
	return estimate > null ? 1 : estimate < null ? -1 : 0;
}

int compare_pool(const struct compare_level *levels, size_t nlevels, const char *field,
		 const struct compare_options *opts, struct compare_pooled *out)
{
	struct rule r = {0};
	struct compare_outcome *o = &out->o;
	double *est = NULL, *se = NULL, *df = NULL, *all_a = NULL, ref = 0, observed;
	char no_t[COMPARE_REASON_MAX / 2];
	size_t one_run_levels = 0;
	const double **x = NULL;
	size_t *n = NULL, na_all = 0, agree = 0;
	bool log_scale;
	int rc = 0, s;
	memset(out, 0, sizeof(*out));
	outcome_init(o);
	if (nlevels == 0)
		return err_set("no level of --by %s has runs in both arms", field);
	log_scale = levels[0].c.log_scale;
	out->nlevels = nlevels;
	out->inverse_variance = true;
	est = malloc(nlevels * sizeof(*est));
	se = malloc(nlevels * sizeof(*se));
	df = malloc(nlevels * sizeof(*df));
	x = malloc(2 * nlevels * sizeof(*x));
	n = malloc(2 * nlevels * sizeof(*n));
	for (size_t i = 0; i < nlevels; i++)
		na_all += levels[i].c.a.n;
	all_a = malloc((na_all ? na_all : 1) * sizeof(*all_a));
	if (!est || !se || !df || !x || !n || !all_a) {
		rc = err_set("out of memory");
		goto done;
	}
	na_all = 0;
	for (size_t i = 0; i < nlevels; i++) {
		const struct compare *c = &levels[i].c;
		if (c->log_scale != log_scale) {
			rc = err_set("levels of --by %s are compared on different scales", field);
			goto done;
		}
		/* a level's estimate: its t test's, else its geometric-mean ratio or mean
		 * difference */
		est[i] = c->o.estimate;
		se[i] = c->o.has_t ? c->o.t.se : NAN;
		df[i] = c->o.has_t ? c->o.t.df : NAN;
		if (!c->o.has_t)
			out->inverse_variance = false;
		out->min = i == 0 ? est[i] : fmin(out->min, est[i]);
		out->max = i == 0 ? est[i] : fmax(out->max, est[i]);
		x[2 * i] = levels[i].a;
		n[2 * i] = c->a.n;
		x[2 * i + 1] = levels[i].b;
		n[2 * i + 1] = c->b.n;
		memcpy(all_a + na_all, levels[i].a, c->a.n * sizeof(*all_a));
		na_all += c->a.n;
	}
	if (out->inverse_variance) {
		struct t_test t;
		for (size_t i = 0; i < nlevels && log_scale; i++)
			est[i] = levels[i].c.o.t.diff; /* ln of the ratio */
		rc = stats_pool_inverse_variance(est, se, df, nlevels, COMPARE_CI_PCT / 100, &t);
		if (rc)
			goto done;
		outcome_set_t(o, &t, log_scale);
		o->test = "pooled-t";
	} else if (log_scale) {
		if ((rc = stats_geometric_mean(est, nlevels, &o->estimate)) < 0)
			goto done;
	} else {
		o->estimate = gsl_stats_mean(est, 1, nlevels);
	}
	if (stats_median(all_a, na_all, &ref) == 0)
		ref = fabs(ref);
	observed = log_scale ? (fmax(o->estimate, 1 / o->estimate) - 1) * 100 : fabs(o->estimate);
	o->observed = observed;
	if (stats_pooled_sd(x, n, 2 * nlevels, log_scale, &o->sd) != 0)
		o->sd = NAN;
	outcome_effect(o, opts, log_scale, observed, ref);
	outcome_runs_needed(o, opts, false, (double)nlevels);
	s = side(o->estimate, log_scale);
	for (size_t i = 0; i < nlevels; i++)
		if (side(levels[i].c.o.estimate, log_scale) == s && s != 0)
			agree++;

	r.log_scale = log_scale;
	r.bound_abs = opts->has_effect_bound && ref > 0 ? opts->effect_bound_pct / 100 * ref : NAN;
	r.test = log_scale ? "inverse-variance pooled t on the levels' ln ratios"
			   : "inverse-variance pooled t on the levels' differences";
	r.needed = "runs needed per arm in each level";
	/* which levels have no t interval, and why: one run in an arm, or no variation */
	no_t[0] = '\0';
	for (int why = 0; why < 2; why++) {
		size_t listed = 0;
		for (size_t i = 0; i < nlevels; i++) {
			const struct compare *c = &levels[i].c;
			bool one_run = c->a.n < 2 || c->b.n < 2;
			if (c->o.has_t || one_run != (why == 0))
				continue;
			if (listed == 0)
				appendf(no_t, sizeof(no_t),
					"%sno interval at %s=", no_t[0] ? "; " : "", field);
			if (listed < 8)
				appendf(no_t, sizeof(no_t), "%s%s", listed ? ", " : "",
					levels[i].level);
			else if (listed == 8)
				appendf(no_t, sizeof(no_t), ", ...");
			listed++;
		}
		if (listed)
			appendf(no_t, sizeof(no_t), " (%s)",
				why == 0 ? "an arm with one run: no within-level spread"
					 : "no variation within either arm");
		if (listed && why == 0)
			one_run_levels = listed;
	}
	appendf(no_t, sizeof(no_t),
		", so the pooled %s is the %s of the levels' %s, without an interval",
		log_scale ? "ratio" : "difference", log_scale ? "geometric mean" : "mean",
		log_scale ? "ratios" : "differences");
	r.no_t = no_t;
	r.confirmed = agree == nlevels;
	r.method = "pooled-t+agreement";
	if (r.confirmed)
		snprintf(r.confirm, sizeof(r.confirm), "every level (%zu) moves the same way",
			 nlevels);
	else
		snprintf(r.confirm, sizeof(r.confirm),
			 "%zu of %zu levels move the way the pooled estimate does", agree, nlevels);
	snprintf(r.context, sizeof(r.context), "the levels' %s range from %.4g to %.4g",
		 log_scale ? "ratios" : "differences", out->min, out->max);
	if (!out->inverse_variance)
		appendf(r.context, sizeof(r.context),
			" (%zu of %zu levels agree in direction%s%s%s)", agree, nlevels,
			one_run_levels == nlevels ? "; --pair-by " : "",
			one_run_levels == nlevels ? field : "",
			one_run_levels == nlevels ? " takes each level's runs as a pair" : "");
	decide(o, opts, &r);
done:
	free(est);
	free(se);
	free(df);
	free(x);
	free(n);
	free(all_a);
	return rc;
}

int compare_pairs(struct compare_pair *pairs, size_t n, bool log_scale,
		  const struct compare_options *opts, struct compare_paired *out)
{
	struct rule r = {0};
	struct compare_outcome *o = &out->o;
	double *a = NULL, *b = NULL, *d = NULL, ref = 0, observed;
	int rc = 0, s;
	memset(out, 0, sizeof(*out));
	outcome_init(o);
	o->test = "paired-t";
	if (n == 0)
		return err_set("no pairs to compare");
	out->npairs = n;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	d = malloc(n * sizeof(*d));
	if (!a || !b || !d) {
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
		d[i] = log_scale ? log(b[i]) - log(a[i]) : b[i] - a[i];
	}
	if (n >= 2) {
		struct t_test t;
		if ((log_scale ? stats_paired_t_ln(a, b, n, COMPARE_CI_PCT / 100, &t)
			       : stats_paired_t(a, b, n, COMPARE_CI_PCT / 100, &t)) == 0)
			outcome_set_t(o, &t, log_scale);
		o->sd = gsl_stats_sd(d, 1, n);
	}
	if (!o->has_t) {
		double mean = gsl_stats_mean(d, 1, n);
		o->estimate = log_scale ? exp(mean) : mean;
	}
	if (stats_median(a, n, &ref) == 0)
		ref = fabs(ref);
	observed = log_scale ? (fmax(o->estimate, 1 / o->estimate) - 1) * 100 : fabs(o->estimate);
	o->observed = observed;
	outcome_effect(o, opts, log_scale, observed, ref);
	outcome_runs_needed(o, opts, true, 1);
	s = side(o->estimate, log_scale);
	for (size_t i = 0; i < n; i++)
		if (side(pairs[i].estimate, log_scale) == s && s != 0)
			out->agree++;

	r.log_scale = log_scale;
	r.bound_abs = opts->has_effect_bound && ref > 0 ? opts->effect_bound_pct / 100 * ref : NAN;
	r.test = log_scale ? "paired t on ln differences" : "paired t on differences";
	r.needed = "pairs needed";
	r.no_t = n < 2 ? "one pair: no spread of the differences, no interval and no test"
		       : "every pair differs by the same amount: the paired t test is undefined";
	r.confirmed = out->agree == n;
	r.method = "paired-t+agreement";
	if (r.confirmed)
		snprintf(r.confirm, sizeof(r.confirm), "every pair (%zu) moves the same way", n);
	else
		snprintf(r.confirm, sizeof(r.confirm),
			 "%zu of %zu pairs move the way the mean difference does", out->agree, n);
	r.context[0] = '\0';
	decide(o, opts, &r);
done:
	free(a);
	free(b);
	free(d);
	return rc;
}

bool compare_lower_is_better_name(const char *metric)
{
	static const char *const suffixes[] = {"_ms",     "_us",      "_ns",  "_s",
					       "_per_op", "_per_int", "_err", NULL};
	size_t n = strlen(metric);
	if (!strcmp(metric, "err"))
		return true;
	for (size_t i = 0; suffixes[i]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && !strcmp(metric + n - k, suffixes[i]))
			return true;
	}
	return false;
}

/* One arm: the common filter and the arm's own conditions, selected; its values. */
static int select_arm(sqlite3 *db, const struct compare_request *req, int arm,
		      struct selection *sel, double **values)
{
	static const char *const option[2] = {"--a", "--b"};
	struct run_filter f;
	struct select_spec spec = {
		.metric = req->metric ? req->metric : "tput", .by = req->by, .block = req->pair_by};
	int rc = run_filter_copy(&f, req->filter);
	if (rc)
		return rc;
	rc = run_filter_add_conditions(&f, req->arm[arm], option[arm]);
	spec.filter = &f;
	if (rc == 0)
		rc = select_runs(db, &spec, sel);
	if (rc == 0 && sel->n == 0) {
		rc = select_no_runs(sel, &f);
		err_prefix("arm %s", arm ? "b" : "a");
	}
	if (rc == 0 && !(*values = malloc((sel->n ? sel->n : 1) * sizeof(**values))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++)
		(*values)[i] = sel->runs[i].metric;
	run_filter_release(&f);
	return rc;
}

/* The --by or --pair-by value of a run (NULL: none). */
static const char *key_of(const struct compare_request *req, const struct sel_run *run)
{
	return req->by ? run->level_text : run->block;
}

/* A distinct key with its runs' counts in each arm. */
struct key {
	const char *text;
	size_t count[2];
	double number;  /* text as a number, when by_number */
	bool by_number; /* every key is a number: sort by value (the same in all keys) */
};

static bool is_number(const char *s, double *v)
{
	char *end;
	if (!*s)
		return false;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

static int key_cmp(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	if (a->by_number)
		return a->number < b->number ? -1 : a->number > b->number;
	return strcmp(a->text, b->text);
}

/* The distinct keys of both arms' runs (a run without one is left out), sorted. */
static int collect_keys(struct compare_result *out, const struct compare_request *req,
			const char *option, struct key **keys, size_t *nkeys)
{
	struct key *k = NULL;
	size_t n = 0, total = out->sel[0].n + out->sel[1].n;
	bool by_number = true;
	if (!(k = calloc(total ? total : 1, sizeof(*k))))
		return err_set("out of memory");
	for (int arm = 0; arm < 2; arm++)
		for (size_t i = 0; i < out->sel[arm].n; i++) {
			const char *text = key_of(req, &out->sel[arm].runs[i]);
			size_t j = 0;
			if (!text) {
				char reason[256];
				snprintf(reason, sizeof(reason), "no value for %s %s", option,
					 req->by ? req->by : req->pair_by);
				if (selection_leave_out(&out->sel[arm], out->sel[arm].runs[i].tag,
							reason) < 0) {
					free(k);
					return ERR_DATA;
				}
				continue;
			}
			while (j < n && strcmp(k[j].text, text))
				j++;
			if (j == n)
				k[n++].text = text;
			k[j].count[arm]++;
		}
	for (size_t j = 0; j < n; j++)
		if (!is_number(k[j].text, &k[j].number))
			by_number = false;
	for (size_t j = 0; j < n; j++)
		k[j].by_number = by_number;
	qsort(k, n, sizeof(*k), key_cmp);
	*keys = k;
	*nkeys = n;
	return 0;
}

/* Leave out every run of `arm` whose key is `text`. */
static int leave_out_key(struct compare_result *out, const struct compare_request *req, int arm,
			 const char *text, const char *reason)
{
	for (size_t i = 0; i < out->sel[arm].n; i++) {
		const char *k = key_of(req, &out->sel[arm].runs[i]);
		if (k && !strcmp(k, text) &&
		    selection_leave_out(&out->sel[arm], out->sel[arm].runs[i].tag, reason) < 0)
			return ERR_DATA;
	}
	return 0;
}

/* The used runs' values of one arm (with `text`: only those whose key is it). */
static int used_values(const struct compare_result *out, const struct compare_request *req, int arm,
		       const char *text, double **values, size_t *n)
{
	double *v = malloc((out->sel[arm].n ? out->sel[arm].n : 1) * sizeof(*v));
	size_t k = 0;
	if (!v)
		return err_set("out of memory");
	for (size_t i = 0; i < out->sel[arm].n; i++) {
		const char *key = key_of(req, &out->sel[arm].runs[i]);
		if (!out->used[arm][i] || (text && (!key || strcmp(key, text))))
			continue;
		v[k++] = out->values[arm][i];
	}
	*values = v;
	*n = k;
	return 0;
}

/* Mark the runs whose keys are accepted (accept[j] for keys[j]) as used. */
static void mark_used(struct compare_result *out, const struct compare_request *req,
		      const struct key *keys, size_t nkeys, const bool *accept)
{
	for (int arm = 0; arm < 2; arm++)
		for (size_t i = 0; i < out->sel[arm].n; i++) {
			const char *k = key_of(req, &out->sel[arm].runs[i]);
			out->used[arm][i] = false;
			for (size_t j = 0; k && j < nkeys; j++)
				if (accept[j] && !strcmp(keys[j].text, k))
					out->used[arm][i] = true;
		}
}

/* The unpaired comparison of the used runs; the scale it chose is the design's. */
static int compare_used(struct compare_result *out, const struct compare_request *req,
			struct compare_options *opts)
{
	double *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	int rc = used_values(out, req, 0, NULL, &a, &na);
	if (rc == 0)
		rc = used_values(out, req, 1, NULL, &b, &nb);
	if (rc == 0)
		rc = compare_arms(a, na, b, nb, opts, &out->c);
	if (rc == 0)
		opts->scale = out->c.log_scale ? COMPARE_SCALE_LOG : COMPARE_SCALE_ABSOLUTE;
	free(a);
	free(b);
	return rc;
}

static int run_by(struct compare_result *out, const struct compare_request *req,
		  struct compare_options *opts)
{
	struct key *keys = NULL;
	bool *accept = NULL;
	size_t nkeys = 0, nlevels = 0;
	char reason[256];
	int rc = collect_keys(out, req, "--by", &keys, &nkeys);
	if (rc == 0 && !(accept = calloc(nkeys ? nkeys : 1, sizeof(*accept))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		int missing = keys[j].count[0] ? (keys[j].count[1] ? -1 : 1) : 0;
		if (missing < 0) {
			accept[j] = true;
			nlevels++;
			continue;
		}
		snprintf(reason, sizeof(reason), "no run of arm %s has %s=%s (--by)",
			 missing ? "b" : "a", req->by, keys[j].text);
		rc = leave_out_key(out, req, missing ? 0 : 1, keys[j].text, reason);
	}
	if (rc == 0 && nlevels == 0)
		rc = err_set("no value of --by %s has runs in both arms", req->by);
	if (rc == 0) {
		mark_used(out, req, keys, nkeys, accept);
		rc = compare_used(out, req, opts);
	}
	if (rc == 0 && !(out->levels = calloc(nlevels, sizeof(*out->levels))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		struct compare_level *l;
		size_t na = 0, nb = 0;
		if (!accept[j])
			continue;
		l = &out->levels[out->nlevels++];
		if (!(l->level = strdup(keys[j].text)))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = used_values(out, req, 0, keys[j].text, &l->a, &na);
		if (rc == 0)
			rc = used_values(out, req, 1, keys[j].text, &l->b, &nb);
		if (rc == 0)
			rc = compare_arms(l->a, na, l->b, nb, opts, &l->c);
		if (rc)
			err_prefix("--by %s=%s", req->by, keys[j].text);
	}
	if (rc == 0)
		rc = compare_pool(out->levels, out->nlevels, req->by, opts, &out->pooled);
	free(keys);
	free(accept);
	return rc;
}

static int run_pairs(struct compare_result *out, const struct compare_request *req,
		     struct compare_options *opts)
{
	struct key *keys = NULL;
	bool *accept = NULL;
	size_t nkeys = 0, npairs = 0;
	char reason[256];
	int rc = collect_keys(out, req, "--pair-by", &keys, &nkeys);
	if (rc == 0 && !(accept = calloc(nkeys ? nkeys : 1, sizeof(*accept))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		const struct key *k = &keys[j];
		if (k->count[0] == 1 && k->count[1] == 1) {
			accept[j] = true;
			npairs++;
			continue;
		}
		if (!k->count[0] || !k->count[1])
			snprintf(reason, sizeof(reason), "no run of arm %s has %s=%s to pair with",
				 k->count[0] ? "b" : "a", req->pair_by, k->text);
		else
			snprintf(reason, sizeof(reason),
				 "%s=%s has %zu runs in arm a and %zu in arm b: a pair needs one "
				 "run in each (narrow it with --where)",
				 req->pair_by, k->text, k->count[0], k->count[1]);
		for (int arm = 0; rc == 0 && arm < 2; arm++)
			rc = leave_out_key(out, req, arm, k->text, reason);
	}
	if (rc == 0 && npairs == 0) {
		size_t several = 0;
		for (size_t j = 0; j < nkeys; j++)
			several += keys[j].count[0] > 1 || keys[j].count[1] > 1;
		if (several)
			rc = err_set("no value of --pair-by %s has one run in each arm (%zu of %zu "
				     "have several runs in an arm: narrow them with --where, e.g. "
				     "--where block=...)",
				     req->pair_by, several, nkeys);
		else
			rc = err_set("no value of --pair-by %s has one run in each arm",
				     req->pair_by);
	}
	if (rc == 0) {
		mark_used(out, req, keys, nkeys, accept);
		rc = compare_used(out, req, opts);
	}
	if (rc == 0 && !(out->pairs = calloc(npairs, sizeof(*out->pairs))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		struct compare_pair *p;
		if (!accept[j])
			continue;
		p = &out->pairs[out->npairs++];
		if (!(p->key = strdup(keys[j].text)))
			rc = err_set("out of memory");
		for (int arm = 0; rc == 0 && arm < 2; arm++)
			for (size_t i = 0; i < out->sel[arm].n; i++) {
				const struct sel_run *run = &out->sel[arm].runs[i];
				const char *k = key_of(req, run);
				if (!k || strcmp(k, keys[j].text))
					continue;
				*(arm ? &p->tag_b : &p->tag_a) = run->tag;
				*(arm ? &p->b : &p->a) = out->values[arm][i];
			}
	}
	if (rc == 0)
		rc = compare_pairs(out->pairs, out->npairs, out->c.log_scale, opts, &out->paired);
	free(keys);
	free(accept);
	return rc;
}

/* benchstat's rows (compare.h): per level of --by, else of the unpaired arms. */
static int benchstat_rows(struct compare_result *out)
{
	size_t n = out->design == COMPARE_BY ? out->nlevels : out->design == COMPARE_UNPAIRED;
	int rc = 0;
	if (n == 0)
		return 0;
	out->benchstat = calloc(n, sizeof(*out->benchstat));
	if (!out->benchstat)
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (out->design == COMPARE_BY)
			rc = benchstat_compare(out->levels[i].a, out->levels[i].c.a.n,
					       out->levels[i].b, out->levels[i].c.b.n,
					       &out->benchstat[i]);
		else
			rc = benchstat_compare(out->values[0], out->sel[0].n, out->values[1],
					       out->sel[1].n, &out->benchstat[i]);
		if (rc == 0)
			out->nbenchstat++;
	}
	return rc;
}

int compare_run(sqlite3 *db, const struct compare_request *req, struct compare_result *out)
{
	struct compare_options opts = req->opts;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	opts.lower_is_better =
		req->direction ? req->direction < 0
			       : compare_lower_is_better_name(req->metric ? req->metric : "tput");
	if (req->by && req->pair_by)
		return err_set("--by and --pair-by cannot be combined");
	for (int arm = 0; rc == 0 && arm < 2; arm++) {
		rc = select_arm(db, req, arm, &out->sel[arm], &out->values[arm]);
		if (rc == 0 && !(out->used[arm] = calloc(out->sel[arm].n, sizeof(bool))))
			rc = err_set("out of memory");
		for (size_t i = 0; rc == 0 && i < out->sel[arm].n; i++)
			out->used[arm][i] = true;
	}
	if (rc)
		return rc;
	if (req->by) {
		out->design = COMPARE_BY;
		rc = run_by(out, req, &opts);
		out->headline = &out->pooled.o;
	} else if (req->pair_by) {
		out->design = COMPARE_PAIRED;
		rc = run_pairs(out, req, &opts);
		out->headline = &out->paired.o;
	} else {
		out->design = COMPARE_UNPAIRED;
		rc = compare_arms(out->values[0], out->sel[0].n, out->values[1], out->sel[1].n,
				  &opts, &out->c);
		out->headline = &out->c.o;
	}
	if (rc == 0)
		rc = benchstat_rows(out);
	return rc;
}

void compare_result_release(struct compare_result *r)
{
	for (int arm = 0; arm < 2; arm++) {
		selection_release(&r->sel[arm]);
		free(r->values[arm]);
		free(r->used[arm]);
	}
	for (size_t i = 0; i < r->nlevels; i++) {
		free(r->levels[i].level);
		free(r->levels[i].a);
		free(r->levels[i].b);
	}
	free(r->levels);
	for (size_t i = 0; i < r->npairs; i++)
		free(r->pairs[i].key);
	free(r->pairs);
	free(r->benchstat);
	memset(r, 0, sizeof(*r));
}
