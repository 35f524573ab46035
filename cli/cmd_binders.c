/* cmd_binders: `coreplan binders`, what limits throughput in a load sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/binders.h"
#include "../common/err.h"
#include "../reports/builders.h"

static struct binders_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("by", "FIELD", &req.by, "the level field (default sessions)"),
	CLI_SPEC_GROUP("judge each combination of these fields separately (e.g. target,cfg)"),
	OPT_STRING("latency", "FIELD", &req.latency, "the latency that must rise (default p50_ms)"),
	OPT_STRING("host", "NAME", &req.host,
		   "count CPUs on this recorded host (default: the runs' topology_host)"),
	OPT_DOUBLE("near", "X", &req.opts.near,
		   "a resource is near its ceiling at this share of its capacity (default 0.75)",
		   OPT_GT(0), OPT_LE(1)),
	OPT_DOUBLE("flat-pct", "P", &req.opts.flat_pct,
		   "a resource is flat when its level medians span at most P% of their median "
		   "(default 10)",
		   OPT_GE(0), OPT_LE(100)),
	OPT_DOUBLE("rise-min", "E", &req.opts.rise_min,
		   "a step rises when the throughput's elasticity reaches E (default 0.1)",
		   OPT_GE(0), OPT_LE(1)),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"Per group (--group) and level (--by), each resource's use against its\n"
	"capacity (the level's median over its runs, with their min and max):\n"
	"  app_cpu      the app's cores over the loaded plateau of its trace (the\n"
	"               driver's app_cores without one) / min(gomaxprocs, vCPUs)\n"
	"  host_cpu     the machine's busy cores (the app and everything co-located) /\n"
	"               vCPUs\n"
	"  pg_cpu       PostgreSQL's cores / vCPUs (where PostgreSQL ran)\n"
	"  memory       app RSS (+ load_pg_rss_kb) / (that + the lowest MemAvailable)\n"
	"  connections  backends_max / max_connections\n"
	"  generator    the generator's own CPU (gen_cpu_pct) / 100%, and its\n"
	"               saturation flag (gen_saturated, trips at 70%)\n"
	"The vCPUs are the host's logical CPUs (topology_host, or --host; else nproc);\n"
	"its physical cores are shown beside them.\n"
	"\n"
	"The binder. A step between neighbouring levels rises when the throughput's\n"
	"elasticity ln(X2/X1) / ln(L2/L1) is at least --rise-min and the step is not\n"
	"within noise (coreplan noise's step rule). The plateau is the run of levels at\n"
	"the end with no rising step. A resource binds when, at every plateau level,\n"
	"it is at --near of its capacity or more and its level medians are flat\n"
	"within --flat-pct, while the latency (--latency) rises by 10% or more over\n"
	"the plateau. A saturated generator binds first (the measurement is the\n"
	"generator's); else the resource with the highest share; host_cpu only when\n"
	"no process binds (it includes the app). The others are ranked with their\n"
	"headroom (1 - share). Verdicts: binder, no-binder (nothing near its\n"
	"ceiling), untrustworthy (more than half the runs fail the tick check, so no\n"
	"CPU binder is named from bad ticks, and nothing else binds), rising\n"
	"(throughput still rises at the last step), single-level. A resource no run\n"
	"of the group records (PostgreSQL CPU: none above 0) is listed as absent:\n"
	"it is neither weighed nor ranked, and no verdict speaks for it.\n"
	"\n"
	"CPU trust: the tick check of coreplan cores (/proc/stat's tick rate against\n"
	"nproc x clk_tck, at least 0.75; the field stat_tick_hz without a trace).\n"
	"Knee: the first level whose median error rate is above 0, after the level\n"
	"before it (knee_after, knee_at). Little's law on closed-loop runs (a known\n"
	"think_time): the implied mean latency sessions / throughput - think must lie\n"
	"between max(p50/2, p95/20, p99/100) and max_ms; a run outside fails.\n"
	"\n" CLI_POOLING_HELP "\n"
	"examples:\n"
	"  coreplan binders --group target,cfg --where block=1,2,3\n"
	"  coreplan binders --by gomaxprocs --where block=1,2,3\n";

static void defaults(void)
{
	binders_options_init(&req.opts);
	cores_options_init(&req.cores);
}

CLI_ANALYSIS_RUN(run, req, struct binders_result, binders_run, build_binders,
		 binders_result_release)

const struct cli_def cli_binders = {
	.cmd = {"binders", NULL, details, specs, build_binders_views},
	CLI_ANALYSIS(req, run),
	.defaults = defaults,
	.group = &req.group,
};
