/* mapping: see mapping.h. */
#include "mapping.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Source names per canonical field. `table` names are looked up in the
 * results row and joined rows (and in tag parts and `set`), the others in
 * their own file. Order within a list is priority.
 */
struct alias {
	const char *field;
	const char *table;     /* comma-separated */
	const char *generator; /* generator-record key */
	const char *idle;      /* idle-banner key */
	const char *acct;      /* accounting-file key */
};

static const struct alias aliases[] = {
	{"tput", "tput,interactions_per_sec,ips,throughput", "interactions_per_sec", NULL, NULL},
	{"gomaxprocs", "gomaxprocs", NULL, "gomaxprocs", NULL},
	{"sessions", "sessions,level,sessions_requested,sessions_total", "sessions_requested", NULL,
	 NULL},
	{"established", "established,sessions_established", "sessions_established", NULL, NULL},
	{"block", "block", NULL, NULL, NULL},
	{"rep", "rep", NULL, NULL, NULL},
	{"target", "target", NULL, NULL, NULL},
	{"cfg", "cfg", NULL, "cfg", NULL},
	{"store", "store", NULL, "store", NULL},
	{"gogc", "gogc", NULL, "gogc", NULL},
	{"variant", "variant", NULL, NULL, NULL},
	{"p50_ms", "p50,p50_ms", "p50_ms", NULL, NULL},
	{"p95_ms", "p95,p95_ms", "p95_ms", NULL, NULL},
	{"p99_ms", "p99,p99_ms", "p99_ms", NULL, NULL},
	{"max_ms", "max_ms", "max_ms", NULL, NULL},
	{"err", "err,error_rate", "error_rate", NULL, NULL},
	{"patch_rate", "patch_rate", "patch_rate", NULL, NULL},
	{"valid", "valid", "valid", NULL, NULL},
	{"gen_cpu_pct", "gen_cpu_pct,gen_cpu", "generator_cpu_percent_of_machine", NULL, NULL},
	{"gen_saturated", "gen_sat,gen_saturated", "generator_possibly_saturated", NULL, NULL},
	{"app_cores", "app_cores", NULL, NULL, NULL},
	{"idle_rss_kb", "idle_rss_kb,idle_app_kb,idle_rss,rss_idle_kb", NULL, "app_rss_kb",
	 "idle_rss_kb"},
	{"load_rss_kb", "load_rss_kb,load_rss,rss_load_med_kb", NULL, NULL, "load_rss_kb"},
	{"interactions", "interactions,ints,interactions_counted", "interactions_counted", NULL,
	 NULL},
	{"cpu_s", "cpu_s,cpu_s_win,app_cpu_delta_s", NULL, NULL, "app_cpu_delta_s"},
	{"started_at", "started_at", "started_at", NULL, NULL},
	{"duration_s", "duration_s", "duration", NULL, NULL},
};

const char *mapping_update_sql(void)
{
	static char sql[4096];
	struct strbuf sb = STRBUF_INIT;
	if (sql[0])
		return sql;
	strbuf_adds(&sb, "UPDATE runs SET ");
	for (size_t i = 0; i < field_canonical_count; i++)
		strbuf_addf(&sb, "%s%s = ?%zu", i ? ", " : "", field_canonical[i].name, i + 1);
	strbuf_addf(&sb, " WHERE run_id = ?%zu", field_canonical_count + 1);
	snprintf(sql, sizeof(sql), "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return sql;
}

/* First attr from `source` whose name is one of the comma-separated names. */
static const struct attr *find_any(const struct attr_list *attrs, const char *source,
				   const char *names)
{
	char name[64];
	const char *p = names;
	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		const struct attr *a;
		if (n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			a = attr_list_find(attrs, source, name);
			if (a && !num_is_missing(a->value) && a->value[0])
				return a;
		}
		p = comma ? comma + 1 : NULL;
	}
	return NULL;
}

/* The old lookup, for a field the manifest overrides (`field.NAME = source:name`). */
static const struct attr *find_override(const struct attr_list *attrs,
					const struct manifest_table *table, const char *field)
{
	for (size_t i = 0; i < table->noverrides; i++)
		if (!strcmp(table->overrides[i].field, field))
			return find_any(attrs, table->overrides[i].source,
					table->overrides[i].name);
	return NULL;
}

static bool overridden(const struct manifest_table *table, const char *field)
{
	for (size_t i = 0; i < table->noverrides; i++)
		if (!strcmp(table->overrides[i].field, field))
			return true;
	return false;
}

/*
 * The alias names inverted: name -> (field, kind of list, position), so a
 * run's fields are found in one pass over its attributes instead of one
 * search per field, name and source (a tool file of 200,000 runs maps each).
 * The first value found wins in the order of find_field's lists: results
 * (by the name's position in the field's list), join, generator, idle,
 * acct, tag, set.
 */
