/*
 * benchstat_text: benchstat's own text layout of a benchstat result
 * (reports/builders.h: benchstat_text_write), so `compare --view
 * benchstat --format text` reads as benchstat's output does, byte for
 * byte: the changed configuration lines before each table, a header of
 * the columns' labels and units between "│" rules, one row per benchmark
 * (each row's medians on one scale, the interval as ± N%, the delta or ~
 * and "(p=0.PPP n=N)"), the geomean row, and the footnotes (¹ ...) the
 * table's cells raised. The layout rules are those of
 * golang.org/x/perf/cmd/benchstat/internal/texttab (columns widened to
 * their widest cell, margins right-aligned, spans widening only their
 * first column), the number rules those of golang.org/x/perf/benchunit
 * (Scaler: a common prefix from the value closest to zero, 1 to 3
 * decimals for >= 99.995, 9.9995, 0.99995 of a prefix).
 */
#include "builders.h"

#include "../analysis/benchstat.h"
#include "../common/err.h"
#include "../common/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers (benchunit's Scaler) ---- */

struct scaler {
	int prec;
	double factor;
	const char *prefix;
};

static const char *const si_prefix[] = {"T", "G", "M", "k", "", "m", "µ", "n"};
static const char *const iec_prefix[] = {"Ti", "Gi", "Mi", "Ki", ""};

/* The threshold "D.DDDDe(exp)" as a double: what printing would round up to the next digit. */
static double thresh(const char *mantissa, int exp)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%se%d", mantissa, exp);
	return strtod(buf, NULL);
}

static struct scaler common_scale(const double *v, size_t n, bool binary)
{
	double min = 0;
	struct scaler s = {3, 1, ""};
	for (size_t i = 0; i < n; i++) {
		double a = fabs(v[i]);
		if (a != 0 && (min == 0 || a < min))
			min = a;
	}
	if (min == 0)
		return s;
	if (!binary) {
		for (int i = 0, exp = 12; i < 8; i++, exp -= 3) {
			double f = pow(10, exp);
			int prec = min >= thresh("99.995", exp)   ? 1
				   : min >= thresh("9.9995", exp) ? 2
				   : min >= thresh(".99995", exp) ? 3
								  : 0;
			if (prec)
				return (struct scaler){prec, f, si_prefix[i]};
		}
		s.factor = 1e-9;
		s.prefix = "n";
	} else {
		/* 99.995, 9.9995 and .99995 times 2^exp, as benchunit spells them */
		for (int i = 0, exp = 40; i < 5; i++, exp -= 10) {
			double f = ldexp(1, exp);
			int prec = min >= 99.995 * f   ? 1
				   : min >= 9.9995 * f ? 2
				   : min >= .99995 * f ? 3
						       : 0;
			if (prec)
				return (struct scaler){prec, f, iec_prefix[i]};
		}
		s.factor = 1;
		s.prefix = "";
	}
	/* below the smallest prefix: more decimals, up to 10 */
	{
		double val = min / s.factor;
		for (int i = 0, exp = -1; exp > -9; i++, exp--) {
			if (val >= thresh("9.9995", exp) || exp == -8) {
				s.prec = i + 3;
				break;
			}
		}
	}
	return s;
}

static void scaled(const struct scaler *s, double v, char *buf, size_t size)
{
	snprintf(buf, size, "%.*f%s", s->prec, v / s->factor, s->prefix);
}

static void scale_one(double v, bool binary, char *buf, size_t size)
{
	struct scaler s = common_scale(&v, 1, binary);
	scaled(&s, v, buf, size);
}

/* benchmath's PctRangeString. */
static void pct_range(const struct benchstat_summary *s, char *buf, size_t size)
{
	int sc = (s->median > 0) - (s->median < 0);
	if (isinf(s->lo) || isinf(s->hi))
		snprintf(buf, size, "∞");
	else if (sc != (s->lo > 0) - (s->lo < 0) || sc != (s->hi > 0) - (s->hi < 0))
		snprintf(buf, size, "?");
	else if (s->median == 0)
		snprintf(buf, size, "0%%");
	else
		snprintf(buf, size, "%.0f%%",
			 100 * fmax(s->hi / s->median - 1, 1 - s->lo / s->median));
}

void benchstat_shown(const struct benchstat_table *t, const struct benchstat_trow *row, int col,
		     char *buf, size_t size)
{
	double centers[2];
	size_t nc = 0;
	struct scaler sc;
	char pct[16], center[64];
	for (int c = 0; c < 2; c++)
		if (row->has[c])
			centers[nc++] = row->c[c].s.median;
	sc = common_scale(centers, nc, t->unit.binary);
	scaled(&sc, row->c[col].s.median, center, sizeof(center));
	pct_range(&row->c[col].s, pct, sizeof(pct));
	snprintf(buf, size, "%s ± %s", center, pct);
}

