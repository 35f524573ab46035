/* cmd_compare: `coreplan compare`, two arms, one metric: effect, test, verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/compare.h"
#include "../analysis/select.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_A = COMMON_COUNT,
	OPT_B,
	OPT_EFFECT,
	OPT_ALPHA,
	OPT_SEED,
	OPT_RESAMPLES,
	OPT_LOWER,
	OPT_HIGHER,
};

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_A] = {"a", 0, "WHERE", "arm a (the baseline): FIELD=V[,V] conditions, space-separated",
		   false},
	[OPT_B] = {"b", 0, "WHERE", "arm b (the change), same form", false},
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

struct args {
	struct common_args common;
	const char *arm_text[2];
	struct compare_options opts;
	int direction; /* -1 lower is better, +1 higher, 0 from the metric's name */
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"compare", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int64_t i64;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT) {
			rc = common_opt(&a->common, which, value);
		} else if (which == OPT_A || which == OPT_B) {
			a->arm_text[which - OPT_A] = value;
		} else if (which == OPT_EFFECT) {
			a->opts.has_effect_bound = true;
			if (num_parse_real(value, &a->opts.effect_bound_pct) ||
			    !(a->opts.effect_bound_pct > 0))
				rc = err_usage("--effect-bound needs a percentage above 0, got '%s'",
					       value);
		} else if (which == OPT_ALPHA) {
			if (num_parse_real(value, &a->opts.alpha) ||
			    !(a->opts.alpha > 0 && a->opts.alpha < 1))
				rc = err_usage("--alpha needs a number in (0, 1), got '%s'", value);
		} else if (which == OPT_SEED) {
			if (num_parse_int(value, &i64) || i64 < 0)
				rc = err_usage("--seed needs a whole number, got '%s'", value);
			a->opts.seed = (uint64_t)i64;
		} else if (which == OPT_RESAMPLES) {
			if (num_parse_int(value, &i64) || i64 < 100 || i64 > 10000000)
				rc = err_usage("--resamples needs 100 to 10000000, got '%s'", value);
			a->opts.resamples = (size_t)i64;
		} else {
			a->direction = which == OPT_LOWER ? -1 : 1;
		}
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && (!a->arm_text[0] || !a->arm_text[1]))
		rc = err_usage("both --a and --b are required");
	opt_parser_release(&p);
	return rc;
}

static bool lower_is_better_name(const char *metric)
{
	static const char *const suffixes[] = {"_ms", "_s", "_per_op", "_per_int", NULL};
	size_t n = strlen(metric);
	for (size_t i = 0; suffixes[i]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && !strcmp(metric + n - k, suffixes[i]))
			return true;
	}
	return false;
}

static int arm_values(sqlite3 *db, const struct args *a, int arm, struct selection *sel,
		      double **values)
{
	struct run_filter f;
	int rc = common_arm_filter(&a->common, a->arm_text[arm], &f);
	if (rc == 0) {
		struct select_spec spec = {.filter = &f,
					   .by = NULL,
					   .metric = a->common.metric,
					   .block = NULL,
					   .group = NULL};
		rc = select_runs(db, &spec, sel);
	}
	run_filter_release(&f);
	if (rc)
		return rc;
	*values = malloc((sel->n ? sel->n : 1) * sizeof(double));
	if (!*values)
		return err_set("out of memory");
	for (size_t i = 0; i < sel->n; i++)
		(*values)[i] = sel->runs[i].metric;
	return 0;
}

