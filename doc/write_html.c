/*
 * write_html: the HTML writer (doc.h, "html"): one self-contained page
 * (inline CSS, no script, nothing fetched) rendered by walking the
 * document, so it has the Markdown's content without reading Markdown
 * back: headings with ids (GitHub's anchors, doc_anchor, "-1", "-2" for
 * repeats), facts and notes as lists, tables with numeric columns
 * right-aligned and long text cells wrapping, wide or long tables inside
 * <details> (collapsible), embedded documents and figures in order, and a
 * contents list of the sections when the page asks for one.
 *
 * Every byte of text is escaped: what a terminal must not get as \xNN
 * (doc_term_escape), then < > & " ' as entities. The only markup from text
 * is a `code` span in prose (notes, paragraphs, captions); links come from
 * the document's note links (a fragment id), never from text.
 */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

/* The page's style: a laptop screen and print; tables wrap to the page's width. */
static const char page_css[] =
	":root{color-scheme:light}\n"
	"body{font-family:\"DejaVu Sans\",\"Helvetica Neue\",Arial,sans-serif;font-size:15px;"
	"line-height:1.45;color:#1b1b1b;background:#fff;max-width:1500px;margin:0 auto;"
	"padding:1rem 1.5rem 3rem}\n"
	"p,li{max-width:75rem}\n"
	"h1{font-size:1.7rem;margin:.5rem 0 1rem;border-bottom:2px solid #333}\n"
	"h2{font-size:1.4rem;margin:2.2rem 0 .6rem;border-bottom:1px solid #bbb}\n"
	"h3{font-size:1.15rem;margin:1.6rem 0 .5rem}\n"
	"h4,h5,h6{font-size:1rem;margin:1.2rem 0 .4rem}\n"
	"h1,h2,h3,h4,h5,h6,p,li{overflow-wrap:break-word}\n"
	"p,ul{margin:.4rem 0 .8rem}\n"
	"ul{padding-left:1.4rem}\n"
	"pre{font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;font-size:13px;"
	"background:#f6f6f6;padding:.5rem;margin:.4rem 0 1rem}\n"
	"code{font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;font-size:.9em;"
	"background:#f2f2f2;padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}\n"
	"a{color:#0b57a8}\n"
	"table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:13px;max-width:100%;"
	"font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid #ccc;padding:.2rem .4rem;vertical-align:top;text-align:left;"
	"overflow-wrap:break-word;max-width:36rem}\n"
	"th{background:#eef1f5;font-weight:600}\n"
	"td.num,th.num{text-align:right}\n"
	"td.num{white-space:nowrap}\n"
	"table>tbody>tr:nth-child(even){background:#f7f7f7}\n"
	"table.wide{font-size:12px}\n"
	"table.wide th,table.wide td{padding:.15rem .3rem}\n"
	"table.wide>tbody>tr{background:none}\n"
	"table.wide>tbody:nth-of-type(even){background:#f7f7f7}\n"
	"tr.aside>td{border-top:0;padding:.1rem .6rem .35rem;max-width:none;color:#333}\n"
	"tr.aside span.col{font-weight:600}\n"
	"figure{margin:1rem 0}\n"
	"@media (min-width:1200px){figure{display:inline-block;vertical-align:top;"
	"width:calc(50% - 1.2rem);margin:1rem 1rem 1rem 0}}\n"
	"figure svg,figure img{display:block;width:100%;max-width:860px;height:auto}\n"
	"hr{border:0;border-top:1px solid #bbb;margin:2rem 0 .8rem}\n"
	"footer{color:#555;font-size:.9em}\n"
	"nav.toc{border:1px solid #ccc;background:#fafafa;padding:.4rem 1rem;margin:.5rem 0 1.5rem;"
	"max-width:60rem}\n"
	"nav.toc p{font-weight:600;margin:.2rem 0}\n"
	"nav.toc ol{margin:.1rem 0 .3rem;padding-left:1.4rem}\n"
	"nav.toc ol ol{font-size:.92em;columns:2 24rem}\n"
	"details.table{margin:.4rem 0 1rem}\n"
	"div.scroll{overflow-x:auto;max-width:100%}\n"
	"details.table>summary{cursor:pointer;color:#0b57a8}\n"
	"figcaption{font-size:.92em;color:#333;max-width:75rem}\n"
	"@media (max-width:1100px){td.num{white-space:normal}}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}nav.toc{display:none}"
	"table{font-size:8pt}th,td{max-width:none}td.num{white-space:normal}"
	"a{color:inherit;text-decoration:none}"
	"h1,h2,h3,h4{break-after:avoid}tr,figure,li{break-inside:avoid}"
	"table>tbody>tr:nth-child(even),table.wide>tbody:nth-of-type(even){background:none}"
	"thead{display:table-header-group}}\n";