enum alias_list { AL_TABLE, AL_GENERATOR, AL_IDLE, AL_ACCT };

struct alias_entry {
	const char *name; /* points into a copy of the list */
	size_t name_len;
	size_t field; /* index into field_canonical */
	enum alias_list list;
	int position;
	int next; /* the next entry of the same name, -1 */
};

#define ALIAS_SLOTS 512
#define ALIAS_MAX 256
static struct alias_entry alias_entries[ALIAS_MAX];
static int alias_slots[ALIAS_SLOTS]; /* entry + 1 */
static int nalias_entries;
static char alias_text[4096];

static size_t alias_hash(const char *s, size_t n)
{
	size_t h = 5381;
	for (size_t i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

static int *alias_slot(const char *name, size_t n)
{
	size_t i = alias_hash(name, n) & (ALIAS_SLOTS - 1);
	for (; alias_slots[i]; i = (i + 1) & (ALIAS_SLOTS - 1)) {
		const struct alias_entry *e = &alias_entries[alias_slots[i] - 1];
		if (e->name_len == n && !memcmp(e->name, name, n))
			break;
	}
	return &alias_slots[i];
}

static void alias_add_list(size_t field, const char *names, enum alias_list list, size_t *used)
{
	int position = 0;
	for (const char *p = names; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		struct alias_entry *e;
		int *slot;
		if (nalias_entries == ALIAS_MAX || *used + n + 1 > sizeof(alias_text))
			return; /* the table below is ours: sized to fit it */
		memcpy(alias_text + *used, p, n);
		alias_text[*used + n] = '\0';
		e = &alias_entries[nalias_entries];
		e->name = alias_text + *used;
		e->name_len = n;
		e->field = field;
		e->list = list;
		e->position = position++;
		slot = alias_slot(e->name, n);
		e->next = *slot ? *slot - 1 : -1;
		*slot = ++nalias_entries;
		*used += n + 1;
		p = comma ? comma + 1 : NULL;
	}
}

static void alias_index(void)
{
	size_t used = 0;
	if (nalias_entries)
		return;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		const struct field_info *f = field_find(aliases[i].field);
		size_t field = (size_t)(f - field_canonical);
		alias_add_list(field, aliases[i].table, AL_TABLE, &used);
		alias_add_list(field, aliases[i].generator, AL_GENERATOR, &used);
		alias_add_list(field, aliases[i].idle, AL_IDLE, &used);
		alias_add_list(field, aliases[i].acct, AL_ACCT, &used);
	}
}

/* The rank of a source for the kind of list it is read with (lower first), or -1. */
static int source_rank(const char *source, enum alias_list list)
{
	static const struct {
		const char *source;
		enum alias_list list;
	} order[] = {{"results", AL_TABLE}, {"join", AL_TABLE}, {"generator", AL_GENERATOR},
		     {"idle", AL_IDLE},     {"acct", AL_ACCT},  {"tag", AL_TABLE},
		     {"set", AL_TABLE}};
	for (int i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++)
		if (order[i].list == list && !strcmp(order[i].source, source))
			return i;
	return -1;
}

/* best[i]: the attribute field_canonical[i] is read from, or NULL. */
static void find_fields(const struct attr_list *attrs, const struct manifest_table *table,
			const struct attr **best)
{
	long rank[64];
	alias_index();
	for (size_t i = 0; i < field_canonical_count; i++) {
		best[i] = NULL;
		rank[i] = -1;
	}
	for (size_t k = 0; k < attrs->count; k++) {
		const struct attr *a = &attrs->items[k];
		int *slot;
		if (!a->value || !a->value[0] || num_is_missing(a->value))
			continue;
		slot = alias_slot(a->name, strlen(a->name));
		for (int e = *slot ? *slot - 1 : -1; e >= 0; e = alias_entries[e].next) {
			const struct alias_entry *x = &alias_entries[e];
			int r = source_rank(a->source, x->list);
			long key;
			if (r < 0)
				continue;
			key = (long)r * 1000 + x->position;
			if (rank[x->field] < 0 || key < rank[x->field]) {
				rank[x->field] = key;
				best[x->field] = a;
			}
		}
	}
	for (size_t i = 0; table->noverrides && i < field_canonical_count; i++)
		if (overridden(table, field_canonical[i].name))
			best[i] = find_override(attrs, table, field_canonical[i].name);
}

static const char *where_of(const struct attr *a, const char *manifest_origin,
			    mapping_path_fn path_of, void *arg)
{
	if (!strcmp(a->source, "set"))
		return manifest_origin;
	if (a->file_id > 0)
		return path_of(a->file_id, arg);
	return "(run tag)";
}

/* Fields that are fractions, and fields that can never be negative. */
static const char *const fraction_fields[] = {"err", "patch_rate", NULL};
static const char *const non_negative_fields[] = {
	"tput",         "sessions", "established", "p50_ms",      "p95_ms",
	"p99_ms",       "max_ms",   "app_cores",   "idle_rss_kb", "load_rss_kb",
	"interactions", "cpu_s",    "duration_s",  "gen_cpu_pct", NULL};

static bool listed(const char *const *names, const char *name)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static int range_check(const struct field_info *f, double value)
{
	if (listed(fraction_fields, f->name))
		return value >= 0.0 && value <= 1.0 ? 0 : -1;
	if (!strcmp(f->name, "gomaxprocs"))
		return value >= 1.0 ? 0 : -1;
	if (listed(non_negative_fields, f->name))
		return value >= 0.0 ? 0 : -1;
	return 0;
}

static const char *range_rule(const struct field_info *f)
{
	if (listed(fraction_fields, f->name))
		return "a fraction between 0 and 1";
	if (!strcmp(f->name, "gomaxprocs"))
		return "at least 1";
	return "zero or more";
}

static int bind_field(sqlite3_stmt *update, int index, const struct field_info *f,
		      const struct attr *a, const char *where)
{
	const char *text = a->value;
	int64_t i64;
	double real;
	bool flag;
	switch (f->type) {
	case FIELD_TEXT:
		return sqlite3_bind_text(update, index, text, -1, SQLITE_TRANSIENT);
	case FIELD_BOOL:
		if (!strcmp(text, "?"))
			return sqlite3_bind_null(update, index);
		if (num_parse_bool(text, &flag))
			return err_at(where, a->line, a->col, "'%s' for %s is not true or false",
				      text, a->name);
		return sqlite3_bind_int(update, index, flag);
	case FIELD_INT:
		if (num_parse_int(text, &i64))
			return err_at(where, a->line, a->col, "'%s' for %s is not an integer", text,
				      a->name);
		if (range_check(f, (double)i64))
			return err_at(where, a->line, a->col, "%s is %s, must be %s", a->name, text,
				      range_rule(f));
		return sqlite3_bind_int64(update, index, i64);
	case FIELD_REAL:
		if (!strcmp(f->name, "duration_s") && !strcmp(a->source, "generator")) {
			if (num_parse_go_duration(text, &real))
				return err_at(where, a->line, a->col,
					      "'%s' for %s is not a duration", text, a->name);
		} else if (num_parse_real(text, &real)) {
			return err_at(where, a->line, a->col, "'%s' for %s is not a finite number",
				      text, a->name);
		}
		if (range_check(f, real))
			return err_at(where, a->line, a->col, "%s is %s, must be %s", a->name, text,
				      range_rule(f));
		return sqlite3_bind_double(update, index, real);
	}
	return 0;
}

/*
 * A generator-record value that breaks its field's range rule (sessions
 * -5, an error rate of 1.5): the record is the generator's own report of
 * the run, so the run is excluded (mapping_impossible_detail) instead of
 * the import failing, and the value is not taken as the canonical field.
 */
static bool impossible_generator_value(const struct field_info *f, const struct attr *a)
{
	int64_t i64;
	double real;
	if (strcmp(a->source, "generator") || !a->value)
		return false;
	if (f->type == FIELD_INT && num_parse_int(a->value, &i64) == 0)
		return range_check(f, (double)i64) != 0;
	if (f->type == FIELD_REAL && strcmp(f->name, "duration_s") &&
	    num_parse_real(a->value, &real) == 0)
		return range_check(f, real) != 0;
	return false;
}

/*
 * The rule an impossible generator value breaks, or NULL: the first
 * alias naming the key whose field has a range rule (duration_s aside)
 * that the value breaks (range_check, as binding the field checks it).
 */
static const char *impossible_rule(const char *key, double num)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		const struct field_info *f;
		if (!aliases[i].generator || strcmp(aliases[i].generator, key))
			continue;
		f = field_find(aliases[i].field);
		/* -1 passes: the field has no range rule */
		if (!f || !range_check(f, -1.0) || !strcmp(f->name, "duration_s"))
			continue;
		if (range_check(f, num))
			return range_rule(f);
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct attr *const *)a)->name, (*(const struct attr *const *)b)->name);
}

