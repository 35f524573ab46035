/*
 * Unit tests for schema/db.c: migrations, version refusal, connection
 * settings. Expected values follow from schema/migrations.c and the SQLite
 * documentation of PRAGMA user_version.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "schema/db.h"
#include "test_util.h"

static char dir[] = "/tmp/coreplan-test-db-XXXXXX";

static void creates_latest_schema(void **state)
{
	sqlite3 *db = NULL;
	char path[256];
	(void)state;
	snprintf(path, sizeof(path), "%s/new.db", dir);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_scalar_int(db, "PRAGMA user_version"), schema_latest_version());
	assert_int_equal(db_scalar_int(db, "PRAGMA foreign_keys"), 1);
	/* a new file: no sync per commit (OFF = 0), one at its close (see below) */
	assert_int_equal(db_scalar_int(db, "PRAGMA synchronous"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
					" AND sql LIKE '%STRICT%'"),
			 db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"));
	db_close(db);
	/* reopening is a no-op; synchronous NORMAL = 1 keeps commits across an application crash */
	assert_int_equal(db_open(path, true, &db), 0);
	db_close(db);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_scalar_int(db, "PRAGMA synchronous"), 1);
	db_close(db);
}

static void refuses_newer_database(void **state)
{
	sqlite3 *db = NULL;
	char path[256];
	(void)state;
	snprintf(path, sizeof(path), "%s/newer.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	db = NULL;
	assert_int_equal(db_open(path, false, &db), ERR_DATA);
	assert_null(db);
	assert_non_null(strstr(err_msg(), "schema version 99, newer than this coreplan"));
	assert_int_equal(db_open(path, true, &db), ERR_DATA);
}

static void readonly_refuses_missing_and_old(void **state)
{
	sqlite3 *db = NULL;
	char path[256];
	(void)state;
	snprintf(path, sizeof(path), "%s/absent.db", dir);
	assert_int_equal(db_open(path, true, &db), ERR_DATA);
	assert_non_null(strstr(err_msg(), "no database at"));
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/old.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(db_open(path, true, &db), ERR_DATA);
	assert_non_null(strstr(err_msg(), "run a writing command"));
}

/* A version-1 database gains version 2's index on open, keeping its data. */
static void migrates_forward(void **state)
{
	sqlite3 *db = NULL;
	char path[256];
	(void)state;
	snprintf(path, sizeof(path), "%s/v1.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, schema_migration_sql(1), NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 1;"
					  "INSERT INTO corpora VALUES (1, 'c', '/x', 'h', 't', 'l', 'm', '{}');",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	db = NULL;
	/* read-only commands refuse to migrate */
	assert_int_equal(db_open(path, true, &db), ERR_DATA);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_scalar_int(db, "PRAGMA user_version"), schema_latest_version());
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'runs_in_order'"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM corpora"), 1);
	db_close(db);
}

/* Every schema object (type, name, table, SQL text) of db, one a line, by name. */
static char *schema_text(sqlite3 *db)
{
	sqlite3_stmt *stmt = NULL;
	size_t len = 0, size = 1;
	char *text = calloc(1, 1);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT type || '|' || name || '|' || tbl_name || '|' ||"
					    " coalesce(sql, 'NULL') FROM sqlite_schema ORDER BY name",
					    -1, &stmt, NULL),
			 SQLITE_OK);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *line = (const char *)sqlite3_column_text(stmt, 0);
		size_t n = strlen(line);
		text = realloc(text, size += n + 1);
		assert_non_null(text);
		memcpy(text + len, line, n);
		text[len + n] = '\n';
		len += n + 1;
		text[len] = '\0';
	}
	sqlite3_finalize(stmt);
	return text;
}

/*
 * A new database gets schema_current_sql() in one step; a version-1
 * database migrates through steps 2 onwards. The independent source is the
 * migrations themselves (schema_current.c is generated from them, but by
 * another path: one script on an empty file): both must hold the same objects with the
 * same SQL text (what `sqlite3 DB .schema` prints) and the same version.
 */