/* ---- escaping ---- */

/* One character of text, escaped for HTML text and attribute values. */
static int put_char(struct strbuf *sb, unsigned char ch)
{
	switch (ch) {
	case '<':
		return strbuf_adds(sb, "&lt;");
	case '>':
		return strbuf_adds(sb, "&gt;");
	case '&':
		return strbuf_adds(sb, "&amp;");
	case '"':
		return strbuf_adds(sb, "&quot;");
	case '\'':
		return strbuf_adds(sb, "&#39;");
	default:
		/* doc.c escaped controls already: whatever is left is shown, never raw */
		if ((ch < 0x20 && ch != '\t') || ch == 0x7F)
			return strbuf_addf(sb, "\\x%02X", ch);
		return strbuf_add(sb, (const char *)&ch, 1);
	}
}

/* ---- text ---- */

/* Text from a document (a cell, a title, a value), escaped. */
static int put_text(struct strbuf *sb, const char *text)
{
	struct strbuf safe = STRBUF_INIT;
	int bad = doc_term_escape(&safe, text ? text : "", NULL);
	for (const char *p = strbuf_str(&safe); !bad && *p; p++)
		bad |= put_char(sb, (unsigned char)*p);
	strbuf_release(&safe);
	return bad;
}

/* A preformatted block: its lines kept, escaped (controls but line breaks and tabs as \xNN). */
static int put_pre(struct strbuf *sb, const char *text)
{
	struct strbuf safe = STRBUF_INIT;
	int bad = doc_term_escape(&safe, text ? text : "", "\n\t");
	for (const char *p = strbuf_str(&safe); !bad && *p; p++)
		bad |= *p == '\n' || *p == '\t' ? strbuf_add(sb, p, 1)
						: put_char(sb, (unsigned char)*p);
	strbuf_release(&safe);
	return bad;
}

/* Prose (notes, paragraphs, captions): text whose `code` spans become <code>. */
static int put_prose(struct strbuf *sb, const char *text)
{
	struct strbuf safe = STRBUF_INIT;
	int bad = doc_term_escape(&safe, text ? text : "", NULL);
	for (const char *p = strbuf_str(&safe); !bad && *p; p++) {
		const char *end = *p == '`' ? strchr(p + 1, '`') : NULL;
		if (end && end > p + 1) {
			bad |= strbuf_adds(sb, "<code>");
			for (const char *q = p + 1; q < end; q++)
				bad |= put_char(sb, (unsigned char)*q);
			bad |= strbuf_adds(sb, "</code>");
			p = end;
		} else {
			bad |= put_char(sb, (unsigned char)*p);
		}
	}
	strbuf_release(&safe);
	return bad;
}

/*
 * Copy rendered HTML, adding <wbr> (a line break opportunity) outside tags
 * and entities after , / = ; : _ | and inside any run of WBR_RUN characters
 * with no break: a long value wraps inside its cell instead of widening the
 * table. Never inside a UTF-8 sequence.
 */
