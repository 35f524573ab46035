/*
 * db: the coreplan database connection and its schema.
 *
 * db_open() opens (creating if needed) a database file, sets the
 * connection options every coreplan connection needs (foreign keys on,
 * double-quoted string literals off, WAL journal with synchronous=NORMAL,
 * a busy timeout of DB_BUSY_TIMEOUT_MS) and brings the schema up to
 * SCHEMA_VERSION by applying forward migrations, all of them inside one
 * transaction. A database whose user_version is newer than this binary is
 * refused, never touched.
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

#define DB_BUSY_TIMEOUT_MS 5000

/* Schema versions this binary knows; migrations.c has one step per version. */
int schema_latest_version(void);
/* The SQL of migration step `version` (1-based), or NULL. */
const char *schema_migration_sql(int version);

/*
 * Open `path`. With readonly, a missing file is an error and no migration
 * runs (an older schema is refused with a message asking for a write).
 */
int db_open(const char *path, bool readonly, sqlite3 **out);
void db_close(sqlite3 *db);

/* Begin an IMMEDIATE transaction; a busy database is a clear error. */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
/* Roll back, keeping the error message already recorded. */
void db_rollback(sqlite3 *db);

/* Run SQL text that has no parameters and returns no rows. */
int db_exec(sqlite3 *db, const char *sql);
/* Prepare; a failure records the SQLite message. */
int db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out);
/* Step a statement expected to finish (SQLITE_DONE); resets it. */
int db_step_done(sqlite3 *db, sqlite3_stmt *stmt);
/* Record sqlite3_errmsg(db) with a context and return ERR_DATA. */
int db_error(sqlite3 *db, const char *context);

#endif
