/* db: see db.h. */
#include "db.h"

#include "../common/err.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int db_error(sqlite3 *db, const char *context)
{
	int code = sqlite3_extended_errcode(db);
	if (code == SQLITE_BUSY || (code & 0xff) == SQLITE_BUSY)
		return err_set("%s: database busy: another coreplan process held the lock for "
			       "more than %d ms",
			       context, DB_BUSY_TIMEOUT_MS);
	return err_set("%s: %s", context, sqlite3_errmsg(db));
}

int db_exec(sqlite3 *db, const char *sql)
{
	char *message = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
		int rc = db_error(db, "database");
		sqlite3_free(message);
		return rc;
	}
	return 0;
}

int db_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out)
{
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) != SQLITE_OK)
		return db_error(db, "cannot prepare statement");
	return 0;
}

int db_step_done(sqlite3 *db, sqlite3_stmt *stmt)
{
	int rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(db, "database write failed");
	return 0;
}

int db_begin(sqlite3 *db)
{
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(db, "cannot start a transaction");
	return 0;
}

int db_commit(sqlite3 *db)
{
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int rc = db_error(db, "cannot commit");
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return 0;
}

void db_rollback(sqlite3 *db)
{
	if (sqlite3_get_autocommit(db) == 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static int user_version(sqlite3 *db, int *version)
{
	sqlite3_stmt *stmt = NULL;
	int rc = db_prepare(db, "PRAGMA user_version", &stmt);
	if (rc)
		return rc;
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		rc = db_error(db, "cannot read the schema version");
	} else {
		*version = sqlite3_column_int(stmt, 0);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int refuse_newer(const char *path, int version)
{
	return err_set("'%s' has schema version %d, newer than this coreplan (version %d): "
		       "use a newer coreplan or another database",
		       path, version, schema_latest_version());
}

/* Apply every missing step in one transaction, re-reading the version under the lock. */
static int migrate(sqlite3 *db, const char *path)
{
	char pragma[64];
	int version = 0;
	int rc = db_begin(db);
	if (rc)
		return rc;
	rc = user_version(db, &version);
	if (rc)
		goto done;
	if (version > schema_latest_version()) {
		rc = refuse_newer(path, version);
		goto done;
	}
	for (int step = version + 1; step <= schema_latest_version(); step++) {
		rc = db_exec(db, schema_migration_sql(step));
		if (rc) {
			err_prefix("schema migration to version %d", step);
			goto done;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", step);
		rc = db_exec(db, pragma);
		if (rc)
			goto done;
	}
	rc = db_commit(db);
	return rc;
done:
	db_rollback(db);
	return rc;
}

static int configure(sqlite3 *db, bool readonly)
{
	int rc;
	sqlite3_busy_timeout(db, DB_BUSY_TIMEOUT_MS);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)NULL);
	sqlite3_extended_result_codes(db, 1);
	rc = db_exec(db, "PRAGMA foreign_keys = ON");
	if (rc)
		return rc;
	if (!readonly) {
		/*
		 * WAL lets a `runs` query read the last committed state while an
		 * import writes; NORMAL keeps every commit across an application
		 * crash (only an OS crash may lose the newest commit).
		 */
		rc = db_exec(db, "PRAGMA journal_mode = WAL");
		if (rc)
			return rc;
		rc = db_exec(db, "PRAGMA synchronous = NORMAL");
	}
	return rc;
}

static bool is_busy(sqlite3 *db)
{
	return db && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_BUSY;
}

static int open_once(const char *path, bool readonly, sqlite3 **out, bool *busy);

/*
 * Switching a fresh database to WAL and migrating it take locks for which
 * SQLite does not always call the busy handler (another process may be
 * doing the same at that moment): retry the whole open until
 * DB_BUSY_TIMEOUT_MS has passed, then report the busy database.
 */
int db_open(const char *path, bool readonly, sqlite3 **out)
{
	struct timespec pause = {0, 50 * 1000 * 1000};
	int waited_ms = 0;
	for (;;) {
		bool busy = false;
		int rc = open_once(path, readonly, out, &busy);
		if (rc == 0 || !busy || waited_ms >= DB_BUSY_TIMEOUT_MS)
			return rc;
		nanosleep(&pause, NULL);
		waited_ms += 50;
	}
}

static int open_once(const char *path, bool readonly, sqlite3 **out, bool *busy)
{
	sqlite3 *db = NULL;
	int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	int version = 0;
	int rc;
	*out = NULL;
	if (readonly && access(path, F_OK) != 0)
		return err_set("no database at '%s': run 'coreplan import' first (or pass --db)",
			       path);
	/* one thread per process: no need for SQLite's per-call mutexes */
	if (sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		rc = err_set("cannot open database '%s': %s", path,
			     db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return rc;
	}
	rc = configure(db, readonly);
	if (rc == 0)
		rc = user_version(db, &version);
	if (rc) {
		err_prefix("'%s'", path);
		goto fail;
	}
	if (version > schema_latest_version()) {
		rc = refuse_newer(path, version);
		goto fail;
	}
	if (version < schema_latest_version()) {
		if (readonly) {
			rc = err_set("'%s' has schema version %d; this coreplan needs %d: run a "
				     "writing command (e.g. 'coreplan import') to migrate it",
				     path, version, schema_latest_version());
			goto fail;
		}
		rc = migrate(db, path);
		if (rc)
			goto fail;
	}
	*out = db;
	return 0;
fail:
	*busy = is_busy(db);
	sqlite3_close(db);
	return rc;
}

void db_close(sqlite3 *db)
{
	sqlite3_close(db);
}
