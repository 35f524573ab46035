/* doc: see doc.h. */
#include "doc.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

/* The JSON output's shape version (schema/README.md, "JSON output"). */
#define DOC_JSON_FORMAT 1

/* One cell: which member holds the value is the column's type (16 bytes, not 40). */
struct cell {
	union {
		char *text; /* DOC_TEXT, owned */
		double real;
		int64_t i;
		bool b;
	} v;
	bool set;
};

/* A writer's use of one row (streamed tables hand it their rows one at a time). */
typedef int (*row_fn)(const struct doc_table *t, const struct cell *row, void *arg);

struct doc_table {
	struct doc *doc;
	struct doc_col *cols; /* name and unit point into names[] and units[] */
	char **names, **units;
	size_t ncols;
	struct cell *cells; /* nrows * ncols */
	size_t nrows, alloc;
	bool hide_empty;
	char *empty_text;
	/* streamed (doc_table_stream): fill makes the rows when a writer asks, one at a time */
	doc_fill_fn fill;
	void *fill_arg;
	void (*free_arg)(void *);
	struct doc_table *self; /* writing a const doc runs fill on its own table */
	row_fn sink;            /* the writer's, during fill */
	void *sink_arg;
	int sink_rc;
	size_t emitted;
};

struct doc_section {
	struct doc *doc;
	char *name, *title;
	char **text;
	size_t ntext;
	char **notes;
	size_t nnotes;
	struct doc_table *table;
};

struct fact {
	char *name, *label, *unit;
	enum doc_role role;
	enum doc_type type;
	bool missing;
	char *text;
	double real;
	int64_t i;
	bool b;
	char *shown; /* as Markdown shows the value */
};

struct left_out {
	char *tag, *reason;
};

struct doc {
	char *command, *title;
	struct fact *facts;
	size_t nfacts;
	struct doc_section **sections;
	size_t nsections;
	struct left_out *left_out;
	size_t nleft_out;
	bool oom;
};

/* ---- building ---- */

static char *dup_or_mark(struct doc *d, const char *s)
{
	char *copy = strdup(s ? s : "");
	if (!copy)
		d->oom = true;
	return copy;
}

/* Grow an array of `size`-byte elements to hold n + 1; false (doc marked) on failure. */
static bool grow(struct doc *d, void **array, size_t n, size_t size)
{
	void *grown = realloc(*array, (n + 1) * size);
	if (!grown) {
		d->oom = true;
		return false;
	}
	*array = grown;
	return true;
}

static char *vformat(struct doc *d, const char *fmt, va_list ap)
{
	va_list copy;
	char small[256], *big;
	int n;
	va_copy(copy, ap);
	n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	if (n < 0) {
		d->oom = true;
		return NULL;
	}
	if ((size_t)n < sizeof(small))
		return dup_or_mark(d, small);
	big = malloc((size_t)n + 1);
	if (!big) {
		d->oom = true;
		return NULL;
	}
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	return big;
}

struct doc *doc_new(const char *command, const char *title)
{
	struct doc *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->command = dup_or_mark(d, command);
	d->title = dup_or_mark(d, title);
	if (d->oom) {
		doc_free(d);
		return NULL;
	}
	return d;
}

static void free_fact(struct fact *f)
{
	free(f->name);
	free(f->label);
	free(f->unit);
	free(f->text);
	free(f->shown);
}

static void free_table(struct doc_table *t)
{
	if (!t)
		return;
	for (size_t r = 0; t->cells && r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			if (t->cols[c].type == DOC_TEXT && t->cells[r * t->ncols + c].set)
				free(t->cells[r * t->ncols + c].v.text);
	free(t->cells);
	for (size_t c = 0; c < t->ncols; c++) {
		free(t->names ? t->names[c] : NULL);
		free(t->units ? t->units[c] : NULL);
	}
	free(t->names);
	free(t->units);
	free(t->cols);
	free(t->empty_text);
	if (t->free_arg)
		t->free_arg(t->fill_arg);
	free(t);
}

static void free_section(struct doc_section *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->title);
	for (size_t i = 0; i < s->ntext; i++)
		free(s->text[i]);
	free(s->text);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	free_table(s->table);
	free(s);
}

void doc_free(struct doc *d)
{
	if (!d)
		return;
	free(d->command);
	free(d->title);
	for (size_t i = 0; i < d->nfacts; i++)
		free_fact(&d->facts[i]);
	free(d->facts);
	for (size_t i = 0; i < d->nsections; i++)
		free_section(d->sections[i]);
	free(d->sections);
	for (size_t i = 0; i < d->nleft_out; i++) {
		free(d->left_out[i].tag);
		free(d->left_out[i].reason);
	}
	free(d->left_out);
	free(d);
}

int doc_error(const struct doc *d)
{
	return !d || d->oom ? err_set("out of memory") : 0;
}

const char *doc_command(const struct doc *d)
{
	return d->command;
}

const char *doc_title(const struct doc *d)
{
	return d->title;
}

void doc_set_title(struct doc *d, const char *fmt, ...)
{
	va_list ap;
	char *title;
	va_start(ap, fmt);
	title = vformat(d, fmt, ap);
	va_end(ap);
	if (title) {
		free(d->title);
		d->title = title;
	}
}

