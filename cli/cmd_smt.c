/* cmd_smt: `coreplan smt`, what a second hardware thread on a core is worth. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/select.h"
#include "../analysis/smt.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../importers/topology.h"
#include "../reports/table_out.h"
#include "../schema/db.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_HOST = COMMON_COUNT, OPT_THREADS, OPT_PROCS, OPT_CPUSET };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_HOST] = {"host", 0, "NAME",
		      "the host's topology (coreplan topology; default: the runs' `topology_host` field)",
		      false},
	[OPT_THREADS] = {"threads", 0, "FIELD",
			 "threads per process (default threads_per_proc, else gomaxprocs)", false},
	[OPT_PROCS] = {"procs", 0, "FIELD", "processes per run (default procs; missing: 1)",
		       false},
	[OPT_CPUSET] = {"cpuset", 0, "FIELD", "the CPU set a run was pinned to (default cpuset)",
			false},
	{NULL, 0, NULL, NULL, false},
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
	"the arms' range ends (min/max, max/min).\n"
	"\n"
	"example:\n"
	"  coreplan topology --from lscpu.txt --host epyc\n"
	"  coreplan smt --host epyc --corpus runs\n";

static const char *const columns[] = {"figure", "value", "range_lo", "range_hi", "numerator",
				      "num_n", "num_median", "num_min", "num_max", "denominator",
				      "den_n", "den_median", "den_min", "den_max", "note",
				      "num_runs", "den_runs"};
enum { NCOLUMNS = sizeof(columns) / sizeof(columns[0]) };

struct args {
	struct common_args common;
	const char *host;
	const char *threads, *procs, *cpuset;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"smt", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT)
			rc = common_opt(&a->common, which, value);
		else if (which == OPT_HOST)
			a->host = value;
		else if (which == OPT_THREADS)
			a->threads = value;
		else if (which == OPT_PROCS)
			a->procs = value;
		else
			a->cpuset = value;
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	opt_parser_release(&p);
	return rc;
}

static void arm_cells(const struct smt_arm *arm, enum out_format f, const char **cells, char b[][32])
{
	cells[0] = arm->label;
	snprintf(b[0], 32, "%zu", arm->s.n);
	cells[1] = b[0];
	cells[2] = arm->s.n ? common_num(arm->s.median, f, 'g', 6, b[1]) : NULL;
	cells[3] = arm->s.n ? common_num(arm->s.min, f, 'g', 6, b[2]) : NULL;
	cells[4] = arm->s.n ? common_num(arm->s.max, f, 'g', 6, b[3]) : NULL;
}

static int print_figures(const struct smt_result *res, enum out_format f)
{
	struct out_table *t = out_table_new(NCOLUMNS, columns);
	int rc = t ? 0 : err_set("out of memory");
	static const size_t numeric[] = {1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13};
	for (size_t i = 0; t && i < sizeof(numeric) / sizeof(numeric[0]); i++)
		out_table_set_kind(t, numeric[i], OUT_NUM);
	for (size_t i = 0; rc == 0 && i < res->n; i++) {
		const struct smt_figure *x = &res->figures[i];
		char b[16][32];
		const char *cells[NCOLUMNS] = {x->name};
		if (x->measured) {
			cells[1] = common_num(x->value, f, 'f', 3, b[0]);
			cells[2] = common_num(x->lo, f, 'f', 3, b[1]);
			cells[3] = common_num(x->hi, f, 'f', 3, b[2]);
			arm_cells(&x->num, f, cells + 4, b + 3);
			arm_cells(&x->den, f, cells + 9, b + 8);
			cells[15] = x->num.tags;
			cells[16] = x->den.tags;
		}
		cells[14] = x->note[0] ? x->note : NULL;
		rc = out_table_add_row(t, cells);
	}
	if (rc == 0)
		rc = out_table_write(t, f, stdout);
	out_table_free(t);
	return rc;
}

int cmd_smt(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct smt_measurement m;
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	memset(&m, 0, sizeof(m));
	common_args_init(&a.common);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		struct smt_query q = {&a.common.filter, a.common.metric, a.host,
				      a.threads,        a.procs,         a.cpuset};
		rc = smt_measure(db, &q, &m);
	}
	if (rc)
		goto done;
	if (a.common.format == OUT_MD)
		printf("host %s: %zu logical CPUs on %zu physical cores (%zu per core); %zu runs; "
		       "metric %s; threads field %s\n\n",
		       m.host, m.topo.n, m.topo.physical_cores, m.topo.threads_per_core, m.sel.n,
		       a.common.metric, a.threads ? a.threads : "threads_per_proc or gomaxprocs");
	rc = print_figures(&m.res, a.common.format);
	if (rc == 0)
		common_print_left_out(&m.sel, a.common.format);
done:
	smt_measurement_release(&m);
	db_close(db);
	common_args_release(&a.common);
	return rc;
}
