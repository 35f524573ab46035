/* fit: see fit.h. */
#include "fit.h"

#include "../common/err.h"
#include "pooling.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIT_MAX_ITER 500
#define FIT_TOL 1e-10

static const char *const model_names[] = {"usl", "amdahl", "power"};
static const char *const param_names[][FIT_MAX_PARAMS] = {
	{"lambda", "sigma", "kappa"}, {"lambda", "sigma", "kappa"}, {"a", "b", NULL}};

const char *fit_model_name(enum fit_model model)
{
	return model_names[model];
}

int fit_model_parse(const char *name, enum fit_model *model)
{
	for (int m = FIT_USL; m <= FIT_POWER; m++)
		if (!strcmp(name, model_names[m])) {
			*model = (enum fit_model)m;
			return 0;
		}
	return -1;
}

/* The model's full parameter vector (free ones from x, fixed ones as set). */
struct problem {
	enum fit_model model;
	const double *level, *x;
	size_t n;
	double theta[FIT_MAX_PARAMS];
	bool fixed[FIT_MAX_PARAMS];
	size_t free_index[FIT_MAX_PARAMS]; /* free parameter k is theta[free_index[k]] */
	size_t nfree;
};

static size_t model_params(enum fit_model model)
{
	return model == FIT_POWER ? 2 : 3;
}

static double model_value(enum fit_model model, const double *th, double level)
{
	if (model == FIT_POWER)
		return th[0] * pow(level, th[1]);
	return th[0] * level / (1.0 + th[1] * (level - 1.0) + th[2] * level * (level - 1.0));
}

static void unpack(const struct problem *pr, const gsl_vector *v, double *th)
{
	memcpy(th, pr->theta, sizeof(pr->theta));
	for (size_t k = 0; k < pr->nfree; k++)
		th[pr->free_index[k]] = gsl_vector_get(v, k);
}

static int residuals_fn(const gsl_vector *v, void *data, gsl_vector *f)
{
	const struct problem *pr = data;
	double th[FIT_MAX_PARAMS];
	unpack(pr, v, th);
	for (size_t i = 0; i < pr->n; i++)
		gsl_vector_set(f, i, model_value(pr->model, th, pr->level[i]) - pr->x[i]);
	return GSL_SUCCESS;
}

static int jacobian_fn(const gsl_vector *v, void *data, gsl_matrix *jac)
{
	const struct problem *pr = data;
	double th[FIT_MAX_PARAMS];
	unpack(pr, v, th);
	for (size_t i = 0; i < pr->n; i++) {
		double n = pr->level[i], d[FIT_MAX_PARAMS];
		if (pr->model == FIT_POWER) {
			d[0] = pow(n, th[1]);
			d[1] = th[0] * pow(n, th[1]) * log(n);
		} else {
			double den = 1.0 + th[1] * (n - 1.0) + th[2] * n * (n - 1.0);
			d[0] = n / den;
			d[1] = -th[0] * n * (n - 1.0) / (den * den);
			d[2] = -th[0] * n * n * (n - 1.0) / (den * den);
		}
		for (size_t k = 0; k < pr->nfree; k++)
			gsl_matrix_set(jac, i, k, d[pr->free_index[k]]);
	}
	return GSL_SUCCESS;
}

static void set_free(struct problem *pr)
{
	pr->nfree = 0;
	for (size_t j = 0; j < model_params(pr->model); j++)
		if (!pr->fixed[j])
			pr->free_index[pr->nfree++] = j;
}

/* One trust-region fit of the free parameters from pr->theta; theta gets the result. */
static int solve(struct problem *pr, double *chisq, gsl_matrix *covar, size_t *iterations)
{
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w = NULL;
	gsl_vector *x0 = gsl_vector_alloc(pr->nfree);
	int info = 0, status;
	int rc = 0;
	memset(&fdf, 0, sizeof(fdf));
	fdf.f = residuals_fn;
	fdf.df = jacobian_fn;
	fdf.n = pr->n;
	fdf.p = pr->nfree;
	fdf.params = pr;
	params.trs = gsl_multifit_nlinear_trs_lm;
	w = x0 ? gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, pr->n, pr->nfree)
	       : NULL;
	if (!w) {
		gsl_vector_free(x0);
		return err_set("out of memory for the %s fit", model_names[pr->model]);
	}
	for (size_t k = 0; k < pr->nfree; k++)
		gsl_vector_set(x0, k, pr->theta[pr->free_index[k]]);
	status = gsl_multifit_nlinear_init(x0, &fdf, w);
	if (status == GSL_SUCCESS)
		status = gsl_multifit_nlinear_driver(FIT_MAX_ITER, FIT_TOL, FIT_TOL, FIT_TOL, NULL,
						     NULL, &info, w);
	/*
	 * GSL_ENOPROG: no step improves the fit any more, which at a start that
	 * is already the optimum is success, not failure; the covariance below
	 * still has to exist.
	 */
	if (status != GSL_SUCCESS && status != GSL_ENOPROG) {
		rc = err_set("the %s fit did not converge: %s", model_names[pr->model],
			     gsl_strerror(status));
	} else {
		gsl_vector *f = gsl_multifit_nlinear_residual(w);
		gsl_blas_ddot(f, f, chisq);
		status = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar);
		if (status != GSL_SUCCESS)
			rc = err_set("the %s fit has no covariance: %s", model_names[pr->model],
				     gsl_strerror(status));
		*iterations = gsl_multifit_nlinear_niter(w);
		for (size_t k = 0; k < pr->nfree; k++)
			pr->theta[pr->free_index[k]] = gsl_vector_get(w->x, k);
	}
	gsl_multifit_nlinear_free(w);
	gsl_vector_free(x0);
	return rc;
}

