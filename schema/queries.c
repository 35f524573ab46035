/* queries: see queries.h. */
#include "queries.h"

#include "../common/err.h"
#include "../common/grow.h"

#include "db.h"
#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

int query_provenance(sqlite3 *db, const char *corpus, struct strbuf *names,
		     char hex[HASH_HEX_LEN + 1])
{
	struct hash_ctx *ctx = NULL;
	sqlite3_stmt *stmt = NULL;
	char first[HASH_HEX_LEN + 1] = "";
	size_t n = 0;
	int step, bad = 0, rc = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT name, content_hash FROM corpora WHERE ?1 IS NULL OR name = ?1"
			       " ORDER BY name",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read corpora: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, corpus, -1, SQLITE_TRANSIENT);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		const char *h = (const char *)sqlite3_column_text(stmt, 1);
		/* the digest starts only at a second corpus: one corpus's hash is its own */
		if (n == 1 && !(ctx = hash_new()))
			rc = err_set("out of memory");
		if (n == 1 && ctx) {
			hash_update(ctx, names->buf, strlen(names->buf) + 1);
			hash_update(ctx, first, strlen(first) + 1);
		}
		if (n == 0)
			snprintf(first, sizeof(first), "%s", h);
		if (ctx) {
			hash_update(ctx, name, strlen(name) + 1);
			hash_update(ctx, h, strlen(h) + 1);
		}
		bad |= strbuf_addf(names, "%s%s", names->len ? ", " : "", name);
		n++;
	}
	sqlite3_finalize(stmt);
	if (rc)
		return rc;
	if (step != SQLITE_DONE) {
		hash_free(ctx);
		return err_set("cannot read corpora: %s", sqlite3_errmsg(db));
	}
	if (ctx)
		hash_finish(ctx, hex);
	else if (n == 1)
		snprintf(hex, HASH_HEX_LEN + 1, "%s", first);
	else if (!(ctx = hash_new()))
		return err_set("out of memory");
	else
		hash_finish(ctx, hex); /* no corpus: the hash of nothing */
	return bad ? err_set("out of memory") : 0;
}

int query_find_run(sqlite3 *db, const char *tag, const char *corpus, const char *subcorpus,
		   int64_t *run_id, int *matches)
{
	sqlite3_stmt *stmt = NULL;
	int step;
	*matches = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT r.run_id FROM runs r JOIN corpora c USING (corpus_id)"
			       " WHERE r.tag = ?1 AND (?2 IS NULL OR c.name = ?2)"
			       " AND (?3 IS NULL OR r.subcorpus = ?3)",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look up the run: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 2, corpus, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 3, subcorpus, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		*run_id = sqlite3_column_int64(stmt, 0);
		(*matches)++;
	}
	sqlite3_finalize(stmt);
	if (step != SQLITE_DONE)
		return err_set("cannot look up the run: %s", sqlite3_errmsg(db));
	return 0;
}
/* ---- coreplan runs ---- */

/* Owned copy of a text column, NULL for NULL; *bad set when out of memory. */
static char *column_dup(sqlite3_stmt *stmt, int col, bool *bad)
{
	const unsigned char *t = sqlite3_column_text(stmt, col);
	char *copy;
	if (!t)
		return NULL;
	copy = strdup((const char *)t);
	if (!copy)
		*bad = true;
	return copy;
}

/* Prepare sql and bind binds[] from parameter 1. */
static int prepare_bound(sqlite3 *db, const char *sql, char **binds, size_t nbinds,
			 sqlite3_stmt **stmt)
{
	int rc = db_prepare(db, sql, stmt);
	if (rc == 0)
		rc = field_bind_all(*stmt, 1, binds, nbinds);
	return rc;
}

