/* cmd_sweep: `coreplan sweep`, per-level statistics and scaling of a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/sweep.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_BY = CLI_ANALYSIS_COUNT,
	OPT_BASE,
	OPT_STOP,
	OPT_KIND,
	OPT_LOWER,
	OPT_HOST,
	OPT_WORKERS
};

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field, e.g. gomaxprocs or sessions",
		    .required = true},
	[OPT_BASE] = {"base", 0, "LEVEL",
		      "the level speedups are relative to (default: the "
		      "smallest)",
		      false},
	[OPT_STOP] = {"stop-below", 0, "EFF",
		      "per-doubling efficiency under which scaling stops (default 0.6)", false},
	[OPT_KIND] = {"metric-kind", 0, "KIND",
		      "what the metric is when its name does not say: rate, time, latency, "
		      "memory, cpu, count, fraction or ratio",
		      false},
	[OPT_LOWER] = {"lower-is-better", 0, NULL,
		       "lower values of the metric are better (speedup = base / median)", false},
	[OPT_HOST] = {"host", 0, "NAME",
		      "count levels on this recorded host (default: the runs' topology_host)",
		      false},
	[OPT_WORKERS] =
		{"workers", 0, "FIELD",
		 "FIELD counts workers (threads, cores, processes): speedup, efficiency and "
		 "the SMT classification apply to it (fields known to count workers need "
		 "no flag)",
		 false},
	CLI_SPEC_POOL,
	{NULL, 0, NULL, NULL, false},
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
	"                cores or workers: a canonical field of that kind (gomaxprocs) or\n"
	"                one of these names, in any case: gomaxprocs, threads, thread,\n"
	"                nthreads, threads_per_proc, cores, core, cpus, vcpus, nproc,\n"
	"                nprocs, procs, processes, workers, worker, shards, parallelism,\n"
	"                jobs, n. Not a session sweep (--by sessions: more load, not more\n"
	"                workers), not an error rate, memory, count or CPU metric.\n"
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

static const char *const views[] = {"levels", NULL};

static int option(void *request, int which, const char *value)
{
	struct sweep_request *req = request;
	switch (which) {
	case OPT_BY:
		req->by = value;
		return 0;
	case OPT_BASE:
		req->opts.has_base = true;
		return cli_parse_number("base", value, -1e300, 1e300, &req->opts.base);
	case OPT_STOP:
		return cli_parse_number("stop-below", value, 1e-9, 1, &req->opts.stop_efficiency);
	case OPT_KIND:
		req->has_kind = true;
		if (field_kind_parse(value, &req->kind))
			return err_usage("--metric-kind '%s' is not a kind (%s)", value,
					 field_metric_kinds);
		return 0;
	case OPT_LOWER:
		req->lower_is_better = true;
		return 0;
	case OPT_HOST:
		req->host = value;
		return 0;
	case OPT_WORKERS:
		req->workers = value;
		return 0;
	}
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct sweep_request *req = request;
	struct sweep_result res;
	int rc;
	req->filter = &a->filter;
	req->metric = a->metric;
	rc = sweep_run(db, req, &res);
	if (rc == 0)
		rc = build_sweep(req, &res, out);
	sweep_result_release(&res);
	return rc;
}

int cmd_sweep(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"sweep", NULL, details, specs, views}, CLI_DB_READ, option, NULL, run};
	struct sweep_request req;
	memset(&req, 0, sizeof(req));
	sweep_options_init(&req.opts);
	return cli_run(&def, &req, argc, argv, g);
}
