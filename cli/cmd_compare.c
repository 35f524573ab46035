/* cmd_compare: `coreplan compare`, two arms, one metric: effect, test, verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/benchstat.h"
#include "../analysis/compare.h"
#include "../analysis/comparepy.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <string.h>

static struct compare_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("a", "WHERE", &req.arm[0],
		   "arm a (the baseline): FIELD=V[,V] conditions, space-separated",
		   .required = true),
	OPT_STRING("b", "WHERE", &req.arm[1], "arm b (the change), same form", .required = true),
	OPT_DOUBLE("effect-bound", "PCT", &req.opts.v.effect_bound_pct,
		   "the largest effect the change could have, in % of the metric", OPT_GT(0),
		   .noun = "a percentage", .given = &req.opts.v.has_effect_bound),
	OPT_DOUBLE("alpha", "A", &req.opts.v.alpha, "two-sided significance level (default 0.05)",
		   OPT_GT(0), OPT_LT(1)),
	OPT_INT("seed", "S", &req.opts.seed, "bootstrap random seed (default 1)"),
	OPT_INT("resamples", "N", &req.opts.resamples, "bootstrap resamples (default 10000)",
		OPT_GE(100), OPT_LE(10000000)),
	OPT_MODE("lower-is-better", &req.direction, -1,
		 "a smaller metric is better (default: the metric's kind, see below)"),
	OPT_MODE("higher-is-better", &req.direction, 1, "a larger metric is better"),
	OPT_STRING("by", "FIELD", &req.by,
		   "compare within each level of FIELD, each with its own verdict (view levels)",
		   .conflicts = "pair-by"),
	OPT_STRING("pair-by", "FIELD", &req.pair_by,
		   "pair the runs of a and b that share FIELD's value, e.g. block (view pairs)"),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"Arms are sets of non-excluded runs: the --corpus/--where filter AND the arm's\n"
	"own conditions, e.g. --a 'gogc=default gomaxprocs=8' --b 'gogc=800 gomaxprocs=8'.\n"
	"Everything is b relative to a. The metric's kind and direction are its own\n"
	"(canonical and well-known fields, else its name: schema/README.md, \"Metric\n"
	"kinds\"); --lower-is-better / --higher-is-better override the direction.\n"
	"An arm whose runs differ in a field nobody declared (gomaxprocs 1, 4, 8 in\n"
	"one arm) is refused: compare them apart with --by or --pair-by, narrow with\n"
	"--where, or pool on purpose with --pool (a field an arm's own condition names\n"
	"with several values, --a gogc=100,400, is pooled on purpose).\n"
	"\n"
	"View benchstat (Go benchmarks: docs/importing.md, \"Importing tool outputs\"):\n"
	"per level of --by (or for the two arms), as golang.org/x/perf/cmd/benchstat\n"
	"prints it:\n"
	"each arm's median, a_ci_pct/b_ci_pct = the half-width of the distribution-free\n"
	"95% interval of the median from order statistics (binomial; normal beyond 30\n"
	"runs) in % of the median (missing: benchstat's ± inf, under 6 runs), delta_pct\n"
	"= median b / median a - 1 in % when the two-sided Mann-Whitney p <= 0.05, else\n"
	"change ~; p is exact when no value ties and each arm has <= 50 runs, or exact\n"
	"given the ties with <= 25 runs each, else the normal approximation (tie and\n"
	"continuity corrected). E.g. compare --a file=old.txt --b file=new.txt --by\n"
	"name --metric ns_per_op --view benchstat.\n"
	"\n"
	"scale: log when every value of both arms is above 0 (ratios, on ln values);\n"
	"  otherwise absolute (a median of 0 is fine: spreads, effects and intervals\n"
	"  are differences in the metric's units, and every ratio is missing).\n"
	"\n"
	"view comparison (the default): one row, the comparison the verdict is about\n"
	"  a_*, b_*      n, median, min, max, spread_pct = (max / min - 1) * 100 (the\n"
	"                within-arm spread), range = max - min\n"
	"  ratio         median(b) / median(a); ratio_lo, ratio_hi: bootstrap 95% interval\n"
	"                (percentile method, 10,000 resamples of each arm with\n"
	"                replacement, MT19937 seeded with --seed: same seed, same\n"
	"                interval); none when an arm has one run. diff: median(b) -\n"
	"                median(a)\n"
	"  test, t, df, t_p  the test that decides: welch (Welch's t on ln values, df by\n"
	"                Welch-Satterthwaite, two-sided p from Student's t), paired-t\n"
	"                (--pair-by), exact (no variation in either arm); --by: the\n"
	"                summary's interval method (within, across)\n"
	"  gm_ratio      exp(mean ln b - mean ln a), the ratio of geometric means, and\n"
	"                its 95% interval exp(diff -+ t_{0.975, df} se) (gm_ratio_lo,\n"
	"                gm_ratio_hi); absolute scale: mean_diff and its interval\n"
	"  mw_u, mw_p    evidence: two-sided Mann-Whitney U of b against a (exact when\n"
	"                there are no ties and n_a + n_b <= 40, else normal with tie\n"
	"                correction); min_p is the smallest p these sizes can reach\n"
	"                (0.1 at 3 runs an arm); ranges_disjoint: the arms' [min, max]\n"
	"                ranges do not overlap (noise's old rule: evidence only)\n"
	"  effect_pct    the observed effect, max(r, 1/r) - 1 in % with r the ratio of\n"
	"                geometric means; effect_over_spread_a/_b: the medians' effect /\n"
	"                each arm's spread; spread_over_bound_a/_b: spread / --effect-bound\n"
	"\n"
	"verdict (analysis/verdict.h, docs/statistics.md; the same rule noise and sweep\n"
	"use for a step, so the same runs get the same verdict everywhere):\n"
	"  higher/lower, faster/slower, uses more/uses less   the test's p < alpha;\n"
	"                 the word follows the metric's kind: a rate or count higher /\n"
	"                 lower, a time or latency faster / slower, memory and CPU uses\n"
	"                 more / uses less (fact change: \"1.344x [1.287, 1.405] higher\")\n"
	"  no-difference  not real, --effect-bound given and the test's 95% interval of\n"
	"                 the ratio lies inside 1 -+ bound (absolute: of the difference\n"
	"                 inside -+ bound% of a's median): an effect of the bound's size\n"
	"                 is ruled out\n"
	"  within-noise   otherwise; the reason gives the p, the evidence and the runs\n"
	"                 needed\n"
	"  unreplicated   an arm with one run (--pair-by: one pair): no spread, no\n"
	"                 interval, no test\n"
	"  runs_needed    per arm, n = ceil(2 (z_{1-alpha/2} + z_{0.8})^2 (s / ln(1 + e))^2),\n"
	"                 s = the pooled standard deviation of ln values over the arms\n"
	"                 with 2+ runs, e = --effect-bound, else the observed effect\n"
	"                 (absolute: s of values, e in the metric's units); never fewer\n"
	"                 than 3. --pair-by: pairs, ceil((z + z)^2 (s_d / ln(1 + e))^2)\n"
	"                 with s_d the sd of the pairs' ln differences\n"
	"\n"
	"--by FIELD: each level of FIELD with runs in both arms is compared apart and\n"
	"  keeps its own verdict (view levels). The summary is a count (\"3 of 4 faster,\n"
	"  1 within-noise\") with the geometric mean of the levels' ratios and its 95%\n"
	"  interval: from the levels' own standard errors when every level has a test\n"
	"  (se = sqrt(sum se_i^2) / k, df by Welch-Satterthwaite: within), else from\n"
	"  their spread across the levels (a one-sample t of the k ln ratios, df k - 1:\n"
	"  across). A field that varies within a level of an arm (GOMAXPROCS beside a\n"
	"  Go benchmark's name) splits the levels too: \"NAME, gomaxprocs=2\" (fact\n"
	"  split_by). Runs of a level only one arm has are left out, with the reason.\n"
	"--pair-by FIELD: the run of a and the run of b that share FIELD's value form a\n"
	"  pair (view pairs); the paired t on ln differences, df = pairs - 1, ratio =\n"
	"  exp(mean difference) with its interval. A value with no run in one arm, or\n"
	"  more than one in an arm, pairs nothing: its runs are left out, with the reason.\n"
	"\n"
	"view arms: one row per arm (n, median, min, max, spread_pct, spread_over_bound);\n"
	"  arm b's row holds the unpaired comparison of the same runs (ratio, its\n"
	"  bootstrap interval, u, p, exact, min_p, verdict, runs_needed, reason).\n";

/*
 * --view benchstat without --by: benchstat's tables over every unit of Go
 * runs (reports/build_benchstat.c). Runs of other corpora hold one metric
 * each: *not_go is set and compare's own benchstat row answers instead.
 */
