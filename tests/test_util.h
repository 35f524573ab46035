/*
 * test_util: what the cmocka unit tests share, so that no test file carries
 * its own copy (tests/CMakeLists.txt links test_util.c into every test).
 *
 *   - closeness and text checks that fail the running test with a message
 *     naming what was checked (cmocka's fail_msg);
 *   - a scratch folder per test program (tmp_dir_make as the group setup,
 *     tmp_dir_remove as the group teardown) and files written into it;
 *   - whole files read with plain stdio, independent of coreplan's readers;
 *   - in-memory databases: statements that must succeed, one-value queries,
 *     corpora imported in one transaction;
 *   - the tool converters on bytes in memory;
 *   - headed TSV files read with plain stdio (independent of
 *     importers/table.c), for tests that compare against a corpus's own TSV.
 *
 * Every helper that returns memory says who frees it. A failed check ends
 * the running test (cmocka longjmps out), so callers need no error paths.
 */
#ifndef COREPLAN_TESTS_TEST_UTIL_H
#define COREPLAN_TESTS_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>
#include <stdio.h>

struct run_host;
struct table;

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- checks ---- */

/* |actual - expected| <= rel * |expected| (<= rel itself when expected is 0). */
void check_close(double actual, double expected, double rel, const char *what);
/* |actual - expected| <= tol. */
void check_abs(double actual, double expected, double tol, const char *what);
/* text (NULL fails) contains part. */
void check_contains(const char *text, const char *part, const char *what);
/* text (NULL fails) contains every one of parts (NULL-terminated); a failure names the first
 * missing. */
void check_contains_all(const char *text, const char *const *parts);
/* The recorded error message (err_msg()) contains part. */
void check_msg(const char *part);
/* a and b are the same double to the bit. */
void check_same_bits(double a, double b, const char *what);

/* ---- lookups ---- */

/*
 * &array[i] for the first i < n whose string member equals name (a
 * pointer or an array of char), or a failed test naming the member.
 */
