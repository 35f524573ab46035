/*
 * corpus_tool: one [table] with `format = NAME`: the tool's file read
 * through its converter (importers/tools.h) and stored a row at a time,
 * in memory that does not grow with the file (corpus_int.h).
 *
 * Each row is one run: its tag (the table's template, {row} the 1-based
 * row and any cell by name), its canonical fields (importers/mapping.h,
 * bound straight into the INSERT of the run) and its cells, stored
 * compactly (schema/README.md, "Tool runs"): the shared cells (with the
 * manifest's `set` constants and the host tie) as an attribute set that
 * the runs sharing them all point to, found again through a bounded cache
 * keyed by their content (a set not in the cache is simply made again:
 * the cache saves space, it never changes what a run holds); the run's
 * own cells in run_values, under interned names, VALUES_BATCH rows per
 * INSERT across runs (each after its run, all before the table's import
 * ends: the import's one transaction keeps it whole). Where a canonical field
 * came from is recorded once per set when the set holds it, else per run.
 * The file is the one hashed (corpus_files.c: im_open_hashed, verified at
 * its end); the converter's error names its line and column.
 */
#include "corpus_int.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/db.h"
#include "../schema/fields.h"
#include "mapping.h"
#include "tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The caches are open-addressing tables kept at most half full; when one
 * is full, or its keys pass CACHE_BYTES, it is emptied and fills again
 * (memory stays bounded; what a run holds never depends on it).
 */
#define NAME_CACHE 65536 /* slots for interned (source, name) pairs: a power of two */
#define SET_CACHE 65536  /* slots for attribute sets kept for reuse: a power of two */
#define CACHE_BYTES ((size_t)16 << 20)
#define PROGRESS_EVERY 1024
/*
 * The runs' own values are stored by one INSERT of up to this many rows,
 * across runs (a statement per run cost more than its rows): kept until
 * then with their text copied, and stored before the table's import ends.
 */
#define VALUES_BATCH 32

struct name_slot {
	char *key; /* source, NUL, name */
	size_t len;
	int64_t id;
};

struct set_slot {
	uint64_t hash;
	char *key;
	size_t len;
	int64_t id;
	uint64_t origins; /* canonical fields whose origin is recorded for the set */
};

struct pending_value {
	int64_t run_id, name_id;
	long col;
	bool is_int; /* the value as an integer (i), else text (offset in pending_text) */
	int64_t i;
	size_t text;
	bool has_num; /* text with a number */
	double num;
};

struct pending_origin {
	const char *field;
	const struct attr *a;
};

struct store {
	struct importer *im;
	const struct manifest_table *spec;
	const char *subcorpus;
	struct corpus_file *f;
	char *host; /* the table's topology host, or NULL */
	int64_t rows;
	struct name_slot *names;
	size_t nnames, name_bytes;
	struct set_slot *sets;
	size_t nsets, set_bytes;
	int64_t *set_ids; /* every set this table made, for the file's constants */
	size_t nset_ids, set_ids_cap;
	struct strbuf key;
	struct attr_list attrs; /* the run's: cells borrowed, the rest owned */
	size_t borrowed;
	const struct tool_row *row; /* during store_row */
	char row_text[24];
	struct pending_origin origins[64];
	size_t norigins;
	sqlite3_stmt *insert_run, *insert_set, *insert_set_attr, *insert_origin, *insert_set_origin,
		*find_name, *insert_name, *constant;
	sqlite3_stmt *insert_values[VALUES_BATCH];
	struct pending_value pending[VALUES_BATCH];
	size_t npending;
	struct strbuf pending_text;
};

static const char *const statements[] = {
	NULL, /* insert_run: built from the canonical fields */
	"INSERT INTO attr_sets (corpus_id) VALUES (?1)",
	"INSERT INTO set_attrs (set_id, name_id, file_id, line, col, value, num)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"INSERT INTO origin_rows (run_id, field, source, name) VALUES (?1, ?2, ?3, ?4)",
	"INSERT OR IGNORE INTO set_origins (set_id, field, source, name) VALUES (?1, ?2, ?3, ?4)",
	"SELECT name_id FROM attr_names WHERE source = ?1 AND name = ?2",
	"INSERT INTO attr_names (source, name) VALUES (?1, ?2)",
	"INSERT OR REPLACE INTO set_attrs (set_id, name_id, file_id, line, col, value, num)"
	" VALUES (?1, ?2, ?3, 0, NULL, ?4, ?5)",
};

