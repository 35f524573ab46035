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

#include <stdlib.h>
#include <string.h>

/* First source wins, in the order fields.h documents. */
#define SOURCE_ORDER                                                                               \
	"CASE f.source WHEN 'results' THEN 0 WHEN 'join' THEN 1 WHEN 'generator' THEN 2 "          \
	"WHEN 'idle' THEN 3 WHEN 'acct' THEN 4 WHEN 'tag' THEN 5 WHEN 'set' THEN 6 ELSE 7 END"

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
	filter->corpus = NULL;
	filter->where = NULL;
	filter->nwhere = 0;
}

int run_filter_add_where(struct run_filter *filter, const char *text)
{
	struct field_where w = {NULL, NULL, 0};
	struct field_where *grown;
	const char *eq = strchr(text, '=');
	const char *p;
	size_t n = 1;
	if (!eq || eq == text || eq[1] == '\0')
		goto usage;
	for (p = eq + 1; *p; p++)
		n += *p == ',';
	w.field = strndup(text, (size_t)(eq - text));
	w.values = calloc(n, sizeof(*w.values));
	if (!w.field || !w.values)
		goto oom;
	for (p = eq + 1;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0) {
			free_where(&w);
			goto usage;
		}
		w.values[w.nvalues] = strndup(p, len);
		if (!w.values[w.nvalues])
			goto oom;
		w.nvalues++;
		if (!end)
			break;
		p = end + 1;
	}
	grown = realloc(filter->where, (filter->nwhere + 1) * sizeof(*grown));
	if (!grown)
		goto oom;
	filter->where = grown;
	filter->where[filter->nwhere++] = w;
	return 0;
usage:
	return err_usage("--where needs FIELD=VALUE[,VALUE...], got '%s'", text);
oom:
	free_where(&w);
	return err_set("out of memory");
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
	if (info) /* our own name, safe to paste */
		return oom_if(strbuf_addf(sql, "r.%s", info->name));
	for (size_t i = 0; run_columns[i]; i++)
		if (!strcmp(run_columns[i], name))
			return oom_if(strbuf_addf(sql, "r.%s", run_columns[i]));
	if (!strcmp(name, "corpus"))
		return oom_if(strbuf_adds(
			sql, "(SELECT name FROM corpora WHERE corpus_id = r.corpus_id)"));
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
 * One --where: the field's text is one of the values, or the field is a
 * number equal to one of the values that are numbers.
 */
static int where_sql(const struct field_where *w, struct strbuf *sql, char ***binds, size_t *nbinds)
{
	const struct field_info *info = field_find(w->field);
	size_t nnumeric = 0;
	double d;
	int rc;
	if (strbuf_adds(sql, "(CAST("))
		return err_set("out of memory");
	rc = field_sql(w->field, false, sql, binds, nbinds);
	if (rc)
		return rc;
	if (strbuf_adds(sql, " AS TEXT) IN ("))
		return err_set("out of memory");
	for (size_t i = 0; i < w->nvalues; i++) {
		if (strbuf_adds(sql, i ? ", ?" : "?"))
			return err_set("out of memory");
		rc = add_bind(binds, nbinds, where_value(info, w->values[i]));
		if (rc)
			return rc;
		if (num_parse_real(where_value(info, w->values[i]), &d) == 0)
			nnumeric++;
	}
	if (strbuf_adds(sql, ")"))
		return err_set("out of memory");
	/* A TEXT column holds text only (STRICT), so only the text test applies. */
	if (nnumeric > 0 && !(info && info->type == FIELD_TEXT)) {
		size_t done = 0;
		if (strbuf_adds(sql, " OR "))
			return err_set("out of memory");
		rc = field_sql(w->field, true, sql, binds, nbinds);
		if (rc)
			return rc;
		if (strbuf_adds(sql, " IN ("))
			return err_set("out of memory");
		for (size_t i = 0; i < w->nvalues; i++) {
			const char *v = where_value(info, w->values[i]);
			if (num_parse_real(v, &d) != 0)
				continue;
			if (strbuf_adds(sql, done++ ? ", CAST(? AS REAL)" : "CAST(? AS REAL)"))
				return err_set("out of memory");
			rc = add_bind(binds, nbinds, v);
			if (rc)
				return rc;
		}
		if (strbuf_adds(sql, ")"))
			return err_set("out of memory");
	}
	return oom_if(strbuf_adds(sql, ")"));
}

int run_filter_sql(const struct run_filter *filter, struct strbuf *sql, char ***binds,
		   size_t *nbinds)
{
	const char *excluded = "EXISTS (SELECT 1 FROM exclusions x WHERE x.run_id = r.run_id)";
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
		if (strbuf_addf(sql, " AND %s", excluded))
			return err_set("out of memory");
	} else if (!filter->include_excluded) {
		if (strbuf_addf(sql, " AND NOT %s", excluded))
			return err_set("out of memory");
	}
	for (size_t i = 0; i < filter->nwhere; i++) {
		if (strbuf_adds(sql, " AND "))
			return err_set("out of memory");
		rc = where_sql(&filter->where[i], sql, binds, nbinds);
		if (rc)
			return rc;
	}
	return oom_if(strbuf_adds(sql, ")"));
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