/* ---- facts ---- */

/* The fact named `name`, emptied for reuse, or a new one; NULL when out of memory. */
static struct fact *fact_slot(struct doc *d, const char *name, const char *label,
			      enum doc_role role, const char *unit, enum doc_type type)
{
	struct fact *f = NULL;
	for (size_t i = 0; i < d->nfacts; i++)
		if (!strcmp(d->facts[i].name, name)) {
			f = &d->facts[i];
			free_fact(f);
			break;
		}
	if (!f) {
		if (!grow(d, (void **)&d->facts, d->nfacts, sizeof(*d->facts)))
			return NULL;
		f = &d->facts[d->nfacts++];
	}
	memset(f, 0, sizeof(*f));
	f->name = dup_or_mark(d, name);
	f->label = dup_or_mark(d, label ? label : name);
	f->unit = dup_or_mark(d, unit);
	f->role = role;
	f->type = type;
	return f;
}

void doc_fact_text(struct doc *d, const char *name, const char *label, enum doc_role role,
		   const char *value)
{
	struct fact *f = fact_slot(d, name, label, role, NULL, DOC_TEXT);
	if (!f)
		return;
	f->missing = value == NULL;
	f->text = dup_or_mark(d, value);
	f->shown = dup_or_mark(d, value ? value : "NA");
}

const char *doc_format_real(double value, char style, int precision, char buf[32])
{
	if (isnan(value) || isinf(value))
		return NULL;
	if (style == 'f')
		snprintf(buf, 32, "%.*f", precision, value);
	else
		snprintf(buf, 32, "%.*g", precision > 0 ? precision : 6, value);
	/* a value that rounds to zero prints as 0, not -0.000 */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

const char *doc_fact_real(struct doc *d, const char *name, const char *label,
			  enum doc_role role, double value, const char *unit, char style,
			  int precision)
{
	struct fact *f = fact_slot(d, name, label, role, unit, DOC_REAL);
	char buf[32];
	const char *shown;
	if (!f)
		return "NA";
	f->missing = isnan(value) || isinf(value);
	f->real = value;
	shown = doc_format_real(value, style, precision, buf);
	f->shown = dup_or_mark(d, shown ? shown : "NA");
	return f->shown ? f->shown : "NA";
}

const char *doc_fact_int(struct doc *d, const char *name, const char *label, enum doc_role role,
			 int64_t value, const char *unit)
{
	struct fact *f = fact_slot(d, name, label, role, unit, DOC_INT);
	char buf[32];
	if (!f)
		return "NA";
	f->i = value;
	snprintf(buf, sizeof(buf), "%" PRId64, value);
	f->shown = dup_or_mark(d, buf);
	return f->shown ? f->shown : "NA";
}

void doc_fact_bool(struct doc *d, const char *name, const char *label, enum doc_role role,
		   bool value)
{
	struct fact *f = fact_slot(d, name, label, role, NULL, DOC_BOOL);
	if (!f)
		return;
	f->b = value;
	f->shown = dup_or_mark(d, value ? "yes" : "no");
}

static const struct fact *find_fact(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->nfacts; i++)
		if (!strcmp(d->facts[i].name, name))
			return &d->facts[i];
	return NULL;
}

const char *doc_fact_shown(const struct doc *d, const char *name)
{
	const struct fact *f = find_fact(d, name);
	return f ? f->shown : NULL;
}

double doc_fact_number(const struct doc *d, const char *name)
{
	const struct fact *f = find_fact(d, name);
	if (!f || f->missing)
		return NAN;
	if (f->type == DOC_REAL)
		return f->real;
	if (f->type == DOC_INT)
		return (double)f->i;
	if (f->type == DOC_BOOL)
		return f->b ? 1.0 : 0.0;
	return NAN;
}

const char *doc_fact_string(const struct doc *d, const char *name)
{
	const struct fact *f = find_fact(d, name);
	return f && f->type == DOC_TEXT && !f->missing ? f->text : NULL;
}

/* ---- sections ---- */

struct doc_section *doc_section(struct doc *d, const char *name, const char *title)
{
	struct doc_section *s;
	if (!grow(d, (void **)&d->sections, d->nsections, sizeof(*d->sections)))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		d->oom = true;
		return NULL;
	}
	s->doc = d;
	s->name = dup_or_mark(d, name);
	s->title = dup_or_mark(d, title);
	d->sections[d->nsections++] = s;
	return s;
}

struct doc_section *doc_find_section(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->nsections; i++)
		if (!strcmp(d->sections[i]->name, name))
			return d->sections[i];
	return NULL;
}

size_t doc_section_count(const struct doc *d)
{
	return d->nsections;
}

struct doc_section *doc_section_at(const struct doc *d, size_t i)
{
	return i < d->nsections ? d->sections[i] : NULL;
}

const char *doc_section_name(const struct doc_section *s)
{
	return s->name;
}

const char *doc_section_title(const struct doc_section *s)
{
	return s->title;
}

static void add_line(struct doc_section *s, char ***lines, size_t *n, const char *fmt, va_list ap)
{
	char *line = vformat(s->doc, fmt, ap);
	if (!line)
		return;
	if (!grow(s->doc, (void **)lines, *n, sizeof(**lines))) {
		free(line);
		return;
	}
	(*lines)[(*n)++] = line;
}

