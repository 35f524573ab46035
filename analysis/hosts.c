/* hosts: see hosts.h. */
#include "hosts.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"
#include "../schema/topology.h"
#include "smt.h"

#include <stdio.h>
#include <stdlib.h>
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

int run_host_levels(sqlite3 *db, const struct selection *sel, const char *name,
		    struct run_host *out)
{
	int rc = run_host_of(db, sel, name, out);
	if (rc && out->mixed && !name) {
		err_clear();
		out->known = false;
		rc = 0;
	}
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

/* Corpora with runs on the host, `prefer` first, then by name. */
static int host_corpora(sqlite3 *db, const char *host, const char *prefer, char ***names, size_t *n)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	*names = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT DISTINCT c.name FROM run_fields f JOIN runs r USING (run_id)"
			       " JOIN corpora c USING (corpus_id) WHERE f.name = 'topology_host'"
			       " AND f.value = ?1 ORDER BY c.name = ?2 DESC, c.name",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read the host's corpora: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, prefer ? prefer : "", -1, SQLITE_STATIC);
	while (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW) {
		char **grown = realloc(*names, (*n + 1) * sizeof(*grown));
		if (!grown || !(grown[*n] = strdup((const char *)sqlite3_column_text(stmt, 0)))) {
			if (grown)
				*names = grown;
			rc = err_set("out of memory");
			break;
		}
		*names = grown;
		(*n)++;
	}
	sqlite3_finalize(stmt);
	return rc;
}

int host_smt_factor(sqlite3 *db, const char *host, const char *prefer, struct host_smt *out)
{
	char **corpora = NULL;
	size_t ncorpora = 0;
	int rc = host_corpora(db, host, prefer, &corpora, &ncorpora), found = 1;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; rc == 0 && found && i < ncorpora; i++) {
		const char *value[1] = {host};
		struct run_filter filter = {0};
		struct smt_request req = {0};
		struct smt_result res;
		filter.corpus = corpora[i];
		req.filter = &filter;
		req.host = host;
		rc = run_filter_add(&filter, "topology_host", value, 1);
		if (rc == 0 && smt_measure(db, &req, &res) == 0) {
			for (size_t k = 0; k < res.figs.n; k++) {
				const struct smt_figure *f = &res.figs.figures[k];
				if (strcmp(f->name, "smt_factor") || !f->measured)
					continue;
				out->factor = f->value;
				out->lo = f->lo;
				out->hi = f->hi;
				out->num_n = f->num.s.n;
				out->den_n = f->den.s.n;
				snprintf(out->corpus, sizeof(out->corpus), "%s", corpora[i]);
				snprintf(out->num, sizeof(out->num), "%s", f->num.label);
				snprintf(out->den, sizeof(out->den), "%s", f->den.label);
				found = 0;
			}
			smt_result_release(&res);
		} else if (rc == 0) {
			err_clear(); /* this corpus's runs are not smt's to read: the next one */
		}
		filter.corpus = NULL; /* not the filter's to free */
		run_filter_release(&filter);
	}
	for (size_t i = 0; i < ncorpora; i++)
		free(corpora[i]);
	free(corpora);
	return rc ? rc : found;
}
