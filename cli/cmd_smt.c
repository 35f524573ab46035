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
		      "the host's topology (coreplan topology; default: the runs' `host` field)",
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

static bool field_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *stmt = NULL;
	bool found = false;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM run_fields WHERE name = ?1 LIMIT 1", -1, &stmt,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		found = sqlite3_step(stmt) == SQLITE_ROW;
	}
	sqlite3_finalize(stmt);
	return found;
}

static int whole(const char *text, const char *what, const char *tag, int *out)
{
	int64_t v;
	if (!text)
		return err_set("run '%s' has no %s", tag, what);
	if (num_parse_int(text, &v) || v < 1 || v > 100000)
		return err_set("run '%s': %s '%s' is not a whole number of 1 or more", tag, what,
			       text);
	*out = (int)v;
	return 0;
}

static int to_runs(const struct selection *sel, const struct args *a, struct smt_run *runs)
{
	for (size_t i = 0; i < sel->n; i++) {
		const struct sel_run *r = &sel->runs[i];
		bool fallback = !a->threads && !r->extra[0];
		int rc = whole(fallback ? r->extra[4] : r->extra[0],
			       fallback ? "gomaxprocs"
			       : a->threads ? a->threads
					    : "threads_per_proc",
			       r->tag, &runs[i].threads);
		if (rc == 0)
			rc = r->extra[1] ? whole(r->extra[1], a->procs, r->tag, &runs[i].procs) : 0;
		if (rc)
			return rc;
		if (!r->extra[1])
			runs[i].procs = 1;
		runs[i].tag = r->tag;
		runs[i].tput = r->metric;
		runs[i].cpuset = r->extra[2] && *r->extra[2] ? r->extra[2] : NULL;
	}
	return 0;
}

/* The host named by --host, else the one every selected run names in its `host` field. */
static int choose_host(const struct args *a, const struct selection *sel,
		       const char **host)
{
	*host = a->host;
	for (size_t i = 0; !*host && i < sel->n; i++)
		*host = sel->runs[i].extra[3];
	for (size_t i = 0; !a->host && i < sel->n; i++)
		if (sel->runs[i].extra[3] && strcmp(sel->runs[i].extra[3], *host))
			return err_usage("the runs name several hosts: pass --host");
	if (!*host)
		return err_usage("no topology for these runs: record it with 'coreplan topology "
				 "--from FILE --host NAME' and pass --host NAME");
	return 0;
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
	struct selection sel = {0};
	struct topology topo = {0};
	struct smt_result res;
	struct smt_run *runs = NULL;
	const char *host = NULL;
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	common_args_init(&a.common);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc)
		goto done;
	if (!a.procs)
		a.procs = "procs";
	if (!a.cpuset)
		a.cpuset = "cpuset";
	if (a.threads && !field_find(a.threads) && !field_exists(db, a.threads)) {
		rc = err_usage("no field '%s' for the threads per process: pass --threads FIELD",
			       a.threads);
		goto done;
	}
	{
		/* procs, cpuset and host may be absent from a corpus: they then read NULL */
		/* without --threads: threads_per_proc where a run has it, else gomaxprocs */
		const char *extra[] = {a.threads ? a.threads : "threads_per_proc", a.procs,
				       a.cpuset, "host", "gomaxprocs", NULL};
		struct select_spec spec = {.filter = &a.common.filter,
					   .metric = a.common.metric,
					   .extra = extra};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc == 0 && sel.n == 0)
		rc = err_set("no runs to analyse (check --corpus and --where)");
	if (rc == 0)
		rc = choose_host(&a, &sel, &host);
	if (rc == 0 && (rc = topology_load(db, host, &topo)) == 1)
		rc = err_set("no topology for host '%s' (coreplan topology --show lists them)", host);
	if (rc == 0 && !(runs = calloc(sel.n, sizeof(*runs))))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = to_runs(&sel, &a, runs);
	if (rc == 0)
		rc = smt_compute(runs, sel.n, &topo, &res);
	if (rc)
		goto done;
	if (a.common.format == OUT_MD)
		printf("host %s: %zu logical CPUs on %zu physical cores (%zu per core); %zu runs; "
		       "metric %s; threads field %s\n\n",
		       host, topo.n, topo.physical_cores, topo.threads_per_core, sel.n,
		       a.common.metric, a.threads ? a.threads : "threads_per_proc or gomaxprocs");
	rc = print_figures(&res, a.common.format);
	if (rc == 0)
		common_print_left_out(&sel, a.common.format);
done:
	free(runs);
	topology_release(&topo);
	selection_release(&sel);
	db_close(db);
	common_args_release(&a.common);
	return rc;
}
