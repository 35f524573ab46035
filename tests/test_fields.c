/* Unit tests for schema/fields: --where parsing and the SQL of run filters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "schema/db.h"
#include "schema/fields.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Two corpora, five runs. Run 5 is excluded. `mode` is a results column
 * of runs 1-3 and a tag part of runs 1 and 4 (results wins for run 1);
 * `heap` is an idle-banner key of runs 1-3 and a generator key of run 3
 * (generator wins for run 3).
 */
static const char fixture_sql[] =
	"INSERT INTO corpora (corpus_id, name, source_path, content_hash, imported_at, layout,"
	"  manifest, options) VALUES"
	"  (1, 'c1', '/x/c1', 'aa', '2026-01-01T00:00:00Z', 'sky', '', ''),"
	"  (2, 'c2', '/x/c2', 'bb', '2026-01-01T00:00:00Z', 'sky', '', '');"
	"INSERT INTO files (file_id, corpus_id, path, size, sha256, kind) VALUES"
	"  (1, 1, 'idle.txt', 1, 'cc', 'idle');"
	"INSERT INTO runs (run_id, corpus_id, subcorpus, tag, seq, listed, gomaxprocs, block,"
	"  tput, valid) VALUES"
	"  (1, 1, 'g1', 't1', 1, 1, 2, '1', 100.5, 1),"
	"  (2, 1, 'g1', 't2', 2, 1, 4, '2', 200, 0),"
	"  (3, 1, 'g2', 't3', 3, 1, 8, '1', 300, 1),"
	"  (4, 2, '', 't1', 1, 0, 8, 'A', NULL, NULL),"
	"  (5, 1, 'g2', 't5', 4, 1, 2, '2', 50, 1);"
	"INSERT INTO run_attrs (run_id, source, name, value, num) VALUES"
	"  (1, 'results', 'mode', 'fast', NULL),"
	"  (2, 'results', 'mode', 'slow', NULL),"
	"  (3, 'results', 'mode', 'fast', NULL),"
	"  (1, 'tag', 'mode', 'slow', NULL),"
	"  (4, 'tag', 'mode', 'slow', NULL),"
	"  (5, 'results', 'mode', 'fast', NULL),"
	"  (1, 'generator', 'outcomes.ok', '95', 95),"
	"  (2, 'generator', 'outcomes.ok', '95.0', 95.0),"
	"  (3, 'generator', 'outcomes.ok', '12', 12),"
	"  (3, 'generator', 'heap', '7', 7);"
	"INSERT INTO idle_banners (run_id, key, file_id, status, value, num) VALUES"
	"  (1, 'heap', 1, 'ok', '512', 512),"
	"  (2, 'heap', 1, 'ok', '512', 512),"
	"  (3, 'heap', 1, 'ok', '1024', 1024);"
	"INSERT INTO exclusions (run_id, reason, detail) VALUES"
	"  (5, 'patch_rate', '0.5 below 0.9');";

static int setup(void **state)
{
	return db_state_open(state, fixture_sql);
}

/* The run_ids the filter selects, as "1,3" (ascending); caller frees. */
static char *selected(sqlite3 *db, const struct run_filter *filter)
{
	struct strbuf sql = STRBUF_INIT;
	struct strbuf ids = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	int step;
	assert_int_equal(strbuf_adds(&sql, "SELECT r.run_id FROM runs r WHERE "), 0);
	assert_int_equal(run_filter_sql(filter, &sql, &binds, &nbinds), 0);
	assert_int_equal(strbuf_adds(&sql, " ORDER BY r.run_id"), 0);
	if (db_prepare(db, sql.buf, &stmt) != 0)
		fail_msg("%s\n%s", err_msg(), sql.buf);
	assert_int_equal(sqlite3_bind_parameter_count(stmt), (int)nbinds);
	assert_int_equal(field_bind_all(stmt, 1, binds, nbinds), 0);
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW)
		assert_int_equal(strbuf_addf(&ids, "%s%lld", ids.len ? "," : "",
					     (long long)sqlite3_column_int64(stmt, 0)),
				 0);
	assert_int_equal(step, SQLITE_DONE);
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return strbuf_detach(&ids);
}

/* Build a filter from --where texts (NULL-terminated) and check its runs. */
static void expect_where(sqlite3 *db, const char *corpus, bool include_excluded, bool only_excluded,
			 const char *const *wheres, const char *expected)
{
	struct run_filter filter = {NULL, NULL, 0, include_excluded, only_excluded};
	char *got;
	if (corpus)
		filter.corpus = strdup(corpus);
	for (; wheres && *wheres; wheres++)
		assert_int_equal(run_filter_add_where(&filter, *wheres), 0);
	got = selected(db, &filter);
	if (strcmp(got, expected) != 0)
		fail_msg("runs [%s], expected [%s] (first --where: %s)", got, expected,
			 filter.nwhere ? filter.where[0].field : "none");
	free(got);
	run_filter_release(&filter);
}