static int run_benchstat(sqlite3 *db, struct cli_args *a, struct doc **out, bool *not_go)
{
	struct benchstat_request bs;
	struct benchstat_result res;
	int rc;
	benchstat_request_init(&bs);
	bs.filter = &a->filter;
	bs.arm[0] = req.arm[0];
	bs.arm[1] = req.arm[1];
	bs.metric = a->metric_defaulted ? NULL : a->metric; /* benchstat shows every unit */
	if (req.opts.v.alpha > 0)
		bs.alpha = req.opts.v.alpha; /* --alpha (the default is benchstat's too) */
	rc = benchstat_run(db, &bs, &res);
	if (rc == 0)
		rc = build_benchstat(&bs, &res, out);
	else if ((*not_go = res.not_go))
		err_clear();
	benchstat_tables_release(&res);
	return rc;
}

/*
 * --view comparepy: Google Benchmark's compare.py on the two arms
 * (reports/build_comparepy.c); on runs of other corpora *not_gbench is set
 * and compare's own compare.py rows answer instead.
 */
static int run_comparepy(sqlite3 *db, struct cli_args *a, struct doc **out, bool *not_gbench)
{
	struct comparepy_request cp = {&a->filter, {req.arm[0], req.arm[1]}};
	struct comparepy_result res;
	int rc = comparepy_run(db, &cp, &res);
	if (rc == 0)
		rc = build_comparepy(&cp, &res, out);
	else if ((*not_gbench = res.not_gbench))
		err_clear();
	comparepy_release(&res);
	return rc;
}

CLI_ANALYSIS_RUN(run_compare, req, struct compare_result, compare_run, build_compare,
		 compare_result_release)

/* The views of the tools' own tables first, where the runs are the tool's. */
static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	int rc;
	bool other = false; /* runs that are not the tool's: compare's own rows */
	if (a->view && !strcmp(a->view, "comparepy") &&
	    ((rc = run_comparepy(db, a, out, &other)) == 0 || !other))
		return rc;
	if (a->view && !strcmp(a->view, "benchstat") && !req.by && !req.pair_by &&
	    ((rc = run_benchstat(db, a, out, &other)) == 0 || !other))
		return rc;
	return run_compare(db, a, out);
}

static void defaults(void)
{
	compare_options_init(&req.opts);
}

const struct cli_def cli_compare = {
	.cmd = {"compare", NULL, details, specs, build_compare_views},
	CLI_ANALYSIS(req, run),
	.defaults = defaults,
};