static void fresh_equals_migrated(void **state)
{
	sqlite3 *fresh = NULL, *old = NULL;
	char fresh_path[256], old_path[256], *fresh_schema, *old_schema;
	(void)state;
	snprintf(fresh_path, sizeof(fresh_path), "%s/fresh.db", dir);
	snprintf(old_path, sizeof(old_path), "%s/old-v1.db", dir);
	assert_int_equal(sqlite3_open(old_path, &old), SQLITE_OK);
	assert_int_equal(sqlite3_exec(old, schema_migration_sql(1), NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(old, "PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(old);
	old = NULL;
	assert_int_equal(db_open(old_path, false, &old), 0);
	assert_int_equal(db_open(fresh_path, false, &fresh), 0);
	assert_int_equal(schema_current_version(), schema_latest_version());
	assert_int_equal(db_scalar_int(fresh, "PRAGMA user_version"),
			 db_scalar_int(old, "PRAGMA user_version"));
	fresh_schema = schema_text(fresh);
	old_schema = schema_text(old);
	/* 45 objects on version 7 (37 with SQL text, 8 automatic indexes) */
	assert_true(db_scalar_int(fresh, "SELECT count(*) FROM sqlite_schema") >= 45);
	assert_string_equal(fresh_schema, old_schema);
	free(fresh_schema);
	free(old_schema);
	db_close(fresh);
	db_close(old);
}

/* The bytes of a file, for "left byte-identical" (caller frees; *len gets the size). */
static unsigned char *file_bytes(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	long size;
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	rewind(fp);
	buf = malloc(size > 0 ? (size_t)size : 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	*len = (size_t)size;
	return buf;
}

/*
 * A new file is written from schema_template(): opened and closed with
 * nothing stored, it is byte for byte the template (so the template, not
 * the script, made it), SQLite finds it whole (integrity_check), in WAL
 * mode, at the current version, and its schema is the one the script
 * gives where no file is written (:memory:, which db_open() builds with
 * schema_current_sql()). An existing file is never replaced by it: an
 * empty one keeps its inode (empty_file_is_new checks it becomes a
 * database).
 */
static void new_file_from_template(void **state)
{
	sqlite3 *file = NULL, *mem = NULL;
	char path[256], empty[256];
	const unsigned char *want;
	unsigned char *got;
	size_t want_size, got_size;
	char *file_schema, *mem_schema;
	struct stat before, after;
	FILE *fp;
	(void)state;
	snprintf(path, sizeof(path), "%s/template.db", dir);
	assert_int_equal(db_open(path, false, &file), 0);
	db_close(file);
	want = schema_template(&want_size);
	got = file_bytes(path, &got_size);
	assert_int_equal(got_size, want_size);
	assert_memory_equal(got, want, want_size);
	free(got);
	assert_int_equal(db_open(path, false, &file), 0);
	assert_int_equal(db_open(":memory:", false, &mem), 0);
	assert_int_equal(db_scalar_int(file, "SELECT count(*) FROM pragma_integrity_check"
					  " WHERE integrity_check = 'ok'"),
			 1);
	assert_int_equal(db_scalar_int(file, "SELECT count(*) FROM pragma_journal_mode"
					  " WHERE journal_mode = 'wal'"),
			 1);
	assert_int_equal(db_scalar_int(file, "PRAGMA user_version"), schema_latest_version());
	file_schema = schema_text(file);
	mem_schema = schema_text(mem);
	assert_string_equal(file_schema, mem_schema);
	free(file_schema);
	free(mem_schema);
	db_close(file);
	db_close(mem);
	snprintf(empty, sizeof(empty), "%s/kept-inode.db", dir);
	fp = fopen(empty, "wb");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(stat(empty, &before), 0);
	assert_int_equal(db_open(empty, false, &file), 0);
	db_close(file);
	assert_int_equal(stat(empty, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
}

/*
 * A connection that created its file writes without syncing
 * (synchronous=OFF, 0) and db_close() syncs the file once; one that
 * opened an existing file keeps synchronous=NORMAL (1), as SQLite
 * documents the values (pragma.html#pragma_synchronous). A file gone
 * before the close is an error naming the sync, not a silent success.
 */
static void created_file_synced_at_close(void **state)
{
	static const char write_one[] =
		"CREATE TABLE IF NOT EXISTS scratch (x); INSERT INTO scratch VALUES (1)";
	sqlite3 *db = NULL;
	char path[256], moved[256];
	(void)state;
	snprintf(path, sizeof(path), "%s/synced.db", dir);
	snprintf(moved, sizeof(moved), "%s/synced-moved.db", dir);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_scalar_int(db, "PRAGMA synchronous"), 0);
	assert_int_equal(db_exec(db, write_one), 0);
	assert_int_equal(db_close(db), 0);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_scalar_int(db, "PRAGMA synchronous"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM scratch"), 1);
	assert_int_equal(db_close(db), 0);
	unlink(path);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_exec(db, write_one), 0);
	assert_int_equal(rename(path, moved), 0);
	assert_int_not_equal(db_close(db), 0);
	assert_non_null(strstr(err_msg(), "was written but syncing"));
	err_clear();
	/* nothing written: nothing to sync, no error */
	unlink(path);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(rename(path, moved), 0);
	assert_int_equal(db_close(db), 0);
}

/*
 * The path of database `name` in dir as a binary of that schema version
 * left it: the released steps 1 .. version, its user_version, then `rows`.
 */
static const char *old_database(const char *name, int version, const char *rows)
{
	static char path[256];
	char pragma[64];
	sqlite3 *db = NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", version);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	for (int v = 1; v <= version; v++)
		assert_int_equal(sqlite3_exec(db, schema_migration_sql(v), NULL, NULL, NULL),
				 SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, pragma, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, rows, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	return path;
}

/*
 * A version-3 database (steps 1-3 as released) gains step 4's catalogs and
 * instances (and step 7's cpu_platforms) on a writing open, keeping its corpora and hosts; a read-only
 * open refuses it and leaves it at version 3.
 */
static void migrates_3_to_4(void **state)
{
	sqlite3 *db = NULL;
	const char *path =
		old_database("v3.db", 3,
			     "INSERT INTO corpora VALUES (1, 'c', '/x', 'h', 't', 'l', 'm', '{}');"
			     "INSERT INTO hosts VALUES (1, 'h', 'sysfs', 8, 4, 1, 2, 't');");
	(void)state;
	assert_int_equal(db_open(path, true, &db), ERR_DATA);
	assert_non_null(strstr(err_msg(), "schema version 3; this coreplan needs"));
	assert_int_equal(db_open(path, false, &db), 0);
	assert_true(schema_latest_version() >= 4);
	assert_int_equal(db_scalar_int(db, "PRAGMA user_version"), schema_latest_version());
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
					" AND name IN ('catalogs', 'instances') AND sql LIKE '%STRICT%'"),
			 2);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM corpora"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM hosts"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM catalogs"), 0);
	/* the new tables' rules: a unique name, one instance per catalog, cascade */
	assert_int_equal(db_exec(db, "INSERT INTO catalogs VALUES (1, 'gce', '/g.tsv', 's', 't');"
				     "INSERT INTO instances VALUES (1, 'e2-small', 'gce', 'e2', 2, 2,"
				     " 0.25, 2, 'gce-e2', 0.01675, 'r', 's', '2026-11-29', 1, 0.25, 3, '');"),
			 0);
	assert_int_equal(db_exec(db, "INSERT INTO catalogs VALUES (2, 'gce', '/h.tsv', 's', 't')"),
			 ERR_DATA);
	assert_int_equal(db_exec(db, "INSERT INTO instances VALUES (1, 'e2-small', 'gce', 'e2', 2,"
				     " 2, 0.25, 2, 'gce-e2', 0.01675, 'r', 's', '2026-11-29', 1,"
				     " 0.25, 4, '')"),
			 ERR_DATA);
	/* threads_per_core 3 and a fraction above 1 are refused; text in vcpus too (STRICT) */
	assert_int_equal(db_exec(db, "INSERT INTO instances VALUES (1, 'x', 'gce', 'e2', 2, 3,"
				     " 1, 2, 'gce-e2', 0.1, 'r', 's', 'd', 1, 1, 5, '')"),
			 ERR_DATA);
	assert_int_equal(db_exec(db, "INSERT INTO instances VALUES (1, 'x', 'gce', 'e2', 2, 2,"
				     " 1.5, 2, 'gce-e2', 0.1, 'r', 's', 'd', 1, 1, 5, '')"),
			 ERR_DATA);
	assert_int_equal(db_exec(db, "INSERT INTO instances VALUES (1, 'x', 'gce', 'e2', 'two',"
				     " 2, 1, 2, 'gce-e2', 0.1, 'r', 's', 'd', 1, 1, 5, '')"),
			 ERR_DATA);
	assert_int_equal(db_exec(db, "DELETE FROM catalogs"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM instances"), 0);
	db_close(db);
	/* reopening read-only now works: no migration left */
	assert_int_equal(db_open(path, true, &db), 0);
	db_close(db);
}

static void foreign_keys_cascade(void **state)
{
	sqlite3 *db = NULL;
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	assert_int_equal(db_exec(db, "INSERT INTO corpora VALUES (1, 'c', '/x', 'h', 't', 'l', 'm', '{}');"
				     "INSERT INTO runs (corpus_id, tag, seq, listed) VALUES (1, 'r', 1, 1);"
				     "INSERT INTO exclusions VALUES (1, 'why', 'because');"
				     "DELETE FROM corpora;"),
			 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM runs"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM exclusions"), 0);
	/* STRICT: text in an INTEGER column is refused */
	assert_int_equal(db_exec(db, "INSERT INTO corpora VALUES ('x', 'c', '/x', 'h', 't', 'l', 'm', '{}')"),
			 ERR_DATA);
	db_close(db);
}

/*
 * A version-7 database holding a tool run's values migrates to version 8
 * (run_values rebuilt without its foreign-key clause) keeping each value
 * as it was, and deleting the corpus still removes them, now through the
 * trigger: the counts are the rows inserted here, by hand.
 */
static void migrates_7_to_8_values(void **state)
{
	sqlite3 *db = NULL;
	const char *path =
		old_database("v7.db", 7,
			     "INSERT INTO corpora VALUES (1, 'c', '/x', 'h', 't', 'l', 'm', '{}');"
			     "INSERT INTO runs (corpus_id, tag, seq, listed) VALUES (1, 'r1', 1, 1);"
			     "INSERT INTO runs (corpus_id, tag, seq, listed) VALUES (1, 'r2', 2, 1);"
			     "INSERT INTO attr_names VALUES (1, 'results', 'real_time_ns');"
			     "INSERT INTO run_values VALUES (1, 1, NULL, '357.93436424411243', 357.9);"
			     "INSERT INTO run_values VALUES (2, 1, 3, 12, NULL);");
	(void)state;
	assert_int_equal(db_open(path, false, &db), 0);
	assert_true(schema_latest_version() >= 8);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'run_values'"
					" AND sql NOT LIKE '%REFERENCES%'"),
			 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_values WHERE run_id = 1 AND"
					" value = '357.93436424411243' AND num = 357.9 AND col IS NULL"),
			 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_values WHERE run_id = 2 AND"
					" typeof(value) = 'integer' AND value = 12 AND col = 3"),
			 1);
	/* the view reads them as before */
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_attrs WHERE name = 'real_time_ns'"),
			 2);
	assert_int_equal(db_exec(db, "DELETE FROM runs WHERE tag = 'r2'"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_values"), 1);
	assert_int_equal(db_exec(db, "DELETE FROM corpora"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_values"), 0);
	db_close(db);
}

/*
 * A version-8 database's trace samples keep every value through step 9
 * (the table rebuilt without its foreign-key clause) and still go with
 * their trace, their run and their corpus (the trigger, as the cascade
 * did); a sample of another trace stays.
 */
static void migrates_8_to_9_samples(void **state)
{
	sqlite3 *db = NULL;
	const char *path = old_database(
		"v8.db", 8,
		"INSERT INTO corpora VALUES (1, 'c', '/x', 'h', 't', 'l', 'm', '{}');"
		"INSERT INTO files (file_id, corpus_id, path, size, sha256, kind) VALUES"
		" (1, 1, 's.tsv', 1, 'h', 'trace');"
		"INSERT INTO runs (run_id, corpus_id, tag, seq, listed) VALUES (1, 1, 'r1', 1, 1);"
		"INSERT INTO runs (run_id, corpus_id, tag, seq, listed) VALUES (2, 1, 'r2', 2, 1);"
		"INSERT INTO traces VALUES (1, 1, 'sample', 1, 'epoch', 2, 0);"
		"INSERT INTO traces VALUES (2, 2, 'sample', 1, 'epoch', 1, 0);"
		"INSERT INTO trace_samples (trace_id, row_no, epoch, app_rss_kb, wal_records)"
		" VALUES (1, 1, 1786868467.5, 30444, NULL), (1, 2, 1786868468, 30500, 7),"
		" (2, 1, 1786868469, 1, 2);");
	(void)state;
	assert_int_equal(db_open(path, false, &db), 0);
	assert_true(schema_latest_version() >= 9);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE"
					" name = 'trace_samples' AND sql NOT LIKE '%REFERENCES%'"),
			 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM trace_samples WHERE trace_id = 1"
					" AND ((row_no = 1 AND epoch = 1786868467.5 AND app_rss_kb ="
					" 30444 AND wal_records IS NULL) OR (row_no = 2 AND"
					" wal_records = 7))"),
			 2);
	/* the view reads them as before */
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM trace_rows WHERE tag = 'r1'"), 2);
	assert_int_equal(db_exec(db, "DELETE FROM runs WHERE tag = 'r1'"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM trace_samples"), 1);
	assert_int_equal(db_exec(db, "DELETE FROM corpora"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM trace_samples"), 0);
	db_close(db);
}

/*
 * A version-9 database's attributes, idle banner keys and field origins
 * keep every value through step 10 (the tables rebuilt without their
 * foreign-key clauses, the name index back) and still go with their run
 * and their corpus (one trigger, as the cascades did); another run's stay.
 */
static void migrates_9_to_10_run_rows(void **state)
{
	sqlite3 *db = NULL;
	const char *path = old_database(
		"v9.db", 9,
		"INSERT INTO corpora VALUES (1, 'c', '/x', 'h', 't', 'l', 'm', '{}');"
		"INSERT INTO files (file_id, corpus_id, path, size, sha256, kind) VALUES"
		" (1, 1, 'results.tsv', 1, 'h', 'results');"
		"INSERT INTO runs (run_id, corpus_id, tag, seq, listed) VALUES (1, 1, 'r1', 1, 1);"
		"INSERT INTO runs (run_id, corpus_id, tag, seq, listed) VALUES (2, 1, 'r2', 2, 1);"
		"INSERT INTO attr_rows VALUES (1, 'results', 'tput', 1, 2, 3, '1538.8', 1538.8),"
		" (2, 'results', 'tput', 1, 3, 3, '900', 900.0);"
		"INSERT INTO idle_banners VALUES (1, 'rss_kb', 1, 'ok', '30444', 30444.0),"
		" (2, 'rss_kb', 1, 'ok', '1', 1.0);"
		"INSERT INTO origin_rows VALUES (1, 'tput', 'results', 'tput'),"
		" (2, 'tput', 'results', 'tput');");
	(void)state;
	assert_int_equal(db_open(path, false, &db), 0);
	assert_true(schema_latest_version() >= 10);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE name IN"
					" ('attr_rows', 'idle_banners', 'origin_rows') AND sql NOT LIKE"
					" '%REFERENCES%'"),
			 3);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE"
					" name = 'attr_rows_by_name' AND tbl_name = 'attr_rows'"),
			 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM attr_rows WHERE run_id = 1 AND"
					" file_id = 1 AND line = 2 AND col = 3 AND value = '1538.8'"
					" AND num = 1538.8"),
			 1);
	/* the views read them as before */
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_fields WHERE run_id = 1"), 2);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM field_origins WHERE run_id = 1"),
			 1);
	assert_int_equal(db_exec(db, "DELETE FROM runs WHERE tag = 'r1'"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT (SELECT count(*) FROM attr_rows) * 100 +"
					" (SELECT count(*) FROM idle_banners) * 10 +"
					" (SELECT count(*) FROM origin_rows)"),
			 111);
	assert_int_equal(db_exec(db, "DELETE FROM corpora"), 0);
	assert_int_equal(db_scalar_int(db, "SELECT (SELECT count(*) FROM attr_rows) +"
					" (SELECT count(*) FROM idle_banners) +"
					" (SELECT count(*) FROM origin_rows)"),
			 0);
	db_close(db);
}