#define WHERE(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_parse_where(void **state)
{
	struct run_filter filter = {NULL, NULL, 0, false, false};
	(void)state;
	assert_int_equal(run_filter_add_where(&filter, "gomaxprocs=2,4"), 0);
	assert_int_equal(run_filter_add_where(&filter, "subcorpus="), 0);
	assert_int_equal(run_filter_add_where(&filter, "block=1,,soak"), 0);
	assert_int_equal(filter.nwhere, 3);
	assert_string_equal(filter.where[0].field, "gomaxprocs");
	assert_int_equal(filter.where[0].nvalues, 2);
	assert_string_equal(filter.where[0].values[0], "2");
	assert_string_equal(filter.where[0].values[1], "4");
	/* an empty value is the empty string: the main sub-corpus */
	assert_string_equal(filter.where[1].field, "subcorpus");
	assert_int_equal(filter.where[1].nvalues, 1);
	assert_string_equal(filter.where[1].values[0], "");
	assert_int_equal(filter.where[2].nvalues, 3);
	assert_string_equal(filter.where[2].values[1], "");

	static const char *const malformed[] = {"x", "=1", ""};
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		assert_int_equal(run_filter_add_where(&filter, malformed[i]), ERR_USAGE);
		assert_non_null(strstr(err_msg(), "malformed condition"));
		assert_non_null(strstr(err_msg(), "several --where are all required"));
	}
	/* a second condition inside one --where reads as a value holding '=' */
	assert_int_equal(run_filter_add_where(&filter, "cfg=mem,target=small"), ERR_USAGE);
	assert_string_equal(
		err_msg(),
		"malformed condition 'cfg=mem,target=small': the value 'target=small' "
		"holds '=' (a comma separates values of cfg, not conditions; quote a value that "
		"holds '=': cfg=\"...\"); --where "
		"FIELD=V1,V2 keeps runs whose FIELD is any of the values (an empty value "
		"selects the empty string: --where subcorpus=); several --where are all "
		"required (--where cfg=mem --where target=small); a value holding spaces, ',' "
		"or '=' goes in double quotes: --where 'name=\"BenchmarkSort/size=16\"' (\\\" "
		"and \\\\ inside)");
	assert_int_equal(run_filter_add_where(&filter, "outcomes.ok=a=b"), ERR_USAGE);
	assert_int_equal(filter.nwhere, 3); /* errors add nothing */
	run_filter_release(&filter);
	assert_int_equal(filter.nwhere, 0);
	run_filter_release(&filter); /* twice is fine */
}

static void test_field_sql(void **state)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	(void)state;
	assert_int_equal(field_sql("tput", true, &sql, &binds, &nbinds), 0);
	assert_string_equal(sql.buf, "r.tput");
	assert_int_equal(nbinds, 0);
	strbuf_reset(&sql);
	assert_int_equal(field_sql("it's", false, &sql, &binds, &nbinds), 0);
	assert_null(strstr(sql.buf, "it's")); /* bound, never pasted */
	assert_non_null(strstr(sql.buf, "f.value"));
	assert_int_equal(nbinds, 1);
	assert_string_equal(binds[0], "it's");
	strbuf_reset(&sql);
	assert_int_equal(field_sql("heap", true, &sql, &binds, &nbinds), 0);
	assert_non_null(strstr(sql.buf, "f.num"));
	assert_int_equal(nbinds, 2);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
}

/* field_sql as a value: the first source in the documented order wins. */
static void test_field_sql_value(void **state)
{
	sqlite3 *db = *state;
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	assert_int_equal(strbuf_adds(&sql, "SELECT group_concat(coalesce(v, 'NA'), ' ') FROM "
					   "(SELECT "),
			 0);
	assert_int_equal(field_sql("heap", true, &sql, &binds, &nbinds), 0);
	assert_int_equal(strbuf_adds(&sql, " AS v FROM runs r ORDER BY r.run_id)"), 0);
	assert_int_equal(db_prepare(db, sql.buf, &stmt), 0);
	assert_int_equal(field_bind_all(stmt, 1, binds, nbinds), 0);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "512.0 512.0 7.0 NA NA");
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
}

