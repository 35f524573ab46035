/* runfiles: see runfiles.h. */
#include "runfiles.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* SQLite's JSON parser refuses deeper nesting (JSON_MAX_DEPTH). */
#define JSON_DEPTH_LIMIT 2000

int attr_list_add(struct attr_list *list, const char *source, const char *name, const char *value,
		  int64_t file_id, long line, long col)
{
	struct attr *a;
	if (GROW(list->items, list->alloc, list->count + 1) != 0)
		return err_set("out of memory");
	a = &list->items[list->count];
	a->source = strdup(source);
	a->name = strdup(name);
	a->value = value ? strdup(value) : NULL;
	a->file_id = file_id;
	a->line = line;
	a->col = col;
	if (!a->source || !a->name || (value && !a->value)) {
		free(a->source);
		free(a->name);
		free(a->value);
		return err_set("out of memory");
	}
	list->count++;
	return 0;
}

const struct attr *attr_list_find(const struct attr_list *list, const char *source,
				  const char *name)
{
	for (size_t i = 0; i < list->count; i++)
		if (!strcmp(list->items[i].source, source) && !strcmp(list->items[i].name, name))
			return &list->items[i];
	return NULL;
}

void attr_list_release(struct attr_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		free(list->items[i].source);
		free(list->items[i].name);
		free(list->items[i].value);
	}
	free(list->items);
	list->items = NULL;
	list->count = list->alloc = 0;
}

int runfile_read(struct infile *in, char **text, size_t *len)
{
	const char *nul;
	int rc = infile_slurp(in, text, len);
	if (rc)
		return rc;
	nul = memchr(*text, '\0', *len);
	if (nul) {
		long line = 1, col = 1;
		for (const char *p = *text; p < nul; p++, col++)
			if (*p == '\n') {
				line++;
				col = 0;
			}
		free(*text);
		*text = NULL;
		*len = 0;
		return err_at(in->display, line, col, "NUL byte (binary data)");
	}
	return 0;
}

int runfile_slurp(const char *path, const char *display, char **text, size_t *len)
{
	struct infile in;
	int rc = infile_open(&in, path, display, RUNFILE_MAX_BYTES);
	*text = NULL;
	*len = 0;
	if (rc == 0)
		rc = runfile_read(&in, text, len);
	if (rc == 0)
		rc = infile_end(&in, NULL, NULL);
	infile_close(&in);
	if (rc) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return rc;
}

/* ---- generator record ---- */

/*
 * Outside strings JSON has only structure, blanks, numbers and the words
 * true, false and null. Returns false at anything else; a word or number
 * is skipped whole (*i and *col advance to its last character).
 */
static bool json_token_char(const char *text, size_t len, size_t *i, long *col)
{
	static const char *const words[] = {"true", "false", "null"};
	char c = text[*i];
	if (strchr("{}[],: \t\r\n", c))
		return c != '\0';
	if (c == '-' || (c >= '0' && c <= '9')) {
		while (*i + 1 < len && strchr("0123456789+-.eE", text[*i + 1]) && text[*i + 1]) {
			(*i)++;
			(*col)++;
		}
		return true;
	}
	for (size_t w = 0; w < 3; w++) {
		size_t n = strlen(words[w]);
		if (*i + n <= len && !strncmp(text + *i, words[w], n)) {
			*i += n - 1;
			*col += (long)n - 1;
			return true;
		}
	}
	return false;
}

