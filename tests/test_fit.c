/*
 * Unit tests for analysis/fit: USL, Amdahl and power-law fits, and the
 * document build_fit makes of them (reports/builders.h).
 *
 * Expected values come from outside the code under test:
 *
 *  - SPEC SDM91 (fixtures/usl/specsdm91.tsv, shared/reference/usl-reference.md):
 *    the published fit of the R package `usl` (lambda 89.9952330 SE
 *    14.2134894, sigma 0.0277285 SE 0.0091217, kappa 0.0001044 SE
 *    0.0000199, residual SE 82.85 on 4 dof, N* 96.51956, X(N*) ~1884,
 *    Amdahl limit 3245.589, fitted values and residuals).
 *  - The exact least-squares optima of the USL, Amdahl and power models on
 *    SDM91 and on the GOMAXPROCS sweep, from a damped Gauss-Newton written
 *    for this test in python3 with mpmath at 50 significant digits (the
 *    script is reproduced at the end of this comment); the SEs there are
 *    sqrt(diag((J^T J)^-1) * SSE / (n - p)) with the analytic Jacobian.
 *  - Checks computed in this file from the data and the reported
 *    parameters only: the SSE, the gradient J^T r of SSE / 2 (about 0 at a
 *    free optimum; pointing into the feasible region for a parameter at a
 *    bound, the KKT condition), and the SEs re-derived from an analytic
 *    Jacobian written here and a hand-coded inverse of J^T J.
 *  - A closed form: superlinear data put sigma and kappa both at 0, where
 *    the USL is X = lambda N and lambda = sum(N X) / sum(N^2).
 *
 * Tolerances. The published figures are compared at their printed
 * precision (half a unit of the last printed digit) widened, for lambda
 * and its SE only, by what double precision can determine: along the USL's
 * lambda-sigma-kappa valley SSE changes by less than its own rounding
 * (27453.7196 x 2^-52 ~ 6e-12) over ~1e-9 relative change of lambda, so no
 * double-precision fit pins lambda's 7th decimal. (The published lambda
 * is itself 1.04e-7 from the exact optimum 89.99523310433; coreplan's
 * reproduced one is 89.9952332259, whose SSE equals the exact minimum to
 * 17 digits.) The exact optima are compared at 1e-8 relative.
 *
 * The GOMAXPROCS sweep: SHARED_CORPORA/sky/gomaxprocs-scaling-20260816/
 * results.tsv, blocks 1-3, gomaxprocs 1, 2, 4, 8, column tput (copied
 * below). Its unconstrained USL optimum has sigma = -0.02205 (outside
 * [0, 1]), so the bounded fit has sigma at 0 and lambda, kappa refitted:
 * exact lambda 467.29343759426695 (SE 5.1030009558325346), kappa
 * 0.019133338346611097 (SE 0.00054969463123021434), residual SE
 * 25.122975707215964 on 12 - 2 = 10 dof; d(SSE/2)/dsigma = +56875 there.
 *
 * mpmath script (usl/amdahl/power with gn(f, grad, start, N, X)):
 *   def usl(t, n): return t[0]*n/(1+t[1]*(n-1)+t[2]*n*(n-1))
 *   def gn(f, g, th, N, X):       # damped Gauss-Newton, 50 digits
 *       for it in range(200):
 *           J = mp.matrix([g(th, n) for n in N])
 *           r = mp.matrix([x - f(th, n) for n, x in zip(N, X)])
 *           step = mp.lu_solve(J.T*J, J.T*r)  # halved until SSE falls
 *           ...
 *       C = mp.inverse(J.T*J); se = [sqrt(C[i,i]*sse/(n-p))]
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/fit.h"
#include "common/err.h"
#include "doc/doc.h"
#include "reports/builders.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_REL 1e-8

static const double sdm_n[] = {1, 18, 36, 72, 108, 144, 216};
static const double sdm_x[] = {64.9, 995.9, 1652.4, 1853.2, 1828.9, 1775.0, 1702.2};

/* results.tsv blocks 1-3, in file order: gomaxprocs, tput */
static const double gmp_n[] = {1, 2, 4, 8, 8, 4, 2, 1, 2, 8, 1, 4};
static const double gmp_x[] = {
	475.2284019761499, 853.212014958686,   1534.0434497238257, 1796.1987044774646,
	1792.770784680148, 1538.8011664466776, 881.2907259769522,  485.26070274273076,
	865.4682448787189, 1808.6222662524697, 484.13466860190584, 1553.4903348492956,
};

static int clear_messages(void **state)
{
	(void)state;
	err_clear();
	return 0;
}

/* |actual - printed| <= half a unit of the last printed decimal (+ slack) */
static void check_printed(double actual, double printed, int decimals, double slack,
			  const char *what)
{
	double tol = 0.5 * pow(10, -decimals) + slack;
	if (!(fabs(actual - printed) <= tol))
		fail_msg("%s: got %.17g, published %.*f (|diff| %.3g > %.3g)", what, actual,
			 decimals, printed, fabs(actual - printed), tol);
}

