/*
 * test_util (test_util.h): the helpers every unit test may use. The file
 * readers use plain stdio so that they stay independent of the importers
 * they check.
 */
#include "test_util.h"

#include <setjmp.h>
#include <stdarg.h>

#include <cmocka.h>

#include "analysis/hosts.h"
#include "common/err.h"
#include "importers/corpus.h"
#include "importers/table.h"
#include "importers/tools.h"
#include "schema/db.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- checks ---- */

void check_close(double actual, double expected, double rel, const char *what)
{
	double tol = expected == 0 ? rel : rel * fabs(expected);
	if (!(fabs(actual - expected) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (rel %g)", what, actual, expected, rel);
}

void check_abs(double actual, double expected, double tol, const char *what)
{
	if (!(fabs(actual - expected) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (+- %g)", what, actual, expected, tol);
}

void check_contains(const char *text, const char *part, const char *what)
{
	if (!text || strstr(text, part) == NULL)
		fail_msg("%s: '%s' does not contain '%s'", what, text ? text : "(null)", part);
}

void check_contains_all(const char *text, const char *const *parts)
{
	for (size_t i = 0; parts[i]; i++)
		if (!text || !strstr(text, parts[i]))
			fail_msg("part %zu, [%s], is not in:\n%s", i, parts[i],
				 text ? text : "(null)");
}

void check_msg(const char *part)
{
	if (strstr(err_msg(), part) == NULL)
		fail_msg("message '%s' does not contain '%s'", err_msg(), part);
}

void check_same_bits(double a, double b, const char *what)
{
	if (memcmp(&a, &b, sizeof(a)) != 0)
		fail_msg("%s: %.17g and %.17g are not the same bits", what, a, b);
}

/* ---- lookups ---- */

size_t index_named(const void *first, size_t n, size_t stride, bool inline_chars, const char *name,
		   const char *what)
{
	const char *at = first;
	for (size_t i = 0; i < n; i++, at += stride) {
		const char *s = inline_chars ? at : *(const char *const *)(const void *)at;
		if (s && !strcmp(s, name))
			return i;
	}
	fail_msg("no %s '%s'", what, name);
	return 0;
}

double int_as_double(const void *p)
{
	return *(const int *)p;
}

double size_as_double(const void *p)
{
	return (double)*(const size_t *)p;
}

double double_as_double(const void *p)
{
	return *(const double *)p;
}

size_t index_where(const void *first, size_t n, size_t stride, double (*as_double)(const void *),
		   double value, const char *what)
{
	const char *at = first;
	for (size_t i = 0; i < n; i++, at += stride)
		if (as_double(at) == value)
			return i;
	fail_msg("no %s %g", what, value);
	return 0;
}

int gsl_errors_off(void **state)
{
	(void)state;
	gsl_set_error_handler_off();
	return 0;
}

/* ---- files ---- */

char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;
	if (!fp)
		fail_msg("cannot open '%s'", path);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	if (len)
		*len = (size_t)n;
	return buf;
}

int64_t count_lines(const char *path)
{
	FILE *fp = fopen(path, "rb");
	int64_t n = 0;
	int c;
	assert_non_null(fp);
	while ((c = getc(fp)) != EOF)
		n += c == '\n';
	fclose(fp);
	return n;
}

int remove_tree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

FILE *memout_open(struct memout *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	assert_non_null(m->fp);
	return m->fp;
}

char *memout_text(struct memout *m)
{
	assert_int_equal(fclose(m->fp), 0);
	m->fp = NULL;
	return m->buf;
}

/* ---- the scratch folder ---- */

static char tmp_root[] = "/tmp/coreplan-test-XXXXXX";
static char tmp_paths[64][300];
static size_t tmp_npaths;

int tmp_dir_make(void **state)
{
	(void)state;
	return mkdtemp(tmp_root) ? 0 : -1;
}

int tmp_dir_remove(void **state)
{
	(void)state;
	for (size_t i = 0; i < tmp_npaths; i++)
		unlink(tmp_paths[i]);
	tmp_npaths = 0;
	return rmdir(tmp_root);
}

const char *tmp_dir(void)
{
	return tmp_root;
}

const char *tmp_put(const char *name, const char *data, size_t len)
{
	char *path;
	FILE *fp;
	assert_true(tmp_npaths < ARRAY_LEN(tmp_paths));
	path = tmp_paths[tmp_npaths++];
	snprintf(path, sizeof(tmp_paths[0]), "%s/%s", tmp_root, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	if (len)
		assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return path;
}

/* ---- databases ---- */

void must_exec(sqlite3 *db, const char *sql)
{
	if (db_exec(db, sql) != 0)
		fail_msg("%s: %s", sql, err_msg());
}

int db_state_open(void **state, const char *sql)
{
	sqlite3 *db = NULL;
	if (db_open(":memory:", false, &db) != 0 || (sql && db_exec(db, sql) != 0)) {
		fprintf(stderr, "fixture: %s\n", err_msg());
		db_close(db);
		return -1;
	}
	*state = db;
	return 0;
}

int db_state_close(void **state)
{
	sqlite3 *db = *state;
	*state = NULL;
	return db_release(&db);
}

int db_release(sqlite3 **db)
{
	db_close(*db);
	*db = NULL;
	err_clear();
	warn_clear();
	return 0;
}

static sqlite3_stmt *first_row(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt = NULL;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		return stmt;
	sqlite3_finalize(stmt);
	return NULL;
}

int64_t db_scalar_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt = first_row(db, sql);
	int64_t value = stmt ? sqlite3_column_int64(stmt, 0) : -1;
	sqlite3_finalize(stmt);
	return value;
}

double db_scalar_real(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *stmt = first_row(db, sql);
	double value = stmt ? sqlite3_column_double(stmt, 0) : -1;
	sqlite3_finalize(stmt);
	return value;
}

int import_corpus(sqlite3 *db, const char *path)
{
	struct import_options opts;
	struct import_result result;
	import_options_init(&opts);
	if (db_begin(db) != 0)
		return -1;
	if (corpus_import(db, path, &opts, &result) != 0) {
		db_rollback(db);
		return -1;
	}
	return db_commit(db);
}

int import_all(sqlite3 *db, const char *const *paths, size_t n)
{
	struct import_options opts;
	struct import_result *results = calloc(n ? n : 1, sizeof(*results));
	char **copies = calloc(n ? n : 1, sizeof(*copies));
	int rc;
	import_options_init(&opts);
	assert_non_null(results);
	assert_non_null(copies);
	for (size_t i = 0; i < n; i++) {
		copies[i] = strdup(paths[i]);
		assert_non_null(copies[i]);
	}
	rc = corpus_import_all(db, copies, n, &opts, results, NULL, NULL);
	if (rc != 0)
		fprintf(stderr, "import: %s\n", err_msg());
	for (size_t i = 0; i < n; i++)
		free(copies[i]);
	free(results);
	free(copies);
	return rc;
}

sqlite3 *db_of_corpora(const char *const *paths, size_t n)
{
	sqlite3 *db = NULL;
	gsl_set_error_handler_off();
	if (db_open(":memory:", false, &db) != 0)
		return NULL;
	if (import_all(db, paths, n) != 0) {
		db_close(db);
		return NULL;
	}
	warn_clear();
	return db;
}

int64_t run_id_of(sqlite3 *db, const char *corpus, const char *tag)
{
	sqlite3_stmt *stmt = NULL;
	int64_t id = -1;
	assert_int_equal(
		sqlite3_prepare_v2(db,
				   "SELECT r.run_id FROM runs r JOIN corpora c USING "
				   "(corpus_id) WHERE c.name = ?1 AND r.subcorpus = '' AND "
				   "r.tag = ?2",
				   -1, &stmt, NULL),
		SQLITE_OK);
	sqlite3_bind_text(stmt, 1, corpus, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, tag, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (id < 0)
		fail_msg("run '%s' not in corpus '%s'", tag, corpus);
	return id;
}

void host_known(struct run_host *h, const char *name, size_t physical_cores, size_t logical_cpus,
		size_t threads_per_core)
{
	memset(h, 0, sizeof(*h));
	h->known = true;
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->physical_cores = physical_cores;
	h->logical_cpus = logical_cpus;
	h->threads_per_core = threads_per_core;
}

const char *table_cell(const struct table *t, size_t row, const char *col)
{
	int c = table_col(t, col);
	if (c < 0)
		fail_msg("no column '%s'", col);
	assert_true(row < t->nrows);
	return t->cells[row][c];
}

const char *split_name_value(const char *pair, char *name, size_t size)
{
	const char *eq = strchr(pair, '=');
	if (!eq || (size_t)(eq - pair) >= size)
		fail_msg("'%s' is not name=value", pair);
	snprintf(name, size, "%.*s", (int)(eq - pair), pair);
	return eq + 1;
}

void check_row(const struct table *t, size_t row, const char *const *col_values)
{
	for (size_t i = 0; col_values[i]; i++) {
		char col[128];
		const char *want = split_name_value(col_values[i], col, sizeof(col));
		if (strcmp(table_cell(t, row, col), want) != 0)
			fail_msg("row %zu, %s: '%s', expected '%s'", row, col,
				 table_cell(t, row, col), want);
	}
}

void check_cells(const struct table *t, const char *const *cells)
{
	for (size_t i = 0; cells[i]; i++) {
		char *end;
		unsigned long row = strtoul(cells[i], &end, 10);
		const char *one[2] = {end + 1, NULL};
		if (end == cells[i] || *end != ':')
			fail_msg("'%s' is not row:column=text", cells[i]);
		check_row(t, (size_t)row, one);
	}
}

/* ---- tool converters ---- */

int convert_as(const char *format, const char *bytes, size_t n, const char *path, struct table *t)
{
	return tool_convert_table(tool_find(format), bytes, n, path, NULL, t);
}

bool detects(const char *bytes, size_t n, const char *format)
{
	struct tool_src s;
	struct tool_class c;
	tool_src_mem(&s, bytes, n, "x");
	assert_int_equal(tool_classify(&s, &c), 0);
	tool_src_close(&s);
	return c.kind == TOOL_KIND_TOOL && !strcmp(c.format->name, format);
}

/* ---- headed TSV ---- */

static void tsv_grow(struct tsv *t, size_t *alloc)
{
	if (t->n < *alloc)
		return;
	*alloc = *alloc ? 2 * *alloc : 256;
	t->lines = realloc(t->lines, *alloc * sizeof(*t->lines));
	t->fields = realloc(t->fields, *alloc * sizeof(*t->fields));
	t->nfields = realloc(t->nfields, *alloc * sizeof(*t->nfields));
	assert_non_null(t->lines);
	assert_non_null(t->fields);
	assert_non_null(t->nfields);
}

/* Split line t->n (already in t->lines) at its tabs. */
static void tsv_split(struct tsv *t)
{
	char *p = t->lines[t->n];
	t->nfields[t->n] = 0;
	for (;;) {
		char *tab = strchr(p, '\t');
		assert_true(t->nfields[t->n] < TSV_MAX_FIELDS);
		t->fields[t->n][t->nfields[t->n]++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
}

void tsv_read(const char *path, struct tsv *t)
{
	FILE *fp = fopen(path, "r");
	char buf[4096];
	size_t alloc = 0;
	memset(t, 0, sizeof(*t));
	if (!fp)
		fail_msg("cannot open '%s'", path);
	while (fgets(buf, sizeof(buf), fp)) {
		size_t len = strlen(buf);
		if (len == 0 || buf[len - 1] != '\n')
			fail_msg("'%s': line %zu too long or unterminated", path, t->n + 1);
		buf[len - 1] = '\0';
		tsv_grow(t, &alloc);
		t->lines[t->n] = strdup(buf);
		assert_non_null(t->lines[t->n]);
		tsv_split(t);
		t->n++;
	}
	fclose(fp);
}

void tsv_free(struct tsv *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
	free(t->fields);
	free(t->nfields);
	memset(t, 0, sizeof(*t));
}

double tsv_num(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end)
		fail_msg("not a number: '%s'", s);
	return v;
}

int tsv_col(const struct tsv *t, const char *name)
{
	for (size_t j = 0; t->n > 0 && j < t->nfields[0]; j++)
		if (!strcmp(t->fields[0][j], name))
			return (int)j;
	fail_msg("no column '%s'", name);
	return -1;
}
