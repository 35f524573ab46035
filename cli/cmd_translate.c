/* cmd_translate: `coreplan translate`, carry figures from one CPU to another. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/translate.h"
#include "../common/err.h"
#include "../importers/table.h"
#include "../reports/builders.h"

#include <stdlib.h>
#include <string.h>

static struct translate_request req;
/* --apply's file and what it was read into (freed after the run) */
static const char *apply;
static struct table in;
static struct translate_item *items;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("from", "WHERE", &req.from,
		   "runs on the CPU figures were measured on, e.g. 'subcorpus=m1'",
		   .required = true),
	OPT_STRING("to", "WHERE", &req.to, "runs of the same workload on the other CPU",
		   .required = true),
	OPT_STRING("apply", "FILE", &apply,
		   "translate a table of figures (columns value, unit; name and kind optional; a "
		   "regular file of at most 256 MiB)"),
	OPT_FLAG("apply-medians", &req.apply_medians,
		 "also translate the from-runs' own medians, one per kind"),
	OPT_STRING("check", "WHERE", &req.check,
		   "runs on the target CPU that measured the same figures: each translation is "
		   "checked against them"),
	OPT_INT("seed", "S", &req.seed, "bootstrap random seed (default 1)"),
	OPT_END,
};

static const char details[] =
	"Paired runs of the same workload on two CPUs give one factor per kind of\n"
	"figure, each from per-run values on both sides: the ratio of the medians with\n"
	"a seeded bootstrap 95% interval (10,000 resamples), the ratio of the means,\n"
	"and the ratios of the ranges' ends:\n"
	"  rate           the metric (default tput); factor = from / to: a from-rate\n"
	"                 divided by it is a to-rate\n"
	"  cpu_time       CPU time per counted interaction, windows matched; factor =\n"
	"                 to / from, a from-time multiplied by it\n"
	"  idle_memory    idle_rss_kb, factor = to / from\n"
	"  loaded_memory  load_rss_kb, factor = to / from\n"
	"  session_slope  an OLS of load_rss_kb on sessions on each side (3+ runs, 2+\n"
	"                 session counts): slope(to) / slope(from), its interval from\n"
	"                 the slopes' 95% intervals (both above 0)\n"
	"  latency        p50_ms, to / from, only when both arms are closed-loop\n"
	"                 (think_time 0) at the same sessions with the app\n"
	"                 CPU-saturated (cores >= 0.9 x gomaxprocs); otherwise not\n"
	"                 measured, with the reason\n"
	"A kind without a measured factor translates nothing; its row says why.\n"
	"\n"
	"CPU windows: CPU seconds of the counted window / interactions counted.\n"
	"When every run of both arms has a trace with app_j, each run's app CPU over\n"
	"its trace window (the loaded plateau, or started_at + warmup_s for\n"
	"duration_s when the trace has no connection counts) x duration_s. Else per\n"
	"run: cpu_s when the corpus declares it covers the window (cpu_s_span=window),\n"
	"the trace window, or, for cpu_s over ramp + warm-up + window (cpu_s_span=run,\n"
	"with ramp_s, warmup_s, duration_s), the bounds cpu_s x duration / span (the\n"
	"window's share) to all of cpu_s, the run's value their midpoint: the factor\n"
	"is then on the midpoints and its interval runs from the bootstrap low of\n"
	"the ends' ratio to its bootstrap high, so the mismatch widens the interval\n"
	"(end_lo, end_hi: the factor on each end; the method column says which was\n"
	"done). A run whose cpu_s covers an unknown span leaves cpu_time unmeasured.\n"
	"The built-in sky-capacity layout declares both reference sub-corpora: m1's\n"
	"cpu_s spans ramp 3 s + warm-up 3 s + window 45 s, core's the window.\n"
	"\n"
	"--apply FILE reads a headed TSV/CSV of figures measured on the from-CPU:\n"
	"columns value and unit, optionally name and kind (rate, cpu_time,\n"
	"idle_memory, loaded_memory, session_slope, latency). Without a kind, the\n"
	"unit decides (case-insensitive):\n"
	"  rate           int/s interactions/s ops/s op/s req/s rps qps tps /s per_s\n"
	"                 B/s kB/s KiB/s MB/s MiB/s GB/s GiB/s bps kbps Mbps Gbps,\n"
	"                 any unit ending in /s\n"
	"  cpu_time       ns us \xc2\xb5s ms s min, unless the name says latency, p50,\n"
	"                 p90, p95 or p99: latency\n"
	"  loaded_memory  B kB KiB MB MiB GB GiB, unless the name says idle:\n"
	"                 idle_memory\n"
	"  session_slope  a memory size + /session (kB/session, MiB/session)\n"
	"Each row is translated with its kind's factor and interval and labelled\n"
	"`translated` with the factor used; a kind without a factor gives a row\n"
	"`not translated` that says why. Refused (exit 1, naming file:line:col): a\n"
	"value that is not a finite number, a negative value, an unknown unit (the\n"
	"message lists the known ones), a kind that does not fit the unit, a value\n"
	"that translates out of range. --apply-medians adds the from-runs' own\n"
	"medians (cpu_time as their cpu_s records it), one row per kind.\n"
	"\n"
	"--check WHERE selects runs on the target CPU (within --corpus/--where) and\n"
	"measures the same figure there (median of the metric, of CPU per\n"
	"interaction, of idle_rss_kb, load_rss_kb, p50_ms, or p95_ms/p99_ms when the\n"
	"name says so; the session slope by OLS): measured, measured_n, and check\n"
	"inside or outside the translated interval (facts checks_inside,\n"
	"checks_outside). Checked against the to-arm's own runs, the from-arm's\n"
	"medians land inside by construction, and a note says so.\n"
	"\n"
	"examples:\n"
	"  coreplan translate --from subcorpus=m1 --to subcorpus=core\n"
	"  coreplan translate --from subcorpus=m1 --to subcorpus=core --apply f.tsv \\\n"
	"      --check subcorpus=core --view applied\n";

