/*
 * The decision rule's false alarms and power, by simulation (issue 25;
 * docs/statistics.md quotes these figures).
 *
 * Null designs, with a fixed seed (GSL's MT19937, seed SIM_SEED), at n =
 * 3, 5 and 10 runs a side and lognormal run-to-run noise of cv 1%, 10%
 * and 30% (a run is 100 exp(sigma z), sigma = sqrt(ln(1 + cv^2))):
 *   A/B       two arms from one distribution through compare_arms() (the
 *             command's path): the rate of a real verdict (higher or
 *             lower) must stay at or below alpha + 3 simulation standard
 *             errors, 3 sqrt(alpha (1 - alpha) / trials)
 *   paired    pairs sharing a block effect (cv 20% between blocks) through
 *             verdict_paired(): the paired t is exact under normal noise,
 *             so its rate must lie within alpha -+ 3 SE
 *   sweeps    null sweeps of 4 levels through noise_compute() (the noise
 *             command's path): the rate of resolved steps, the same bound
 *             as A/B
 * The A/B rate is also checked against an independent simulation of the
 * same rule in Python's standard library (tests/sim_check.py null 100000 1:
 * Welch's true size on ln values at equal variances, which cv does not
 * change) within the two simulations' combined error (4 SE), so a rule that
 * went silent (never real) fails too; and the range rule's rate (the sides'
 * ranges disjoint) against its exact value 2 / C(2n, n) (by hand: 0.1,
 * 2 / 252, 2 / 184756), which checks the simulation itself.
 *
 * Power: true effects of 5, 10 and 20% at cv 5% and 10% through the same
 * rule, against tests/sim_check.py power 20000 2 within 4 combined SE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/compare.h"
#include "analysis/noise.h"
#include "analysis/verdict.h"
#include "common/err.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_SEED 25
#define TRIALS 4000
#define SWEEPS 1000
#define ALPHA 0.05
#define MAXN 10

static const size_t sizes[] = {3, 5, 10};
static const double cvs[] = {0.01, 0.10, 0.30};

/*
 * tests/sim_check.py null 100000 1 (Python's random.Random, seed 1;
 * stat_check.py's t distribution): Welch's false-alarm rate on ln values.
 */
static const double python_null[] = {0.03557, 0.04430, 0.04923};
#define PYTHON_NULL_TRIALS 100000.0

static void lognormal(gsl_rng *r, double m, double cv, size_t n, double *out)
{
	double s = sqrt(log1p(cv * cv));
	for (size_t i = 0; i < n; i++)
		out[i] = m * exp(s * gsl_ran_gaussian(r, 1.0));
}

/* The simulation's standard error of a rate p over `trials`. */
static double se_of(double p, double trials)
{
	return sqrt(p * (1 - p) / trials);
}

/* 2 / C(2n, n): both sides' ranges disjoint (either way) with no difference. */
static double range_rule_rate(size_t n)
{
	double c = 1;
	for (size_t k = 1; k <= n; k++)
		c = c * (double)(n + k) / (double)k;
	return 2 / c;
}

