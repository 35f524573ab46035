/* cmd_memory: `coreplan memory`, per-session memory as an OLS slope across levels. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/memory.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <stdint.h>
#include <string.h>

enum { OPT_BY = CLI_ANALYSIS_COUNT, OPT_BLOCK, OPT_GROUP, OPT_FRAC, OPT_TRIM, OPT_KEEP_RAMP };

static const struct opt_spec specs[] = {
	{"metric", 0, "FIELD", "the measured value (default load_rss_kb)", false, CLI_OPT_METRIC},
	CLI_SPECS_FILTER,
	CLI_SPECS_OUTPUT,
	[OPT_BY] = {"by", 0, "FIELD", "the level field, usually sessions", .required = true},
	[OPT_BLOCK] = {"block", 0, "FIELD", "the block field for endpoint slopes (default block)",
		       false},
	[OPT_GROUP] = {"group", 0, "F1[,F2...]", "fit each combination of these fields apart",
		       false},
	[OPT_FRAC] = {"frac", 0, "F", "plateau fraction for trace-derived metrics (default 0.8)",
		      false},
	[OPT_TRIM] = {"trim", 0, "N", "plateau trim for trace-derived metrics (default 1)", false},
	[OPT_KEEP_RAMP] =
		{"keep-ramp", 0, NULL,
		 "trace-derived metrics: keep the leading ramp rows, as in coreplan cores", false},
	CLI_SPEC_POOL,
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"The metric (default load_rss_kb) is a run field, or one of the trace-derived\n"
	"figures of `coreplan cores` over each run's plateau: rss_median_kb,\n"
	"rss_mean_kb, rss_peak_kb, mem_avail_min_kb.\n"
	"  slopes     ordinary least squares of the metric on --by over every run:\n"
	"             slope (metric per level unit, e.g. kB per session) with its\n"
	"             standard error and 95% interval (Student t, n - 2 degrees of\n"
	"             freedom), intercept (the fixed cost), r2, residual SE\n"
	"  endpoints  per block: (value at the largest level - value at the smallest)\n"
	"             / (largest - smallest level)\n"
	"  ratios     CONTRAST ONLY: median(metric) / level at each level, which\n"
	"             charges the fixed load-time growth to the sessions\n"
	"  residuals  each run's metric minus the fitted line\n"
	"\n" CLI_POOLING_HELP "\n"
	"example:\n"
	"  coreplan memory --by sessions --group cfg --where target=medium --where block=1,2,3\n";

static const char *const views[] = {"slopes", "endpoints", "ratios", "residuals", NULL};

/* The request and the --group list it points into (freed after the run). */
struct memory_cli {
	struct memory_request req;
	char **group;
};

static int option(void *request, int which, const char *value)
{
	struct memory_cli *c = request;
	struct memory_request *req = &c->req;
	int64_t trim;
	int rc = 0;
	switch (which) {
	case OPT_BY:
		req->by = value;
		break;
	case OPT_BLOCK:
		req->block = value;
		break;
	case OPT_GROUP:
		rc = cli_parse_list("group", value, &c->group);
		req->group = (const char *const *)c->group;
		break;
	case OPT_FRAC:
		rc = cli_parse_number("frac", value, 1e-9, 1, &req->cores.window.frac);
		break;
	case OPT_KEEP_RAMP:
		req->cores.window.keep_ramp = true;
		return 0;
	case OPT_TRIM:
		rc = cli_parse_whole("trim", value, 0, 100000, &trim);
		req->cores.window.trim = (size_t)trim;
		break;
	}
	return rc;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct memory_request *req = &((struct memory_cli *)request)->req;
	struct memory_result res;
	int rc;
	req->filter = &a->filter;
	req->metric = a->metric;
	rc = memory_run(db, req, &res);
	if (rc == 0)
		rc = build_memory(req, &res, out);
	memory_result_release(&res);
	return rc;
}

int cmd_memory(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"memory", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct memory_cli c;
	int rc;
	memset(&c, 0, sizeof(c));
	cores_options_init(&c.req.cores);
	rc = cli_run(&def, &c, argc, argv, g);
	cli_free_list(c.group);
	return rc;
}
