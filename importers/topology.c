/* topology: see topology.h. */
#include "topology.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "runfiles.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void topology_release(struct topology *t)
{
	free(t->cpus);
	memset(t, 0, sizeof(*t));
}

/* What a parse has seen so far, to name a repeated CPU at its line. */
struct parse_state {
	size_t alloc;
	unsigned char seen[TOPOLOGY_MAX_CPUS / 8];
	int core_of[TOPOLOGY_MAX_CPUS]; /* sibling lists: the core each seen CPU is on */
};

static bool seen_cpu(const struct parse_state *st, int cpu)
{
	return (st->seen[cpu / 8] >> (cpu % 8)) & 1;
}

static void mark_cpu(struct parse_state *st, int cpu)
{
	st->seen[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
}

static int add_cpu(struct topology *t, size_t *alloc, int cpu, int core, int socket, int node)
{
	if (t->n >= TOPOLOGY_MAX_CPUS)
		return err_set("more than %d CPUs", TOPOLOGY_MAX_CPUS);
	if (t->n == *alloc) {
		size_t want = *alloc ? 2 * *alloc : 64;
		struct topo_cpu *grown = realloc(t->cpus, want * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		t->cpus = grown;
		*alloc = want;
	}
	t->cpus[t->n++] = (struct topo_cpu){cpu, core, socket, node};
	return 0;
}

static int by_cpu(const void *a, const void *b)
{
	const struct topo_cpu *x = a, *y = b;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int by_core(const void *a, const void *b)
{
	const struct topo_cpu *x = a, *y = b;
	if (x->socket != y->socket)
		return (x->socket > y->socket) - (x->socket < y->socket);
	return (x->core > y->core) - (x->core < y->core);
}

/* Sort, refuse duplicate CPUs, and count cores, sockets and threads per core. */
static int derive(struct topology *t, const char *display)
{
	struct topo_cpu *copy;
	size_t run = 0;
	bool sockets_known = true;
	if (t->n == 0)
		return err_at(display, 0, 0, "no CPUs listed");
	qsort(t->cpus, t->n, sizeof(t->cpus[0]), by_cpu);
	for (size_t i = 1; i < t->n; i++)
		if (t->cpus[i].cpu == t->cpus[i - 1].cpu)
			return err_at(display, 0, 0, "CPU %d is listed twice", t->cpus[i].cpu);
	copy = malloc(t->n * sizeof(*copy));
	if (!copy)
		return err_set("out of memory");
	memcpy(copy, t->cpus, t->n * sizeof(*copy));
	qsort(copy, t->n, sizeof(*copy), by_core);
	t->physical_cores = t->sockets = t->threads_per_core = 0;
	for (size_t i = 0; i < t->n; i++) {
		bool new_core = i == 0 || by_core(&copy[i], &copy[i - 1]) != 0;
		sockets_known &= copy[i].socket >= 0;
		if (new_core) {
			t->physical_cores++;
			run = 0;
		}
		run++;
		if (run > t->threads_per_core)
			t->threads_per_core = run;
		if (i == 0 || copy[i].socket != copy[i - 1].socket)
			t->sockets++;
	}
	if (!sockets_known)
		t->sockets = 0;
	free(copy);
	return 0;
}

/* An integer field of lscpu -p; empty means unknown (-1). */
static int int_field(const char *text, size_t len, int *out)
{
	int64_t v;
	if (len == 0) {
		*out = -1;
		return 0;
	}
	if (num_parse_int_n(text, len, &v) || v < 0 || v > 1000000000)
		return -1;
	*out = (int)v;
	return 0;
}

struct lscpu_columns {
	int cpu, core, socket, node;
};

/*
 * 1 when the comment line is lscpu -p's header (comma-separated names with
 * CPU or Core among them), 0 for other comment lines, -1 for a header
 * without both CPU and Core.
 */
static int lscpu_header(const char *line, size_t len, struct lscpu_columns *cols)
{
	int index = 0;
	size_t start = 1;
	cols->cpu = cols->core = cols->socket = cols->node = -1;
	while (start < len && line[start] == ' ')
		start++;
	for (size_t i = start; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (i - start == 3 && !strncmp(line + start, "CPU", 3))
			cols->cpu = index;
		else if (i - start == 4 && !strncmp(line + start, "Core", 4))
			cols->core = index;
		else if (i - start == 6 && !strncmp(line + start, "Socket", 6))
			cols->socket = index;
		else if (i - start == 4 && !strncmp(line + start, "Node", 4))
			cols->node = index;
		index++;
		start = i + 1;
	}
	if (cols->cpu < 0 && cols->core < 0)
		return 0;
	return cols->cpu >= 0 && cols->core >= 0 ? 1 : -1;
}

static int lscpu_row(struct topology *t, struct parse_state *st, const struct lscpu_columns *cols,
		     const char *line, size_t len, const char *display, long line_no)
{
	int values[4] = {-1, -1, -1, -1};
	const int wanted[4] = {cols->cpu, cols->core, cols->socket, cols->node};
	int index = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		for (int k = 0; k < 4; k++)
			if (wanted[k] == index &&
			    int_field(line + start, i - start, &values[k]) != 0)
				return err_at(display, line_no, index + 1,
					      "'%.*s' is not a CPU, core, socket or node number",
					      (int)(i - start), line + start);
		index++;
		start = i + 1;
	}
	if (values[0] < 0 || values[1] < 0)
		return err_at(display, line_no, 1, "a CPU line needs its CPU and Core numbers");
	if (values[0] >= TOPOLOGY_MAX_CPUS)
		return err_at(display, line_no, cols->cpu + 1, "CPU %d is beyond %d", values[0],
			      TOPOLOGY_MAX_CPUS);
	if (seen_cpu(st, values[0]))
		return err_at(display, line_no, cols->cpu + 1, "CPU %d is listed twice", values[0]);
	mark_cpu(st, values[0]);
	return add_cpu(t, &st->alloc, values[0], values[1], values[2], values[3]);
}

/* A cpulist ("0,4", "0-3,8-11") into a sorted unique array. */
static int parse_cpulist(const char *text, size_t len, int **out, size_t *n)
{
	size_t alloc = 0, i = 0;
	*out = NULL;
	*n = 0;
	while (i < len) {
		size_t start = i;
		int64_t lo, hi;
		while (i < len && text[i] != ',' && text[i] != '-')
			i++;
		if (num_parse_int_n(text + start, i - start, &lo) || lo < 0 || lo >= TOPOLOGY_MAX_CPUS)
			return -1;
		hi = lo;
		if (i < len && text[i] == '-') {
			start = ++i;
			while (i < len && text[i] != ',')
				i++;
			if (num_parse_int_n(text + start, i - start, &hi) || hi < lo ||
			    hi >= TOPOLOGY_MAX_CPUS)
				return -1;
		}
		for (int64_t c = lo; c <= hi; c++) {
			if (*n == alloc) {
				size_t want = alloc ? 2 * alloc : 16;
				int *grown = realloc(*out, want * sizeof(*grown));
				if (!grown)
					return -1;
				*out = grown;
				alloc = want;
			}
			(*out)[(*n)++] = (int)c;
		}
		if (i < len)
			i++; /* the comma */
		if (i == len && text[len - 1] == ',')
			return -1;
	}
	return *n ? 0 : -1;
}

static int compare_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/*
 * One sibling line: its CPUs share a core, named by its lowest CPU. The
 * same set may come back (one line per CPU, in any order); a CPU in two
 * different sets is an error.
 */
static int sibling_row(struct topology *t, struct parse_state *st, const char *line, size_t len,
		       const char *display, long line_no)
{
	int *cpus = NULL;
	size_t n = 0, k = 0;
	bool known = false;
	int rc = 0;
	if (parse_cpulist(line, len, &cpus, &n) != 0) {
		free(cpus);
		return err_at(display, line_no, 1, "'%.*s' is not a CPU list (e.g. 0,4 or 0-1)",
			      (int)(len > 60 ? 60 : len), line);
	}
	qsort(cpus, n, sizeof(*cpus), compare_int);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || cpus[i] != cpus[k - 1])
			cpus[k++] = cpus[i];
	/* the set seen before: every CPU already on the core named by cpus[0], and no other */
	if (seen_cpu(st, cpus[0])) {
		size_t members = 0;
		known = true;
		for (size_t i = 0; known && i < k; i++)
			known = seen_cpu(st, cpus[i]) && st->core_of[cpus[i]] == cpus[0];
		for (size_t j = 0; known && j < t->n; j++)
			members += t->cpus[j].core == cpus[0];
		known = known && members == k;
	}
	for (size_t i = 0; rc == 0 && !known && i < k; i++) {
		if (seen_cpu(st, cpus[i])) {
			rc = err_at(display, line_no, 1,
				    "CPU %d appears in two different sibling sets", cpus[i]);
			break;
		}
		mark_cpu(st, cpus[i]);
		st->core_of[cpus[i]] = cpus[0];
		rc = add_cpu(t, &st->alloc, cpus[i], cpus[0], -1, -1);
	}
	free(cpus);
	return rc;
}

int topology_parse(const char *text, size_t len, const char *display, struct topology *out)
{
	struct lscpu_columns cols = {-1, -1, -1, -1};
	struct parse_state *st = calloc(1, sizeof(*st));
	bool lscpu = false;
	long line_no = 0;
	int rc = st ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	for (size_t pos = 0; rc == 0 && pos < len;) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl != NULL);
		line_no++;
		if (n && line[n - 1] == '\r')
			n--;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			n--;
		if (n == 0)
			continue;
		if (line[0] == '#') {
			/* lscpu -p's comment lines; the one naming CPU and Core is the header */
			int header = lscpu_header(line, n, &cols);
			if (header < 0)
				rc = err_at(display, line_no, 1,
					    "lscpu -p header without the %s column",
					    cols.cpu < 0 ? "CPU" : "Core");
			lscpu |= header > 0;
			continue;
		}
		if (lscpu)
			rc = lscpu_row(out, st, &cols, line, n, display, line_no);
		else
			rc = sibling_row(out, st, line, n, display, line_no);
	}
	free(st);
	snprintf(out->source, sizeof(out->source), "%s", lscpu ? "lscpu -p" : "thread_siblings_list");
	if (rc == 0)
		rc = derive(out, display);
	if (rc)
		topology_release(out);
	return rc;
}

