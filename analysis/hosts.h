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

enum level_kind { LEVEL_PHYSICAL, LEVEL_SMT, LEVEL_BEYOND, LEVEL_ASSUMED };

enum level_kind level_kind_on(const struct run_host *h, double level);
/* "physical", "smt", "beyond", "assumed physical". */
const char *level_kind_name(enum level_kind kind);

#endif
