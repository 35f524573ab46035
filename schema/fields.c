/*
 * fields: see fields.h. field_find() and the canonical list live in
 * fields_list.c; this file turns field names and run filters into SQL.
 *
 * Every string that comes from a user or a corpus (field names that are
 * not canonical, --where values, corpus names) reaches SQL only as a bound
 * parameter. The only names pasted into SQL text are canonical field names,
 * which come from our own table.
 */
#include "fields.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/suggest.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

/*
 * The preferred source wins (field_prefs of the run's table), then the
 * first in the order fields.h documents (field_sources).
 */
/* (the run is found again through f.run_id: an ORDER BY term of a query on the
 * run_fields view cannot refer to the outer query's r) */
#define SOURCE_ORDER                                                                               \
	"CASE WHEN EXISTS (SELECT 1 FROM runs q JOIN field_prefs p ON p.corpus_id = q.corpus_id "  \
	"AND p.subcorpus = q.subcorpus WHERE q.run_id = f.run_id AND p.name = f.name "             \
	"AND p.source = f.source) THEN -1 "                                                        \
	"ELSE CASE f.source WHEN 'results' THEN 0 WHEN 'join' THEN 1 WHEN 'generator' THEN 2 "     \
	"WHEN 'idle' THEN 3 WHEN 'acct' THEN 4 WHEN 'tag' THEN 5 WHEN 'set' THEN 6 ELSE 7 END END"

const char *const field_sources[] = {"results", "join", "generator", "idle",
				     "acct",    "tag",  "set",       NULL};

bool field_source_known(const char *source)
{
	for (size_t i = 0; field_sources[i]; i++)
		if (!strcmp(field_sources[i], source))
			return true;
	return false;
}

const char *field_source_of(const char *name, size_t *len)
{
	const char *at = strrchr(name, '@');
	*len = at ? (size_t)(at - name) : strlen(name);
	return at ? at + 1 : NULL;
}

static void free_where(struct field_where *w)
{
	free(w->field);
	for (size_t i = 0; i < w->nvalues; i++)
		free(w->values[i]);
	free(w->values);
	memset(w, 0, sizeof(*w));
}

void run_filter_release(struct run_filter *filter)
{
	if (!filter)
		return;
	free(filter->corpus);
	for (size_t i = 0; i < filter->nwhere; i++)
		free_where(&filter->where[i]);
	free(filter->where);
	for (size_t i = 0; i < filter->npool; i++)
		free(filter->pool[i]);
	free(filter->pool);
	filter->corpus = NULL;
	filter->where = NULL;
	filter->nwhere = 0;
	filter->pool = NULL;
	filter->npool = 0;
}

static int add_pool(struct run_filter *filter, const char *name, size_t len)
{
	char **grown;
	for (size_t i = 0; i < filter->npool; i++)
		if (strlen(filter->pool[i]) == len && !strncmp(filter->pool[i], name, len))
			return 0;
	grown = realloc(filter->pool, (filter->npool + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	filter->pool = grown;
	if (!(grown[filter->npool] = strndup(name, len)))
		return err_set("out of memory");
	filter->npool++;
	return 0;
}

int run_filter_add_pool(struct run_filter *filter, const char *list)
{
	const char *p = list;
	int rc = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0)
			return err_usage("--pool needs field names separated by commas, got '%s'",
					 list);
		rc = add_pool(filter, p, len);
		if (rc || !comma)
			return rc;
		p = comma + 1;
	}
}

int run_filter_add(struct run_filter *filter, const char *field, const char *const *values,
		   size_t nvalues)
{
	struct field_where w = {NULL, NULL, 0};
	struct field_where *grown;
	if (!field || !*field || nvalues == 0)
		return err_usage("a run condition needs a field and at least one value");
	w.field = strdup(field);
	w.values = calloc(nvalues, sizeof(*w.values));
	if (!w.field || !w.values)
		goto oom;
	for (size_t i = 0; i < nvalues; i++) {
		w.values[i] = strdup(values[i] ? values[i] : "");
		if (!w.values[i])
			goto oom;
		w.nvalues++;
	}
	grown = realloc(filter->where, (filter->nwhere + 1) * sizeof(*grown));
	if (!grown)
		goto oom;
	filter->where = grown;
	filter->where[filter->nwhere++] = w;
	return 0;
oom:
	free_where(&w);
	return err_set("out of memory");
}