static void test_null_ab(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct compare_options o;
	double a[MAXN], b[MAXN];
	(void)state;
	gsl_rng_set(r, SIM_SEED);
	compare_options_init(&o);
	o.resamples = 100; /* the bootstrap does not decide; keep it cheap */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], real_all = 0, disjoint_all = 0;
		for (size_t c = 0; c < sizeof(cvs) / sizeof(cvs[0]); c++) {
			size_t real = 0, disjoint = 0;
			double rate, bound = ALPHA + 3 * se_of(ALPHA, TRIALS);
			for (size_t t = 0; t < TRIALS; t++) {
				struct compare cmp;
				lognormal(r, 100, cvs[c], n, a);
				lognormal(r, 100, cvs[c], n, b);
				assert_int_equal(compare_arms(a, n, b, n, &o, &cmp), 0);
				real += verdict_real(&cmp.v);
				disjoint += cmp.v.ranges_disjoint;
			}
			rate = (double)real / TRIALS;
			printf("null A/B n=%zu cv=%.0f%%: real %.4f (bound %.4f), ranges disjoint "
			       "%.4f\n",
			       n, cvs[c] * 100, rate, bound, (double)disjoint / TRIALS);
			if (rate > bound)
				fail_msg("n=%zu cv=%g: false-alarm rate %.4f above %.4f", n, cvs[c],
					 rate, bound);
			real_all += real;
			disjoint_all += disjoint;
		}
		{
			double trials = 3.0 * TRIALS, rate = (double)real_all / trials;
			double ref = python_null[i];
			double tol = 4 * sqrt(se_of(ref, trials) * se_of(ref, trials) +
					      se_of(ref, PYTHON_NULL_TRIALS) *
						      se_of(ref, PYTHON_NULL_TRIALS));
			double rr = range_rule_rate(n), drate = (double)disjoint_all / trials;
			printf("null A/B n=%zu: real %.4f, python %.4f (tol %.4f); range rule %.5f, "
			       "exact %.5f\n",
			       n, rate, ref, tol, drate, rr);
			if (fabs(rate - ref) > tol)
				fail_msg("n=%zu: rate %.4f, python's %.4f (tol %.4f)", n, rate, ref,
					 tol);
			if (fabs(drate - rr) > 4 * se_of(rr, trials) + 1e-4)
				fail_msg("n=%zu: range rule %.5f, exact %.5f", n, drate, rr);
		}
	}
	gsl_rng_free(r);
}

static void test_null_paired(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct verdict_options o;
	double a[MAXN], b[MAXN], block[MAXN];
	(void)state;
	gsl_rng_set(r, SIM_SEED + 1);
	verdict_options_init(&o);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		for (size_t c = 0; c < sizeof(cvs) / sizeof(cvs[0]); c++) {
			size_t real = 0;
			double rate, tol = 3 * se_of(ALPHA, TRIALS);
			for (size_t t = 0; t < TRIALS; t++) {
				struct verdict v;
				lognormal(r, 100, 0.2, n, block);
				lognormal(r, 1, cvs[c], n, a);
				lognormal(r, 1, cvs[c], n, b);
				for (size_t k = 0; k < n; k++) {
					a[k] *= block[k];
					b[k] *= block[k];
				}
				assert_int_equal(verdict_paired(a, b, n, &o, &v), 0);
				real += verdict_real(&v);
			}
			rate = (double)real / TRIALS;
			printf("null paired n=%zu cv=%.0f%%: real %.4f (alpha -+ %.4f)\n", n,
			       cvs[c] * 100, rate, tol);
			if (fabs(rate - ALPHA) > tol)
				fail_msg("paired n=%zu cv=%g: rate %.4f outside %g -+ %.4f", n,
					 cvs[c], rate, ALPHA, tol);
		}
	}
	gsl_rng_free(r);
}

/* A null sweep of 4 levels (1, 2, 4, 8) with n runs each, as a selection. */
static void null_sweep(gsl_rng *r, size_t n, double cv, struct selection *sel)
{
	static const double levels[] = {1, 2, 4, 8};
	double v[MAXN];
	memset(sel, 0, sizeof(*sel));
	sel->n = 4 * n;
	sel->runs = calloc(sel->n, sizeof(*sel->runs));
	assert_non_null(sel->runs);
	for (size_t l = 0; l < 4; l++) {
		lognormal(r, 100, cv, n, v);
		for (size_t k = 0; k < n; k++) {
			struct sel_run *run = &sel->runs[l * n + k];
			char text[64];
			snprintf(text, sizeof(text), "l%g-r%zu", levels[l], k);
			run->tag = strdup(text);
			run->corpus = strdup("sim");
			run->subcorpus = strdup("");
			snprintf(text, sizeof(text), "%g", levels[l]);
			run->level_text = strdup(text);
			run->level = levels[l];
			run->level_numeric = true;
			run->metric = v[k];
			snprintf(text, sizeof(text), "%zu", k + 1);
			run->block = strdup(text);
			run->group = strdup("");
			run->seq = (int64_t)(l * n + k + 1);
			run->app_cores = NAN;
			assert_non_null(run->tag);
			assert_non_null(run->block);
		}
	}
}

