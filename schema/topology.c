/* topology (schema): see topology.h. */
#include "topology.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/num.h"
#include "db.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void topology_release(struct topology *t)
{
	free(t->cpus);
	memset(t, 0, sizeof(*t));
}

int topology_add_cpu(struct topology *t, size_t *alloc, int cpu, int core, int socket, int node)
{
	if (t->n >= TOPOLOGY_MAX_CPUS)
		return err_set("more than %d CPUs", TOPOLOGY_MAX_CPUS);
	if (GROW(t->cpus, *alloc, t->n + 1) != 0)
		return err_set("out of memory");
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

int topology_derive(struct topology *t, const char *display)
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

int topology_cpulist_parse(const char *text, size_t len, int **out, size_t *n)
{
	size_t alloc = 0, i = 0;
	*out = NULL;
	*n = 0;
	while (i < len) {
		size_t start = i;
		int64_t lo, hi;
		while (i < len && text[i] != ',' && text[i] != '-')
			i++;
		if (num_parse_int_n(text + start, i - start, &lo) || lo < 0 ||
		    lo >= TOPOLOGY_MAX_CPUS)
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
			if (GROW(*out, alloc, *n + 1) != 0)
				return -1;
			(*out)[(*n)++] = (int)c;
		}
		if (i < len)
			i++; /* the comma */
		if (i == len && text[len - 1] == ',')
			return -1;
	}
	return *n ? 0 : -1;
}

int topology_cpuset(const struct topology *t, const char *cpuset, struct cpuset_use *out)
{
	int *cpus = NULL;
	size_t n = 0;
	struct topo_cpu *used = NULL;
	unsigned char *listed = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (topology_cpulist_parse(cpuset, strlen(cpuset), &cpus, &n) != 0) {
		rc = err_set("'%s' is not a CPU set (e.g. 0,4,1,5 or 0-3)", cpuset);
		goto done;
	}
	used = malloc(n * sizeof(*used));
	listed = calloc(TOPOLOGY_MAX_CPUS / 8, 1);
	if (!used || !listed) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		const struct topo_cpu key = {cpus[i], 0, 0, 0};
		const struct topo_cpu *hit = bsearch(&key, t->cpus, t->n, sizeof(key), by_cpu);
		if (!hit) {
			rc = err_set("CPU %d of set '%s' is not on this host", cpus[i], cpuset);
			goto done;
		}
		/* named twice: counted once */
		if (!(listed[cpus[i] / 8] & (1u << (cpus[i] % 8)))) {
			listed[cpus[i] / 8] |= (unsigned char)(1u << (cpus[i] % 8));
			used[out->cpus++] = *hit;
		}
	}
	qsort(used, out->cpus, sizeof(*used), by_core);
	for (size_t i = 0, run = 0; i < out->cpus; i++) {
		if (i == 0 || by_core(&used[i], &used[i - 1]) != 0) {
			out->cores++;
			run = 0;
		}
		if (++run > out->max_threads_per_core)
			out->max_threads_per_core = run;
	}
done:
	if (rc)
		memset(out, 0, sizeof(*out));
	free(cpus);
	free(used);
	free(listed);
	return rc;
}

int topology_cores_text(const struct topology *t, struct strbuf *sb)
{
	bool *done = calloc(t->n ? t->n : 1, sizeof(*done));
	size_t start = sb->len;
	int bad = 0;
	if (!done)
		return err_set("out of memory");
	for (size_t i = 0; i < t->n; i++) {
		if (done[i])
			continue;
		bad |= strbuf_addf(sb, "%s%d", sb->len > start ? " " : "", t->cpus[i].cpu);
		for (size_t j = i + 1; j < t->n; j++)
			if (!done[j] && t->cpus[j].core == t->cpus[i].core &&
			    t->cpus[j].socket == t->cpus[i].socket) {
				bad |= strbuf_addf(sb, ",%d", t->cpus[j].cpu);
				done[j] = true;
			}
	}
	free(done);
	return bad ? err_set("out of memory") : 0;
}