static sqlite3_stmt **statement_slot(struct store *s, size_t i)
{
	sqlite3_stmt **slots[] = {&s->insert_run,    &s->insert_set,        &s->insert_set_attr,
				  &s->insert_origin, &s->insert_set_origin, &s->find_name,
				  &s->insert_name,   &s->constant};
	return slots[i];
}

#define NSTATEMENTS (sizeof(statements) / sizeof(statements[0]))

static int prepare(struct store *s)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;
	strbuf_adds(&sql,
		    "INSERT INTO runs (corpus_id, subcorpus, tag, seq, listed, results_file_id,"
		    " results_line, attr_set");
	for (size_t i = 0; i < field_canonical_count; i++)
		strbuf_addf(&sql, ", %s", field_canonical[i].name);
	strbuf_adds(&sql, ") VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7");
	for (size_t i = 0; i < field_canonical_count; i++)
		strbuf_addf(&sql, ", ?%zu", i + 8);
	strbuf_adds(&sql, ")");
	rc = sql.buf ? db_prepare(s->im->db, strbuf_str(&sql), &s->insert_run)
		     : err_set("out of memory");
	strbuf_release(&sql);
	for (size_t i = 1; rc == 0 && i < NSTATEMENTS; i++)
		rc = db_prepare(s->im->db, statements[i], statement_slot(s, i));
	return rc;
}

/* FNV-1a over 8-byte words, then the last bytes (a set's key is hashed for every run). */
static uint64_t fnv(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, sizeof(w));
		h = (h ^ w) * 1099511628211ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return h;
}

static int step(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s->im->db, what);
	sqlite3_reset(st);
	return rc;
}

/* The slot of key in the name cache: its own, or the free one where it would go. */
static struct name_slot *name_slot(struct store *s, const char *key, size_t len)
{
	size_t i = fnv(key, len) & (NAME_CACHE - 1);
	for (; s->names[i].key; i = (i + 1) & (NAME_CACHE - 1))
		if (s->names[i].len == len && !memcmp(s->names[i].key, key, len))
			break;
	return &s->names[i];
}

static void names_clear(struct store *s)
{
	for (size_t i = 0; i < NAME_CACHE; i++)
		free(s->names[i].key);
	memset(s->names, 0, NAME_CACHE * sizeof(*s->names));
	s->nnames = s->name_bytes = 0;
}

