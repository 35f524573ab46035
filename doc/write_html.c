/*
 * doc_html: the HTML writer (doc.h, "html"), a self-contained page made
 * from the Markdown the md writer (or the report) wrote.
 *
 * Why from the Markdown: report.md is composed of many documents, headings
 * and plots written in order (report/report.c); rendering that same text
 * gives report.html exactly report.md's content, with no second
 * composition to keep in step. The Markdown coreplan writes is a small,
 * known subset (doc_write_md, report.c): ATX headings, "- " bullets, pipe
 * tables with an alignment row, "![alt](path)" images on their own line,
 * "---" rules and paragraphs; inline `code`, **strong**, *emphasis*,
 * [text](#anchor) links, backslash escapes and the entities doc_md_escape
 * writes. Anything else is shown as text, escaped: no byte of the input
 * reaches the page as markup except through those rules, and every `<`
 * `>` `"` `'` and every `&` that does not open one of &lt; &gt; &amp;
 * &quot; &#N; &#xN; is escaped.
 */
#include "doc.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	"figure svg,figure img{display:block;max-width:min(100%,1000px);height:auto}\n"
	"hr{border:0;border-top:1px solid #bbb;margin:2rem 0 .8rem}\n"
	"footer{color:#555;font-size:.9em}\n"
	"@media (max-width:1100px){td.num{white-space:normal}}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}"
	"table{font-size:8pt}th,td{max-width:none}td.num{white-space:normal}"
	"a{color:inherit;text-decoration:none}"
	"h1,h2,h3,h4{break-after:avoid}tr,figure,li{break-inside:avoid}"
	"table>tbody>tr:nth-child(even),table.wide>tbody:nth-of-type(even){background:none}"
	"thead{display:table-header-group}}\n";

/* ---- escaping ---- */