void doc_text(struct doc_section *s, const char *fmt, ...)
{
	va_list ap;
	if (!s)
		return;
	va_start(ap, fmt);
	add_line(s, &s->text, &s->ntext, fmt, ap);
	va_end(ap);
}

void doc_note(struct doc_section *s, const char *fmt, ...)
{
	va_list ap;
	if (!s)
		return;
	va_start(ap, fmt);
	add_line(s, &s->notes, &s->nnotes, fmt, ap);
	va_end(ap);
}

/* ---- tables ---- */

struct doc_table *doc_table(struct doc_section *s, const struct doc_col *cols, size_t ncols)
{
	struct doc_table *t;
	if (!s)
		return NULL;
	if (s->table)
		return s->table;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->cols = calloc(ncols ? ncols : 1, sizeof(*t->cols))) ||
	    !(t->names = calloc(ncols ? ncols : 1, sizeof(*t->names))) ||
	    !(t->units = calloc(ncols ? ncols : 1, sizeof(*t->units)))) {
		free_table(t);
		s->doc->oom = true;
		return NULL;
	}
	t->doc = s->doc;
	t->self = t;
	t->ncols = ncols;
	for (size_t c = 0; c < ncols; c++) {
		t->names[c] = dup_or_mark(s->doc, cols[c].name);
		t->units[c] = dup_or_mark(s->doc, cols[c].unit);
		t->cols[c] = cols[c];
		t->cols[c].name = t->names[c] ? t->names[c] : "";
		t->cols[c].unit = t->units[c] ? t->units[c] : "";
	}
	s->table = t;
	return t;
}

struct doc_table *doc_section_table(const struct doc_section *s)
{
	return s ? s->table : NULL;
}

void doc_table_hide_empty(struct doc_table *t)
{
	if (t)
		t->hide_empty = true;
}

void doc_table_empty_text(struct doc_table *t, const char *text)
{
	if (!t)
		return;
	free(t->empty_text);
	t->empty_text = dup_or_mark(t->doc, text);
}

/* A streamed table's row is complete: to the writer, then gone. */
static void stream_emit(struct doc_table *t)
{
	if (t->sink && t->sink_rc == 0) {
		t->sink_rc = t->sink(t, t->cells, t->sink_arg);
		t->emitted++;
	}
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].type == DOC_TEXT && t->cells[c].set)
			free(t->cells[c].v.text);
	t->nrows = 0;
}

void doc_table_stream(struct doc_table *t, doc_fill_fn fill, void *arg, void (*free_arg)(void *))
{
	if (!t) {
		if (free_arg)
			free_arg(arg);
		return;
	}
	if (t->free_arg)
		t->free_arg(t->fill_arg);
	t->fill = fill;
	t->fill_arg = arg;
	t->free_arg = free_arg;
}

bool doc_table_stopped(const struct doc_table *t)
{
	return t && t->sink_rc != 0;
}

void doc_row(struct doc_table *t)
{
	if (!t)
		return;
	if (t->fill && t->nrows == 1)
		stream_emit(t);
	if (t->nrows == t->alloc) {
		size_t want = t->alloc ? 2 * t->alloc : 16;
		struct cell *grown = realloc(t->cells, want * (t->ncols ? t->ncols : 1) * sizeof(*grown));
		if (!grown) {
			t->doc->oom = true;
			return;
		}
		t->cells = grown;
		t->alloc = want;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
}

/* The cell of the current (last) row, or NULL. */
static struct cell *current(struct doc_table *t, size_t col, enum doc_type want)
{
	struct cell *c;
	if (!t || t->nrows == 0 || col >= t->ncols)
		return NULL;
	/* a builder that sets a value of the wrong type has a bug: store nothing */
	if (t->cols[col].type != want &&
	    !(want == DOC_REAL && t->cols[col].type == DOC_INT) &&
	    !(want == DOC_INT && t->cols[col].type == DOC_REAL))
		return NULL;
	c = &t->cells[(t->nrows - 1) * t->ncols + col];
	if (t->cols[col].type == DOC_TEXT && c->set)
		free(c->v.text);
	memset(c, 0, sizeof(*c));
	return c;
}

void doc_set_text(struct doc_table *t, size_t col, const char *text)
{
	struct cell *c = current(t, col, DOC_TEXT);
	if (!c || !text)
		return;
	c->v.text = dup_or_mark(t->doc, text);
	c->set = c->v.text != NULL;
}

void doc_set_real(struct doc_table *t, size_t col, double value)
{
	struct cell *c = current(t, col, DOC_REAL);
	if (!c || isnan(value) || isinf(value))
		return;
	if (t->cols[col].type == DOC_INT)
		c->v.i = (int64_t)llround(value);
	else
		c->v.real = value;
	c->set = true;
}

void doc_set_int(struct doc_table *t, size_t col, int64_t value)
{
	struct cell *c = current(t, col, DOC_INT);
	if (!c)
		return;
	if (t->cols[col].type == DOC_REAL)
		c->v.real = (double)value;
	else
		c->v.i = value;
	c->set = true;
}

void doc_set_bool(struct doc_table *t, size_t col, bool value)
{
	struct cell *c = current(t, col, DOC_BOOL);
	if (!c)
		return;
	c->v.b = value;
	c->set = true;
}

size_t doc_table_rows(const struct doc_table *t)
{
	return t ? (t->fill ? t->emitted : t->nrows) : 0;
}

size_t doc_table_cols(const struct doc_table *t)
{
	return t ? t->ncols : 0;
}

const struct doc_col *doc_table_col(const struct doc_table *t, size_t col)
{
	return t && col < t->ncols ? &t->cols[col] : NULL;
}

int doc_table_find(const struct doc_table *t, const char *name)
{
	for (size_t c = 0; t && c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, name))
			return (int)c;
	return -1;
}