/* The id of (source, name) in attr_names, made when new. */
static int name_id(struct store *s, const char *source, const char *name, int64_t *id)
{
	size_t ls = strlen(source), ln = strlen(name), len = ls + 1 + ln;
	char small[256], *key = len < sizeof(small) ? small : malloc(len + 1);
	struct name_slot *slot;
	int rc = 0;
	if (!key)
		return err_set("out of memory");
	memcpy(key, source, ls + 1);
	memcpy(key + ls + 1, name, ln + 1);
	slot = name_slot(s, key, len);
	if (slot->key) {
		*id = slot->id;
		if (key != small)
			free(key);
		return 0;
	}
	sqlite3_bind_text(s->find_name, 1, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(s->find_name, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(s->find_name) == SQLITE_ROW) {
		*id = sqlite3_column_int64(s->find_name, 0);
	} else {
		sqlite3_bind_text(s->insert_name, 1, source, -1, SQLITE_STATIC);
		sqlite3_bind_text(s->insert_name, 2, name, -1, SQLITE_STATIC);
		rc = step(s, s->insert_name, "cannot store a field name");
		*id = sqlite3_last_insert_rowid(s->im->db);
	}
	sqlite3_reset(s->find_name);
	if (rc == 0 && (2 * (s->nnames + 1) > NAME_CACHE || s->name_bytes + len > CACHE_BYTES)) {
		names_clear(s);
		slot = name_slot(s, key, len);
	}
	if (rc == 0) {
		slot->key = key == small ? malloc(len + 1) : key;
		if (!slot->key)
			rc = err_set("out of memory");
		else {
			if (key == small)
				memcpy(slot->key, small, len + 1);
			slot->len = len;
			slot->id = *id;
			s->nnames++;
			s->name_bytes += len;
			return 0;
		}
	}
	if (key != small)
		free(key);
	return rc;
}

/* Is text the canonical decimal form of a 64-bit integer ("0", "-12"; not "012", "+1", "-0")? */
static bool canonical_int(const char *text, int64_t *out)
{
	const char *p = text + (*text == '-');
	if (!*p || (*p == '0' && (p[1] || p != text)))
		return false;
	for (const char *q = p; *q; q++)
		if (*q < '0' || *q > '9')
			return false;
	return num_parse_int(text, out) == 0;
}

/*
 * A value as stored: a whole number in its own canonical text as an
 * integer, else the text and its number (the converter's, when it parsed
 * it already).
 */
static int pend_value(struct store *s, struct pending_value *v, const struct tool_cell *c)
{
	double d;
	v->is_int = canonical_int(c->value, &v->i);
	v->has_num = false;
	if (v->is_int)
		return 0;
	v->text = s->pending_text.len;
	if (strbuf_add(&s->pending_text, c->value, strlen(c->value) + 1))
		return err_set("out of memory");
	if (c->has_num) {
		v->has_num = true;
		v->num = c->num == 0.0 ? 0.0 : c->num;
	} else if (num_parse_real(c->value, &d) == 0) {
		v->has_num = true;
		v->num = d;
	}
	return 0;
}

static void bind_text_real(sqlite3_stmt *st, int value, int num, const char *text)
{
	double d;
	sqlite3_bind_text(st, value, text, -1, SQLITE_STATIC);
	if (text && num_parse_real(text, &d) == 0)
		sqlite3_bind_double(st, num, d);
	else
		sqlite3_bind_null(st, num);
}

/* ---- the run's attributes ---- */

/* Is attribute k part of the run's set (a shared cell, a constant, the host tie)? */
static bool in_set(const struct store *s, size_t k)
{
	return k >= s->borrowed || s->row->cells[k].shared;
}

static bool attr_list_find_name(const struct attr_list *attrs, const char *name)
{
	for (size_t k = 0; k < attrs->count; k++)
		if (!strcmp(attrs->items[k].name, name))
			return true;
	return false;
}

static void attrs_reset(struct store *s)
{
	for (size_t k = s->borrowed; k < s->attrs.count; k++) {
		free(s->attrs.items[k].source);
		free(s->attrs.items[k].name);
		free(s->attrs.items[k].value);
	}
	s->attrs.count = 0;
	s->borrowed = 0;
}

static const char *cell_var(const char *name, void *arg)
{
	struct store *s = arg;
	if (!strcmp(name, "row"))
		return s->row_text;
	for (size_t i = 0; i < s->row->ncells; i++)
		if (!strcmp(s->row->cells[i].name, name))
			return s->row->cells[i].value;
	return NULL;
}

/* The cells (borrowed), the manifest's constants and the host tie (owned). */
static int run_attrs(struct store *s, const struct tool_row *row, const char *tag)
{
	int rc = 0;
	if (s->attrs.alloc < row->ncells) {
		struct attr *grown = realloc(s->attrs.items, (row->ncells + 16) * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		s->attrs.items = grown;
		s->attrs.alloc = row->ncells + 16;
	}
	for (size_t i = 0; i < row->ncells; i++) {
		const struct tool_cell *c = &row->cells[i];
		struct attr *a = &s->attrs.items[i];
		/* borrowed for the row: never freed through the list (attrs_reset) */
		a->source = (char *)(uintptr_t) "results";
		a->name = (char *)(uintptr_t)c->name;
		a->value = (char *)(uintptr_t)c->value;
		a->file_id = s->f->file_id;
		a->line = c->shared && c->line ? c->line : row->line;
		a->col = c->col;
	}
	s->attrs.count = s->borrowed = row->ncells;
	for (size_t i = 0; rc == 0 && i < s->spec->nset; i++) {
		char *value = NULL;
		if (s->im->host && !strcmp(s->spec->set[i].key, "topology_host"))
			continue; /* --host wins over the manifest's constant */
		if (manifest_expand(s->spec->set[i].value, cell_var, s, &value) != 0) {
			err_clear();
			continue; /* a row without the columns: no value */
		}
		rc = attr_list_add(&s->attrs, "set", s->spec->set[i].key, value, 0, 0, 0);
		free(value);
	}
	return rc ? rc : im_tie_host(s->im, s->host, tag, &s->attrs);
}

/* ---- the attribute set ---- */

static int remember_set(struct store *s, int64_t id)
{
	if (GROW(s->set_ids, s->set_ids_cap, s->nset_ids + 1) != 0)
		return err_set("out of memory");
	s->set_ids[s->nset_ids++] = id;
	return 0;
}

/* The key of a set: each attribute's text (NUL-terminated) and place (their bytes). */
static int key_add(struct store *s, const char *text, long a, long b)
{
	long nums[2] = {a, b};
	if (strbuf_add(&s->key, text, strlen(text) + 1) ||
	    strbuf_add(&s->key, (const char *)nums, sizeof(nums)))
		return err_set("out of memory");
	return 0;
}

static int make_set(struct store *s, struct set_slot *slot)
{
	int rc;
	sqlite3_bind_int64(s->insert_set, 1, s->im->corpus_id);
	if ((rc = step(s, s->insert_set, "cannot store an attribute set")))
		return rc;
	slot->id = sqlite3_last_insert_rowid(s->im->db);
	slot->origins = 0;
	for (size_t k = 0; rc == 0 && k < s->attrs.count; k++) {
		const struct attr *a = &s->attrs.items[k];
		bool own_line = k < s->borrowed && !(s->row->cells[k].line);
		int64_t id;
		if (!in_set(s, k))
			continue;
		if ((rc = name_id(s, a->source, a->name, &id)))
			break;
		sqlite3_bind_int64(s->insert_set_attr, 1, slot->id);
		sqlite3_bind_int64(s->insert_set_attr, 2, id);
		if (own_line) { /* on each run's own line: the view reads the run's */
			sqlite3_bind_null(s->insert_set_attr, 3);
			sqlite3_bind_null(s->insert_set_attr, 4);
		} else {
			if (a->file_id > 0)
				sqlite3_bind_int64(s->insert_set_attr, 3, a->file_id);
			else
				sqlite3_bind_null(s->insert_set_attr, 3);
			sqlite3_bind_int64(s->insert_set_attr, 4, a->line);
		}
		if (a->col)
			sqlite3_bind_int64(s->insert_set_attr, 5, a->col);
		else
			sqlite3_bind_null(s->insert_set_attr, 5);
		bind_text_real(s->insert_set_attr, 6, 7, a->value);
		rc = step(s, s->insert_set_attr, "cannot store a shared value");
	}
	return rc ? rc : remember_set(s, slot->id);
}

/* The slot of the set key being built (s->key): its own, or the free one where it would go. */
static struct set_slot *set_slot(struct store *s, uint64_t h)
{
	size_t i = h & (SET_CACHE - 1);
	for (; s->sets[i].key; i = (i + 1) & (SET_CACHE - 1))
		if (s->sets[i].hash == h && s->sets[i].len == s->key.len &&
		    !memcmp(s->sets[i].key, s->key.buf, s->key.len))
			break;
	return &s->sets[i];
}

static void sets_clear(struct store *s)
{
	for (size_t i = 0; i < SET_CACHE; i++)
		free(s->sets[i].key);
	memset(s->sets, 0, SET_CACHE * sizeof(*s->sets));
	s->nsets = s->set_bytes = 0;
}

/* The run's set: the cached one with the same content, or a new one. */
static int run_set(struct store *s, struct set_slot **out)
{
	struct set_slot *slot;
	uint64_t h;
	s->key.len = 0;
	if (strbuf_adds(&s->key, "set"))
		return err_set("out of memory");
	for (size_t k = 0; k < s->attrs.count; k++) {
		const struct attr *a = &s->attrs.items[k];
		if (!in_set(s, k))
			continue;
		if (key_add(s, a->source, 0, 0) ||
		    key_add(s, a->name, k < s->borrowed ? s->row->cells[k].line : 0, a->col) ||
		    key_add(s, a->value ? a->value : "", a->value ? 1 : 0, 0))
			return -1;
	}
	h = fnv(s->key.buf, s->key.len);
	slot = set_slot(s, h);
	if (slot->key) {
		*out = slot;
		return 0;
	}
	if (2 * (s->nsets + 1) > SET_CACHE || s->set_bytes + s->key.len > CACHE_BYTES) {
		sets_clear(s);
		slot = set_slot(s, h);
	}
	*out = slot;
	slot->key = malloc(s->key.len ? s->key.len : 1);
	if (!slot->key)
		return err_set("out of memory");
	memcpy(slot->key, s->key.buf, s->key.len);
	slot->len = s->key.len;
	slot->hash = h;
	s->nsets++;
	s->set_bytes += s->key.len;
	return make_set(s, slot);
}

/* ---- one run ---- */

static int pend_origin(const char *field, const struct attr *a, void *arg)
{
	struct store *s = arg;
	if (s->norigins < sizeof(s->origins) / sizeof(s->origins[0]))
		s->origins[s->norigins++] = (struct pending_origin){field, a};
	return 0;
}

static int write_origins(struct store *s, int64_t run_id, struct set_slot *set)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->norigins; i++) {
		const struct pending_origin *o = &s->origins[i];
		size_t k = (size_t)(o->a - s->attrs.items);
		const struct field_info *f = field_find(o->field);
		uint64_t bit = (uint64_t)1 << (size_t)(f - field_canonical);
		sqlite3_stmt *st = in_set(s, k) ? s->insert_set_origin : s->insert_origin;
		if (in_set(s, k) && (set->origins & bit))
			continue;
		sqlite3_bind_int64(st, 1, in_set(s, k) ? set->id : run_id);
		sqlite3_bind_text(st, 2, o->field, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, o->a->source, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, o->a->name, -1, SQLITE_STATIC);
		rc = step(s, st, "cannot record where a field came from");
		if (in_set(s, k))
			set->origins |= bit;
	}
	return rc;
}