static const struct fit_param *param(const struct fit_result *r, const char *name)
{
	for (size_t j = 0; j < r->nparams; j++)
		if (!strcmp(r->params[j].name, name))
			return &r->params[j];
	fail_msg("no parameter '%s' in the %s fit", name, r->model_name);
	return NULL;
}

/* The fit of MODEL to the 7 SPEC SDM91 points: named NAME, NPARAMS parameters and DOF dof. */
static void fit_sdm(enum fit_model model, const char *name, size_t nparams, size_t dof,
		    struct fit_result *r)
{
	assert_int_equal(fit_scaling(model, sdm_n, sdm_x, 7, r), 0);
	assert_string_equal(r->model_name, name);
	assert_int_equal(r->nparams, nparams);
	assert_int_equal(r->dof, dof);
}

/* R's parameter NAME: its value and SE as the reference gives them (EXACT_REL). */
static void check_param(const struct fit_result *r, const char *name, double value, double se)
{
	char what[64];
	check_close(param(r, name)->value, value, EXACT_REL, name);
	snprintf(what, sizeof(what), "%s SE", name);
	check_close(param(r, name)->se, se, EXACT_REL, what);
}

/* ------------------------------------------------- independent model code */

/* The full parameter vector (lambda, sigma, kappa) or (a, b), kappa 0 for amdahl. */
static void theta_of(const struct fit_result *r, double th[3])
{
	th[0] = r->params[0].value;
	th[1] = r->params[1].value;
	th[2] = r->model == FIT_USL ? r->params[2].value : 0.0;
}

static double my_model(enum fit_model m, const double th[3], double n)
{
	if (m == FIT_POWER)
		return th[0] * pow(n, th[1]);
	return th[0] * n / (1.0 + th[1] * (n - 1.0) + th[2] * n * (n - 1.0));
}

/* d model / d theta_j, written out for this test. */
static void my_grad(enum fit_model m, const double th[3], double n, double d[3])
{
	if (m == FIT_POWER) {
		d[0] = pow(n, th[1]);
		d[1] = th[0] * pow(n, th[1]) * log(n);
		d[2] = 0;
		return;
	}
	double den = 1.0 + th[1] * (n - 1.0) + th[2] * n * (n - 1.0);
	d[0] = n / den;
	d[1] = -th[0] * n * (n - 1.0) / (den * den);
	d[2] = -th[0] * n * n * (n - 1.0) / (den * den);
}

static double my_sse(enum fit_model m, const double th[3], const double *n, const double *x,
		     size_t len)
{
	double s = 0;
	for (size_t i = 0; i < len; i++) {
		double r = x[i] - my_model(m, th, n[i]);
		s += r * r;
	}
	return s;
}

/* g_j = sum_i (model_i - x_i) d model_i / d theta_j = (1/2) d SSE / d theta_j */
static void my_half_gradient(enum fit_model m, const double th[3], const double *n, const double *x,
			     size_t len, double g[3])
{
	g[0] = g[1] = g[2] = 0;
	for (size_t i = 0; i < len; i++) {
		double d[3], r = my_model(m, th, n[i]) - x[i];
		my_grad(m, th, n[i], d);
		for (int j = 0; j < 3; j++)
			g[j] += r * d[j];
	}
}

/*
 * SEs of the free parameters free_idx[0..k-1]: sqrt(diag((J^T J)^-1) *
 * SSE / (n - k)). The columns are scaled by the parameter values first
 * (J_ij theta_j) so the 3x3 inverse by cofactors is well conditioned.
 */
static void my_se(enum fit_model m, const double th[3], const double *n, const double *x,
		  size_t len, const int *free_idx, int k, double *se)
{
	double A[3][3] = {{0}}, inv[3][3], scale[3];
	for (int a = 0; a < k; a++)
		scale[a] = th[free_idx[a]] != 0 ? fabs(th[free_idx[a]]) : 1.0;
	for (size_t i = 0; i < len; i++) {
		double d[3];
		my_grad(m, th, n[i], d);
		for (int a = 0; a < k; a++)
			for (int b = 0; b < k; b++)
				A[a][b] += d[free_idx[a]] * scale[a] * d[free_idx[b]] * scale[b];
	}
	if (k == 1) {
		inv[0][0] = 1.0 / A[0][0];
	} else if (k == 2) {
		double det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
		inv[0][0] = A[1][1] / det;
		inv[1][1] = A[0][0] / det;
	} else {
		double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
			     A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
			     A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
		inv[0][0] = (A[1][1] * A[2][2] - A[1][2] * A[2][1]) / det;
		inv[1][1] = (A[0][0] * A[2][2] - A[0][2] * A[2][0]) / det;
		inv[2][2] = (A[0][0] * A[1][1] - A[0][1] * A[1][0]) / det;
	}
	double s2 = my_sse(m, th, n, x, len) / (double)(len - (size_t)k);
	for (int a = 0; a < k; a++)
		se[a] = sqrt(inv[a][a] * s2) * scale[a];
}