void json_locate_error(const char *text, size_t len, long *line_out, long *col_out,
		       const char **what)
{
	long line = 1, col = 0;
	long open_line[JSON_DEPTH_LIMIT + 1], open_col[JSON_DEPTH_LIMIT + 1];
	char open_char[JSON_DEPTH_LIMIT + 1];
	long string_line = 0, string_col = 0;
	int depth = 0;
	bool in_string = false, escaped = false;
	*line_out = *col_out = 0;
	*what = "invalid JSON";
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		col++;
		if (in_string) {
			if (escaped) {
				escaped = false;
			} else if (c == '\\') {
				escaped = true;
			} else if (c == '"') {
				in_string = false;
			} else if ((unsigned char)c < 0x20) {
				*line_out = line;
				*col_out = col;
				*what = "raw control character inside a string";
				return;
			}
		} else if (c == '"') {
			in_string = true;
			string_line = line;
			string_col = col;
		} else if (!json_token_char(text, len, &i, &col)) {
			*line_out = line;
			*col_out = col;
			*what = "unexpected character outside a string";
			return;
		} else if (c == '{' || c == '[') {
			if (depth == JSON_DEPTH_LIMIT) {
				*line_out = line;
				*col_out = col;
				*what = "nested deeper than 2000 levels";
				return;
			}
			open_line[depth] = line;
			open_col[depth] = col;
			open_char[depth] = c;
			depth++;
		} else if (c == '}' || c == ']') {
			if (depth == 0 || (c == '}') != (open_char[depth - 1] == '{')) {
				*line_out = line;
				*col_out = col;
				*what = c == '}' ? "unexpected '}'" : "unexpected ']'";
				return;
			}
			depth--;
		}
		if (c == '\n') {
			line++;
			col = 0;
		}
	}
	if (in_string) {
		*line_out = string_line;
		*col_out = string_col;
		*what = "truncated: string never closed";
	} else if (depth > 0) {
		*line_out = open_line[depth - 1];
		*col_out = open_col[depth - 1];
		*what = open_char[depth - 1] == '{' ? "truncated: '{' never closed"
						    : "truncated: '[' never closed";
	}
}

/* Line and column of the first `"key"` in the text, for type errors. */
static void locate_key(const char *text, const char *key, long *line, long *col)
{
	char needle[160];
	const char *hit;
	*line = *col = 0;
	snprintf(needle, sizeof(needle), "\"%s\"", key);
	hit = strstr(text, needle);
	if (!hit)
		return;
	/* columns count bytes from the line's start; memchr finds the newlines a block at a time */
	const char *line_start = text;
	*line = 1;
	for (const char *nl; (nl = memchr(line_start, '\n', (size_t)(hit - line_start))) != NULL;
	     line_start = nl + 1)
		(*line)++;
	*col = (long)(hit - line_start) + 1;
}

struct key_type {
	const char *key;
	const char *expected; /* "integer", "number", "text", "bool", "object" */
};

/* From FORMATS.md, "The generator record". Unknown keys may have any type. */
static const struct key_type generator_keys[] = {
	{"label", "text"},
	{"url", "text"},
	{"sessions_requested", "integer"},
	{"sessions_established", "integer"},
	{"duration", "text"},
	{"think_time", "text"},
	{"interactions_counted", "integer"},
	{"interactions_per_sec", "number"},
	{"p50_ms", "number"},
	{"p95_ms", "number"},
	{"p99_ms", "number"},
	{"max_ms", "number"},
	{"outcomes", "object"},
	{"error_rate", "number"},
	{"patches_total", "integer"},
	{"interactions_with_patches", "integer"},
	{"patch_rate", "number"},
	{"patches_per_interaction", "number"},
	{"patches_naming_absent_ids", "integer"},
	{"handler_id", "text"},
	{"setup_steps", "integer"},
	{"sse_frames_total", "integer"},
	{"sse_still_open_at_end", "integer"},
	{"generator_cpu_percent_of_machine", "number"},
	{"generator_possibly_saturated", "bool"},
	{"valid", "bool"},
	{"host", "text"},
	{"gomaxprocs", "integer"},
	{"started_at", "text"},
};

static bool type_fits(const char *expected, const char *actual)
{
	if (!strcmp(actual, "null"))
		return true;
	if (!strcmp(expected, "number"))
		return !strcmp(actual, "integer") || !strcmp(actual, "real");
	if (!strcmp(expected, "bool"))
		return !strcmp(actual, "true") || !strcmp(actual, "false");
	return !strcmp(expected, actual);
}

/* json_type() raises an error on malformed text, so validity is asked on its own first. */
static int check_json(sqlite3 *db, const char *text, size_t len, const char *display)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	/* one parse: json_type() only of a valid text (the statement's JSON cache holds it) */
	if (!(stmt = db_cached(db, "SELECT json_valid(?1), CASE WHEN json_valid(?1) THEN"
				   " json_type(?1) END")))
		return err_set("cannot check '%s': %s", display, sqlite3_errmsg(db));
	sqlite3_bind_text64(stmt, 1, text, len, SQLITE_STATIC, SQLITE_UTF8);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		rc = err_set("cannot check '%s': %s", display, sqlite3_errmsg(db));
	} else if (sqlite3_column_int(stmt, 0) != 1) {
		long line, col;
		const char *what;
		json_locate_error(text, len, &line, &col, &what);
		rc = err_at(display, line, col, "%s (not a valid generator record)", what);
	} else if (strcmp((const char *)sqlite3_column_text(stmt, 1), "object") != 0) {
		rc = err_at(display, 1, 1, "expected a JSON object, found %s",
			    (const char *)sqlite3_column_text(stmt, 1));
	}
	db_cached_done(stmt);
	return rc;
}

