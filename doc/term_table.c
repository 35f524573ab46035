/*
 * doc term_table: a table laid out for a terminal of a given width (see
 * doc.h, "Formats", text).
 *
 * Columns are separated by two blanks, numbers right-aligned, with the
 * names on the first header line and the units (scaled: term.h) on a
 * second. When the natural widths do not fit, the wide text columns are
 * wrapped inside their column while each keeps at least WRAP_MIN
 * columns; failing that the widest moves under its row ("  note: ..."),
 * and so on. When the columns that remain still do not fit, the table is
 * printed in panels of columns that do, each led by the first column (the
 * row's key), the way R prints a wide data frame.
 *
 * A streamed table is read once to choose the scales, once for the
 * widths, then once per panel.
 */
#include "term.h"

#include "../common/err.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEP 2       /* blanks between columns */
#define WRAP_MIN 24 /* the narrowest a wrapped text column becomes */
#define MISSING "NA"

enum place { IN_ROW, UNDER };

struct tcol {
	size_t c; /* the doc column */
	bool number, set, scaled;
	bool sized; /* fit_text: its width is decided */
	struct units_prefix scale;
	double min_abs; /* nonzero |value| closest to zero, 0 when none */
	const char *unit;
	size_t natural, width;
	enum place place;
	int panel;
};

struct layout {
	const struct doc_table *t;
	FILE *fp;
	struct tcol *cols; /* the visible columns */
	size_t ncols;
	size_t width;
	int pass; /* 0: scales, 1: widths, 2: rows of `panel` */
	int panel, npanels;
	size_t rows;
};

/* A cell as the terminal shows it: into buf (numbers) or sb (text). */
static const char *cell_str(const struct tcol *tc, const struct doc_col *col, const struct cell *c,
			    char buf[48], struct strbuf *sb)
{
	const char *v;
	if (!c->set)
		return MISSING;
	switch (col->type) {
	case DOC_TEXT:
		strbuf_reset(sb);
		return term_plain(sb, c->v.text, true) ? "" : strbuf_str(sb);
	case DOC_BOOL:
		return c->v.b ? "yes" : "no";
	case DOC_INT:
		if (tc->scaled)
			return units_prefix_format(&tc->scale, (double)c->v.i, buf);
		snprintf(buf, 48, "%" PRId64, c->v.i);
		return buf;
	case DOC_REAL:
		if (!isfinite(c->v.real))
			return MISSING;
		if (tc->scaled)
			return units_prefix_format(&tc->scale, c->v.real, buf);
		v = doc_format_real(c->v.real, col->style, col->precision, buf);
		return v ? v : MISSING;
	}
	return MISSING;
}

static void note_scale(struct tcol *tc, const struct doc_col *col, const struct cell *c)
{
	double v;
	if (!c->set || (col->type != DOC_REAL && col->type != DOC_INT))
		return;
	v = col->type == DOC_REAL ? c->v.real : (double)c->v.i;
	v = fabs(v);
	if (isfinite(v) && v > 0 && (tc->min_abs == 0 || v < tc->min_abs))
		tc->min_abs = v;
}

static int put_blanks(struct strbuf *line, size_t n)
{
	int bad = 0;
	while (n--)
		bad |= strbuf_add(line, " ", 1);
	return bad;
}

/* One cell's text padded into its column (right-aligned numbers). */
static int put_cell(struct strbuf *line, const struct tcol *tc, const char *text, size_t len)
{
	size_t w, before = line->len;
	int bad = strbuf_add(line, text, len);
	w = bad ? 0 : term_width_of(strbuf_str(line) + before);
	if (bad || w >= tc->width)
		return bad;
	if (!tc->number)
		return put_blanks(line, tc->width - w);
	bad = put_blanks(line, tc->width - w);
	if (!bad) { /* the blanks go before the text */
		memmove(line->buf + before + (tc->width - w), line->buf + before, len);
		memset(line->buf + before, ' ', tc->width - w);
	}
	return bad;
}

/* The line without its trailing blanks, then a line break; the line is emptied. */
static void emit_line(FILE *fp, struct strbuf *line)
{
	size_t len = line->len;
	while (len > 0 && line->buf[len - 1] == ' ')
		len--;
	if (len)
		fwrite(line->buf, 1, len, fp);
	putc('\n', fp);
	strbuf_reset(line);
}

/* Is column k in the row lines of the current panel? (the key is in every panel) */
static bool in_panel(const struct layout *l, size_t k)
{
	const struct tcol *tc = &l->cols[k];
	return tc->place == IN_ROW && (k == 0 || tc->panel == l->panel);
}