/*
 * The checks every converged fit must pass against this file's own
 * arithmetic: SSE, residual SE, R^2, fitted values and residuals, the
 * gradient ~0 in the free parameters, and the SEs re-derived.
 */
static void check_self_consistent(const struct fit_result *r, const double *n, const double *x,
				  size_t len)
{
	double th[3], g[3], se[3], sse, mean = 0, sst = 0;
	int free_idx[3], k = 0;
	theta_of(r, th);
	sse = my_sse(r->model, th, n, x, len);
	check_close(r->sse, sse, 1e-9, "sse recomputed from the parameters");
	check_close(r->residual_se, sqrt(sse / (double)r->dof), 1e-9,
		    "residual_se = sqrt(sse/dof)");
	for (size_t i = 0; i < len; i++)
		mean += x[i] / (double)len;
	for (size_t i = 0; i < len; i++)
		sst += (x[i] - mean) * (x[i] - mean);
	check_close(r->r2, 1.0 - sse / sst, 1e-9, "r2 = 1 - sse/sst");
	for (size_t i = 0; i < len; i++) {
		double f = my_model(r->model, th, n[i]);
		check_close(r->fitted[i], f, 1e-12, "fitted value");
		assert_true(fabs(r->residuals[i] - (x[i] - f)) <= 1e-9 * fabs(x[i]));
		check_close(fit_predict(r, n[i]), r->fitted[i], 1e-12, "fit_predict at a level");
	}
	for (size_t j = 0; j < r->nparams; j++)
		if (!r->params[j].at_bound)
			free_idx[k++] = (int)j;
	assert_int_equal(r->dof, len - (size_t)k);
	my_half_gradient(r->model, th, n, x, len, g);
	for (int a = 0; a < k; a++) {
		int j = free_idx[a];
		double rel = fabs(g[j]) * (th[j] != 0 ? fabs(th[j]) : 1.0) / sse;
		if (!(rel <= 1e-6))
			fail_msg("%s %s: |dSSE/dtheta| * |theta| / SSE = %g, not ~0 (gradient %g)",
				 r->model_name, r->params[j].name, rel, g[j]);
	}
	my_se(r->model, th, n, x, len, free_idx, k, se);
	for (int a = 0; a < k; a++) {
		char what[64];
		snprintf(what, sizeof(what), "%s %s SE re-derived", r->model_name,
			 r->params[free_idx[a]].name);
		check_close(r->params[free_idx[a]].se, se[a], 1e-6, what);
	}
}

/* --------------------------------------------------------- SPEC SDM91 */

static void usl_specsdm91_published(void **state)
{
	static const double fitted[] = {90, 1078, 1541, 1850, 1879, 1822, 1646};
	static const double resid[] = {-25.10, -81.66, 111.09, 3.05, -49.99, -46.60, 56.00};
	struct fit_result r;
	(void)state;
	assert_int_equal(fit_scaling(FIT_USL, sdm_n, sdm_x, 7, &r), 0);
	assert_string_equal(r.model_name, "usl");
	assert_int_equal(r.nparams, 3);
	assert_int_equal(r.n, 7);
	assert_int_equal(r.nlevels, 7);
	assert_int_equal(r.dof, 4);
	assert_string_equal(r.params[0].name, "lambda");
	assert_string_equal(r.params[1].name, "sigma");
	assert_string_equal(r.params[2].name, "kappa");
	for (int j = 0; j < 3; j++)
		assert_false(r.params[j].at_bound);
	/* lambda: widened by 1e-8 relative (see the top comment) */
	check_printed(r.params[0].value, 89.9952330, 7, 1e-8 * 90, "lambda");
	check_printed(r.params[0].se, 14.2134894, 7, 1e-8 * 14.2, "lambda SE");
	check_printed(r.params[1].value, 0.0277285, 7, 0, "sigma");
	check_printed(r.params[1].se, 0.0091217, 7, 0, "sigma SE");
	check_printed(r.params[2].value, 0.0001044, 7, 0, "kappa");
	check_printed(r.params[2].se, 0.0000199, 7, 0, "kappa SE");
	check_printed(r.residual_se, 82.85, 2, 0, "residual standard error");
	check_printed(r.peak_n, 96.51956, 5, 0, "peak N*");
	check_printed(r.peak_x, 1884, 0, 0, "X(N*)");
	check_printed(r.amdahl_ceiling, 3245.589, 3, 0, "Amdahl limit");
	for (size_t i = 0; i < 7; i++) {
		check_printed(r.fitted[i], fitted[i], 0, 0, "fitted value");
		check_printed(r.residuals[i], resid[i], 2, 0, "residual");
	}
	/* the derived figures follow from the reported parameters */
	check_close(r.peak_n, sqrt((1 - r.params[1].value) / r.params[2].value), 1e-12, "N*");
	check_close(r.peak_x, fit_predict(&r, r.peak_n), 1e-12, "X(N*)");
	check_close(r.amdahl_ceiling, r.params[0].value / r.params[1].value, 1e-12, "lambda/sigma");
	fit_release(&r);
}

