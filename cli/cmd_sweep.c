/* cmd_sweep: `coreplan sweep`, per-level statistics and scaling of a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/sweep.h"
#include "../reports/builders.h"

static struct sweep_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("by", "FIELD", &req.by, "the level field, e.g. gomaxprocs or sessions",
		   .required = true),
	OPT_DOUBLE("base", "LEVEL", &req.opts.base,
		   "the level speedups are relative to (default: the smallest)",
		   .given = &req.opts.has_base),
	OPT_DOUBLE("stop-below", "EFF", &req.opts.stop_efficiency,
		   "per-doubling efficiency under which scaling stops (default 0.6)", OPT_GT(0),
		   OPT_LE(1)),
	OPT_CHOICE("metric-kind", "KIND", &req.kind, cli_metric_kinds,
		   "what the metric is when its name does not say", .given = &req.has_kind),
	OPT_FLAG("lower-is-better", &req.lower_is_better,
		 "lower values of the metric are better (speedup = base / median)"),
	CLI_SPECS_WORKERS(&req.host, &req.workers),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"One row per level of --by, over the non-excluded runs the filter selects.\n"
	"\n"
	"definitions:\n"
	"  median        middle value; for an even count the mean of the two middle values\n"
	"  range_pct     (max - min) / median * 100; missing where the median is 0\n"
	"  range_abs     max - min, in the metric's units\n"
	"  speedup       median / median at the base level (default: the smallest level);\n"
	"                lower is better (a time): base median / median\n"
	"  efficiency    speedup / (level / base)\n"
	"  per_doubling  (m / previous m) ^ (1 / log2(level / previous level)), m the\n"
	"                median (lower is better: 1 / median): the speedup from the\n"
	"                previous level normalised to one doubling\n"
	"  per_unit      median / level\n"
	"  app_cores     median of the driver-reported app_cores (not recomputed)\n"
	"  cpu_us_per_op app_cores * 10^6 / median\n"
	"  note          'scaling stops' at the first physical-core level whose\n"
	"                per_doubling is below 2 * --stop-below (default 1.2x per\n"
	"                doubling); 'SMT siblings' at an SMT level, 'beyond the logical\n"
	"                CPUs' past them\n"
	"  core_kind     what a level of threads or workers is on the runs' host:\n"
	"                physical (level <= its physical cores), smt (up to its logical\n"
	"                CPUs: the threads beyond the physical cores share cores with\n"
	"                SMT siblings), beyond (more), or 'assumed physical' when no\n"
	"                topology is known (the document says so)\n"
	"  smt_step      at an SMT level: median / median at the largest physical level\n"
	"                (lower is better: inverted), the step SMT gives, not scaling;\n"
	"                when the sweep skipped physical cores (1 -> 8 on 4 cores) the\n"
	"                step adds unmeasured cores and SMT siblings together: no\n"
	"                smt_step, the ratio is cores_and_smt_step, and the note says so\n"
	"  step, step_p  the step from the previous level by the one decision rule\n"
	"                (docs/statistics.md): resolved when Welch's t on the two levels'\n"
	"                runs (ln values) gives p < 0.05, else within-noise;\n"
	"                unreplicated with one run: the verdict noise gives the same step\n"
	"The whole-sweep per-doubling factor is exp(b) of the least-squares fit\n"
	"ln(median) = a + b * log2(level) over the level medians (lower is better:\n"
	"exp(-b)), with its standard error (delta method) and its 95% interval from\n"
	"Student's t with the fit's degrees of freedom (levels - 2): the facts\n"
	"per_doubling, per_doubling_se, per_doubling_lo, per_doubling_hi,\n"
	"per_doubling_df and per_doubling_r2 in every format (--view facts for tsv and\n"
	"csv).\n"
	"\n"
	"Levels in physical cores: the host is --host, else the one the runs name\n"
	"(field topology_host: `coreplan import --host`, a manifest's topology, or a\n"
	"catalog instance; `coreplan import --help`). The headline is over the\n"
	"physical-core levels: physical_per_doubling (+ _se, _lo, _hi, _df, _r2: the same least\n"
	"squares over those levels only, at least 3) and physical_efficiency (the\n"
	"efficiency at the largest physical level); facts host, physical_cores,\n"
	"logical_cpus, smt_step_at_LEVEL, and smt_factor (+ _corpus) when `coreplan\n"
	"smt` measures one on the same host's runs (pinned arms; corpus by corpus, the\n"
	"sweep's own first). The stop rule looks at physical levels only: a step onto\n"
	"SMT siblings is SMT, not an application limit. Runs on several hosts, or none\n"
	"known: levels are assumed physical, and a note says why.\n"
	"\n"
	"What applies (cells that do not are missing, Markdown leaves the column out,\n"
	"and the facts columns_left_out and columns_left_out_why and a note say why):\n"
	"  speedup, efficiency, per_doubling, the stop rule and the whole-sweep fit\n"
	"                need a rate or a time metric over a level that counts threads,\n"
	"                cores or workers: a canonical field of that kind (gomaxprocs),\n"
	"                one of these names, in any case: gomaxprocs (Go's -cpu N),\n"
	"                threads (Google Benchmark's), nthreads, threads_per_proc, procs,\n"
	"                nprocs, processes, cpus, vcpus, cores, workers; or the field\n"
	"                --workers declares. Not a session sweep (--by sessions: more\n"
	"                load, not more workers), not an error rate, memory, count or\n"
	"                CPU metric.\n"
	"  per_unit, cpu_us_per_op\n"
	"                need a rate (CPU per operation divides by operations per second;\n"
	"                a per-level ratio of memory or latency charges fixed costs to the\n"
	"                level: `coreplan memory` fits a slope).\n"
	"The metric's kind and direction (facts metric_kind, metric_direction) come from\n"
	"the canonical field list (schema/README.md), else from its name (_ms a time,\n"
	"_kb memory, _per_s a rate, _pct a fraction, ...), else --metric-kind; an unknown\n"
	"name is assumed a rate, higher is better, and the document says so.\n"
	"\n" CLI_POOLING_HELP "\n"
	"examples:\n"
	"  coreplan sweep --by gomaxprocs --where block=1,2,3\n"
	"  coreplan sweep --by sessions --metric err --where target=small --where cfg=pg \\\n"
	"      --where block=1,2,3\n"
	"  coreplan sweep --by cores --metric ns_per_op --metric-kind time\n";

static void defaults(void)
{
	sweep_options_init(&req.opts);
}

CLI_ANALYSIS_RUN(run, req, struct sweep_result, sweep_run, build_sweep, sweep_result_release)

const struct cli_def cli_sweep = {
	.cmd = {"sweep", NULL, details, specs, build_sweep_views},
	CLI_ANALYSIS(req, run),
	.defaults = defaults,
};