/*
 * Another program's database (tables, no coreplan schema) is refused by a
 * writing and a reading open, named with what it holds, and left
 * byte-identical: no coreplan table added, not switched to WAL.
 */
static void refuses_foreign_database(void **state)
{
	static const char *const cases[][2] = {
		{"CREATE TABLE users (id INTEGER, name TEXT); CREATE TABLE orders (id);"
		 "CREATE TABLE items (x); CREATE TABLE notes (y); INSERT INTO users VALUES (1, "
		 "'a');",
		 "holds 4 tables (users, orders, items, ...) and no coreplan schema"},
		{"CREATE TABLE t (x); PRAGMA user_version = 3;",
		 "holds 1 table (t) and no coreplan schema (a user_version but no table "
		 "'corpora')"},
		{"CREATE VIEW v AS SELECT 1;",
		 "holds 1 schema object (views, indexes or triggers)"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sqlite3 *db = NULL;
		char path[256], wal[300];
		unsigned char *before, *after;
		size_t nbefore, nafter;
		snprintf(path, sizeof(path), "%s/foreign%zu.db", dir, i);
		snprintf(wal, sizeof(wal), "%s-wal", path);
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, cases[i][0], NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
		db = NULL;
		before = file_bytes(path, &nbefore);
		assert_int_equal(db_open(path, false, &db), ERR_DATA);
		assert_null(db);
		if (!strstr(err_msg(), cases[i][1]))
			fail_msg("case %zu: '%s' lacks '%s'", i, err_msg(), cases[i][1]);
		assert_int_equal(db_open(path, true, &db), ERR_DATA);
		assert_non_null(strstr(err_msg(), cases[i][1]));
		after = file_bytes(path, &nafter);
		assert_int_equal(nafter, nbefore);
		assert_memory_equal(after, before, nbefore);
		assert_int_not_equal(access(wal, F_OK), 0);
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		/* journal_mode 'delete', not 'wal'; no coreplan table */
		assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM pragma_journal_mode"
						" WHERE journal_mode = 'wal'"),
				 0);
		assert_int_equal(
			db_scalar_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'corpora'"),
			0);
		sqlite3_close(db);
		free(before);
		free(after);
	}
}

