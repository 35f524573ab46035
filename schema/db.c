/* db: see db.h. */
/* O_TMPFILE (Linux; without it, new files are created by SQLite as before) */
#define _GNU_SOURCE
#include "db.h"

#include "../common/err.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int db_error(sqlite3 *db, const char *context)
{
	int code = sqlite3_extended_errcode(db);
	if (code == SQLITE_BUSY || (code & 0xff) == SQLITE_BUSY)
		return err_set("%s: database busy: another coreplan process held the lock for "
			       "more than %d ms",
			       context, DB_BUSY_TIMEOUT_MS);
	/* "disk I/O error" alone hides a full disk: the system's reason is said too */
	if (((code & 0xff) == SQLITE_IOERR || (code & 0xff) == SQLITE_FULL ||
	     (code & 0xff) == SQLITE_CANTOPEN) &&
	    sqlite3_system_errno(db) != 0)
		return err_set("%s: %s: %s", context, sqlite3_errmsg(db),
			       strerror(sqlite3_system_errno(db)));
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

/* db_cached()'s statements, of every open connection */
struct cached_stmt {
	sqlite3 *db;
	const char *sql;
	sqlite3_stmt *stmt;
};
static struct cached_stmt *cached;
static size_t ncached;

sqlite3_stmt *db_cached(sqlite3 *db, const char *sql)
{
	struct cached_stmt *grown;
	sqlite3_stmt *stmt = NULL;
	for (size_t i = 0; i < ncached; i++)
		if (cached[i].db == db && cached[i].sql == sql)
			return cached[i].stmt;
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
		return NULL;
	grown = realloc(cached, (ncached + 1) * sizeof(*grown));
	if (!grown) {
		sqlite3_finalize(stmt);
		return NULL;
	}
	cached = grown;
	cached[ncached++] = (struct cached_stmt){db, sql, stmt};
	return stmt;
}

void db_cached_done(sqlite3_stmt *stmt)
{
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
}

/* Finalize db's cached statements (before it closes: open statements keep it open). */
static void uncache(sqlite3 *db)
{
	size_t kept = 0;
	for (size_t i = 0; i < ncached; i++) {
		if (cached[i].db == db)
			sqlite3_finalize(cached[i].stmt);
		else
			cached[kept++] = cached[i];
	}
	ncached = kept;
	if (ncached == 0) {
		free(cached);
		cached = NULL;
	}
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

/*
 * Is the database coreplan's to write? A new one (no schema object at all)
 * or one with a user_version and coreplan's `corpora` table is; anything
 * else belongs to another program: refused, naming what it holds, before
 * anything (the WAL switch, a migration) touches the file.
 */
static int check_owner(sqlite3 *db, const char *path)
{
	sqlite3_stmt *stmt = NULL;
	struct strbuf names = STRBUF_INIT;
	int64_t tables = 0, objects = 0;
	bool corpora = false;
	int version = 0;
	/*
	 * The version and the schema in one statement, so one snapshot: an
	 * import creating the schema beside us is seen either not at all or
	 * whole (a separate PRAGMA could read the version before its commit and
	 * the tables after).
	 */
	int rc = db_prepare(db,
			    "SELECT (SELECT user_version FROM pragma_user_version), type, name"
			    " FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%'"
			    " ESCAPE '\\' ORDER BY rowid",
			    &stmt);
	int step;
	if (rc)
		return rc;
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(stmt, 1);
		const char *name = (const char *)sqlite3_column_text(stmt, 2);
		version = sqlite3_column_int(stmt, 0);
		objects++;
		if (!type || strcmp(type, "table"))
			continue;
		corpora |= name && !strcmp(name, "corpora");
		if (tables < 3)
			strbuf_addf(&names, "%s%s", tables ? ", " : "", name ? name : "");
		else if (tables == 3)
			strbuf_adds(&names, ", ...");
		tables++;
	}
	if (step != SQLITE_DONE)
		rc = db_error(db, "cannot read the schema");
	sqlite3_finalize(stmt);
	if (rc == 0 && objects > 0 && !(version > 0 && corpora)) {
		if (tables > 0)
			rc = err_set("'%s' holds %lld table%s (%s) and no coreplan schema%s: it "
				     "belongs to another program and is left as it is (pass --db "
				     "with a new file)",
				     path, (long long)tables, tables == 1 ? "" : "s",
				     strbuf_str(&names),
				     version > 0 ? " (a user_version but no table 'corpora')" : "");
		else
			rc = err_set("'%s' holds %lld schema object%s (views, indexes or triggers) "
				     "and no coreplan schema: it belongs to another program and is "
				     "left as it is (pass --db with a new file)",
				     path, (long long)objects, objects == 1 ? "" : "s");
	}
	strbuf_release(&names);
	return rc;
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
	/* another program may have created tables since the first look */
	rc = check_owner(db, path);
	if (rc)
		goto done;
	if (version == 0) {
		/* a new file (check_owner: no schema object): the current schema at once */
		rc = db_exec(db, schema_current_sql());
		if (rc) {
			err_prefix("creating the schema (version %d)", schema_current_version());
			goto done;
		}
		version = schema_latest_version();
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", version);
		rc = db_exec(db, pragma);
		if (rc)
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

/* coreplan_number(X): see db.h. */
static void sql_number(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	double value;
	(void)argc;
	switch (sqlite3_value_type(argv[0])) {
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		sqlite3_result_value(ctx, argv[0]);
		return;
	case SQLITE_TEXT:
		if (num_parse_real((const char *)sqlite3_value_text(argv[0]), &value) == 0) {
			sqlite3_result_double(ctx, value);
			return;
		}
		break;
	}
	sqlite3_result_null(ctx);
}

/* What every connection needs, before the file is read. */
static int configure(sqlite3 *db)
{
	sqlite3_busy_timeout(db, DB_BUSY_TIMEOUT_MS);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)NULL);
	sqlite3_extended_result_codes(db, 1);
	if (sqlite3_create_function(db, "coreplan_number", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
				    sql_number, NULL, NULL) != SQLITE_OK)
		return db_error(db, "cannot register coreplan_number");
	return db_exec(db, "PRAGMA foreign_keys = ON");
}

/* The database's pages (PRAGMA page_count); -1 when it cannot be read. */
static int64_t pages_of(sqlite3 *db)
{
	sqlite3_stmt *stmt = NULL;
	int64_t pages = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW)
		pages = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return pages;
}