/* INSERT of n run_values rows at once (prepared once for each n). */
static int values_statement(struct store *s, size_t n, sqlite3_stmt **out)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;
	if (s->insert_values[n - 1]) {
		*out = s->insert_values[n - 1];
		return 0;
	}
	strbuf_adds(&sql, "INSERT INTO run_values (run_id, name_id, col, value, num) VALUES ");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sql, "%s(?%zu, ?%zu, ?%zu, ?%zu, ?%zu)", i ? ", " : "", 5 * i + 1,
			    5 * i + 2, 5 * i + 3, 5 * i + 4, 5 * i + 5);
	rc = sql.buf ? db_prepare(s->im->db, strbuf_str(&sql), &s->insert_values[n - 1])
		     : err_set("out of memory");
	strbuf_release(&sql);
	*out = s->insert_values[n - 1];
	return rc;
}

/* Store the values kept (their runs are stored already). */
static int flush_values(struct store *s)
{
	sqlite3_stmt *st;
	int rc;
	if (s->npending == 0)
		return 0;
	if ((rc = values_statement(s, s->npending, &st)))
		return rc;
	for (size_t k = 0; k < s->npending; k++) {
		const struct pending_value *v = &s->pending[k];
		int at = (int)(5 * k + 1);
		sqlite3_bind_int64(st, at, v->run_id);
		sqlite3_bind_int64(st, at + 1, v->name_id);
		if (v->col)
			sqlite3_bind_int64(st, at + 2, v->col);
		else
			sqlite3_bind_null(st, at + 2);
		if (v->is_int)
			sqlite3_bind_int64(st, at + 3, v->i);
		else
			sqlite3_bind_text(st, at + 3, s->pending_text.buf + v->text, -1,
					  SQLITE_STATIC);
		if (v->has_num)
			sqlite3_bind_double(st, at + 4, v->num);
		else
			sqlite3_bind_null(st, at + 4);
	}
	rc = step(s, st, "cannot store a value");
	s->npending = 0;
	s->pending_text.len = 0;
	return rc;
}