static void usl_specsdm91_exact(void **state)
{
	struct fit_result r;
	(void)state;
	assert_int_equal(fit_scaling(FIT_USL, sdm_n, sdm_x, 7, &r), 0);
	check_param(&r, "lambda", 89.99523310433222, 14.213489422585051);
	check_param(&r, "sigma", 0.027728475618634389, 0.0091217318082153985);
	check_param(&r, "kappa", 0.00010436548384409088, 1.9875270907268455e-5);
	check_close(r.sse, 27453.719584037402, 1e-12, "SSE");
	check_close(r.residual_se, 82.845820027381892, 1e-12, "residual SE");
	check_close(r.peak_n, 96.519560966609425, EXACT_REL, "N*");
	check_close(r.peak_x, 1883.8989960099626, EXACT_REL, "X(N*)");
	check_close(r.amdahl_ceiling, 3245.5889152396338, EXACT_REL, "lambda / sigma");
	assert_true(isnan(r.per_doubling));
	check_self_consistent(&r, sdm_n, sdm_x, 7);
	fit_release(&r);
}

/*
 * If the SEs were not scaled by SSE / (n - p) (GSL's covariance is
 * unscaled) they would be sqrt(4 / SSE) = 1/82.85 of these; with n instead
 * of n - p, sqrt(4/7) of these. The published SEs rule out both.
 */
static void usl_se_scaling(void **state)
{
	struct fit_result r;
	double s = sqrt(27453.719584037402 / 4.0);
	(void)state;
	assert_int_equal(fit_scaling(FIT_USL, sdm_n, sdm_x, 7, &r), 0);
	check_close(r.params[1].se, 0.0091217318082153985, 1e-6, "sigma SE");
	assert_true(fabs(r.params[1].se - 0.0091217318082153985 / s) > 1e-3);
	assert_true(fabs(r.params[1].se - 0.0091217318082153985 * sqrt(4.0 / 7.0)) > 1e-4);
	fit_release(&r);
}

static void amdahl_specsdm91(void **state)
{
	struct fit_result r;
	(void)state;
	fit_sdm(FIT_AMDAHL, "amdahl", 2, 5, &r);
	check_param(&r, "lambda", 146.21055173856106, 43.427927296563795);
	check_param(&r, "sigma", 0.073648162611030459, 0.025652276044518592);
	check_close(r.sse, 131265.38903619417, 1e-10, "SSE");
	check_close(r.residual_se, 162.02801550114361, 1e-10, "residual SE");
	check_close(r.amdahl_ceiling, 1985.2572902703042, EXACT_REL, "lambda / sigma");
	assert_true(isinf(r.peak_n)); /* no peak without kappa */
	assert_false(param(&r, "lambda")->at_bound);
	assert_false(param(&r, "sigma")->at_bound);
	check_self_consistent(&r, sdm_n, sdm_x, 7);
	fit_release(&r);
}

static void power_specsdm91(void **state)
{
	struct fit_result r;
	(void)state;
	fit_sdm(FIT_POWER, "power", 2, 5, &r);
	check_param(&r, "a", 512.23581710379071, 215.80636944046106);
	check_param(&r, "b", 0.25766391052643693, 0.090847607377118764);
	check_close(r.residual_se, 338.33259966218459, 1e-10, "residual SE");
	check_close(r.per_doubling, 1.1955412516749559, EXACT_REL, "per doubling 2^b");
	check_close(r.per_doubling_se, 0.075284144713210269, 1e-7, "per doubling SE");
	check_close(r.per_doubling, pow(2, r.params[1].value), 1e-12, "per doubling = 2^b");
	/* delta method: d 2^b / db = 2^b ln 2 */
	check_close(r.per_doubling_se, r.per_doubling * log(2) * r.params[1].se, 1e-12,
		    "per doubling SE = 2^b ln2 SE(b)");
	check_self_consistent(&r, sdm_n, sdm_x, 7);
	fit_release(&r);
}

/* ------------------------------------------------------------- bounds */