#define WBR_RUN 18

static int put_breakable(struct strbuf *sb, const char *html)
{
	size_t run = 0;
	int bad = 0;
	for (const char *p = html; *p; p++) {
		if (*p == '<') {
			const char *end = strchr(p, '>');
			size_t n = end ? (size_t)(end - p) + 1 : strlen(p);
			bad |= strbuf_add(sb, p, n);
			p += n - 1;
			continue;
		}
		if (run >= WBR_RUN && ((unsigned char)*p & 0xC0) != 0x80) {
			bad |= strbuf_adds(sb, "<wbr>");
			run = 0;
		}
		if (*p == '&') {
			const char *end = strchr(p, ';');
			size_t n = end ? (size_t)(end - p) + 1 : 1;
			bad |= strbuf_add(sb, p, n);
			p += n - 1;
			run++;
			continue;
		}
		bad |= strbuf_add(sb, p, 1);
		if (*p == ' ' || *p == '-') {
			run = 0;
		} else if (strchr(",/=;:_|", *p) && p[1] && p[1] != ' ') {
			bad |= strbuf_adds(sb, "<wbr>");
			run = 0;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			run++;
		}
	}
	return bad;
}

/* ---- the page being written ---- */

struct toc_entry {
	int level;      /* 2: a section; 3: a heading under it */
	const char *id; /* owned by page.ids */
	char *title;
};

struct page {
	const struct doc_html_page *opts;
	struct strbuf out;
	char **ids; /* every heading id so far: a repeat gets "-1", "-2", ... */
	size_t nids;
	struct toc_entry *toc;
	size_t ntoc;
	unsigned int figures;
	int bad; /* an allocation failed */
	int rc;  /* the first error (an image that could not be inlined) */
};

static bool id_taken(const struct page *pg, const char *id)
{
	for (size_t i = 0; i < pg->nids; i++)
		if (!strcmp(pg->ids[i], id))
			return true;
	return false;
}

/* The heading's id (GitHub's anchor, numbered when repeated), kept; NULL when out of memory. */
static const char *new_id(struct page *pg, const char *title)
{
	struct strbuf base = STRBUF_INIT, id = STRBUF_INIT;
	char **grown = realloc(pg->ids, (pg->nids + 1) * sizeof(*grown));
	char *copy;
	int bad = !grown || doc_anchor(&base, title) || strbuf_adds(&id, strbuf_str(&base));
	if (grown)
		pg->ids = grown;
	for (unsigned int k = 1; !bad && id_taken(pg, strbuf_str(&id)); k++) {
		strbuf_reset(&id);
		bad |= strbuf_addf(&id, "%s-%u", strbuf_str(&base), k);
	}
	strbuf_release(&base);
	copy = bad ? NULL : strbuf_detach(&id);
	strbuf_release(&id);
	if (!copy) {
		pg->bad = -1;
		return NULL;
	}
	pg->ids[pg->nids++] = copy;
	return copy;
}

/* A heading; in the contents list when `listed` (a section of the page, or a part's heading). */
static void heading(struct page *pg, int level, const char *title, bool listed)
{
	const char *id = new_id(pg, title);
	if (level < 1)
		level = 1;
	if (level > 6)
		level = 6;
	if (!id)
		return;
	pg->bad |= strbuf_addf(&pg->out, "<h%d id=\"%s\">", level, id);
	pg->bad |= put_text(&pg->out, title);
	pg->bad |= strbuf_addf(&pg->out, "</h%d>\n", level);
	if (listed && (level == 2 || level == 3) && pg->opts && pg->opts->contents) {
		struct toc_entry *grown = realloc(pg->toc, (pg->ntoc + 1) * sizeof(*grown));
		char *t = strdup(title ? title : "");
		if (!grown || !t) {
			free(t);
			if (grown)
				pg->toc = grown;
			pg->bad = -1;
			return;
		}
		pg->toc = grown;
		pg->toc[pg->ntoc++] = (struct toc_entry){level, id, t};
	}
}

