/* trace: see trace.h. */
#include "trace.h"

#include "../common/err.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/db.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const trace_canonical_columns[] = {
	"epoch",       "app_rss_kb", "mem_avail_kb", "conn",        "cpu_total_j",
	"cpu_idle_j",  "app_j",      "threads",      "pg_rss_kb",   "pg_nproc",
	"pg_backends", "pg_j",       "xact_commit",  "wal_records", NULL,
};

#define NCANON 14
#define EPOCH 0 /* index of epoch in trace_canonical_columns */
/*
 * Parameters of the one-row INSERT: ?1 trace_id, ?2 row_no, then one per
 * canonical column. The BATCH-row INSERT binds ?1 and ?2 once per batch
 * (its rows are consecutive lines, so row k is ?2 + k) and then NCANON
 * per row: a bind costs more than the addition.
 */
#define BATCH_PARAM(k, c) (3 + (k)*NCANON + (c))
/*
 * Rows per INSERT statement. Measured on 2M rows (user CPU): 1 row 2.7 s,
 * 8 rows 2.0 s, 32 rows 1.6 s, 128 rows 1.6 s; 32 keeps the SQL small.
 */
#define BATCH 32
#define READ_SIZE ((size_t)1 << 20)
#define BUF_SIZE (TRACE_MAX_LINE + 2 + READ_SIZE)

int trace_is_canonical(const char *name)
{
	for (int i = 0; trace_canonical_columns[i]; i++)
		if (strcmp(trace_canonical_columns[i], name) == 0)
			return 1;
	return 0;
}

static int canonical_index(const char *name)
{
	for (int i = 0; i < NCANON; i++)
		if (strcmp(trace_canonical_columns[i], name) == 0)
			return i;
	return -1;
}

struct trace_writer {
	sqlite3 *db;
	sqlite3_stmt *one;   /* one row of trace_samples */
	sqlite3_stmt *batch; /* BATCH rows of trace_samples */
	sqlite3_stmt *extra; /* one value of trace_extra */
	char *buf;           /* BUF_SIZE bytes of file data */
};

enum check { CHECK_NONE, CHECK_MONOTONIC, CHECK_HALF };

/* What to do with field i of a line; fixed for one import. */
struct column {
	const char *name;
	int canon;        /* index in trace_canonical_columns, or -1 for trace_extra */
	enum check check; /* counter rule */
	bool have_prev;   /* prev holds the last non-NULL value */
	int64_t prev;
};

struct value {
	bool null;
	union {
		int64_t i;
		double d;
	} u;
};

/* Rows parsed but not yet inserted. */
struct pending {
	int n;
	int64_t row_no[BATCH];
	struct value v[BATCH][NCANON];
};

struct import {
	struct trace_writer *w;
	const char *display;
	int64_t trace_id;
	size_t ncols;
	char delim;
	struct column *cols;
	int present[NCANON]; /* canonical indexes present in the file */
	int npresent;
	const char **field; /* ncols field starts */
	size_t *flen;       /* ncols field lengths */
	double prev_epoch;
	bool have_epoch;
	struct pending pend;
	struct trace_stats stats;
};

static enum check counter_rule(const char *name)
{
	static const char *const monotonic[] = {"cpu_total_j", "cpu_idle_j", "xact_commit",
						"wal_records"};
	for (size_t i = 0; i < sizeof(monotonic) / sizeof(monotonic[0]); i++)
		if (strcmp(name, monotonic[i]) == 0)
			return CHECK_MONOTONIC;
	if (strcmp(name, "app_j") == 0 || strcmp(name, "pg_j") == 0)
		return CHECK_HALF;
	return CHECK_NONE;
}