/* --apply's table into items: name and kind (optional), value and unit, with their places. */
static int read_items(void)
{
	int cv, cu, cn, ck;
	int rc = table_read(apply, apply, TABLE_SNIFF, &in);
	if (rc)
		return rc;
	cv = table_col(&in, "value");
	cu = table_col(&in, "unit");
	cn = table_col(&in, "name");
	ck = table_col(&in, "kind");
	if (cv < 0 || cu < 0)
		return err_at(apply, 1, 0, "needs columns 'value' and 'unit'");
	if (in.nrows && !(items = calloc(in.nrows, sizeof(*items))))
		return err_set("out of memory");
	for (size_t i = 0; i < in.nrows; i++) {
		char **row = in.cells[i];
		items[i] = (struct translate_item){cn >= 0 ? row[cn] : NULL,
						   row[cv],
						   row[cu],
						   ck >= 0 ? row[ck] : NULL,
						   in.lines[i],
						   cv + 1,
						   cu + 1,
						   ck + 1};
	}
	req.items = items;
	req.nitems = in.nrows;
	req.items_path = apply;
	return 0;
}

static int check(struct cli_args *a)
{
	(void)a;
	return apply ? read_items() : 0;
}

CLI_ANALYSIS_RUN(run, req, struct translate_result, translate_run, build_translate,
		 translate_result_release)

static void defaults(void)
{
	memset(&in, 0, sizeof(in));
	apply = NULL;
	items = NULL;
	req.seed = 1;
}

/* --apply's table and items are the command's own */
static void release(void)
{
	free(items);
	items = NULL;
	table_release(&in);
}

const struct cli_def cli_translate = {
	.cmd = {"translate", NULL, details, specs, build_translate_views},
	.db = CLI_DB_READ,
	CLI_REQUEST(req),
	/* the runner fills these after --metric's default (a tool's own metric) is chosen */
	.filter = &req.filter,
	.metric = &req.metric,
	.defaults = defaults,
	.check = check,
	.run = run,
	.release = release};