static const struct cell *cell_at(const struct doc_table *t, size_t row, size_t col)
{
	return t && row < t->nrows && col < t->ncols ? &t->cells[row * t->ncols + col] : NULL;
}

const char *doc_cell_text(const struct doc_table *t, size_t row, size_t col)
{
	const struct cell *c = cell_at(t, row, col);
	return c && c->set && t->cols[col].type == DOC_TEXT ? c->v.text : NULL;
}

double doc_cell_number(const struct doc_table *t, size_t row, size_t col)
{
	const struct cell *c = cell_at(t, row, col);
	if (!c || !c->set)
		return NAN;
	switch (t->cols[col].type) {
	case DOC_REAL:
		return c->v.real;
	case DOC_INT:
		return (double)c->v.i;
	case DOC_BOOL:
		return c->v.b ? 1.0 : 0.0;
	default:
		return NAN;
	}
}

bool doc_cell_missing(const struct doc_table *t, size_t row, size_t col)
{
	const struct cell *c = cell_at(t, row, col);
	return !c || !c->set;
}

void doc_left_out(struct doc *d, const char *tag, const char *reason)
{
	if (!grow(d, (void **)&d->left_out, d->nleft_out, sizeof(*d->left_out)))
		return;
	d->left_out[d->nleft_out].tag = dup_or_mark(d, tag);
	d->left_out[d->nleft_out].reason = dup_or_mark(d, reason);
	d->nleft_out++;
}

size_t doc_left_out_count(const struct doc *d)
{
	return d->nleft_out;
}

bool doc_has_view(const struct doc *d, const char *view)
{
	const struct doc_section *s = doc_find_section(d, view);
	return !strcmp(view, "facts") || (s && s->table);
}

int doc_view_names(const struct doc *d, struct strbuf *sb)
{
	int bad = 0;
	for (size_t i = 0; i < d->nsections; i++)
		if (d->sections[i]->table)
			bad |= strbuf_addf(sb, "%s, ", d->sections[i]->name);
	bad |= strbuf_adds(sb, "facts");
	return bad ? err_set("out of memory") : 0;
}

/* ---- text escaping ---- */

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