/* How many runs the filter would show but leaves out as excluded. */
static int count_excluded(sqlite3 *db, const struct run_filter *filter, int64_t *count)
{
	struct run_filter only = *filter;
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	int rc;
	only.only_excluded = true;
	*count = 0;
	rc = strbuf_adds(&sql, "SELECT count(*) FROM runs r WHERE ") ? err_set("out of memory") : 0;
	if (rc == 0)
		rc = run_filter_sql(&only, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = prepare_bound(db, sql.buf, binds, nbinds, &stmt);
	if (rc == 0) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			*count = sqlite3_column_int64(stmt, 0);
		else
			rc = db_error(db, "cannot count excluded runs");
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

static int text_list_add(struct text_list *l, const char *text);

/* Does the filter select some run? (stops at the first) */
static int any_run(sqlite3 *db, const struct run_filter *filter, bool *any)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	int rc = strbuf_adds(&sql, "SELECT EXISTS (SELECT 1 FROM runs r WHERE ")
			 ? err_set("out of memory")
			 : 0;
	*any = false;
	if (rc == 0)
		rc = run_filter_sql(filter, &sql, &binds, &nbinds);
	if (rc == 0 && strbuf_adds(&sql, ")"))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = prepare_bound(db, sql.buf, binds, nbinds, &stmt);
	if (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW)
		*any = sqlite3_column_int64(stmt, 0) != 0;
	else if (rc == 0)
		rc = db_error(db, "cannot look for runs");
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

/* "FIELD=V1,V2" as the user can give it again (values quoted when they need it). */
static int add_condition(struct strbuf *sb, const struct field_where *w)
{
	int bad = strbuf_addf(sb, "%s=", w->field);
	for (size_t v = 0; v < w->nvalues; v++)
		bad |= strbuf_adds(sb, v ? "," : "") | where_value_quote(w->values[v], sb);
	return bad;
}

int query_unmatched(sqlite3 *db, const struct run_filter *filter, struct strbuf *why)
{
	struct run_filter prefix = *filter; /* the same conditions, fewer of them */
	struct text_list values = {0};
	bool any = true, more = false;
	size_t i = 0;
	int rc = 0, bad = 0;
	for (; rc == 0 && any && i < filter->nwhere; i++) {
		prefix.nwhere = i + 1;
		if (!filter->where[i].missing)
			rc = any_run(db, &prefix, &any);
	}
	if (rc || any)
		return rc;
	prefix.nwhere = --i;
	rc = query_distinct(db, &prefix, filter->where[i].field, QUERY_UNMATCHED_VALUES, &values,
			    &more);
	bad |= strbuf_adds(why, i ? "no run that the conditions before it keep has " : "no run has ");
	bad |= add_condition(why, &filter->where[i]);
	if (rc == 0 && values.n == 0)
		bad |= strbuf_addf(why, "; none has a value of %s", filter->where[i].field);
	else if (rc == 0)
		bad |= strbuf_addf(why, "; %s takes ", filter->where[i].field);
	for (size_t k = 0; rc == 0 && k < values.n; k++)
		bad |= strbuf_adds(why, k ? ", " : "") | where_value_quote(values.items[k], why);
	if (rc == 0 && more)
		bad |= strbuf_adds(why, ", ...");
	if (rc == 0 && values.n && i)
		bad |= strbuf_adds(why, " there");
	text_list_release(&values);
	return rc ? rc : bad ? err_set("out of memory") : 0;
}

/* The listing's SELECT: identity, flags, the canonical fields, the extra ones, then the reasons. */
static int runs_sql(const struct run_filter *filter, const char *const *extra, size_t nextra,
		    struct strbuf *sql, char ***binds, size_t *nbinds)
{
	int bad =
		strbuf_adds(sql, "SELECT c.name, r.subcorpus, r.tag, r.listed,\n"
				 "  EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id)");
	for (size_t i = 0; i < field_canonical_count; i++)
		bad |= strbuf_addf(sql, ",\n  r.%s", field_canonical[i].name);
	for (size_t i = 0; i < nextra; i++) {
		bad |= strbuf_adds(sql, ",\n  ");
		if (!bad && field_sql(extra[i], false, sql, binds, nbinds))
			return ERR_DATA;
	}
	if (filter->only_excluded)
		bad |= strbuf_adds(sql, ",\n  (SELECT group_concat(x, '; ') FROM\n"
					"     (SELECT e.reason || ': ' || e.detail AS x FROM "
					"exclusions e\n"
					"       WHERE e.run_id = r.run_id ORDER BY e.reason))");
	bad |= strbuf_adds(sql,
			   "\nFROM runs r JOIN corpora c ON c.corpus_id = r.corpus_id\nWHERE ");
	if (bad)
		return err_set("out of memory");
	if (run_filter_sql(filter, sql, binds, nbinds))
		return ERR_DATA;
	if (strbuf_adds(sql, "\nORDER BY c.name, r.subcorpus, r.seq"))
		return err_set("out of memory");
	return 0;
}

#define RUN_LEAD 5 /* corpus, subcorpus, tag, listed, excluded */

/* The row's values point into the statement: valid until its next step. */
static void read_run(sqlite3_stmt *stmt, bool with_reasons, const char **extra, size_t nextra,
		     struct run_row *row)
{
	int first_extra = (int)(RUN_LEAD + field_canonical_count);
	row->corpus = (const char *)sqlite3_column_text(stmt, 0);
	row->subcorpus = (const char *)sqlite3_column_text(stmt, 1);
	row->tag = (const char *)sqlite3_column_text(stmt, 2);
	row->listed = sqlite3_column_int64(stmt, 3) != 0;
	row->excluded = sqlite3_column_int64(stmt, 4) != 0;
	for (size_t i = 0; i < field_canonical_count; i++) {
		struct query_value *v = &row->fields[i];
		int col = (int)(RUN_LEAD + i);
		memset(v, 0, sizeof(*v));
		v->type = sqlite3_column_type(stmt, col);
		/* a text field is text even when it reads as digits */
		if (v->type != SQLITE_NULL && field_canonical[i].type == FIELD_TEXT)
			v->type = SQLITE_TEXT;
		if (v->type == SQLITE_INTEGER)
			v->i = sqlite3_column_int64(stmt, col);
		else if (v->type == SQLITE_FLOAT)
			v->real = sqlite3_column_double(stmt, col);
		else if (v->type != SQLITE_NULL) {
			v->type = SQLITE_TEXT;
			v->text = (const char *)sqlite3_column_text(stmt, col);
		}
	}
	for (size_t i = 0; i < nextra; i++)
		extra[i] = (const char *)sqlite3_column_text(stmt, first_extra + (int)i);
	row->extra = extra;
	row->nextra = nextra;
	row->reasons = with_reasons ? (const char *)sqlite3_column_text(
					      stmt, first_extra + (int)nextra)
				    : NULL;
}

int query_runs(sqlite3 *db, const struct run_filter *filter, run_row_fn fn, void *arg,
	       int64_t *excluded_not_shown)
{
	return query_runs_with(db, filter, NULL, 0, fn, arg, excluded_not_shown);
}

int query_runs_with(sqlite3 *db, const struct run_filter *filter, const char *const *extra,
		    size_t nextra, run_row_fn fn, void *arg, int64_t *excluded_not_shown)
{
	struct strbuf sql = STRBUF_INIT;
	struct query_value *values = calloc(field_canonical_count, sizeof(*values));
	const char **extra_values = calloc(nextra + 1, sizeof(*extra_values));
	struct run_row row = {0};
	sqlite3_stmt *stmt = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	int rc = values && extra_values ? 0 : err_set("out of memory"), step = SQLITE_DONE;
	*excluded_not_shown = 0;
	row.fields = values;
	if (rc == 0)
		rc = runs_sql(filter, extra, nextra, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = prepare_bound(db, sql.buf, binds, nbinds, &stmt);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		read_run(stmt, filter->only_excluded, extra_values, nextra, &row);
		rc = fn(&row, arg);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_error(db, "cannot list runs");
	if (rc == 0 && !filter->only_excluded && !filter->include_excluded)
		rc = count_excluded(db, filter, excluded_not_shown);
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	free(values);
	free(extra_values);
	return rc;
}

/* The non-canonical results columns of a tool's runs (field_sources_list's rows). */
static int tool_field(const struct field_source_row *row, void *arg)
{
	struct text_list *names = arg;
	const char *metric = names->items[0];
	if (row->canonical || row->read == 0 || strcmp(row->source, "results") != 0 ||
	    !strcmp(row->field, metric))
		return 0;
	return text_list_add(names, row->field);
}

int query_tool_fields(sqlite3 *db, const struct run_filter *filter, struct text_list *out)
{
	const char *metric = NULL;
	int64_t nruns = 0;
	int rc = query_default_metric(db, filter, &metric);
	memset(out, 0, sizeof(*out));
	if (rc == 0 && metric)
		rc = text_list_add(out, metric);
	if (rc == 0 && metric)
		rc = field_sources_list(db, filter, tool_field, out, &nruns);
	if (rc)
		text_list_release(out);
	return rc;
}

/* ---- coreplan corpora ---- */

static const char corpora_sql[] =
	"SELECT c.name, c.layout,\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id),\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id AND r.listed = 1),\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id AND r.listed = 0),\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id\n"
	"     AND EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id)),\n"
	"  (SELECT coalesce(sum(t.rows), 0) FROM traces t JOIN runs r ON r.run_id = t.run_id\n"
	"     WHERE r.corpus_id = c.corpus_id),\n"
	"  (SELECT count(*) FROM files f WHERE f.corpus_id = c.corpus_id),\n"
	"  (SELECT count(*) FROM missing_files m JOIN runs r ON r.run_id = m.run_id\n"
	"     WHERE r.corpus_id = c.corpus_id),\n"
	"  c.imported_at, substr(c.content_hash, 1, 12), c.source_path\n"
	"FROM corpora c ORDER BY c.name";

int query_corpora(sqlite3 *db, struct corpus_listing *out)
{
	sqlite3_stmt *stmt = NULL;
	size_t alloc = 0;
	int step = SQLITE_DONE;
	int rc = db_prepare(db, corpora_sql, &stmt);
	memset(out, 0, sizeof(*out));
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct corpus_row *row;
		bool bad = false;
		if (GROW(out->rows, alloc, out->n + 1) != 0) {
			rc = err_set("out of memory");
			break;
		}
		row = &out->rows[out->n++];
		row->name = column_dup(stmt, 0, &bad);
		row->layout = column_dup(stmt, 1, &bad);
		row->runs = sqlite3_column_int64(stmt, 2);
		row->listed = sqlite3_column_int64(stmt, 3);
		row->unlisted = sqlite3_column_int64(stmt, 4);
		row->excluded = sqlite3_column_int64(stmt, 5);
		row->trace_rows = sqlite3_column_int64(stmt, 6);
		row->files = sqlite3_column_int64(stmt, 7);
		row->missing_files = sqlite3_column_int64(stmt, 8);
		row->imported_at = column_dup(stmt, 9, &bad);
		row->content_hash = column_dup(stmt, 10, &bad);
		row->source_path = column_dup(stmt, 11, &bad);
		if (bad)
			rc = err_set("out of memory");
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_error(db, "cannot list corpora");
	sqlite3_finalize(stmt);
	return rc;
}

void corpus_listing_release(struct corpus_listing *l)
{
	for (size_t i = 0; l->rows && i < l->n; i++) {
		free(l->rows[i].name);
		free(l->rows[i].layout);
		free(l->rows[i].imported_at);
		free(l->rows[i].content_hash);
		free(l->rows[i].source_path);
	}
	free(l->rows);
	memset(l, 0, sizeof(*l));
}

/* ---- the report ---- */

void text_list_release(struct text_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int text_list_add(struct text_list *l, const char *text)
{
	char **grown = realloc(l->items, (l->n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	l->items = grown;
	if (!(l->items[l->n] = strdup(text ? text : "")))
		return err_set("out of memory");
	l->n++;
	return 0;
}

/* Each row's columns joined by TAB into one item (NULL columns as ""). */
static int rows_joined(sqlite3 *db, const char *sql, const char *corpus, struct text_list *out)
{
	sqlite3_stmt *stmt = NULL;
	int rc = db_prepare(db, sql, &stmt), step = SQLITE_DONE;
	memset(out, 0, sizeof(*out));
	if (rc == 0)
		sqlite3_bind_text(stmt, 1, corpus, -1, SQLITE_TRANSIENT);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct strbuf line = STRBUF_INIT;
		for (int c = 0; c < sqlite3_column_count(stmt); c++) {
			const unsigned char *t = sqlite3_column_text(stmt, c);
			strbuf_addf(&line, "%s%s", c ? "\t" : "", t ? (const char *)t : "");
		}
		rc = text_list_add(out, strbuf_str(&line));
		strbuf_release(&line);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_error(db, "cannot read the corpus summary");
	sqlite3_finalize(stmt);
	if (rc)
		text_list_release(out);
	return rc;
}

int query_exclusions(sqlite3 *db, const char *corpus, struct text_list *out)
{
	return rows_joined(db,
			   "SELECT c.name, r.subcorpus, r.tag, e.reason, e.detail FROM exclusions e"
			   " JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)"
			   " WHERE ?1 IS NULL OR c.name = ?1"
			   " ORDER BY c.name, r.subcorpus, r.seq, e.reason",
			   corpus, out);
}

int query_missing_files(sqlite3 *db, const char *corpus, struct text_list *out)
{
	return rows_joined(db,
			   "SELECT r.tag, m.kind, m.expected_path FROM missing_files m"
			   " JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)"
			   " WHERE ?1 IS NULL OR c.name = ?1 ORDER BY c.name, r.subcorpus, r.seq, m.kind",
			   corpus, out);
}

/* SELECT DISTINCT of the fields' text values over the filter's runs, ordered. */
static int distinct_sql(const struct run_filter *filter, const char *const *fields, size_t n,
			bool na, struct strbuf *sql, char ***binds, size_t *nbinds)
{
	int rc = 0;
	if (strbuf_adds(sql, "SELECT DISTINCT "))
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		strbuf_addf(sql, "%s%s(CAST(", i ? ", " : "", na ? "coalesce" : "");
		rc = field_sql(fields[i], false, sql, binds, nbinds);
		strbuf_addf(sql, " AS TEXT)%s) AS v%zu", na ? ", 'NA'" : "", i);
	}
	if (rc == 0)
		strbuf_adds(sql, " FROM runs r WHERE ");
	if (rc == 0)
		rc = run_filter_sql(filter, sql, binds, nbinds);
	for (size_t i = 0; rc == 0 && !na && i < n; i++)
		strbuf_addf(sql, " AND v%zu IS NOT NULL", i);
	for (size_t i = 0; rc == 0 && i < n; i++)
		strbuf_addf(sql, "%sv%zu", i ? ", " : " ORDER BY ", i);
	return rc;
}

static int distinct_rows(sqlite3 *db, const struct run_filter *filter, const char *const *fields,
			 size_t n, bool na, size_t max_rows, struct text_list *out, size_t *rows,
			 bool *more)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	int rc, step = SQLITE_DONE;
	memset(out, 0, sizeof(*out));
	*rows = 0;
	if (more)
		*more = false;
	rc = distinct_sql(filter, fields, n, na, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = prepare_bound(db, strbuf_str(&sql), binds, nbinds, &stmt);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (*rows == max_rows) {
			if (more)
				*more = true;
			break;
		}
		for (size_t i = 0; rc == 0 && i < n; i++)
			rc = text_list_add(out, (const char *)sqlite3_column_text(stmt, (int)i));
		(*rows)++;
	}
	if (rc == 0 && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = db_error(db, "cannot read field values");
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	if (rc)
		text_list_release(out);
	return rc;
}

int query_distinct(sqlite3 *db, const struct run_filter *filter, const char *field, size_t max,
		   struct text_list *out, bool *more)
{
	size_t rows;
	const char *fields[1] = {field};
	return distinct_rows(db, filter, fields, 1, false, max, out, &rows, more);
}

int query_combinations(sqlite3 *db, const struct run_filter *filter, const char *const *fields,
		       size_t nfields, struct text_list *out, size_t *ncombos)
{
	return distinct_rows(db, filter, fields, nfields, true, SIZE_MAX, out, ncombos, NULL);
}

int query_subcorpus_families(sqlite3 *db, const char *corpus, struct text_list *out)
{
	struct text_list rows;
	int rc = rows_joined(db,
			     "SELECT r.subcorpus, min(f.value) FROM runs r JOIN corpora c USING"
			     " (corpus_id) JOIN run_fields f ON f.run_id = r.run_id AND f.name ="
			     " 'cpu_family' WHERE ?1 IS NULL OR c.name = ?1 GROUP BY r.subcorpus"
			     " HAVING count(DISTINCT f.value) = 1 ORDER BY r.subcorpus",
			     corpus, &rows);
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; rc == 0 && i < rows.n; i++) {
		char *tab = strchr(rows.items[i], '\t');
		if (!tab)
			continue;
		*tab = '\0';
		rc = text_list_add(out, rows.items[i]);
		if (rc == 0)
			rc = text_list_add(out, tab + 1);
	}
	text_list_release(&rows);
	if (rc)
		text_list_release(out);
	return rc;
}

int query_first_traced_run(sqlite3 *db, const struct run_filter *filter, char **tag)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	int rc, step;
	*tag = NULL;
	rc = strbuf_adds(&sql, "SELECT r.tag FROM runs r JOIN corpora c USING (corpus_id) WHERE ")
		     ? err_set("out of memory")
		     : 0;
	if (rc == 0)
		rc = run_filter_sql(filter, &sql, &binds, &nbinds);
	/* a tag no other run of its corpus (of any, without a corpus) has: the tag names it */
	if (rc == 0 && strbuf_addf(&sql, " AND r.listed = 1 AND EXISTS (SELECT 1 FROM traces t"
					 " WHERE t.run_id = r.run_id AND t.kind = 'sample')"
					 " AND (SELECT count(*) FROM runs r2 WHERE r2.tag = r.tag%s) = 1"
					 " ORDER BY c.name, r.subcorpus, r.seq LIMIT 1",
				   filter->corpus ? " AND r2.corpus_id = r.corpus_id" : ""))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = prepare_bound(db, strbuf_str(&sql), binds, nbinds, &stmt);
	if (rc == 0) {
		step = sqlite3_step(stmt);
		if (step == SQLITE_ROW && !(*tag = strdup((const char *)sqlite3_column_text(stmt, 0))))
			rc = err_set("out of memory");
		else if (step != SQLITE_ROW && step != SQLITE_DONE)
			rc = db_error(db, "cannot find a traced run");
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

int query_default_metric(sqlite3 *db, const struct run_filter *filter, const char **metric)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	bool mixed = false;
	int rc, step = SQLITE_DONE;
	*metric = NULL;
	/* per corpus, the first selected run answers: no pass over every run */
	rc = strbuf_adds(&sql, "SELECT c.layout FROM corpora c WHERE EXISTS (SELECT 1 FROM runs r"
			       " WHERE r.corpus_id = c.corpus_id AND ")
		     ? err_set("out of memory")
		     : 0;
	if (rc == 0)
		rc = run_filter_sql(filter, &sql, &binds, &nbinds);
	if (rc == 0 && strbuf_adds(&sql, ") ORDER BY c.name"))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = prepare_bound(db, strbuf_str(&sql), binds, nbinds, &stmt);
	while (rc == 0 && !mixed && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *m = tool_default_metric((const char *)sqlite3_column_text(stmt, 0));
		mixed = !m || (*metric && strcmp(*metric, m));
		*metric = m;
	}
	if (rc == 0 && !mixed && step != SQLITE_DONE)
		rc = db_error(db, "cannot read the corpora's layouts");
	if (rc || mixed)
		*metric = NULL;
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

/* ---- traces ---- */

int query_trace_find(sqlite3 *db, int64_t run_id, const char *kind, int64_t *trace_id,
		     struct trace_summary *out)
{
	sqlite3_stmt *stmt = NULL;
	int step;
	*trace_id = -1;
	out->rows = 0;
	out->identity = 0;
	/* the count the import stored: reading it costs no pass over the rows */
	if (sqlite3_prepare_v2(db,
			       "SELECT t.trace_id, t.rows, t.backsteps, t.columns, f.sha256,"
			       " c.content_hash, c.imported_at, c.options, c.manifest"
			       " FROM traces t JOIN files f ON f.file_id = t.file_id"
			       " JOIN corpora c ON c.corpus_id = f.corpus_id"
			       " WHERE t.run_id = ?1 AND t.kind = ?2",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read a trace: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, kind, -1, SQLITE_STATIC);
	step = sqlite3_step(stmt);
	if (step == SQLITE_ROW) {
		int64_t rows = sqlite3_column_int64(stmt, 1);
		uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a over every column */
		*trace_id = sqlite3_column_int64(stmt, 0);
		out->rows = rows > 0 ? (size_t)rows : 0;
		for (int col = 0; col < sqlite3_column_count(stmt); col++) {
			const unsigned char *text = sqlite3_column_text(stmt, col);
			int len = sqlite3_column_bytes(stmt, col);
			for (int i = 0; text && i <= len; i++) /* the NUL ends each column */
				h = (h ^ (i < len ? text[i] : 0)) * UINT64_C(1099511628211);
		}
		out->identity = h;
	}
	sqlite3_finalize(stmt);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return err_set("cannot read a trace: %s", sqlite3_errmsg(db));
	return 0;
}

/* The trace_samples columns in struct trace_row order after row_no, by TRACE_COL_* bit. */
static const char *const trace_columns[] = {"epoch", "conn", "cpu_total_j", "cpu_idle_j",
					    "app_j", "pg_j", "app_rss_kb",  "mem_avail_kb"};

static double column_or_nan(sqlite3_stmt *stmt, int col)
{
	return sqlite3_column_type(stmt, col) == SQLITE_NULL ? NAN
							     : sqlite3_column_double(stmt, col);
}

int query_trace_rows(sqlite3 *db, int64_t trace_id, int64_t from_row_no, unsigned int columns,
		     trace_row_fn fn, void *arg)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	struct trace_row row;
	double *slot[8];
	int step = SQLITE_DONE, rc = 0, ncols = 0;
	int bad = strbuf_adds(&sql, "SELECT row_no");
	slot[0] = &row.epoch;
	slot[1] = &row.conn;
	slot[2] = &row.cpu_total_j;
	slot[3] = &row.cpu_idle_j;
	slot[4] = &row.app_j;
	slot[5] = &row.pg_j;
	slot[6] = &row.app_rss_kb;
	slot[7] = &row.mem_avail_kb;
	for (size_t c = 0; c < 8; c++)
		if (columns & (1u << c))
			bad |= strbuf_addf(&sql, ", %s", trace_columns[c]);
	bad |= strbuf_adds(&sql, " FROM trace_samples WHERE trace_id = ?1 AND row_no >= ?2"
				 " ORDER BY row_no");
	if (bad) {
		rc = err_set("out of memory");
		goto done;
	}
	if (sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK) {
		rc = err_set("cannot read a trace: %s", sqlite3_errmsg(db));
		goto done;
	}
	sqlite3_bind_int64(stmt, 1, trace_id);
	sqlite3_bind_int64(stmt, 2, from_row_no);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (size_t c = 0; c < 8; c++)
			*slot[c] = NAN;
		row.row_no = sqlite3_column_int64(stmt, 0);
		ncols = 1;
		for (size_t c = 0; c < 8; c++)
			if (columns & (1u << c))
				*slot[c] = column_or_nan(stmt, ncols++);
		rc = fn(&row, arg);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot read a trace: %s", sqlite3_errmsg(db));
done:
	sqlite3_finalize(stmt);
	strbuf_release(&sql);
	return rc;
}