int topology_read_file(const char *path, const char *display, struct topology *out)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, display, &text, &len);
	memset(out, 0, sizeof(*out));
	if (rc == 0)
		rc = topology_parse(text, len, display, out);
	free(text);
	return rc;
}

static int read_int_file(const char *path, int *out)
{
	char buf[64];
	int64_t v;
	size_t n;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	if (num_parse_int_n(buf, n, &v) || v < -1 || v > 1000000000)
		return -1;
	*out = (int)v;
	return 0;
}

int topology_probe(const char *root, struct topology *out)
{
	DIR *dir = opendir(root);
	struct dirent *e;
	size_t alloc = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (!dir)
		return err_set("cannot probe this machine's CPUs: cannot open '%s'", root);
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		char path[512];
		int64_t cpu;
		int core, socket;
		if (strncmp(e->d_name, "cpu", 3) ||
		    num_parse_int_n(e->d_name + 3, strlen(e->d_name + 3), &cpu) || cpu < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/topology/core_id", root, e->d_name);
		if (read_int_file(path, &core) != 0)
			continue; /* offline CPUs have no topology */
		snprintf(path, sizeof(path), "%s/%s/topology/physical_package_id", root, e->d_name);
		if (read_int_file(path, &socket) != 0)
			socket = -1;
		rc = add_cpu(out, &alloc, (int)cpu, core, socket, -1);
	}
	closedir(dir);
	snprintf(out->source, sizeof(out->source), "sysfs");
	if (rc == 0)
		rc = derive(out, root);
	if (rc)
		topology_release(out);
	return rc;
}