/* A cell's text for the row lines: texts[k] holds what is left of it to print. */
static int print_row(struct layout *l, const struct cell *row)
{
	const char **left = calloc(l->ncols, sizeof(*left));
	struct strbuf *sbs = calloc(l->ncols, sizeof(*sbs));
	char(*bufs)[48] = calloc(l->ncols, sizeof(*bufs));
	struct strbuf line = STRBUF_INIT;
	bool more = true;
	int rc = 0, bad = 0;
	if (!left || !sbs || !bufs) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t k = 0; k < l->ncols; k++) {
		const struct tcol *tc = &l->cols[k];
		left[k] = cell_str(tc, &l->t->cols[tc->c], &row[tc->c], bufs[k], &sbs[k]);
	}
	while (more) { /* a wrapped cell goes on under itself */
		more = false;
		for (size_t k = 0; k < l->ncols; k++) {
			const struct tcol *tc = &l->cols[k];
			const char *next;
			size_t len;
			if (!in_panel(l, k))
				continue;
			if (k)
				bad |= put_blanks(&line, SEP);
			len = term_line(left[k], tc->width, &next);
			bad |= put_cell(&line, tc, left[k], len);
			left[k] = next;
			more |= *next != '\0';
		}
		emit_line(l->fp, &line);
	}
	/* the columns moved under the row, on the first panel */
	for (size_t k = 0; l->panel == 0 && k < l->ncols; k++) {
		const struct tcol *tc = &l->cols[k];
		const char *name = l->t->cols[tc->c].name;
		if (tc->place != UNDER || !row[tc->c].set || !*left[k])
			continue;
		fprintf(l->fp, "    %s: ", name);
		term_wrap(l->fp, left[k], l->width, 6 + term_width_of(name), 6);
	}
	if (bad)
		rc = err_set("out of memory");
	else if (ferror(l->fp))
		rc = doc_write_failed();
done:
	strbuf_release(&line);
	for (size_t k = 0; sbs && k < l->ncols; k++)
		strbuf_release(&sbs[k]);
	free(left);
	free(sbs);
	free(bufs);
	return rc;
}

static int each_row(const struct doc_table *t, const struct cell *row, void *arg)
{
	struct layout *l = arg;
	struct strbuf sb = STRBUF_INIT;
	char buf[48];
	if (l->pass == 2)
		return print_row(l, row);
	for (size_t k = 0; k < l->ncols; k++) {
		struct tcol *tc = &l->cols[k];
		if (l->pass == 0) {
			tc->set |= row[tc->c].set;
			note_scale(tc, &t->cols[tc->c], &row[tc->c]);
		} else {
			size_t w =
				term_width_of(cell_str(tc, &t->cols[tc->c], &row[tc->c], buf, &sb));
			if (w > tc->natural)
				tc->natural = w;
		}
	}
	strbuf_release(&sb);
	return 0;
}

static size_t row_width(const struct layout *l, int panel)
{
	size_t w = 0, n = 0;
	for (size_t k = 0; k < l->ncols; k++) {
		const struct tcol *tc = &l->cols[k];
		if (tc->place != IN_ROW || (panel >= 0 && k && tc->panel != panel))
			continue;
		w += tc->width;
		n++;
	}
	return w + (n ? (n - 1) * SEP : 0);
}

/* The floor a text column may be wrapped to: WRAP_MIN, or its header or natural width. */
static size_t wrap_floor(const struct layout *l, const struct tcol *tc)
{
	size_t floor = WRAP_MIN, head = term_width_of(l->t->cols[tc->c].name);
	if (tc->unit && term_width_of(tc->unit) > head)
		head = term_width_of(tc->unit);
	if (head > floor)
		floor = head;
	return tc->natural < floor ? tc->natural : floor;
}

static bool wide_text(const struct tcol *tc)
{
	return tc->place == IN_ROW && !tc->number && tc->natural > WRAP_MIN;
}

/* The wide text columns share `space`, narrowest first: each takes its share, or less. */
static void share_space(struct layout *l, size_t space, size_t ncand)
{
	for (size_t k = 0; k < l->ncols; k++)
		l->cols[k].sized = !wide_text(&l->cols[k]);
	for (size_t left = ncand; left > 0; left--) {
		struct tcol *pick = NULL;
		size_t w;
		for (size_t k = 0; k < l->ncols; k++)
			if (!l->cols[k].sized && (!pick || l->cols[k].natural < pick->natural))
				pick = &l->cols[k];
		if (!pick)
			return;
		w = space / left;
		if (w > pick->natural)
			w = pick->natural;
		if (w < wrap_floor(l, pick))
			w = wrap_floor(l, pick);
		pick->width = w;
		pick->sized = true;
		space -= w < space ? w : space;
	}
}

/*
 * Fit the row into l->width by wrapping the text columns wider than
 * WRAP_MIN in what the other columns leave, and, while they cannot keep
 * WRAP_MIN each, moving the widest (never the first column) under its row.
 */
static void fit_text(struct layout *l)
{
	for (;;) {
		size_t fixed = 0, n = 0, need = 0, ncand = 0, widest = 0;
		for (size_t k = 0; k < l->ncols; k++) {
			struct tcol *tc = &l->cols[k];
			if (tc->place != IN_ROW)
				continue;
			n++;
			tc->width = tc->natural;
			if (!wide_text(tc)) {
				fixed += tc->natural;
				continue;
			}
			need += wrap_floor(l, tc);
			ncand++;
			if (k && (!widest || tc->natural > l->cols[widest].natural))
				widest = k;
		}
		fixed += n ? (n - 1) * SEP : 0;
		if (fixed + need <= l->width) {
			if (ncand)
				share_space(l, l->width - fixed, ncand);
			return;
		}
		if (!widest)
			return; /* nothing to move: panels take the numbers */
		l->cols[widest].place = UNDER;
	}
}

