/* cmd_noise: `coreplan noise`, block agreement, order, bursts, soaks and a verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/noise.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/builders.h"

#include <string.h>

enum { OPT_BY = CLI_ANALYSIS_COUNT, OPT_BLOCK, OPT_GROUP, OPT_BURST, OPT_RANGE, OPT_DRIFT };

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field, e.g. gomaxprocs or sessions", .required = true},
	[OPT_BLOCK] = {"block", 0, "FIELD", "the block field (default block)", false},
	[OPT_GROUP] = {"group", 0, "F1[,F2...]",
		       "analyse each combination of these fields separately (e.g. target,cfg)",
		       false},
	[OPT_BURST] = {"burst-factor", 0, "X",
		       "a first run this many times the later runs' median is a burst (1.5)",
		       false},
	[OPT_RANGE] = {"range-pct", 0, "P",
		       "largest range_pct of a resolved level, in % (default 5)", false},
	[OPT_DRIFT] = {"drift-pct", 0, "P",
		       "mean block deviation beyond which a one-signed block drifts (1)", false},
	CLI_SPEC_POOL,
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Within each group (--group), over the non-excluded runs the filter selects:\n"
	"  cells    each block's value at each level (median of its runs there),\n"
	"           deviation_pct = (value / level median - 1) * 100, and the level's\n"
	"           position in the block's time order\n"
	"  levels   n, median, min, max, range_pct = (max - min) / median * 100, the\n"
	"           largest |deviation_pct|, and whether the level is within noise\n"
	"  drift    per block: mean, min and max deviation; 'high'/'low' when all of\n"
	"           at least 2 deviations have one sign and |mean| > --drift-pct\n"
	"  order    per block: levels in time order (generator start time, else the\n"
	"           results-table row order); counterbalanced when no level holds\n"
	"           the same position in two blocks\n"
	"  bursts   the first run of each level in time against the median of the\n"
	"           level's later runs; a burst when ratio >= --burst-factor (1.5)\n"
	"  soaks    a (level, block) with 3 or more runs: the first run against the\n"
	"           median of the rest (the sustained figure), and the rest's range\n"
	"  verdict  resolved when every level's range_pct <= --range-pct (5) and no\n"
	"           two neighbouring levels' [min, max] overlap; else within-noise,\n"
	"           naming the levels\n"
	"\n"
	CLI_POOLING_HELP
	"\n"
	"examples:\n"
	"  coreplan noise --by gomaxprocs --where block=1,2,3\n"
	"  coreplan noise --by sessions --group target,cfg --where block=1,2,3,soak\n";

static const char *const views[] = {"levels", "cells", "drift",   "order",
				    "bursts", "soaks", "verdict", NULL};

/* The request and the --group list it points into (freed after the run). */
struct noise_cli {
	struct noise_request req;
	char **group;
};

static int parse_positive(const char *name, const char *value, double *out)
{
	if (num_parse_real(value, out) || !(*out > 0))
		return err_usage("--%s needs a number above 0, got '%s'", name, value);
	return 0;
}

static int option(void *request, int which, const char *value)
{
	struct noise_cli *c = request;
	struct noise_request *req = &c->req;
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
	case OPT_BURST:
		rc = parse_positive("burst-factor", value, &req->opts.burst_factor);
		break;
	case OPT_RANGE:
		rc = parse_positive("range-pct", value, &req->opts.range_pct);
		break;
	case OPT_DRIFT:
		rc = parse_positive("drift-pct", value, &req->opts.drift_pct);
		break;
	}
	return rc;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct noise_request *req = &((struct noise_cli *)request)->req;
	struct noise_result res;
	int rc;
	req->filter = &a->filter;
	req->metric = a->metric;
	rc = noise_run(db, req, &res);
	if (rc == 0)
		rc = build_noise(req, &res, out);
	noise_result_release(&res);
	return rc;
}

int cmd_noise(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"noise", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct noise_cli c;
	int rc;
	memset(&c, 0, sizeof(c));
	noise_options_init(&c.req.opts);
	rc = cli_run(&def, &c, argc, argv, g);
	cli_free_list(c.group);
	return rc;
}