/* The SQL has only our own constant names and numbers in it. */
static int build_insert(struct trace_writer *w, int rows, sqlite3_stmt **out)
{
	struct strbuf sql = STRBUF_INIT;
	int fail = strbuf_adds(&sql, "INSERT INTO trace_samples (trace_id, row_no");
	int rc;
	for (int c = 0; c < NCANON; c++)
		fail |= strbuf_addf(&sql, ", %s", trace_canonical_columns[c]);
	fail |= strbuf_adds(&sql, ") VALUES ");
	for (int k = 0; k < rows; k++) {
		if (rows == 1)
			fail |= strbuf_adds(&sql, "(?1, ?2");
		else
			fail |= strbuf_addf(&sql, "%s(?1, ?2 + %d", k ? ", " : "", k);
		/*
		 * A bare ? is the next number (3 + c, BATCH_PARAM(k, c)): SQLite looks a
		 * ?NNN up among the statement's numbered parameters as it codes each one,
		 * 544 of them in the batch's SQL
		 */
		for (int c = 0; c < NCANON; c++)
			fail |= strbuf_adds(&sql, ", ?");
		fail |= strbuf_adds(&sql, ")");
	}
	if (fail)
		rc = err_set("out of memory");
	else
		rc = db_prepare(w->db, sql.buf, out);
	strbuf_release(&sql);
	return rc;
}

int trace_writer_new(sqlite3 *db, struct trace_writer **out)
{
	struct trace_writer *w = calloc(1, sizeof(*w));
	int rc;
	*out = NULL;
	if (!w)
		return err_set("out of memory");
	w->db = db;
	w->buf = malloc(BUF_SIZE);
	if (!w->buf) {
		rc = err_set("out of memory");
		goto fail;
	}
	rc = build_insert(w, 1, &w->one);
	if (rc == 0)
		rc = build_insert(w, BATCH, &w->batch);
	if (rc == 0)
		rc = db_prepare(db,
				"INSERT INTO trace_extra (trace_id, row_no, name, value) "
				"VALUES (?1, ?2, ?3, ?4)",
				&w->extra);
	if (rc)
		goto fail;
	*out = w;
	return 0;
fail:
	trace_writer_free(w);
	return rc;
}

void trace_writer_free(struct trace_writer *w)
{
	if (!w)
		return;
	sqlite3_finalize(w->one);
	sqlite3_finalize(w->batch);
	sqlite3_finalize(w->extra);
	free(w->buf);
	free(w);
}

static int fail_at(struct import *im, int64_t line, size_t col, const char *fmt, ...)
	ERR_PRINTF(4, 5);

static int fail_at(struct import *im, int64_t line, size_t col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_at(im->display, (long)line, (long)col, "%s", msg);
}

