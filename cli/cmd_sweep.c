/* cmd_sweep: `coreplan sweep`, per-level statistics and scaling of a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/select.h"
#include "../analysis/sweep.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BY = COMMON_COUNT, OPT_BASE, OPT_STOP };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field (required), e.g. gomaxprocs or sessions",
		    false},
	[OPT_BASE] = {"base", 0, "LEVEL", "the level speedups are relative to (default: the "
					  "smallest)",
		      false},
	[OPT_STOP] = {"stop-below", 0, "EFF",
		      "per-doubling efficiency under which scaling stops (default 0.6)", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"One row per level of --by, over the non-excluded runs the filter selects.\n"
	"\n"
	"definitions:\n"
	"  median        middle value; for an even count the mean of the two middle values\n"
	"  range_pct     (max - min) / median * 100\n"
	"  speedup       median / median at the base level (default: the smallest level)\n"
	"  efficiency    speedup / (level / base)\n"
	"  per_doubling  (median / previous median) ^ (1 / log2(level / previous level)):\n"
	"                the growth from the previous level normalised to one doubling\n"
	"  per_unit      median / level\n"
	"  app_cores     median of the driver-reported app_cores (not recomputed)\n"
	"  cpu_us_per_op app_cores * 10^6 / median\n"
	"  note          'scaling stops' at the first level whose per_doubling is below\n"
	"                2 * --stop-below (default 1.2x per doubling)\n"
	"The whole-sweep per-doubling factor is exp(b) of the least-squares fit\n"
	"ln(median) = a + b * log2(level) over the level medians, with its standard\n"
	"error (delta method); it is printed under the Markdown table and on standard\n"
	"error for the other formats.\n"
	"\n"
	"example:\n"
	"  coreplan sweep --by gomaxprocs --where block=1,2,3\n";

static const char *const columns[] = {
	"level",       "n",        "median",       "min",       "max",
	"range_pct",   "speedup",  "efficiency",   "per_doubling", "per_unit",
	"app_cores",   "cpu_us_per_op", "note",
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static int add_level_row(struct out_table *t, const struct sweep_level *lv, enum out_format f)
{
	char b[NCOLUMNS][32];
	const char *cells[NCOLUMNS];
	snprintf(b[1], 32, "%zu", lv->s.n);
	cells[0] = common_num(lv->level, f, 'g', 6, b[0]);
	cells[1] = b[1];
	cells[2] = common_num(lv->s.median, f, 'g', 6, b[2]);
	cells[3] = common_num(lv->s.min, f, 'g', 6, b[3]);
	cells[4] = common_num(lv->s.max, f, 'g', 6, b[4]);
	cells[5] = common_num(lv->s.range_pct, f, 'f', 2, b[5]);
	cells[6] = common_num(lv->speedup, f, 'f', 3, b[6]);
	cells[7] = common_num(lv->efficiency, f, 'f', 3, b[7]);
	cells[8] = common_num(lv->per_doubling, f, 'f', 3, b[8]);
	cells[9] = common_num(lv->per_unit, f, 'g', 6, b[9]);
	cells[10] = common_num(lv->app_cores, f, 'f', 3, b[10]);
	cells[11] = common_num(lv->cpu_us_per_op, f, 'f', 1, b[11]);
	cells[12] = lv->scaling_stops ? "scaling stops" : NULL;
	return out_table_add_row(t, cells);
}

static void print_method(const struct sweep *sw, const struct common_args *a, const char *by,
			 const struct selection *sel)
{
	FILE *fp = a->format == OUT_MD ? stdout : stderr;
	const char *bullet = a->format == OUT_MD ? "- " : "";
	if (a->format == OUT_MD)
		fprintf(fp, "\n");
	fprintf(fp, "%s%zu runs, %zu levels of %s; metric %s; base level %g\n", bullet, sel->n,
		sw->nlevels, by, a->metric, sw->base);
	if (sw->has_fit)
		fprintf(fp,
			"%swhole-sweep per-doubling factor %.4f (SE %.4f, R^2 %.4f; least "
			"squares of ln(median) on log2(level) over %zu level medians)\n",
			bullet, sw->fit.factor, sw->fit.factor_se, sw->fit.r2, sw->fit.n);
	else
		fprintf(fp, "%s%s\n", bullet, sw->fit_note);
	if (sw->stop_index < sw->nlevels)
		fprintf(fp,
			"%sscaling stops at level %g: per-doubling %.3f is below %.2f "
			"(efficiency %.2f)\n",
			bullet, sw->levels[sw->stop_index].level,
			sw->levels[sw->stop_index].per_doubling, 2.0 * sw->stop_efficiency,
			sw->stop_efficiency);
	else
		fprintf(fp, "%sno level falls below a per-doubling factor of %.2f\n", bullet,
			2.0 * sw->stop_efficiency);
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].s.n < 3) {
			fprintf(fp, "%slevel %g has %zu run%s: its range says little about noise\n",
				bullet, sw->levels[i].level, sw->levels[i].s.n,
				sw->levels[i].s.n == 1 ? "" : "s");
		}
	if (a->format == OUT_MD)
		fprintf(fp, "- definitions: `coreplan sweep --help`\n");
}

static int parse_args(int argc, char **argv, struct common_args *a, struct sweep_options *o,
		      const char **by)
{
	static const struct opt_cmd cmd = {"sweep", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT) {
			rc = common_opt(a, which, value);
		} else if (which == OPT_BY) {
			*by = value;
		} else if (which == OPT_BASE) {
			o->has_base = true;
			if (num_parse_real(value, &o->base))
				rc = err_usage("--base needs a number, got '%s'", value);
		} else if (which == OPT_STOP) {
			if (num_parse_real(value, &o->stop_efficiency) ||
			    !(o->stop_efficiency > 0 && o->stop_efficiency <= 1))
				rc = err_usage("--stop-below needs a number in (0, 1], got '%s'",
					       value);
		}
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && !*by)
		rc = err_usage("--by FIELD is required");
	opt_parser_release(&p);
	return rc;
}

int cmd_sweep(int argc, char **argv, const struct global_opts *g)
{
	struct common_args a;
	struct sweep_options o;
	struct selection sel = {0};
	struct sweep sw = {0};
	struct out_table *t = NULL;
	sqlite3 *db = NULL;
	const char *by = NULL;
	int rc;
	common_args_init(&a);
	sweep_options_init(&o);
	rc = parse_args(argc, argv, &a, &o, &by);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		struct select_spec spec = {.filter = &a.filter,
					   .by = by,
					   .metric = a.metric,
					   .block = NULL,
					   .group = NULL};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc == 0) {
		rc = sweep_compute(&sel, &o, &sw);
		if (rc)
			common_print_left_out(&sel, OUT_TSV); /* say what the filter did find */
	}
	if (rc)
		goto done;
	t = out_table_new(NCOLUMNS, columns);
	if (!t) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i + 1 < NCOLUMNS; i++)
		out_table_set_kind(t, i, OUT_NUM);
	for (size_t i = 0; rc == 0 && i < sw.nlevels; i++)
		rc = add_level_row(t, &sw.levels[i], a.format);
	if (rc == 0)
		rc = out_table_write(t, a.format, stdout);
	if (rc == 0) {
		print_method(&sw, &a, by, &sel);
		common_print_left_out(&sel, a.format);
	}
done:
	out_table_free(t);
	sweep_release(&sw);
	selection_release(&sel);
	db_close(db);
	common_args_release(&a);
	return rc;
}
