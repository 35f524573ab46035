/*
 * db: the coreplan database connection and its schema.
 *
 * db_open() opens (creating if needed) a database file, sets the
 * connection options every coreplan connection needs (foreign keys on,
 * double-quoted string literals off, WAL journal with synchronous=NORMAL
 * (OFF for the connection that created the file, synced at its close),
 * a busy timeout of DB_BUSY_TIMEOUT_MS, the SQL function coreplan_number
 * below) and brings the schema up to SCHEMA_VERSION by applying forward
 * migrations, all of them inside one transaction. Refused, never touched
 * (not even switched to WAL): a database whose user_version is newer than
 * this binary, and one that is not coreplan's: it holds schema objects but
 * no user_version with a `corpora` table (another program's file; the
 * message names its first tables).
 *
 * A read-only open of a database on storage coreplan cannot write (a
 * read-only folder or file, where a WAL database cannot create its -shm)
 * falls back to an immutable open of the file (URI immutable=1) with a
 * warning that results may be stale if another process writes it; refused
 * when a non-empty -wal file holds commits the file lacks.
 *
 * coreplan_number(X), on every connection: X when it is an integer or a
 * real, the number a text X spells by num_parse_real() (common/num.h: the
 * whole text, finite), else NULL. schema/fields.h reads a field as a
 * number through it, so that text never reads as 0.
 *
 * The schema itself (tables, views, what each column holds) is documented
 * for users of the sqlite3 shell in schema/README.md; migrations.c holds
 * the SQL. Ownership: the caller owns the sqlite3 handle and closes it with
 * db_close().
 */
#ifndef COREPLAN_DB_H
#define COREPLAN_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#define DB_BUSY_TIMEOUT_MS 5000

/* Schema versions this binary knows; migrations.c has one step per version. */
int schema_latest_version(void);
/* The SQL of migration step `version` (1-based), or NULL. */
const char *schema_migration_sql(int version);
/*
 * The schema of a new database in one script, and the version it is
 * (schema_current.c, generated from the migrations at build time by
 * schema/gen_current.c): running the seven steps on a new file
 * re-parsed the schema after every statement, a tenth of an import of 110
 * files. An old database still migrates step by step; both end with the
 * same schema text (tests/test_db.c).
 */
int schema_current_version(void);
const char *schema_current_sql(void);
/*
 * The bytes of a new database file holding that schema at that version,
 * in WAL mode (generated with it): db_open() writes a new file from them,
 * not parsing and running the script there (a sixth of an import of 110
 * files). Static; *size is their length.
 */
const unsigned char *schema_template(size_t *size);

/*
 * Open `path`. With readonly, a missing file is an error and no migration
 * runs (an older schema is refused with a message asking for a write).
 */
int db_open(const char *path, bool readonly, sqlite3 **out);
/*
 * Close (NULL: nothing). A connection whose open created the file syncs
 * it here, once, with its folder: an error then says the data was written
 * but may not be on storage yet.
 */
int db_close(sqlite3 *db);

/* Begin an IMMEDIATE transaction; a busy database is a clear error. */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
/* Roll back, keeping the error message already recorded. */
void db_rollback(sqlite3 *db);

/* Run SQL text that has no parameters and returns no rows. */
int db_exec(sqlite3 *db, const char *sql);
/* Prepare; a failure records the SQLite message. */
int db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out);
/*
 * A statement prepared once per connection and kept: the same sql pointer
 * (a string literal: the cache compares pointers, not text) on the same db
 * returns the same statement, reset and with no bindings. NULL on failure
 * (sqlite3_errmsg(db) says why). The caller never finalizes it: it calls
 * db_cached_done() when it has read what it needs (reset, bindings
 * cleared, so no bound text outlives its buffer), and db_close() finalizes
 * the connection's statements. For statements run once per file of an
 * import (a generator record's five), where preparing was a tenth of it.
 */
sqlite3_stmt *db_cached(sqlite3 *db, const char *sql);
void db_cached_done(sqlite3_stmt *stmt);
/* Step a statement expected to finish (SQLITE_DONE); resets it. */
int db_step_done(sqlite3 *db, sqlite3_stmt *stmt);
/* Record sqlite3_errmsg(db) with a context and return ERR_DATA. */
int db_error(sqlite3 *db, const char *context);

#endif