static bool alnum(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* An underscore between two letters or digits (range_pct) cannot start emphasis. */
static bool intraword(const char *text, const unsigned char *at)
{
	return (const char *)at > text && alnum(at[-1]) && alnum(at[1]);
}

/*
 * The length of the character at s (a valid UTF-8 sequence, else one
 * byte) and whether a terminal must not get it as it is (*unsafe): a C0
 * control or DEL (ESC starts an escape sequence), a C1 control (U+0080 to
 * U+009F: CSI is U+009B) or a byte that is not valid UTF-8. Callers write
 * each byte of an unsafe character as \xNN.
 */
static size_t char_len(const unsigned char *s, bool *unsafe)
{
	size_t n = utf8_len(s);
	*unsafe = n == 0 || *s < 0x20 || *s == 0x7F || (n == 2 && s[0] == 0xC2 && s[1] <= 0x9F);
	return n ? n : 1;
}

int doc_term_escape(struct strbuf *sb, const char *text, const char *keep)
{
	int bad = 0;
	for (const unsigned char *s = (const unsigned char *)text; s && *s;) {
		bool unsafe;
		size_t n = char_len(s, &unsafe);
		if (!unsafe || (keep && strchr(keep, *s))) {
			bad |= strbuf_add(sb, (const char *)s, n);
			s += n;
			continue;
		}
		for (; n > 0; n--, s++)
			bad |= strbuf_addf(sb, "\\x%02X", *s);
	}
	return bad ? -1 : 0;
}

bool doc_term_safe(const char *text, const char *keep)
{
	for (const unsigned char *s = (const unsigned char *)text; s && *s;) {
		bool unsafe;
		size_t n = char_len(s, &unsafe);
		if (unsafe && !(keep && strchr(keep, *s)))
			return false;
		s += n;
	}
	return true;
}

/*
 * Markdown-safe text: what a terminal must not get (doc_term_escape) as
 * \xNN, `<` as &lt; and `&` as &amp; so no HTML tag or entity passes
 * through (a lone `>` cannot open one); in a table cell, a fact, a heading
 * or a left-out run (in_cell: a value) also `|` and the emphasis, code and
 * link characters, so a value reads as itself; in prose (notes, text)
 * `\\`, `*`, `_` and a `]` before `(`, so that no emphasis or link opens.
 */
int doc_md_escape(struct strbuf *sb, const char *text, bool in_cell)
{
	int bad = 0;
	for (const unsigned char *s = (const unsigned char *)text; s && *s; s++) {
		unsigned char ch = *s;
		bool unsafe;
		size_t n = char_len(s, &unsafe);
		if (ch == '\n' || ch == '\r' || ch == '\t') {
			bad |= strbuf_adds(sb, " ");
		} else if (unsafe) {
			for (size_t i = 0; i < n; i++)
				bad |= strbuf_addf(sb, "\\x%02X", s[i]);
			s += n - 1;
		} else if (n > 1) {
			bad |= strbuf_add(sb, (const char *)s, n);
			s += n - 1;
		} else if (ch == '<') {
			bad |= strbuf_adds(sb, "&lt;");
		} else if (ch == '&') {
			bad |= strbuf_adds(sb, "&amp;");
		} else if ((in_cell &&
			    (strchr("|\\*`[]", ch) || (ch == '_' && !intraword(text, s)))) ||
			   (!in_cell && (strchr("\\*", ch) || (ch == '_' && !intraword(text, s)) ||
					 (ch == ']' && s[1] == '(')))) {
			/* prose keeps its `code` spans and [lo, hi] intervals, never a link */
			char esc[3] = {'\\', (char)ch, '\0'};
			bad |= strbuf_adds(sb, esc);
		} else {
			bad |= strbuf_add(sb, (const char *)s, 1);
		}
	}
	return bad ? -1 : 0;
}

void doc_json_string(FILE *fp, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	putc('"', fp);
	while (*s) {
		size_t n;
		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if (*s < 0x20 || *s == 0x7F) {
				fprintf(fp, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (n == 0) {
				fputs("\\ufffd", fp);
				break;
			}
			if (n == 2 && s[0] == 0xC2 && s[1] <= 0x9F) { /* C1: CSI is U+009B */
				fprintf(fp, "\\u%04x", s[1]);
				s += n;
				continue;
			}
			fwrite(s, 1, n, fp);
			s += n;
			continue;
		}
		s++;
	}
	putc('"', fp);
}

/* ---- formatting one value ---- */

/* A cell as Markdown shows it, or NULL when missing. buf holds 32 bytes. */
static const char *md_value(const struct doc_col *col, const struct cell *c, char buf[32])
{
	if (!c->set)
		return NULL;
	switch (col->type) {
	case DOC_TEXT:
		return c->v.text;
	case DOC_INT:
		snprintf(buf, 32, "%" PRId64, c->v.i);
		return buf;
	case DOC_BOOL:
		return c->v.b ? "yes" : "no";
	case DOC_REAL:
		return doc_format_real(c->v.real, col->style, col->precision, buf);
	}
	return NULL;
}

/* Every digit: for tsv, csv (and JSON numbers). */
static const char *machine_value(const struct doc_col *col, const struct cell *c, char buf[32])
{
	if (!c->set)
		return NULL;
	switch (col->type) {
	case DOC_TEXT:
		return c->v.text;
	case DOC_INT:
		snprintf(buf, 32, "%" PRId64, c->v.i);
		return buf;
	case DOC_BOOL:
		return c->v.b ? "1" : "0";
	case DOC_REAL:
		return num_format_real(c->v.real, buf);
	}
	return NULL;
}

/* ---- rows, stored or streamed ---- */

static int write_failed(void)
{
	return err_set("cannot write output: %s", strerror(errno ? errno : EIO));
}

/*
 * Every row of t to fn, in order: a stored table's from its cells, a
 * streamed table's as fill makes them (*rows: how many).
 */
static int each_row(const struct doc_table *t, row_fn fn, void *arg, size_t *rows)
{
	struct doc_table *w;
	int rc = 0;
	if (!t->fill) {
		for (size_t r = 0; rc == 0 && r < t->nrows; r++)
			rc = fn(t, &t->cells[r * t->ncols], arg);
		*rows = t->nrows;
		return rc;
	}
	/* writing a streamed table makes its rows again: the one-row buffer is scratch */
	w = t->self;
	if (w->nrows == 1) {
		w->sink = NULL;
		stream_emit(w);
	}
	w->sink = fn;
	w->sink_arg = arg;
	w->sink_rc = 0;
	w->emitted = 0;
	rc = w->fill(w, w->fill_arg);
	if (w->nrows == 1)
		stream_emit(w);
	w->sink = NULL;
	*rows = w->emitted;
	if (rc == 0)
		rc = w->sink_rc;
	if (rc == 0 && doc_error(w->doc))
		rc = ERR_DATA;
	return rc;
}

/* ---- markdown ---- */

static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void put_repeat(FILE *fp, int ch, size_t n)
{
	while (n--)
		putc(ch, fp);
}

static void put_escaped(FILE *fp, const char *text, bool in_cell)
{
	struct strbuf sb = STRBUF_INIT;
	if (doc_md_escape(&sb, text, in_cell) == 0)
		fputs(strbuf_str(&sb), fp);
	strbuf_release(&sb);
}

/* A pass over a Markdown table's rows: measuring (widths, set columns), then printing. */
struct md_pass {
	FILE *fp;
	size_t *width;
	bool *set;
	const bool *visible; /* NULL while measuring */
};

static int md_row(const struct doc_table *t, const struct cell *row, void *arg)
{
	struct md_pass *p = arg;
	int rc = 0;
	if (p->visible)
		putc('|', p->fp);
	for (size_t c = 0; rc == 0 && c < t->ncols; c++) {
		struct strbuf sb = STRBUF_INIT;
		char buf[32];
		const char *v = md_value(&t->cols[c], &row[c], buf);
		const char *cell;
		if (v && doc_md_escape(&sb, v, true)) {
			rc = err_set("out of memory");
		} else if (!p->visible) {
			p->set[c] |= row[c].set;
			if (text_width(strbuf_str(&sb)) > p->width[c])
				p->width[c] = text_width(strbuf_str(&sb));
		} else if (p->visible[c]) {
			bool right = t->cols[c].type != DOC_TEXT && t->cols[c].type != DOC_BOOL;
			size_t pad;
			cell = strbuf_str(&sb);
			pad = p->width[c] - text_width(cell);
			putc(' ', p->fp);
			if (right)
				put_repeat(p->fp, ' ', pad);
			fputs(cell, p->fp);
			if (!right)
				put_repeat(p->fp, ' ', pad);
			fputs(" |", p->fp);
		}
		strbuf_release(&sb);
	}
	if (rc == 0 && p->visible) {
		putc('\n', p->fp);
		if (ferror(p->fp))
			rc = write_failed();
	}
	return rc;
}

/* The table, or its empty text when it has no rows. Two passes: widths, then rows. */
static int md_table(const struct doc_table *t, FILE *fp)
{
	size_t ncols = t->ncols ? t->ncols : 1, rows = 0, nvisible = 0;
	size_t *width = calloc(ncols, sizeof(*width));
	bool *set = calloc(ncols, sizeof(*set)), *visible = calloc(ncols, sizeof(*visible));
	struct md_pass p = {fp, width, set, NULL};
	int rc = 0;
	if (!width || !set || !visible) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t c = 0; c < t->ncols; c++)
		width[c] = text_width(t->cols[c].name); /* our own column names */
	if ((rc = each_row(t, md_row, &p, &rows)) != 0)
		goto done;
	if (rows == 0) {
		put_escaped(fp, t->empty_text ? t->empty_text : "none", false);
		putc('\n', fp);
		goto done;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		visible[c] = !t->hide_empty || set[c];
		nvisible += visible[c];
		if (width[c] < 3)
			width[c] = 3;
	}
	if (nvisible == 0)
		for (size_t c = 0; c < t->ncols; c++)
			visible[c] = true;
	putc('|', fp);
	for (size_t c = 0; c < t->ncols; c++) {
		if (!visible[c])
			continue;
		putc(' ', fp);
		fputs(t->cols[c].name, fp);
		put_repeat(fp, ' ', width[c] - text_width(t->cols[c].name));
		fputs(" |", fp);
	}
	fputs("\n|", fp);
	for (size_t c = 0; c < t->ncols; c++) {
		bool number = t->cols[c].type == DOC_INT || t->cols[c].type == DOC_REAL;
		if (!visible[c])
			continue;
		if (number) {
			put_repeat(fp, '-', width[c] + 1);
			fputs(":|", fp);
		} else {
			putc(':', fp);
			put_repeat(fp, '-', width[c] + 1);
			putc('|', fp);
		}
	}
	putc('\n', fp);
	p.visible = visible;
	rc = each_row(t, md_row, &p, &rows);
done:
	free(width);
	free(set);
	free(visible);
	return rc;
}

static void heading(FILE *fp, int level, const char *title)
{
	put_repeat(fp, '#', (size_t)(level < 1 ? 1 : level > 6 ? 6 : level));
	putc(' ', fp);
	put_escaped(fp, title, true); /* titles quote field names and values */
	fputs("\n\n", fp);
}

static void md_fact_value(FILE *fp, const struct fact *f)
{
	put_escaped(fp, f->shown ? f->shown : "NA", true);
	if (f->unit && *f->unit && !f->missing)
		fprintf(fp, " %s", f->unit);
}

static int md_section(const struct doc_section *s, FILE *fp, int level)
{
	int rc = 0;
	heading(fp, level, s->title);
	for (size_t i = 0; i < s->ntext; i++) {
		put_escaped(fp, s->text[i], false);
		fputs("\n\n", fp);
	}
	if (s->table) {
		rc = md_table(s->table, fp);
		if (s->nnotes)
			putc('\n', fp);
	}
	for (size_t i = 0; i < s->nnotes; i++) {
		fputs("- ", fp);
		put_escaped(fp, s->notes[i], false);
		putc('\n', fp);
	}
	if (s->table || s->nnotes)
		putc('\n', fp);
	return rc;
}

static void md_left_out(const struct doc *d, FILE *fp, int level)
{
	char title[64];
	if (d->nleft_out == 0)
		return;
	snprintf(title, sizeof(title), "Runs left out (%zu)", d->nleft_out);
	heading(fp, level, title);
	for (size_t i = 0; i < d->nleft_out && i < DOC_LEFT_OUT_SHOWN; i++) {
		const char *tag = d->left_out[i].tag ? d->left_out[i].tag : "";
		fputs("- ", fp);
		/* the tag starts the item: "# x", "> x", "1. x" would open a block */
		size_t digits = strspn(tag, "0123456789");
		if (*tag && strchr("#>+-=~", *tag))
			putc('\\', fp);
		if (digits > 0 && tag[digits] && strchr(".)", tag[digits])) {
			fprintf(fp, "%.*s\\", (int)digits, tag);
			tag += digits;
		}
		put_escaped(fp, tag, true);
		fputs(": ", fp);
		put_escaped(fp, d->left_out[i].reason, true);
		putc('\n', fp);
	}
	if (d->nleft_out > DOC_LEFT_OUT_SHOWN)
		fprintf(fp, "- ... and %zu more (`coreplan runs --excluded` lists every excluded "
			    "run; --format json lists them all)\n",
			d->nleft_out - DOC_LEFT_OUT_SHOWN);
	putc('\n', fp);
}

static void md_footer(const struct doc *d, FILE *fp)
{
	fputs("---\n\ncoreplan " COREPLAN_VERSION, fp);
	for (size_t i = 0; i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		if (f->role != DOC_PROVENANCE)
			continue;
		fputs("; ", fp);
		put_escaped(fp, f->label, false);
		putc(' ', fp);
		md_fact_value(fp, f);
	}
	fputs("\n", fp);
}

int doc_write_md(const struct doc *d, FILE *fp, int level, unsigned int flags, const char *view)
{
	bool listed = false;
	int rc = doc_error(d);
	if (rc)
		return rc;
	if (flags & DOC_MD_TITLE)
		heading(fp, level, d->title);
	for (size_t i = 0; (flags & DOC_MD_FACTS) && i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		if (f->role != DOC_LISTED)
			continue;
		fputs("- ", fp);
		put_escaped(fp, f->label, false);
		fputs(": ", fp);
		md_fact_value(fp, f);
		putc('\n', fp);
		listed = true;
	}
	if (listed)
		putc('\n', fp);
	for (size_t i = 0; rc == 0 && i < d->nsections; i++)
		if (!view || !strcmp(view, d->sections[i]->name))
			rc = md_section(d->sections[i], fp, level + 1);
	if (rc == 0 && (flags & DOC_MD_LEFT_OUT))
		md_left_out(d, fp, level + 1);
	if (rc == 0 && (flags & DOC_MD_FOOTER))
		md_footer(d, fp);
	return rc;
}

/* ---- tsv and csv ---- */

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
 * a present-but-empty cell ("") stays distinct from a missing one.
 */
static void csv_put(FILE *fp, const char *s)
{
	char *copy;
	size_t len;
	if (!s)
		return;
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
		d->put(d->fp, machine_value(&t->cols[c], &row[c], buf));
	}
	putc('\n', d->fp);
	return ferror(d->fp) ? write_failed() : 0;
}

