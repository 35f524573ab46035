/*
 * trace_import_driver: time the trace importer alone, the way
 * `coreplan import` uses it, until that command exists.
 *
 *   trace_import_driver DB TRACE [COLUMN...]
 *
 * Opens DB with db_open() (schema, foreign keys, WAL), then in one
 * BEGIN IMMEDIATE ... COMMIT inserts a corpora, files, runs and traces row
 * and streams TRACE into trace_samples with trace_writer_import(). The
 * columns default to those of the gomaxprocs sample.tsv. Prints
 * "rows=N backsteps=N" on stdout; errors on stderr, exit 1.
 */
#include "common/err.h"
#include "importers/trace.h"
#include "schema/db.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const default_cols[] = {"epoch",       "app_rss_kb", "mem_avail_kb", "conn",
					   "cpu_total_j", "cpu_idle_j", "app_j",        "threads"};

static int setup_rows(sqlite3 *db, int64_t *trace_id)
{
	int rc = db_exec(db, "INSERT INTO corpora (corpus_id, name, source_path, content_hash, "
			     "imported_at, layout, manifest, options) VALUES (1, 'bench', '.', '', "
			     "'now', 'bench', '', '');"
			     "INSERT INTO files (file_id, corpus_id, path, size, sha256, kind) "
			     "VALUES (1, 1, 'sample.tsv', 0, '', 'trace');"
			     "INSERT INTO runs (run_id, corpus_id, tag, seq, listed) "
			     "VALUES (1, 1, 'bench', 1, 1);"
			     "INSERT INTO traces (trace_id, run_id, kind, file_id, columns, rows) "
			     "VALUES (1, 1, 'sample', 1, '', 0);");
	*trace_id = 1;
	return rc;
}

int main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	struct trace_writer *w = NULL;
	struct trace_spec spec = {0};
	struct trace_stats stats = {0};
	int64_t trace_id = 0;
	char sql[128];
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DB TRACE [COLUMN...]\n", argv[0]);
		return 2;
	}
	if (argc > 3) {
		spec.ncols = (size_t)(argc - 3);
		spec.names = (const char *const *)(argv + 3);
	} else {
		spec.ncols = sizeof(default_cols) / sizeof(default_cols[0]);
		spec.names = default_cols;
	}
	rc = db_open(argv[1], false, &db);
	if (rc)
		goto done;
	rc = db_begin(db);
	if (rc)
		goto done;
	rc = setup_rows(db, &trace_id);
	if (rc == 0)
		rc = trace_writer_new(db, &w);
	if (rc == 0)
		rc = trace_writer_import(w, trace_id, argv[2], argv[2], &spec, &stats, NULL, NULL);
	if (rc == 0) {
		snprintf(sql, sizeof(sql), "UPDATE traces SET rows = %lld, backsteps = %lld",
			 (long long)stats.rows, (long long)stats.backsteps);
		rc = db_exec(db, sql);
	}
	trace_writer_free(w);
	w = NULL;
	if (rc == 0)
		rc = db_commit(db);
	else
		db_rollback(db);
done:
	trace_writer_free(w);
	db_close(db);
	if (rc) {
		fprintf(stderr, "trace_import_driver: %s\n", err_msg());
		return 1;
	}
	printf("rows=%lld backsteps=%lld\n", (long long)stats.rows, (long long)stats.backsteps);
	return 0;
}