/* A new empty file (0 bytes) and a coreplan database are coreplan's. */
static void empty_file_is_new(void **state)
{
	sqlite3 *db = NULL;
	char path[256];
	FILE *fp;
	(void)state;
	snprintf(path, sizeof(path), "%s/empty.db", dir);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(db_open(path, false, &db), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM pragma_journal_mode"
					" WHERE journal_mode = 'wal'"),
			 1);
	db_close(db);
	assert_int_equal(db_open(path, false, &db), 0);
	db_close(db);
}

/*
 * A new file is switched to WAL without a rollback journal (db.c journal():
 * journal_mode OFF for the first page), then must journal as any database
 * does: a rolled-back insert is gone, in a new file and in memory (where
 * WAL cannot be set and OFF would stay: the bug this guards against). The
 * expected modes are SQLite's: 'wal' for a file, 'memory' for :memory:.
 */
static void fresh_databases_roll_back(void **state)
{
	static const struct {
		const char *name; /* below dir, or :memory: */
		const char *mode;
	} cases[] = {{"fresh.db", "wal"}, {":memory:", "memory"}};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sqlite3 *db = NULL;
		char path[256], sql[128];
		if (cases[i].name[0] == ':')
			snprintf(path, sizeof(path), "%s", cases[i].name);
		else
			snprintf(path, sizeof(path), "%s/%s", dir, cases[i].name);
		assert_int_equal(db_open(path, false, &db), 0);
		snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = '%s'",
			 cases[i].mode);
		assert_int_equal(db_scalar_int(db, sql), 1);
		assert_int_equal(db_scalar_int(db, "PRAGMA synchronous"), 1);
		assert_int_equal(db_begin(db), 0);
		assert_int_equal(db_exec(db, "INSERT INTO corpora (name, source_path, content_hash, imported_at,"
					     " layout, manifest, options) VALUES ('x', '/x', 'h', 't', 'l', '', '')"),
				 0);
		db_rollback(db);
		assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM corpora"), 0);
		db_close(db);
	}
}

