/*
 * trace: stream a headerless 1 Hz trace file (sample.tsv, window.tsv,
 * samples/<tag>.tsv) into trace_samples, in constant memory.
 *
 * The columns of such a file are defined only by the harness, so the
 * caller passes their names (from the corpus manifest). A name that is a
 * column of trace_samples (see trace_canonical_columns) is stored there,
 * typed: `epoch` as REAL (whole or fractional Unix seconds), the others as
 * INTEGER. Any other name is stored in trace_extra as REAL, so no column
 * is ever dropped. Every spec must name an `epoch` column.
 *
 * Each line of the file becomes one row with row_no = its 1-based line
 * number. Refused, with "path:line:col: message" (col = 1-based field
 * number) and nothing committed by the caller:
 *   - a line with fewer or more fields than the spec,
 *   - a field that is not a number of the column's type ("NA" is stored
 *     as NULL, except for epoch which is required),
 *   - an epoch smaller than the previous row's (rows out of time order),
 *   - a counter reset: cpu_total_j, cpu_idle_j, xact_commit or
 *     wal_records decreasing at all, or app_j / pg_j falling below half
 *     of the previous row's value. Smaller backward steps of app_j and
 *     pg_j are real (two sampler instances interleaving, a postgres
 *     process exiting; see FORMATS.md) and are counted in
 *     trace_stats.backsteps instead,
 *   - a NUL byte or a line longer than TRACE_MAX_LINE bytes.
 * CRLF line ends are accepted. An empty file gives rows == 0.
 *
 * Ownership: the writer holds prepared statements on the caller's
 * connection; free it before closing the connection. The caller owns the
 * transaction.
 */
#ifndef COREPLAN_TRACE_H
#define COREPLAN_TRACE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_MAX_LINE (1 << 20)

extern const char *const trace_canonical_columns[]; /* NULL-terminated */
int trace_is_canonical(const char *name);

struct trace_spec {
	size_t ncols;
	const char *const *names;
	char delimiter; /* '\t' (default when 0) or ',' */
};

struct trace_stats {
	int64_t rows;
	int64_t backsteps;
};

struct trace_writer;

int trace_writer_new(sqlite3 *db, struct trace_writer **out);
void trace_writer_free(struct trace_writer *w);

/*
 * Import one file as the rows of trace `trace_id` (a row of `traces` the
 * caller inserted). `progress`, if not NULL, is called every 65,536 rows.
 * trace_writer_import() opens `path` with infile_open() (a regular file,
 * no size limit: rows are streamed); trace_writer_import_infile() reads
 * the rest of a file the caller opened (corpus.c: infile_open_in) and
 * leaves ending and closing it to the caller.
 */
int trace_writer_import(struct trace_writer *w, int64_t trace_id, const char *path,
			const char *display_path, const struct trace_spec *spec,
			struct trace_stats *stats, void (*progress)(int64_t rows, void *arg),
			void *progress_arg);
struct infile;
int trace_writer_import_infile(struct trace_writer *w, int64_t trace_id, struct infile *in,
			       const char *display_path, const struct trace_spec *spec,
			       struct trace_stats *stats, void (*progress)(int64_t rows, void *arg),
			       void *progress_arg);

#endif
