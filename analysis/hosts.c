/* hosts: see hosts.h. */
#include "hosts.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"
#include "../schema/topology.h"
#include "smt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run that names a host: run_id and the name (resolved as field_sql reads it). */
struct named_run {
	int64_t run_id;
	char *host;
};

static int by_run_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = ((const struct named_run *)b)->run_id;
	return (x > y) - (x < y);
}

/* The value field_sql resolves for one run (when it has topology_host in several sources). */
static int resolved_host(sqlite3 *db, sqlite3_stmt **stmt, int64_t run_id, char **host)
{
	int rc = 0;
	*host = NULL;
	if (!*stmt) {
		struct strbuf sql = STRBUF_INIT;
		char **binds = NULL;
		size_t nbinds = 0;
		strbuf_adds(&sql, "SELECT ");
		rc = field_sql("topology_host", false, &sql, &binds, &nbinds);
		strbuf_adds(&sql, " FROM runs r WHERE r.run_id = ?");
		if (rc == 0 &&
		    sqlite3_prepare_v2(db, strbuf_str(&sql), -1, stmt, NULL) != SQLITE_OK)
			rc = err_set("cannot read the runs' hosts: %s", sqlite3_errmsg(db));
		if (rc == 0)
			rc = field_bind_all(*stmt, 1, binds, nbinds);
		field_binds_free(binds, nbinds);
		strbuf_release(&sql);
		if (rc)
			return rc;
	}
	sqlite3_bind_int64(*stmt, sqlite3_bind_parameter_count(*stmt), run_id);
	if (sqlite3_step(*stmt) == SQLITE_ROW && sqlite3_column_text(*stmt, 0) &&
	    !(*host = strdup((const char *)sqlite3_column_text(*stmt, 0))))
		rc = err_set("out of memory");
	sqlite3_reset(*stmt);
	return rc;
}

/*
 * Every run of the database that has a topology_host field, by run_id,
 * read in one pass over the field's rows (a subquery per selected run
 * would cost 40 ms on 10,000 runs); a run that has it in several sources
 * is resolved as field_sql reads it.
 */
static int named_runs(sqlite3 *db, struct named_run **out, size_t *n)
{
	sqlite3_stmt *stmt = NULL, *one = NULL;
	size_t alloc = 0;
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT run_id, value FROM run_fields WHERE name = 'topology_host'"
			       " ORDER BY run_id",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read the runs' hosts: %s", sqlite3_errmsg(db));
	while (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW) {
		int64_t run_id = sqlite3_column_int64(stmt, 0);
		const char *value = (const char *)sqlite3_column_text(stmt, 1);
		struct named_run *last = *n ? &(*out)[*n - 1] : NULL;
		if (last && last->run_id == run_id) {
			/* a second source: resolve the run as field_sql would */
			free(last->host);
			rc = resolved_host(db, &one, run_id, &last->host);
			if (rc == 0 && !last->host)
				rc = err_set("out of memory");
			continue;
		}
		if (GROW(*out, alloc, *n + 1) != 0) {
			rc = err_set("out of memory");
			break;
		}
		(*out)[*n].run_id = run_id;
		if (!((*out)[*n].host = strdup(value ? value : "")))
			rc = err_set("out of memory");
		else
			(*n)++;
	}
	sqlite3_finalize(stmt);
	sqlite3_finalize(one);
	return rc;
}

/*
 * The one host name the runs' topology_host fields give ("" when none
 * does). Two names, or a name on some runs and none on others, fill
 * out->mixed and are a usage error naming both.
 */
static int runs_host(sqlite3 *db, const struct selection *sel, struct run_host *out)
{
	struct named_run *named = NULL;
	size_t nnamed = 0;
	const char *first_tag = NULL, *bare_tag = NULL;
	int rc = 0;
	if (sel->n == 0)
		return 0;
	rc = named_runs(db, &named, &nnamed);
	for (size_t i = 0; rc == 0 && !out->mixed && nnamed && i < sel->n; i++) {
		const struct named_run *found =
			bsearch(&sel->runs[i].run_id, named, nnamed, sizeof(*named), by_run_id);
		const char *host = found && *found->host ? found->host : NULL;
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
	}
	if (rc == 0 && out->mixed) {
		rc = err_usage("%s: select one host's runs or pass --host", out->mixed_note);
		out->name[0] = '\0';
	}
	for (size_t i = 0; i < nnamed; i++)
		free(named[i].host);
	free(named);
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

/*
 * Corpora with pinned runs (a non-empty cpuset field) on the host, `prefer`
 * first, then by name: smt_factor needs pinned runs, so the others are not
 * measured at all.
 */
static int host_corpora(sqlite3 *db, const char *host, const char *prefer, char ***names, size_t *n)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	*names = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT DISTINCT c.name FROM run_fields g JOIN runs r USING (run_id)"
			       " JOIN corpora c USING (corpus_id) WHERE g.name = 'cpuset'"
			       " AND g.value <> '' AND EXISTS (SELECT 1 FROM run_fields f"
			       " WHERE f.run_id = g.run_id AND f.name = 'topology_host'"
			       " AND f.value = ?1) ORDER BY c.name = ?2 DESC, c.name",
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