/*
 * A top-level key of a known type: its JSON type fits, and so does its
 * value (check_tree). Sets *line_out and *col_out to where the key is when
 * it looked.
 */
static int check_key(sqlite3_stmt *stmt, const char *text, const char *key, const char *type,
		     const char *display, long *line_out, long *col_out)
{
	for (size_t i = 0; i < sizeof(generator_keys) / sizeof(generator_keys[0]); i++) {
		long line, col;
		if (strcmp(key, generator_keys[i].key))
			continue;
		locate_key(text, key, &line, &col);
		*line_out = line;
		*col_out = col;
		if (!type_fits(generator_keys[i].expected, type))
			return err_at(display, line, col, "'%s' is %s, expected %s", key, type,
				      generator_keys[i].expected);
		/* JSON reads an integer beyond 64 bits as a real: its column cannot hold it */
		if (!strcmp(generator_keys[i].expected, "integer") && !strcmp(type, "integer") &&
		    sqlite3_column_type(stmt, 2) != SQLITE_INTEGER)
			return err_at(display, line, col,
				      "'%s' is an integer beyond the 64-bit range SQLite stores "
				      "(-9223372036854775808 to 9223372036854775807)",
				      key);
		if (!strcmp(type, "real") && !isfinite(sqlite3_column_double(stmt, 2)))
			return err_at(display, line, col, "'%s' is not a finite number", key);
		return 0;
	}
	return 0;
}

/* The record's keys generator_records has a column for, in its column order (?4 on). */
static const char *const record_columns[] = {
	"label",
	"sessions_requested",
	"sessions_established",
	"duration",
	"interactions_counted",
	"interactions_per_sec",
	"p50_ms",
	"p95_ms",
	"p99_ms",
	"max_ms",
	"error_rate",
	"patch_rate",
	"generator_cpu_percent_of_machine",
	"generator_possibly_saturated",
	"valid",
	"host",
	"started_at",
};
#define NRECORD (sizeof(record_columns) / sizeof(record_columns[0]))

/*
 * The values of the record's columns, as check_tree() met their keys at
 * the top level: the first of a key given twice, JSON's true and false as
 * 1 and 0 (json_tree's atom, what ->> gives for them; an object or array,
 * where ->> would give text, is refused by check_key first). NULL: absent.
 */
struct record_values {
	sqlite3_value *v[NRECORD];
};

static int record_values_keep(struct record_values *r, const char *key, sqlite3_value *atom)
{
	for (size_t i = 0; i < NRECORD; i++)
		if (!strcmp(key, record_columns[i])) {
			if (!r->v[i] && !(r->v[i] = sqlite3_value_dup(atom)))
				return err_set("out of memory");
			return 0;
		}
	return 0;
}

static void record_values_release(struct record_values *r)
{
	for (size_t i = 0; i < NRECORD; i++)
		sqlite3_value_free(r->v[i]);
}

static const char insert_record_sql[] =
	"INSERT INTO generator_records (run_id, file_id, json, label, sessions_requested,"
	" sessions_established, duration, interactions_counted, interactions_per_sec, p50_ms,"
	" p95_ms, p99_ms, max_ms, error_rate, patch_rate, generator_cpu_percent_of_machine,"
	" generator_possibly_saturated, valid, host, started_at)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
	" ?18, ?19, ?20)";

static int insert_record(sqlite3 *db, int64_t run_id, int64_t file_id, const char *text, size_t len,
			 const struct record_values *values, const char *display)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	if (!(stmt = db_cached(db, insert_record_sql)))
		return err_set("cannot store '%s': %s", display, sqlite3_errmsg(db));
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_int64(stmt, 2, file_id);
	sqlite3_bind_text64(stmt, 3, text, len, SQLITE_STATIC, SQLITE_UTF8);
	for (size_t i = 0; i < NRECORD; i++)
		if (values->v[i])
			sqlite3_bind_value(stmt, 4 + (int)i, values->v[i]);
		else
			sqlite3_bind_null(stmt, 4 + (int)i);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		rc = err_set("cannot store '%s': %s", display, sqlite3_errmsg(db));
	db_cached_done(stmt);
	return rc;
}

