/*
 * hosts: which CPU topology a set of runs ran on, and what a level of
 * threads or workers is on it (a physical core, or an SMT sibling).
 *
 * A run's host is the topology its `topology_host` field names (recorded
 * with `coreplan topology`, tied to a corpus by `import --host`, a
 * manifest's `topology =`, or derived from a catalog instance at import).
 * An explicit host name (a command's --host) wins over the runs' field.
 *
 * Levels: on a host with P physical cores and L logical CPUs, a worker
 * level N is
 *   physical  N <= P   (each worker can have a core of its own)
 *   smt       P < N <= L (the workers beyond P share cores with SMT siblings)
 *   beyond    N > L    (more workers than logical CPUs)
 *   assumed   the host is unknown: the level is taken to count physical
 *             cores, and documents say so
 */
#ifndef COREPLAN_HOSTS_H
#define COREPLAN_HOSTS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "select.h"

struct run_host {
	bool known;
	char name[256];
	size_t logical_cpus, physical_cores, threads_per_core;
	char source[128]; /* where the topology was recorded ("lscpu -p", "sysfs", ...) */
	/* the runs name different hosts, or some a host and some none (run_host_of's error) */
	bool mixed;
	char mixed_note[600]; /* "the runs ran on different hosts ('a' on t1, 'b' on t2)" */
};

/*
 * The host of the selected runs (their `topology_host` field), or `name`
 * when given. Runs that name different hosts, or a host on some runs and
 * none on others, are a usage error naming two of them (out->mixed and
 * out->mixed_note say so too, for a caller that goes on without a host);
 * no host at all is known = false (not an error). A name with no
 * recorded topology is a usage error listing the recorded hosts
 * (topology_require).
 */
int run_host_of(sqlite3 *db, const struct selection *sel, const char *name,
		struct run_host *out);

/*
 * run_host_of() for an analysis that goes on without a host: runs on
 * several hosts (no `name` given) are no error but known = false, with
 * out->mixed and out->mixed_note set, so that the levels are assumed
 * physical and the document says why. Other errors stay errors.
 */
int run_host_levels(sqlite3 *db, const struct selection *sel, const char *name,
		    struct run_host *out);

enum level_kind { LEVEL_PHYSICAL, LEVEL_SMT, LEVEL_BEYOND, LEVEL_ASSUMED };

enum level_kind level_kind_on(const struct run_host *h, double level);
/* "physical", "smt", "beyond", "assumed physical". */
const char *level_kind_name(enum level_kind kind);

/*
 * The SMT factor `coreplan smt` measures (smt.h's smt_factor: k threads
 * pinned on k/2 cores against k/2 threads on k/2 distinct cores) on one
 * host's runs, corpus by corpus so that an experiment's arms stay
 * together: of the corpora with pinned runs (a non-empty `cpuset` field)
 * on the host, `prefer` first (when not NULL), then the others by name;
 * the first where it is measured wins. 1 when no corpus measures it (not
 * an error; a corpus whose runs smt cannot read is passed over).
 */
struct host_smt {
	double factor, lo, hi; /* ratio of the medians; bounds from the ranges' ends */
	char corpus[256];      /* where it was measured */
	char num[96], den[96]; /* the two arms, as smt labels them */
	size_t num_n, den_n;
};
int host_smt_factor(sqlite3 *db, const char *host, const char *prefer, struct host_smt *out);

#endif