void benchstat_geomean_shown(const struct benchstat_table *t, int col, char *buf, size_t size)
{
	scale_one(t->gm.value[col], t->unit.binary, buf, size);
}

/* ---- the text table (texttab) ---- */

enum align { LEFT, CENTER, RIGHT };

struct tcell {
	size_t row, col, span;
	char *value;
	const char *margin;
	enum align align;
};

struct ttab {
	struct tcell *cells;
	size_t ncells, cap;
	size_t cols, row, col;
	bool *shrink;
	size_t nshrink;
	bool any;
	int failed;
};

static size_t runes(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void t_row(struct ttab *t)
{
	if (t->ncells)
		t->row++;
	t->col = 0;
}

static void t_span(struct ttab *t, size_t span, const char *value, enum align align,
		   const char *margin)
{
	struct tcell *c;
	if (t->ncells == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct tcell *grown = realloc(t->cells, cap * sizeof(*grown));
		if (!grown) {
			t->failed = 1;
			return;
		}
		t->cells = grown;
		t->cap = cap;
	}
	c = &t->cells[t->ncells];
	c->row = t->row;
	c->col = t->col;
	c->span = span;
	c->value = strdup(value);
	c->align = align;
	/* the default margin: one blank, none in the first column or for an empty cell */
	c->margin = margin ? margin : t->col == 0 || !*value ? "" : " ";
	if (!c->value) {
		t->failed = 1;
		return;
	}
	t->ncells++;
	t->col += span;
	if (t->col > t->cols)
		t->cols = t->col;
}

static void t_cell(struct ttab *t, const char *value, enum align align, const char *margin)
{
	t_span(t, 1, value, align, margin);
}

static void t_shrink(struct ttab *t, size_t col)
{
	if (col >= t->nshrink) {
		bool *grown = realloc(t->shrink, (col + 1) * sizeof(*grown));
		if (!grown) {
			t->failed = 1;
			return;
		}
		for (size_t i = t->nshrink; i <= col; i++)
			grown[i] = false;
		t->shrink = grown;
		t->nshrink = col + 1;
	}
	t->shrink[col] = true;
}

static bool is_shrink(const struct ttab *t, size_t col)
{
	return col < t->nshrink && t->shrink[col];
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ')
			return false;
	return true;
}

static void pad(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_add(out, " ", 1);
}

static int t_format(struct ttab *t, struct strbuf *out)
{
	size_t *lm = calloc(t->cols + 1, sizeof(*lm)), *ws = calloc(t->cols + 1, sizeof(*ws));
	size_t *offs = calloc(t->cols + 2, sizeof(*offs)), row = 0, off = 0;
	if (!lm || !ws || !offs || t->failed) {
		free(lm);
		free(ws);
		free(offs);
		return err_set("out of memory");
	}
	for (size_t i = 0; i < t->ncells; i++)
		if (runes(t->cells[i].margin) > lm[t->cells[i].col])
			lm[t->cells[i].col] = runes(t->cells[i].margin);
	/* widths: single cells first, then spans in increasing width */
	for (size_t span = 1, left = t->ncells; left; span++)
		for (size_t i = 0; i < t->ncells; i++) {
			const struct tcell *c = &t->cells[i];
			size_t w, tw = 0;
			if (c->span != span)
				continue;
			left--;
			w = runes(c->value) + lm[c->col];
			if (span == 1) {
				if (w > ws[c->col])
					ws[c->col] = w;
				continue;
			}
			for (size_t k = c->col; k < c->col + span; k++)
				tw += ws[k];
			if (tw >= w)
				continue;
			/* only the columns that may grow take the rest, the widest first */
			{
				size_t grow[64], ng = 0;
				for (size_t k = c->col; k < c->col + span; k++) {
					if (is_shrink(t, k))
						w = w > ws[k] ? w - ws[k] : 0;
					else if (ng < 64)
						grow[ng++] = k;
				}
				for (size_t x = 1; x < ng;
				     x++) /* by width, widest first (stable) */
					for (size_t y = x; y > 0 && ws[grow[y]] > ws[grow[y - 1]];
					     y--) {
						size_t tmp = grow[y];
						grow[y] = grow[y - 1];
						grow[y - 1] = tmp;
					}
				for (size_t x = 0; x < ng; x++) {
					size_t left_cols = ng - x,
					       avg = (w + left_cols - 1) / left_cols;
					if (ws[grow[x]] < avg)
						ws[grow[x]] = avg;
					w = w > ws[grow[x]] ? w - ws[grow[x]] : 0;
				}
			}
		}
	for (size_t i = 0; i < t->cols; i++)
		offs[i + 1] = offs[i] + ws[i];
	/* the cells, top to bottom, left to right (they were added in that order) */
	for (size_t i = 0; i < t->ncells; i++) {
		const struct tcell *c = &t->cells[i];
		size_t tw, w;
		if (blank(c->value) && blank(c->margin))
			continue;
		while (c->row > row) {
			strbuf_add(out, "\n", 1);
			row++;
			off = 0;
		}
		pad(out, offs[c->col] > off ? offs[c->col] - off : 0);
		pad(out, lm[c->col] > runes(c->margin) ? lm[c->col] - runes(c->margin) : 0);
		strbuf_adds(out, c->margin);
		off = offs[c->col] + lm[c->col];
		/* a cell wider than its columns (no column of its span may grow) runs on: never a negative pad */
		tw = offs[c->col + c->span] - offs[c->col];
		tw = tw > lm[c->col] ? tw - lm[c->col] : 0;
		w = runes(c->value);
		if (c->align == RIGHT && w < tw)
			pad(out, tw - w), off += tw - w;
		else if (c->align == CENTER && w < tw)
			pad(out, (tw - w) / 2), off += (tw - w) / 2;
		strbuf_adds(out, c->value);
		off += w;
	}
	if (t->ncells)
		strbuf_add(out, "\n", 1);
	free(lm);
	free(ws);
	free(offs);
	return 0;
}

static void t_release(struct ttab *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i].value);
	free(t->cells);
	free(t->shrink);
	memset(t, 0, sizeof(*t));
}