/* The length of an entity doc_md_escape (or HTML) may have written at s, or 0. */
static size_t entity_len(const char *s)
{
	static const char *const named[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&#39;", NULL};
	size_t n;
	for (size_t i = 0; named[i]; i++)
		if (!strncmp(s, named[i], strlen(named[i])))
			return strlen(named[i]);
	if (s[1] != '#')
		return 0;
	if (s[2] == 'x' || s[2] == 'X') {
		n = strspn(s + 3, "0123456789abcdefABCDEF");
		return n > 0 && n <= 6 && s[3 + n] == ';' ? n + 4 : 0;
	}
	n = strspn(s + 2, "0123456789");
	return n > 0 && n <= 7 && s[2 + n] == ';' ? n + 3 : 0;
}

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

/* Text with no Markdown meaning (a code span, an attribute), escaped. */
static int put_text(struct strbuf *sb, const char *s, size_t len)
{
	int bad = 0;
	for (size_t i = 0; i < len; i++) {
		size_t e;
		if (s[i] == '\\' && i + 1 < len && strchr("\\`*_[]|#<>&!()-+.{}", s[i + 1])) {
			bad |= put_char(sb, (unsigned char)s[++i]);
		} else if (s[i] == '&' && (e = entity_len(s + i)) > 0 && i + e <= len) {
			bad |= strbuf_add(sb, s + i, e);
			i += e - 1;
		} else {
			bad |= put_char(sb, (unsigned char)s[i]);
		}
	}
	return bad;
}

/* The unescaped delimiter `delim` (length dlen) in s[from, len), or len. */
static size_t find_delim(const char *s, size_t from, size_t len, const char *delim)
{
	size_t dlen = strlen(delim);
	for (size_t i = from; i + dlen <= len; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		if (!strncmp(s + i, delim, dlen))
			return i;
	}
	return len;
}

/* A link target coreplan writes: a fragment, or a relative path; never a scheme. */
static bool safe_href(const char *s, size_t len)
{
	size_t colon = strcspn(s, ":/#?");
	if (len == 0)
		return false;
	if (s[0] == '#')
		return true;
	return !(colon < len && s[colon] == ':');
}

/* Markdown inline text (a paragraph, a bullet, a cell, a heading) as HTML. */
static int put_inline(struct strbuf *sb, const char *s, size_t len)
{
	int bad = 0;
	for (size_t i = 0; i < len; i++) {
		size_t end;
		if (s[i] == '\\' && i + 1 < len) {
			bad |= put_char(sb, (unsigned char)s[++i]);
		} else if (s[i] == '`' && (end = find_delim(s, i + 1, len, "`")) < len) {
			bad |= strbuf_adds(sb, "<code>");
			bad |= put_text(sb, s + i + 1, end - i - 1);
			bad |= strbuf_adds(sb, "</code>");
			i = end;
		} else if (!strncmp(s + i, "**", 2) && i + 2 < len &&
			   (end = find_delim(s, i + 2, len, "**")) < len && end > i + 2) {
			bad |= strbuf_adds(sb, "<strong>");
			bad |= put_inline(sb, s + i + 2, end - i - 2);
			bad |= strbuf_adds(sb, "</strong>");
			i = end + 1;
		} else if (s[i] == '*' && i + 1 < len && s[i + 1] != ' ' &&
			   (end = find_delim(s, i + 1, len, "*")) < len && end > i + 1) {
			bad |= strbuf_adds(sb, "<em>");
			bad |= put_inline(sb, s + i + 1, end - i - 1);
			bad |= strbuf_adds(sb, "</em>");
			i = end;
		} else if (s[i] == '[' && (end = find_delim(s, i + 1, len, "]")) < len &&
			   end + 1 < len && s[end + 1] == '(') {
			size_t close = find_delim(s, end + 2, len, ")");
			if (close < len && safe_href(s + end + 2, close - end - 2)) {
				bad |= strbuf_adds(sb, "<a href=\"");
				bad |= put_text(sb, s + end + 2, close - end - 2);
				bad |= strbuf_adds(sb, "\">");
				bad |= put_inline(sb, s + i + 1, end - i - 1);
				bad |= strbuf_adds(sb, "</a>");
				i = close;
			} else {
				bad |= put_char(sb, '[');
			}
		} else if (s[i] == '&' && (end = entity_len(s + i)) > 0 && i + end <= len) {
			bad |= strbuf_add(sb, s + i, end);
			i += end - 1;
		} else {
			bad |= put_char(sb, (unsigned char)s[i]);
		}
	}
	return bad;
}

/* ---- heading ids ---- */

struct slugs {
	char **items;
	size_t n;
};

static bool slug_taken(const struct slugs *sl, const char *s)
{
	for (size_t i = 0; i < sl->n; i++)
		if (!strcmp(sl->items[i], s))
			return true;
	return false;
}

/*
 * GitHub's anchor of a heading: its text lowercased, letters, digits, '-',
 * '_' and non-ASCII kept, blanks as '-', the rest dropped; a repeat gets
 * "-1", "-2", ... So a [link](#anchor) in report.md works on GitHub and in
 * report.html alike.
 */
static int heading_slug(struct slugs *sl, const char *text, size_t len, struct strbuf *out)
{
	struct strbuf base = STRBUF_INIT;
	int bad = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];
		size_t e;
		if (ch == '\\' && i + 1 < len)
			ch = (unsigned char)text[++i];
		else if (ch == '&' && (e = entity_len(text + i)) > 0) {
			i += e - 1; /* "&lt;" is '<': punctuation, dropped */
			continue;
		}
		if (ch >= 'A' && ch <= 'Z')
			ch = (unsigned char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
		    ch == '_' || ch >= 0x80)
			bad |= strbuf_add(&base, (const char *)&ch, 1);
		else if (ch == ' ')
			bad |= strbuf_adds(&base, "-");
	}
	if (base.len == 0)
		bad |= strbuf_adds(&base, "section");
	strbuf_reset(out);
	bad |= strbuf_adds(out, strbuf_str(&base));
	for (unsigned int k = 1; !bad && slug_taken(sl, strbuf_str(out)); k++) {
		strbuf_reset(out);
		bad |= strbuf_addf(out, "%s-%u", strbuf_str(&base), k);
	}
	strbuf_release(&base);
	if (!bad) {
		char **grown = realloc(sl->items, (sl->n + 1) * sizeof(*grown));
		char *copy = strdup(strbuf_str(out));
		if (!grown || !copy) {
			free(copy);
			if (grown)
				sl->items = grown;
			return -1;
		}
		sl->items = grown;
		sl->items[sl->n++] = copy;
	}
	return bad;
}

static void slugs_release(struct slugs *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		free(sl->items[i]);
	free(sl->items);
	sl->items = NULL;
	sl->n = 0;
}

/* ---- blocks ---- */

struct line {
	const char *s;
	size_t len;
};