int run_filter_add_missing(struct run_filter *filter, const char *field)
{
	struct field_where *grown;
	char *name = strdup(field);
	if (!name)
		return err_set("out of memory");
	grown = realloc(filter->where, (filter->nwhere + 1) * sizeof(*grown));
	if (!grown) {
		free(name);
		return err_set("out of memory");
	}
	filter->where = grown;
	filter->where[filter->nwhere++] = (struct field_where){name, NULL, 0, true};
	return 0;
}

int run_filter_copy(struct run_filter *dst, const struct run_filter *src)
{
	int rc = 0;
	memset(dst, 0, sizeof(*dst));
	dst->include_excluded = src->include_excluded;
	dst->only_excluded = src->only_excluded;
	if (src->corpus && !(dst->corpus = strdup(src->corpus)))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < src->npool; i++)
		rc = add_pool(dst, src->pool[i], strlen(src->pool[i]));
	for (size_t i = 0; rc == 0 && i < src->nwhere; i++)
		rc = src->where[i].missing
			     ? run_filter_add_missing(dst, src->where[i].field)
			     : run_filter_add(dst, src->where[i].field,
					      (const char *const *)src->where[i].values,
					      src->where[i].nvalues);
	if (rc)
		run_filter_release(dst);
	return rc;
}

int run_filter_describe(const struct run_filter *filter, struct strbuf *sb)
{
	int bad = strbuf_adds(sb, filter->corpus ? "corpus " : "all corpora");
	if (filter->corpus)
		bad |= strbuf_adds(sb, filter->corpus);
	for (size_t i = 0; i < filter->nwhere; i++) {
		const struct field_where *w = &filter->where[i];
		bad |= strbuf_addf(sb, "%s%s=", i ? " " : ", ", w->field);
		if (w->missing)
			bad |= strbuf_adds(sb, "(none)");
		for (size_t v = 0; v < w->nvalues; v++) {
			bad |= strbuf_adds(sb, v ? "," : "");
			bad |= where_value_quote(w->values[v], sb);
		}
	}
	if (filter->only_excluded)
		bad |= strbuf_adds(sb, ", excluded runs only");
	else if (filter->include_excluded)
		bad |= strbuf_adds(sb, ", excluded runs kept");
	for (size_t i = 0; i < filter->npool; i++)
		bad |= strbuf_addf(sb, "%s%s", i ? "," : ", pooling ", filter->pool[i]);
	return bad ? err_set("out of memory") : 0;
}

/* ---- does a field exist? ---- */