static void test_no_filter(void **state)
{
	sqlite3 *db = *state;
	expect_where(db, NULL, false, false, NULL, "1,2,3,4");
	expect_where(db, NULL, true, false, NULL, "1,2,3,4,5");
	expect_where(db, NULL, false, true, NULL, "5");
	expect_where(db, NULL, true, true, NULL, "5"); /* only wins */
}

static void test_canonical(void **state)
{
	sqlite3 *db = *state;
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=8"), "3,4");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=8.0"), "3,4");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=8e0"), "3,4");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=2"), "1");
	expect_where(db, NULL, true, false, WHERE("gomaxprocs=2"), "1,5");
	expect_where(db, NULL, false, true, WHERE("gomaxprocs=2"), "5");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=3"), "");
	expect_where(db, NULL, false, false, WHERE("tput=100.5"), "1");
	expect_where(db, NULL, false, false, WHERE("tput=200"), "2");
	/* block is TEXT: compared as text */
	expect_where(db, NULL, false, false, WHERE("block=1"), "1,3");
	expect_where(db, NULL, false, false, WHERE("block=A"), "4");
	expect_where(db, NULL, false, false, WHERE("block=a"), "");
	/* booleans take 0/1 and words */
	expect_where(db, NULL, false, false, WHERE("valid=true"), "1,3");
	expect_where(db, NULL, false, false, WHERE("valid=1"), "1,3");
	expect_where(db, NULL, false, false, WHERE("valid=no"), "2");
}

/*
 * A field's unit for a column head: the units are the ones schema/README.md's
 * field table lists (tput interactions/s, p50_ms ms; ns_per_op is a
 * well-known Go field, no column of runs).
 */
static void test_field_unit(void **state)
{
	(void)state;
	assert_string_equal(field_unit("tput"), "interactions/s");
	assert_string_equal(field_unit("p50_ms"), "ms");
	assert_string_equal(field_unit("ns_per_op"), "");
	assert_string_equal(field_unit("no_such_field"), "");
	assert_string_equal(field_unit(NULL), "");
	assert_string_equal(field_known_unit("ns_per_op"), "ns/op");
	assert_string_equal(field_known_unit("tput"), "interactions/s");
	assert_string_equal(field_known_unit("iterations"), "");
	assert_string_equal(field_known_unit(NULL), "");
}

static void test_attributes(void **state)
{
	sqlite3 *db = *state;
	/* results beats tag for run 1 */
	expect_where(db, NULL, false, false, WHERE("mode=fast"), "1,3");
	expect_where(db, NULL, false, false, WHERE("mode=slow"), "2,4");
	expect_where(db, NULL, true, false, WHERE("mode=fast"), "1,3,5");
	/* text "95" and number 95.0 both match 95 */
	expect_where(db, NULL, false, false, WHERE("outcomes.ok=95"), "1,2");
	expect_where(db, NULL, false, false, WHERE("outcomes.ok=95.0"), "1,2");
	expect_where(db, NULL, false, false, WHERE("outcomes.ok=12"), "3");
	/* generator beats idle for run 3 */
	expect_where(db, NULL, false, false, WHERE("heap=512"), "1,2");
	expect_where(db, NULL, false, false, WHERE("heap=1024"), "");
	expect_where(db, NULL, false, false, WHERE("heap=7"), "3");
	expect_where(db, NULL, false, false, WHERE("nosuch=1"), "");
}

static void test_multi_value_and_several(void **state)
{
	sqlite3 *db = *state;
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=2,4"), "1,2");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=2,8"), "1,3,4");
	expect_where(db, NULL, false, false, WHERE("mode=fast,slow"), "1,2,3,4");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=2,4,8", "block=1"), "1,3");
	expect_where(db, NULL, false, false, WHERE("gomaxprocs=2,4,8", "block=1", "mode=slow"), "");
	expect_where(db, NULL, false, false, WHERE("mode=slow", "heap=512"), "2");
	expect_where(db, NULL, true, false, WHERE("block=2", "mode=fast,slow"), "2,5");
}

static void test_corpus(void **state)
{
	sqlite3 *db = *state;
	expect_where(db, "c2", false, false, NULL, "4");
	expect_where(db, "c1", false, false, WHERE("gomaxprocs=8"), "3");
	expect_where(db, "c1", false, true, NULL, "5");
	expect_where(db, "nope", true, false, NULL, "");
}

