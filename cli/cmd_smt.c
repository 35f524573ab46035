/* cmd_smt: `coreplan smt`, what a second hardware thread on a core is worth. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/smt.h"
#include "../reports/builders.h"

static struct smt_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("host", "NAME", &req.host,
		   "the host's topology (coreplan topology; default: the runs' `topology_host` "
		   "field)"),
	OPT_STRING("threads", "FIELD", &req.threads,
		   "threads per process (default threads_per_proc, else gomaxprocs)"),
	OPT_STRING("procs", "FIELD", &req.procs, "processes per run (default procs; missing: 1)"),
	OPT_STRING("cpuset", "FIELD", &req.cpuset,
		   "the CPU set a run was pinned to (default cpuset)"),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"Runs are placed on the host's topology: a pinned run (cpuset such as 0,4,1,5)\n"
	"on the physical cores its CPUs belong to; an unpinned single-process run of\n"
	"T threads on min(T, physical cores) distinct cores (an assumption, stated\n"
	"where used); a run of several processes is sharded.\n"
	"  shared_vs_distinct  k threads pinned on k/2 cores / k threads on k cores\n"
	"  smt_factor          k threads on k/2 cores / k/2 threads on k/2 distinct\n"
	"                      cores: what the second thread on a core adds\n"
	"  smt_step            unpinned: all-logical-CPU threads / one per physical core\n"
	"  ceiling             physical cores x smt_factor, in single-thread runs\n"
	"  sharded PxT         P processes of T threads / one single-thread process\n"
	"Each value is a ratio of medians; range_lo and range_hi are the ratios of\n"
	"the arms' range ends (min/max, max/min). Each figure is also a fact with\n"
	"its bounds (smt_factor, smt_factor_lo, smt_factor_hi, sharded_8x1, ...),\n"
	"beside host, logical_cpus, physical_cores and placement (--view facts).\n"
	"\n"
	"example:\n"
	"  coreplan topology --from lscpu.txt --host epyc\n"
	"  coreplan smt --host epyc --corpus runs\n";

CLI_ANALYSIS_RUN(run, req, struct smt_result, smt_measure, build_smt, smt_result_release)

const struct cli_def cli_smt = {
	.cmd = {"smt", NULL, details, specs, build_smt_views},
	CLI_ANALYSIS(req, run),
};