static int own_values(struct store *s, const struct tool_row *row, int64_t run_id)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < row->ncells; i++) {
		struct pending_value *v = &s->pending[s->npending];
		if (row->cells[i].shared)
			continue;
		v->run_id = run_id;
		v->col = row->cells[i].col;
		if ((rc = name_id(s, "results", row->cells[i].name, &v->name_id)) ||
		    (rc = pend_value(s, v, &row->cells[i])))
			break;
		if (++s->npending == VALUES_BATCH)
			rc = flush_values(s);
	}
	return rc;
}

static int insert_run(struct store *s, const char *tag, const struct tool_row *row,
		      struct set_slot *set, int64_t *run_id)
{
	struct importer *im = s->im;
	sqlite3_stmt *st = s->insert_run;
	int rc;
	sqlite3_clear_bindings(st); /* the fields this run has none of are NULL (mapping.h) */
	sqlite3_bind_int64(st, 1, im->corpus_id);
	sqlite3_bind_text(st, 2, s->subcorpus, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, tag, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, ++im->seq);
	sqlite3_bind_int64(st, 5, s->f->file_id);
	sqlite3_bind_int64(st, 6, row->line);
	sqlite3_bind_int64(st, 7, set->id);
	s->norigins = 0;
	rc = mapping_bind(im->db, st, 8, &s->attrs, s->spec, im->manifest_origin, im_display_of, im,
			  pend_origin, s);
	if (rc) {
		sqlite3_reset(st);
		return rc;
	}
	if (sqlite3_step(st) != SQLITE_DONE) {
		if ((sqlite3_extended_errcode(im->db) & 0xff) == SQLITE_CONSTRAINT)
			rc = err_set("duplicate run tag '%s' (the table's tag template gives two "
				     "rows the same tag)",
				     tag);
		else
			rc = db_error(im->db, "cannot store a run");
	}
	sqlite3_reset(st);
	*run_id = sqlite3_last_insert_rowid(im->db);
	im->result->runs++;
	im->result->listed++;
	return rc;
}

