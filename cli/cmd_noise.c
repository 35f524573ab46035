/* cmd_noise: `coreplan noise`, block agreement, order, bursts, soaks and a verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/noise.h"
#include "../reports/builders.h"

static struct noise_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("by", "FIELD", &req.by, "the level field, e.g. gomaxprocs or sessions",
		   .required = true),
	OPT_STRING("block", "FIELD", &req.block, "the block field (default block)"),
	CLI_SPEC_GROUP("analyse each combination of these fields separately (e.g. target,cfg)"),
	/* "better by a factor" of 1 or less would call every first run a burst */
	OPT_DOUBLE("burst-factor", "X", &req.opts.burst_factor,
		   "a first run this many times better than the later runs' median is a burst "
		   "(default 1.5)",
		   OPT_GT(1)),
	OPT_DOUBLE("drift-pct", "P", &req.opts.drift_pct,
		   "mean block deviation beyond which a one-signed block drifts (1)", OPT_GT(0)),
	OPT_CHOICE("metric-kind", "KIND", &req.kind, cli_metric_kinds,
		   "what the metric is when its name does not say", .given = &req.has_kind),
	OPT_FLAG("lower-is-better", &req.lower_is_better,
		 "lower values of the metric are better (bursts, the steps' effect)"),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"Within each group (--group), over the non-excluded runs the filter selects:\n"
	"  steps    per pair of neighbouring levels: n and median of each, difference =\n"
	"           median_to - median_from (difference_pct: / |median_from|), the\n"
	"           within-level spread, gap, change (rise/fall), effect (better/worse by\n"
	"           the metric's direction) and the step's verdict:\n"
	"             resolved      |difference| > spread, where the spread is measured\n"
	"                           from each level's median to its extreme run on the\n"
	"                           side facing the other level (spread_from + spread_to):\n"
	"                           the same as the two [min, max] ranges not overlapping;\n"
	"                           gap = |difference| - spread is the distance between\n"
	"                           them\n"
	"             within-noise  otherwise (the ranges overlap or touch)\n"
	"             unreplicated  either level has one run\n"
	"           Why extremes rather than a standard deviation: with the usual 3 runs a\n"
	"           level, disjoint ranges are the strongest separation a rank comparison\n"
	"           can see (chance 2/20 with no difference), the rule needs no shape of\n"
	"           distribution (error rates are mostly 0 with a few large values), and a\n"
	"           stray run on the far side of a level does not hide a step. On the\n"
	"           capacity corpus a pooled standard deviation agrees on throughput\n"
	"           but calls e2-small pg's error knee (err 0, 0, 0 at 100 sessions;\n"
	"           0.0008, 0.0012, 0.0065 at 300) within noise: one run inflates it.\n"
	"           With many runs a level the rule is strict: one far run makes a step\n"
	"           within-noise.\n"
	"  levels   n, median, min, max, range_pct = (max - min) / median * 100 (missing\n"
	"           when the median is 0), range_abs = max - min, the largest block\n"
	"           deviation, and the level's verdict: the worst of its steps'\n"
	"           (within-noise, unreplicated, resolved); unreplicated with one run\n"
	"  cells    each block's value at each level (median of its runs there),\n"
	"           deviation_abs = value - level median, deviation_pct = (value / level\n"
	"           median - 1) * 100 (missing when the median is 0), and the level's\n"
	"           position in the block's time order\n"
	"  drift    per block: mean, min and max deviation_pct; 'high'/'low' when all of\n"
	"           at least 2 deviations have one sign and |mean| > --drift-pct\n"
	"  order    per factor (the level, and each --group field) and block: its values\n"
	"           in the order their first run started (generator start time, else the\n"
	"           results-table row order); the level within each group, a group field\n"
	"           within each combination of the other group fields. Runs that overlap\n"
	"           in time (the later starts before the earlier's started_at +\n"
	"           duration_s) are simultaneous and share a position (a+b), as two\n"
	"           machines measured at once. Per factor (facts counterbalanced_FIELD):\n"
	"             yes           no value holds one position in every block where it\n"
	"                           ran (ABA, or 1,2,4,8 / 8,4,2,1 / 2,8,1,4)\n"
	"             no            some value does (100,300,500 in every block)\n"
	"             simultaneous  its values always ran at the same time: time order\n"
	"                           cannot favour one, nothing to counterbalance\n"
	"             one-block     only one block has 2 or more of its values\n"
	"             not-rotated   it never changes within a block\n"
	"           Only blocks where the factor has 2 or more values count. The fact\n"
	"           counterbalanced is true when the level is yes (or simultaneous) and\n"
	"           no group field is no or one-block.\n"
	"  bursts   the first run of each level in time against the median of the\n"
	"           level's later runs; a burst when it is better by --burst-factor\n"
	"           (1.5): ratio >= 1.5 when higher is better, ratio <= 1 / 1.5 when\n"
	"           lower is better\n"
	"  soaks    a (level, block) with 3 or more runs: the first run against the\n"
	"           median of the rest (the sustained figure), and the rest's range\n"
	"  verdict  per group: resolved when every step is resolved, within-noise when\n"
	"           a step is (naming the steps: steps_resolved, steps_within_noise,\n"
	"           steps_unreplicated), else unreplicated when a step is; single-level\n"
	"           with one level. The fact verdict is the worst group's word.\n"
	"\n"
	"The metric's kind and direction (facts metric_kind, metric_direction) come from\n"
	"the canonical field list (schema/README.md), else from its name (_ms a time,\n"
	"_kb memory, _per_s a rate, ...), else --metric-kind; an unknown name is assumed a\n"
	"rate, higher is better, and the document says so. --lower-is-better sets the\n"
	"direction.\n"
	"\n" CLI_POOLING_HELP "\n"
	"examples:\n"
	"  coreplan noise --by gomaxprocs --where block=1,2,3\n"
	"  coreplan noise --by sessions --group target,cfg --where block=1,2,3,soak --pool block\n"
	"  coreplan noise --by sessions --group target,cfg --where block=1,2,3 --metric err\n";

static void defaults(void)
{
	noise_options_init(&req.opts);
}

CLI_ANALYSIS_RUN(run, req, struct noise_result, noise_run, build_noise, noise_result_release)

const struct cli_def cli_noise = {
	.cmd = {"noise", NULL, details, specs, build_noise_views},
	CLI_ANALYSIS(req, run),
	.defaults = defaults,
	.group = &req.group,
};