#define FIND_NAMED(array, n, member, name)                                                         \
	(&(array)[index_named(&(array)[0].member, (n), sizeof((array)[0]),                         \
			      MEMBER_IS_CHARS(&(array)[0].member), (name), #member)])
/* Is *p (a pointer to a struct member) an array of char rather than a pointer to one? */
#define MEMBER_IS_CHARS(p)                                                                         \
	_Generic((p), char **: false, const char **: false, char *const *: false,                   \
		 const char *const *: false, default: true)
size_t index_named(const void *first, size_t n, size_t stride, bool inline_chars, const char *name,
		   const char *what);
/*
 * &array[i] for the first i < n whose number member (int, size_t or double)
 * equals value, or a failed test naming the member and the value.
 */
#define FIND_WHERE(array, n, member, value)                                                        \
	(&(array)[index_where(&(array)[0].member, (n), sizeof((array)[0]),                         \
			      MEMBER_AS_DOUBLE(&(array)[0].member), (double)(value), #member)])
/* The reader of a number member, by its type. */
#define MEMBER_AS_DOUBLE(p)                                                                        \
	_Generic((p), int *: int_as_double, const int *: int_as_double, size_t *: size_as_double,   \
		 const size_t *: size_as_double, double *: double_as_double,                        \
		 const double *: double_as_double)
double int_as_double(const void *p);
double size_as_double(const void *p);
double double_as_double(const void *p);
size_t index_where(const void *first, size_t n, size_t stride, double (*as_double)(const void *),
		   double value, const char *what);

/* Group setup: GSL's abort-on-error handler off (coreplan checks GSL's return codes). */
int gsl_errors_off(void **state);

/* ---- files ---- */

/* The whole file, NUL-terminated; its length in *len when len is not NULL (caller frees). */
char *slurp(const char *path, size_t *len);
/* The number of LF bytes in the file, counted independently of the importers. */
int64_t count_lines(const char *path);
/* rm -rf dir: 0, or -1 when it fails. */
int remove_tree(const char *dir);

/* What a writer prints, in memory: memout_open's stream, then memout_text's text (caller frees). */
struct memout {
	char *buf;
	size_t len;
	FILE *fp;
};
FILE *memout_open(struct memout *m);
char *memout_text(struct memout *m);

/* ---- the scratch folder ---- */

/* Group setup and teardown: make /tmp/coreplan-test-XXXXXX; remove what tmp_put wrote and it. */
int tmp_dir_make(void **state);
int tmp_dir_remove(void **state);
/* The folder tmp_dir_make made. */
const char *tmp_dir(void);
/* Write len bytes to tmp_dir()/name; the full path (owned here, valid until tmp_dir_remove). */
const char *tmp_put(const char *name, const char *data, size_t len);
#define PUT(name, literal) tmp_put(name, literal, sizeof(literal) - 1)

/* ---- databases ---- */

/* Run sql; fail the test with the message when it fails. */
void must_exec(sqlite3 *db, const char *sql);
/*
 * Setup and teardown for a test whose state is a database: a new
 * in-memory database with sql (NULL: none) run in it, in *state; closed
 * again (and the messages cleared) by db_state_close.
 */
int db_state_open(void **state, const char *sql);
int db_state_close(void **state);
/* Close *db, set it NULL and clear the messages: a teardown's body (returns 0). */
int db_release(sqlite3 **db);
/* The first column of the first row of sql (-1 when there is no row). */
int64_t db_scalar_int(sqlite3 *db, const char *sql);
double db_scalar_real(sqlite3 *db, const char *sql);
/* Import the corpus at path with the default options in one transaction (rolled back on error). */
int import_corpus(sqlite3 *db, const char *path);
/* Import paths[0..n) with the default options in one transaction (corpus_import_all); the message
 * on stderr on failure. */
int import_all(sqlite3 *db, const char *const *paths, size_t n);
/* In-memory database with every corpus of paths imported; NULL (message on stderr) on failure. */
sqlite3 *db_of_corpora(const char *const *paths, size_t n);
/*
 * A group fixture over a file's static database: SETUP opens db with the
 * corpora at the paths given (db_of_corpora), TEARDOWN closes it.
 */
#define CORPORA_FIXTURE(db, setup, teardown, ...)                                                  \
	static int setup(void **state)                                                             \
	{                                                                                          \
		static const char *const corpora_[] = {__VA_ARGS__};                               \
		(void)state;                                                                       \
		db = db_of_corpora(corpora_, ARRAY_LEN(corpora_));                                 \
		return db ? 0 : -1;                                                                \
	}                                                                                          \
	static int teardown(void **state)                                                          \
	{                                                                                          \
		(void)state;                                                                       \
		return db_release(&db);                                                            \
	}
/* The run_id of the top-level run tag of the corpus named corpus (fails the test if absent). */
int64_t run_id_of(sqlite3 *db, const char *corpus, const char *tag);

/* A known host: name, physical cores, logical CPUs and threads per core, nothing else. */
void host_known(struct run_host *h, const char *name, size_t physical_cores, size_t logical_cpus,
		size_t threads_per_core);

/* "name=value" split at the first '=': name into name[0..size), the value returned. */
const char *split_name_value(const char *pair, char *name, size_t size);
/* The cell of table t at row, column col (fails the test when there is none). */
const char *table_cell(const struct table *t, size_t row, const char *col);
/* Each of col_values (NULL-terminated "column=text", split at the first '=') is row's cell. */
void check_row(const struct table *t, size_t row, const char *const *col_values);

/* Each of cells (NULL-terminated "row:column=text") is that cell of t. */
void check_cells(const struct table *t, const char *const *cells);

/* ---- tool converters (importers/tools.h) ---- */

/* Convert bytes in memory as format (tool_convert_table, no file column). */
int convert_as(const char *format, const char *bytes, size_t n, const char *path, struct table *t);
/* Does detection on structure (tool_classify) name this format? */
bool detects(const char *bytes, size_t n, const char *format);

/* ---- headed TSV with plain stdio ---- */

#define TSV_MAX_FIELDS 32

struct tsv {
	char **lines;                    /* each line, tabs replaced by NULs */
	char *(*fields)[TSV_MAX_FIELDS]; /* fields[i][j] points into lines[i] */
	size_t *nfields;
	size_t n;
};

/* Read path whole (fails the test on an unterminated or too long line). */
void tsv_read(const char *path, struct tsv *t);
void tsv_free(struct tsv *t);
/* The number a whole field spells (fails the test otherwise). */
double tsv_num(const char *s);
/* The column of the header line named name (fails the test if absent). */
int tsv_col(const struct tsv *t, const char *name);

#endif
