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

struct smt_figures {
	struct smt_figure figures[SMT_MAX_FIGURES];
	size_t n;
	size_t physical_cores, logical_cpus;
};

int smt_compute(const struct smt_run *runs, size_t n, const struct topology *topo,
		struct smt_figures *out);

/* The placement assumption the unpinned figures rest on, in words (a fact of the document). */
#define SMT_PLACEMENT                                                                              \
	"an unpinned single-process run of T threads is assumed to sit on min(T, physical "   \
	"cores) distinct cores (the scheduler spreads threads over idle cores)"

/*
 * What `coreplan smt` (and `coreplan size --smt-from`) asks: the runs a
 * filter selects, measured on one host's topology. The threads per
 * process come from `threads` (NULL: threads_per_proc where a run has it,
 * else gomaxprocs), processes from `procs` (NULL: the field procs;
 * missing: 1), the pinned CPU set from `cpuset` (NULL: the field cpuset),
 * the host from `host` (NULL: the runs' `topology_host` field, which must
 * agree), the measured value from `metric` (NULL: tput).
 */
struct smt_request {
	const struct run_filter *filter;
	const char *metric;
	const char *host;
	const char *threads;
	const char *procs;
	const char *cpuset;
};

/* Its answer: the runs read (with those left out), the host's topology, the figures. */
struct smt_result {
	struct selection sel;
	struct topology topo;
	struct smt_figures figs;
	char host[256];
};

/*
 * Select, load the host's topology and compute. No runs is an error; no
 * host is a usage error saying how to record one; an unknown host is an
 * error naming it. smt_result_release() frees the result either way.
 */
int smt_measure(sqlite3 *db, const struct smt_request *req, struct smt_result *out);
void smt_result_release(struct smt_result *r);

#endif