/* coreplan_number: numbers as they are, text only when all of it is a finite number. */
static void number_function(void **state)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *stmt = NULL;
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	assert_int_equal(db_prepare(db,
				    "WITH t(v) AS (VALUES (8), (2.5), ('800'), ('1e3'), ('plain'),"
				    " ('8 cores'), (''), ('NaN'), ('1e999'), (NULL), (x'31'))"
				    " SELECT group_concat(iif(coreplan_number(v) IS NULL, 'NULL',"
				    " printf('%g', coreplan_number(v))), ' ') FROM t",
				    &stmt),
			 0);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	/* the blob x'31' is not a number: only integers, reals and text convert */
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0),
			    "8 2.5 800 1000 NULL NULL NULL NULL NULL NULL NULL");
	sqlite3_finalize(stmt);
	db_close(db);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(creates_latest_schema),
		cmocka_unit_test(fresh_equals_migrated),
		cmocka_unit_test(refuses_newer_database),
		cmocka_unit_test(readonly_refuses_missing_and_old),
		cmocka_unit_test(migrates_forward),
		cmocka_unit_test(migrates_3_to_4),
		cmocka_unit_test(migrates_7_to_8_values),
		cmocka_unit_test(migrates_8_to_9_samples),
		cmocka_unit_test(migrates_9_to_10_run_rows),
		cmocka_unit_test(foreign_keys_cascade),
		cmocka_unit_test(refuses_foreign_database),
		cmocka_unit_test(empty_file_is_new),
		cmocka_unit_test(fresh_databases_roll_back),
		cmocka_unit_test(new_file_from_template),
		cmocka_unit_test(created_file_synced_at_close),
		cmocka_unit_test(number_function),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
