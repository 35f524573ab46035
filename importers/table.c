/* table: see table.h. */
#include "table.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/infile.h"
#include "../common/strvec.h"

#include <csv.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits that keep a corrupt or hostile file from taking all memory. */
#define TABLE_MAX_FIELD ((size_t)16 << 20) /* bytes in one field */
#define TABLE_MAX_COLS 100000              /* fields in one record */
#define READ_CHUNK ((size_t)64 << 10)
#define BLOCK ((size_t)64 << 10) /* first growth step of a field buffer */

/*
 * How lines are named: libcsv reports records, not lines, and skips blank
 * lines. So the file is cut at LFs and fed one line at a time (a line
 * longer than a chunk in pieces), and CSV_REPALL_NL makes libcsv call
 * on_record() for every CR or LF outside quotes. Two facts follow: after a
 * line is fed, the parser is between records exactly when the last
 * callback was an LF record end (no callback at all means a quoted field
 * is still open); and a record end with no field before it is a blank
 * line or the LF of a CRLF pair.
 */
struct reader {
	const char *display;
	struct table *t;
	struct csv_parser parser;
	bool parser_ready;
	int rc; /* first error, recorded by a callback or the feeder */

	long line;        /* 1-based line being fed */
	long record_line; /* line where the current record started */
	long field_line;  /* line where the current field started */
	bool boundary;    /* between records (see above) */
	bool after_cr;    /* the last callback was a CR record end */
	long blank_line;  /* first blank line not yet followed by data, or 0 */

	/* fields of the current record, NUL-terminated one after another */
	char *bytes;
	size_t bytes_len, bytes_alloc;
	size_t *offsets;
	size_t nfields, offsets_alloc;

	size_t rows_alloc;
};

/*
 * libcsv grows its field buffer through this hook: refusing to go past the
 * cap makes csv_parse() stop with CSV_ENOMEM instead of swallowing a
 * multi-gigabyte "field" (+2: room for the CSV_APPEND_NULL terminator).
 */
static void *capped_realloc(void *ptr, size_t size)
{
	if (size > TABLE_MAX_FIELD + 2)
		return NULL;
	return realloc(ptr, size);
}

/* Nothing is a space: fields are taken byte for byte, never trimmed. */
static int no_space(unsigned char c)
{
	(void)c;
	return 0;
}

static int fail(struct reader *r, long line, long col, const char *fmt, ...) ERR_PRINTF(4, 5);

/* Record the first error only: libcsv keeps calling back after it. */
static int fail(struct reader *r, long line, long col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	if (r->rc)
		return r->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->rc = err_at(r->display, line, col, "%s", msg);
	return r->rc;
}

static int oom(struct reader *r)
{
	if (r->rc == 0)
		r->rc = err_set("out of memory reading '%s'", r->display);
	return r->rc;
}

/* Data after a blank line: refuse it (a blank line at the end is fine). */
static int check_blank(struct reader *r)
{
	if (!r->blank_line)
		return 0;
	if (!r->t->header)
		return fail(r, r->blank_line, 0, "blank line before the header");
	return fail(r, r->blank_line, 0, "blank line in the middle of the table");
}

static void on_field(void *data, size_t len, void *arg)
{
	struct reader *r = arg;
	r->boundary = false;
	r->after_cr = false;
	if (r->rc || check_blank(r))
		return;
	if (len > TABLE_MAX_FIELD) {
		fail(r, r->line, (long)r->nfields + 1, "field longer than 16 MiB");
		return;
	}
	if (r->nfields >= TABLE_MAX_COLS) {
		fail(r, r->record_line, (long)r->nfields + 1, "more than %d fields in a row",
		     TABLE_MAX_COLS);
		return;
	}
	if (GROW(r->offsets, r->offsets_alloc, r->nfields + 1) ||
	    GROW(r->bytes, r->bytes_alloc, r->bytes_len + len + 1)) {
		oom(r);
		return;
	}
	r->field_line = r->line;
	r->offsets[r->nfields++] = r->bytes_len;
	if (len)
		memcpy(r->bytes + r->bytes_len, data, len);
	r->bytes_len += len;
	r->bytes[r->bytes_len++] = '\0';
}

/* One allocation per row: the pointer array followed by the strings. */
static char **pack_record(const struct reader *r)
{
	size_t head = r->nfields * sizeof(char *);
	char **row = malloc(head + r->bytes_len);
	char *text;
	if (!row)
		return NULL;
	text = (char *)row + head;
	memcpy(text, r->bytes, r->bytes_len);
	for (size_t i = 0; i < r->nfields; i++)
		row[i] = text + r->offsets[i];
	return row;
}