static bool is_wal(sqlite3 *db)
{
	sqlite3_stmt *stmt = NULL;
	bool wal = false;
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW)
		wal = sqlite3_column_text(stmt, 0) &&
		      !strcmp((const char *)sqlite3_column_text(stmt, 0), "wal");
	sqlite3_finalize(stmt);
	return wal;
}

/*
 * WAL lets a `runs` query read the last committed state while an import
 * writes; NORMAL keeps every commit across an application crash (only an
 * OS crash may lose the newest commit). Persistent: only for a database
 * check_owner() found to be coreplan's.
 */
static int journal(sqlite3 *db)
{
	int rc = 0;
	/*
	 * A file with no page yet (just created): the switch writes its first
	 * page without a rollback journal and its syncs (a journal created,
	 * synced with its folder, deleted: four fdatasync calls). A crash
	 * meanwhile leaves a file with no schema, which the next open takes
	 * for a new one. Not in memory (no file name): WAL cannot be set
	 * there, and OFF would stay, without rollback.
	 */
	const char *file = sqlite3_db_filename(db, "main");
	bool fresh = file && *file && pages_of(db) == 0;
	if (fresh)
		rc = db_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF");
	if (rc == 0)
		rc = db_exec(db, "PRAGMA journal_mode = WAL");
	/* storage without WAL (no shared memory): a rollback journal, never none */
	if (rc == 0 && fresh && !is_wal(db))
		rc = db_exec(db, "PRAGMA journal_mode = DELETE");
	return rc ? rc : db_exec(db, "PRAGMA synchronous = NORMAL");
}

static bool is_busy(sqlite3 *db)
{
	return db && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_BUSY;
}

/* A read that failed because the file or its folder cannot be written (WAL needs -shm). */
static bool is_readonly_storage(sqlite3 *db)
{
	int code = db ? sqlite3_extended_errcode(db) & 0xff : 0;
	return code == SQLITE_READONLY || code == SQLITE_CANTOPEN;
}

static int open_once(const char *path, bool readonly, sqlite3 **out, bool *busy);

/*
 * Switching a fresh database to WAL and migrating it take locks for which
 * SQLite does not always call the busy handler (another process may be
 * doing the same at that moment): retry the whole open until
 * DB_BUSY_TIMEOUT_MS has passed, then report the busy database.
 */
/*
 * A database is a regular file (or nothing yet): a FIFO would block SQLite's
 * open until a writer came, a folder reads as "disk I/O error".
 */
static int refuse_non_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0; /* absent (created or refused by the open) or a file */
	return err_set("cannot open database '%s': it is %s, not a database file (--db names "
		       "a regular file, created when missing)",
		       path, infile_kind(st.st_mode));
}

