/* cmd_cores: `coreplan cores`, CPU recomputed from each run's trace plateau. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../analysis/select.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_FRAC = COMMON_COUNT, OPT_TRIM, OPT_MIN_ROWS, OPT_TICK_MIN };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_FRAC] = {"frac", 0, "F",
		      "plateau: rows with conn >= F x the run's maximum (default 0.8; 1.0 = "
		      "only rows at the maximum)",
		      false},
	[OPT_TRIM] = {"trim", 0, "N", "drop N rows at each end of the plateau (default 1)", false},
	[OPT_MIN_ROWS] = {"min-rows", 0, "N", "warn when the window has fewer rows (default 10)",
			  false},
	[OPT_TICK_MIN] = {"tick-min", 0, "R",
			  "stat_tick_hz / owed below R marks CPU attribution untrustworthy "
			  "(default 0.75)",
			  false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"One row per run. The window is the run's loaded plateau, from its own trace:\n"
	"rows whose connection count is at least --frac of the run's maximum (first\n"
	"to last such row, dips kept), minus --trim rows at each end when more than\n"
	"2 * trim + 3 rows remain (the defaults are system.tsv's rule). Deltas are\n"
	"last window row minus first:\n"
	"  app_cores_wall      d(app_j) / (d(epoch) * clk_tck)\n"
	"  app_cores_stat      d(app_j) / (d(cpu_total_j) / nproc): the guest's own\n"
	"                      /proc/stat jiffies as the clock\n"
	"  machine_busy_cores  (d(cpu_total_j) - d(cpu_idle_j)) / (d(epoch) * clk_tck)\n"
	"  pg_cores            d(pg_j) / (d(epoch) * clk_tck)\n"
	"  stat_tick_hz        d(cpu_total_j) / d(epoch), against owed_tick_hz =\n"
	"                      nproc * clk_tck; tick_ok = 0 when the ratio is below\n"
	"                      --tick-min: CPU attribution on that run is UNTRUSTWORTHY\n"
	"  rss_*_kb            median, mean and peak app RSS over the window rows\n"
	"  driver_app_cores    the figure the run's driver reported (results or joined\n"
	"                      table), driver_minus_wall its difference; driver_window\n"
	"                      locates a driver window file (window.tsv) in the trace\n"
	"clk_tck and nproc come from the run's idle banner or the manifest's `set`.\n"
	"A run whose figures cannot be computed says why in `note`, with no numbers.\n";

static const char *const columns[] = {
	"tag",          "window_rows",     "window_s",     "app_cores_wall",   "app_cores_stat",
	"machine_busy_cores", "pg_cores",  "stat_tick_hz", "owed_tick_hz",     "tick_ratio",
	"tick_ok",      "driver_app_cores", "driver_minus_wall", "rss_median_kb", "rss_mean_kb",
	"rss_peak_kb",  "mem_avail_min_kb", "driver_window", "note"};
enum { NCOLUMNS = sizeof(columns) / sizeof(columns[0]) };

struct args {
	struct common_args common;
	struct cores_options opts;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"cores", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT) {
			rc = common_opt(&a->common, which, value);
		} else if (which == OPT_FRAC) {
			rc = common_parse_fraction("frac", value, &a->opts.window.frac);
		} else if (which == OPT_TRIM) {
			rc = common_parse_count("trim", value, &a->opts.window.trim);
		} else if (which == OPT_MIN_ROWS) {
			rc = common_parse_count("min-rows", value, &a->opts.window.min_rows);
		} else if (which == OPT_TICK_MIN) {
			rc = common_parse_fraction("tick-min", value, &a->opts.tick_min);
		}
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	opt_parser_release(&p);
	return rc;
}

static int add_row(struct out_table *t, const struct sel_run *run, const struct run_cores *c,
		   enum out_format f)
{
	char b[NCOLUMNS][32];
	const char *cells[NCOLUMNS] = {run->tag};
	bool ok = c->ok;
	if (ok) {
		snprintf(b[1], 32, "%zu", c->window.rows);
		cells[1] = b[1];
		cells[2] = common_num(c->window.seconds, f, 'g', 6, b[2]);
		cells[3] = common_num(c->cpu.app_cores_wall, f, 'f', 3, b[3]);
		cells[4] = common_num(c->cpu.app_cores_stat, f, 'f', 3, b[4]);
		cells[5] = common_num(c->cpu.machine_busy_cores, f, 'f', 3, b[5]);
		cells[6] = common_num(c->cpu.pg_cores, f, 'f', 3, b[6]);
		cells[7] = common_num(c->cpu.stat_tick_hz, f, 'f', 1, b[7]);
		cells[8] = common_num(c->cpu.owed_tick_hz, f, 'f', 0, b[8]);
		cells[9] = common_num(c->cpu.tick_ratio, f, 'f', 3, b[9]);
		cells[10] = c->cpu.tick_ok ? "1" : "0";
		cells[12] = common_num(c->driver_minus_wall, f, 'f', 3, b[12]);
		cells[13] = common_num(c->cpu.rss_median_kb, f, 'f', 0, b[13]);
		cells[14] = common_num(c->cpu.rss_mean_kb, f, 'f', 0, b[14]);
		cells[15] = common_num(c->cpu.rss_peak_kb, f, 'f', 0, b[15]);
		cells[16] = common_num(c->cpu.mem_avail_min_kb, f, 'f', 0, b[16]);
		cells[17] = c->driver_window[0] ? c->driver_window : NULL;
	}
	cells[11] = common_num(c->driver_app_cores, f, 'f', 3, b[11]);
	cells[18] = c->note[0] ? c->note : NULL;
	return out_table_add_row(t, cells);
}

int cmd_cores(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct selection sel = {0};
	struct out_table *t = NULL;
	sqlite3 *db = NULL;
	size_t untrusted = 0;
	int rc;
	memset(&a, 0, sizeof(a));
	common_args_init(&a.common);
	cores_options_init(&a.opts);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		struct select_spec spec = {.filter = &a.common.filter,
					   .by = NULL,
					   .metric = NULL,
					   .block = NULL,
					   .group = NULL};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc == 0 && !(t = out_table_new(NCOLUMNS, columns)))
		rc = err_set("out of memory");
	for (size_t i = 1; t && i + 2 < NCOLUMNS; i++)
		out_table_set_kind(t, i, OUT_NUM);
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		struct run_cores c;
		rc = cores_compute(db, sel.runs[i].run_id, sel.runs[i].app_cores, &a.opts, &c);
		if (rc == 0)
			rc = add_row(t, &sel.runs[i], &c, a.common.format);
		untrusted += c.ok && !c.cpu.tick_ok;
	}
	if (rc == 0)
		rc = out_table_write(t, a.common.format, stdout);
	if (rc == 0 && a.common.format == OUT_MD) {
		printf("\n- window: conn >= %.2f x max, trim %zu; tick check: stat_tick_hz / owed "
		       ">= %.2f; definitions: `coreplan cores --help`\n",
		       a.opts.window.frac, a.opts.window.trim, a.opts.tick_min);
		if (untrusted)
			printf("- %zu run%s with tick_ok = 0: their CPU attribution is "
			       "UNTRUSTWORTHY (the guest's /proc/stat under-ticks)\n",
			       untrusted, untrusted == 1 ? "" : "s");
	}
	if (rc == 0)
		common_print_left_out(&sel, a.common.format);
done:
	out_table_free(t);
	selection_release(&sel);
	db_close(db);
	common_args_release(&a.common);
	return rc;
}