static int store_row(void *arg, const struct tool_row *row)
{
	struct store *s = arg;
	struct set_slot *set = NULL;
	char *tag = NULL;
	int64_t run_id = 0;
	int rc;
	s->row = row;
	s->rows++;
	{ /* the row number as text, for {row}: no printf per row */
		char digits[24];
		size_t n = 0;
		for (int64_t v = s->rows; v; v /= 10)
			digits[n++] = (char)('0' + v % 10);
		for (size_t k = 0; k < n; k++)
			s->row_text[k] = digits[n - 1 - k];
		s->row_text[n] = '\0';
	}
	rc = manifest_expand(s->spec->tag, cell_var, s, &tag);
	if (rc == 0 && (!*tag || !strcmp(tag, "NA")))
		rc = err_at(s->f->path, row->line, 0, "row %lld has no run tag",
			    (long long)s->rows);
	if (rc == 0)
		rc = run_attrs(s, row, tag);
	if (rc == 0)
		rc = run_set(s, &set);
	if (rc == 0)
		rc = insert_run(s, tag, row, set, &run_id);
	if (rc == 0)
		rc = write_origins(s, run_id, set);
	if (rc == 0)
		rc = own_values(s, row, run_id);
	if (rc == 0 && attr_list_find_name(&s->attrs, "topology_host"))
		s->im->tool_tied_runs++;
	if (rc && tag)
		err_prefix("run '%s'", tag);
	attrs_reset(s);
	free(tag);
	s->im->rows_done++;
	if (rc == 0 && s->im->opts->progress && s->rows % PROGRESS_EVERY == 0)
		s->im->opts->progress("rows", s->im->files_done, s->im->rows_done,
				      s->im->opts->progress_arg);
	return rc;
}

