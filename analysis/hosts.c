/* hosts: see hosts.h. */
#include "hosts.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"
#include "../schema/topology.h"

#include <stdio.h>
#include <string.h>

/*
 * The one host name the runs' topology_host fields give ("" when none
 * does). Two names, or a name on some runs and none on others, fill
 * out->mixed and are a usage error naming both.
 */
static int runs_host(sqlite3 *db, const struct selection *sel, struct run_host *out)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	const char *first_tag = NULL, *bare_tag = NULL;
	int rc = 0;
	if (sel->n == 0)
		return 0;
	strbuf_adds(&sql, "SELECT ");
	rc = field_sql("topology_host", false, &sql, &binds, &nbinds);
	strbuf_adds(&sql, " FROM runs r WHERE r.run_id = ?");
	if (rc == 0 && sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot read the runs' hosts: %s", sqlite3_errmsg(db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, binds, nbinds);
	for (size_t i = 0; rc == 0 && !out->mixed && i < sel->n; i++) {
		const char *host;
		sqlite3_bind_int64(stmt, (int)nbinds + 1, sel->runs[i].run_id);
		host = sqlite3_step(stmt) == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0)
							: NULL;
		if (host && !out->name[0]) {
			snprintf(out->name, sizeof(out->name), "%s", host);
			first_tag = sel->runs[i].tag;
		} else if (host && strcmp(host, out->name)) {
			out->mixed = true;
			snprintf(out->mixed_note, sizeof(out->mixed_note),
				 "the runs ran on different hosts ('%s' on %s, '%s' on %s)",
				 out->name, first_tag, host, sel->runs[i].tag);
		} else if (!host && !bare_tag) {
			bare_tag = sel->runs[i].tag;
		}
		if (!out->mixed && out->name[0] && bare_tag) {
			out->mixed = true;
			snprintf(out->mixed_note, sizeof(out->mixed_note),
				 "some runs have no host ('%s' on %s, none recorded on %s)",
				 out->name, first_tag, bare_tag);
		}
		sqlite3_reset(stmt);
	}
	if (rc == 0 && out->mixed) {
		rc = err_usage("%s: select one host's runs or pass --host", out->mixed_note);
		out->name[0] = '\0';
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
	else if ((rc = runs_host(db, sel, out)) != 0)
		return rc;
	if (!out->name[0])
		return 0;
	memset(&t, 0, sizeof(t));
	rc = topology_load(db, out->name, &t);
	if (rc == 1) {
		rc = topology_require(db, out->name, name ? "--host" : "the runs' topology_host");
		out->name[0] = '\0';
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