static void paragraph(struct page *pg, const char *open, const char *text, const char *close)
{
	pg->bad |= strbuf_adds(&pg->out, open);
	pg->bad |= put_prose(&pg->out, text);
	pg->bad |= strbuf_adds(&pg->out, close);
}

/* ---- tables ---- */

#define MAX_COLS 256
/*
 * A table of at least WIDE_COLS columns does not fit a page with its long
 * text columns (any cell over LONG_TEXT bytes) in the grid: those columns
 * are written under each row instead, as "name: value" lines spanning it.
 * A table of WIDE_COLS columns or more than LONG_ROWS rows is collapsible
 * (<details>; closed when long), so the page stays short; its summary says
 * its size.
 */
#define WIDE_COLS 10
#define LONG_TEXT 48
#define LONG_ROWS 20

struct table_pass {
	struct page *pg;
	bool set[MAX_COLS], visible[MAX_COLS], aside[MAX_COLS];
	size_t longest[MAX_COLS];
	size_t ncols, nvisible, naside;
	bool render; /* false: measuring */
};

static bool numeric(const struct doc_col *col)
{
	return col->type == DOC_INT || col->type == DOC_REAL;
}

/* A column's name: breakable after its underscores (range_pct), so headers do not widen a table. */
static int put_name(struct strbuf *sb, const char *name)
{
	struct strbuf text = STRBUF_INIT;
	int bad = put_text(&text, name);
	bad |= put_breakable(sb, strbuf_str(&text));
	strbuf_release(&text);
	return bad;
}

static int put_cell(struct strbuf *sb, const struct doc_col *col, const struct cell *c)
{
	char buf[32];
	const char *v = doc_cell_shown(col, c, buf);
	struct strbuf cell = STRBUF_INIT;
	int bad;
	if (!v)
		return 0;
	bad = put_text(&cell, v);
	bad |= numeric(col) ? strbuf_adds(sb, strbuf_str(&cell))
			    : put_breakable(sb, strbuf_str(&cell));
	strbuf_release(&cell);
	return bad;
}

static int table_row(const struct doc_table *t, const struct cell *row, void *arg)
{
	struct table_pass *tp = arg;
	struct strbuf *sb = &tp->pg->out;
	bool more = false;
	int bad = 0;
	if (!tp->render) {
		for (size_t c = 0; c < tp->ncols; c++) {
			char buf[32];
			const char *v = doc_cell_shown(&t->cols[c], &row[c], buf);
			tp->set[c] |= row[c].set;
			if (v && strlen(v) > tp->longest[c])
				tp->longest[c] = strlen(v);
		}
		return 0;
	}
	bad |= strbuf_adds(sb, tp->naside ? "<tbody>\n<tr>" : "<tr>");
	for (size_t c = 0; c < tp->ncols; c++) {
		if (!tp->visible[c])
			continue;
		if (tp->aside[c]) {
			more |= row[c].set;
			continue;
		}
		bad |= strbuf_adds(sb, numeric(&t->cols[c]) ? "<td class=\"num\">" : "<td>");
		bad |= put_cell(sb, &t->cols[c], &row[c]);
		bad |= strbuf_adds(sb, "</td>");
	}
	bad |= strbuf_adds(sb, "</tr>\n");
	if (more) {
		bad |= strbuf_addf(sb, "<tr class=\"aside\"><td colspan=\"%zu\">",
				   tp->nvisible - tp->naside);
		for (size_t c = 0; c < tp->ncols; c++) {
			if (!tp->visible[c] || !tp->aside[c] || !row[c].set)
				continue;
			bad |= strbuf_adds(sb, "<div><span class=\"col\">");
			bad |= put_name(sb, t->cols[c].name);
			bad |= strbuf_adds(sb, ":</span> ");
			bad |= put_cell(sb, &t->cols[c], &row[c]);
			bad |= strbuf_adds(sb, "</div>");
		}
		bad |= strbuf_adds(sb, "</td></tr>\n");
	}
	if (tp->naside)
		bad |= strbuf_adds(sb, "</tbody>\n");
	tp->pg->bad |= bad;
	return bad ? err_set("out of memory") : 0;
}

