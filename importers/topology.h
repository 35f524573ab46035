/*
 * topology: which logical CPUs share a physical core, from `lscpu -p`
 * output, a list of thread_siblings_list lines, or this machine's
 * /sys/devices/system/cpu/cpu<N>/topology/ (coreplan topology).
 *
 * A physical core is a (socket, core) pair; threads_per_core is the
 * largest number of logical CPUs on one core. From sibling lists the
 * sockets are unknown (sockets = 0) and each distinct sibling set is one
 * core. Input errors name the file, line and column.
 *
 * Ownership: a struct topology owns its cpus array; topology_release()
 * frees it.
 */
#ifndef COREPLAN_TOPOLOGY_H
#define COREPLAN_TOPOLOGY_H

#include <sqlite3.h>
#include <stddef.h>

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

/* Parse either format: `lscpu -p` output (a "# CPU,Core,..." header) or sibling lists. */
int topology_parse(const char *text, size_t len, const char *display, struct topology *out);
int topology_read_file(const char *path, const char *display, struct topology *out);
/* Probe <root>/cpu<N>/topology/ ("/sys/devices/system/cpu" on a real machine). */
int topology_probe(const char *root, struct topology *out);
void topology_release(struct topology *t);

/*
 * The CPUs of a cpuset ("0,4,1,5", "0-3", "0-3,8") on this topology: how
 * many logical CPUs, on how many physical cores, the most threads on one
 * core. An unknown CPU or malformed set is an error.
 */
struct cpuset_use {
	size_t cpus;
	size_t cores;
	size_t max_threads_per_core;
};
int topology_cpuset(const struct topology *t, const char *cpuset, struct cpuset_use *out);

/* Store under `host` (replacing a host of that name); load it back. */
int topology_store(sqlite3 *db, const char *host, const struct topology *t);
/* 1 when there is no such host. */
int topology_load(sqlite3 *db, const char *host, struct topology *out);

#endif