int topology_cpuset(const struct topology *t, const char *cpuset, struct cpuset_use *out)
{
	int *cpus = NULL;
	size_t n = 0;
	struct topo_cpu *used;
	unsigned char *listed;
	memset(out, 0, sizeof(*out));
	if (parse_cpulist(cpuset, strlen(cpuset), &cpus, &n) != 0) {
		free(cpus);
		return err_set("'%s' is not a CPU set (e.g. 0,4,1,5 or 0-3)", cpuset);
	}
	used = malloc(n * sizeof(*used));
	if (!used) {
		free(cpus);
		return err_set("out of memory");
	}
	listed = calloc(TOPOLOGY_MAX_CPUS / 8, 1);
	for (size_t i = 0; listed && i < n; i++) {
		const struct topo_cpu key = {cpus[i], 0, 0, 0};
		const struct topo_cpu *hit = bsearch(&key, t->cpus, t->n, sizeof(key), by_cpu);
		if (!hit) {
			int rc = err_set("CPU %d of set '%s' is not on this host", cpus[i], cpuset);
			free(cpus);
			free(used);
			free(listed);
			memset(out, 0, sizeof(*out));
			return rc;
		}
		/* named twice: counted once */
		if (!(listed[cpus[i] / 8] & (1u << (cpus[i] % 8)))) {
			listed[cpus[i] / 8] |= (unsigned char)(1u << (cpus[i] % 8));
			used[out->cpus++] = *hit;
		}
	}
	if (!listed) {
		free(cpus);
		free(used);
		return err_set("out of memory");
	}
	free(listed);
	qsort(used, out->cpus, sizeof(*used), by_core);
	for (size_t i = 0, run = 0; i < out->cpus; i++) {
		if (i == 0 || by_core(&used[i], &used[i - 1]) != 0) {
			out->cores++;
			run = 0;
		}
		if (++run > out->max_threads_per_core)
			out->max_threads_per_core = run;
	}
	free(cpus);
	free(used);
	return 0;
}