static int html_table(struct page *pg, const struct doc_table *t, const char *name)
{
	struct table_pass *tp = calloc(1, sizeof(*tp));
	struct strbuf *sb = &pg->out;
	size_t rows = 0;
	bool fold;
	int rc;
	if (!tp)
		return err_set("out of memory");
	tp->pg = pg;
	tp->ncols = t->ncols < MAX_COLS ? t->ncols : MAX_COLS;
	rc = doc_each_row(t, table_row, tp, &rows);
	if (rc == 0 && rows == 0) {
		paragraph(pg, "<p>", t->empty_text ? t->empty_text : "none", "</p>\n");
		goto done;
	}
	for (size_t c = 0; c < tp->ncols; c++) {
		tp->visible[c] = !t->hide_empty || tp->set[c];
		tp->nvisible += tp->visible[c];
	}
	if (tp->nvisible == 0)
		for (size_t c = 0; c < tp->ncols; c++)
			tp->visible[c] = true, tp->nvisible++;
	for (size_t c = 0; tp->nvisible >= WIDE_COLS && c < tp->ncols; c++) {
		tp->aside[c] =
			tp->visible[c] && !numeric(&t->cols[c]) && tp->longest[c] > LONG_TEXT;
		tp->naside += tp->aside[c];
	}
	fold = rc == 0 && (tp->nvisible >= WIDE_COLS || rows > LONG_ROWS);
	if (fold) {
		/* a long table starts closed; a wide one (often the section's main table) open */
		pg->bad |= strbuf_adds(sb, rows > LONG_ROWS
						   ? "<details class=\"table\"><summary>"
						   : "<details class=\"table\" open><summary>");
		pg->bad |= put_text(sb, name);
		pg->bad |= strbuf_addf(sb, ": %zu row%s, %zu columns</summary>\n", rows,
				       rows == 1 ? "" : "s", tp->nvisible);
	}
	/* what still does not fit (many numeric columns) scrolls inside its box, not the page */
	if (tp->nvisible >= WIDE_COLS)
		pg->bad |= strbuf_adds(sb, "<div class=\"scroll\">\n");
	pg->bad |= strbuf_adds(sb, tp->naside ? "<table class=\"wide\">\n<thead><tr>"
					      : "<table>\n<thead><tr>");
	for (size_t c = 0; c < tp->ncols; c++) {
		if (!tp->visible[c] || tp->aside[c])
			continue;
		pg->bad |= strbuf_adds(sb, numeric(&t->cols[c]) ? "<th class=\"num\">" : "<th>");
		pg->bad |= put_name(sb, t->cols[c].name);
		pg->bad |= strbuf_adds(sb, "</th>");
	}
	pg->bad |= strbuf_adds(sb, tp->naside ? "</tr></thead>\n" : "</tr></thead>\n<tbody>\n");
	tp->render = true;
	if (rc == 0)
		rc = doc_each_row(t, table_row, tp, &rows);
	pg->bad |= strbuf_adds(sb, tp->naside ? "</table>\n" : "</tbody>\n</table>\n");
	if (tp->nvisible >= WIDE_COLS)
		pg->bad |= strbuf_adds(sb, "</div>\n");
	if (fold)
		pg->bad |= strbuf_adds(sb, "</details>\n");
done:
	free(tp);
	return rc;
}

/* ---- documents ---- */

static int html_body(struct page *pg, const struct doc *d, int level, unsigned int flags,
		     const char *view);

