/* doc write_delim: the tsv and csv writers (see doc.h, "Formats"). */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <csv.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* s, or (when a terminal must not get it as it is) a copy escaped for one in *copy. */
static const char *term_safe(const char *s, const char *keep, char **copy)
{
	struct strbuf sb = STRBUF_INIT;
	*copy = NULL;
	if (doc_term_safe(s, keep))
		return s;
	if (doc_term_escape(&sb, s, keep)) {
		strbuf_release(&sb);
		return "";
	}
	*copy = strbuf_detach(&sb);
	return *copy ? *copy : "";
}

static void tsv_put(FILE *fp, const char *s)
{
	char *copy;
	if (!s) {
		fputs("NA", fp);
		return;
	}
	/* a TSV field holds no tab or line break: those are blanks, the rest \xNN */
	for (s = term_safe(s, "\t\n\r", &copy); *s; s++)
		putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, fp);
	free(copy);
}

/*
 * RFC 4180 quotes a field with a comma, quote or line break; we also quote
 * blanks at either end (readers trim them) and the empty string, so that
 * a present-but-empty cell ("") stays distinct from a missing one (NA).
 */
static void csv_put(FILE *fp, const char *s)
{
	char *copy;
	size_t len;
	if (!s) {
		fputs("NA", fp); /* missing, as in tsv (an empty string is "") */
		return;
	}
	/* line breaks stay (quoted); other controls as \xNN */
	s = term_safe(s, "\n\r", &copy);
	len = strlen(s);
	if (len == 0 || s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t' ||
	    strpbrk(s, ",\"\r\n"))
		csv_fwrite(fp, s, len);
	else
		fputs(s, fp);
	free(copy);
}

/*
 * A TSV field into a row buffer: plain printable ASCII as it is (most
 * cells), the rest as tsv_put writes it.
 */
static int tsv_add(struct strbuf *row, const char *s)
{
	char *copy;
	const unsigned char *p;
	int bad = 0;
	if (!s)
		return strbuf_add(row, "NA", 2);
	for (p = (const unsigned char *)s; *p >= 0x20 && *p < 0x7f; p++)
		;
	if (!*p)
		return strbuf_add(row, s, (size_t)(p - (const unsigned char *)s));
	for (s = term_safe(s, "\t\n\r", &copy); *s; s++)
		bad |= strbuf_add(row, *s == '\t' || *s == '\n' || *s == '\r' ? " " : s, 1);
	free(copy);
	return bad;
}

/* Room for n more bytes in the row buffer (its length unchanged). */
static int row_room(struct strbuf *row, size_t n)
{
	size_t len = row->len;
	char pad[64] = {0};
	int bad = 0;
	while (row->alloc < len + n + 1 && !bad)
		bad = strbuf_add(row, pad, sizeof(pad));
	row->len = len;
	if (row->buf)
		row->buf[len] = '\0';
	return bad;
}

/* A cell's machine text into the row buffer: numbers formatted once, in place. */
static int tsv_cell(struct strbuf *row, const struct doc_col *col, const struct cell *c)
{
	char buf[32];
	if (c->set && (col->type == DOC_INT || col->type == DOC_REAL)) {
		if (row_room(row, 32))
			return -1;
		row->len += col->type == DOC_INT ? num_format_int(c->v.i, row->buf + row->len)
						 : num_format_real_len(c->v.real, row->buf + row->len);
		return 0;
	}
	return tsv_add(row, doc_cell_machine(col, c, buf));
}

struct tsv_rows {
	FILE *fp;
	struct strbuf row; /* one row, written with one fwrite */
};

static int tsv_row(const struct doc_table *t, const struct cell *cells, void *arg)
{
	struct tsv_rows *w = arg;
	int bad = 0;
	strbuf_reset(&w->row);
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			bad |= strbuf_add(&w->row, "\t", 1);
		bad |= tsv_cell(&w->row, &t->cols[c], &cells[c]);
	}
	bad |= strbuf_add(&w->row, "\n", 1);
	if (bad)
		return err_set("out of memory");
	if (fwrite(w->row.buf, 1, w->row.len, w->fp) != w->row.len || ferror(w->fp))
		return doc_write_failed();
	return 0;
}

typedef void (*put_fn)(FILE *, const char *);

struct delimited {
	FILE *fp;
	put_fn put;
	int sep;
};

static int delimited_row(const struct doc_table *t, const struct cell *row, void *arg)
{
	const struct delimited *d = arg;
	for (size_t c = 0; c < t->ncols; c++) {
		char buf[32];
		if (c)
			putc(d->sep, d->fp);
		d->put(d->fp, doc_cell_machine(&t->cols[c], &row[c], buf));
	}
	putc('\n', d->fp);
	return ferror(d->fp) ? doc_write_failed() : 0;
}

static int delimited_table(const struct doc_table *t, FILE *fp, put_fn put, int sep)
{
	struct delimited d = {fp, put, sep};
	size_t rows;
	int rc;
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			putc(sep, fp);
		put(fp, t->cols[c].name);
	}
	putc('\n', fp);
	if (put == tsv_put) { /* a trace can be millions of rows: one buffer a row */
		struct tsv_rows w = {fp, STRBUF_INIT};
		rc = doc_each_row(t, tsv_row, &w, &rows);
		strbuf_release(&w.row);
		return rc;
	}
	return doc_each_row(t, delimited_row, &d, &rows);
}

static const char *fact_machine(const struct fact *f, char buf[32])
{
	if (f->missing)
		return NULL;
	switch (f->type) {
	case DOC_TEXT:
		return f->text;
	case DOC_INT:
		snprintf(buf, 32, "%" PRId64, f->i);
		return buf;
	case DOC_BOOL:
		return f->b ? "1" : "0";
	case DOC_REAL:
		return num_format_real(f->real, buf);
	}
	return NULL;
}

static void delimited_facts(const struct doc *d, FILE *fp, put_fn put, int sep)
{
	static const char *const head[] = {"name", "value", "unit", "label"};
	for (size_t c = 0; c < 4; c++) {
		if (c)
			putc(sep, fp);
		put(fp, head[c]);
	}
	putc('\n', fp);
	for (size_t i = 0; i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		char buf[32];
		put(fp, f->name);
		putc(sep, fp);
		put(fp, fact_machine(f, buf));
		putc(sep, fp);
		put(fp, f->unit);
		putc(sep, fp);
		put(fp, f->label);
		putc('\n', fp);
	}
}

static const struct doc_section *first_table(const struct doc *d)
{
	for (size_t i = 0; i < d->nsections; i++)
		if (d->sections[i]->table)
			return d->sections[i];
	return NULL;
}

static int write_delimited(const struct doc *d, const char *view, FILE *fp, put_fn put, int sep)
{
	const struct doc_section *s;
	if (view && !strcmp(view, "facts")) {
		delimited_facts(d, fp, put, sep);
		return 0;
	}
	s = view ? doc_find_section(d, view) : first_table(d);
	if (!s || !s->table) {
		if (!view) {
			delimited_facts(d, fp, put, sep);
			return 0;
		}
		return err_set("section '%s' has no table", view);
	}
	return delimited_table(s->table, fp, put, sep);
}

int doc_write_delim(const struct doc *d, const char *view, FILE *fp, int sep)
{
	return write_delimited(d, view, fp, sep == ',' ? csv_put : tsv_put, sep);
}