/* Linearised USL start: N / C(N) - 1 = sigma (N - 1) + kappa N (N - 1). */
static void usl_start(struct problem *pr)
{
	double lo = INFINITY, lambda0 = 0;
	size_t count = 0;
	for (size_t i = 0; i < pr->n; i++)
		lo = fmin(lo, pr->level[i]);
	for (size_t i = 0; i < pr->n; i++)
		if (pr->level[i] == lo) {
			lambda0 += pr->x[i] / lo;
			count++;
		}
	lambda0 /= (double)count;
	pr->theta[0] = lambda0;
	pr->theta[1] = pr->theta[2] = 0.0;
	{
		gsl_matrix *X = gsl_matrix_alloc(pr->n, 2);
		gsl_vector *y = gsl_vector_alloc(pr->n), *c = gsl_vector_alloc(2);
		gsl_matrix *cov = gsl_matrix_alloc(2, 2);
		gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(pr->n, 2);
		double chisq;
		if (X && y && c && cov && w) {
			for (size_t i = 0; i < pr->n; i++) {
				double n = pr->level[i], cap = pr->x[i] / lambda0;
				gsl_matrix_set(X, i, 0, n - 1.0);
				gsl_matrix_set(X, i, 1, n * (n - 1.0));
				gsl_vector_set(y, i, cap > 0 ? n / cap - 1.0 : 0.0);
			}
			if (gsl_multifit_linear(X, y, c, cov, &chisq, w) == GSL_SUCCESS) {
				pr->theta[1] = fmin(fmax(gsl_vector_get(c, 0), 0.0), 1.0);
				pr->theta[2] = fmin(fmax(gsl_vector_get(c, 1), 0.0), 1.0);
			}
		}
		gsl_multifit_linear_free(w);
		gsl_matrix_free(X);
		gsl_matrix_free(cov);
		gsl_vector_free(y);
		gsl_vector_free(c);
	}
	if (pr->model == FIT_AMDAHL)
		pr->theta[2] = 0.0;
}

static int power_start(struct problem *pr)
{
	double *lx = malloc(pr->n * sizeof(double)), *ly = malloc(pr->n * sizeof(double));
	double c0, c1, cov00, cov01, cov11, sumsq;
	int rc = 0;
	if (!lx || !ly) {
		free(lx);
		free(ly);
		return err_set("out of memory");
	}
	for (size_t i = 0; i < pr->n; i++) {
		lx[i] = log(pr->level[i]);
		ly[i] = log(pr->x[i]);
	}
	if (gsl_fit_linear(lx, 1, ly, 1, pr->n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) !=
	    GSL_SUCCESS)
		rc = err_set("no starting point for the power fit");
	pr->theta[0] = exp(c0);
	pr->theta[1] = c1;
	free(lx);
	free(ly);
	return rc;
}

/* Fix any of sigma, kappa outside [0, 1] at the bound it crossed; true if one moved. */
static bool clamp_to_bounds(struct problem *pr)
{
	bool moved = false;
	if (pr->model == FIT_POWER)
		return false;
	for (size_t j = 1; j < 3; j++) {
		if (pr->fixed[j])
			continue;
		if (pr->theta[j] < 0.0 || pr->theta[j] > 1.0) {
			pr->theta[j] = pr->theta[j] < 0.0 ? 0.0 : 1.0;
			pr->fixed[j] = true;
			moved = true;
		}
	}
	return moved;
}

static size_t distinct_levels(const double *level, size_t n)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = level[j] == level[i];
		count += !seen;
	}
	return count;
}