static void html_facts(struct page *pg, const struct doc *d)
{
	bool open = false;
	for (size_t i = 0; i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		if (f->role != DOC_LISTED)
			continue;
		pg->bad |= strbuf_adds(&pg->out, open ? "<li>" : "<ul class=\"facts\">\n<li>");
		open = true;
		pg->bad |= put_prose(&pg->out, f->label);
		pg->bad |= strbuf_adds(&pg->out, ": ");
		pg->bad |= put_text(&pg->out, f->shown ? f->shown : "NA");
		if (f->unit && *f->unit && !f->missing) {
			pg->bad |= strbuf_adds(&pg->out, " ");
			pg->bad |= put_text(&pg->out, f->unit);
		}
		pg->bad |= strbuf_adds(&pg->out, "</li>\n");
	}
	if (open)
		pg->bad |= strbuf_adds(&pg->out, "</ul>\n");
}

static int html_figure(struct page *pg, const struct doc_part *p)
{
	struct strbuf alt = STRBUF_INIT, *sb = &pg->out;
	unsigned int n = ++pg->figures;
	int rc = 0;
	pg->bad |= put_text(&alt, p->alt);
	pg->bad |= strbuf_addf(sb, "<figure id=\"figure-%u\" aria-label=\"%s\">\n", n,
			       strbuf_str(&alt));
	if (pg->opts && pg->opts->image) {
		rc = pg->opts->image(pg->opts->ctx, p->image, n, strbuf_str(&alt), sb);
	} else {
		/* no resolver (a command's page): the image is named, not fetched */
		pg->bad |= strbuf_adds(sb, "<p>");
		pg->bad |= put_text(sb, p->alt);
		pg->bad |= strbuf_adds(sb, ": ");
		pg->bad |= put_text(sb, p->image);
		pg->bad |= strbuf_adds(sb, "</p>");
	}
	if (p->text) {
		pg->bad |= strbuf_adds(sb, "\n<figcaption>Figure: ");
		pg->bad |= put_prose(sb, p->text);
		if (p->files) {
			pg->bad |= strbuf_adds(sb, " (data: <code>");
			pg->bad |= put_text(sb, p->image);
			pg->bad |= strbuf_adds(sb, ".tsv</code>, script: <code>");
			pg->bad |= put_text(sb, p->image);
			pg->bad |= strbuf_adds(sb, ".gp</code>)");
		}
		pg->bad |= strbuf_adds(sb, "</figcaption>");
	}
	pg->bad |= strbuf_adds(sb, "\n</figure>\n");
	strbuf_release(&alt);
	return rc;
}

static void html_status(struct page *pg, const struct doc_part *p)
{
	switch (p->status) {
	case DOC_STATUS_NOT_MEASURED:
		paragraph(pg, "<p class=\"status\"><strong>Not measured</strong>: ", p->text,
			  "</p>\n");
		break;
	case DOC_STATUS_LEFT_OUT:
		paragraph(pg, "<p class=\"status\"><em>Left out</em>: ", p->text, "</p>\n");
		break;
	case DOC_STATUS_NO_PLOT:
		paragraph(pg, "<p class=\"status\"><em>Plot not drawn: ", p->text, "</em></p>\n");
		break;
	}
}

