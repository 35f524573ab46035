/* cmd_cores: `coreplan cores`, CPU recomputed from each run's trace plateau. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <string.h>

enum { OPT_FRAC = CLI_FILTERED_COUNT, OPT_TRIM, OPT_MIN_ROWS, OPT_TICK_MIN, OPT_KEEP_RAMP };

static const struct opt_spec specs[] = {
	CLI_SPECS_FILTERED,
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
	[OPT_KEEP_RAMP] =
		{"keep-ramp", 0, NULL,
		 "keep the leading ramp rows in the plateau (system.tsv's rule; by default "
		 "they are left out)",
		 false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"One row per run. The window is the run's loaded plateau, from its own trace:\n"
	"rows whose connection count is at least --frac of the run's maximum (first\n"
	"to last such row, dips kept), minus --trim rows at each end when more than\n"
	"2 * trim + 3 rows remain (system.tsv's rule), then without the leading ramp\n"
	"rows (connections still rising, below the window's median) and --trim rows\n"
	"after them, unless --keep-ramp (system.tsv's rule keeps them: GOMAXPROCS 1\n"
	"reads 1.007 cores on the plateau, 0.959 with the ramp). Deltas are last\n"
	"window row minus first:\n"
	"  app_cores_wall      d(app_j) / (d(epoch) * clk_tck)\n"
	"  app_cores_stat      d(app_j) / (d(cpu_total_j) / nproc): the guest's own\n"
	"                      /proc/stat jiffies as the clock\n"
	"  machine_busy_cores  (d(cpu_total_j) - d(cpu_idle_j)) / (d(epoch) * clk_tck)\n"
	"  pg_cores            d(pg_j) / (d(epoch) * clk_tck)\n"
	"  stat_tick_hz        d(cpu_total_j) / d(epoch), against owed_tick_hz =\n"
	"                      nproc * clk_tck; tick_ok = 0 (no) when the ratio is below\n"
	"                      --tick-min: CPU attribution on that run is UNTRUSTWORTHY\n"
	"  cpu_trust           trusted (tick ratio >= 0.95 and no app-cores figure above\n"
	"                      nproc), degraded (0.75-0.95, or a figure above nproc: an\n"
	"                      app cannot burn more cores than the guest has) or\n"
	"                      untrustworthy (below --tick-min); docs/statistics.md\n"
	"  rss_*_kb            median, mean and peak app RSS over the window rows\n"
	"  driver_app_cores    the figure the run's driver reported (results or joined\n"
	"                      table), driver_minus_wall its difference; driver_window\n"
	"                      locates a driver window file (window.tsv) in the trace\n"
	"clk_tck and nproc come from the run's idle banner or the manifest's `set`.\n"
	"A run whose figures cannot be computed says why in `note`, with no numbers.\n"
	"The facts trusted_runs, degraded_runs, untrustworthy_runs and tick_check\n"
	"count the runs at each trust level; a note per level gives its tick-ratio\n"
	"range (--view facts for tsv and csv).\n";

static const char *const views[] = {"runs", NULL};

/* A number in (0, 1]. */
static int fraction(const char *option, const char *value, double *out)
{
	if (cli_parse_number(option, value, 0, 1, out) || !(*out > 0))
		return err_usage("--%s needs a number in (0, 1], got '%s'", option, value);
	return 0;
}

/* A whole number from 0 to 100000. */
static int count(const char *option, const char *value, size_t *out)
{
	int64_t n;
	int rc = cli_parse_whole(option, value, 0, 100000, &n);
	if (rc == 0)
		*out = (size_t)n;
	return rc;
}

static int option(void *request, int which, const char *value)
{
	struct cores_request *req = request;
	switch (which) {
	case OPT_FRAC:
		return fraction("frac", value, &req->opts.window.frac);
	case OPT_TRIM:
		return count("trim", value, &req->opts.window.trim);
	case OPT_MIN_ROWS:
		return count("min-rows", value, &req->opts.window.min_rows);
	case OPT_TICK_MIN:
		return fraction("tick-min", value, &req->opts.tick_min);
	case OPT_KEEP_RAMP:
		req->opts.window.keep_ramp = true;
		return 0;
	}
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct cores_request *req = request;
	struct cores_result res;
	int rc;
	req->filter = &a->filter;
	rc = cores_run(db, req, &res);
	if (rc == 0)
		rc = build_cores(req, &res, out);
	cores_result_release(&res);
	return rc;
}

int cmd_cores(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"cores", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct cores_request req;
	memset(&req, 0, sizeof(req));
	cores_options_init(&req.opts);
	return cli_run(&def, &req, argc, argv, g);
}