/*
 * coreplan runs one thread (gnuplot is a child process): SQLite needs no
 * mutex at all, nor the allocation counts that take one on every malloc
 * (4.5M of the GOMAXPROCS import's 137M instructions). Only before SQLite
 * starts; later calls are refused by SQLite and change nothing.
 */
static void configure_library(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int db_open(const char *path, bool readonly, sqlite3 **out)
{
	struct timespec pause = {0, 50 * 1000 * 1000};
	int waited_ms = 0;
	*out = NULL;
	configure_library();
	if (refuse_non_file(path))
		return ERR_DATA;
	for (;;) {
		bool busy = false;
		int rc = open_once(path, readonly, out, &busy);
		if (rc == 0 || !busy || waited_ms >= DB_BUSY_TIMEOUT_MS)
			return rc;
		nanosleep(&pause, NULL);
		waited_ms += 50;
	}
}

/* "file:PATH?immutable=1" with PATH percent-encoded (a URI's ?, # and % are not literal). */
static int immutable_uri(const char *path, struct strbuf *uri)
{
	int bad = strbuf_adds(uri, "file:");
	while (path[0] == '/' && path[1] == '/')
		path++; /* "file://x" would name a host */
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			bad |= strbuf_add(uri, (const char *)p, 1);
		else
			bad |= strbuf_addf(uri, "%%%02X", *p);
	}
	bad |= strbuf_adds(uri, "?immutable=1");
	return bad ? err_set("out of memory") : 0;
}

/*
 * The database on storage coreplan cannot write (a read-only folder, a
 * chmod a-w file): a WAL database cannot create its -shm there, so it is
 * opened immutable, as the file holds it. Refused when a -wal file holds
 * commits the file does not have yet (immutable would not see them).
 */
static int open_immutable(const char *path, sqlite3 **db)
{
	struct strbuf uri = STRBUF_INIT, wal = STRBUF_INIT;
	struct stat st;
	int rc = immutable_uri(path, &uri);
	if (rc == 0 && strbuf_addf(&wal, "%s-wal", path))
		rc = err_set("out of memory");
	if (rc == 0 && stat(strbuf_str(&wal), &st) == 0 && st.st_size > 0)
		rc = err_set("cannot read '%s': it cannot be written here (read-only file or "
			     "folder) and its write-ahead log '%s' holds commits not yet in the "
			     "file: open it once where it can be written, or copy the database "
			     "with its -wal file",
			     path, strbuf_str(&wal));
	if (rc == 0 && sqlite3_open_v2(strbuf_str(&uri), db,
				       SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
					       SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX,
				       NULL) != SQLITE_OK)
		rc = err_set("cannot open database '%s': %s", path,
			     *db ? sqlite3_errmsg(*db) : "out of memory");
	if (rc == 0)
		warn_add("'%s' cannot be written here (read-only file or folder): opened "
			 "immutable, as a snapshot of the file; results may be stale if another "
			 "process writes to it meanwhile",
			 path);
	strbuf_release(&uri);
	strbuf_release(&wal);
	return rc;
}

/*
 * The connections that created their file (create_from_template): their
 * writes are not synced one by one (synchronous=OFF), and db_close() syncs
 * the file once at the end. What a sync protects is a database that
 * existed before; a new file holds only what this one command writes,
 * and a crash of coreplan at any point is as safe as before (every write
 * is in the page cache, in WAL order). Only a power failure while that
 * command runs may leave the new file unreadable. Four fdatasync calls
 * of an import into a new file become two. Only where the link proves
 * this connection made the file: a file SQLite creates on the fallback
 * path (journal()) may have been created by another process at the same
 * moment, and keeps synchronous=NORMAL.
 */
static sqlite3 **created_dbs;
static size_t ncreated_dbs;

static int created_add(sqlite3 *db)
{
	sqlite3 **grown;
	int rc = db_exec(db, "PRAGMA synchronous = OFF");
	if (rc)
		return rc;
	if (!(grown = realloc(created_dbs, (ncreated_dbs + 1) * sizeof(*created_dbs))))
		return err_set("out of memory");
	created_dbs = grown;
	created_dbs[ncreated_dbs++] = db;
	return 0;
}

/* Whether db created its file; it is forgotten (db is being closed). */
static bool created_take(sqlite3 *db)
{
	for (size_t i = 0; i < ncreated_dbs; i++)
		if (created_dbs[i] == db) {
			created_dbs[i] = created_dbs[--ncreated_dbs];
			if (ncreated_dbs == 0) {
				free(created_dbs);
				created_dbs = NULL;
			}
			return true;
		}
	return false;
}

