/* cmd_sweep: `coreplan sweep`, per-level statistics and scaling of a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/sweep.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_BY = CLI_ANALYSIS_COUNT, OPT_BASE, OPT_STOP };

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field, e.g. gomaxprocs or sessions", .required = true},
	[OPT_BASE] = {"base", 0, "LEVEL", "the level speedups are relative to (default: the "
					  "smallest)",
		      false},
	[OPT_STOP] = {"stop-below", 0, "EFF",
		      "per-doubling efficiency under which scaling stops (default 0.6)", false},
	CLI_SPEC_POOL,
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"One row per level of --by, over the non-excluded runs the filter selects.\n"
	"\n"
	"definitions:\n"
	"  median        middle value; for an even count the mean of the two middle values\n"
	"  range_pct     (max - min) / median * 100\n"
	"  speedup       median / median at the base level (default: the smallest level)\n"
	"  efficiency    speedup / (level / base)\n"
	"  per_doubling  (median / previous median) ^ (1 / log2(level / previous level)):\n"
	"                the growth from the previous level normalised to one doubling\n"
	"  per_unit      median / level\n"
	"  app_cores     median of the driver-reported app_cores (not recomputed)\n"
	"  cpu_us_per_op app_cores * 10^6 / median\n"
	"  note          'scaling stops' at the first level whose per_doubling is below\n"
	"                2 * --stop-below (default 1.2x per doubling)\n"
	"The whole-sweep per-doubling factor is exp(b) of the least-squares fit\n"
	"ln(median) = a + b * log2(level) over the level medians, with its standard\n"
	"error (delta method): the facts per_doubling, per_doubling_se and\n"
	"per_doubling_r2 in every format (--view facts for tsv and csv).\n"
	"\n"
	CLI_POOLING_HELP
	"\n"
	"example:\n"
	"  coreplan sweep --by gomaxprocs --where block=1,2,3\n";


static const char *const views[] = {"levels", NULL};

static int option(void *request, int which, const char *value)
{
	struct sweep_request *req = request;
	switch (which) {
	case OPT_BY:
		req->by = value;
		return 0;
	case OPT_BASE:
		req->opts.has_base = true;
		return cli_parse_number("base", value, -1e300, 1e300, &req->opts.base);
	case OPT_STOP:
		return cli_parse_number("stop-below", value, 1e-9, 1, &req->opts.stop_efficiency);
	}
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct sweep_request *req = request;
	struct sweep_result res;
	int rc;
	req->filter = &a->filter;
	req->metric = a->metric;
	rc = sweep_run(db, req, &res);
	if (rc == 0)
		rc = build_sweep(req, &res, out);
	sweep_result_release(&res);
	return rc;
}

int cmd_sweep(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"sweep", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct sweep_request req;
	memset(&req, 0, sizeof(req));
	sweep_options_init(&req.opts);
	return cli_run(&def, &req, argc, argv, g);
}