static void test_injection_is_harmless(void **state)
{
	sqlite3 *db = *state;
	const char *evil = "'; DROP TABLE runs; --";
	char where[128];
	snprintf(where, sizeof(where), "block=%s", evil);
	expect_where(db, NULL, false, false, WHERE(where), "");
	snprintf(where, sizeof(where), "mode=%s", evil);
	expect_where(db, NULL, false, false, WHERE(where), "");
	snprintf(where, sizeof(where), "%s=1", evil); /* as a field name */
	expect_where(db, NULL, false, false, WHERE(where), "");
	expect_where(db, evil, true, false, NULL, ""); /* as a corpus name */
	expect_where(db, "c1' OR '1'='1", true, false, NULL, "");
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM runs"), 5);
}

/* The one field check: known names pass, a typo names its neighbour, exit code 2 everywhere. */
static void test_field_check(void **state)
{
	sqlite3 *db = *state;
	struct run_filter filter = {NULL, NULL, 0, false, false};
	assert_int_equal(field_check(db, "tput"), 0);
	assert_int_equal(field_check(db, "subcorpus"), 0);
	assert_int_equal(field_check(db, "outcomes.ok"), 0);
	assert_int_equal(field_check(db, "heap"), 0); /* an idle-banner key */
	assert_int_equal(field_check(db, "gomaxproc"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "no field 'gomaxproc' (did you mean 'gomaxprocs'?)"));
	assert_int_equal(field_check(db, "mdoe"), ERR_USAGE); /* a run column, transposed */
	assert_non_null(strstr(err_msg(), "did you mean 'mode'?"));
	assert_int_equal(field_check(db, "zzzzzzzzzzzz"), ERR_USAGE);
	assert_null(strstr(err_msg(), "did you mean"));
	assert_int_equal(corpus_check(db, "c3"), ERR_USAGE);
	assert_string_equal(err_msg(), "no corpus named 'c3' (imported: c1, c2)");
	filter.corpus = strdup("c1");
	assert_int_equal(run_filter_add_where(&filter, "nosuch=1"), 0);
	assert_int_equal(run_filter_check(db, &filter), ERR_USAGE);
	run_filter_release(&filter);
}

/* An arm's conditions: space- or ';'-separated, each its own AND term. */
static void test_conditions(void **state)
{
	struct run_filter f = {NULL, NULL, 0, false, false};
	(void)state;
	assert_int_equal(run_filter_add_conditions(&f, " gomaxprocs=2,4;block=1  mode=fast", "--a"),
			 0);
	assert_int_equal(f.nwhere, 3);
	assert_string_equal(f.where[1].field, "block");
	assert_string_equal(f.where[2].values[0], "fast");
	expect_where(*state, NULL, false, false, WHERE("gomaxprocs=2,4", "block=1", "mode=fast"),
		     "1");
	assert_int_equal(run_filter_add_conditions(&f, "  ", "--b"), ERR_USAGE);
	assert_string_equal(err_msg(), "--b needs at least one FIELD=VALUE condition, got '  '");
	run_filter_release(&f);
}

/* "has no value": run 4 has no tput, run 5 no 'heap' (and is excluded). */
static void test_missing(void **state)
{
	struct run_filter f = {NULL, NULL, 0, true, false};
	char *got;
	assert_int_equal(run_filter_add_missing(&f, "tput"), 0);
	got = selected(*state, &f);
	assert_string_equal(got, "4");
	free(got);
	run_filter_release(&f);
	f.include_excluded = true;
	assert_int_equal(run_filter_add_missing(&f, "heap"), 0);
	got = selected(*state, &f);
	assert_string_equal(got, "4,5");
	free(got);
	run_filter_release(&f);
}

/* The main sub-corpus is selected by the empty string. */
static void test_empty_value(void **state)
{
	expect_where(*state, NULL, true, false, WHERE("subcorpus="), "4");
	expect_where(*state, NULL, true, false, WHERE("subcorpus=,g2"), "3,4,5");
}