int mapping_impossible_detail(const struct attr_list *attrs, char **detail)
{
	const struct attr **hits = calloc(attrs->count ? attrs->count : 1, sizeof(*hits));
	struct strbuf text = STRBUF_INIT;
	size_t n = 0;
	int bad = 0;
	*detail = NULL;
	if (!hits)
		return err_set("out of memory");
	for (size_t i = 0; i < attrs->count; i++) {
		const struct attr *a = &attrs->items[i];
		double num;
		if (!strcmp(a->source, "generator") && a->value &&
		    num_parse_real(a->value, &num) == 0 && impossible_rule(a->name, num))
			hits[n++] = a;
	}
	/* the order the attributes are stored in: by name (attr_rows' key) */
	qsort(hits, n, sizeof(*hits), by_name);
	for (size_t i = 0; i < n; i++) {
		double num;
		num_parse_real(hits[i]->value, &num);
		bad |= strbuf_addf(&text, "%s%s %s (must be %s)",
				   i ? ", " : "the generator record says ", hits[i]->name,
				   hits[i]->value, impossible_rule(hits[i]->name, num));
	}
	free(hits);
	if (bad) {
		strbuf_release(&text);
		return err_set("out of memory");
	}
	*detail = n ? strbuf_detach(&text) : NULL;
	strbuf_release(&text);
	return 0;
}

