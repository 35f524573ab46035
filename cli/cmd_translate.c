/* cmd_translate: `coreplan translate`, carry figures from one CPU to another. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/select.h"
#include "../analysis/translate.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../importers/table.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_FROM = COMMON_COUNT, OPT_TO, OPT_APPLY, OPT_SEED };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_FROM] = {"from", 0, "WHERE", "runs on the CPU figures were measured on, e.g. "
					  "'subcorpus=m1'",
		      false},
	[OPT_TO] = {"to", 0, "WHERE", "runs of the same workload on the other CPU", false},
	[OPT_APPLY] = {"apply", 0, "FILE",
		       "translate a table of figures (columns value, unit; name optional)",
		       false},
	[OPT_SEED] = {"seed", 0, "S", "bootstrap random seed (default 1)", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Paired runs of the same workload on two CPUs give:\n"
	"  rate        factor = from / to of the metric (default tput): a from-rate\n"
	"              divided by it is a to-rate, a from-time multiplied by it a\n"
	"              to-time; on medians (bootstrap 95% interval, 10,000 resamples,\n"
	"              seeded) and on means (no interval), so a figure quoted elsewhere\n"
	"              can be matched to its statistic\n"
	"  cpu_per_op  cpu_s / interactions per run (as each corpus records cpu_s),\n"
	"              factor = to / from\n"
	"  idle_rss, load_rss  factor = to / from; memory is multiplied by it\n"
	"range_lo, range_hi: the ratios of the two arms' range ends.\n"
	"\n"
	"--apply FILE reads a headed TSV/CSV of figures measured on the from-CPU,\n"
	"with columns value and unit (a rate such as int/s or qps, a time such as ms\n"
	"or us, a memory size such as kB or MiB) and optionally name, and writes each\n"
	"translated with the median factor and its interval, labelled `translated`:\n"
	"rates divided by the rate factor, times multiplied by it, memory multiplied\n"
	"by the loaded-RSS factor.\n"
	"\n"
	"example:\n"
	"  coreplan translate --from subcorpus=m1 --to subcorpus=core\n";

struct args {
	struct common_args common;
	const char *from, *to, *apply;
	uint64_t seed;
};

struct arm {
	struct selection sel;
	double *rate, *cpu, *idle, *load;
	char name[96];
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"translate", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int64_t seed;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT)
			rc = common_opt(&a->common, which, value);
		else if (which == OPT_FROM)
			a->from = value;
		else if (which == OPT_TO)
			a->to = value;
		else if (which == OPT_APPLY)
			a->apply = value;
		else if (num_parse_int(value, &seed) || seed < 0)
			rc = err_usage("--seed needs a whole number, got '%s'", value);
		else
			a->seed = (uint64_t)seed;
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && (!a->from || !a->to))
		rc = err_usage("both --from and --to are required");
	opt_parser_release(&p);
	return rc;
}

static double field_number(const char *text)
{
	double v;
	return text && num_parse_real(text, &v) == 0 ? v : NAN;
}

/* The arm's name: its runs' common cpu_family, else its WHERE text. */
static void arm_name(struct arm *arm, const char *where)
{
	const char *family = arm->sel.n ? arm->sel.runs[0].extra[3] : NULL;
	for (size_t i = 1; family && i < arm->sel.n; i++)
		if (!arm->sel.runs[i].extra[3] || strcmp(arm->sel.runs[i].extra[3], family))
			family = NULL;
	snprintf(arm->name, sizeof(arm->name), "%s", family ? family : where);
}

static int load_arm(sqlite3 *db, const struct args *a, const char *where, struct arm *arm)
{
	static const char *const extra[] = {"cpu_s", "interactions", "idle_rss_kb", "cpu_family",
					    "load_rss_kb", NULL};
	struct run_filter f;
	int rc = common_arm_filter(&a->common, where, &f);
	if (rc == 0) {
		struct select_spec spec = {
			.filter = &f, .metric = a->common.metric, .extra = extra};
		rc = select_runs(db, &spec, &arm->sel);
	}
	run_filter_release(&f);
	if (rc)
		return rc;
	if (arm->sel.n == 0)
		return err_set("no runs for '%s' (check the conditions and --corpus)", where);
	arm->rate = calloc(arm->sel.n, sizeof(double));
	arm->cpu = calloc(arm->sel.n, sizeof(double));
	arm->idle = calloc(arm->sel.n, sizeof(double));
	arm->load = calloc(arm->sel.n, sizeof(double));
	if (!arm->rate || !arm->cpu || !arm->idle || !arm->load)
		return err_set("out of memory");
	for (size_t i = 0; i < arm->sel.n; i++) {
		char **x = arm->sel.runs[i].extra;
		arm->rate[i] = arm->sel.runs[i].metric;
		arm->cpu[i] = field_number(x[0]) * 1e6 / field_number(x[1]);
		arm->idle[i] = field_number(x[2]);
		arm->load[i] = field_number(x[4]);
	}
	arm_name(arm, where);
	return 0;
}