int topology_store(sqlite3 *db, const char *host, const struct topology *t)
{
	sqlite3_stmt *stmt = NULL;
	char now[32];
	time_t clock = time(NULL);
	struct tm tm;
	int64_t host_id;
	int rc = 0;
	gmtime_r(&clock, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (sqlite3_prepare_v2(db, "DELETE FROM hosts WHERE name = ?1", -1, &stmt, NULL))
		return err_set("cannot store the topology: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, host, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		rc = err_set("cannot store the topology: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO hosts (name, source, logical_cpus, physical_cores,"
			       " sockets, threads_per_core, recorded_at)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			       -1, &stmt, NULL))
		return err_set("cannot store the topology: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, t->source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 3, (sqlite3_int64)t->n);
	sqlite3_bind_int64(stmt, 4, (sqlite3_int64)t->physical_cores);
	if (t->sockets)
		sqlite3_bind_int64(stmt, 5, (sqlite3_int64)t->sockets);
	sqlite3_bind_int64(stmt, 6, (sqlite3_int64)t->threads_per_core);
	sqlite3_bind_text(stmt, 7, now, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		rc = err_set("cannot store the topology: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	if (rc)
		return rc;
	host_id = sqlite3_last_insert_rowid(db);
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO host_cpus (host_id, cpu, core, socket, node)"
			       " VALUES (?1, ?2, ?3, ?4, ?5)",
			       -1, &stmt, NULL))
		return err_set("cannot store the topology: %s", sqlite3_errmsg(db));
	for (size_t i = 0; rc == 0 && i < t->n; i++) {
		const struct topo_cpu *c = &t->cpus[i];
		sqlite3_bind_int64(stmt, 1, host_id);
		sqlite3_bind_int(stmt, 2, c->cpu);
		sqlite3_bind_int(stmt, 3, c->core);
		if (c->socket >= 0)
			sqlite3_bind_int(stmt, 4, c->socket);
		else
			sqlite3_bind_null(stmt, 4);
		if (c->node >= 0)
			sqlite3_bind_int(stmt, 5, c->node);
		else
			sqlite3_bind_null(stmt, 5);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			rc = err_set("cannot store the topology: %s", sqlite3_errmsg(db));
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	return rc;
}

int topology_load(sqlite3 *db, const char *host, struct topology *out)
{
	sqlite3_stmt *stmt = NULL;
	size_t alloc = 0;
	int rc = 0, step;
	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db,
			       "SELECT c.cpu, c.core, coalesce(c.socket, -1), coalesce(c.node, -1),"
			       " h.source FROM host_cpus c JOIN hosts h USING (host_id)"
			       " WHERE h.name = ?1 ORDER BY c.cpu",
			       -1, &stmt, NULL))
		return err_set("cannot read the topology: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, host, -1, SQLITE_STATIC);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		rc = add_cpu(out, &alloc, sqlite3_column_int(stmt, 0), sqlite3_column_int(stmt, 1),
			     sqlite3_column_int(stmt, 2), sqlite3_column_int(stmt, 3));
		snprintf(out->source, sizeof(out->source), "%s",
			 (const char *)sqlite3_column_text(stmt, 4));
	}
	sqlite3_finalize(stmt);
	if (rc == 0 && out->n == 0)
		return 1;
	if (rc == 0)
		rc = derive(out, host);
	if (rc)
		topology_release(out);
	return rc;
}