static int delimited_table(const struct doc_table *t, FILE *fp, put_fn put, int sep)
{
	struct delimited d = {fp, put, sep};
	size_t rows;
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			putc(sep, fp);
		put(fp, t->cols[c].name);
	}
	putc('\n', fp);
	return each_row(t, delimited_row, &d, &rows);
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

/* ---- json ---- */

static void json_value(FILE *fp, enum doc_type type, bool missing, const char *text, double real,
		       int64_t i, bool b)
{
	char buf[32];
	if (missing) {
		fputs("null", fp);
		return;
	}
	switch (type) {
	case DOC_TEXT:
		doc_json_string(fp, text);
		break;
	case DOC_INT:
		fprintf(fp, "%" PRId64, i);
		break;
	case DOC_BOOL:
		fputs(b ? "true" : "false", fp);
		break;
	case DOC_REAL:
		fputs(num_format_real(real, buf), fp);
		break;
	}
}

static void json_cell(FILE *fp, enum doc_type type, const struct cell *x)
{
	if (!x->set) {
		fputs("null", fp);
		return;
	}
	json_value(fp, type, false, type == DOC_TEXT ? x->v.text : NULL,
		   type == DOC_REAL ? x->v.real : 0, type == DOC_INT ? x->v.i : 0,
		   type == DOC_BOOL && x->v.b);
}

