/* cmd_memory: `coreplan memory`, per-session memory as an OLS slope across levels. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/memory.h"
#include "../reports/builders.h"

static struct memory_request req;

static const struct opt_spec specs[] = {
	CLI_SPEC_METRIC_HELP("the measured value (default load_rss_kb)"),
	CLI_SPECS_FILTER,
	CLI_SPECS_OUTPUT,
	OPT_STRING("by", "FIELD", &req.by, "the level field, usually sessions", .required = true),
	OPT_STRING("block", "FIELD", &req.block,
		   "the block field for endpoint slopes (default block)"),
	CLI_SPEC_GROUP("fit each combination of these fields apart"),
	OPT_DOUBLE("frac", "F", &req.cores.window.frac,
		   "plateau fraction for trace-derived metrics (default 0.8)", OPT_GT(0),
		   OPT_LE(1)),
	OPT_INT("trim", "N", &req.cores.window.trim,
		"plateau trim for trace-derived metrics (default 1)", OPT_LE(100000)),
	OPT_FLAG("keep-ramp", &req.cores.window.keep_ramp,
		 "trace-derived metrics: keep the leading ramp rows, as in coreplan cores"),
	CLI_SPEC_POOL,
	OPT_END,
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

static void defaults(void)
{
	cores_options_init(&req.cores);
}

CLI_ANALYSIS_RUN(run, req, struct memory_result, memory_run, build_memory, memory_result_release)

const struct cli_def cli_memory = {
	.cmd = {"memory", NULL, details, specs, build_memory_views},
	CLI_ANALYSIS(req, run),
	.defaults = defaults,
	.group = &req.group,
	.metric_own_default = true,
};
