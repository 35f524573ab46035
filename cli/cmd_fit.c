/* cmd_fit: `coreplan fit`, scaling models (USL, Amdahl, power law) fitted to a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/fit.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <string.h>

enum { OPT_BY = CLI_ANALYSIS_COUNT, OPT_MODEL, OPT_ALL_LEVELS, OPT_HOST, OPT_WORKERS };

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field N, e.g. gomaxprocs", .required = true},
	[OPT_MODEL] = {"model", 0, "M", "usl, amdahl, power or all (default all)", false},
	[OPT_ALL_LEVELS] = {"all-levels", 0, NULL,
			    "fit SMT levels and levels beyond the logical CPUs too", false},
	[OPT_HOST] = {"host", 0, "NAME",
		      "count levels on this recorded host (default: the runs' topology_host)",
		      false},
	[OPT_WORKERS] =
		{"workers", 0, "FIELD",
		 "FIELD counts workers (threads, cores, processes): speedup, efficiency and "
		 "the SMT classification apply to it (fields known to count workers need "
		 "no flag)",
		 false},
	CLI_SPEC_POOL,
	{NULL, 0, NULL, NULL, false},
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

static const char *const views[] = {"params", "summary", "points", NULL};

static int option(void *request, int which, const char *value)
{
	struct fit_request *req = request;
	enum fit_model m;
	switch (which) {
	case OPT_BY:
		req->by = value;
		return 0;
	case OPT_MODEL:
		if (strcmp(value, "all") == 0)
			return 0;
		if (fit_model_parse(value, &m))
			return err_usage("unknown model '%s' (usl, amdahl, power or all)", value);
		memset(req->models, 0, sizeof(req->models));
		req->models[m] = true;
		return 0;
	case OPT_ALL_LEVELS:
		req->all_levels = true;
		return 0;
	case OPT_HOST:
		req->host = value;
		return 0;
	case OPT_WORKERS:
		req->workers = value;
		return 0;
	}
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct fit_request *req = request;
	struct fit_run_result res;
	int rc;
	req->filter = &a->filter;
	req->metric = a->metric;
	rc = fit_run(db, req, &res);
	if (rc == 0)
		rc = build_fit(req, &res, out);
	fit_run_result_release(&res);
	return rc;
}

int cmd_fit(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"fit", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct fit_request req;
	memset(&req, 0, sizeof(req));
	req.models[FIT_USL] = req.models[FIT_AMDAHL] = req.models[FIT_POWER] = true;
	return cli_run(&def, &req, argc, argv, g);
}