/* The text values of one field expression over runs 1-5, "fast slow NA ...". */
static char *values_of(sqlite3 *db, const char *field, bool numeric)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	char *out;
	assert_int_equal(strbuf_adds(&sql, "SELECT group_concat(coalesce(v, 'NA'), ' ') FROM "
					   "(SELECT "),
			 0);
	assert_int_equal(field_sql(field, numeric, &sql, &binds, &nbinds), 0);
	assert_int_equal(strbuf_adds(&sql, " AS v FROM runs r ORDER BY r.run_id)"), 0);
	if (db_prepare(db, sql.buf, &stmt) != 0)
		fail_msg("%s\n%s", err_msg(), sql.buf);
	assert_int_equal(field_bind_all(stmt, 1, binds, nbinds), 0);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	out = strdup((const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return out;
}

static void expect_values(sqlite3 *db, const char *field, bool numeric, const char *expected)
{
	char *got = values_of(db, field, numeric);
	if (strcmp(got, expected))
		fail_msg("%s: [%s], expected [%s]", field, got, expected);
	free(got);
}

/* FIELD@SOURCE: one source's column, bound, never pasted. */
static void test_field_at_source_sql(void **state)
{
	sqlite3 *db = *state;
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0, len = 0;
	assert_string_equal(field_source_of("xact_per_s@join", &len), "join");
	assert_int_equal(len, 10);
	assert_null(field_source_of("xact_per_s", &len));
	assert_int_equal(len, 10);
	assert_int_equal(field_sql("mode@tag", false, &sql, &binds, &nbinds), 0);
	assert_null(strstr(sql.buf, "mode")); /* neither the name nor the source is pasted */
	assert_null(strstr(sql.buf, "'tag'"));
	assert_non_null(strstr(sql.buf, "f.source = ?"));
	assert_int_equal(nbinds, 2);
	assert_string_equal(binds[0], "mode");
	assert_string_equal(binds[1], "tag");
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	/* the fixture (top of this file): mode is results fast/slow/fast, tag slow for 1 and 4 */
	expect_values(db, "mode@results", false, "fast slow fast NA fast");
	expect_values(db, "mode@tag", false, "slow NA NA slow NA");
	expect_values(db, "mode", false, "fast slow fast slow fast");
	/* heap: idle 512 512 1024; the plain name reads generator's 7 for run 3 */
	expect_values(db, "heap@idle", true, "512.0 512.0 1024.0 NA NA");
	expect_values(db, "heap", true, "512.0 512.0 7.0 NA NA");
	/* a canonical name with a source reads that source, not the column */
	expect_values(db, "gomaxprocs@results", true, "NA NA NA NA NA");
	expect_where(db, NULL, false, false, WHERE("mode@tag=slow"), "1,4");
	expect_where(db, NULL, false, false, WHERE("mode@results=slow"), "2");
	expect_where(db, NULL, false, false, WHERE("heap@idle=1024"), "3");
	expect_where(db, NULL, false, false, WHERE("heap=1024"), "");
}

/*
 * A text column read as a number is the number its text spells, else NULL,
 * never 0 (sqlite3_column_double of 'A' would read 0): block holds '1', '2',
 * '1', 'A', '2'; tags and sub-corpora are words.
 */
static void test_text_as_number(void **state)
{
	sqlite3 *db = *state;
	expect_values(db, "block", false, "1 2 1 A 2");
	expect_values(db, "block", true, "1.0 2.0 1.0 NA 2.0");
	expect_values(db, "tag", true, "NA NA NA NA NA");
	expect_values(db, "subcorpus", true, "NA NA NA NA NA");
	expect_values(db, "corpus", true, "NA NA NA NA NA");
	/* numeric columns are unchanged */
	expect_values(db, "gomaxprocs", true, "2 4 8 8 2");
}

/* The check: a known source holding the field passes; else the sources it has. */
static void test_field_at_source_check(void **state)
{
	sqlite3 *db = *state;
	assert_int_equal(field_check(db, "mode@tag"), 0);
	assert_int_equal(field_check(db, "heap@idle"), 0);
	assert_int_equal(field_check(db, "mode@foo"), ERR_USAGE);
	assert_string_equal(err_msg(), "unknown source 'foo' in 'mode@foo': the sources of 'mode' "
				       "are results, tag (FIELD@SOURCE takes results, join, "
				       "generator, idle, acct, tag or set)");
	assert_int_equal(field_check(db, "mode@generator"), ERR_USAGE);
	assert_string_equal(err_msg(),
			    "no run has 'mode' in source 'generator' "
			    "('mode@generator'): the sources of 'mode' are results, tag");
	assert_int_equal(field_check(db, "heap@results"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "the sources of 'heap' are generator, idle"));
	assert_int_equal(field_check(db, "nosuch@results"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "none: no run has a column of that name"));
	assert_int_equal(field_check(db, "@results"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "needs a field before '@'"));
}

/* A table's preference (field_prefs) picks the source a plain name reads, per run. */
static void test_field_prefs(void **state)
{
	sqlite3 *db = *state;
	/* corpus c1, sub-corpus g1 (runs 1, 2) prefers the tag part of mode */
	assert_int_equal(db_exec(db, "INSERT INTO field_prefs (corpus_id, subcorpus, name, source)"
				     " VALUES (1, 'g1', 'mode', 'tag')"),
			 0);
	/* run 1 reads tag's slow; run 2 has no tag part, so results' slow; run 3 is in g2 */
	expect_values(db, "mode", false, "slow slow fast slow fast");
	expect_where(db, NULL, false, false, WHERE("mode=slow"), "1,2,4");
	expect_where(db, NULL, false, false, WHERE("mode=fast"), "3");
	/* FIELD@SOURCE ignores the preference */
	expect_where(db, NULL, false, false, WHERE("mode@results=fast"), "1,3");
	/* a preference for another table changes nothing here */
	assert_int_equal(db_exec(db, "DELETE FROM field_prefs; INSERT INTO field_prefs VALUES"
				     " (2, '', 'mode', 'results')"),
			 0);
	expect_values(db, "mode", false, "fast slow fast slow fast");
	assert_int_equal(db_exec(db, "DELETE FROM field_prefs"), 0);
}

/* --pool: a list of fields carried by the filter, copied, described, never SQL. */
static void test_pool_list(void **state)
{
	struct run_filter f = {0}, copy;
	struct strbuf sb = STRBUF_INIT;
	char *got;
	assert_int_equal(run_filter_add_pool(&f, "gogc,block"), 0);
	assert_int_equal(run_filter_add_pool(&f, "block,variant"), 0); /* block once */
	assert_int_equal(f.npool, 3);
	assert_string_equal(f.pool[2], "variant");
	assert_int_equal(run_filter_add_pool(&f, "gogc,"), ERR_USAGE);
	assert_int_equal(run_filter_copy(&copy, &f), 0);
	assert_int_equal(copy.npool, 3);
	assert_int_equal(run_filter_describe(&copy, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "all corpora, pooling gogc,block,variant");
	got = selected(*state, &copy); /* not a condition: every non-excluded run */
	assert_string_equal(got, "1,2,3,4");
	free(got);
	strbuf_release(&sb);
	run_filter_release(&copy);
	run_filter_release(&f);
}

/* Kinds and directions: canonical, inferred from the name, given, assumed. */
static void test_metric_meaning(void **state)
{
	static const struct {
		const char *name;
		enum field_kind kind;
		bool lower, kind_assumed, direction_assumed;
	} want[] = {
		{"tput", FIELD_KIND_RATE, false, false, false},
		{"p99_ms", FIELD_KIND_LATENCY, true, false, false},
		{"err", FIELD_KIND_FRACTION, true, false, false},
		{"patch_rate", FIELD_KIND_FRACTION, false, false, false},
		{"gen_cpu_pct", FIELD_KIND_CPU, true, false, false},
		{"load_rss_kb", FIELD_KIND_MEMORY, true, false, false},
		{"sessions", FIELD_KIND_COUNT, false, false, true},
		/* capacity corpus columns (results.tsv, system.tsv) */
		{"xact_per_s", FIELD_KIND_RATE, false, false, false},
		{"load_app_kb", FIELD_KIND_MEMORY, true, false, false},
		{"idle_mem_avail_kb", FIELD_KIND_MEMORY, false, false, false},
		{"app_cpu_pct", FIELD_KIND_CPU, true, false, false},
		{"machine_busy_cores", FIELD_KIND_CPU, true, false, false},
		{"p50", FIELD_KIND_LATENCY, true, false, false},
		/* the write-up tables */
		{"qps", FIELD_KIND_RATE, false, false, false},
		{"ns_per_op", FIELD_KIND_TIME, true, false, false},
		{"Gbps", FIELD_KIND_RATE, false, false, false},
		{"efficiency", FIELD_KIND_FRACTION, false, false, false},
		{"avg_MHz", FIELD_KIND_RATE, false, true, true},
		/* tool fields (schema/fields_list.c's field_known, importers/tool_*.c's names) */
		{"B_per_op", FIELD_KIND_MEMORY, true, false, false},
		{"allocs_per_op", FIELD_KIND_COUNT, true, false, false},
		{"MB_per_s", FIELD_KIND_RATE, false, false, false},
		{"time_s", FIELD_KIND_TIME, true, false, false},
		{"requests_per_s", FIELD_KIND_RATE, false, false, false},
		{"latency_avg_ms", FIELD_KIND_LATENCY, true, false, false},
		{"real_time_ns", FIELD_KIND_TIME, true, false, false},
		{"mem_avail_min_kb", FIELD_KIND_MEMORY, false, false, false},
		{"cycles_per_int", FIELD_KIND_RATE, true, true, false},
		/* a generator-record key: no kind, but an error word */
		{"outcomes.transport_error", FIELD_KIND_RATE, true, true, false},
		{"error_count", FIELD_KIND_COUNT, true, false, false},
	};
	struct metric_meaning m;
	enum field_kind k = FIELD_KIND_TIME;
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		field_metric_meaning(want[i].name, NULL, false, &m);
		if (m.kind != want[i].kind || m.lower_is_better != want[i].lower ||
		    m.kind_assumed != want[i].kind_assumed ||
		    m.direction_assumed != want[i].direction_assumed)
			fail_msg("%s: kind %s lower %d assumed %d/%d (%s; %s)", want[i].name,
				 field_kind_name(m.kind), m.lower_is_better, m.kind_assumed,
				 m.direction_assumed, m.kind_from, m.direction_from);
	}
	/* --metric-kind time: lower is better by the kind, said as the source */
	field_metric_meaning("avg_MHz", &k, false, &m);
	assert_int_equal(m.kind, FIELD_KIND_TIME);
	assert_true(m.lower_is_better);
	assert_false(m.kind_assumed);
	assert_string_equal(m.kind_from, "--metric-kind");
	/* --lower-is-better wins over the kind */
	field_metric_meaning("qps", NULL, true, &m);
	assert_true(m.lower_is_better);
	assert_string_equal(m.direction_from, "--lower-is-better");
	/* every canonical field has a kind; the quantities a direction */
	for (size_t i = 0; i < field_canonical_count; i++) {
		const struct field_info *f = &field_canonical[i];
		if (f->type == FIELD_REAL && f->kind == FIELD_KIND_LABEL)
			fail_msg("canonical %s is a number without a kind", f->name);
	}
	/* the kinds a unit says (common/units.h) */
	assert_int_equal(units_kind_of_unit("ns/op"), FIELD_KIND_TIME);
	assert_int_equal(units_kind_of_unit("sec/op"), FIELD_KIND_TIME);
	assert_int_equal(units_kind_of_unit("B/op"), FIELD_KIND_MEMORY);
	assert_int_equal(units_kind_of_unit("allocs/op"), FIELD_KIND_COUNT);
	assert_int_equal(units_kind_of_unit("MB/s"), FIELD_KIND_RATE);
	assert_int_equal(units_kind_of_unit("kB"), FIELD_KIND_MEMORY);
	assert_int_equal(units_kind_of_unit("cores"), FIELD_KIND_CPU);
	assert_int_equal(units_kind_of_unit("sessions"), FIELD_KIND_LABEL);
	assert_int_equal(field_kind_parse("latency", &k), 0);
	assert_int_equal(k, FIELD_KIND_LATENCY);
	assert_int_equal(field_kind_parse("ratio", &k), 0);
	assert_int_equal(k, FIELD_KIND_RATIO);
	assert_int_equal(field_kind_parse("fraction", &k), 0);
	assert_int_equal(k, FIELD_KIND_FRACTION);
	assert_int_equal(field_kind_parse("workers", &k), -1);
	assert_int_equal(field_kind_parse("label", &k), -1);
	assert_true(field_counts_workers("gomaxprocs"));
	assert_true(field_counts_workers("cores"));
	/* only fields known to count workers (hyperfine's parameter n is not one) */
	assert_false(field_counts_workers("N"));
	assert_false(field_counts_workers("jobs"));
	assert_true(field_level_counts_workers("N", "N"));
	assert_false(field_level_counts_workers("N", "jobs"));
	assert_true(field_counts_workers("Threads"));
	assert_false(field_counts_workers("sessions"));
	assert_false(field_counts_workers("app_cores"));
	assert_false(field_counts_workers("conversations"));
}

/*
 * Fields only attribute sets hold (Go runs' file, note, ...): corpus 3's
 * runs 6 and 7 share set 1, runs 8 and 9 set 2; `file` and `cnt` are set
 * rows only, `mixed` is a set row and run 6's own value, `orphan` is held
 * by set 3, which no run has. The runs each condition selects are listed
 * by hand from these rows; the generic filter must select the same.
 */
static const char sets_sql[] =
	"SAVEPOINT sets;"
	"INSERT INTO corpora (corpus_id, name, source_path, content_hash, imported_at, layout,"
	"  manifest, options) VALUES (3, 'go', '/x/go', 'dd', '2026-01-01T00:00:00Z', 'gobench',"
	"  '', '');"
	"INSERT INTO attr_sets (set_id, corpus_id) VALUES (1, 3), (2, 3), (3, 3);"
	"INSERT INTO runs (run_id, corpus_id, subcorpus, tag, seq, listed, attr_set) VALUES"
	"  (6, 3, '', 'g1', 1, 1, 1), (7, 3, '', 'g2', 2, 1, 1), (8, 3, '', 'g3', 3, 1, 2),"
	"  (9, 3, '', 'g4', 4, 1, 2);"
	"INSERT INTO attr_names (name_id, source, name) VALUES (101, 'results', 'file'),"
	"  (102, 'results', 'mixed'), (103, 'results', 'cnt'), (104, 'results', 'orphan');"
	"INSERT INTO set_attrs (set_id, name_id, value, num) VALUES"
	"  (1, 101, 'old.txt', NULL), (2, 101, 'new.txt', NULL), (1, 102, 'x', NULL),"
	"  (1, 103, '2', 2), (2, 103, '3', 3), (3, 104, 'o', NULL);"
	"INSERT INTO run_values (run_id, name_id, value) VALUES (6, 102, 'y');";

/* The runs of corpus 3 that `where` selects as a set condition, as "6,7". */
static char *selected_per_set(sqlite3 *db, const char *where, int64_t name_id)
{
	struct run_filter f = {NULL, NULL, 0, true, false};
	struct strbuf sql = STRBUF_INIT, ids = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	assert_int_equal(run_filter_add_where(&f, where), 0);
	assert_int_equal(
		strbuf_adds(&sql, "SELECT r.run_id FROM runs r WHERE r.corpus_id = 3 AND "), 0);
	assert_int_equal(field_set_where_sql(&f.where[0], name_id, &sql, &binds, &nbinds), 0);
	assert_int_equal(strbuf_adds(&sql, " ORDER BY r.run_id"), 0);
	if (db_prepare(db, sql.buf, &stmt) != 0)
		fail_msg("%s\n%s", err_msg(), sql.buf);
	assert_int_equal(field_bind_all(stmt, 1, binds, nbinds), 0);
	while (sqlite3_step(stmt) == SQLITE_ROW)
		strbuf_addf(&ids, "%s%lld", ids.len ? "," : "", sqlite3_column_int64(stmt, 0));
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	run_filter_release(&f);
	return strbuf_detach(&ids);
}

static void expect_per_set(sqlite3 *db, const char *where, int64_t name_id, const char *expected)
{
	char *got = selected_per_set(db, where, name_id);
	char generic[64];
	snprintf(generic, sizeof(generic), "corpus=go");
	if (strcmp(got, expected) != 0)
		fail_msg("%s per set: runs [%s], expected [%s]", where, got, expected);
	free(got);
	expect_where(db, NULL, true, false, WHERE(generic, where), expected);
}

static void test_set_only(void **state)
{
	sqlite3 *db = *state;
	const char *not_set_only[] = {"mixed", "orphan",       "mode",   "heap",
				      "tput",  "file@results", "corpus", "nosuch"};
	int64_t id = -1;
	assert_int_equal(db_exec(db, sets_sql), 0);
	assert_int_equal(field_set_only(db, "file", &id), 0);
	assert_int_equal(id, 101);
	assert_int_equal(field_set_only(db, "cnt", &id), 0);
	assert_int_equal(id, 103);
	for (size_t i = 0; i < ARRAY_LEN(not_set_only); i++) {
		assert_int_equal(field_set_only(db, not_set_only[i], &id), 0);
		if (id != 0)
			fail_msg("%s: name id %lld, expected 0 (not set-only)", not_set_only[i],
				 (long long)id);
	}
	expect_per_set(db, "file=old.txt", 101, "6,7");
	expect_per_set(db, "file=new.txt,old.txt", 101, "6,7,8,9");
	expect_per_set(db, "file=nosuch.txt", 101, "");
	expect_per_set(db, "cnt=2", 103, "6,7");   /* text '2' and number 2 */
	expect_per_set(db, "cnt=3.0", 103, "8,9"); /* the number only */
	assert_int_equal(db_exec(db, "ROLLBACK TO sets; RELEASE sets;"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_check),
		cmocka_unit_test(test_empty_value),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_parse_where),
		cmocka_unit_test(test_field_sql),
		cmocka_unit_test(test_field_sql_value),
		cmocka_unit_test(test_no_filter),
		cmocka_unit_test(test_canonical),
		cmocka_unit_test(test_field_unit),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_multi_value_and_several),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_injection_is_harmless),
		cmocka_unit_test(test_field_at_source_sql),
		cmocka_unit_test(test_text_as_number),
		cmocka_unit_test(test_field_at_source_check),
		cmocka_unit_test(test_field_prefs),
		cmocka_unit_test(test_pool_list),
		cmocka_unit_test(test_metric_meaning),
		cmocka_unit_test(test_set_only), /* last: it adds rows, then rolls them back */
	};
	return cmocka_run_group_tests(tests, setup, db_state_close);
}
