/*
 * topology (schema): a host's CPU topology as coreplan stores it (tables
 * hosts and host_cpus), and the CPU-set arithmetic analyses do on it.
 *
 * A physical core is a (socket, core) pair; threads_per_core is the
 * largest number of logical CPUs on one core. When the source does not
 * say (sibling lists) sockets are unknown (socket -1, sockets = 0) and the
 * core number alone names a core. The parsers of `lscpu -p` output,
 * sibling lists and sysfs live in importers/topology.h and fill this
 * struct with topology_add_cpu() and topology_derive().
 *
 * Ownership: a struct topology owns its cpus array and a struct
 * topology_hosts its names and topologies; the _release functions free
 * them (and accept a zeroed struct).
 */
#ifndef COREPLAN_SCHEMA_TOPOLOGY_H
#define COREPLAN_SCHEMA_TOPOLOGY_H

#include <sqlite3.h>
#include <stddef.h>

#include "../common/strbuf.h"

#define TOPOLOGY_MAX_CPUS 65536

struct topo_cpu {
	int cpu;
	int core;
	int socket; /* -1 when unknown */
	int node;   /* -1 when unknown */
};

struct topology {
	struct topo_cpu *cpus; /* sorted by cpu */
	size_t n;
	size_t physical_cores;
	size_t sockets; /* 0 when unknown */
	size_t threads_per_core;
	char source[128]; /* "lscpu -p", "thread_siblings_list", "sysfs" */
};

void topology_release(struct topology *t);

/*
 * Building one: append CPUs (alloc is the caller's running capacity,
 * starting at 0; more than TOPOLOGY_MAX_CPUS is an error), then derive:
 * sort by CPU, refuse a CPU listed twice (an error naming `display`) and
 * count cores, sockets and threads per core. No CPU at all is an error.
 */
int topology_add_cpu(struct topology *t, size_t *alloc, int cpu, int core, int socket, int node);
int topology_derive(struct topology *t, const char *display);

/*
 * A CPU list ("0,4", "0-3,8-11") of len bytes into a new array of its
 * CPUs in the order listed (ranges expanded; repeats kept); the caller
 * frees *out, also on failure. -1 when malformed ("", "1,", "3-1", a CPU
 * of TOPOLOGY_MAX_CPUS or more), with no message recorded.
 */
int topology_cpulist_parse(const char *text, size_t len, int **out, size_t *n);

/*
 * The CPUs of a cpuset ("0,4,1,5", "0-3", "0-3,8") on this topology: how
 * many logical CPUs (one named twice counts once), on how many physical
 * cores, the most threads on one core. An unknown CPU or malformed set is
 * an error.
 */
struct cpuset_use {
	size_t cpus;
	size_t cores;
	size_t max_threads_per_core;
};
int topology_cpuset(const struct topology *t, const char *cpuset, struct cpuset_use *out);

/*
 * A topology of `cores` physical cores of `threads_per_core` logical CPUs
 * each, numbered as Linux numbers them: CPU i sits on core i mod cores,
 * so core c's SMT siblings are c, c + cores, c + 2 cores, ... (sockets
 * and nodes unknown). For a host known only by its shape: `coreplan
 * topology --cores N --threads-per-core T` (source "given") and a
 * catalog instance's vCPUs and threads per core (source "catalog").
 * cores and threads_per_core of 1 or more whose product is at most
 * TOPOLOGY_MAX_CPUS, else a usage error. out starts zeroed.
 */
int topology_shape(size_t cores, size_t threads_per_core, const char *source, struct topology *out);

/* Each physical core's logical CPUs, cores in order of their first CPU: "0,4 1,5 2,6 3,7". */
int topology_cores_text(const struct topology *t, struct strbuf *sb);

/*
 * Store under `host` (replacing a host of that name) inside the caller's
 * transaction (the import's); topology_record() is the same in a
 * transaction of its own (rolled back on failure). Load one back: 1 when
 * there is no such host.
 */
int topology_store(sqlite3 *db, const char *host, const struct topology *t);
int topology_record(sqlite3 *db, const char *host, const struct topology *t);
int topology_load(sqlite3 *db, const char *host, struct topology *out);

/*
 * 0 when a host named `host` is recorded; else a usage error naming it
 * and listing the recorded hosts (or saying how to record one). `what`
 * names where the name came from in the message ("--host").
 */
int topology_require(sqlite3 *db, const char *host, const char *what);

/* Stored hosts, by name. */
struct topology_host {
	char *name;
	struct topology topo;
};

struct topology_hosts {
	struct topology_host *hosts;
	size_t n;
};

/*
 * Every stored host (only == NULL), or the one named `only` (none by that
 * name is an error naming it). Appends to out, which starts zeroed.
 */
int topology_list(sqlite3 *db, const char *only, struct topology_hosts *out);
/* Append a copy of t under `name`. */
int topology_hosts_add(struct topology_hosts *hosts, const char *name, const struct topology *t);
void topology_hosts_release(struct topology_hosts *hosts);

#endif
