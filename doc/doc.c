/* doc: the document model (see doc.h). */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
	/* a stored table's texts are in the doc's cell_texts; a streamed one's row is malloc'd */
	for (size_t r = 0; t->fill && t->cells && r < t->nrows; r++)
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

/* n owned strings, and their array. */
static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_section(struct doc_section *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->title);
	free_strings(s->text, s->ntext);
	free_strings(s->notes, s->nnotes);
	free_strings(s->note_links, s->note_links ? s->nnotes : 0);
	free_table(s->table);
	for (size_t i = 0; i < s->nparts; i++) {
		doc_free(s->parts[i].doc);
		free(s->parts[i].heading);
		free(s->parts[i].text);
		free(s->parts[i].image);
		free(s->parts[i].alt);
	}
	free(s->parts);
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
	strpool_release(&d->cell_texts);
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

const char *doc_fact_real(struct doc *d, const char *name, const char *label, enum doc_role role,
			  double value, const char *unit, char style, int precision)
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

/* Keep note_links as long as notes once any note has a link. */
static void link_last_note(struct doc_section *s, const char *anchor)
{
	if (!anchor && !s->note_links)
		return;
	if (!s->note_links) {
		if (!(s->note_links = calloc(s->nnotes ? s->nnotes : 1, sizeof(*s->note_links)))) {
			s->doc->oom = true;
			return;
		}
	} else {
		char **grown = realloc(s->note_links, s->nnotes * sizeof(*grown));
		if (!grown) {
			s->doc->oom = true;
			return;
		}
		s->note_links = grown;
	}
	s->note_links[s->nnotes - 1] = anchor ? dup_or_mark(s->doc, anchor) : NULL;
}

/* A note (linked to anchor, NULL: none). */
static void add_note(struct doc_section *s, const char *anchor, const char *fmt, va_list ap)
{
	size_t before;
	if (!s)
		return;
	before = s->nnotes;
	add_line(s, &s->notes, &s->nnotes, fmt, ap);
	if (s->nnotes > before)
		link_last_note(s, anchor);
}

void doc_note(struct doc_section *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_note(s, NULL, fmt, ap);
	va_end(ap);
}

void doc_note_link(struct doc_section *s, const char *anchor, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_note(s, anchor, fmt, ap);
	va_end(ap);
}

void doc_section_quiet(struct doc_section *s)
{
	if (s)
		s->quiet = true;
}

/* ---- parts (composition) ---- */