static int check_input(enum fit_model model, const double *level, const double *x, size_t n,
		       size_t nfree)
{
	size_t levels = distinct_levels(level, n);
	for (size_t i = 0; i < n; i++)
		if (!(level[i] > 0) || !isfinite(level[i]) || !isfinite(x[i]) ||
		    (model == FIT_POWER && !(x[i] > 0)))
			return err_set("point %zu (level %g, value %g) cannot be fitted: levels must "
				       "be above 0 and values finite%s",
				       i + 1, level[i], x[i],
				       model == FIT_POWER ? " and above 0" : "");
	if (levels < nfree || n <= nfree)
		return err_set("the %s model has %zu parameters: it needs at least %zu distinct "
			       "levels and %zu points, got %zu levels and %zu points",
			       model_names[model], nfree, nfree, nfree + 1, levels, n);
	return 0;
}

static void summarise(struct fit_result *out, const struct problem *pr, double chisq,
		      const gsl_matrix *covar)
{
	double mean = 0, sst = 0;
	size_t np = model_params(pr->model) - (pr->model == FIT_AMDAHL);
	out->dof = pr->n - pr->nfree;
	out->sse = chisq;
	out->residual_se = sqrt(chisq / (double)out->dof);
	out->nparams = np;
	for (size_t j = 0; j < np; j++) {
		out->params[j].name = param_names[pr->model][j];
		out->params[j].value = pr->theta[j];
		out->params[j].at_bound = pr->fixed[j];
		out->params[j].se = NAN;
	}
	for (size_t k = 0; k < pr->nfree; k++)
		out->params[pr->free_index[k]].se =
			sqrt(chisq / (double)out->dof * gsl_matrix_get(covar, k, k));
	for (size_t i = 0; i < pr->n; i++)
		mean += pr->x[i] / (double)pr->n;
	for (size_t i = 0; i < pr->n; i++) {
		out->fitted[i] = model_value(pr->model, pr->theta, pr->level[i]);
		out->residuals[i] = pr->x[i] - out->fitted[i];
		sst += (pr->x[i] - mean) * (pr->x[i] - mean);
	}
	out->r2 = sst > 0 ? 1.0 - chisq / sst : 1.0;
	out->peak_n = out->peak_x = out->amdahl_ceiling = INFINITY;
	out->per_doubling = out->per_doubling_se = NAN;
	if (pr->model == FIT_POWER) {
		out->per_doubling = pow(2.0, pr->theta[1]);
		out->per_doubling_se = out->per_doubling * log(2.0) * out->params[1].se;
		return;
	}
	if (pr->theta[1] > 0)
		out->amdahl_ceiling = pr->theta[0] / pr->theta[1];
	if (pr->theta[2] > 0 && pr->theta[1] < 1) {
		out->peak_n = sqrt((1.0 - pr->theta[1]) / pr->theta[2]);
		out->peak_x = model_value(pr->model, pr->theta, out->peak_n);
	}
}

int fit_scaling(enum fit_model model, const double *level, const double *x, size_t n,
		struct fit_result *out)
{
	struct problem pr;
	gsl_matrix *covar = NULL;
	double chisq = 0;
	int rc;
	memset(out, 0, sizeof(*out));
	memset(&pr, 0, sizeof(pr));
	pr.model = model;
	pr.level = level;
	pr.x = x;
	pr.n = n;
	pr.fixed[2] = model == FIT_AMDAHL;
	set_free(&pr);
	out->model = model;
	out->model_name = model_names[model];
	out->n = n;
	out->nlevels = distinct_levels(level, n);
	rc = check_input(model, level, x, n, pr.nfree);
	if (rc)
		return rc;
	out->fitted = calloc(n, sizeof(double));
	out->residuals = calloc(n, sizeof(double));
	if (!out->fitted || !out->residuals) {
		fit_release(out);
		return err_set("out of memory");
	}
	if (model == FIT_POWER)
		rc = power_start(&pr);
	else
		usl_start(&pr);
	/* fit; a parameter that leaves [0, 1] is fixed at the bound and the rest refitted */
	for (int round = 0; rc == 0 && round < 3; round++) {
		gsl_matrix_free(covar);
		covar = gsl_matrix_alloc(pr.nfree, pr.nfree);
		rc = covar ? solve(&pr, &chisq, covar, &out->iterations) : err_set("out of memory");
		if (rc || !clamp_to_bounds(&pr))
			break;
		set_free(&pr);
		if (pr.nfree == 0 || n <= pr.nfree) {
			rc = err_set("the %s fit leaves no free parameter inside its bounds",
				     model_names[model]);
			break;
		}
	}
	if (rc == 0 && model != FIT_POWER && !(pr.theta[0] > 0))
		rc = err_set("the %s fit gives lambda %g: no positive single-unit throughput",
			     model_names[model], pr.theta[0]);
	if (rc == 0)
		summarise(out, &pr, chisq, covar);
	gsl_matrix_free(covar);
	if (rc)
		fit_release(out);
	return rc;
}

