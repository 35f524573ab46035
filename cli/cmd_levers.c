/* cmd_levers: `coreplan levers`, what each one-factor change is worth. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/levers.h"
#include "../common/err.h"
#include "../reports/builders.h"

static struct levers_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("by", "FIELD", &req.by,
		   "the level field each lever is compared at (default: none, one level)"),
	OPT_END,
};

static const char details[] =
	"A lever is a field that takes two or more values while the runs agree on\n"
	"everything else: the fields that vary among the selected runs (the pooling\n"
	"candidates of coreplan sweep --help: corpus, subcorpus, target, cfg, store,\n"
	"gogc, variant, sessions and gomaxprocs when not the level, and the results\n"
	"table's text factors). A field that only varies with an earlier one (store\n"
	"with cfg) moves with it (moves_with_it) and is no lever of its own.\n"
	"\n"
	"For each lever, within each combination of the other fields (context), at\n"
	"each level (--by) where two of its values have runs, each value is compared\n"
	"with the base: the smallest number among the values there (GOGC 100 before\n"
	"800), else the value that ran first. A cell: each arm's n, median and range,\n"
	"the ratio of medians, the verdict of docs/statistics.md (Welch's t on ln\n"
	"values, its 95% interval of the ratio of geometric means; higher, lower,\n"
	"no-difference, within-noise), and each arm's median app_cores. An arm with\n"
	"one run is tested against the pooled spread of the level's replicated arms\n"
	"(t on ln values, their degrees of freedom: beyond noise when p < 0.05), and\n"
	"untested when there are none. A block that holds only some\n"
	"levels of its combination while another holds them all (a soak, gctrace or\n"
	"fsync block) is its own arm: its runs are left out of an arm that has\n"
	"others.\n"
	"\n"
	"Per pair: the smallest and largest ratio over the levels, the pooled ratio\n"
	"(the levels' verdicts summed up: their geometric mean and its interval),\n"
	"level_independent (every ratio on one side of 1, the largest within 10% of\n"
	"the smallest), effect (some level real or beyond noise) and also_differs (a\n"
	"worker count, such as procs, that differs between the arms: not one factor).\n"
	"\n"
	"examples:\n"
	"  coreplan levers --by gomaxprocs --corpus gomaxprocs-scaling-20260816\n"
	"  coreplan levers --by sessions --where subcorpus=\n";

/* The document of every lever (build_levers' `only` is NULL). */
static int build(const struct levers_request *r, const struct levers_result *res, struct doc **out)
{
	return build_levers(r, res, NULL, out);
}

CLI_ANALYSIS_RUN(run, req, struct levers_result, levers_run, build, levers_result_release)

const struct cli_def cli_levers = {
	.cmd = {"levers", NULL, details, specs, build_levers_views},
	CLI_ANALYSIS(req, run),
};