static const char *type_name(enum doc_type type)
{
	static const char *const names[] = {"text", "int", "real", "bool"};
	return names[type];
}

static void json_lines(FILE *fp, const char *key, char **lines, size_t n, const char *indent)
{
	fprintf(fp, "%s\"%s\": [", indent, key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", fp);
		doc_json_string(fp, lines[i]);
	}
	fputs("]", fp);
}

struct json_rows {
	FILE *fp;
	size_t n;
};

static int json_row(const struct doc_table *t, const struct cell *row, void *arg)
{
	struct json_rows *j = arg;
	fputs(j->n++ ? ",\n        {" : "\n        {", j->fp);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(c ? ", " : "", j->fp);
		doc_json_string(j->fp, t->cols[c].name);
		fputs(": ", j->fp);
		json_cell(j->fp, t->cols[c].type, &row[c]);
	}
	fputs("}", j->fp);
	return ferror(j->fp) ? write_failed() : 0;
}

static int json_table(const struct doc_table *t, FILE *fp)
{
	struct json_rows j = {fp, 0};
	size_t rows;
	int rc;
	fputs(",\n      \"columns\": [", fp);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(c ? ", " : "", fp);
		fputs("{\"name\": ", fp);
		doc_json_string(fp, t->cols[c].name);
		fprintf(fp, ", \"type\": \"%s\", \"unit\": ", type_name(t->cols[c].type));
		doc_json_string(fp, t->cols[c].unit);
		fputs("}", fp);
	}
	fputs("],\n      \"rows\": [", fp);
	rc = each_row(t, json_row, &j, &rows);
	fputs(j.n ? "\n      ]" : "]", fp);
	return rc;
}