/* Leaf text exactly as a user would read it: doubles to the last digit. */
static const char *leaf_text(sqlite3_stmt *stmt, int col, const char *type, char buf[32])
{
	if (!strcmp(type, "null"))
		return NULL;
	if (!strcmp(type, "true"))
		return "true";
	if (!strcmp(type, "false"))
		return "false";
	/* an integer beyond 64 bits reads as a real too: every digit a double has */
	if (!strcmp(type, "real") || sqlite3_column_type(stmt, col) == SQLITE_FLOAT)
		return num_format_real(sqlite3_column_double(stmt, col), buf);
	return (const char *)sqlite3_column_text(stmt, col);
}

/*
 * One walk of the record (json_tree, in document order): each top-level
 * key of a known type is checked (check_key) and the values of the
 * record's columns are kept (record_values), each leaf becomes a
 * "generator" attribute named by its path.
 */
static int check_tree(sqlite3 *db, const char *text, size_t len, int64_t file_id,
		      const char *display, struct attr_list *attrs, struct record_values *values)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	int step;
	if (!(stmt = db_cached(db,
			       /* fullkey quotes keys that are not plain identifiers */
			       "SELECT key, type, atom, replace(substr(fullkey, 3), '\"', ''),"
			       " path = '$' FROM json_tree(?1) WHERE fullkey <> '$'")))
		return err_set("cannot read '%s': %s", display, sqlite3_errmsg(db));
	sqlite3_bind_text64(stmt, 1, text, len, SQLITE_STATIC, SQLITE_UTF8);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(stmt, 0);
		const char *type = (const char *)sqlite3_column_text(stmt, 1);
		long line = -1, col = -1;
		if (sqlite3_column_int(stmt, 4)) {
			rc = check_key(stmt, text, key, type, display, &line, &col);
			if (rc == 0)
				rc = record_values_keep(values, key, sqlite3_column_value(stmt, 2));
		}
		if (rc == 0 && strcmp(type, "object") && strcmp(type, "array")) {
			char buf[32];
			const char *name = (const char *)sqlite3_column_text(stmt, 3);
			/* a top-level key already looked for is where its leaf is */
			if (line < 0 || !key || strcmp(key, name))
				locate_key(text, name, &line, &col);
			rc = attr_list_add(attrs, "generator", name, leaf_text(stmt, 2, type, buf),
					   file_id, line, col);
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot read '%s': %s", display, sqlite3_errmsg(db));
	db_cached_done(stmt);
	return rc;
}

/*
 * SQLite's JSON functions end a string at an escaped NUL (\u0000), which
 * would store a cut value without a word: refuse the record instead.
 */
static int refuse_escaped_nul(const char *text, size_t len, const char *display)
{
	long line = 1, col = 1;
	for (size_t i = 0; i + 6 <= len; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
			continue;
		}
		if (text[i] == '\\' && (i == 0 || text[i - 1] != '\\') &&
		    !strncasecmp(text + i, "\\u0000", 6))
			return err_at(
				display, line, col,
				"a string holds a NUL character (\\u0000): refused rather than "
				"stored cut");
		col++;
	}
	return 0;
}

int genrec_import(sqlite3 *db, int64_t run_id, int64_t file_id, const char *path,
		  const char *display, struct attr_list *attrs)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, display, &text, &len);
	if (rc == 0)
		rc = genrec_parse(db, run_id, file_id, text, len, display, attrs);
	free(text);
	return rc;
}

int genrec_parse(sqlite3 *db, int64_t run_id, int64_t file_id, const char *text, size_t len,
		 const char *display, struct attr_list *attrs)
{
	struct record_values values = {{NULL}};
	int rc = 0;
	if (len == 0)
		rc = err_at(display, 0, 0, "empty file (expected a generator record)");
	if (rc == 0)
		rc = check_json(db, text, len, display);
	if (rc == 0)
		rc = refuse_escaped_nul(text, len, display);
	if (rc == 0)
		rc = check_tree(db, text, len, file_id, display, attrs, &values);
	if (rc == 0)
		rc = insert_record(db, run_id, file_id, text, len, &values, display);
	record_values_release(&values);
	return rc;
}

