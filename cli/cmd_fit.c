/* cmd_fit: `coreplan fit`, scaling models (USL, Amdahl, power law) fitted to a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/fit.h"
#include "../reports/builders.h"

static struct fit_request req;
static int model; /* enum fit_model, or FIT_NMODELS: all */

static const struct opt_choice models[] = {
	{"usl", FIT_USL}, {"amdahl", FIT_AMDAHL}, {"power", FIT_POWER}, {"all", FIT_NMODELS},
	{NULL},
};

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("by", "FIELD", &req.by, "the level field N, e.g. gomaxprocs", .required = true),
	OPT_CHOICE("model", "M", &model, models, "the model to fit (default all)"),
	OPT_FLAG("all-levels", &req.all_levels,
		 "fit SMT levels and levels beyond the logical CPUs too"),
	CLI_SPECS_WORKERS(&req.host, &req.workers),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"Every selected run is one point (level, metric).\n"
	"  usl     X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)), sigma and\n"
	"          kappa in [0, 1]: peak N* = sqrt((1 - sigma) / kappa), X(N*), and the\n"
	"          Amdahl ceiling lambda / sigma\n"
	"  amdahl  the USL with kappa = 0\n"
	"  power   X(N) = a N^b; per-doubling factor 2^b\n"
	"Nonlinear least squares (GSL gsl_multifit_nlinear, trust region with\n"
	"Levenberg-Marquardt steps, analytic Jacobian, linearised USL start). GSL has\n"
	"no bounds: a parameter that leaves its range is fixed there, reported `at\n"
	"bound` without a standard error, and the rest refitted. Standard errors\n"
	"scale (J^T J)^-1 by SSE / (n - p); residual_se = sqrt(SSE / dof) with\n"
	"dof = n - p; r2 = 1 - SSE / SST. A model needs as many distinct levels as\n"
	"it has free parameters and one more point.\n"
	"\n"
	"Physical cores: when N counts threads or workers (gomaxprocs, threads, cores,\n"
	"n, ...: `coreplan sweep --help`), each level is classified on the runs' host\n"
	"(--host, else their topology_host field: `coreplan import --help`). Only the\n"
	"physical-core levels (N <= the host's physical cores) are fitted by default:\n"
	"an SMT level adds siblings, not cores, and would read as contention. SMT\n"
	"levels and levels beyond the logical CPUs are left out (the facts\n"
	"levels_fitted, levels_left_out, points_left_out and a note say which), but\n"
	"stay in the points table with what each model predicts there (columns\n"
	"core_kind, fitted). --all-levels fits every level. Without a known host every\n"
	"level is assumed physical and fitted, and the document says so.\n"
	"\n" CLI_POOLING_HELP "\n"
	"examples:\n"
	"  coreplan fit --by gomaxprocs --where block=1,2,3\n"
	"  coreplan fit --by gomaxprocs --where block=1,2,3 --all-levels\n";

static void defaults(void)
{
	model = FIT_NMODELS;
}

/* --model as the request's list of models to fit */
static int check(struct cli_args *a)
{
	(void)a;
	for (int m = 0; m < FIT_NMODELS; m++)
		req.models[m] = model == FIT_NMODELS || model == m;
	return 0;
}

CLI_ANALYSIS_RUN(run, req, struct fit_run_result, fit_run, build_fit, fit_run_result_release)

const struct cli_def cli_fit = {
	.cmd = {"fit", NULL, details, specs, build_fit_views},
	CLI_ANALYSIS(req, run),
	.defaults = defaults,
	.check = check,
};