/* ---- one table (benchtab's Table.ToText) ---- */

#define LABEL_COLS 1
#define CENTER_COLS 3 /* center ±, interval, footnotes */
#define DELTA_COLS 3  /* delta, (p= n=), footnotes */

static size_t start_col(size_t exp)
{
	return exp == 0 ? LABEL_COLS
			: LABEL_COLS + CENTER_COLS + (exp - 1) * (CENTER_COLS + DELTA_COLS);
}

/* The footnotes: each distinct message numbered in order of first use, per table. */
struct notes {
	char *msg[32];
	size_t n;
};

static const char *const superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};

static void superscript(size_t i, struct strbuf *sb)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%zu", i);
	for (int k = 0; k < n; k++)
		strbuf_adds(sb, superscripts[digits[k] - '0']);
}

/* The footnote cell for messages msgs[0..n): their numbers, blank-separated. */
static void warn(struct ttab *t, struct notes *ns, const char *const *msgs, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t m = 0; m < n; m++) {
		size_t i = 0;
		while (i < ns->n && strcmp(ns->msg[i], msgs[m]))
			i++;
		if (i == ns->n && ns->n < 32 && (ns->msg[ns->n] = strdup(msgs[m])))
			ns->n++;
		if (sb.len)
			strbuf_add(&sb, " ", 1);
		superscript(i + 1, &sb);
	}
	t_cell(t, sb.buf ? sb.buf : "", LEFT, NULL);
	strbuf_release(&sb);
}

static void cell_warnings(const struct benchstat_result *r, const struct benchstat_cell *c,
			  const char **msgs, size_t *n, char *buf, size_t size)
{
	*n = 0;
	if (c->files_vary)
		msgs[(*n)++] = "benchmarks vary in .file";
	if (c->ci_infinite) {
		size_t need = benchstat_ci_samples(r->confidence);
		snprintf(buf, size, "need %s %zu samples for confidence interval at level %g",
			 need ? ">=" : ">", need ? need : 50, r->confidence);
		msgs[(*n)++] = buf;
	}
}

static void data_row(struct ttab *t, struct notes *ns, const struct benchstat_result *r,
		     const struct benchstat_table *tab, const struct benchstat_trow *row)
{
	double centers[2];
	size_t nc = 0;
	struct scaler sc;
	t_row(t);
	t_cell(t, r->rows[row->row], LEFT, NULL);
	for (int col = 0; col < 2; col++)
		if (row->has[col])
			centers[nc++] = row->c[col].s.median;
	sc = common_scale(centers, nc, tab->unit.binary);
	for (int col = 0; col < 2; col++) {
		const struct benchstat_cell *c = &row->c[col];
		const char *msgs[4];
		char buf[128], wbuf[128], pbuf[32];
		size_t n;
		if (!row->has[col])
			continue;
		t->col = start_col((size_t)col);
		scaled(&sc, c->s.median, buf, sizeof(buf));
		t_cell(t, buf, RIGHT, NULL);
		pct_range(&c->s, buf, sizeof(buf));
		t_cell(t, buf, RIGHT, " ± ");
		cell_warnings(r, c, msgs, &n, wbuf, sizeof(wbuf));
		warn(t, ns, msgs, n);
		if (col == 1 && row->compared) {
			t_cell(t, row->delta, RIGHT, NULL);
			if (row->test.p != 0)
				snprintf(pbuf, sizeof(pbuf), "p=%.3f ", row->test.p);
			else
				pbuf[0] = '\0';
			if (row->c[0].n == row->c[1].n)
				snprintf(buf, sizeof(buf), "(%sn=%zu)", pbuf, row->c[0].n);
			else
				snprintf(buf, sizeof(buf), "(%sn=%zu+%zu)", pbuf, row->c[0].n,
					 row->c[1].n);
			t_cell(t, buf, LEFT, NULL);
			n = 0;
			if (row->all_equal)
				msgs[n++] = "all samples are equal";
			if (row->too_few) {
				size_t need = benchstat_utest_samples(r->alpha);
				snprintf(wbuf, sizeof(wbuf),
					 "need %s %zu samples to detect a difference at alpha "
					 "level %g",
					 need ? ">=" : ">", need ? need : 9, r->alpha);
				msgs[n++] = wbuf;
			}
			warn(t, ns, msgs, n);
		}
	}
}