const char *mapping_origin_sql(void)
{
	return "INSERT INTO origin_rows (run_id, field, source, name) VALUES (?1, ?2, ?3, ?4)";
}

static int store_origin(sqlite3 *db, sqlite3_stmt *origin, int64_t run_id, const char *field,
			const struct attr *a)
{
	int rc = 0;
	sqlite3_bind_int64(origin, 1, run_id);
	sqlite3_bind_text(origin, 2, field, -1, SQLITE_STATIC);
	sqlite3_bind_text(origin, 3, a->source, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(origin, 4, a->name, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(origin) != SQLITE_DONE)
		rc = err_set("cannot record where %s of run %lld came from: %s", field,
			     (long long)run_id, sqlite3_errmsg(db));
	sqlite3_reset(origin);
	return rc;
}

int mapping_bind(sqlite3 *db, sqlite3_stmt *stmt, int first, const struct attr_list *attrs,
		 const struct manifest_table *table, const char *manifest_origin,
		 mapping_path_fn path_of, void *path_arg, mapping_origin_fn origin,
		 void *origin_arg)
{
	const struct attr *best[64];
	int rc = 0;
	find_fields(attrs, table, best);
	for (size_t i = 0; i < field_canonical_count && rc == 0; i++) {
		const struct field_info *f = &field_canonical[i];
		const struct attr *a = best[i];
		if (!a || impossible_generator_value(f, a))
			continue; /* NULL: the caller cleared the bindings */
		rc = bind_field(stmt, first + (int)i, f, a,
				where_of(a, manifest_origin, path_of, path_arg));
		if (rc > 0) /* an SQLite code from a bind call */
			rc = err_set("cannot bind %s: %s", f->name, sqlite3_errmsg(db));
		if (rc == 0 && origin)
			rc = origin(f->name, a, origin_arg);
	}
	return rc;
}

struct origin_rows {
	sqlite3 *db;
	sqlite3_stmt *stmt;
	int64_t run_id;
};

static int origin_row(const char *field, const struct attr *a, void *arg)
{
	struct origin_rows *o = arg;
	return store_origin(o->db, o->stmt, o->run_id, field, a);
}

int mapping_apply(sqlite3 *db, sqlite3_stmt *update, sqlite3_stmt *origin, int64_t run_id,
		  const struct attr_list *attrs, const struct manifest_table *table,
		  const char *manifest_origin, mapping_path_fn path_of, void *path_arg)
{
	struct origin_rows o = {db, origin, run_id};
	int rc;
	sqlite3_clear_bindings(update);
	rc = mapping_bind(db, update, 1, attrs, table, manifest_origin, path_of, path_arg,
			  origin_row, &o);
	if (rc)
		return rc;
	sqlite3_bind_int64(update, (int)field_canonical_count + 1, run_id);
	if (sqlite3_step(update) != SQLITE_DONE) {
		rc = err_set("cannot store the fields of run %lld: %s", (long long)run_id,
			     sqlite3_errmsg(db));
	}
	sqlite3_reset(update);
	return rc;
}

int mapping_store_prefs(sqlite3 *db, int64_t corpus_id, const char *subcorpus,
			const struct manifest_table *table)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	if (table->nprefer == 0)
		return 0;
	if (sqlite3_prepare_v2(
		    db,
		    "INSERT OR REPLACE INTO field_prefs (corpus_id, subcorpus, name, source)"
		    " VALUES (?1, ?2, ?3, ?4)",
		    -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot store field preferences: %s", sqlite3_errmsg(db));
	for (size_t i = 0; rc == 0 && i < table->nprefer; i++) {
		sqlite3_bind_int64(stmt, 1, corpus_id);
		sqlite3_bind_text(stmt, 2, subcorpus, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, table->prefer[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, table->prefer[i].value, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			rc = err_set("cannot store the preference for '%s': %s",
				     table->prefer[i].key, sqlite3_errmsg(db));
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	return rc;
}