/* Columns that still do not fit go into panels, each led by the first column. */
static void split_panels(struct layout *l)
{
	size_t key = l->ncols ? l->cols[0].width : 0, used = key;
	int panel = 0;
	for (size_t k = 1; k < l->ncols; k++) {
		struct tcol *tc = &l->cols[k];
		if (tc->place != IN_ROW)
			continue;
		if (used > key && used + SEP + tc->width > l->width) {
			panel++;
			used = key;
		}
		tc->panel = panel;
		used += SEP + tc->width;
	}
	l->npanels = panel + 1;
}

static int print_header(struct layout *l)
{
	struct strbuf line = STRBUF_INIT;
	bool units = false;
	int bad = 0;
	for (size_t k = 0; k < l->ncols; k++)
		units |= in_panel(l, k) && l->cols[k].unit && *l->cols[k].unit;
	for (int i = 0; i < (units ? 3 : 2); i++) {
		for (size_t k = 0; k < l->ncols; k++) {
			const struct tcol *tc = &l->cols[k];
			const char *text = i == 0            ? l->t->cols[tc->c].name
					   : i == 1 && units ? (tc->unit ? tc->unit : "")
							     : NULL;
			if (!in_panel(l, k))
				continue;
			if (k)
				bad |= put_blanks(&line, SEP);
			for (size_t j = 0; !text && j < tc->width; j++)
				bad |= strbuf_add(&line, "-", 1);
			if (text)
				bad |= put_cell(&line, tc, text, strlen(text));
		}
		emit_line(l->fp, &line);
	}
	strbuf_release(&line);
	return bad ? err_set("out of memory") : 0;
}

/* Which columns show (hide_empty, as Markdown), their alignment and units. */
static int choose_columns(struct layout *l)
{
	const struct doc_table *t = l->t;
	size_t n = 0;
	int rc;
	l->cols = calloc(t->ncols ? t->ncols : 1, sizeof(*l->cols));
	if (!l->cols)
		return err_set("out of memory");
	for (size_t c = 0; c < t->ncols; c++) {
		struct tcol *tc = &l->cols[c];
		tc->c = c;
		tc->number = t->cols[c].type == DOC_INT || t->cols[c].type == DOC_REAL;
		tc->unit = units_shown(t->cols[c].unit);
	}
	l->ncols = t->ncols;
	l->pass = 0;
	if ((rc = doc_each_row(t, each_row, l, &l->rows)) != 0 || l->rows == 0)
		return rc;
	/* columns of one unit share its scale (median and max alike): the smallest decides */
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t o = 0; o < t->ncols; o++) {
			double m = l->cols[o].min_abs;
			if (o != c && t->cols[c].unit && t->cols[o].unit &&
			    !strcmp(t->cols[c].unit, t->cols[o].unit) && m > 0 &&
			    (l->cols[c].min_abs == 0 || m < l->cols[c].min_abs))
				l->cols[c].min_abs = m;
		}
	for (size_t c = 0; c < t->ncols; c++) {
		struct tcol tc = l->cols[c];
		if (t->hide_empty && !tc.set)
			continue;
		tc.scaled = tc.number && tc.unit &&
			    units_prefix_for(tc.min_abs, t->cols[c].unit, &tc.scale);
		l->cols[n] = tc;
		if (tc.scaled)
			l->cols[n].unit = l->cols[n].scale.unit;
		n++;
	}
	if (n == 0) /* every column empty: show them all, as Markdown does */
		for (size_t c = 0; c < t->ncols; c++)
			l->cols[n++].set = true;
	l->ncols = n;
	for (size_t k = 0; k < n; k++) {
		struct tcol *tc = &l->cols[k];
		tc->natural = term_width_of(t->cols[tc->c].name);
		if (tc->unit && term_width_of(tc->unit) > tc->natural)
			tc->natural = term_width_of(tc->unit);
	}
	l->pass = 1;
	return doc_each_row(t, each_row, l, &l->rows);
}

int term_table(const struct doc_table *t, FILE *fp, size_t width)
{
	struct layout l = {t, fp, NULL, 0, width, 0, 0, 1, 0};
	struct strbuf sb = STRBUF_INIT;
	int rc = choose_columns(&l);
	if (rc)
		goto done;
	if (l.rows == 0) {
		if (term_plain(&sb, t->empty_text ? t->empty_text : "none", true) == 0)
			term_wrap(fp, strbuf_str(&sb), width, 0, 2);
		goto done;
	}
	fit_text(&l);
	if (row_width(&l, -1) > width)
		split_panels(&l);
	for (l.panel = 0; rc == 0 && l.panel < l.npanels; l.panel++) {
		if (l.panel)
			putc('\n', fp);
		rc = print_header(&l);
		l.pass = 2;
		if (rc == 0)
			rc = doc_each_row(t, each_row, &l, &l.rows);
	}
done:
	strbuf_release(&sb);
	free(l.cols);
	return rc;
}