static void geomean_row(struct ttab *t, struct notes *ns, const struct benchstat_table *tab)
{
	const struct benchstat_geomean *g = &tab->gm;
	char buf[64];
	t_row(t);
	t_cell(t, "geomean", LEFT, NULL);
	for (size_t exp = 0; exp < 2; exp++) {
		const char *msgs[2];
		size_t n = 0;
		if (g->has[exp]) {
			t->col = start_col(exp);
			scale_one(g->value[exp], tab->unit.binary, buf, sizeof(buf));
			t_cell(t, buf, RIGHT, NULL);
		}
		if (exp > 0) {
			t->col = start_col(exp) + CENTER_COLS;
			if (g->has_ratio)
				snprintf(buf, sizeof(buf), "%+.2f%%", (g->ratio - 1) * 100);
			else
				snprintf(buf, sizeof(buf), "?");
			t_cell(t, buf, RIGHT, NULL);
		}
		t->col = start_col(exp + 1) - 1;
		if (exp > 0 && g->set_differs)
			msgs[n++] = "benchmark set differs from baseline; geomeans may not be "
				    "comparable";
		if (g->nonpositive[exp])
			msgs[n++] = "summaries must be >0 to compute geomean";
		warn(t, ns, msgs, n);
	}
}

static int one_table(const struct benchstat_result *r, const struct benchstat_table *tab,
		     struct strbuf *out)
{
	struct ttab t = {0};
	struct notes ns = {{0}};
	size_t redge = start_col(3);
	int rc;
	/* the columns' labels, between rules */
	t_row(&t);
	for (size_t exp = 0; exp < 2; exp++) {
		t.col = start_col(exp);
		t_span(&t, start_col(exp + 1) - start_col(exp), r->label[exp], CENTER, " │ ");
	}
	t.col = redge;
	t_cell(&t, "", LEFT, " │");
	/* the unit over each column's values, "vs base" over the comparison */
	t_row(&t);
	for (size_t exp = 0; exp < 2; exp++) {
		size_t l = start_col(exp);
		t.col = l;
		t_span(&t, CENTER_COLS, tab->unit.name, CENTER, " │ ");
		if (exp > 0)
			t_span(&t, DELTA_COLS, "vs base", LEFT, "  ");
		for (size_t j = l + 1; j < t.col; j++)
			t_shrink(&t, j);
	}
	t.col = redge;
	t_cell(&t, "", LEFT, " │");
	for (size_t i = 0; i < tab->nrows; i++)
		data_row(&t, &ns, r, tab, &tab->rows[i]);
	if (tab->nrows > 1)
		geomean_row(&t, &ns, tab);
	rc = t_format(&t, out);
	for (size_t i = 0; i < ns.n; i++) {
		superscript(i + 1, out);
		strbuf_addf(out, " %s\n", ns.msg[i]);
		free(ns.msg[i]);
	}
	t_release(&t);
	return rc;
}

int benchstat_text(const struct benchstat_result *r, struct strbuf *out)
{
	int rc = 0;
	for (size_t ti = 0; rc == 0 && ti < r->ntables; ti++) {
		const struct benchstat_table *tab = &r->tables[ti];
		if (ti > 0)
			strbuf_add(out, "\n", 1);
		/* the configuration lines that changed since the last table */
		for (size_t k = 0; k < r->nkeys; k++) {
			const char *v = r->configs[tab->config][k];
			if (ti > 0 && !strcmp(v, r->configs[r->tables[ti - 1].config][k]))
				continue;
			if (*v || ti > 0)
				strbuf_addf(out, "%s: %s\n", r->keys[k], v);
		}
		rc = one_table(r, tab, out);
	}
	return rc;
}