static struct doc_part *new_part(struct doc_section *s, enum doc_part_kind kind)
{
	struct doc_part *p;
	if (!grow(s->doc, (void **)&s->parts, s->nparts, sizeof(*s->parts)))
		return NULL;
	p = &s->parts[s->nparts++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	return p;
}

void doc_embed(struct doc_section *s, const char *heading, struct doc *child)
{
	struct doc_part *p;
	if (!child)
		return;
	if (!s || !(p = new_part(s, DOC_PART_DOC))) {
		doc_free(child);
		return;
	}
	p->doc = child;
	p->heading = heading ? dup_or_mark(s->doc, heading) : NULL;
	if (child->oom)
		s->doc->oom = true;
}

void doc_figure(struct doc_section *s, const char *image, const char *alt, const char *caption,
		bool files)
{
	struct doc_part *p;
	if (!s || !(p = new_part(s, DOC_PART_FIGURE)))
		return;
	p->image = dup_or_mark(s->doc, image);
	p->alt = dup_or_mark(s->doc, alt);
	p->text = caption ? dup_or_mark(s->doc, caption) : NULL;
	p->files = files;
}

void doc_paragraph(struct doc_section *s, const char *fmt, ...)
{
	struct doc_part *p;
	va_list ap;
	if (!s || !(p = new_part(s, DOC_PART_TEXT)))
		return;
	va_start(ap, fmt);
	p->text = vformat(s->doc, fmt, ap);
	va_end(ap);
}

static void status_part(struct doc_section *s, const char *heading, enum doc_status status,
			const char *fmt, va_list ap)
{
	struct doc_part *p;
	if (!s || !(p = new_part(s, DOC_PART_STATUS)))
		return;
	p->status = status;
	p->heading = heading ? dup_or_mark(s->doc, heading) : NULL;
	p->text = vformat(s->doc, fmt, ap);
}

void doc_status(struct doc_section *s, enum doc_status status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	status_part(s, NULL, status, fmt, ap);
	va_end(ap);
}

void doc_status_headed(struct doc_section *s, const char *heading, enum doc_status status,
		       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	status_part(s, heading, status, fmt, ap);
	va_end(ap);
}

void doc_preformatted(struct doc_section *s, const char *text)
{
	struct doc_part *p;
	if (!s || !(p = new_part(s, DOC_PART_PRE)))
		return;
	p->text = dup_or_mark(s->doc, text);
}

const char *doc_status_name(enum doc_status status)
{
	static const char *const names[] = {"not measured", "left out", "plot not drawn"};
	return (size_t)status < sizeof(names) / sizeof(names[0]) ? names[status] : "?";
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

void doc_table_quiet(struct doc_table *t)
{
	if (t)
		t->quiet = true;
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
void doc_stream_emit(struct doc_table *t)
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
		doc_stream_emit(t);
	if (t->nrows == t->alloc) {
		size_t want = t->alloc ? 2 * t->alloc : 16;
		struct cell *grown =
			realloc(t->cells, want * (t->ncols ? t->ncols : 1) * sizeof(*grown));
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
	if (t->cols[col].type != want && !(want == DOC_REAL && t->cols[col].type == DOC_INT) &&
	    !(want == DOC_INT && t->cols[col].type == DOC_REAL))
		return NULL;
	c = &t->cells[(t->nrows - 1) * t->ncols + col];
	if (t->fill && t->cols[col].type == DOC_TEXT && c->set)
		free(c->v.text); /* a stored table's stays in cell_texts until doc_free */
	memset(c, 0, sizeof(*c));
	return c;
}

void doc_set_text(struct doc_table *t, size_t col, const char *text)
{
	struct cell *c = current(t, col, DOC_TEXT);
	if (!c || !text)
		return;
	/* a streamed table's row is freed when it is written: its own copy */
	c->v.text = t->fill ? strdup(text) : strpool_copy_n(&t->doc->cell_texts, text, strlen(text));
	c->set = c->v.text != NULL;
	if (!c->set)
		t->doc->oom = true;
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

struct left_out_title doc_left_out_title(const struct doc *d)
{
	struct left_out_title title;
	snprintf(title.text, sizeof(title.text), "Runs left out (%zu)", d->nleft_out);
	return title;
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

/* ---- rows, stored or streamed ---- */

/* A cell's text, as shown (bool yes/no, reals in the column's style) or for machines (1/0, every digit). */
static const char *cell_text(const struct doc_col *col, const struct cell *c, bool machine,
			     char buf[32])
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
		return machine ? (c->v.b ? "1" : "0") : c->v.b ? "yes" : "no";
	case DOC_REAL:
		return machine ? num_format_real(c->v.real, buf)
			       : doc_format_real(c->v.real, col->style, col->precision, buf);
	}
	return NULL;
}

const char *doc_cell_shown(const struct doc_col *col, const struct cell *c, char buf[32])
{
	return cell_text(col, c, false, buf);
}

const char *doc_cell_machine(const struct doc_col *col, const struct cell *c, char buf[32])
{
	return cell_text(col, c, true, buf);
}

int doc_write_failed(void)
{
	return err_set("cannot write output: %s", strerror(errno ? errno : EIO));
}

/*
 * Every row of t to fn, in order: a stored table's from its cells, a
 * streamed table's as fill makes them (*rows: how many).
 */
int doc_each_row(const struct doc_table *t, row_fn fn, void *arg, size_t *rows)
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
		doc_stream_emit(w);
	}
	w->sink = fn;
	w->sink_arg = arg;
	w->sink_rc = 0;
	w->emitted = 0;
	rc = w->fill(w, w->fill_arg);
	if (w->nrows == 1)
		doc_stream_emit(w);
	w->sink = NULL;
	*rows = w->emitted;
	if (rc == 0)
		rc = w->sink_rc;
	if (rc == 0 && doc_error(w->doc))
		rc = ERR_DATA;
	return rc;
}