static void usl_gomaxprocs_sigma_at_bound(void **state)
{
	struct fit_result r;
	double th[3], g[3];
	(void)state;
	assert_int_equal(ARRAY_LEN(gmp_n), 12);
	assert_int_equal(fit_scaling(FIT_USL, gmp_n, gmp_x, 12, &r), 0);
	assert_int_equal(r.n, 12);
	assert_int_equal(r.nlevels, 4);
	assert_true(param(&r, "sigma")->at_bound);
	assert_true(param(&r, "sigma")->value == 0.0);
	assert_true(isnan(param(&r, "sigma")->se));
	assert_false(param(&r, "lambda")->at_bound);
	assert_false(param(&r, "kappa")->at_bound);
	assert_int_equal(r.dof, 12 - 2);
	check_close(param(&r, "lambda")->value, 467.29343759426695, EXACT_REL, "lambda");
	check_close(param(&r, "kappa")->value, 0.019133338346611097, EXACT_REL, "kappa");
	check_close(param(&r, "lambda")->se, 5.1030009558325346, EXACT_REL, "lambda SE (dof 10)");
	check_close(param(&r, "kappa")->se, 0.00054969463123021434, EXACT_REL, "kappa SE (dof 10)");
	check_close(r.sse, 6311.6390838536346, 1e-10, "SSE");
	check_close(r.residual_se, 25.122975707215964, 1e-10, "residual SE on 10 dof");
	assert_true(isinf(r.amdahl_ceiling)); /* lambda / 0 */
	check_close(r.peak_n, 7.2294394435566224, EXACT_REL, "N* = sqrt(1 / kappa)");
	check_close(r.peak_x, 1814.6381857241813, EXACT_REL, "X(N*)");
	/* KKT: raising sigma from 0 raises SSE; lambda and kappa are stationary */
	theta_of(&r, th);
	my_half_gradient(FIT_USL, th, gmp_n, gmp_x, 12, g);
	if (!(g[1] > 0))
		fail_msg("d(SSE/2)/dsigma at sigma = 0 is %g: the bound is not active", g[1]);
	check_close(g[1], 56875.171, 1e-4, "d(SSE/2)/dsigma at the bound");
	check_self_consistent(&r, gmp_n, gmp_x, 12);
	fit_release(&r);
}

/* Superlinear data: sigma and kappa both at 0, X = lambda N, closed form. */
static void usl_superlinear_both_at_bound(void **state)
{
	static const double n[] = {1, 2, 3, 4, 6, 8};
	double x[6], snx = 0, snn = 0, lambda, sse = 0;
	struct fit_result r;
	(void)state;
	for (size_t i = 0; i < 6; i++) {
		x[i] = 100 * pow(n[i], 1.2);
		snx += n[i] * x[i];
		snn += n[i] * n[i];
	}
	lambda = snx / snn; /* 143.41480432719137 */
	for (size_t i = 0; i < 6; i++)
		sse += (x[i] - lambda * n[i]) * (x[i] - lambda * n[i]);
	assert_int_equal(fit_scaling(FIT_USL, n, x, 6, &r), 0);
	assert_true(param(&r, "sigma")->at_bound);
	assert_true(param(&r, "kappa")->at_bound);
	assert_true(param(&r, "sigma")->value == 0.0);
	assert_true(param(&r, "kappa")->value == 0.0);
	assert_true(isnan(param(&r, "sigma")->se));
	assert_true(isnan(param(&r, "kappa")->se));
	assert_false(param(&r, "lambda")->at_bound);
	assert_int_equal(r.dof, 6 - 1);
	check_close(param(&r, "lambda")->value, lambda, 1e-10, "lambda = sum(NX)/sum(N^2)");
	check_close(param(&r, "lambda")->value, 143.41480432719137, 1e-10, "lambda (mpmath)");
	/* SE of a one-parameter linear fit: sqrt(SSE / (n - 1) / sum N^2) */
	check_close(param(&r, "lambda")->se, sqrt(sse / 5.0 / snn), 1e-8, "lambda SE");
	check_close(param(&r, "lambda")->se, 4.7561787661177621, 1e-8, "lambda SE (mpmath)");
	check_close(r.residual_se, 54.228781465058129, 1e-9, "residual SE on 5 dof");
	assert_true(isinf(r.peak_n));
	assert_true(isinf(r.amdahl_ceiling));
	check_self_consistent(&r, n, x, 6);
	fit_release(&r);
}

/* Amdahl on the sweep: sigma inside (0, 1), nothing at a bound. */
static void amdahl_gomaxprocs_inside(void **state)
{
	struct fit_result r;
	(void)state;
	assert_int_equal(fit_scaling(FIT_AMDAHL, gmp_n, gmp_x, 12, &r), 0);
	assert_false(param(&r, "sigma")->at_bound);
	assert_int_equal(r.dof, 10);
	check_close(param(&r, "lambda")->value, 551.55932891072825, EXACT_REL, "lambda");
	check_close(param(&r, "sigma")->value, 0.19539978144510195, EXACT_REL, "sigma");
	check_close(r.sse, 105983.16576773649, 1e-10, "SSE");
	check_self_consistent(&r, gmp_n, gmp_x, 12);
	fit_release(&r);
}