/* Empty or duplicate names; the leftmost offending column is reported. */
static int check_header(struct reader *r, char *const *names, size_t n)
{
	size_t bad = SIZE_MAX, repeat = 0, also = 0;
	int repeats = str_first_repeat((const char *const *)names, n, &repeat, &also);
	if (repeats < 0)
		return oom(r);
	for (size_t i = 0; i < n; i++)
		if (names[i][0] == '\0') {
			bad = i;
			break;
		}
	if (repeats && repeat < bad)
		bad = repeat;
	if (bad == SIZE_MAX)
		return 0;
	if (names[bad][0] == '\0')
		return fail(r, r->record_line, (long)bad + 1, "empty column name in header");
	return fail(r, r->record_line, (long)bad + 1,
		    "duplicate column '%s' in header (also column %zu)", names[bad], also + 1);
}

static int add_row(struct reader *r)
{
	struct table *t = r->t;
	char **row;
	if (t->header && r->nfields != t->ncols) {
		size_t col = (r->nfields < t->ncols ? r->nfields : t->ncols) + 1;
		return fail(r, r->record_line, (long)col, "row has %zu field%s, header has %zu",
			    r->nfields, r->nfields == 1 ? "" : "s", t->ncols);
	}
	row = pack_record(r);
	if (!row)
		return oom(r);
	if (!t->header) {
		t->header = row;
		t->ncols = r->nfields;
		return check_header(r, row, r->nfields);
	}
	if (t->nrows == r->rows_alloc) {
		size_t want = r->rows_alloc ? 2 * r->rows_alloc : 64;
		char ***cells = realloc(t->cells, want * sizeof(*cells));
		long *lines;
		if (!cells) {
			free(row);
			return oom(r);
		}
		t->cells = cells;
		lines = realloc(t->lines, want * sizeof(*lines));
		if (!lines) {
			free(row);
			return oom(r);
		}
		t->lines = lines;
		r->rows_alloc = want;
	}
	t->cells[t->nrows] = row;
	t->lines[t->nrows] = r->record_line;
	t->nrows++;
	return 0;
}

static void on_record(int term, void *arg)
{
	struct reader *r = arg;
	bool crlf_tail = term == '\n' && r->after_cr;
	r->boundary = term == '\n' || term == -1;
	r->after_cr = term == '\r';
	if (r->rc)
		return;
	if (r->nfields == 0) {
		/* no field: a blank line (remembered) or the LF of CRLF */
		if (!crlf_tail && !r->blank_line)
			r->blank_line = r->line;
		return;
	}
	if (add_row(r))
		return;
	r->nfields = 0;
	r->bytes_len = 0;
	/* a record that ended at a bare CR: the next one starts on this line */
	r->record_line = r->field_line = r->line;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	if (n < m)
		return false;
	for (size_t i = 0; i < m; i++) {
		char c = s[n - m + i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != suffix[i])
			return false;
	}
	return true;
}

/* TABLE_SNIFF: the extension, then the first line (more TABs than commas: TAB). */
static char pick_delimiter(const char *path, const char *first, size_t len)
{
	size_t tabs = 0, commas = 0;
	if (has_suffix(path, ".csv"))
		return ',';
	if (has_suffix(path, ".tsv") || has_suffix(path, ".tab") || has_suffix(path, ".txt"))
		return '\t';
	for (size_t i = 0; i < len && first[i] != '\n'; i++) {
		tabs += first[i] == '\t';
		commas += first[i] == ',';
	}
	return commas > tabs ? ',' : '\t';
}

static int parse_error(struct reader *r)
{
	int code = csv_error(&r->parser);
	long col = (long)r->nfields + 1;
	if (r->rc)
		return r->rc;
	if (code == CSV_ENOMEM && csv_get_buffer_size(&r->parser) >= TABLE_MAX_FIELD)
		return fail(r, r->line, col, "field longer than 16 MiB");
	if (code == CSV_EPARSE)
		return fail(r, r->line, col,
			    "malformed quoted field (a field with a quote must be quoted, "
			    "and the quote doubled)");
	if (code == CSV_ENOMEM)
		return oom(r);
	return fail(r, r->line, col, "cannot parse: %s", csv_strerror(code));
}

/*
 * libcsv grows a field buffer by a fixed block, which makes a field of
 * many megabytes cost hundreds of reallocs; raising the block to the
 * current size between pieces makes the growth geometric.
 */
static void grow_geometrically(struct csv_parser *p)
{
	size_t size = csv_get_buffer_size(p);
	if (size > BLOCK)
		csv_set_blk_size(p, size);
}

/* Feed one piece of a line (usually all of it, LF included). */
static int feed(struct reader *r, const char *s, size_t len, bool line_start)
{
	const char *nul = memchr(s, '\0', len);
	size_t n = nul ? (size_t)(nul - s) : len;
	if (line_start && r->boundary)
		r->record_line = r->field_line = r->line;
	r->boundary = false;
	if (csv_parse(&r->parser, s, n, on_field, on_record, r) != n)
		return parse_error(r);
	if (r->rc)
		return r->rc;
	grow_geometrically(&r->parser);
	if (nul) /* parsed up to it, so nfields counts the fields before it */
		return fail(r, r->line, (long)r->nfields + 1, "NUL byte (binary data)");
	return 0;
}

