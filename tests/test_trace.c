/*
 * Unit tests for importers/trace: headerless traces streamed into
 * trace_samples / trace_extra of an in-memory database (db_open(":memory:")).
 * Real traces come from SHARED_CORPORA; hand-made ones are written into a
 * mkdtemp directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "importers/trace.h"
#include "schema/db.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SHARED_CORPORA
#define SHARED_CORPORA "../shared/corpora"
#endif
#define GOMAXPROCS SHARED_CORPORA "/sky/gomaxprocs-scaling-20260816"
#define CAPACITY SHARED_CORPORA "/sky/gcp-x86-capacity-20260816"

static const char *const sample_cols[] = {"epoch",       "app_rss_kb", "mem_avail_kb", "conn",
					  "cpu_total_j", "cpu_idle_j", "app_j",        "threads"};
static const char *const capacity_cols[] = {
	"epoch",       "app_rss_kb", "pg_rss_kb", "pg_nproc", "pg_backends", "mem_avail_kb", "conn",
	"cpu_total_j", "cpu_idle_j", "app_j",     "pg_j",     "xact_commit", "wal_records"};
static const char *const core_cols[] = {"epoch", "app_rss_kb", "app_j"};

static const struct trace_spec sample_spec = {8, sample_cols, '\t'};
static const struct trace_spec capacity_spec = {13, capacity_cols, 0};
static const struct trace_spec core_spec = {3, core_cols, '\t'};

struct fixture {
	sqlite3 *db;
	struct trace_writer *w;
	int64_t next_trace;
};

/* A database with one corpus, file and run; each test adds traces to it. */
static int setup_db(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f || db_open(":memory:", false, &f->db) != 0) {
		free(f);
		return -1;
	}
	must_exec(f->db, "INSERT INTO corpora (corpus_id, name, source_path, content_hash, "
			 "imported_at, layout, manifest, options) "
			 "VALUES (1, 't', '.', '', 'now', 'test', '', '')");
	must_exec(f->db, "INSERT INTO files (file_id, corpus_id, path, size, sha256, kind) "
			 "VALUES (1, 1, 'x.tsv', 0, '', 'trace')");
	must_exec(f->db, "INSERT INTO runs (run_id, corpus_id, tag, seq, listed) "
			 "VALUES (1, 1, 'r', 1, 1)");
	if (trace_writer_new(f->db, &f->w) != 0) {
		db_close(f->db);
		free(f);
		return -1;
	}
	f->next_trace = 1;
	*state = f;
	return 0;
}

static int teardown_db(void **state)
{
	struct fixture *f = *state;
	trace_writer_free(f->w);
	db_close(f->db);
	free(f);
	return 0;
}

/* A fresh traces row (kind must be unique per run). */
static int64_t new_trace(struct fixture *f)
{
	char sql[200];
	int64_t id = f->next_trace++;
	snprintf(sql, sizeof(sql),
		 "INSERT INTO traces (trace_id, run_id, kind, file_id, columns, rows) "
		 "VALUES (%lld, 1, 'k%lld', 1, '', 0)",
		 (long long)id, (long long)id);
	must_exec(f->db, sql);
	return id;
}