/* ---- idle banner, accounting file, rejection marker ---- */

/* The text up to the first newline; anything but blank lines after it is an error. */
static int single_line(const char *text, size_t len, const char *display, size_t *line_len)
{
	const char *newline = memchr(text, '\n', len);
	size_t n = newline ? (size_t)(newline - text) : len;
	if (newline) {
		long line = 2;
		for (const char *p = newline + 1; p < text + len; p++) {
			if (*p == '\n') {
				line++;
			} else if (*p != '\r' && *p != ' ' && *p != '\t') {
				return err_at(display, line, 1, "expected one line, found more");
			}
		}
	}
	if (n > 0 && text[n - 1] == '\r')
		n--;
	*line_len = n;
	return 0;
}

int banner_read(const char *path, const char *display, int64_t file_id, char **status,
		struct attr_list *attrs)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, display, &text, &len);
	*status = NULL;
	if (rc == 0)
		rc = banner_parse(text, len, display, file_id, status, attrs);
	free(text);
	return rc;
}

int banner_parse(char *text, size_t len, const char *display, int64_t file_id, char **status,
		 struct attr_list *attrs)
{
	size_t line_len = 0;
	char *save = NULL;
	int rc = single_line(text, len, display, &line_len);
	*status = NULL;
	if (rc == 0 && line_len == 0)
		rc = err_at(display, 1, 1, "empty idle banner");
	if (rc == 0) {
		char *first;
		text[line_len] = '\0';
		first = strtok_r(text, " ", &save);
		if (!first || strchr(first, '='))
			rc = err_at(display, 1, 1,
				    "idle banner must start with a status word (IDLE or FAIL)");
		else if (!(*status = strdup(first)))
			rc = err_set("out of memory");
	}
	for (char *tok = rc ? NULL : strtok_r(NULL, " ", &save); tok && rc == 0;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		long col = (long)(tok - text) + 1;
		if (!eq || eq == tok) {
			rc = err_at(display, 1, col, "expected key=value, got '%s'", tok);
			break;
		}
		*eq = '\0';
		if (attr_list_find(attrs, "idle", tok)) {
			rc = err_at(display, 1, col, "duplicate key '%s'", tok);
			break;
		}
		rc = attr_list_add(attrs, "idle", tok, eq + 1, file_id, 1, col);
	}
	if (rc) {
		free(*status);
		*status = NULL;
	}
	return rc;
}

int acct_read(const char *path, const char *display, int64_t file_id, struct attr_list *attrs)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, display, &text, &len);
	if (rc == 0)
		rc = acct_parse(text, display, file_id, attrs);
	free(text);
	return rc;
}

int acct_parse(char *text, const char *display, int64_t file_id, struct attr_list *attrs)
{
	long line_no = 0;
	int rc = 0;
	char *line = text;
	while (rc == 0 && line && *line) {
		char *newline = strchr(line, '\n');
		char *space;
		size_t n;
		line_no++;
		if (newline)
			*newline = '\0';
		n = strlen(line);
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (n > 0) {
			space = strchr(line, ' ');
			if (!space || space == line || !space[1] || strchr(space + 1, ' '))
				rc = err_at(display, line_no, 1, "expected 'key value', got '%s'",
					    line);
			else if (*space = '\0', attr_list_find(attrs, "acct", line))
				rc = err_at(display, line_no, 1, "duplicate key '%s'", line);
			else
				rc = attr_list_add(attrs, "acct", line, space + 1, file_id, line_no,
						   (long)(space - line) + 2);
		}
		line = newline ? newline + 1 : NULL;
	}
	return rc;
}

int rejected_read(const char *path, const char *display, char **reason)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, display, &text, &len);
	*reason = NULL;
	if (rc == 0)
		rc = rejected_parse(text, len, display, reason);
	free(text);
	return rc;
}

int rejected_parse(const char *text, size_t len, const char *display, char **reason)
{
	size_t line_len = 0;
	int rc = single_line(text, len, display, &line_len);
	*reason = NULL;
	if (rc == 0 && line_len == 0)
		rc = err_at(display, 1, 1, "empty rejection marker (expected the reason)");
	if (rc == 0) {
		*reason = strndup(text, line_len);
		if (!*reason)
			rc = err_set("out of memory");
	}
	return rc;
}