/* The power law on the sweep, all levels and 1, 2, 4 only (what size uses). */
static void power_gomaxprocs(void **state)
{
	double n3[9], x3[9];
	size_t k = 0;
	struct fit_result r;
	(void)state;
	assert_int_equal(fit_scaling(FIT_POWER, gmp_n, gmp_x, 12, &r), 0);
	check_param(&r, "a", 617.09696328937571, 61.560874017673222);
	check_param(&r, "b", 0.54131248407746642, 0.057932097502443405);
	check_close(r.per_doubling, 1.455295862883483, EXACT_REL, "per doubling");
	check_self_consistent(&r, gmp_n, gmp_x, 12);
	fit_release(&r);
	for (size_t i = 0; i < 12; i++)
		if (gmp_n[i] <= 4) {
			n3[k] = gmp_n[i];
			x3[k++] = gmp_x[i];
		}
	assert_int_equal(k, 9);
	assert_int_equal(fit_scaling(FIT_POWER, n3, x3, 9, &r), 0);
	check_close(param(&r, "a")->value, 483.88243933640832, EXACT_REL, "a (1,2,4)");
	check_close(param(&r, "b")->value, 0.83643274885208485, EXACT_REL, "b (1,2,4)");
	check_close(param(&r, "a")->se, 4.3809294589432363, EXACT_REL, "a SE (1,2,4)");
	check_close(param(&r, "b")->se, 0.0074730147883190776, EXACT_REL, "b SE (1,2,4)");
	check_close(r.per_doubling, 1.7856294776244486, EXACT_REL, "per doubling (1,2,4)");
	check_close(r.per_doubling_se, 0.0092493805790887125, 1e-7, "per doubling SE (1,2,4)");
	check_self_consistent(&r, n3, x3, 9);
	fit_release(&r);
}

/* ------------------------------------------------------------ refusals */

static void expect_refusal(enum fit_model m, const double *n, const double *x, size_t len,
			   const char *part)
{
	struct fit_result r;
	err_clear();
	int rc = fit_scaling(m, n, x, len, &r);
	if (rc >= 0)
		fail_msg("%s fit of %zu points accepted, expected a refusal naming '%s'",
			 fit_model_name(m), len, part);
	check_contains(err_msg(), part, "refusal message");
	assert_null(r.fitted);
	assert_null(r.residuals);
	fit_release(&r); /* safe after a refusal */
}

static void too_few_levels(void **state)
{
	static const double n2[] = {1, 1, 2, 2, 2};
	static const double x2[] = {100, 101, 190, 191, 189};
	static const double n1[] = {4, 4, 4};
	static const double x1[] = {400, 410, 405};
	static const double n3[] = {1, 2, 4};
	static const double x3[] = {100, 190, 350};
	(void)state;
	/* usl: 3 parameters, 2 distinct levels (5 points) */
	expect_refusal(FIT_USL, n2, x2, 5, "usl model has 3 parameters");
	expect_refusal(FIT_USL, n2, x2, 5, "needs at least 3 distinct levels");
	expect_refusal(FIT_USL, n2, x2, 5, "got 2 levels and 5 points");
	/* power: 2 parameters, 1 level */
	expect_refusal(FIT_POWER, n1, x1, 3, "power model has 2 parameters");
	expect_refusal(FIT_POWER, n1, x1, 3, "got 1 levels and 3 points");
	/* amdahl: 2 parameters, 1 level */
	expect_refusal(FIT_AMDAHL, n1, x1, 3, "amdahl model has 2 parameters");
	/* usl: 3 levels but only 3 points (needs one more) */
	expect_refusal(FIT_USL, n3, x3, 3, "4 points");
	/* nothing at all */
	expect_refusal(FIT_POWER, n3, x3, 0, "got 0 levels and 0 points");
}

static void bad_values(void **state)
{
	double n[] = {1, 2, 4, 8, 16};
	double x[] = {100, 190, 350, 600, 900};
	(void)state;
	n[1] = 0;
	expect_refusal(FIT_USL, n, x, 5, "point 2 (level 0");
	expect_refusal(FIT_USL, n, x, 5, "levels must be above 0");
	n[1] = -2;
	expect_refusal(FIT_AMDAHL, n, x, 5, "point 2 (level -2");
	n[1] = 2;
	n[4] = INFINITY;
	expect_refusal(FIT_USL, n, x, 5, "point 5 (level inf");
	n[4] = 16;
	x[3] = NAN;
	expect_refusal(FIT_USL, n, x, 5, "point 4 (level 8, value nan)");
	expect_refusal(FIT_POWER, n, x, 5, "values finite");
	x[3] = INFINITY;
	expect_refusal(FIT_AMDAHL, n, x, 5, "point 4");
	x[3] = -INFINITY;
	expect_refusal(FIT_USL, n, x, 5, "point 4");
	x[3] = 600;
	/* the power law takes logs: values must be above 0 */
	x[0] = 0;
	expect_refusal(FIT_POWER, n, x, 5, "and above 0");
	x[0] = -5;
	expect_refusal(FIT_POWER, n, x, 5, "point 1");
}