static int print_table(const struct compare *c, const struct args *a)
{
	static const char *const cols[] = {
		"arm",    "where",     "n",        "median",   "min",         "max",
		"spread_pct", "spread_over_bound", "ratio", "ratio_lo", "ratio_hi", "u",
		"p",      "exact",     "min_p",    "verdict",  "runs_needed", "reason"};
	enum { NCOLS = sizeof(cols) / sizeof(cols[0]) };
	enum out_format f = a->common.format;
	struct out_table *t = out_table_new(NCOLS, cols);
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 2; t && i < NCOLS; i++)
		if (i != 15 && i != 17 && i != 13)
			out_table_set_kind(t, i, OUT_NUM);
	for (int arm = 0; rc == 0 && arm < 2; arm++) {
		const struct summary *s = arm ? &c->b : &c->a;
		char b[NCOLS][32];
		const char *cells[NCOLS] = {arm ? "b" : "a", a->arm_text[arm]};
		snprintf(b[2], 32, "%zu", s->n);
		cells[2] = b[2];
		cells[3] = common_num(s->median, f, 'g', 6, b[3]);
		cells[4] = common_num(s->min, f, 'g', 6, b[4]);
		cells[5] = common_num(s->max, f, 'g', 6, b[5]);
		cells[6] = common_num(s->spread_pct, f, 'f', 1, b[6]);
		cells[7] = common_num(arm ? c->spread_over_bound_b : c->spread_over_bound_a, f, 'f',
				      1, b[7]);
		if (arm == 1) {
			cells[8] = common_num(c->ratio.ratio, f, 'f', 4, b[8]);
			cells[9] = common_num(c->ratio.lo, f, 'f', 4, b[9]);
			cells[10] = common_num(c->ratio.hi, f, 'f', 4, b[10]);
			cells[11] = common_num(c->test.u, f, 'g', 6, b[11]);
			cells[12] = common_num(c->test.p, f, 'g', 4, b[12]);
			cells[13] = c->test.exact ? "exact" : "normal";
			cells[14] = common_num(c->test.min_p, f, 'g', 4, b[14]);
			cells[15] = c->verdict;
			cells[16] = common_num(c->runs_needed, f, 'g', 6, b[16]);
			cells[17] = c->reason;
		}
		rc = out_table_add_row(t, cells);
	}
	if (rc == 0)
		rc = out_table_write(t, f, stdout);
	out_table_free(t);
	return rc;
}

static void print_method(const struct compare *c, const struct args *a)
{
	FILE *fp = a->common.format == OUT_MD ? stdout : stderr;
	const char *bullet = a->common.format == OUT_MD ? "- " : "";
	if (a->common.format == OUT_MD)
		fprintf(fp, "\n");
	fprintf(fp, "%sverdict: %s (%s)\n", bullet, c->verdict, c->reason);
	fprintf(fp, "%smetric %s, %s is better; ratio = median(b) / median(a) = %.4f, bootstrap "
		    "95%% interval [%.4f, %.4f] (%zu resamples, seed %llu)\n",
		bullet, a->common.metric, c->opts.lower_is_better ? "lower" : "higher",
		c->ratio.ratio, c->ratio.lo, c->ratio.hi, c->ratio.resamples,
		(unsigned long long)c->ratio.seed);
	if (isnan(c->runs_needed))
		fprintf(fp, "%sruns needed: not computable (an arm needs 2 runs for a spread)\n",
			bullet);
	else
		fprintf(fp,
			"%sruns needed per arm to resolve a %.3g%% effect at cv %.4f: %.0f "
			"(normal approximation, power 0.8, two-sided alpha %.3g; at least %.0f, "
			"the fewest with which the rank test can reach alpha)\n",
			bullet, c->effect_pct, c->cv, c->runs_needed, c->opts.alpha,
			c->rank_floor);
}

int cmd_compare(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct selection sel[2] = {{0}, {0}};
	double *values[2] = {NULL, NULL};
	struct compare c;
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	common_args_init(&a.common);
	compare_options_init(&a.opts);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	a.opts.lower_is_better = a.direction ? a.direction < 0
					     : lower_is_better_name(a.common.metric);
	rc = db_open(g->db_path, true, &db);
	for (int arm = 0; rc == 0 && arm < 2; arm++)
		rc = arm_values(db, &a, arm, &sel[arm], &values[arm]);
	if (rc == 0)
		rc = compare_arms(values[0], sel[0].n, values[1], sel[1].n, &a.opts, &c);
	if (rc == 0)
		rc = print_table(&c, &a);
	if (rc == 0) {
		print_method(&c, &a);
		common_print_left_out(&sel[0], a.common.format);
		common_print_left_out(&sel[1], a.common.format);
	}
done:
	for (int arm = 0; arm < 2; arm++) {
		selection_release(&sel[arm]);
		free(values[arm]);
	}
	db_close(db);
	common_args_release(&a.common);
	return rc;
}
