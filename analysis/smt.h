/*
 * smt: what a second hardware thread on a core is worth, measured on the
 * runs of one host (coreplan smt).
 *
 * Runs are classified with the host's topology (schema/topology.h):
 * a pinned run (a cpuset) uses the cores its CPUs sit on; an unpinned
 * single-process run of T threads is taken to sit on min(T, physical
 * cores) distinct cores (the scheduler spreads threads over idle cores;
 * this assumption is stated on every figure that relies on it); a run of
 * P > 1 processes is sharded.
 *
 * Figures (each a ratio of two arms' medians, with the arms' n, medians,
 * ranges and tags, and the ratio of the ranges' ends as bounds):
 *   shared_vs_distinct  k threads pinned on k/2 physical cores (2 per core)
 *                       against k threads pinned on k distinct cores
 *   smt_factor          k threads on k/2 cores against k/2 threads on k/2
 *                       distinct cores: what the second thread adds
 *   smt_step            unpinned: all logical CPUs' worth of threads against
 *                       one thread per physical core (the measured step)
 *   ceiling             physical cores x smt_factor, in units of one
 *                       single-thread run (bounds from smt_factor's)
 *   sharded PxT         P processes of T threads against one single-thread
 *                       process, in the same units, and as % of the ceiling
 * A figure the runs cannot support is reported as not measured, with why.
 */
#ifndef COREPLAN_SMT_H
#define COREPLAN_SMT_H

#include <stdbool.h>
#include <stddef.h>

#include "../schema/topology.h"
#include "select.h"
#include "stats.h"

struct smt_run {
	const char *tag;
	double tput;
	int threads;        /* per process */
	int procs;          /* 1 unless sharded */
	const char *cpuset; /* NULL when not pinned */
};

struct smt_arm {
	char label[96];
	struct summary s; /* n == 0 when the arm is empty */
	char tags[512];
};

struct smt_figure {
	char name[32];
	bool measured;
	double value, lo, hi;
	struct smt_arm num, den;
	char note[256];
};

#define SMT_MAX_FIGURES 16

struct smt_result {
	struct smt_figure figures[SMT_MAX_FIGURES];
	size_t n;
	size_t physical_cores, logical_cpus;
};

int smt_compute(const struct smt_run *runs, size_t n, const struct topology *topo,
		struct smt_result *out);

/*
 * The runs a filter selects, read from the database and measured: the
 * threads per process come from `threads` (NULL: threads_per_proc where a
 * run has it, else gomaxprocs), processes from `procs` (missing: 1), the
 * pinned CPU set from `cpuset`, the host from `host` (NULL: the runs'
 * `topology_host` field, which must agree). The measurement owns its selection and
 * topology; smt_measurement_release() frees them.
 */
struct smt_query {
	const struct run_filter *filter;
	const char *metric;
	const char *host;
	const char *threads;
	const char *procs;
	const char *cpuset;
};

struct smt_measurement {
	struct selection sel;
	struct topology topo;
	struct smt_result res;
	char host[256];
};

int smt_measure(sqlite3 *db, const struct smt_query *q, struct smt_measurement *m);
void smt_measurement_release(struct smt_measurement *m);

#endif
