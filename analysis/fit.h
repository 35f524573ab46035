/*
 * fit: scaling models fitted to (level, throughput) points (coreplan fit).
 *
 *   usl     X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)),
 *           sigma and kappa in [0, 1], lambda > 0
 *   amdahl  the USL with kappa = 0
 *   power   X(N) = a N^b; per-doubling factor 2^b
 *
 * Fitted by GSL's nonlinear least squares (gsl_multifit_nlinear, trust
 * region with Levenberg-Marquardt steps, analytic Jacobian) on the
 * original scale, every point weighted equally. GSL has no bounds: a
 * parameter that leaves its range in the unconstrained fit is fixed at
 * the bound and the rest refitted; it is then reported `at bound` with no
 * standard error. Starting values: for the USL, lambda0 = the throughput
 * per unit at the smallest level and (sigma, kappa) from the linear least
 * squares of N/C(N) - 1 = sigma (N - 1) + kappa N (N - 1) with
 * C(N) = X(N) / (lambda0 N) (no intercept, gsl_multifit_linear); for the
 * power law, the OLS of ln X on ln N.
 *
 * Standard errors: sqrt(chisq / (n - p) * (J^T J)^-1_ii) over the free
 * parameters (gsl_multifit_nlinear_covar is unscaled). Reported: each
 * parameter, the residual standard error with n - p degrees of freedom,
 * R^2 = 1 - SSE / SST, fitted values and residuals, and for the USL the
 * peak N* = sqrt((1 - sigma) / kappa), X(N*), and the Amdahl ceiling
 * lambda / sigma. A model needs at least as many distinct levels as it
 * has free parameters, and one more point than that; a fit that does not
 * converge is an error, never a number.
 *
 * fit_run() is what `coreplan fit` asks (struct fit_request): every
 * selected run is one point (level, metric); levels must be numbers. Each
 * model asked for is fitted; one that cannot be keeps its reason. When no
 * model asked for could be fitted, the first one's reason is the error.
 *
 * Physical cores (analysis/hosts.h): when the level counts workers
 * (field_counts_workers), each point's level gets its kind on the runs'
 * host (the request's host, else their topology_host; several hosts count
 * as unknown). Only physical-core points are fitted (and every point when
 * the host is unknown: assumed physical); SMT levels and levels beyond
 * the logical CPUs are left out unless all_levels. No point left to fit
 * is an error that says so.
 */
#ifndef COREPLAN_FIT_H
#define COREPLAN_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "hosts.h"
#include "select.h"

enum fit_model { FIT_USL, FIT_AMDAHL, FIT_POWER };
#define FIT_NMODELS 3

#define FIT_MAX_PARAMS 3

struct fit_param {
	const char *name;
	double value;
	double se; /* NaN at a bound */
	bool at_bound;
};

struct fit_result {
	enum fit_model model;
	const char *model_name;
	struct fit_param params[FIT_MAX_PARAMS];
	size_t nparams;
	size_t n;       /* points */
	size_t nlevels; /* distinct levels */
	size_t dof;     /* n - free parameters */
	double residual_se;
	double r2;
	double sse;
	size_t iterations;
	/* usl and amdahl */
	double peak_n, peak_x;   /* usl with kappa > 0; else infinity */
	double amdahl_ceiling;   /* lambda / sigma; infinity when sigma = 0 */
	/* power */
	double per_doubling, per_doubling_se;
	double *fitted;    /* n values, owned */
	double *residuals; /* n values (observed - fitted), owned */
};

const char *fit_model_name(enum fit_model model);
int fit_model_parse(const char *name, enum fit_model *model);

/* Fit; levels must be > 0 and throughputs finite. */
int fit_scaling(enum fit_model model, const double *level, const double *x, size_t n,
		struct fit_result *out);
/* The fitted curve at level N. */
double fit_predict(const struct fit_result *fit, double level);
void fit_release(struct fit_result *fit);

/* What `coreplan fit` asks: the runs, the level field, the metric, the models. */
struct fit_request {
	const struct run_filter *filter;
	const char *by;
	const char *metric;       /* NULL: tput */
	bool models[FIT_NMODELS]; /* indexed by enum fit_model */
	bool all_levels;          /* --all-levels: fit SMT and beyond levels too */
	const char *host;         /* --host: count levels on this host; NULL: the runs' own */
	const char *workers;      /* --workers FIELD: it counts workers (declared), or NULL */
};

/* A request's answer: the runs, their points, and each model asked for. */
struct fit_run_result {
	struct selection sel;
	double *level, *x; /* sel.n points, in selection order */
	size_t n;
	/* levels in physical cores: classified when the level counts workers */
	bool classified;
	bool all_levels;
	struct run_host host;  /* known false: assumed physical (host.mixed: several hosts) */
	enum level_kind *kind; /* per point, or NULL: every point assumed physical */
	bool *in_fit;          /* per point, or NULL: every point is fitted */
	size_t nfit;           /* points fitted; fits[m].fitted holds them in point order */
	bool asked[FIT_NMODELS];
	bool ok[FIT_NMODELS]; /* fits[m] holds a fit */
	struct fit_result fits[FIT_NMODELS];
	char error[FIT_NMODELS][256]; /* why an asked model was not fitted */
};

/* Select the runs and fit the models asked for; release the result either way. */
int fit_run(sqlite3 *db, const struct fit_request *req, struct fit_run_result *out);
void fit_run_result_release(struct fit_run_result *r);

#endif