/* The known field closest to `name` (common/suggest.h), or "" when none is close. */
static int closest_field(sqlite3 *db, const char *name, char best[128])
{
	static const char *const pseudo[] = {"corpus", "subcorpus", "tag", NULL};
	struct suggest near;
	sqlite3_stmt *stmt = NULL;
	suggest_init(&near, name);
	for (size_t i = 0; i < field_canonical_count; i++)
		suggest_offer(&near, field_canonical[i].name);
	for (size_t i = 0; pseudo[i]; i++)
		suggest_offer(&near, pseudo[i]);
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM run_fields", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return err_set("cannot look up fields: %s", sqlite3_errmsg(db));
	while (sqlite3_step(stmt) == SQLITE_ROW)
		suggest_offer(&near, (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	snprintf(best, 128, "%s", suggest_best(&near) ? suggest_best(&near) : "");
	return 0;
}

/* The sources that hold `field` in some run, "results, join", into sb. */
static int sources_of(sqlite3 *db, const char *field, struct strbuf *sb)
{
	sqlite3_stmt *stmt = NULL;
	int step;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT DISTINCT source FROM run_fields WHERE name = ?1 ORDER BY CASE "
		    "source WHEN 'results' THEN 0 WHEN 'join' THEN 1 WHEN 'generator' "
		    "THEN 2 WHEN 'idle' THEN 3 WHEN 'acct' THEN 4 WHEN 'tag' THEN 5 "
		    "WHEN 'set' THEN 6 ELSE 7 END",
		    -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look up the sources of '%s': %s", field, sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, field, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return step == SQLITE_DONE ? 0
				   : err_set("cannot look up the sources of '%s': %s", field,
					     sqlite3_errmsg(db));
}

/* FIELD@SOURCE: a known source that holds FIELD in some run. */
static int source_check(sqlite3 *db, const char *name, size_t len, const char *source)
{
	struct strbuf has = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	char *field = strndup(name, len);
	int rc = field ? 0 : err_set("out of memory"), step = SQLITE_DONE;
	if (rc == 0 && !*field)
		rc = err_usage("malformed field '%s': FIELD@SOURCE needs a field before '@'", name);
	if (rc == 0 && field_source_known(source)) {
		if (sqlite3_prepare_v2(db,
				       "SELECT 1 FROM run_fields WHERE name = ?1 AND source = ?2 "
				       "LIMIT 1",
				       -1, &stmt, NULL) != SQLITE_OK)
			rc = err_set("cannot look up field '%s': %s", name, sqlite3_errmsg(db));
		if (rc == 0) {
			sqlite3_bind_text(stmt, 1, field, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(stmt, 2, source, -1, SQLITE_TRANSIENT);
			step = sqlite3_step(stmt);
		}
		sqlite3_finalize(stmt);
		if (rc == 0 && step == SQLITE_ROW)
			goto done;
		if (rc == 0 && step != SQLITE_DONE)
			rc = err_set("cannot look up field '%s': %s", name, sqlite3_errmsg(db));
	}
	if (rc == 0)
		rc = sources_of(db, field, &has);
	if (rc == 0 && !has.len)
		strbuf_adds(&has, "none: no run has a column of that name");
	if (rc == 0 && field_source_known(source))
		rc = err_usage("no run has '%s' in source '%s' ('%s'): the sources of '%s' are %s",
			       field, source, name, field, strbuf_str(&has));
	else if (rc == 0)
		rc = err_usage(
			"unknown source '%s' in '%s': the sources of '%s' are %s (FIELD@SOURCE "
			"takes results, join, generator, idle, acct, tag or set)",
			source, name, field, strbuf_str(&has));
done:
	strbuf_release(&has);
	free(field);
	return rc;
}

int field_check(sqlite3 *db, const char *name)
{
	sqlite3_stmt *stmt = NULL;
	char best[128];
	size_t len;
	const char *source = field_source_of(name, &len);
	int step, rc;
	if (source)
		return source_check(db, name, len, source);
	if (field_find(name) || field_is_pseudo(name))
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM run_fields WHERE name = ?1 LIMIT 1", -1, &stmt,
			       NULL) != SQLITE_OK)
		return err_set("cannot look up field '%s': %s", name, sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
	step = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (step == SQLITE_ROW)
		return 0;
	if (step != SQLITE_DONE)
		return err_set("cannot look up field '%s': %s", name, sqlite3_errmsg(db));
	rc = closest_field(db, name, best);
	if (rc)
		return rc;
	if (best[0])
		return err_usage("no field '%s' (did you mean '%s'?): not a canonical field and no "
				 "imported run has a column of that name ('coreplan runs --help' "
				 "lists the canonical fields)",
				 name, best);
	return err_usage("no field '%s': not a canonical field and no imported run has a column of "
			 "that name ('coreplan runs --help' lists the canonical fields)",
			 name);
}

int corpus_check(sqlite3 *db, const char *name)
{
	sqlite3_stmt *stmt = NULL;
	struct strbuf names = STRBUF_INIT;
	bool found = false;
	int rc = 0;
	if (!name)
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM corpora ORDER BY name", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return err_set("cannot look up corpora: %s", sqlite3_errmsg(db));
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(stmt, 0);
		found |= !strcmp(n, name);
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", n);
	}
	sqlite3_finalize(stmt);
	if (!found)
		rc = names.len ? err_usage("no corpus named '%s' (imported: %s)", name,
					   strbuf_str(&names))
			       : err_usage("no corpus named '%s': the database has none yet "
					   "(coreplan import PATH)",
					   name);
	strbuf_release(&names);
	return rc;
}

int run_filter_check(sqlite3 *db, const struct run_filter *filter)
{
	int rc = corpus_check(db, filter->corpus);
	for (size_t i = 0; rc == 0 && i < filter->nwhere; i++)
		rc = field_check(db, filter->where[i].field);
	for (size_t i = 0; rc == 0 && i < filter->npool; i++)
		rc = field_check(db, filter->pool[i]);
	return rc;
}

void field_binds_free(char **binds, size_t nbinds)
{
	if (!binds)
		return;
	for (size_t i = 0; i < nbinds; i++)
		free(binds[i]);
	free(binds);
}

static int add_bind(char ***binds, size_t *nbinds, const char *value)
{
	char **grown = realloc(*binds, (*nbinds + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	*binds = grown;
	grown[*nbinds] = strdup(value);
	if (!grown[*nbinds])
		return err_set("out of memory");
	(*nbinds)++;
	return 0;
}

static int oom_if(int failed)
{
	return failed ? err_set("out of memory") : 0;
}

/* Columns of runs that are not canonical fields but identify a run. */
static const char *const run_columns[] = {"tag", "subcorpus", NULL};

bool field_is_pseudo(const char *name)
{
	if (!strcmp(name, "corpus"))
		return true;
	for (size_t i = 0; run_columns[i]; i++)
		if (!strcmp(run_columns[i], name))
			return true;
	return false;
}

int field_sql(const char *name, bool numeric, struct strbuf *sql, char ***binds, size_t *nbinds)
{
	const struct field_info *info = field_find(name);
	size_t len;
	const char *source = field_source_of(name, &len);
	if (source) {
		char *field = strndup(name, len);
		int rc = field ? 0 : err_set("out of memory");
		if (rc == 0 &&
		    strbuf_addf(sql,
				"(SELECT f.%s FROM run_fields f WHERE f.run_id = r.run_id "
				"AND f.name = ? AND f.source = ?)",
				numeric ? "num" : "value"))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = add_bind(binds, nbinds, field);
		if (rc == 0)
			rc = add_bind(binds, nbinds, source);
		free(field);
		return rc;
	}
	/* a text column read as a number: the number its text spells, else NULL (never 0) */
	if (info) /* our own name, safe to paste */
		return oom_if(strbuf_addf(
			sql, numeric && info->type == FIELD_TEXT ? "coreplan_number(r.%s)" : "r.%s",
			info->name));
	for (size_t i = 0; run_columns[i]; i++)
		if (!strcmp(run_columns[i], name))
			return oom_if(strbuf_addf(sql, numeric ? "coreplan_number(r.%s)" : "r.%s",
						  run_columns[i]));
	if (!strcmp(name, "corpus"))
		return oom_if(
			strbuf_addf(sql, numeric ? "coreplan_number(%s)" : "%s",
				    "(SELECT name FROM corpora WHERE corpus_id = r.corpus_id)"));
	if (strbuf_addf(sql,
			"(SELECT f.%s FROM run_fields f WHERE f.run_id = r.run_id AND f.name = ? "
			"ORDER BY " SOURCE_ORDER " LIMIT 1)",
			numeric ? "num" : "value"))
		return err_set("out of memory");
	return add_bind(binds, nbinds, name);
}

/*
 * The value as the comparison should see it: booleans accept true/false
 * and yes/no for a stored 0/1.
 */
static const char *where_value(const struct field_info *info, const char *value)
{
	bool b;
	if (info && info->type == FIELD_BOOL && num_parse_bool(value, &b) == 0)
		return b ? "1" : "0";
	return value;
}

/*
 * The value a condition tests: field_sql's, or per_set the value of a
 * set_attrs row `s` (a set-only field: field_set_only).
 */
static int value_sql(const char *field, bool per_set, bool numeric, struct strbuf *sql,
		     char ***binds, size_t *nbinds)
{
	if (per_set)
		return oom_if(strbuf_adds(sql, numeric ? "s.num" : "s.value"));
	return field_sql(field, numeric, sql, binds, nbinds);
}

/*
 * One side of a --where, each value bound: the field's text is one of the
 * values (CAST(f AS TEXT) IN (?, ?)), or, with numbers, the field's number
 * is one of the values that are numbers (f IN (CAST(? AS REAL), ...)). How
 * many values are numbers goes to *nnumeric. The field's value is
 * value_sql's (per_set: a set_attrs row's).
 */
static int field_in(const struct field_where *w, const struct field_info *info, bool per_set,
		    bool numbers, struct strbuf *sql, char ***binds, size_t *nbinds,
		    size_t *nnumeric)
{
	const char *item = numbers ? "CAST(? AS REAL)" : "?";
	size_t listed = 0;
	int rc = oom_if(strbuf_adds(sql, numbers ? "" : "CAST("));
	if (rc == 0)
		rc = value_sql(w->field, per_set, numbers, sql, binds, nbinds);
	if (rc == 0)
		rc = oom_if(strbuf_adds(sql, numbers ? " IN (" : " AS TEXT) IN ("));
	*nnumeric = 0;
	for (size_t i = 0; rc == 0 && i < w->nvalues; i++) {
		const char *v = where_value(info, w->values[i]);
		double d;
		bool number = num_parse_real(v, &d) == 0;
		*nnumeric += number;
		if (numbers && !number)
			continue;
		rc = oom_if(strbuf_addf(sql, "%s%s", listed++ ? ", " : "", item));
		if (rc == 0)
			rc = add_bind(binds, nbinds, v);
	}
	return rc ? rc : oom_if(strbuf_adds(sql, ")"));
}

/*
 * One --where: the field's text is one of the values, or the field is a
 * number equal to one of the values that are numbers.
 */
static int where_sql(const struct field_where *w, bool per_set, struct strbuf *sql, char ***binds,
		     size_t *nbinds)
{
	const struct field_info *info = field_find(w->field);
	size_t nnumeric = 0;
	int rc = oom_if(strbuf_adds(sql, "("));
	if (rc == 0 && w->missing) {
		rc = value_sql(w->field, per_set, false, sql, binds, nbinds);
		return rc ? rc : oom_if(strbuf_adds(sql, " IS NULL)"));
	}
	if (rc == 0)
		rc = field_in(w, info, per_set, false, sql, binds, nbinds, &nnumeric);
	/* A TEXT column holds text only (STRICT), so only the text test applies. */
	if (rc == 0 && nnumeric > 0 && !(info && info->type == FIELD_TEXT)) {
		rc = oom_if(strbuf_adds(sql, " OR "));
		if (rc == 0)
			rc = field_in(w, info, per_set, true, sql, binds, nbinds, &nnumeric);
	}
	return rc ? rc : oom_if(strbuf_adds(sql, ")"));
}

int run_filter_sql(const struct run_filter *filter, struct strbuf *sql, char ***binds,
		   size_t *nbinds)
{
	const char *not_excluded =
		" AND NOT EXISTS (SELECT 1 FROM exclusions x WHERE x.run_id = r.run_id)";
	int rc;
	if (strbuf_adds(sql, "(1"))
		return err_set("out of memory");
	if (filter->corpus) {
		if (strbuf_adds(
			    sql,
			    " AND r.corpus_id = (SELECT corpus_id FROM corpora WHERE name = ?)"))
			return err_set("out of memory");
		rc = add_bind(binds, nbinds, filter->corpus);
		if (rc)
			return rc;
	}
	if (filter->only_excluded) {
		/* the same runs as EXISTS, but the planner reads them from exclusions
		 * instead of testing every run (half of `memory` on 10,000 runs) */
		if (strbuf_adds(sql, " AND r.run_id IN (SELECT run_id FROM exclusions)"))
			return err_set("out of memory");
	} else if (!filter->include_excluded) {
		if (strbuf_adds(sql, not_excluded))
			return err_set("out of memory");
	}
	for (size_t i = 0; i < filter->nwhere; i++) {
		if (strbuf_adds(sql, " AND "))
			return err_set("out of memory");
		rc = where_sql(&filter->where[i], false, sql, binds, nbinds);
		if (rc)
			return rc;
	}
	return oom_if(strbuf_adds(sql, ")"));
}

/* ---- fields only attribute sets hold ---- */

/* The one integer `sql` gives for the bound name (and name_id), or -1 when it gives no row. */
static int64_t one_int(sqlite3 *db, const char *sql, const char *name, int64_t name_id, int *rc)
{
	sqlite3_stmt *stmt = NULL;
	int64_t got = -1;
	int step;
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		*rc = err_set("cannot look up field '%s': %s", name, sqlite3_errmsg(db));
		return -1;
	}
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(stmt, 2, name_id);
	step = sqlite3_step(stmt);
	if (step == SQLITE_ROW)
		got = sqlite3_column_int64(stmt, 0);
	else if (step != SQLITE_DONE)
		*rc = err_set("cannot look up field '%s': %s", name, sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	return got;
}

/*
 * The branches of the run_fields view (schema/migrations.c): a run's own
 * rows (attr_rows, run_values, idle_banners) and its set's (set_attrs).
 * One attr_names name with set rows and none of the others: every run's
 * value is its set's row (one per set: the primary key), and no source
 * order or preference can pick another.
 */
int field_set_only(sqlite3 *db, const char *name, int64_t *name_id)
{
	size_t len;
	int rc = 0;
	int64_t id, per_run, held;
	*name_id = 0;
	if (field_source_of(name, &len) || field_find(name) || field_is_pseudo(name))
		return 0;
	/* the id of the one name, else -1 (none, or the name in several sources) */
	id = one_int(db,
		     "SELECT CASE count(*) WHEN 1 THEN max(name_id) ELSE -1 END FROM attr_names"
		     " WHERE name = ?1",
		     name, 0, &rc);
	if (rc || id < 0)
		return rc;
	per_run = one_int(db,
			  "SELECT EXISTS (SELECT 1 FROM attr_rows WHERE name = ?1)"
			  " OR EXISTS (SELECT 1 FROM idle_banners WHERE key = ?1)"
			  " OR EXISTS (SELECT 1 FROM run_values WHERE name_id = ?2)",
			  name, id, &rc);
	held = rc || per_run != 0 ? 0
				  : one_int(db,
					    "SELECT EXISTS (SELECT 1 FROM set_attrs s JOIN runs r"
					    " ON r.attr_set = s.set_id WHERE s.name_id = ?2)",
					    name, id, &rc);
	if (rc == 0 && held == 1)
		*name_id = id;
	return rc;
}

int field_set_where_sql(const struct field_where *w, int64_t name_id, struct strbuf *sql,
			char ***binds, size_t *nbinds)
{
	int rc;
	if (w->missing)
		return err_set("internal: a missing-field condition has no set form");
	if (strbuf_addf(
		    sql,
		    "r.attr_set IN (SELECT s.set_id FROM set_attrs s WHERE s.name_id = %lld AND ",
		    (long long)name_id))
		return err_set("out of memory");
	rc = where_sql(w, true, sql, binds, nbinds);
	return rc ? rc : oom_if(strbuf_adds(sql, ")"));
}

int field_bind_all(sqlite3_stmt *stmt, int first, char **binds, size_t nbinds)
{
	for (size_t i = 0; i < nbinds; i++) {
		int rc = sqlite3_bind_text(stmt, first + (int)i, binds[i], -1, SQLITE_TRANSIENT);
		if (rc != SQLITE_OK)
			return err_set("cannot bind parameter %d: %s", first + (int)i,
				       sqlite3_errmsg(sqlite3_db_handle(stmt)));
	}
	return 0;
}

/* ---- the field-source listing ---- */

/* "'tput', 'gomaxprocs', ...": our own names, safe to paste. */
static int canonical_names(struct strbuf *sql)
{
	int bad = 0;
	for (size_t i = 0; i < field_canonical_count; i++)
		bad |= strbuf_addf(sql, "%s'%s'", i ? ", " : "", field_canonical[i].name);
	return bad;
}

static int listing_sql(const struct run_filter *filter, struct strbuf *sql, char ***binds,
		       size_t *nbinds)
{
	int bad = strbuf_adds(sql, "WITH sel AS (SELECT r.run_id FROM runs r WHERE ");
	int rc;
	if (bad)
		return err_set("out of memory");
	rc = run_filter_sql(filter, sql, binds, nbinds);
	if (rc)
		return rc;
	bad |= strbuf_adds(
		sql,
		"),\n o AS (SELECT o.field, o.source, o.name, count(*) AS n FROM sel"
		" JOIN field_origins o ON o.run_id = sel.run_id GROUP BY o.field, o.source, "
		"o.name),\n"
		" s AS (SELECT f.name, f.source, ROW_NUMBER() OVER (PARTITION BY f.run_id, f.name"
		" ORDER BY " SOURCE_ORDER ") AS rk, EXISTS (SELECT 1 FROM runs q JOIN field_prefs p"
		" ON p.corpus_id = q.corpus_id AND p.subcorpus = q.subcorpus WHERE q.run_id ="
		" f.run_id AND p.name = f.name AND p.source = f.source) AS pref"
		" FROM sel JOIN run_fields f ON f.run_id = sel.run_id),\n"
		" g AS (SELECT name, source, count(*) AS n, sum(rk = 1) AS rd, max(pref) AS pref"
		" FROM s GROUP BY name, source),\n"
		" rows AS (SELECT 1 AS canon, field, source, name, n, n AS rd, 0 AS pref FROM o"
		" UNION ALL SELECT name IN (");
	bad |= canonical_names(sql);
	bad |= strbuf_adds(sql, "), name, source, name, n, CASE WHEN name IN (");
	bad |= canonical_names(sql);
	bad |= strbuf_adds(sql, ") THEN 0 ELSE rd END, pref FROM g WHERE NOT (name IN (");
	bad |= canonical_names(sql);
	bad |= strbuf_adds(sql, ") AND EXISTS (SELECT 1 FROM o WHERE o.field = g.name AND"
				" o.source = g.source AND o.name = g.name)))\n"
				"SELECT canon, field, source, name, n, rd, pref FROM rows ORDER BY"
				" canon DESC, CASE field");
	for (size_t i = 0; i < field_canonical_count; i++)
		bad |= strbuf_addf(sql, " WHEN '%s' THEN %zu", field_canonical[i].name, i);
	bad |= strbuf_adds(sql,
			   " ELSE 0 END, field, rd DESC, CASE source WHEN 'results' THEN 0"
			   " WHEN 'join' THEN 1 WHEN 'generator' THEN 2 WHEN 'idle' THEN 3"
			   " WHEN 'acct' THEN 4 WHEN 'tag' THEN 5 WHEN 'set' THEN 6 ELSE 7 END,"
			   " name");
	return bad ? err_set("out of memory") : 0;
}

int field_sources_list(sqlite3 *db, const struct run_filter *filter, field_source_fn fn, void *arg,
		       int64_t *nruns)
{
	struct strbuf sql = STRBUF_INIT, count = STRBUF_INIT;
	char **binds = NULL, **cbinds = NULL;
	size_t nbinds = 0, ncbinds = 0;
	sqlite3_stmt *stmt = NULL;
	int rc = listing_sql(filter, &sql, &binds, &nbinds), step = SQLITE_DONE;
	*nruns = 0;
	if (rc == 0 && strbuf_adds(&count, "SELECT count(*) FROM runs r WHERE "))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = run_filter_sql(filter, &count, &cbinds, &ncbinds);
	if (rc == 0 && sqlite3_prepare_v2(db, strbuf_str(&count), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot count runs: %s", sqlite3_errmsg(db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, cbinds, ncbinds);
	if (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW)
		*nruns = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (rc == 0 && sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot list field sources: %s", sqlite3_errmsg(db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, binds, nbinds);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct field_source_row row = {
			.canonical = sqlite3_column_int(stmt, 0) != 0,
			.field = (const char *)sqlite3_column_text(stmt, 1),
			.source = (const char *)sqlite3_column_text(stmt, 2),
			.column = (const char *)sqlite3_column_text(stmt, 3),
			.runs = sqlite3_column_int64(stmt, 4),
			.read = sqlite3_column_int64(stmt, 5),
			.preferred = sqlite3_column_int(stmt, 6) != 0,
		};
		rc = fn(&row, arg);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot list field sources: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	field_binds_free(cbinds, ncbinds);
	strbuf_release(&sql);
	strbuf_release(&count);
	return rc;
}
