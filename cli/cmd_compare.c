/* cmd_compare: `coreplan compare`, two arms, one metric: effect, test, verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/compare.h"
#include "../reports/builders.h"

#include <string.h>

static struct compare_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("a", "WHERE", &req.arm[0],
		   "arm a (the baseline): FIELD=V[,V] conditions, space-separated",
		   .required = true),
	OPT_STRING("b", "WHERE", &req.arm[1], "arm b (the change), same form", .required = true),
	OPT_DOUBLE("effect-bound", "PCT", &req.opts.effect_bound_pct,
		   "the largest effect the change could have, in % of the metric", OPT_GT(0),
		   .noun = "a percentage", .given = &req.opts.has_effect_bound),
	OPT_DOUBLE("alpha", "A", &req.opts.alpha, "two-sided significance level (default 0.05)",
		   OPT_GT(0), OPT_LT(1)),
	OPT_INT("seed", "S", &req.opts.seed, "bootstrap random seed (default 1)"),
	OPT_INT("resamples", "N", &req.opts.resamples, "bootstrap resamples (default 10000)",
		OPT_GE(100), OPT_LE(10000000)),
	OPT_MODE("lower-is-better", &req.direction, -1,
		 "a smaller metric is better (default for err and times: see below)"),
	OPT_MODE("higher-is-better", &req.direction, 1, "a larger metric is better"),
	OPT_STRING("by", "FIELD", &req.by,
		   "compare within each level of FIELD and pool the levels (view levels)",
		   .conflicts = "pair-by"),
	OPT_STRING("pair-by", "FIELD", &req.pair_by,
		   "pair the runs of a and b that share FIELD's value, e.g. block (view pairs)"),
	OPT_END,
};

static const char details[] =
	"Arms are sets of non-excluded runs: the --corpus/--where filter AND the arm's\n"
	"own conditions, e.g. --a 'gogc=default gomaxprocs=8' --b 'gogc=800 gomaxprocs=8'.\n"
	"Everything is b relative to a. Higher is better unless --lower-is-better or the\n"
	"metric is a time or an error rate (err, *_err, *_ms, *_us, *_ns, *_s, *_per_op,\n"
	"*_per_int).\n"
	"\n"
	"View benchstat (Go benchmarks: README.md, \"Importing tool outputs\"): per level\n"
	"of --by (or for the two arms), as golang.org/x/perf/cmd/benchstat prints it:\n"
	"each arm's median, a_ci_pct/b_ci_pct = the half-width of the distribution-free\n"
	"95% interval of the median from order statistics (binomial; normal beyond 30\n"
	"runs) in % of the median (empty: benchstat's ± inf, under 6 runs), delta_pct\n"
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
	"  test, t, df, t_p  the t test: welch (unpaired: Welch's t on ln values, df by\n"
	"                Welch-Satterthwaite, two-sided p from Student's t), pooled-t\n"
	"                (--by) or paired-t (--pair-by)\n"
	"  gm_ratio      exp(mean ln b - mean ln a), the ratio of geometric means, and\n"
	"                its 95% interval exp(diff -+ t_{0.975, df} se) (gm_ratio_lo,\n"
	"                gm_ratio_hi); absolute scale: mean_diff and its interval\n"
	"  mw_u, mw_p    two-sided Mann-Whitney U of b against a: exact distribution when\n"
	"                there are no ties and n_a + n_b <= 40, else the normal\n"
	"                approximation with tie-corrected variance and continuity\n"
	"                correction 0.5; min_p is the smallest p these sizes can reach\n"
	"  effect_pct    the observed effect, max(r, 1/r) - 1 in % with r the ratio\n"
	"                (the larger over the smaller, read like spread_pct); absolute\n"
	"                scale: effect = |difference|. effect_over_spread_a/_b: effect /\n"
	"                each arm's spread; spread_over_bound_a/_b: spread / --effect-bound\n"
	"\n"
	"verdict (method):\n"
	"  faster/slower  the t test's p < alpha AND a confirmation (b's direction):\n"
	"                 unpaired, the effect exceeds both arms' within-arm spread\n"
	"                 (welch+separation) or the rank test's p < alpha too\n"
	"                 (welch+rank), with the medians moving the way the means do;\n"
	"                 --pair-by, every pair moves the same way (paired-t+agreement);\n"
	"                 --by, every level does (pooled-t+agreement)\n"
	"  no-difference  --effect-bound given and the t test's 95% interval of the\n"
	"                 ratio lies inside 1 -+ bound (absolute: of the difference\n"
	"                 inside -+ bound% of a's median): an effect of the bound's size\n"
	"                 is ruled out (equivalence)\n"
	"  unresolvable   otherwise (none); the reason gives the p, the effect against\n"
	"                 the spreads, the spreads against the bound and the runs needed.\n"
	"                 One run in an arm: no spread, no interval, no test\n"
	"  runs_needed    per arm, n = ceil(2 (z_{1-alpha/2} + z_{0.8})^2 (s / ln(1 + e))^2),\n"
	"                 s = the pooled standard deviation of ln values over the arms\n"
	"                 with 2+ runs, e = --effect-bound, else the observed effect\n"
	"                 (absolute: s of values, e in the metric's units); never fewer\n"
	"                 than 3. --pair-by: pairs, ceil((z + z)^2 (s_d / ln(1 + e))^2)\n"
	"                 with s_d the sd of the pairs' ln differences. --by: per arm in\n"
	"                 each level, the two-sample n divided by the number of levels.\n"
	"                 Unpaired, when Welch's p < alpha but neither confirmation\n"
	"                 holds: at least 4 (at alpha 0.05), the fewest runs per arm with\n"
	"                 which the rank test can reach alpha\n"
	"\n"
	"--by FIELD: each level of FIELD with runs in both arms is compared apart (view\n"
	"  levels); the pooled estimate is the inverse-variance weighted mean of the\n"
	"  levels' ln ratios (weights 1 / se^2, se = 1 / sqrt(sum w), df by\n"
	"  Welch-Satterthwaite: (sum w)^2 / sum(w^2 / df)) when every level has 2+ runs\n"
	"  per arm; else the geometric mean of the levels' ratios with their range and\n"
	"  no interval (pooled_method says which; the verdict is then unresolvable).\n"
	"  Runs of a level only one arm has are left out, with the reason.\n"
	"--pair-by FIELD: the run of a and the run of b that share FIELD's value form a\n"
	"  pair (view pairs); the paired t on ln differences, df = pairs - 1, ratio =\n"
	"  exp(mean difference) with its interval. A value with no run in one arm, or\n"
	"  more than one in an arm, pairs nothing: its runs are left out, with the reason.\n"
	"\n"
	"view arms: one row per arm (n, median, min, max, spread_pct, spread_over_bound);\n"
	"  arm b's row holds the unpaired comparison of the same runs (ratio, its\n"
	"  bootstrap interval, u, p, exact, min_p, verdict, runs_needed, reason).\n";

static const char *const views[] = {"comparison", "arms", "levels", "pairs", "benchstat", NULL};

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct compare_result res;
	int rc;
	req.filter = &a->filter;
	req.metric = a->metric;
	rc = compare_run(db, &req, &res);
	if (rc == 0)
		rc = build_compare(&req, &res, out);
	compare_result_release(&res);
	return rc;
}

int cmd_compare(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"compare", NULL, details, specs, views}, CLI_DB_READ, NULL, run};
	memset(&req, 0, sizeof(req));
	compare_options_init(&req.opts);
	return cli_run(&def, argc, argv, g);
}