static int html_section(struct page *pg, const struct doc_section *s, int level)
{
	int rc = 0;
	heading(pg, level, s->title, level == 2);
	for (size_t i = 0; i < s->ntext; i++)
		paragraph(pg, "<p>", s->text[i], "</p>\n");
	if (s->table && !s->table->quiet)
		rc = html_table(pg, s->table, s->title);
	if (s->nnotes)
		pg->bad |= strbuf_adds(&pg->out, "<ul>\n");
	for (size_t i = 0; i < s->nnotes; i++) {
		const char *link = s->note_links ? s->note_links[i] : NULL;
		paragraph(pg, "<li>", s->notes[i], "");
		if (link) {
			pg->bad |= strbuf_adds(&pg->out, " (<a href=\"#");
			pg->bad |= put_text(&pg->out, link);
			pg->bad |= strbuf_adds(&pg->out, "\">section</a>)");
		}
		pg->bad |= strbuf_adds(&pg->out, "</li>\n");
	}
	if (s->nnotes)
		pg->bad |= strbuf_adds(&pg->out, "</ul>\n");
	for (size_t i = 0; rc == 0 && i < s->nparts; i++) {
		const struct doc_part *p = &s->parts[i];
		switch (p->kind) {
		case DOC_PART_DOC:
			if (p->heading)
				heading(pg, level + 1, p->heading, true);
			rc = html_body(pg, p->doc, p->heading ? level + 1 : level,
				       DOC_MD_FACTS | DOC_MD_LEFT_OUT, NULL);
			break;
		case DOC_PART_FIGURE:
			rc = html_figure(pg, p);
			break;
		case DOC_PART_TEXT:
			paragraph(pg, "<p>", p->text, "</p>\n");
			break;
		case DOC_PART_STATUS:
			if (p->heading)
				heading(pg, level + 1, p->heading, true);
			html_status(pg, p);
			break;
		case DOC_PART_PRE:
			pg->bad |= strbuf_adds(&pg->out, "<div class=\"scroll\"><pre>");
			pg->bad |= put_pre(&pg->out, p->text);
			pg->bad |= strbuf_adds(&pg->out, "</pre></div>\n");
			break;
		}
	}
	return rc;
}

static void html_left_out(struct page *pg, const struct doc *d, int level)
{
	if (d->nleft_out == 0)
		return;
	heading(pg, level, doc_left_out_title(d).text, false);
	pg->bad |= strbuf_adds(&pg->out, "<ul>\n");
	for (size_t i = 0; i < d->nleft_out && i < DOC_LEFT_OUT_SHOWN; i++) {
		pg->bad |= strbuf_adds(&pg->out, "<li>");
		pg->bad |= put_text(&pg->out, d->left_out[i].tag);
		pg->bad |= strbuf_adds(&pg->out, ": ");
		pg->bad |= put_text(&pg->out, d->left_out[i].reason);
		pg->bad |= strbuf_adds(&pg->out, "</li>\n");
	}
	if (d->nleft_out > DOC_LEFT_OUT_SHOWN)
		pg->bad |= strbuf_addf(
			&pg->out,
			"<li>... and %zu more (<code>coreplan runs --excluded</code> "
			"lists every excluded run; --format json lists them all)</li>\n",
			d->nleft_out - DOC_LEFT_OUT_SHOWN);
	pg->bad |= strbuf_adds(&pg->out, "</ul>\n");
}

static void html_footer(struct page *pg, const struct doc *d)
{
	pg->bad |= strbuf_adds(&pg->out, "<hr>\n<footer><p>coreplan " COREPLAN_VERSION);
	for (size_t i = 0; i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		if (f->role != DOC_PROVENANCE)
			continue;
		pg->bad |= strbuf_adds(&pg->out, "; ");
		pg->bad |= put_prose(&pg->out, f->label);
		pg->bad |= strbuf_adds(&pg->out, " ");
		pg->bad |= put_text(&pg->out, f->shown ? f->shown : "NA");
		if (f->unit && *f->unit && !f->missing) {
			pg->bad |= strbuf_adds(&pg->out, " ");
			pg->bad |= put_text(&pg->out, f->unit);
		}
	}
	pg->bad |= strbuf_adds(&pg->out, "</p></footer>\n");
}

/* d below `level` (its title and footer are the page's, not here). */
static int html_body(struct page *pg, const struct doc *d, int level, unsigned int flags,
		     const char *view)
{
	int rc = doc_error(d);
	if (rc)
		return rc;
	if (flags & DOC_MD_FACTS)
		html_facts(pg, d);
	for (size_t i = 0; rc == 0 && i < d->nsections; i++)
		if (view ? !strcmp(view, d->sections[i]->name) : !d->sections[i]->quiet)
			rc = html_section(pg, d->sections[i], level + 1);
	if (rc == 0 && (flags & DOC_MD_LEFT_OUT))
		html_left_out(pg, d, level + 1);
	return rc;
}

