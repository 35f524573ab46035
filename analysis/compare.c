/* compare: see compare.h. */
#include "compare.h"

#include "../common/err.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
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
}

/* Root mean square of sd/mean over the arms with at least 2 runs. */
static double pooled_cv(const double *a, size_t na, const double *b, size_t nb)
{
	double sum = 0.0;
	int arms = 0;
	if (na >= 2) {
		double cv = gsl_stats_sd(a, 1, na) / gsl_stats_mean(a, 1, na);
		sum += cv * cv;
		arms++;
	}
	if (nb >= 2) {
		double cv = gsl_stats_sd(b, 1, nb) / gsl_stats_mean(b, 1, nb);
		sum += cv * cv;
		arms++;
	}
	return arms ? sqrt(sum / arms) : NAN;
}

static void decide(struct compare *c)
{
	const struct compare_options *o = &c->opts;
	double worst = fmax(c->a.spread_pct, c->b.spread_pct);
	bool b_higher = c->b.median > c->a.median;
	if (c->test.min_p > o->alpha) {
		c->verdict = "unresolvable";
		snprintf(c->reason, sizeof(c->reason),
			 "with %zu against %zu runs the smallest reachable p is %.3g > alpha %.3g",
			 c->a.n, c->b.n, c->test.min_p, o->alpha);
	} else if (o->has_effect_bound && worst > o->effect_bound_pct) {
		c->verdict = "unresolvable";
		snprintf(c->reason, sizeof(c->reason),
			 "within-arm spread %.1f%% exceeds the effect bound %.3g%% by %.1fx", worst,
			 o->effect_bound_pct, worst / o->effect_bound_pct);
	} else if (c->test.p < o->alpha) {
		c->verdict = b_higher != o->lower_is_better ? "faster" : "slower";
		snprintf(c->reason, sizeof(c->reason), "p = %.3g < alpha %.3g (b relative to a)",
			 c->test.p, o->alpha);
	} else {
		c->verdict = "no-difference";
		snprintf(c->reason, sizeof(c->reason), "p = %.3g >= alpha %.3g", c->test.p,
			 o->alpha);
	}
}

int compare_arms(const double *a, size_t na, const double *b, size_t nb,
		 const struct compare_options *opts, struct compare *out)
{
	int rc;
	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	if (na == 0 || nb == 0)
		return err_set("arm %s has no runs (check --a, --b and --where)", na ? "b" : "a");
	rc = stats_summary(a, na, &out->a);
	if (rc == 0)
		rc = stats_summary(b, nb, &out->b);
	if (rc == 0)
		rc = stats_mann_whitney(a, na, b, nb, &out->test);
	if (rc == 0)
		rc = stats_bootstrap_median_ratio(a, na, b, nb, opts->resamples, opts->seed,
						  &out->ratio);
	if (rc)
		return rc;
	out->cv = pooled_cv(a, na, b, nb);
	out->effect_pct = opts->has_effect_bound ? opts->effect_bound_pct
						 : fabs(out->ratio.ratio - 1.0) * 100.0;
	out->runs_needed = NAN;
	if (!isnan(out->cv) && out->effect_pct > 0 &&
	    stats_runs_needed(out->cv, out->effect_pct / 100.0, opts->alpha, opts->power,
			      &out->runs_needed) != 0)
		out->runs_needed = NAN;
	out->rank_floor = rank_test_floor(opts->alpha);
	if (!isnan(out->runs_needed) && out->runs_needed < out->rank_floor)
		out->runs_needed = out->rank_floor;
	out->spread_over_bound_a = out->spread_over_bound_b = NAN;
	if (opts->has_effect_bound) {
		out->spread_over_bound_a = out->a.spread_pct / opts->effect_bound_pct;
		out->spread_over_bound_b = out->b.spread_pct / opts->effect_bound_pct;
	}
	decide(out);
	return 0;
}

bool compare_lower_is_better_name(const char *metric)
{
	static const char *const suffixes[] = {"_ms", "_s", "_per_op", "_per_int", NULL};
	size_t n = strlen(metric);
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
	struct select_spec spec = {.metric = req->metric ? req->metric : "tput"};
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

int compare_run(sqlite3 *db, const struct compare_request *req, struct compare_result *out)
{
	struct compare_options opts = req->opts;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	opts.lower_is_better =
		req->direction ? req->direction < 0
			       : compare_lower_is_better_name(req->metric ? req->metric : "tput");
	for (int arm = 0; rc == 0 && arm < 2; arm++)
		rc = select_arm(db, req, arm, &out->sel[arm], &out->values[arm]);
	if (rc == 0)
		rc = compare_arms(out->values[0], out->sel[0].n, out->values[1], out->sel[1].n,
				  &opts, &out->c);
	return rc;
}

void compare_result_release(struct compare_result *r)
{
	for (int arm = 0; arm < 2; arm++) {
		selection_release(&r->sel[arm]);
		free(r->values[arm]);
	}
	memset(r, 0, sizeof(*r));
}