int topology_shape(size_t cores, size_t threads_per_core, const char *source, struct topology *out)
{
	size_t alloc = 0;
	int rc = 0;
	if (cores < 1 || threads_per_core < 1 || cores > TOPOLOGY_MAX_CPUS ||
	    threads_per_core > TOPOLOGY_MAX_CPUS / cores)
		return err_usage("a topology needs 1 or more cores of 1 or more threads each, at "
				 "most %d CPUs (got %zu cores x %zu threads)",
				 TOPOLOGY_MAX_CPUS, cores, threads_per_core);
	for (size_t i = 0; rc == 0 && i < cores * threads_per_core; i++)
		rc = topology_add_cpu(out, &alloc, (int)i, (int)(i % cores), -1, -1);
	if (rc == 0)
		rc = topology_derive(out, source);
	if (rc == 0)
		snprintf(out->source, sizeof(out->source), "%s", source);
	else
		topology_release(out);
	return rc;
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

int topology_record(sqlite3 *db, const char *host, const struct topology *t)
{
	int rc = db_begin(db);
	if (rc)
		return rc;
	rc = topology_store(db, host, t);
	if (rc == 0)
		rc = db_commit(db);
	else
		db_rollback(db);
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
		rc = topology_add_cpu(out, &alloc, sqlite3_column_int(stmt, 0),
				      sqlite3_column_int(stmt, 1), sqlite3_column_int(stmt, 2),
				      sqlite3_column_int(stmt, 3));
		snprintf(out->source, sizeof(out->source), "%s",
			 (const char *)sqlite3_column_text(stmt, 4));
	}
	sqlite3_finalize(stmt);
	if (rc == 0 && out->n == 0)
		return 1;
	if (rc == 0)
		rc = topology_derive(out, host);
	if (rc)
		topology_release(out);
	return rc;
}

static int hosts_push(struct topology_hosts *hosts, char *name, struct topology *t)
{
	struct topology_host *grown = realloc(hosts->hosts, (hosts->n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	hosts->hosts = grown;
	grown[hosts->n].name = name;
	grown[hosts->n].topo = *t;
	hosts->n++;
	return 0;
}

int topology_hosts_add(struct topology_hosts *hosts, const char *name, const struct topology *t)
{
	struct topology copy = *t;
	char *dup = strdup(name);
	int rc = 0;
	copy.cpus = malloc((t->n ? t->n : 1) * sizeof(*copy.cpus));
	if (!dup || !copy.cpus)
		rc = err_set("out of memory");
	if (rc == 0) {
		memcpy(copy.cpus, t->cpus, t->n * sizeof(*copy.cpus));
		rc = hosts_push(hosts, dup, &copy);
	}
	if (rc) {
		free(dup);
		free(copy.cpus);
	}
	return rc;
}

int topology_list(sqlite3 *db, const char *only, struct topology_hosts *out)
{
	sqlite3_stmt *stmt = NULL;
	size_t before = out->n;
	int rc = 0, step = SQLITE_DONE;
	if (sqlite3_prepare_v2(db,
			       "SELECT name FROM hosts WHERE ?1 IS NULL OR name = ?1 ORDER BY name",
			       -1, &stmt, NULL))
		return err_set("cannot read hosts: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, only, -1, SQLITE_STATIC);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct topology t;
		char *name = strdup((const char *)sqlite3_column_text(stmt, 0));
		memset(&t, 0, sizeof(t));
		rc = name ? topology_load(db, name, &t) : err_set("out of memory");
		if (rc == 0)
			rc = hosts_push(out, name, &t);
		if (rc == 0)
			continue;
		/* a host without CPUs is not shown */
		if (rc == 1)
			rc = 0;
		topology_release(&t);
		free(name);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot read hosts: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	if (rc == 0 && only && out->n == before)
		rc = err_set("no host '%s' (coreplan topology --show lists them)", only);
	return rc;
}

int topology_require(sqlite3 *db, const char *host, const char *what)
{
	struct topology_hosts hosts = {0};
	struct strbuf names = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM hosts WHERE name = ?1", -1, &stmt, NULL))
		return err_set("cannot read hosts: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, host, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return 0;
	}
	sqlite3_finalize(stmt);
	rc = topology_list(db, NULL, &hosts);
	for (size_t i = 0; rc == 0 && i < hosts.n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", hosts.hosts[i].name);
	if (rc == 0)
		rc = names.len
			     ? err_usage("%s '%s' is not a recorded host (recorded: %s)", what,
					 host, strbuf_str(&names))
			     : err_usage("%s '%s' is not a recorded host: none is recorded "
					 "(coreplan topology --from FILE --host NAME, or --cores N "
					 "--threads-per-core T)",
					 what, host);
	strbuf_release(&names);
	topology_hosts_release(&hosts);
	return rc;
}

void topology_hosts_release(struct topology_hosts *hosts)
{
	for (size_t i = 0; i < hosts->n; i++) {
		free(hosts->hosts[i].name);
		topology_release(&hosts->hosts[i].topo);
	}
	free(hosts->hosts);
	hosts->hosts = NULL;
	hosts->n = 0;
}