/* A value every run of the file has (tools.h): put into every set this table made. */
static int store_constant(void *arg, const char *name, const char *value)
{
	struct store *s = arg;
	int64_t id;
	int rc = name_id(s, "results", name, &id);
	for (size_t i = 0; rc == 0 && i < s->nset_ids; i++) {
		sqlite3_bind_int64(s->constant, 1, s->set_ids[i]);
		sqlite3_bind_int64(s->constant, 2, id);
		sqlite3_bind_int64(s->constant, 3, s->f->file_id);
		bind_text_real(s->constant, 4, 5, value);
		rc = step(s, s->constant, "cannot store a value of the file");
	}
	return rc;
}

static void store_release(struct store *s)
{
	for (size_t i = 0; i < NSTATEMENTS; i++)
		sqlite3_finalize(*statement_slot(s, i));
	for (size_t i = 0; i < VALUES_BATCH; i++)
		sqlite3_finalize(s->insert_values[i]);
	if (s->names)
		for (size_t i = 0; i < NAME_CACHE; i++)
			free(s->names[i].key);
	if (s->sets)
		for (size_t i = 0; i < SET_CACHE; i++)
			free(s->sets[i].key);
	free(s->names);
	free(s->sets);
	free(s->set_ids);
	free(s->host);
	free(s->attrs.items);
	strbuf_release(&s->key);
	strbuf_release(&s->pending_text);
}

/* What a tool table cannot have: each names files of runs, which a tool's output has not. */
static int refuse_run_files(const struct manifest_table *spec)
{
	const struct {
		const char *key;
		const void *set;
	} keys[] = {{"join", spec->join_file},    {"generator", spec->generator},
		    {"idle", spec->idle},         {"acct", spec->acct},
		    {"trace", spec->trace},       {"window", spec->window},
		    {"discover", spec->discover}, {"rejected", spec->rejected},
		    {"run-dir", spec->run_dir}};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].set)
			return err_usage("[table %s]: `%s` names files of each run, which a %s "
					 "output has not (a table with format = NAME reads its "
					 "one file)",
					 spec->section, keys[i].key, spec->format);
	if (spec->ntext || spec->ntag_parse)
		return err_usage("[table %s]: `%s` is for a results table, not a %s output",
				 spec->section, spec->ntext ? "text" : "tag-parse", spec->format);
	return 0;
}

int im_import_tool_table(struct importer *im, const struct manifest_table *spec)
{
	const struct tool_format *fmt = tool_find(spec->format);
	struct store s = {.im = im, .spec = spec};
	const struct tool_sink sink = {store_row, store_constant, &s};
	struct tool_emit emit;
	struct tool_src src;
	struct infile in;
	const char *base;
	int rc;
	if (!fmt)
		return err_usage("[table %s]: unknown format '%s' (one of %s)", spec->section,
				 spec->format, tool_names());
	if ((rc = refuse_run_files(spec)))
		return rc;
	s.f = im_find_file(im, spec->file);
	if (!s.f)
		return err_set("%s output '%s' not found in '%s'", fmt->what, spec->file, im->root);
	s.subcorpus = im_subcorpus(spec);
	s.names = calloc(NAME_CACHE, sizeof(*s.names));
	s.sets = calloc(SET_CACHE, sizeof(*s.sets));
	if (!s.names || !s.sets) {
		store_release(&s);
		return err_set("out of memory");
	}
	rc = prepare(&s);
	if (rc == 0)
		rc = mapping_store_prefs(im->db, im->corpus_id, s.subcorpus, spec);
	if (rc == 0 && spec->topology)
		rc = im_read_topology(im, spec, s.subcorpus, &s.host);
	if (rc == 0)
		rc = im_open_hashed(im, s.f, INFILE_NO_LIMIT, &in);
	if (rc) {
		store_release(&s);
		return rc;
	}
	base = strrchr(s.f->path, '/');
	rc = tool_src_file(&src, &in, s.f->path);
	tool_emit_init(&emit, &sink, s.f->path, base ? base + 1 : s.f->path);
	if (rc == 0)
		rc = fmt->convert(&src, &emit);
	if (rc == 0)
		rc = flush_values(&s);
	tool_emit_release(&emit);
	tool_src_close(&src);
	rc = im_end_hashed(s.f, &in, rc);
	if (rc == 0)
		rc = im_claim(im, s.f, "results", s.rows);
	store_release(&s);
	return rc;
}