static void arm_release(struct arm *arm)
{
	selection_release(&arm->sel);
	free(arm->rate);
	free(arm->cpu);
	free(arm->idle);
	free(arm->load);
}

enum { FIG_RATE, FIG_RATE_MEAN, FIG_CPU, FIG_IDLE, FIG_LOAD, NFIGS };

static int compute(const struct arm *from, const struct arm *to, uint64_t seed,
		   struct translate_figure *figs)
{
	const struct translate_input inputs[NFIGS] = {
		{"rate", from->rate, from->sel.n, to->rate, to->sel.n, false},
		{"rate", from->rate, from->sel.n, to->rate, to->sel.n, false},
		{"cpu_us_per_op", from->cpu, from->sel.n, to->cpu, to->sel.n, true},
		{"idle_rss_kb", from->idle, from->sel.n, to->idle, to->sel.n, true},
		{"load_rss_kb", from->load, from->sel.n, to->load, to->sel.n, true},
	};
	int rc = 0;
	for (int i = 0; rc == 0 && i < NFIGS; i++)
		rc = translate_figure(&inputs[i], i == FIG_RATE_MEAN ? "mean" : "median", seed,
				      from->name, to->name, &figs[i]);
	return rc;
}

static int print_figures(const struct translate_figure *figs, enum out_format f)
{
	static const char *const cols[] = {
		"figure",   "statistic", "from_n", "from_value", "from_min", "from_max",
		"to_n",     "to_value",  "to_min", "to_max",     "factor",   "ci_lo",
		"ci_hi",    "range_lo",  "range_hi", "rule",     "in_words"};
	enum { N = sizeof(cols) / sizeof(cols[0]) };
	struct out_table *t = out_table_new(N, cols);
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 2; t && i < 15; i++)
		out_table_set_kind(t, i, OUT_NUM);
	for (int i = 0; rc == 0 && i < NFIGS; i++) {
		const struct translate_figure *x = &figs[i];
		bool mean = !strcmp(x->statistic, "mean");
		char b[N][32];
		const char *cells[N] = {x->name, x->statistic};
		if (x->measured) {
			snprintf(b[2], 32, "%zu", x->from.n);
			snprintf(b[6], 32, "%zu", x->to.n);
			cells[2] = b[2];
			cells[3] = common_num(mean ? x->from.mean : x->from.median, f, 'g', 6, b[3]);
			cells[4] = common_num(x->from.min, f, 'g', 6, b[4]);
			cells[5] = common_num(x->from.max, f, 'g', 6, b[5]);
			cells[6] = b[6];
			cells[7] = common_num(mean ? x->to.mean : x->to.median, f, 'g', 6, b[7]);
			cells[8] = common_num(x->to.min, f, 'g', 6, b[8]);
			cells[9] = common_num(x->to.max, f, 'g', 6, b[9]);
			cells[10] = common_num(x->factor, f, 'f', 4, b[10]);
			cells[11] = x->has_ci ? common_num(x->ci_lo, f, 'f', 4, b[11]) : NULL;
			cells[12] = x->has_ci ? common_num(x->ci_hi, f, 'f', 4, b[12]) : NULL;
			cells[13] = common_num(x->range_lo, f, 'f', 4, b[13]);
			cells[14] = common_num(x->range_hi, f, 'f', 4, b[14]);
			cells[15] = x->rule;
		}
		cells[16] = x->words;
		rc = out_table_add_row(t, cells);
	}
	if (rc == 0)
		rc = out_table_write(t, f, stdout);
	out_table_free(t);
	return rc;
}