/* A field quoted in a message: at most 40 bytes, control bytes as '?'. */
static const char *shown(const char *s, size_t len, char out[48])
{
	size_t n = len > 40 ? 40 : len;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		out[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (len > n) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

/* 1-based field number of byte `pos` of a line. */
static size_t field_at(const char *line, size_t pos, char delim)
{
	size_t col = 1;
	for (size_t i = 0; i < pos; i++)
		col += line[i] == delim;
	return col;
}

/* Every error in a line is first checked for a NUL byte, the likelier cause. */
static int nul_check(struct import *im, int64_t line_no, const char *line, size_t len)
{
	const char *nul = memchr(line, '\0', len);
	if (!nul)
		return 0;
	return fail_at(im, line_no, field_at(line, (size_t)(nul - line), im->delim),
		       "NUL byte (binary data)");
}

/* Bind the values of pending row r to the parameters from `first` on. */
static int bind_row(struct import *im, sqlite3_stmt *st, int first, int r)
{
	const struct value *v = im->pend.v[r];
	for (int k = 0; k < im->npresent; k++) {
		int c = im->present[k];
		int p = first + c;
		int rc;
		if (v[c].null)
			rc = sqlite3_bind_null(st, p);
		else if (c == EPOCH)
			rc = sqlite3_bind_double(st, p, v[c].u.d);
		else
			rc = sqlite3_bind_int64(st, p, v[c].u.i);
		if (rc != SQLITE_OK)
			return -1;
	}
	return 0;
}

static int flush(struct import *im)
{
	sqlite3 *db = im->w->db;
	char ctx[1100];
	int rc = SQLITE_OK;
	if (im->pend.n == BATCH) {
		sqlite3_stmt *st = im->w->batch;
		if (sqlite3_bind_int64(st, 2, im->pend.row_no[0]) != SQLITE_OK)
			goto fail;
		for (int r = 0; r < BATCH; r++)
			if (bind_row(im, st, BATCH_PARAM(r, 0), r))
				goto fail;
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			goto fail;
	} else {
		sqlite3_stmt *st = im->w->one;
		for (int r = 0; r < im->pend.n; r++) {
			if (sqlite3_bind_int64(st, 2, im->pend.row_no[r]) != SQLITE_OK ||
			    bind_row(im, st, 3, r))
				goto fail;
			rc = sqlite3_step(st);
			sqlite3_reset(st);
			if (rc != SQLITE_DONE)
				goto fail;
		}
	}
	im->pend.n = 0;
	return 0;
fail:
	snprintf(ctx, sizeof(ctx), "cannot store the rows of '%s'", im->display);
	return db_error(db, ctx);
}

static int store_extra(struct import *im, int64_t row_no, const struct column *col,
		       const struct value *v)
{
	sqlite3_stmt *st = im->w->extra;
	int rc;
	sqlite3_bind_int64(st, 2, row_no);
	sqlite3_bind_text(st, 3, col->name, -1, SQLITE_STATIC);
	if (v->null)
		sqlite3_bind_null(st, 4);
	else
		sqlite3_bind_double(st, 4, v->u.d);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		char ctx[1100];
		snprintf(ctx, sizeof(ctx), "cannot store the rows of '%s'", im->display);
		return db_error(im->w->db, ctx);
	}
	return 0;
}

static bool is_na(const char *s, size_t len)
{
	return len == 2 && s[0] == 'N' && s[1] == 'A';
}

/*
 * The counter rules compare with the last non-NULL value of the column,
 * so an NA row neither hides nor causes a reset.
 */
static int check_counter(struct import *im, int64_t line_no, size_t i, int64_t v)
{
	struct column *col = &im->cols[i];
	int64_t prev = col->prev;
	bool had = col->have_prev;
	col->prev = v;
	col->have_prev = true;
	if (!had || v >= prev || col->check == CHECK_NONE)
		return 0;
	if (col->check == CHECK_MONOTONIC)
		return fail_at(im, line_no, i + 1,
			       "counter %s went back from %lld to %lld (counter reset)", col->name,
			       (long long)prev, (long long)v);
	/* below half: v < prev / 2 exactly, without overflow (prev - prev/2 = ceil) */
	if (v < prev - prev / 2)
		return fail_at(im, line_no, i + 1,
			       "counter %s fell from %lld to %lld, below half of the previous "
			       "row's value (counter reset)",
			       col->name, (long long)prev, (long long)v);
	im->stats.backsteps++;
	return 0;
}

/* Field i of a line is not a number of its column's type. */
static int bad_field(struct import *im, int64_t line_no, const char *line, size_t len, size_t i)
{
	const struct column *col = &im->cols[i];
	char text[48];
	int rc = nul_check(im, line_no, line, len);
	if (rc)
		return rc;
	if (im->flen[i] == 0)
		return fail_at(im, line_no, i + 1, "empty field (column %s)", col->name);
	return fail_at(im, line_no, i + 1, "'%s' is not %s (column %s)",
		       shown(im->field[i], im->flen[i], text),
		       col->canon > EPOCH ? "an integer" : "a number", col->name);
}

/* Parse, check and queue the fields already split into im->field/im->flen. */
static int take_row(struct import *im, int64_t line_no, const char *line, size_t len)
{
	struct value *row = im->pend.v[im->pend.n];
	struct value extra_vals[1];
	int rc;
	for (size_t i = 0; i < im->ncols; i++) {
		struct column *col = &im->cols[i];
		const char *s = im->field[i];
		size_t n = im->flen[i];
		struct value *v = col->canon >= 0 ? &row[col->canon] : extra_vals;
		if (is_na(s, n)) {
			if (col->canon == EPOCH)
				return fail_at(im, line_no, i + 1, "epoch is missing (NA)");
			v->null = true;
		} else if (col->canon == EPOCH) {
			int64_t whole;
			v->null = false;
			/* whole seconds are the common case and convert exactly */
			if (num_parse_int_n(s, n, &whole) == 0 && whole > -(INT64_C(1) << 53) &&
			    whole < (INT64_C(1) << 53))
				v->u.d = (double)whole;
			else if (num_parse_real_n(s, n, &v->u.d) != 0)
				return bad_field(im, line_no, line, len, i);
			if (im->have_epoch && v->u.d < im->prev_epoch)
				return fail_at(im, line_no, i + 1,
					       "epoch %.17g is earlier than the previous row's "
					       "%.17g (rows out of time order)",
					       v->u.d, im->prev_epoch);
			im->prev_epoch = v->u.d;
			im->have_epoch = true;
		} else if (col->canon >= 0) {
			v->null = false;
			if (num_parse_int_n(s, n, &v->u.i) != 0)
				return bad_field(im, line_no, line, len, i);
			if (col->check != CHECK_NONE) {
				rc = check_counter(im, line_no, i, v->u.i);
				if (rc)
					return rc;
			}
		} else {
			v->null = false;
			if (num_parse_real_n(s, n, &v->u.d) != 0)
				return bad_field(im, line_no, line, len, i);
		}
		if (col->canon < 0) {
			rc = store_extra(im, line_no, col, v);
			if (rc)
				return rc;
		}
	}
	im->pend.row_no[im->pend.n++] = line_no;
	if (im->pend.n == BATCH)
		return flush(im);
	return 0;
}

static int wrong_count(struct import *im, int64_t line_no, const char *line, size_t len,
		       size_t nfields)
{
	int rc = nul_check(im, line_no, line, len);
	if (rc)
		return rc;
	if (len == 0)
		return fail_at(im, line_no, 1, "blank line (expected %zu fields)", im->ncols);
	return fail_at(im, line_no, (nfields < im->ncols ? nfields : im->ncols) + 1,
		       "line has %zu field%s, expected %zu", nfields, nfields == 1 ? "" : "s",
		       im->ncols);
}

/*
 * Traces have no quoting (FORMATS.md), so a split on the delimiter is
 * exact. libcsv (used for the headed tables) was measured here too, fed
 * whole 1 MiB chunks: +26% instructions for the whole import (csv_parse
 * costs ~38 instructions a byte), +15% user time on 2M rows.
 */
static int split(struct import *im, int64_t line_no, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	size_t last = im->ncols - 1;
	for (size_t i = 0; i < last; i++) {
		const char *q = memchr(p, im->delim, (size_t)(end - p));
		if (!q)
			return wrong_count(im, line_no, line, len, i + 1);
		im->field[i] = p;
		im->flen[i] = (size_t)(q - p);
		p = q + 1;
	}
	if (memchr(p, im->delim, (size_t)(end - p))) {
		size_t n = im->ncols;
		for (const char *q = p; q < end; q++)
			n += *q == im->delim;
		return wrong_count(im, line_no, line, len, n);
	}
	im->field[last] = p;
	im->flen[last] = (size_t)(end - p);
	return 0;
}

static int take_line(struct import *im, int64_t line_no, const char *line, size_t len)
{
	int rc;
	if (len && line[len - 1] == '\r')
		len--;
	if (len > TRACE_MAX_LINE)
		return fail_at(im, line_no, field_at(line, TRACE_MAX_LINE, im->delim),
			       "line longer than %d bytes", TRACE_MAX_LINE);
	rc = split(im, line_no, line, len);
	if (rc)
		return rc;
	return take_row(im, line_no, line, len);
}

static int check_spec(const struct trace_spec *spec, const char *display)
{
	bool epoch = false;
	char d = spec->delimiter ? spec->delimiter : '\t';
	if (d != '\t' && d != ',')
		return err_set("'%s': trace delimiter must be a TAB or a comma", display);
	if (spec->ncols == 0 || !spec->names)
		return err_set("'%s': the trace spec names no columns", display);
	for (size_t i = 0; i < spec->ncols; i++) {
		if (!spec->names[i] || !spec->names[i][0])
			return err_set("'%s': trace column %zu has no name", display, i + 1);
		if (strcmp(spec->names[i], "epoch") == 0)
			epoch = true;
		for (size_t j = 0; j < i; j++)
			if (strcmp(spec->names[i], spec->names[j]) == 0)
				return err_set("'%s': trace column '%s' is named twice", display,
					       spec->names[i]);
	}
	if (!epoch)
		return err_set("'%s': the trace spec has no 'epoch' column", display);
	return 0;
}

static int setup(struct import *im, const struct trace_spec *spec)
{
	struct trace_writer *w = im->w;
	im->ncols = spec->ncols;
	im->delim = spec->delimiter ? spec->delimiter : '\t';
	im->cols = calloc(spec->ncols, sizeof(*im->cols));
	im->field = calloc(spec->ncols, sizeof(*im->field));
	im->flen = calloc(spec->ncols, sizeof(*im->flen));
	if (!im->cols || !im->field || !im->flen)
		return err_set("out of memory");
	for (size_t i = 0; i < spec->ncols; i++) {
		struct column *col = &im->cols[i];
		col->name = spec->names[i];
		col->canon = canonical_index(col->name);
		col->check = col->canon >= 0 ? counter_rule(col->name) : CHECK_NONE;
		if (col->canon >= 0)
			im->present[im->npresent++] = col->canon;
	}
	/* bindings outlive sqlite3_reset: absent columns stay NULL for the whole file */
	sqlite3_clear_bindings(w->one);
	sqlite3_clear_bindings(w->batch);
	sqlite3_clear_bindings(w->extra);
	sqlite3_bind_int64(w->one, 1, im->trace_id);
	sqlite3_bind_int64(w->batch, 1, im->trace_id);
	sqlite3_bind_int64(w->extra, 1, im->trace_id);
	return 0;
}

/*
 * Read with read(2) into one buffer and cut lines with memchr: no stdio
 * copy, no per-line allocation. The buffer holds a whole TRACE_MAX_LINE
 * line plus a read's worth, so memory is constant whatever the file size.
 */
static int read_lines(struct import *im, struct infile *in, void (*progress)(int64_t, void *),
		      void *arg)
{
	char *buf = im->w->buf;
	size_t have = 0, pos = 0;
	bool eof = false;
	int64_t line_no = 0;
	int rc;
	for (;;) {
		char *nl = pos < have ? memchr(buf + pos, '\n', have - pos) : NULL;
		if (nl) {
			size_t len = (size_t)(nl - (buf + pos));
			rc = take_line(im, ++line_no, buf + pos, len);
			if (rc)
				return rc;
			pos += len + 1;
			if (progress && (line_no & 0xffff) == 0)
				progress(line_no, arg);
			continue;
		}
		if (eof) {
			if (pos < have) { /* last line without LF */
				rc = take_line(im, ++line_no, buf + pos, have - pos);
				if (rc)
					return rc;
			}
			break;
		}
		if (have - pos > TRACE_MAX_LINE + 1)
			return fail_at(im, line_no + 1,
				       field_at(buf + pos, TRACE_MAX_LINE, im->delim),
				       "line longer than %d bytes", TRACE_MAX_LINE);
		memmove(buf, buf + pos, have - pos);
		have -= pos;
		pos = 0;
		{
			size_t n = 0;
			rc = infile_read(in, buf + have, BUF_SIZE - have, &n);
			if (rc)
				return rc;
			eof = n == 0;
			have += n;
		}
	}
	im->stats.rows = line_no;
	return flush(im);
}

int trace_writer_import(struct trace_writer *w, int64_t trace_id, const char *path,
			const char *display_path, const struct trace_spec *spec,
			struct trace_stats *stats, void (*progress)(int64_t rows, void *arg),
			void *progress_arg)
{
	struct infile in;
	int rc = infile_open(&in, path, display_path, INFILE_NO_LIMIT);
	if (rc == 0)
		rc = trace_writer_import_infile(w, trace_id, &in, display_path, spec, stats,
						progress, progress_arg);
	if (rc == 0)
		rc = infile_end(&in, NULL, NULL);
	infile_close(&in);
	return rc;
}

int trace_writer_import_infile(struct trace_writer *w, int64_t trace_id, struct infile *in,
			       const char *display_path, const struct trace_spec *spec,
			       struct trace_stats *stats, void (*progress)(int64_t rows, void *arg),
			       void *progress_arg)
{
	struct import im;
	int rc;
	memset(&im, 0, sizeof(im));
	im.w = w;
	im.display = display_path;
	im.trace_id = trace_id;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	rc = check_spec(spec, display_path);
	if (rc)
		return rc;
	rc = setup(&im, spec);
	if (rc)
		goto done;
#ifdef POSIX_FADV_SEQUENTIAL
	if (in->fd >= 0)
		posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	rc = read_lines(&im, in, progress, progress_arg);
	if (rc == 0 && stats)
		*stats = im.stats;
done:
	free(im.cols);
	free(im.field);
	free(im.flen);
	return rc;
}