static void test_null_sweeps(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct noise_options o;
	(void)state;
	gsl_rng_set(r, SIM_SEED + 2);
	noise_options_init(&o);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		for (size_t c = 0; c < sizeof(cvs) / sizeof(cvs[0]); c++) {
			size_t resolved = 0, steps = 0;
			double rate, bound;
			for (size_t s = 0; s < SWEEPS; s++) {
				struct selection sel;
				struct noise nz;
				null_sweep(r, n, cvs[c], &sel);
				assert_int_equal(noise_compute(&sel, &o, &nz), 0);
				resolved += nz.nresolved;
				steps += nz.nsteps;
				noise_release(&nz);
				selection_release(&sel);
			}
			rate = (double)resolved / (double)steps;
			bound = ALPHA + 3 * se_of(ALPHA, (double)steps);
			printf("null sweeps n=%zu cv=%.0f%%: %zu of %zu steps resolved, %.4f "
			       "(bound %.4f)\n",
			       n, cvs[c] * 100, resolved, steps, rate, bound);
			if (rate > bound)
				fail_msg("sweeps n=%zu cv=%g: resolved %.4f above %.4f", n, cvs[c],
					 rate, bound);
		}
	}
	gsl_rng_free(r);
}

/*
 * tests/sim_check.py power 20000 2: the share of real verdicts in the
 * effect's direction for a true effect, per cv (5%, 10%), effect (5, 10,
 * 20%) and n (3, 5, 10).
 */
static const double python_power[2][3][3] = {
	{{0.1086, 0.2552, 0.5314}, {0.3335, 0.7260, 0.9790}, {0.8265, 0.9980, 1.0000}},
	{{0.0485, 0.0943, 0.1756}, {0.1090, 0.2511, 0.5252}, {0.3149, 0.6851, 0.9708}},
};
#define PYTHON_POWER_TRIALS 20000.0

static void test_power(void **state)
{
	static const double pcvs[] = {0.05, 0.10}, effects[] = {0.05, 0.10, 0.20};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct verdict_options o;
	double a[MAXN], b[MAXN];
	(void)state;
	gsl_rng_set(r, SIM_SEED + 3);
	verdict_options_init(&o);
	for (size_t c = 0; c < 2; c++)
		for (size_t e = 0; e < 3; e++)
			for (size_t i = 0; i < 3; i++) {
				size_t n = sizes[i], real = 0;
				double rate, ref = python_power[c][e][i], tol;
				for (size_t t = 0; t < TRIALS; t++) {
					struct verdict v;
					lognormal(r, 100, pcvs[c], n, a);
					lognormal(r, 100 * (1 + effects[e]), pcvs[c], n, b);
					assert_int_equal(verdict_two_samples(a, n, b, n, &o, &v), 0);
					real += verdict_real(&v) && v.direction > 0;
				}
				rate = (double)real / TRIALS;
				tol = 4 * sqrt(se_of(ref, TRIALS) * se_of(ref, TRIALS) +
					       se_of(ref, PYTHON_POWER_TRIALS) *
						       se_of(ref, PYTHON_POWER_TRIALS)) +
				      1e-3;
				printf("power cv=%.0f%% effect=%.0f%% n=%zu: %.4f (python %.4f)\n",
				       pcvs[c] * 100, effects[e] * 100, n, rate, ref);
				if (fabs(rate - ref) > tol)
					fail_msg("power cv %g effect %g n %zu: %.4f, python %.4f", pcvs[c],
						 effects[e], n, rate, ref);
			}
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_ab),
		cmocka_unit_test(test_null_paired),
		cmocka_unit_test(test_null_sweeps),
		cmocka_unit_test(test_power),
	};
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