/* The cells of a table row "| a | b \| c |", trimmed: cells[] point into the line. */
static size_t split_row(struct line l, struct line *cells, size_t max)
{
	size_t n = 0, start;
	const char *s = l.s;
	size_t len = l.len;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len == 0 || s[0] != '|')
		return 0;
	start = 1;
	for (size_t i = 1; i <= len; i++) {
		if (i < len && s[i] == '\\') {
			i++;
			continue;
		}
		if (i == len && start == len)
			break; /* the closing '|' */
		if (i == len || s[i] == '|') {
			size_t a = start, b = i;
			while (a < b && s[a] == ' ')
				a++;
			while (b > a && s[b - 1] == ' ')
				b--;
			if (n < max)
				cells[n] = (struct line){s + a, b - a};
			n++;
			start = i + 1;
		}
	}
	return n < max ? n : max;
}

static bool is_align_row(struct line l)
{
	for (size_t i = 0; i < l.len; i++)
		if (!strchr("|:- \t", l.s[i]))
			return false;
	return l.len > 0 && memchr(l.s, '-', l.len) != NULL;
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

/* A cell's Markdown as HTML; breakable unless it is a number. */
static int put_cell(struct strbuf *sb, struct line c, bool number)
{
	struct strbuf cell = STRBUF_INIT;
	int bad = put_inline(&cell, c.s, c.len);
	bad |= number ? strbuf_adds(sb, strbuf_str(&cell)) : put_breakable(sb, strbuf_str(&cell));
	strbuf_release(&cell);
	return bad;
}

#define MAX_COLS 256
/*
 * A table of at least WIDE_COLS columns does not fit a page with its long
 * text columns (any cell over LONG_TEXT bytes) in the grid: those columns
 * are written under each row instead, as "name: value" lines spanning it.
 */
#define WIDE_COLS 10
#define LONG_TEXT 48

static int put_table(struct strbuf *sb, const struct line *rows, size_t nrows)
{
	struct line head[MAX_COLS], cells[MAX_COLS];
	bool num[MAX_COLS] = {false}, aside[MAX_COLS] = {false};
	size_t longest[MAX_COLS] = {0};
	size_t ncols = split_row(rows[0], head, MAX_COLS), first_body = 1, naside = 0;
	int bad = 0;
	if (nrows > 1 && is_align_row(rows[1])) {
		struct line al[MAX_COLS];
		size_t na = split_row(rows[1], al, MAX_COLS);
		for (size_t c = 0; c < na; c++)
			num[c] =
				al[c].len > 0 && al[c].s[al[c].len - 1] == ':' && al[c].s[0] != ':';
		first_body = 2;
	}
	for (size_t r = first_body; r < nrows; r++) {
		size_t n = split_row(rows[r], cells, MAX_COLS);
		for (size_t c = 0; c < n && c < ncols; c++)
			if (cells[c].len > longest[c])
				longest[c] = cells[c].len;
	}
	for (size_t c = 0; ncols >= WIDE_COLS && c < ncols; c++) {
		aside[c] = !num[c] && longest[c] > LONG_TEXT;
		naside += aside[c];
	}
	bad |= strbuf_adds(sb,
			   naside ? "<table class=\"wide\">\n<thead><tr>" : "<table>\n<thead><tr>");
	for (size_t c = 0; c < ncols; c++) {
		if (aside[c])
			continue;
		bad |= strbuf_adds(sb, num[c] ? "<th class=\"num\">" : "<th>");
		bad |= put_cell(sb, head[c], false);
		bad |= strbuf_adds(sb, "</th>");
	}
	bad |= strbuf_adds(sb, naside ? "</tr></thead>\n" : "</tr></thead>\n<tbody>\n");
	for (size_t r = first_body; r < nrows; r++) {
		size_t n = split_row(rows[r], cells, MAX_COLS);
		bool more = false;
		bad |= strbuf_adds(sb, naside ? "<tbody>\n<tr>" : "<tr>");
		for (size_t c = 0; c < n; c++) {
			if (c < ncols && aside[c]) {
				more |= cells[c].len > 0;
				continue;
			}
			bad |= strbuf_adds(sb, c < ncols && num[c] ? "<td class=\"num\">" : "<td>");
			bad |= put_cell(sb, cells[c], c < ncols && num[c]);
			bad |= strbuf_adds(sb, "</td>");
		}
		bad |= strbuf_adds(sb, "</tr>\n");
		if (more) {
			bad |= strbuf_addf(sb, "<tr class=\"aside\"><td colspan=\"%zu\">",
					   ncols - naside);
			for (size_t c = 0; c < n && c < ncols; c++) {
				if (!aside[c] || cells[c].len == 0)
					continue;
				bad |= strbuf_adds(sb, "<div><span class=\"col\">");
				bad |= put_cell(sb, head[c], false);
				bad |= strbuf_adds(sb, ":</span> ");
				bad |= put_cell(sb, cells[c], false);
				bad |= strbuf_adds(sb, "</div>");
			}
			bad |= strbuf_adds(sb, "</td></tr>\n");
		}
		if (naside)
			bad |= strbuf_adds(sb, "</tbody>\n");
	}
	bad |= strbuf_adds(sb, naside ? "</table>\n" : "</tbody>\n</table>\n");
	return bad;
}

/* "![alt](path)" alone on a line: alt and path. */
static bool image_line(struct line l, struct line *alt, struct line *src)
{
	const char *close;
	if (l.len < 5 || strncmp(l.s, "![", 2) || l.s[l.len - 1] != ')')
		return false;
	close = memchr(l.s, ']', l.len);
	if (!close || (size_t)(close - l.s) + 1 >= l.len || close[1] != '(')
		return false;
	*alt = (struct line){l.s + 2, (size_t)(close - l.s) - 2};
	*src = (struct line){close + 2, l.len - (size_t)(close - l.s) - 3};
	return src->len > 0 && !memchr(src->s, ' ', src->len);
}

static int put_image(struct strbuf *sb, const struct doc_html_page *page, struct line alt,
		     struct line src, unsigned int figure)
{
	char *path = strndup(src.s, src.len), *label = strndup(alt.s, alt.len);
	struct strbuf alt_html = STRBUF_INIT;
	int rc = 0;
	if (!path || !label || put_text(&alt_html, alt.s, alt.len)) {
		rc = err_set("out of memory");
		goto done;
	}
	if (strbuf_addf(sb, "<figure id=\"figure-%u\" aria-label=\"%s\">\n", figure,
			strbuf_str(&alt_html))) {
		rc = err_set("out of memory");
		goto done;
	}
	if (page && page->image) {
		rc = page->image(page->ctx, path, figure, strbuf_str(&alt_html), sb);
	} else {
		/* no resolver (a command's page): the image is named, not fetched */
		rc = strbuf_adds(sb, "<p>") || put_text(sb, alt.s, alt.len) ||
				     strbuf_adds(sb, ": ") || put_text(sb, src.s, src.len) ||
				     strbuf_adds(sb, "</p>")
			     ? err_set("out of memory")
			     : 0;
	}
	if (rc == 0 && strbuf_adds(sb, "\n</figure>\n"))
		rc = err_set("out of memory");
done:
	free(path);
	free(label);
	strbuf_release(&alt_html);
	return rc;
}

static size_t heading_level(struct line l)
{
	size_t n = 0;
	while (n < l.len && n < 7 && l.s[n] == '#')
		n++;
	return n >= 1 && n <= 6 && n < l.len && l.s[n] == ' ' ? n : 0;
}

static bool is_blank(struct line l)
{
	for (size_t i = 0; i < l.len; i++)
		if (l.s[i] != ' ' && l.s[i] != '\t')
			return false;
	return true;
}

/* The next line of md at *pos (without its '\n'). */
static bool next_line(const char *md, size_t len, size_t *pos, struct line *l)
{
	const char *nl;
	if (*pos >= len)
		return false;
	nl = memchr(md + *pos, '\n', len - *pos);
	l->s = md + *pos;
	l->len = nl ? (size_t)(nl - l->s) : len - *pos;
	*pos += l->len + (nl ? 1 : 0);
	return true;
}

/* The title of the page: the first heading's text, escaped. */
static int page_title(const char *md, size_t len, const struct doc_html_page *page,
		      struct strbuf *out)
{
	size_t pos = 0;
	struct line l;
	if (page && page->title)
		return put_text(out, page->title, strlen(page->title));
	while (next_line(md, len, &pos, &l)) {
		size_t level = heading_level(l);
		if (level) {
			struct strbuf inner = STRBUF_INIT;
			int bad = put_text(&inner, l.s + level + 1, l.len - level - 1);
			bad |= strbuf_adds(out, strbuf_str(&inner));
			strbuf_release(&inner);
			return bad;
		}
	}
	return strbuf_adds(out, "coreplan");
}

int doc_html_from_md(const char *md, size_t len, const struct doc_html_page *page, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT, slug = STRBUF_INIT;
	struct slugs slugs = {NULL, 0};
	struct line *block = NULL;
	size_t nblock = 0, alloc = 0, pos = 0;
	enum { NONE, PARA, LIST, TABLE } kind = NONE;
	unsigned int figures = 0;
	bool after_rule = false;
	struct line l;
	int bad = 0, rc = 0;
	bad |= page_title(md, len, page, &title);
	bad |= strbuf_addf(
		&sb,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"coreplan\">\n"
		"<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		strbuf_str(&title), page_css);
	for (;;) {
		bool more = next_line(md, len, &pos, &l);
		size_t level = more ? heading_level(l) : 0;
		struct line alt = {NULL, 0}, src = {NULL, 0};
		enum {
			BLANK,
			HEADING,
			RULE,
			IMAGE,
			ITEM,
			ROW,
			TEXT
		} what = !more || is_blank(l)                    ? BLANK
			 : level                                 ? HEADING
			 : l.len == 3 && !strncmp(l.s, "---", 3) ? RULE
			 : image_line(l, &alt, &src)             ? IMAGE
			 : l.len >= 2 && !strncmp(l.s, "- ", 2)  ? ITEM
			 : l.s[0] == '|'                         ? ROW
								 : TEXT;
		/* a block ends at a blank line, or where a line of another kind starts */
		bool ends = kind != NONE &&
			    (what == BLANK || what == HEADING || what == RULE || what == IMAGE ||
			     (kind == TABLE && what != ROW) || (kind == LIST && what != ITEM) ||
			     (kind == PARA && (what == ITEM || what == ROW)));
		if (ends) {
			if (kind == TABLE) {
				bad |= put_table(&sb, block, nblock);
			} else if (kind == LIST) {
				bad |= strbuf_adds(&sb, "<ul>\n");
				for (size_t i = 0; i < nblock; i++) {
					bad |= strbuf_adds(&sb, "<li>");
					bad |= put_inline(&sb, block[i].s + 2, block[i].len - 2);
					bad |= strbuf_adds(&sb, "</li>\n");
				}
				bad |= strbuf_adds(&sb, "</ul>\n");
			} else {
				bad |= strbuf_adds(&sb, after_rule ? "<footer><p>" : "<p>");
				for (size_t i = 0; i < nblock; i++) {
					bad |= i ? strbuf_adds(&sb, "\n") : 0;
					bad |= put_inline(&sb, block[i].s, block[i].len);
				}
				bad |= strbuf_adds(&sb, after_rule ? "</p></footer>\n" : "</p>\n");
			}
			kind = NONE;
			nblock = 0;
		}
		if (!more || bad || rc)
			break;
		switch (what) {
		case BLANK:
			break;
		case HEADING: {
			const char *text = l.s + level + 1;
			size_t tlen = l.len - level - 1;
			bad |= heading_slug(&slugs, text, tlen, &slug);
			bad |= strbuf_addf(&sb, "<h%zu id=\"%s\">", level, strbuf_str(&slug));
			bad |= put_inline(&sb, text, tlen);
			bad |= strbuf_addf(&sb, "</h%zu>\n", level);
			break;
		}
		case RULE:
			bad |= strbuf_adds(&sb, "<hr>\n");
			after_rule = true;
			break;
		case IMAGE:
			rc = put_image(&sb, page, alt, src, ++figures);
			break;
		default:
			if (nblock == alloc) {
				size_t want = alloc ? 2 * alloc : 64;
				struct line *grown = realloc(block, want * sizeof(*grown));
				if (!grown) {
					bad = -1;
					break;
				}
				block = grown;
				alloc = want;
			}
			block[nblock++] = l;
			if (kind == NONE)
				kind = what == ITEM ? LIST : what == ROW ? TABLE : PARA;
			break;
		}
	}
	if (rc == 0 && bad)
		rc = err_set("out of memory");
	if (rc == 0 && strbuf_adds(&sb, "</main>\n</body>\n</html>\n"))
		rc = err_set("out of memory");
	if (rc == 0) {
		errno = 0;
		if (fwrite(sb.buf ? sb.buf : "", 1, sb.len, fp) != sb.len || fflush(fp) != 0 ||
		    ferror(fp))
			rc = err_set("cannot write output: %s", strerror(errno ? errno : EIO));
	}
	free(block);
	slugs_release(&slugs);
	strbuf_release(&sb);
	strbuf_release(&title);
	strbuf_release(&slug);
	return rc;
}

int doc_write_html(const struct doc *d, FILE *fp, const char *view)
{
	char *md = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&md, &len);
	int rc;
	if (!mem)
		return err_set("out of memory");
	rc = doc_write_md(d, mem, 1, DOC_MD_ALL, view);
	if (fclose(mem) != 0 && rc == 0)
		rc = err_set("out of memory");
	if (rc == 0)
		rc = doc_html_from_md(md ? md : "", md ? len : 0, NULL, fp);
	free(md);
	return rc;
}
