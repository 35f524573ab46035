/* verdict: see verdict.h. */
#include "verdict.h"

#include "../common/err.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void verdict_options_init(struct verdict_options *o)
{
	*o = (struct verdict_options){.alpha = VERDICT_ALPHA,
				      .power = VERDICT_POWER,
				      .kind = FIELD_KIND_RATE,
				      .scale = VERDICT_SCALE_AUTO};
}

const char *verdict_call_name(enum verdict_call call)
{
	switch (call) {
	case VERDICT_REAL:
		return "real";
	case VERDICT_NO_DIFFERENCE:
		return VERDICT_NO_DIFFERENCE_WORD;
	case VERDICT_WITHIN_NOISE:
		return VERDICT_WITHIN_NOISE_WORD;
	case VERDICT_UNREPLICATED:
		return VERDICT_UNREPLICATED_WORD;
	}
	return "?";
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

static void verdict_init(struct verdict *v, bool paired)
{
	memset(v, 0, sizeof(*v));
	v->call = VERDICT_WITHIN_NOISE;
	v->word = VERDICT_WITHIN_NOISE_WORD;
	v->change = "no change";
	v->effect = "none";
	v->paired = paired;
	v->test = "";
	v->test_words = "";
	v->t.diff = v->t.se = v->t.df = v->t.t = v->t.p = v->t.lo = v->t.hi = NAN;
	v->p = v->estimate = v->lo = v->hi = v->observed_pct = v->gap = NAN;
	v->sd = v->effect_pct = v->delta = v->runs_needed = NAN;
}

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

static int choose_scale(const double *a, size_t na, const double *b, size_t nb,
			enum verdict_scale scale, bool *log_scale)
{
	bool positive = all_positive(a, na) && all_positive(b, nb);
	if (scale == VERDICT_SCALE_LOG && !positive)
		return err_set("the log scale needs values above 0 on both sides");
	*log_scale = scale == VERDICT_SCALE_AUTO ? positive : scale == VERDICT_SCALE_LOG;
	return 0;
}

static const char *side_name(const struct verdict_options *o, int side)
{
	const char *n = side ? o->name_b : o->name_a;
	return n ? n : side ? "b" : "a";
}

/* The estimate's direction, its words and whether it is better. */
static void direction_words(struct verdict *v, const struct verdict_options *o)
{
	double null = v->log_scale ? 1 : 0;
	v->kind = o->kind;
	v->direction = v->estimate > null ? 1 : v->estimate < null ? -1 : 0;
	v->change = units_change_word(o->kind, v->direction);
	if (v->direction == 0)
		v->effect = "none";
	else
		v->effect = (v->direction > 0) != o->lower_is_better ? "better" : "worse";
}

/* The range rule (supporting evidence): the gap between the facing ends. */
static void range_rule(struct verdict *v)
{
	v->gap = fmax(v->b.min - v->a.max, v->a.min - v->b.max);
	v->ranges_disjoint = v->b.min > v->a.max || v->a.min > v->b.max;
}

/* The observed effect in %: log from the ratio, absolute against |median a|. */
static void observed(struct verdict *v)
{
	double r = v->estimate;
	if (v->log_scale)
		v->observed_pct = isfinite(r) && r > 0 ? (fmax(r, 1 / r) - 1) * 100 : NAN;
	else
		v->observed_pct =
			v->a.median != 0 ? fabs(v->estimate) / fabs(v->a.median) * 100 : NAN;
}

/* runs_needed from v->sd and the bound (else the observed effect). */
static void runs_needed(struct verdict *v, const struct verdict_options *o)
{
	double n, ref = fabs(v->a.median);
	int rc;
	v->effect_pct = o->has_effect_bound ? o->effect_bound_pct : v->observed_pct;
	if (v->log_scale)
		v->delta = log1p(v->effect_pct / 100);
	else if (o->has_effect_bound)
		v->delta = ref > 0 ? o->effect_bound_pct / 100 * ref : NAN;
	else
		v->delta = fabs(v->estimate);
	v->runs_needed = NAN;
	if (!(v->sd > 0) || !isfinite(v->sd) || !(v->delta > 0) || !isfinite(v->delta))
		return;
	rc = v->paired ? stats_pairs_needed(v->sd, v->delta, o->alpha, o->power, &n)
		       : stats_runs_needed(v->sd, v->delta, o->alpha, o->power, &n);
	if (rc == 0)
		v->runs_needed = fmax(n, VERDICT_MIN_RUNS);
	else
		err_clear();
}

/* The interval inside the effect bound: an effect that large is ruled out. */
static bool inside_bound(const struct verdict *v, const struct verdict_options *o)
{
	double bound;
	if (!o->has_effect_bound || !v->has_test || !isfinite(v->lo) || !isfinite(v->hi))
		return false;
	if (v->log_scale)
		return v->lo >= 1 - o->effect_bound_pct / 100 &&
		       v->hi <= 1 + o->effect_bound_pct / 100;
	bound = o->effect_bound_pct / 100 * fabs(v->a.median);
	return bound > 0 && v->lo >= -bound && v->hi <= bound;
}

/* The t test into the verdict: the estimate and its interval on the verdict's scale. */
static void set_t(struct verdict *v, const struct t_test *t)
{
	v->has_test = true;
	v->t = *t;
	v->p = t->p;
	v->estimate = v->log_scale ? exp(t->diff) : t->diff;
	v->lo = v->log_scale ? exp(t->lo) : t->lo;
	v->hi = v->log_scale ? exp(t->hi) : t->hi;
}

/* No variation on either side: the difference is exact. */
static void set_exact(struct verdict *v, double diff)
{
	v->has_test = true;
	v->test = "exact";
	v->test_words = "no variation within either side: the difference is exact";
	v->t.diff = diff;
	v->t.se = 0;
	v->t.lo = v->t.hi = diff;
	v->t.conf = VERDICT_CONF;
	v->p = v->t.p = diff != 0 ? 0 : 1;
	v->estimate = v->lo = v->hi = v->log_scale ? exp(diff) : diff;
}

/* The call from the test; the word from the call and the direction. */
static void decide(struct verdict *v, const struct verdict_options *o)
{
	if (!v->has_test)
		v->call = VERDICT_UNREPLICATED;
	else if (v->p < o->alpha)
		v->call = VERDICT_REAL;
	else if (inside_bound(v, o))
		v->call = VERDICT_NO_DIFFERENCE;
	else
		v->call = VERDICT_WITHIN_NOISE;
	v->word = v->call == VERDICT_REAL ? v->change : verdict_call_name(v->call);
}

static void estimate_phrase(const struct verdict *v, const struct verdict_options *o, char *buf,
			    size_t size)
{
	units_change_phrase(buf, size, o->kind, v->log_scale, v->estimate, v->lo, v->hi, "");
}

/* The reason: the test and its p, the estimate, the evidence, the runs needed. */
static void reason(struct verdict *v, const struct verdict_options *o)
{
	char *why = v->reason;
	size_t size = sizeof(v->reason);
	char phrase[160];
	const char *needed = v->paired ? "pairs needed" : "runs needed per side";
	why[0] = '\0';
	estimate_phrase(v, o, phrase, sizeof(phrase));
	if (!v->has_test) {
		if (v->paired)
			appendf(why, size,
				"one pair: no spread of the differences, no interval and no test");
		else if (v->a.n < 2 && v->b.n < 2)
			appendf(why, size,
				"one run in %s and in %s: no within-side spread, no interval and "
				"no test",
				side_name(o, 0), side_name(o, 1));
		else
			appendf(why, size,
				"one run in %s: no within-side spread, no interval and no test",
				v->a.n < 2 ? side_name(o, 0) : side_name(o, 1));
		appendf(why, size, "; observed %s", phrase);
	} else if (!strcmp(v->test, "exact")) {
		appendf(why, size, "%s (p = %g): %s", v->test_words, v->p, phrase);
	} else {
		appendf(why, size, "%s: p = %.3g %s alpha %.3g (t = %.4g, df = %.3g): %s",
			v->test_words, v->p, v->p < o->alpha ? "<" : ">=", o->alpha, v->t.t,
			v->t.df, phrase);
		if (v->call == VERDICT_NO_DIFFERENCE)
			appendf(why, size,
				"; the %g%% interval lies inside %s-+ %.3g%% (the effect bound): "
				"an "
				"effect that large is ruled out",
				VERDICT_CONF * 100, v->log_scale ? "1 " : "", o->effect_bound_pct);
		else if (v->call == VERDICT_WITHIN_NOISE && o->has_effect_bound)
			appendf(why, size, "; the %g%% interval is not inside %s-+ %.3g%%",
				VERDICT_CONF * 100, v->log_scale ? "1 " : "", o->effect_bound_pct);
	}
	if (v->has_rank)
		appendf(why, size,
			"; evidence: ranges %s (gap %.4g), Mann-Whitney p = %.3g (the smallest "
			"these sizes can reach: %.3g)",
			v->ranges_disjoint ? "disjoint" : "overlap", v->gap, v->rank.p,
			v->rank.min_p);
	else if (v->paired && v->has_test)
		appendf(why, size, "; evidence: %zu of %zu pairs move the same way", v->agree,
			v->a.n);
	if (v->call == VERDICT_REAL)
		return;
	if (!isnan(v->runs_needed))
		appendf(why, size, "; %s to resolve a %.3g%% effect: %.0f", needed, v->effect_pct,
			v->runs_needed);
	else if (isnan(v->sd))
		appendf(why, size, "; %s: not computable (no spread within a side)", needed);
	else if (!(v->delta > 0))
		appendf(why, size, "; %s: not computable (no effect to size it for)", needed);
	else
		appendf(why, size, "; %s: not computable (no variation)", needed);
}

/* Summaries, scale and the estimate without a test (means). */
static int describe(const double *a, size_t na, const double *b, size_t nb,
		    const struct verdict_options *o, struct verdict *v)
{
	int rc;
	if (na == 0 || nb == 0)
		return err_set("%s has no runs", side_name(o, na ? 1 : 0));
	if ((rc = stats_summary_abs(a, na, &v->a)) < 0 ||
	    (rc = stats_summary_abs(b, nb, &v->b)) < 0)
		return rc;
	if ((rc = choose_scale(a, na, b, nb, o->scale, &v->log_scale)) < 0)
		return rc;
	if (v->log_scale) {
		double ga, gb;
		if ((rc = stats_geometric_mean(a, na, &ga)) < 0 ||
		    (rc = stats_geometric_mean(b, nb, &gb)) < 0)
			return rc;
		v->estimate = gb / ga;
	} else {
		v->estimate = gsl_stats_mean(b, 1, nb) - gsl_stats_mean(a, 1, na);
	}
	range_rule(v);
	return 0;
}

static bool constant(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

int verdict_two_samples(const double *a, size_t na, const double *b, size_t nb,
			const struct verdict_options *o, struct verdict *out)
{
	const double *x[2] = {a, b};
	size_t n[2] = {na, nb};
	int rc;
	verdict_init(out, false);
	if ((rc = describe(a, na, b, nb, o, out)) < 0)
		return rc;
	if ((rc = stats_mann_whitney(a, na, b, nb, &out->rank)) < 0)
		return rc;
	out->has_rank = true;
	out->test = "welch";
	out->test_words = out->log_scale ? "Welch t on ln values" : "Welch t on values";
	if (na >= 2 && nb >= 2) {
		struct t_test t;
		if (constant(a, na) && constant(b, nb))
			set_exact(out, out->log_scale ? log(b[0]) - log(a[0]) : b[0] - a[0]);
		else if ((rc = out->log_scale ? stats_welch_ln(a, na, b, nb, VERDICT_CONF, &t)
					      : stats_welch(a, na, b, nb, VERDICT_CONF, &t)) < 0)
			return rc;
		else
			set_t(out, &t);
	}
	if (stats_pooled_sd(x, n, 2, out->log_scale, &out->sd) != 0) {
		out->sd = NAN;
		err_clear();
	}
	observed(out);
	direction_words(out, o);
	decide(out, o);
	runs_needed(out, o);
	reason(out, o);
	return 0;
}

int verdict_paired(const double *a, const double *b, size_t n, const struct verdict_options *o,
		   struct verdict *out)
{
	double *d = NULL;
	int rc;
	verdict_init(out, true);
	if ((rc = describe(a, n, b, n, o, out)) < 0)
		return rc;
	if (!(d = malloc(n * sizeof(*d))))
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		d[i] = out->log_scale ? log(b[i]) - log(a[i]) : b[i] - a[i];
	out->estimate = out->log_scale ? exp(gsl_stats_mean(d, 1, n)) : gsl_stats_mean(d, 1, n);
	out->test = "paired-t";
	out->test_words = out->log_scale ? "paired t on ln differences" : "paired t on differences";
	if (n >= 2) {
		struct t_test t;
		out->sd = gsl_stats_sd(d, 1, n);
		if (constant(d, n))
			set_exact(out, d[0]);
		else if ((rc = out->log_scale ? stats_paired_t_ln(a, b, n, VERDICT_CONF, &t)
					      : stats_paired_t(a, b, n, VERDICT_CONF, &t)) < 0)
			goto done;
		else
			set_t(out, &t);
		if (!strcmp(out->test, "exact"))
			out->test_words = "every pair differs by the same amount: the difference "
					  "is exact";
	}
	observed(out);
	direction_words(out, o);
	for (size_t i = 0; i < n; i++)
		out->agree += out->direction != 0 && (d[i] > 0   ? 1
						      : d[i] < 0 ? -1
								 : 0) == out->direction;
	decide(out, o);
	runs_needed(out, o);
	reason(out, o);
done:
	free(d);
	return rc;
}

void verdict_sentence(const struct verdict *v, const char *unit, char *buf, size_t size)
{
	char phrase[160];
	if (!size)
		return;
	units_change_phrase(phrase, sizeof(phrase), v->kind, v->log_scale, v->estimate, v->lo,
			    v->hi, unit);
	if (v->call == VERDICT_REAL)
		snprintf(buf, size, "%s (%s, p = %.3g)", phrase, v->test_words, v->p);
	else if (v->has_test)
		snprintf(buf, size, "%s: %s (%s, p = %.3g)", v->word, phrase, v->test_words, v->p);
	else
		snprintf(buf, size, "%s: %s (no test)", v->word, phrase);
}

/* The interval of the tally's mean ln estimate from each verdict's own standard error. */
static int tally_within(const struct verdict *const *v, size_t k, struct verdict_tally *out)
{
	double ss = 0, s4 = 0, sum = 0;
	struct t_test t;
	for (size_t i = 0; i < k; i++) {
		double se2 = v[i]->t.se * v[i]->t.se;
		sum += v[i]->t.diff;
		ss += se2;
		if (se2 > 0)
			s4 += se2 * se2 / v[i]->t.df;
	}
	out->method = "within";
	out->se = sqrt(ss) / (double)k;
	if (!(ss > 0)) { /* every verdict exact: the mean is exact too */
		out->df = NAN;
		out->lo = out->hi = out->estimate;
		return 0;
	}
	out->df = ss * ss / s4;
	if (stats_t_estimate(sum / (double)k, out->se, out->df, VERDICT_CONF, &t) < 0)
		return ERR_DATA;
	out->lo = out->log_scale ? exp(t.lo) : t.lo;
	out->hi = out->log_scale ? exp(t.hi) : t.hi;
	return 0;
}

/* ... from the spread of the estimates: a one-sample t over the k of them. */
static int tally_across(const double *d, size_t k, struct verdict_tally *out)
{
	double sd = gsl_stats_sd(d, 1, k);
	struct t_test t;
	out->method = "across";
	out->df = (double)(k - 1);
	out->se = sd / sqrt((double)k);
	if (!(sd > 0)) {
		out->lo = out->hi = out->estimate;
		return 0;
	}
	if (stats_t_estimate(gsl_stats_mean(d, 1, k), out->se, out->df, VERDICT_CONF, &t) < 0)
		return ERR_DATA;
	out->lo = out->log_scale ? exp(t.lo) : t.lo;
	out->hi = out->log_scale ? exp(t.hi) : t.hi;
	return 0;
}

static void tally_text(struct verdict_tally *out)
{
	const size_t count[5] = {out->up, out->down, out->no_difference, out->within_noise,
				 out->unreplicated};
	const char *word[5] = {out->up_word, out->down_word, VERDICT_NO_DIFFERENCE_WORD,
			       VERDICT_WITHIN_NOISE_WORD, VERDICT_UNREPLICATED_WORD};
	bool first = true;
	out->text[0] = '\0';
	for (int i = 0; i < 5; i++) {
		if (!count[i])
			continue;
		if (first)
			appendf(out->text, sizeof(out->text), "%zu of %zu %s", count[i], out->k,
				word[i]);
		else
			appendf(out->text, sizeof(out->text), ", %zu %s", count[i], word[i]);
		first = false;
	}
}

int verdict_tally(const struct verdict *const *v, size_t k, const struct verdict_options *o,
		  struct verdict_tally *out)
{
	double *d;
	bool every_test = true;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	out->estimate = out->lo = out->hi = out->se = out->df = NAN;
	out->method = "none";
	out->up_word = units_change_word(o->kind, 1);
	out->down_word = units_change_word(o->kind, -1);
	if (k == 0)
		return err_set("no verdicts to sum up");
	if (!(d = malloc(k * sizeof(*d))))
		return err_set("out of memory");
	out->k = k;
	out->log_scale = v[0]->log_scale;
	for (size_t i = 0; i < k; i++) {
		if (v[i]->log_scale != out->log_scale) {
			free(d);
			return err_set("verdicts on different scales cannot be summed up");
		}
		if (v[i]->call == VERDICT_REAL)
			*(v[i]->direction > 0 ? &out->up : &out->down) += 1;
		else if (v[i]->call == VERDICT_NO_DIFFERENCE)
			out->no_difference++;
		else if (v[i]->call == VERDICT_WITHIN_NOISE)
			out->within_noise++;
		else
			out->unreplicated++;
		d[i] = v[i]->has_test   ? v[i]->t.diff
		       : out->log_scale ? log(v[i]->estimate)
					: v[i]->estimate;
		every_test = every_test && v[i]->has_test;
	}
	out->estimate = gsl_stats_mean(d, 1, k);
	if (out->log_scale)
		out->estimate = exp(out->estimate);
	if (every_test)
		rc = tally_within(v, k, out);
	else if (k >= 2)
		rc = tally_across(d, k, out);
	tally_text(out);
	free(d);
	return rc;
}
