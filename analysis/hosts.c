/* hosts: see hosts.h. */
#include "hosts.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"
#include "../schema/topology.h"

#include <stdio.h>
#include <string.h>

/* The recorded hosts' names, for the message about a name that is not one. */
static int unknown_host(sqlite3 *db, const char *name)
{
	struct topology_hosts hosts = {0};
	struct strbuf names = STRBUF_INIT;
	int rc = topology_list(db, NULL, &hosts);
	for (size_t i = 0; rc == 0 && i < hosts.n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", hosts.hosts[i].name);
	if (rc == 0)
		rc = names.len ? err_usage("no host '%s' (recorded: %s)", name, strbuf_str(&names))
			       : err_usage("no host '%s': none is recorded (coreplan topology --from "
					   "FILE --host NAME)",
					   name);
	strbuf_release(&names);
	topology_hosts_release(&hosts);
	return rc;
}

/* The one host name the runs' topology_host fields give, or NULL. */
static int runs_host(sqlite3 *db, const struct selection *sel, char *name, size_t size)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	const char *first_tag = NULL;
	int rc = 0;
	name[0] = '\0';
	if (sel->n == 0)
		return 0;
	strbuf_adds(&sql, "SELECT ");
	rc = field_sql("topology_host", false, &sql, &binds, &nbinds);
	strbuf_adds(&sql, " FROM runs r WHERE r.run_id = ?");
	if (rc == 0 && sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot read the runs' hosts: %s", sqlite3_errmsg(db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, binds, nbinds);
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		const char *host;
		sqlite3_bind_int64(stmt, (int)nbinds + 1, sel->runs[i].run_id);
		host = sqlite3_step(stmt) == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0)
							: NULL;
		if (host && !name[0]) {
			snprintf(name, size, "%s", host);
			first_tag = sel->runs[i].tag;
		} else if (name[0] && (!host || strcmp(host, name))) {
			rc = err_usage("the runs ran on different hosts ('%s' on %s, '%s' on %s): "
				       "select one host's runs or pass --host",
				       name, first_tag, host ? host : "none recorded",
				       sel->runs[i].tag);
		}
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

int run_host_of(sqlite3 *db, const struct selection *sel, const char *name,
		struct run_host *out)
{
	struct topology t;
	int rc;
	memset(out, 0, sizeof(*out));
	if (name)
		snprintf(out->name, sizeof(out->name), "%s", name);
	else if ((rc = runs_host(db, sel, out->name, sizeof(out->name))) != 0)
		return rc;
	if (!out->name[0])
		return 0;
	memset(&t, 0, sizeof(t));
	rc = topology_load(db, out->name, &t);
	if (rc == 1) {
		rc = unknown_host(db, out->name);
	} else if (rc == 0) {
		out->known = true;
		out->logical_cpus = t.n;
		out->physical_cores = t.physical_cores;
		out->threads_per_core = t.threads_per_core;
		snprintf(out->source, sizeof(out->source), "%s", t.source);
	}
	topology_release(&t);
	return rc;
}

enum level_kind level_kind_on(const struct run_host *h, double level)
{
	if (!h || !h->known)
		return LEVEL_ASSUMED;
	if (level <= (double)h->physical_cores)
		return LEVEL_PHYSICAL;
	if (level <= (double)h->logical_cpus)
		return LEVEL_SMT;
	return LEVEL_BEYOND;
}

const char *level_kind_name(enum level_kind kind)
{
	static const char *const names[] = {"physical", "smt", "beyond", "assumed physical"};
	return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}
