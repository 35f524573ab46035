/* cmd_compare: `coreplan compare`, two arms, one metric: effect, test, verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/compare.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/builders.h"

#include <stdint.h>
#include <string.h>

enum {
	OPT_A = CLI_ANALYSIS_COUNT,
	OPT_B,
	OPT_EFFECT,
	OPT_ALPHA,
	OPT_SEED,
	OPT_RESAMPLES,
	OPT_LOWER,
	OPT_HIGHER,
};

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_A] = {"a", 0, "WHERE", "arm a (the baseline): FIELD=V[,V] conditions, space-separated", .required = true},
	[OPT_B] = {"b", 0, "WHERE", "arm b (the change), same form", .required = true},
	[OPT_EFFECT] = {"effect-bound", 0, "PCT",
			"the largest effect the change could have, in % of the metric", false},
	[OPT_ALPHA] = {"alpha", 0, "A", "two-sided significance level (default 0.05)", false},
	[OPT_SEED] = {"seed", 0, "S", "bootstrap random seed (default 1)", false},
	[OPT_RESAMPLES] = {"resamples", 0, "N", "bootstrap resamples (default 10000)", false},
	[OPT_LOWER] = {"lower-is-better", 0, NULL,
		       "a smaller metric is better (default for *_ms, *_s, *_per_op metrics)",
		       false},
	[OPT_HIGHER] = {"higher-is-better", 0, NULL, "a larger metric is better", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Arms are sets of non-excluded runs: the --corpus/--where filter AND the arm's\n"
	"own conditions, e.g. --a 'gogc=default gomaxprocs=8' --b 'gogc=800 gomaxprocs=8'.\n"
	"\n"
	"columns:\n"
	"  per arm       n, median, min, max, spread_pct = (max / min - 1) * 100\n"
	"  ratio         median(b) / median(a); ratio_lo, ratio_hi: bootstrap 95% interval\n"
	"                (percentile method, 10,000 resamples of each arm with\n"
	"                replacement, MT19937 seeded with --seed: same seed, same interval)\n"
	"  u, p, exact   two-sided Mann-Whitney U of b against a: exact distribution when\n"
	"                there are no ties and n_a + n_b <= 40, else the normal\n"
	"                approximation with tie-corrected variance and continuity\n"
	"                correction 0.5; min_p is the smallest p these sizes can reach\n"
	"  verdict       unresolvable (min_p > alpha, or an arm's spread exceeds\n"
	"                --effect-bound: factor printed), faster / slower (p < alpha;\n"
	"                b relative to a), no-difference\n"
	"  runs_needed   per arm, to detect an effect of --effect-bound (else of the\n"
	"                observed |ratio - 1|) at the observed spread, normal approximation:\n"
	"                n = ceil(2 (z_{1-alpha/2} + z_{0.8})^2 (cv / effect)^2), power 0.8,\n"
	"                cv = root mean square of sd/mean over the arms with 2+ runs;\n"
	"                never fewer than the rank test needs to reach alpha at all\n"
	"                (smallest k with 2 / C(2k, k) <= alpha: 4 per arm at 0.05)\n";

static const char *const views[] = {"arms", NULL};

static int option(void *request, int which, const char *value)
{
	struct compare_request *req = request;
	struct compare_options *o = &req->opts;
	int64_t i64;
	switch (which) {
	case OPT_A:
	case OPT_B:
		req->arm[which - OPT_A] = value;
		return 0;
	case OPT_EFFECT:
		o->has_effect_bound = true;
		if (num_parse_real(value, &o->effect_bound_pct) || !(o->effect_bound_pct > 0))
			return err_usage("--effect-bound needs a percentage above 0, got '%s'",
					 value);
		return 0;
	case OPT_ALPHA:
		if (num_parse_real(value, &o->alpha) || !(o->alpha > 0 && o->alpha < 1))
			return err_usage("--alpha needs a number in (0, 1), got '%s'", value);
		return 0;
	case OPT_SEED:
		if (num_parse_int(value, &i64) || i64 < 0)
			return err_usage("--seed needs a whole number, got '%s'", value);
		o->seed = (uint64_t)i64;
		return 0;
	case OPT_RESAMPLES:
		if (num_parse_int(value, &i64) || i64 < 100 || i64 > 10000000)
			return err_usage("--resamples needs 100 to 10000000, got '%s'", value);
		o->resamples = (size_t)i64;
		return 0;
	case OPT_LOWER:
	case OPT_HIGHER:
		req->direction = which == OPT_LOWER ? -1 : 1;
		return 0;
	}
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct compare_request *req = request;
	struct compare_result res;
	int rc;
	req->filter = &a->filter;
	req->metric = a->metric;
	rc = compare_run(db, req, &res);
	if (rc == 0)
		rc = build_compare(req, &res, out);
	compare_result_release(&res);
	return rc;
}

int cmd_compare(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"compare", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct compare_request req;
	memset(&req, 0, sizeof(req));
	compare_options_init(&req.opts);
	return cli_run(&def, &req, argc, argv, g);
}