double fit_predict(const struct fit_result *fit, double level)
{
	double th[FIT_MAX_PARAMS] = {0, 0, 0};
	for (size_t j = 0; j < fit->nparams; j++)
		th[j] = fit->params[j].value;
	return model_value(fit->model, th, level);
}

void fit_release(struct fit_result *fit)
{
	free(fit->fitted);
	free(fit->residuals);
	fit->fitted = fit->residuals = NULL;
}

/* The points: every run's (level, metric); levels must be numbers. */
static int points(struct fit_run_result *out)
{
	const struct selection *sel = &out->sel;
	out->level = malloc(sel->n * sizeof(double));
	out->x = malloc(sel->n * sizeof(double));
	if (!out->level || !out->x)
		return err_set("out of memory");
	for (size_t i = 0; i < sel->n; i++) {
		if (!sel->runs[i].level_numeric)
			return err_set("run '%s': level '%s' is not a number", sel->runs[i].tag,
				       sel->runs[i].level_text);
		out->level[i] = sel->runs[i].level;
		out->x[i] = sel->runs[i].metric;
	}
	out->n = sel->n;
	return 0;
}

/* Each point's kind on the host and whether it is fitted; the fitted points, compacted. */
static int classify(const struct fit_request *req, struct fit_run_result *out, double *lx,
		    double *xx)
{
	size_t physical = 0;
	out->all_levels = req->all_levels;
	out->kind = calloc(out->n ? out->n : 1, sizeof(*out->kind));
	out->in_fit = calloc(out->n ? out->n : 1, sizeof(*out->in_fit));
	if (!out->kind || !out->in_fit)
		return err_set("out of memory");
	out->nfit = 0;
	for (size_t i = 0; i < out->n; i++) {
		enum level_kind k =
			out->classified ? level_kind_on(&out->host, out->level[i]) : LEVEL_ASSUMED;
		bool phys = k == LEVEL_PHYSICAL || k == LEVEL_ASSUMED;
		out->kind[i] = k;
		out->in_fit[i] = phys || req->all_levels;
		physical += phys;
		if (out->in_fit[i]) {
			lx[out->nfit] = out->level[i];
			xx[out->nfit++] = out->x[i];
		}
	}
	if (out->nfit == 0)
		return err_set(
			"no physical-core level to fit: host '%s' has %zu physical cores and "
			"every level is above them (--all-levels fits every level)",
			out->host.name, out->host.physical_cores);
	return 0;
}

int fit_run(sqlite3 *db, const struct fit_request *req, struct fit_run_result *out)
{
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .numeric_by = true,
				   .metric = req->metric ? req->metric : "tput"};
	double *lx = NULL, *xx = NULL;
	size_t fitted = 0;
	int rc;
	memset(out, 0, sizeof(*out));
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = points(out);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "fit", NULL);
	out->classified = field_level_counts_workers(req->by, req->workers);
	if (rc == 0 && out->classified)
		rc = run_host_levels(db, &out->sel, req->host, &out->host);
	if (rc == 0 &&
	    (!(lx = malloc(out->n * sizeof(double))) || !(xx = malloc(out->n * sizeof(double)))))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = classify(req, out, lx, xx);
	for (int m = 0; rc == 0 && m < FIT_NMODELS; m++) {
		struct fit_result *fit = &out->fits[m];
		out->asked[m] = req->models[m];
		if (!req->models[m])
			continue;
		if (fit_scaling((enum fit_model)m, lx, xx, out->nfit, fit) == 0) {
			out->ok[m] = true;
			fitted++;
		} else {
			snprintf(out->error[m], sizeof(out->error[m]), "%s", err_msg());
			err_clear();
		}
	}
	/* no model asked for could be fitted: the first one's reason is the error */
	for (int m = 0; rc == 0 && fitted == 0 && m < FIT_NMODELS; m++)
		if (out->asked[m])
			rc = err_set("%s", out->error[m]);
	if (rc == 0 && fitted == 0)
		rc = err_set("no model to fit");
	free(lx);
	free(xx);
	return rc;
}

void fit_run_result_release(struct fit_run_result *r)
{
	for (int m = 0; m < FIT_NMODELS; m++)
		fit_release(&r->fits[m]);
	free(r->level);
	free(r->x);
	free(r->kind);
	free(r->in_fit);
	selection_release(&r->sel);
	memset(r, 0, sizeof(*r));
}