/* One figure of the --apply table, translated with its kind's factor. */
static int apply_row(struct out_table *out, const struct table *in, size_t row,
		     const struct translate_figure *figs, const char *label, enum out_format f)
{
	int cv = table_col(in, "value"), cu = table_col(in, "unit"), cn = table_col(in, "name");
	const char *text = in->cells[row][cv], *unit = in->cells[row][cu];
	enum unit_kind kind = translate_unit_kind(unit);
	const struct translate_figure *fig = kind == UNIT_MEMORY ? &figs[FIG_LOAD] : &figs[FIG_RATE];
	static const char *const kinds[] = {"rate", "time", "memory"};
	double value, lo, hi, mid;
	char b[6][32];
	if (num_parse_real(text, &value))
		return err_at(in->display_path, in->lines[row], cv + 1, "'%s' is not a number", text);
	if (kind == UNIT_UNKNOWN)
		return err_at(in->display_path, in->lines[row], cu + 1,
			      "unknown unit '%s' (a rate such as int/s, a time such as ms, or a "
			      "memory size such as kB)",
			      unit);
	if (!fig->measured || !fig->has_ci)
		return err_set("no %s factor to translate '%s' with", kinds[kind], unit);
	if (kind == UNIT_RATE) {
		mid = value / fig->factor;
		lo = value / fig->ci_hi;
		hi = value / fig->ci_lo;
	} else {
		mid = value * fig->factor;
		lo = value * fig->ci_lo;
		hi = value * fig->ci_hi;
	}
	{
		const char *cells[10] = {cn >= 0 ? in->cells[row][cn] : NULL,
					 text,
					 unit,
					 kinds[kind],
					 common_num(fig->factor, f, 'f', 4, b[0]),
					 common_num(mid, f, 'g', 6, b[1]),
					 common_num(fmin(lo, hi), f, 'g', 6, b[2]),
					 common_num(fmax(lo, hi), f, 'g', 6, b[3]),
					 "translated",
					 label};
		return out_table_add_row(out, cells);
	}
}

static int apply_file(const char *path, const struct translate_figure *figs, const char *label,
		      enum out_format f)
{
	static const char *const cols[] = {"name",  "value", "unit",      "kind",
					   "factor", "translated", "translated_lo",
					   "translated_hi", "status", "how"};
	struct table in = {0};
	struct out_table *out = NULL;
	int rc = table_read(path, path, TABLE_SNIFF, &in);
	if (rc == 0 && (table_col(&in, "value") < 0 || table_col(&in, "unit") < 0))
		rc = err_at(path, 1, 0, "needs columns 'value' and 'unit'");
	if (rc == 0 && !(out = out_table_new(10, cols)))
		rc = err_set("out of memory");
	for (size_t i = 1; out && i < 8; i++)
		if (i != 2 && i != 3)
			out_table_set_kind(out, i, OUT_NUM);
	for (size_t r = 0; rc == 0 && r < in.nrows; r++)
		rc = apply_row(out, &in, r, figs, label, f);
	if (rc == 0)
		rc = out_table_write(out, f, stdout);
	out_table_free(out);
	table_release(&in);
	return rc;
}

int cmd_translate(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct arm from, to;
	struct translate_figure figs[NFIGS];
	char label[512];
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	memset(&from, 0, sizeof(from));
	memset(&to, 0, sizeof(to));
	common_args_init(&a.common);
	a.seed = 1;
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0)
		rc = load_arm(db, &a, a.from, &from);
	if (rc == 0)
		rc = load_arm(db, &a, a.to, &to);
	if (rc == 0)
		rc = compute(&from, &to, a.seed, figs);
	if (rc)
		goto done;
	snprintf(label, sizeof(label),
		 "translated from %s to %s: median factor, bootstrap 95%% interval (seed %llu)",
		 from.name, to.name, (unsigned long long)a.seed);
	if (a.apply) {
		rc = apply_file(a.apply, figs, label, a.common.format);
		goto done;
	}
	if (a.common.format == OUT_MD)
		printf("from: %s (%zu runs, %s); to: %s (%zu runs, %s); metric %s\n\n", from.name,
		       from.sel.n, a.from, to.name, to.sel.n, a.to, a.common.metric);
	rc = print_figures(figs, a.common.format);
	if (rc == 0 && a.common.format == OUT_MD && figs[FIG_RATE].measured) {
		const struct translate_figure *r = &figs[FIG_RATE];
		printf("\n- statistics: `median` rows divide medians, `mean` rows means; a factor "
		       "quoted elsewhere between %.4f (mean(from) / median(to)) and %.4f "
		       "(median(from) / mean(to)) mixed the two\n",
		       fmin(r->from.mean / r->to.median, r->from.median / r->to.mean),
		       fmax(r->from.mean / r->to.median, r->from.median / r->to.mean));
		printf("- every translated figure is an estimate, not a measurement: "
		       "`translate --apply` labels each one\n");
	}
done:
	arm_release(&from);
	arm_release(&to);
	db_close(db);
	common_args_release(&a.common);
	return rc;
}
