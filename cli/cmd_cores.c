/* cmd_cores: `coreplan cores`, CPU recomputed from each run's trace plateau. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../reports/builders.h"

static struct cores_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_FILTERED,
	OPT_DOUBLE("frac", "F", &req.opts.window.frac,
		   "plateau: rows with conn >= F x the run's maximum (default 0.8; 1.0 = only rows "
		   "at the maximum)",
		   OPT_GT(0), OPT_LE(1)),
	OPT_INT("trim", "N", &req.opts.window.trim,
		"drop N rows at each end of the plateau (default 1)", OPT_LE(100000)),
	OPT_INT("min-rows", "N", &req.opts.window.min_rows,
		"warn when the window has fewer rows (default 10)", OPT_LE(100000)),
	OPT_DOUBLE("tick-min", "R", &req.opts.tick_min,
		   "stat_tick_hz / owed below R marks CPU attribution untrustworthy (default 0.75)",
		   OPT_GT(0), OPT_LE(1)),
	OPT_FLAG("keep-ramp", &req.opts.window.keep_ramp,
		 "keep the leading ramp rows in the plateau (system.tsv's rule; by default they "
		 "are left out)"),
	OPT_END,
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

static void defaults(void)
{
	cores_options_init(&req.opts);
}

CLI_ANALYSIS_RUN(run, req, struct cores_result, cores_run, build_cores, cores_result_release)

const struct cli_def cli_cores = {
	.cmd = {"cores", NULL, details, specs, build_cores_views},
	.db = CLI_DB_READ,
	CLI_REQUEST(req),
	.defaults = defaults,
	.run = run,
	.filter = &req.filter,
};