/* fdatasync (fsync for a folder) of the file at path; -1 with errno set on failure. */
static int sync_path(const char *path, bool folder)
{
	int fd = open(path, (folder ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW);
	int rc = fd < 0 ? -1 : folder ? fsync(fd) : fdatasync(fd);
	int saved = errno;
	if (fd >= 0)
		close(fd);
	errno = saved;
	return rc;
}

/*
 * After the close of a connection that created its file (its checkpoint
 * has copied the log into the file): the file, its log if another
 * connection keeps one, and the folder that names them.
 */
static int sync_created(const char *path)
{
	struct strbuf wal = STRBUF_INIT;
	struct stat st;
	char *copy = strdup(path);
	const char *failed = NULL;
	int rc = 0;
	if (!copy || strbuf_addf(&wal, "%s-wal", path)) {
		free(copy);
		strbuf_release(&wal);
		return err_set("cannot sync the new database '%s': out of memory", path);
	}
	if (sync_path(path, false) != 0)
		failed = path;
	else if (stat(strbuf_str(&wal), &st) == 0 && st.st_size > 0 &&
		 sync_path(strbuf_str(&wal), false) != 0)
		failed = strbuf_str(&wal);
	else if (sync_path(dirname(copy), true) != 0)
		failed = "its folder";
	if (failed)
		rc = err_set("the new database '%s' was written but syncing %s to storage failed: "
			     "%s (a power failure now could lose it)",
			     path, failed, strerror(errno));
	free(copy);
	strbuf_release(&wal);
	return rc;
}

/*
 * A database file that does not exist yet is written whole from
 * schema_template() (a new file holding the current schema, in WAL mode):
 * an unnamed file in its folder (O_TMPFILE), then given its name
 * with linkat(), which never replaces a file, so a database another
 * process created meanwhile is left as it is and opened. Anything failing
 * (a file system without O_TMPFILE, no /proc, a missing or read-only
 * folder) leaves nothing behind, nor does a crash before the link: SQLite
 * then creates the file and migrate() runs the script, as before.
 */
static bool create_from_template(const char *path)
{
	const unsigned char *bytes;
	size_t size, done = 0;
	char proc[64];
	struct stat st;
	char *copy;
	int fd;
#ifndef O_TMPFILE
	return false;
#endif
	if (!*path || !strcmp(path, ":memory:") || lstat(path, &st) == 0 || errno != ENOENT)
		return false;
	copy = strdup(path);
	if (!copy)
		return false;
	fd = open(dirname(copy), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	free(copy);
	if (fd < 0)
		return false;
	bytes = schema_template(&size);
	while (done < size) {
		ssize_t n = write(fd, bytes + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	/* not synced here: db_close() syncs the file it names (sync_created) */
	bool linked =
		done == size && linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0;
	close(fd);
	return linked;
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
	bool created = !readonly && create_from_template(path);
	/* one thread per process: no need for SQLite's per-call mutexes */
	if (sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		rc = err_set("cannot open database '%s': %s", path,
			     db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return rc;
	}
	rc = configure(db);
	if (rc == 0)
		rc = user_version(db, &version);
	if (rc && readonly && is_readonly_storage(db)) {
		sqlite3_close(db);
		db = NULL;
		err_clear();
		rc = open_immutable(path, &db);
		if (rc)
			goto fail;
		rc = configure(db);
		if (rc == 0)
			rc = user_version(db, &version);
	}
	if (rc) {
		err_prefix("'%s'", path);
		goto fail;
	}
	if (version > schema_latest_version()) {
		rc = refuse_newer(path, version);
		goto fail;
	}
	rc = check_owner(db, path);
	if (rc)
		goto fail;
	if (!readonly && (rc = journal(db)) != 0) {
		err_prefix("'%s'", path);
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
	if (created && (rc = created_add(db)) != 0)
		goto fail;
	*out = db;
	return 0;
fail:
	*busy = is_busy(db);
	sqlite3_close(db);
	return rc;
}

int db_close(sqlite3 *db)
{
	char *path = NULL;
	int rc = 0;
	if (db && created_take(db) && sqlite3_total_changes(db) > 0 &&
	    !(path = strdup(sqlite3_db_filename(db, "main"))))
		rc = err_set("cannot sync the new database: out of memory");
	uncache(db);
	sqlite3_close(db);
	if (path)
		rc = sync_created(path);
	free(path);
	return rc;
}