/* The contents list: each section, with the headings under it. */
static int put_contents(struct strbuf *sb, const struct page *pg)
{
	int bad = 0;
	bool sub = false;
	if (pg->ntoc == 0)
		return 0;
	bad |= strbuf_adds(sb,
			   "<nav class=\"toc\" aria-label=\"Contents\">\n<p>Contents</p>\n<ol>\n");
	for (size_t i = 0; i < pg->ntoc; i++) {
		const struct toc_entry *e = &pg->toc[i];
		if (e->level == 3 && !sub) {
			bad |= strbuf_adds(sb, "\n<ol>\n");
			sub = true;
		} else if (e->level == 2 && sub) {
			bad |= strbuf_adds(sb, "</ol>\n</li>\n");
			sub = false;
		} else if (i > 0) {
			bad |= strbuf_adds(sb, "</li>\n");
		}
		bad |= strbuf_addf(sb, "<li><a href=\"#%s\">", e->id);
		bad |= put_text(sb, e->title);
		bad |= strbuf_adds(sb, "</a>");
	}
	bad |= strbuf_adds(sb,
			   sub ? "</li>\n</ol>\n</li>\n</ol>\n</nav>\n" : "</li>\n</ol>\n</nav>\n");
	return bad;
}

int doc_write_html_page(const struct doc *d, const struct doc_html_page *opts, const char *view,
			FILE *fp)
{
	struct page pg;
	struct strbuf page = STRBUF_INIT, title = STRBUF_INIT, h1 = STRBUF_INIT;
	unsigned int flags = opts && opts->flags ? opts->flags : DOC_MD_ALL;
	int rc = doc_error(d);
	if (rc)
		return rc;
	memset(&pg, 0, sizeof(pg));
	pg.opts = opts;
	/* the title first: its id is the page's first */
	heading(&pg, 1, d->title, false);
	pg.bad |= strbuf_adds(&h1, strbuf_str(&pg.out));
	strbuf_reset(&pg.out);
	rc = html_body(&pg, d, 1, flags, view);
	if (rc == 0 && (flags & DOC_MD_FOOTER))
		html_footer(&pg, d);
	pg.bad |= put_text(&title, opts && opts->title ? opts->title : d->title);
	pg.bad |= strbuf_addf(
		&page,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"coreplan\">\n"
		"<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		strbuf_str(&title), page_css);
	pg.bad |= strbuf_adds(&page, strbuf_str(&h1));
	pg.bad |= put_contents(&page, &pg);
	pg.bad |= strbuf_adds(&page, strbuf_str(&pg.out));
	pg.bad |= strbuf_adds(&page, "</main>\n</body>\n</html>\n");
	if (rc == 0 && pg.bad)
		rc = err_set("out of memory");
	if (rc == 0) {
		errno = 0;
		if (fwrite(page.buf ? page.buf : "", 1, page.len, fp) != page.len ||
		    fflush(fp) != 0 || ferror(fp))
			rc = err_set("cannot write output: %s", strerror(errno ? errno : EIO));
	}
	for (size_t i = 0; i < pg.nids; i++)
		free(pg.ids[i]);
	free(pg.ids);
	for (size_t i = 0; i < pg.ntoc; i++)
		free(pg.toc[i].title);
	free(pg.toc);
	strbuf_release(&pg.out);
	strbuf_release(&page);
	strbuf_release(&title);
	strbuf_release(&h1);
	return rc;
}

int doc_write_html(const struct doc *d, FILE *fp, const char *view)
{
	return doc_write_html_page(d, NULL, view, fp);
}