/*
 * A NUL byte anywhere in what was read means binary data: say so before
 * the parser trips over the bytes around it. The line is counted from the
 * line being fed (every complete line before `buf` has been fed).
 */
static int refuse_binary(struct reader *r, const char *buf, size_t have)
{
	const char *nul = memchr(buf, '\0', have);
	long line = r->line, col = 1;
	if (!nul)
		return 0;
	for (const char *p = buf; p < nul; p++, col++)
		if (*p == '\n') {
			line++;
			col = 0;
		}
	return fail(r, line, col, "NUL byte: binary data, not a text table");
}

/*
 * Read in chunks, cut at LFs. A line that does not fit in half a chunk is
 * fed in pieces, so memory is bounded by the field cap, not the line.
 */
static int read_all(struct reader *r, struct infile *in)
{
	char *buf = malloc(READ_CHUNK);
	size_t have = 0;
	bool at_line_start = true, first = true, eof = false;
	int rc = 0;
	if (!buf)
		return oom(r);
	for (;;) {
		size_t start = 0;
		while (!eof && have < READ_CHUNK) {
			size_t n = 0;
			rc = infile_read(in, buf + have, READ_CHUNK - have, &n);
			if (rc) {
				r->rc = rc;
				goto done;
			}
			have += n;
			eof = n == 0;
		}
		rc = refuse_binary(r, buf, have);
		if (rc)
			goto done;
		if (first) {
			if (have >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
				start = 3;
			if (r->t->delimiter == 0)
				r->t->delimiter =
					pick_delimiter(r->display, buf + start, have - start);
			csv_set_delim(&r->parser, (unsigned char)r->t->delimiter);
			/* TSV has no quoting (FORMATS.md): a quote is an ordinary byte */
			if (r->t->delimiter == '\t')
				csv_set_quote(&r->parser, '\0');
			first = false;
		}
		while (start < have) {
			char *nl = memchr(buf + start, '\n', have - start);
			size_t len;
			if (nl)
				len = (size_t)(nl - (buf + start)) + 1;
			else if (eof || have - start > READ_CHUNK / 2)
				len = have - start; /* last line, or a piece of a long one */
			else
				break; /* move the partial line to the front, read on */
			rc = feed(r, buf + start, len, at_line_start);
			if (rc)
				goto done;
			start += len;
			at_line_start = nl != NULL;
			if (nl)
				r->line++;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (eof && have == 0)
			break;
	}
done:
	free(buf);
	return rc;
}

int table_read(const char *path, const char *display_path, enum table_delim delim,
	       struct table *out)
{
	struct infile in;
	int rc = infile_open(&in, path, display_path, INFILE_TABLE_MAX);
	memset(out, 0, sizeof(*out));
	if (rc == 0)
		rc = table_read_infile(&in, display_path, delim, out);
	if (rc == 0)
		rc = infile_end(&in, NULL, NULL);
	if (rc)
		table_release(out);
	infile_close(&in);
	return rc;
}

int table_read_infile(struct infile *in, const char *display_path, enum table_delim delim,
		      struct table *out)
{
	struct reader r;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	out->display_path = strdup(display_path);
	if (!out->display_path)
		return err_set("out of memory reading '%s'", display_path);
	out->delimiter = (char)delim;
	r.display = out->display_path;
	r.t = out;
	r.line = 1;
	r.boundary = true;

	if (csv_init(&r.parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_REPALL_NL) !=
	    0) {
		rc = oom(&r);
		goto done;
	}
	r.parser_ready = true;
	csv_set_space_func(&r.parser, no_space);
	csv_set_realloc_func(&r.parser, capped_realloc);
	csv_set_blk_size(&r.parser, BLOCK);

	rc = read_all(&r, in);
	if (rc)
		goto done;
	if (csv_fini(&r.parser, on_field, on_record, &r) != 0) {
		rc = fail(&r, r.field_line, (long)r.nfields + 1, "unterminated quoted field");
		goto done;
	}
	rc = r.rc;
	if (rc == 0 && !out->header)
		rc = err_at(display_path, 0, 0, "file is empty");
done:
	if (r.parser_ready)
		csv_free(&r.parser);
	free(r.bytes);
	free(r.offsets);
	if (rc)
		table_release(out);
	return rc;
}

void table_release(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->lines);
	free(t->header);
	free(t->display_path);
	memset(t, 0, sizeof(*t));
}

int table_col(const struct table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->header[i], name) == 0)
			return i > (size_t)INT32_MAX ? -1 : (int)i;
	return -1;
}