static double query_real(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	double v;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The integer a query returns (-999 for NULL), with the trace id bound to ?1. */
static int64_t query_trace(sqlite3 *db, const char *sql, int64_t trace_id)
{
	sqlite3_stmt *st = NULL;
	int64_t v = 0;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_bind_int64(st, 1, trace_id), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -999 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int import(struct fixture *f, int64_t id, const char *path, const char *display,
		  const struct trace_spec *spec, struct trace_stats *stats)
{
	return trace_writer_import(f->w, id, path, display, spec, stats, NULL, NULL);
}

/* Import a hand-made trace that must be refused with exactly `message`. */
static void expect_refused(struct fixture *f, const char *name, const char *data, size_t len,
			   const struct trace_spec *spec, const char *message)
{
	struct trace_stats stats = {7, 7};
	int64_t id = new_trace(f);
	const char *path = tmp_put(name, data, len);
	assert_int_equal(import(f, id, path, name, spec, &stats), ERR_DATA);
	assert_string_equal(err_msg(), message);
	assert_int_equal(stats.rows, 0);
}

/* A hand-made trace (NAME holding the literal text) and the whole message of its refusal. */
struct refusal {
	const char *name;
	const char *text;
	size_t len;
	const struct trace_spec *spec;
	const char *message;
};
#define REFUSAL(name, text, spec, message)                                                         \
	{                                                                                          \
		name, text, sizeof(text) - 1, spec, message                                        \
	}

static void check_refusals(struct fixture *f, const struct refusal *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_refused(f, r[i].name, r[i].text, r[i].len, r[i].spec, r[i].message);
}

static void test_canonical_columns(void **state)
{
	size_t n = 0;
	(void)state;
	while (trace_canonical_columns[n])
		n++;
	assert_int_equal(n, 14);
	assert_string_equal(trace_canonical_columns[0], "epoch");
	assert_string_equal(trace_canonical_columns[13], "wal_records");
	assert_true(trace_is_canonical("pg_j"));
	assert_true(trace_is_canonical("threads"));
	assert_false(trace_is_canonical("conn8000"));
	assert_false(trace_is_canonical("row_no"));
}

static void test_real_gomaxprocs_sample(void **state)
{
	struct fixture *f = *state;
	const char *path = GOMAXPROCS "/runs/g1-n100-b1/sample.tsv";
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	int64_t lines = count_lines(path);
	assert_int_equal(lines, 81);
	if (import(f, id, path, "runs/g1-n100-b1/sample.tsv", &sample_spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, lines);
	assert_int_equal(stats.backsteps, 0);
	assert_int_equal(
		query_trace(f->db, "SELECT count(*) FROM trace_samples WHERE trace_id = ?1", id),
		lines);
	/* first line: 1786868355 27680 32156956 0 620915 573140 1 5 */
	assert_int_equal(
		query_trace(f->db,
			    "SELECT epoch = 1786868355 AND app_rss_kb = 27680 AND "
			    "mem_avail_kb = 32156956 AND conn = 0 AND cpu_total_j = 620915 "
			    "AND cpu_idle_j = 573140 AND app_j = 1 AND threads = 5 AND "
			    "typeof(epoch) = 'real' AND pg_j IS NULL FROM trace_samples "
			    "WHERE trace_id = ?1 AND row_no = 1",
			    id),
		1);
	/* awk -F'\t' '{s+=$7} END{print s}' runs/g1-n100-b1/sample.tsv -> 194263 */
	assert_int_equal(
		query_trace(f->db, "SELECT sum(app_j) FROM trace_samples WHERE trace_id = ?1", id),
		194263);
	assert_int_equal(
		query_trace(f->db, "SELECT max(row_no) FROM trace_samples WHERE trace_id = ?1", id),
		lines);
}

static void test_real_capacity_samples(void **state)
{
	struct fixture *f = *state;
	const char *path = CAPACITY "/samples/medium-mem-n100-b1r1.tsv";
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	int64_t lines = count_lines(path);
	assert_int_equal(lines, 134);
	if (import(f, id, path, "samples/medium-mem-n100-b1r1.tsv", &capacity_spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, lines);
	assert_int_equal(
		query_trace(f->db, "SELECT count(*) FROM trace_samples WHERE trace_id = ?1", id),
		lines);
	/* 1786850636 31480 0 0 -1 3531792 0 297669 292779 7 0 -1 -1 */
	assert_int_equal(
		query_trace(f->db,
			    "SELECT epoch = 1786850636 AND app_rss_kb = 31480 AND "
			    "pg_rss_kb = 0 AND pg_nproc = 0 AND pg_backends = -1 AND "
			    "mem_avail_kb = 3531792 AND conn = 0 AND cpu_total_j = 297669 AND "
			    "cpu_idle_j = 292779 AND app_j = 7 AND pg_j = 0 AND "
			    "xact_commit = -1 AND wal_records = -1 AND threads IS NULL "
			    "FROM trace_samples WHERE trace_id = ?1 AND row_no = 1",
			    id),
		1);
}

static void test_real_core_fractional_epoch(void **state)
{
	struct fixture *f = *state;
	const char *path = CAPACITY "/core/core-mem-p5-n25-r1/sample.tsv";
	struct trace_stats stats = {0};
	char sql[200];
	int64_t id;
	int64_t lines = count_lines(path);
	assert_int_equal(lines, 215);
	/* an 8-column import first, with the same writer: its bindings must not leak */
	id = new_trace(f);
	if (import(f, id, GOMAXPROCS "/runs/g1-n100-b1/sample.tsv", "sample.tsv", &sample_spec,
		   &stats) != 0)
		fail_msg("%s", err_msg());
	id = new_trace(f);
	if (import(f, id, path, "core/core-mem-p5-n25-r1/sample.tsv", &core_spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, lines);
	snprintf(sql, sizeof(sql),
		 "SELECT epoch FROM trace_samples WHERE trace_id = %lld AND row_no = 1",
		 (long long)id);
	assert_true(query_real(f->db, sql) == 1786851073.330280369);
	snprintf(sql, sizeof(sql),
		 "SELECT epoch FROM trace_samples WHERE trace_id = %lld AND row_no = %lld",
		 (long long)id, (long long)lines);
	assert_true(query_real(f->db, sql) == 1786851129.085991639);
	/* columns not in the spec are NULL, even after an 8-column import */
	assert_int_equal(query_trace(f->db,
				     "SELECT count(*) FROM trace_samples WHERE trace_id = ?1 AND "
				     "(mem_avail_kb IS NOT NULL OR threads IS NOT NULL OR "
				     "cpu_total_j IS NOT NULL)",
				     id),
			 0);
}

static void test_real_backsteps(void **state)
{
	struct fixture *f = *state;
	const char *path = CAPACITY "/samples/small-pg-n300-bsoakr5.tsv";
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	if (import(f, id, path, "samples/small-pg-n300-bsoakr5.tsv", &capacity_spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, count_lines(path));
	/*
	 * Expected count, computed independently: a step back of app_j ($10)
	 * or pg_j ($11) to no less than half of the previous row's value.
	 *   awk -F'\t' 'NR > 1 && $10 < a && 2 * $10 >= a { n++ }
	 *               NR > 1 && $11 < p && 2 * $11 >= p { n++ }
	 *               { a = $10; p = $11 } END { print n + 0 }' \
	 *       samples/small-pg-n300-bsoakr5.tsv          -> 3
	 */
	assert_int_equal(stats.backsteps, 3);
	/* awk -F'\t' '{s+=$12} END{print s}' samples/small-pg-n300-bsoakr5.tsv */
	assert_int_equal(
		query_trace(f->db, "SELECT sum(xact_commit) FROM trace_samples WHERE trace_id = ?1",
			    id),
		22732718);
}

static void test_every_capacity_trace_imports(void **state)
{
	static const char *const tags[] = {"medium-pg-n300-b2r1", "medium-pg-n500-b1r1",
					   "small-pg-n300-bsoakr7", "small-pg-n500-b2r1"};
	struct fixture *f = *state;
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		char path[400];
		struct trace_stats stats = {0};
		int64_t id = new_trace(f);
		snprintf(path, sizeof(path), "%s/samples/%s.tsv", CAPACITY, tags[i]);
		if (import(f, id, path, tags[i], &capacity_spec, &stats) != 0)
			fail_msg("%s", err_msg());
		assert_int_equal(stats.rows, count_lines(path));
		assert_true(stats.backsteps >= 1);
	}
}

static void test_crlf_na_and_no_final_newline(void **state)
{
	struct fixture *f = *state;
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	const char *path = PUT("crlf.tsv", "100\t1\t2\t3\t10\t5\t7\t4\r\n"
					   "101\tNA\t2\tNA\t11\t6\tNA\t4\r\n"
					   "102\t1\t2\t3\t12\t7\t8\t4");
	if (import(f, id, path, "crlf.tsv", &sample_spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, 3);
	assert_int_equal(query_trace(f->db,
				     "SELECT count(*) FROM trace_samples WHERE trace_id = ?1 "
				     "AND row_no = 2 AND app_rss_kb IS NULL AND conn IS NULL AND "
				     "app_j IS NULL AND threads = 4",
				     id),
			 1);
	assert_int_equal(query_trace(f->db,
				     "SELECT threads FROM trace_samples WHERE trace_id = ?1 "
				     "AND row_no = 3",
				     id),
			 4);
}

static void test_empty_file(void **state)
{
	struct fixture *f = *state;
	struct trace_stats stats = {5, 5};
	int64_t id = new_trace(f);
	const char *path = PUT("empty.tsv", "");
	assert_int_equal(import(f, id, path, "empty.tsv", &sample_spec, &stats), 0);
	assert_int_equal(stats.rows, 0);
	assert_int_equal(stats.backsteps, 0);
}

static void test_extra_columns_and_comma(void **state)
{
	struct fixture *f = *state;
	static const char *const cols[] = {"epoch", "temp_c", "app_j", "conn8000"};
	const struct trace_spec spec = {4, cols, ','};
	struct trace_stats stats = {0};
	char sql[300];
	int64_t id = new_trace(f);
	const char *path = PUT("extra.csv", "1,21.5,10,3\n2,NA,11,4\n");
	if (import(f, id, path, "extra.csv", &spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, 2);
	assert_int_equal(
		query_trace(f->db, "SELECT count(*) FROM trace_extra WHERE trace_id = ?1", id), 4);
	snprintf(sql, sizeof(sql),
		 "SELECT value FROM trace_extra WHERE trace_id = %lld AND row_no = 1 AND "
		 "name = 'temp_c'",
		 (long long)id);
	assert_true(query_real(f->db, sql) == 21.5);
	assert_int_equal(query_trace(f->db,
				     "SELECT value FROM trace_extra WHERE trace_id = ?1 AND "
				     "row_no = 2 AND name = 'temp_c'",
				     id),
			 -999); /* NA is NULL */
	assert_int_equal(query_trace(f->db,
				     "SELECT value FROM trace_extra WHERE trace_id = ?1 AND "
				     "row_no = 2 AND name = 'conn8000'",
				     id),
			 4);
	assert_int_equal(query_trace(f->db,
				     "SELECT app_j FROM trace_samples WHERE trace_id = ?1 AND "
				     "row_no = 2",
				     id),
			 11);
}

static void test_counter_rules(void **state)
{
	struct fixture *f = *state;
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	/* app_j 100 -> 50 (exactly half: a backstep), NA, 40 (from 50: backstep) */
	const char *path = PUT("back.tsv", "1\t1\t1\t1\t10\t5\t100\t1\n"
					   "2\t1\t1\t1\t10\t5\t50\t1\n"
					   "2\t1\t1\t1\t11\t5\tNA\t1\n"
					   "3\t1\t1\t1\t12\t6\t40\t1\n"
					   "3\t1\t1\t1\t12\t6\t41\t1\n");
	if (import(f, id, path, "back.tsv", &sample_spec, &stats) != 0)
		fail_msg("%s", err_msg());
	assert_int_equal(stats.rows, 5);
	assert_int_equal(stats.backsteps, 2);
}

static int64_t progress_calls[8];
static size_t nprogress;

static void on_progress(int64_t rows, void *arg)
{
	(void)arg;
	if (nprogress < 8)
		progress_calls[nprogress] = rows;
	nprogress++;
}

static void test_progress_callback(void **state)
{
	struct fixture *f = *state;
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	size_t n = 140000, len = 0;
	char *data = malloc(n * 16);
	const char *path;
	static const char *const cols[] = {"epoch", "app_j"};
	const struct trace_spec spec = {2, cols, 0};
	assert_non_null(data);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(data + len, "%zu\t%zu\n", i, i);
	path = tmp_put("progress.tsv", data, len);
	free(data);
	nprogress = 0;
	assert_int_equal(trace_writer_import(f->w, id, path, "progress.tsv", &spec, &stats,
					     on_progress, NULL),
			 0);
	assert_int_equal(stats.rows, (int64_t)n);
	assert_int_equal(nprogress, 2);
	assert_int_equal(progress_calls[0], 65536);
	assert_int_equal(progress_calls[1], 131072);
	/* every row is there, numbered by line (batches and the remainder) */
	assert_int_equal(
		query_trace(f->db, "SELECT count(*) FROM trace_samples WHERE trace_id = ?1", id),
		(int64_t)n);
	assert_int_equal(query_trace(f->db,
				     "SELECT sum(row_no - 1 = app_j) FROM trace_samples "
				     "WHERE trace_id = ?1",
				     id),
			 (int64_t)n);
}

/* Specs a trace cannot have: no epoch, a column named twice, a delimiter not TAB or comma. */
static const char *const no_epoch[] = {"app_j", "conn"};
static const char *const twice[] = {"epoch", "app_j", "app_j"};
static const struct trace_spec no_epoch_spec = {2, no_epoch, 0};
static const struct trace_spec twice_spec = {3, twice, 0};
static const struct trace_spec semicolon_spec = {8, sample_cols, ';'};

/* Hand-made traces refused, each with its whole message (counted by hand). */
static const struct refusal refusals[] = {
	REFUSAL("few.tsv", "1\t1\t1\t1\t10\t5\t7\t1\n2\t1\t1\t1\t10\t5\t7\n", &sample_spec,
		"few.tsv:2:8: line has 7 fields, expected 8"),
	REFUSAL("many.tsv", "1\t1\t1\t1\t10\t5\t7\t1\t9\t9\n", &sample_spec,
		"many.tsv:1:9: line has 10 fields, expected 8"),
	REFUSAL("commas.tsv", "1,1,1,1,10,5,7,1\n", &sample_spec,
		"commas.tsv:1:2: line has 1 field, expected 8"),
	REFUSAL("blank.tsv", "1\t1\t1\t1\t10\t5\t7\t1\n\n2\t1\t1\t1\t10\t5\t7\t1\n", &sample_spec,
		"blank.tsv:2:1: blank line (expected 8 fields)"),
	REFUSAL("word.tsv", "1\t1\t1\t1\t10\t5\t7\t1\n2\t1\tabc\t1\t10\t5\t7\t1\n", &sample_spec,
		"word.tsv:2:3: 'abc' is not an integer (column mem_avail_kb)"),
	REFUSAL("real.tsv", "1\t1.5\t1\t1\t10\t5\t7\t1\n", &sample_spec,
		"real.tsv:1:2: '1.5' is not an integer (column app_rss_kb)"),
	REFUSAL("space.tsv", "1\t 1\t1\t1\t10\t5\t7\t1\n", &sample_spec,
		"space.tsv:1:2: ' 1' is not an integer (column app_rss_kb)"),
	REFUSAL("emptyfield.tsv", "1\t1\t\t1\t10\t5\t7\t1\n", &sample_spec,
		"emptyfield.tsv:1:3: empty field (column mem_avail_kb)"),
	REFUSAL("badepoch.tsv", "1e999\t1\t1\t1\t10\t5\t7\t1\n", &sample_spec,
		"badepoch.tsv:1:1: '1e999' is not a number (column epoch)"),
	REFUSAL("naepoch.tsv", "NA\t1\t1\t1\t10\t5\t7\t1\n", &sample_spec,
		"naepoch.tsv:1:1: epoch is missing (NA)"),
	REFUSAL("order.tsv", "5\t1\t1\t1\t10\t5\t7\t1\n4\t1\t1\t1\t10\t5\t7\t1\n", &sample_spec,
		"order.tsv:2:1: epoch 4 is earlier than the previous row's 5 (rows out of "
		"time order)"),
	REFUSAL("total.tsv", "1\t1\t1\t1\t10\t5\t7\t1\n2\t1\t1\t1\t9\t5\t7\t1\n", &sample_spec,
		"total.tsv:2:5: counter cpu_total_j went back from 10 to 9 (counter reset)"),
	REFUSAL("idle.tsv", "1\t1\t1\t1\t10\t5\t7\t1\n2\t1\t1\t1\t10\t4\t7\t1\n", &sample_spec,
		"idle.tsv:2:6: counter cpu_idle_j went back from 5 to 4 (counter reset)"),
	REFUSAL("appreset.tsv", "1\t1\t1\t1\t10\t5\t100\t1\n2\t1\t1\t1\t10\t5\t49\t1\n",
		&sample_spec,
		"appreset.tsv:2:7: counter app_j fell from 100 to 49, below half of the "
		"previous row's value (counter reset)"),
	/* the rule compares with the last value seen, across NA rows */
	REFUSAL("nareset.tsv",
		"1\t1\t1\t1\t10\t5\t7\t1\n2\t1\t1\t1\tNA\t5\t7\t1\n3\t1\t1\t1\t8\t5\t7\t1\n",
		&sample_spec,
		"nareset.tsv:3:5: counter cpu_total_j went back from 10 to 8 (counter reset)"),
	REFUSAL("nul.tsv",
		"1\t1\t1\t1\t10\t5\t7\t1\n2\t1\t1\t1\t1\0"
		"0\t5\t7\t1\n",
		&sample_spec, "nul.tsv:2:5: NUL byte (binary data)"),
	REFUSAL("cr.tsv", "1\t1\t1\r1\t1\t10\t5\t7\t1\n", &sample_spec,
		"cr.tsv:1:3: '1?1' is not an integer (column mem_avail_kb)"),
	REFUSAL("noepoch.tsv", "1\t2\n", &no_epoch_spec,
		"'noepoch.tsv': the trace spec has no 'epoch' column"),
	REFUSAL("twice.tsv", "1\t2\t3\n", &twice_spec,
		"'twice.tsv': trace column 'app_j' is named twice"),
	REFUSAL("semicolon.tsv", "1\n", &semicolon_spec,
		"'semicolon.tsv': trace delimiter must be a TAB or a comma"),
};

static void test_refusals(void **state)
{
	check_refusals(*state, refusals, ARRAY_LEN(refusals));
}

/* The capacity corpus's counters: a reset is refused. */
static const struct refusal capacity_counter_refusals[] = {
	REFUSAL("xact.tsv",
		"1\t1\t1\t1\t1\t1\t1\t10\t5\t7\t7\t100\t50\n"
		"2\t1\t1\t1\t1\t1\t1\t10\t5\t7\t7\t99\t50\n",
		&capacity_spec,
		"xact.tsv:2:12: counter xact_commit went back from 100 to 99 (counter reset)"),
	REFUSAL("wal.tsv",
		"1\t1\t1\t1\t1\t1\t1\t10\t5\t7\t7\t100\t50\n"
		"2\t1\t1\t1\t1\t1\t1\t10\t5\t7\t7\t100\t49\n",
		&capacity_spec,
		"wal.tsv:2:13: counter wal_records went back from 50 to 49 (counter reset)"),
	REFUSAL("pgj.tsv",
		"1\t1\t1\t1\t1\t1\t1\t10\t5\t7\t1000\t100\t50\n"
		"2\t1\t1\t1\t1\t1\t1\t10\t5\t7\t10\t100\t50\n",
		&capacity_spec,
		"pgj.tsv:2:11: counter pg_j fell from 1000 to 10, below half of the previous "
		"row's value (counter reset)"),
};

static void test_capacity_counter_refusals(void **state)
{
	check_refusals(*state, capacity_counter_refusals, ARRAY_LEN(capacity_counter_refusals));
}

static void test_long_line(void **state)
{
	struct fixture *f = *state;
	size_t n = TRACE_MAX_LINE + 10;
	char *data = malloc(n + 1);
	int64_t id = new_trace(f);
	struct trace_stats stats = {0};
	const char *path;
	assert_non_null(data);
	memcpy(data, "1\t2\t", 4);
	memset(data + 4, '7', n - 4);
	data[n] = '\n';
	path = tmp_put("long.tsv", data, n + 1);
	assert_int_equal(import(f, id, path, "long.tsv", &core_spec, &stats), ERR_DATA);
	assert_string_equal(err_msg(), "long.tsv:1:3: line longer than 1048576 bytes");
	/* the same with no LF at all, after a good line */
	memcpy(data, "1\t2\t3\n", 6);
	memset(data + 6, '7', n - 6);
	id = new_trace(f);
	path = tmp_put("long2.tsv", data, n);
	assert_int_equal(import(f, id, path, "long2.tsv", &core_spec, &stats), ERR_DATA);
	assert_string_equal(err_msg(), "long2.tsv:2:1: line longer than 1048576 bytes");
	free(data);
}

static void test_duplicate_rows_fail_cleanly(void **state)
{
	struct fixture *f = *state;
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	const char *path = PUT("twice.tsv", "1\t2\t3\n");
	assert_int_equal(import(f, id, path, "twice.tsv", &core_spec, &stats), 0);
	/* the same rows again violate the primary key: a clear error, no crash */
	assert_int_equal(import(f, id, path, "twice.tsv", &core_spec, &stats), ERR_DATA);
	assert_non_null(strstr(err_msg(), "cannot store the rows of 'twice.tsv'"));
	/*
	 * Since schema version 9 no foreign key refuses a trace_id without a
	 * traces row (the importer writes samples just after their trace); the
	 * samples go with their trace (trigger trace_samples_with_trace)
	 */
	assert_int_equal(db_exec(f->db, "DELETE FROM traces"), 0);
	assert_int_equal(db_scalar_int(f->db, "SELECT count(*) FROM trace_samples"), 0);
}

static void test_missing_file(void **state)
{
	struct fixture *f = *state;
	struct trace_stats stats = {0};
	int64_t id = new_trace(f);
	assert_int_equal(
		import(f, id, "/nonexistent/sample.tsv", "runs/x/sample.tsv", &sample_spec, &stats),
		ERR_DATA);
	assert_string_equal(err_msg(),
			    "cannot open 'runs/x/sample.tsv': No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonical_columns),
		cmocka_unit_test_setup_teardown(test_real_gomaxprocs_sample, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_real_capacity_samples, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_real_core_fractional_epoch, setup_db,
						teardown_db),
		cmocka_unit_test_setup_teardown(test_real_backsteps, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_every_capacity_trace_imports, setup_db,
						teardown_db),
		cmocka_unit_test_setup_teardown(test_crlf_na_and_no_final_newline, setup_db,
						teardown_db),
		cmocka_unit_test_setup_teardown(test_empty_file, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_extra_columns_and_comma, setup_db,
						teardown_db),
		cmocka_unit_test_setup_teardown(test_counter_rules, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_progress_callback, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_refusals, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_capacity_counter_refusals, setup_db,
						teardown_db),
		cmocka_unit_test_setup_teardown(test_long_line, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_duplicate_rows_fail_cleanly, setup_db,
						teardown_db),
		cmocka_unit_test_setup_teardown(test_missing_file, setup_db, teardown_db),
	};
	return cmocka_run_group_tests_name("trace", tests, tmp_dir_make, tmp_dir_remove);
}