/* ---------------------------------------------------------- fit_predict */

static void predict(void **state)
{
	struct fit_result r;
	double l, s, k;
	(void)state;
	assert_int_equal(fit_scaling(FIT_USL, sdm_n, sdm_x, 7, &r), 0);
	l = r.params[0].value;
	s = r.params[1].value;
	k = r.params[2].value;
	check_close(fit_predict(&r, 50), l * 50 / (1 + s * 49 + k * 50 * 49), 1e-14, "usl X(50)");
	check_close(fit_predict(&r, 1), l, 1e-14, "usl X(1) = lambda");
	check_close(fit_predict(&r, 0.5), l * 0.5 / (1 - s * 0.5 - k * 0.25), 1e-14, "usl X(0.5)");
	/* retrograde past the peak */
	assert_true(fit_predict(&r, 400) < fit_predict(&r, r.peak_n));
	assert_true(fit_predict(&r, 50) < fit_predict(&r, r.peak_n));
	fit_release(&r);

	assert_int_equal(fit_scaling(FIT_AMDAHL, sdm_n, sdm_x, 7, &r), 0);
	l = r.params[0].value;
	s = r.params[1].value;
	check_close(fit_predict(&r, 300), l * 300 / (1 + s * 299), 1e-14, "amdahl X(300)");
	/* tends to the ceiling */
	check_close(fit_predict(&r, 1e12), r.amdahl_ceiling, 1e-9, "amdahl X(inf) = lambda/sigma");
	fit_release(&r);

	assert_int_equal(fit_scaling(FIT_POWER, sdm_n, sdm_x, 7, &r), 0);
	check_close(fit_predict(&r, 10), r.params[0].value * pow(10, r.params[1].value), 1e-14,
		    "power X(10)");
	check_close(fit_predict(&r, 64) / fit_predict(&r, 32), r.per_doubling, 1e-12,
		    "power: one doubling multiplies by 2^b");
	fit_release(&r);

	/* the bounded fit predicts with sigma = 0 */
	assert_int_equal(fit_scaling(FIT_USL, gmp_n, gmp_x, 12, &r), 0);
	l = r.params[0].value;
	k = r.params[2].value;
	check_close(fit_predict(&r, 16), l * 16 / (1 + k * 16 * 15), 1e-14, "usl X(16), sigma 0");
	check_close(fit_predict(&r, 16), 467.29343759426695 * 16 / (1 + 0.019133338346611097 * 240),
		    1e-8, "usl X(16) from the exact optimum");
	fit_release(&r);
}

static void model_names(void **state)
{
	static const struct {
		enum fit_model model;
		const char *name;
	} names[] = {{FIT_USL, "usl"}, {FIT_AMDAHL, "amdahl"}, {FIT_POWER, "power"}};
	enum fit_model m;
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		assert_string_equal(fit_model_name(names[i].model), names[i].name);
		assert_int_equal(fit_model_parse(names[i].name, &m), 0);
		assert_int_equal(m, names[i].model);
	}
	assert_true(fit_model_parse("USL", &m) < 0);
	assert_true(fit_model_parse("all", &m) < 0);
	assert_true(fit_model_parse("", &m) < 0);
}

/* The order of the points does not change the fit. */
static void order_invariant(void **state)
{
	double n[7], x[7];
	struct fit_result a, b;
	(void)state;
	for (size_t i = 0; i < 7; i++) {
		n[i] = sdm_n[6 - i];
		x[i] = sdm_x[6 - i];
	}
	assert_int_equal(fit_scaling(FIT_USL, sdm_n, sdm_x, 7, &a), 0);
	assert_int_equal(fit_scaling(FIT_USL, n, x, 7, &b), 0);
	for (size_t j = 0; j < 3; j++)
		check_close(b.params[j].value, a.params[j].value, EXACT_REL, "parameter, reversed");
	check_close(b.fitted[0], a.fitted[6], 1e-8, "fitted, reversed");
	fit_release(&a);
	fit_release(&b);
}

/* ------------------------------------------------------------ document */

static double fact(const struct doc *d, const char *name)
{
	if (!doc_fact_shown(d, name))
		fail_msg("no fact %s", name);
	return doc_fact_number(d, name);
}

static double summary_cell(const struct doc *d, size_t row, const char *col)
{
	const struct doc_table *t = doc_section_table(doc_find_section(d, "summary"));
	int c = doc_table_find(t, col);
	assert_true(c >= 0);
	return doc_cell_number(t, row, (size_t)c);
}

/*
 * build_fit on SDM91: every summary figure a fact equal to its cell; the
 * published figures through the facts; a model that was not fitted has
 * its reason as a note and a fact, and no figures.
 */
