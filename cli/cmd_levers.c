/* cmd_levers: `coreplan levers`, what each one-factor change is worth. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/levers.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <string.h>

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
	"the ratio of medians, Welch's t on ln values with its 95% interval of the\n"
	"ratio of geometric means and the verdict (higher, lower, no-difference,\n"
	"within-noise; unreplicated when an arm has one run: beyond noise when its\n"
	"effect exceeds the largest within-arm spread of the replicated arms at\n"
	"that level), and each arm's median app_cores. A block that holds only some\n"
	"levels of its combination while another holds them all (a soak, gctrace or\n"
	"fsync block) is its own arm: its runs are left out of an arm that has\n"
	"others.\n"
	"\n"
	"Per pair: the smallest and largest ratio over the levels, the pooled ratio\n"
	"(inverse-variance over the levels' ln ratios when each has an interval,\n"
	"else their geometric mean), level_independent (every ratio on one side of\n"
	"1, the largest within 10% of the smallest) and effect (some level real or\n"
	"beyond noise).\n"
	"\n"
	"examples:\n"
	"  coreplan levers --by gomaxprocs --corpus gomaxprocs-scaling-20260816\n"
	"  coreplan levers --by sessions --where subcorpus=\n";

static const char *const views[] = {"levers", "levels", NULL};

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct levers_result res;
	int rc;
	req.filter = &a->filter;
	req.metric = a->metric;
	rc = levers_run(db, &req, &res);
	if (rc == 0)
		rc = build_levers(&req, &res, NULL, out);
	levers_result_release(&res);
	return rc;
}

int cmd_levers(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"levers", NULL, details, specs, views}, CLI_DB_READ, NULL, run};
	memset(&req, 0, sizeof(req));
	return cli_run(&def, argc, argv, g);
}