static int json_section(const struct doc_section *s, FILE *fp, bool first)
{
	int rc = 0;
	fputs(first ? "\n    " : ",\n    ", fp);
	doc_json_string(fp, s->name);
	fputs(": {\n      \"title\": ", fp);
	doc_json_string(fp, s->title);
	fputs(",\n", fp);
	json_lines(fp, "text", s->text, s->ntext, "      ");
	if (s->table)
		rc = json_table(s->table, fp);
	fputs(",\n", fp);
	json_lines(fp, "notes", s->notes, s->nnotes, "      ");
	fputs("\n    }", fp);
	return rc;
}

static int write_json(const struct doc *d, const char *view, FILE *fp)
{
	bool first = true;
	int rc = 0;
	fputs("{\n  \"coreplan\": \"" COREPLAN_VERSION "\",\n", fp);
	fprintf(fp, "  \"format\": %d,\n  \"command\": ", DOC_JSON_FORMAT);
	doc_json_string(fp, d->command);
	fputs(",\n  \"title\": ", fp);
	doc_json_string(fp, d->title);
	fputs(",\n  \"facts\": {", fp);
	for (size_t i = 0; i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		fputs(i ? ",\n    " : "\n    ", fp);
		doc_json_string(fp, f->name);
		fputs(": {\"value\": ", fp);
		json_value(fp, f->type, f->missing, f->text, f->real, f->i, f->b);
		fputs(", \"unit\": ", fp);
		doc_json_string(fp, f->unit);
		fputs(", \"label\": ", fp);
		doc_json_string(fp, f->label);
		fputs("}", fp);
	}
	fputs(d->nfacts ? "\n  },\n  \"sections\": {" : "},\n  \"sections\": {", fp);
	for (size_t i = 0; rc == 0 && i < d->nsections; i++) {
		if (view && strcmp(view, d->sections[i]->name))
			continue;
		rc = json_section(d->sections[i], fp, first);
		first = false;
	}
	if (rc)
		return rc;
	fputs(first ? "},\n  \"left_out\": [" : "\n  },\n  \"left_out\": [", fp);
	for (size_t i = 0; i < d->nleft_out; i++) {
		fputs(i ? ",\n    {\"tag\": " : "\n    {\"tag\": ", fp);
		doc_json_string(fp, d->left_out[i].tag);
		fputs(", \"reason\": ", fp);
		doc_json_string(fp, d->left_out[i].reason);
		fputs("}", fp);
	}
	fputs(d->nleft_out ? "\n  ]\n}\n" : "]\n}\n", fp);
	return 0;
}

/* ---- entry points ---- */

int doc_format_parse(const char *name, enum doc_format *format)
{
	static const struct {
		const char *name;
		enum doc_format format;
	} names[] = {
		{"md", DOC_MD},   {"markdown", DOC_MD}, {"tsv", DOC_TSV},
		{"csv", DOC_CSV}, {"json", DOC_JSON},   {"html", DOC_HTML},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name)) {
			*format = names[i].format;
			return 0;
		}
	return -1;
}

const char *doc_format_name(enum doc_format format)
{
	static const char *const names[] = {"md", "tsv", "csv", "json", "html"};
	return (size_t)format < sizeof(names) / sizeof(names[0]) ? names[format] : "?";
}

int doc_write(const struct doc *d, enum doc_format format, const char *view, FILE *fp)
{
	int rc = doc_error(d);
	if (rc)
		return rc;
	if (view && !doc_has_view(d, view) &&
	    !((format == DOC_MD || format == DOC_JSON || format == DOC_HTML) &&
	      doc_find_section(d, view))) {
		struct strbuf names = STRBUF_INIT;
		rc = doc_view_names(d, &names);
		if (rc == 0)
			rc = err_usage("unknown view '%s' (views of %s: %s)", view, d->command,
				       strbuf_str(&names));
		strbuf_release(&names);
		return rc;
	}
	errno = 0;
	switch (format) {
	case DOC_MD:
		rc = doc_write_md(d, fp, 2, DOC_MD_ALL, view && strcmp(view, "facts") ? view : NULL);
		break;
	case DOC_TSV:
		rc = write_delimited(d, view, fp, tsv_put, '\t');
		break;
	case DOC_CSV:
		rc = write_delimited(d, view, fp, csv_put, ',');
		break;
	case DOC_JSON:
		rc = write_json(d, view && strcmp(view, "facts") ? view : NULL, fp);
		break;
	case DOC_HTML:
		rc = doc_write_html(d, fp, view && strcmp(view, "facts") ? view : NULL);
		break;
	default:
		return err_set("unknown output format %d", (int)format);
	}
	if (rc)
		return rc;
	if (fflush(fp) != 0 || ferror(fp))
		return err_set("cannot write output: %s", strerror(errno ? errno : EIO));
	return 0;
}