static void fit_document(void **state)
{
	struct fit_request req;
	struct fit_run_result res;
	struct doc *d = NULL;
	const struct doc_table *t;
	double level[7], x[7];
	(void)state;
	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.by = "load";
	req.metric = "throughput";
	memcpy(level, sdm_n, sizeof(level));
	memcpy(x, sdm_x, sizeof(x));
	res.level = level;
	res.x = x;
	res.n = 7;
	for (int m = 0; m < FIT_NMODELS; m++) {
		req.models[m] = res.asked[m] = true;
		if (m == FIT_AMDAHL) {
			snprintf(res.error[m], sizeof(res.error[m]), "%s",
				 "the amdahl fit refused");
			continue;
		}
		assert_int_equal(fit_scaling((enum fit_model)m, sdm_n, sdm_x, 7, &res.fits[m]), 0);
		res.ok[m] = true;
	}
	assert_int_equal(build_fit(&req, &res, &d), 0);
	assert_string_equal(doc_title(d), "Scaling models of throughput by load");
	/* Markdown order: summary, params, points */
	assert_int_equal(doc_section_count(d), 3);
	assert_string_equal(doc_section_name(doc_section_at(d, 0)), "summary");
	assert_string_equal(doc_section_name(doc_section_at(d, 1)), "params");
	assert_string_equal(doc_section_name(doc_section_at(d, 2)), "points");
	assert_string_equal(doc_fact_string(d, "models"), "usl,amdahl,power");
	check_close(fact(d, "runs"), 7, 0, "runs");
	/* the published USL summary (see the top of this file) */
	check_printed(fact(d, "usl_residual_se"), 82.85, 2, 0, "usl_residual_se");
	check_printed(fact(d, "usl_peak_n"), 96.51956, 5, 0, "usl_peak_n");
	check_printed(fact(d, "usl_peak_x"), 1884, 0, 0, "usl_peak_x");
	check_printed(fact(d, "usl_amdahl_ceiling"), 3245.589, 3, 0, "usl_amdahl_ceiling");
	check_close(fact(d, "usl_dof"), 4, 0, "usl_dof");
	check_close(fact(d, "usl_r2"), res.fits[FIT_USL].r2, 0, "usl_r2");
	check_close(fact(d, "power_per_doubling"), pow(2, res.fits[FIT_POWER].params[1].value),
		    1e-14, "power_per_doubling = 2^b");
	check_close(fact(d, "power_per_doubling_se"), res.fits[FIT_POWER].per_doubling_se, 0,
		    "power_per_doubling_se");
	/* the summary rows (usl, amdahl, power) hold the same numbers as the facts */
	check_close(summary_cell(d, 0, "peak_n"), fact(d, "usl_peak_n"), 0, "peak_n cell");
	check_close(summary_cell(d, 0, "residual_se"), fact(d, "usl_residual_se"), 0, "se cell");
	check_close(summary_cell(d, 2, "per_doubling"), fact(d, "power_per_doubling"), 0,
		    "pd cell");
	/* amdahl not fitted: a note and a fact, no figure */
	t = doc_section_table(doc_find_section(d, "summary"));
	assert_string_equal(doc_cell_text(t, 1, (size_t)doc_table_find(t, "note")),
			    "not fitted: the amdahl fit refused");
	assert_string_equal(doc_fact_string(d, "amdahl_error"), "the amdahl fit refused");
	assert_null(doc_fact_shown(d, "amdahl_r2"));
	assert_true(isnan(summary_cell(d, 1, "r2")));
	/* params: usl 3 + power 2; points: every point, the amdahl column missing */
	t = doc_section_table(doc_find_section(d, "params"));
	assert_int_equal(doc_table_rows(t), 5);
	t = doc_section_table(doc_find_section(d, "points"));
	assert_int_equal(doc_table_rows(t), 7);
	assert_true(doc_cell_missing(t, 0, (size_t)doc_table_find(t, "amdahl")));
	check_close(doc_cell_number(t, 3, (size_t)doc_table_find(t, "usl")),
		    res.fits[FIT_USL].fitted[3], 0, "usl fitted at 72");
	doc_free(d);
	fit_release(&res.fits[FIT_USL]);
	fit_release(&res.fits[FIT_POWER]);
}

/* every test starts with no messages */
#define TEST(f) cmocka_unit_test_setup(f, clear_messages)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(usl_specsdm91_published),
		TEST(usl_specsdm91_exact),
		TEST(usl_se_scaling),
		TEST(amdahl_specsdm91),
		TEST(power_specsdm91),
		TEST(usl_gomaxprocs_sigma_at_bound),
		TEST(usl_superlinear_both_at_bound),
		TEST(amdahl_gomaxprocs_inside),
		TEST(power_gomaxprocs),
		TEST(too_few_levels),
		TEST(bad_values),
		TEST(predict),
		TEST(model_names),
		TEST(order_invariant),
		TEST(fit_document),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
