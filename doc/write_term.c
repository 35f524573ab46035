/*
 * doc write_term: the terminal writer, "text" (see doc.h, "Formats").
 *
 * What a person reads at a terminal: plain text wrapped to the
 * terminal's width, no Markdown (no escapes, no table pipes, no code
 * span backticks), tables laid out to fit (doc/term_table.c) with their
 * numbers scaled (doc/scale.c). What a terminal must not get from a
 * corpus (controls, bytes that are not UTF-8) is written as \xNN.
 */
#include "term.h"

#include "../common/err.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

#define MIN_WIDTH 40

size_t term_width_of(const char *s)
{
	size_t w = 0;
	for (; s && *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

int term_plain(struct strbuf *sb, const char *text, bool code_spans)
{
	struct strbuf flat = STRBUF_INIT;
	bool in_span = false;
	int bad = 0;
	for (const char *s = text ? text : ""; *s; s++) {
		char ch = *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s;
		/* a code span's backticks are Markdown: its text stays, so does a lone backtick */
		if (code_spans && ch == '`' && (in_span || strchr(s + 1, '`'))) {
			in_span = !in_span;
			continue;
		}
		bad |= strbuf_add(&flat, &ch, 1);
	}
	if (!bad)
		bad = doc_term_escape(sb, strbuf_str(&flat), NULL);
	strbuf_release(&flat);
	return bad ? -1 : 0;
}

/* Bytes of the character at s (a UTF-8 lead byte and its continuation bytes). */
static size_t char_bytes(const char *s)
{
	size_t n = 1;
	while (s[n] && ((unsigned char)s[n] & 0xC0) == 0x80)
		n++;
	return n;
}

size_t term_line(const char *text, size_t width, const char **next)
{
	size_t cols = 0, at = 0, last_blank = 0;
	bool blank_seen = false;
	if (width == 0)
		width = 1;
	while (text[at] && cols < width) {
		if (text[at] == ' ') {
			last_blank = at;
			blank_seen = true;
		}
		at += char_bytes(text + at);
		cols++;
	}
	if (text[at] && text[at] != ' ' && blank_seen) {
		at = last_blank; /* break at the last blank; a longer word is cut */
	}
	*next = text + at;
	while (**next == ' ')
		(*next)++;
	while (at > 0 && text[at - 1] == ' ')
		at--;
	return at;
}

void term_wrap(FILE *fp, const char *text, size_t width, size_t first_cols, size_t indent)
{
	size_t room = width > first_cols + 8 ? width - first_cols : 8;
	const char *next;
	while (*text == ' ')
		text++;
	do {
		size_t len = term_line(text, room, &next);
		fwrite(text, 1, len, fp);
		putc('\n', fp);
		text = next;
		if (*text) {
			for (size_t i = 0; i < indent; i++)
				putc(' ', fp);
			room = width > indent + 8 ? width - indent : 8;
		}
	} while (*text);
}

int doc_term_width(FILE *fp)
{
	struct winsize ws;
	const char *columns = getenv("COLUMNS");
	long n;
	char *end;
	if (fp && isatty(fileno(fp)) && ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < MIN_WIDTH ? MIN_WIDTH : ws.ws_col;
	if (columns && *columns) {
		n = strtol(columns, &end, 10);
		if (*end == '\0' && n > 0 && n < 10000)
			return n < MIN_WIDTH ? MIN_WIDTH : (int)n;
	}
	return 80;
}

/* Plain text wrapped: first line after `lead` (written here), the rest indented. */
static int put_wrapped(FILE *fp, const char *lead, const char *text, bool prose, size_t width,
		       size_t indent)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = term_plain(&sb, text, prose);
	if (rc == 0) {
		fputs(lead, fp);
		term_wrap(fp, strbuf_str(&sb), width, term_width_of(lead), indent);
	} else {
		rc = err_set("out of memory");
	}
	strbuf_release(&sb);
	return rc;
}

/* A heading: its text, then a rule as wide ('=' for the title, '-' for a section). */
static int heading(FILE *fp, const char *title, int rule, size_t width)
{
	struct strbuf sb = STRBUF_INIT;
	size_t w;
	int rc = term_plain(&sb, title, false);
	if (rc) {
		strbuf_release(&sb);
		return err_set("out of memory");
	}
	term_wrap(fp, strbuf_str(&sb), width, 0, 0);
	w = term_width_of(strbuf_str(&sb));
	for (size_t i = 0; i < (w < width ? w : width); i++)
		putc(rule, fp);
	fputs("\n\n", fp);
	strbuf_release(&sb);
	return 0;
}

/* A fact's value: a time or a size scaled as its own column would be; else as Markdown shows it. */
static int fact_value(struct strbuf *sb, const struct fact *f)
{
	struct units_prefix scale;
	char buf[48];
	if (f->missing)
		return strbuf_adds(sb, "NA");
	if (f->type == DOC_REAL && f->unit && units_prefix_for(fabs(f->real), f->unit, &scale)) {
		return strbuf_addf(sb, "%s %s", units_prefix_format(&scale, f->real, buf),
				   scale.unit);
	}
	if (term_plain(sb, f->shown ? f->shown : "NA", false))
		return -1;
	if (f->unit && *f->unit)
		return strbuf_addf(sb, " %s", units_shown(f->unit));
	return 0;
}

static int put_fact(FILE *fp, const struct fact *f, size_t width, const char *sep)
{
	struct strbuf lead = STRBUF_INIT, value = STRBUF_INIT;
	int rc = 0;
	if (term_plain(&lead, f->label, true) || strbuf_adds(&lead, sep) || fact_value(&value, f)) {
		rc = err_set("out of memory");
	} else {
		fputs(strbuf_str(&lead), fp);
		term_wrap(fp, strbuf_str(&value), width, term_width_of(strbuf_str(&lead)), 4);
	}
	strbuf_release(&lead);
	strbuf_release(&value);
	return rc;
}

static int term_body(const struct doc *d, FILE *fp, size_t width, const char *view);

/* A preformatted block, line for line (controls but tabs and line breaks as \xNN). */
static int put_pre(FILE *fp, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	if (doc_term_escape(&sb, text ? text : "", "\n\t")) {
		strbuf_release(&sb);
		return err_set("out of memory");
	}
	len = strlen(strbuf_str(&sb));
	fputs(strbuf_str(&sb), fp);
	if (len == 0 || strbuf_str(&sb)[len - 1] != '\n')
		putc('\n', fp);
	putc('\n', fp);
	strbuf_release(&sb);
	return 0;
}

static int term_status(const struct doc_part *p, FILE *fp, size_t width)
{
	static const char *const lead[] = {"Not measured: ", "Left out: ", "Plot not drawn: "};
	int rc = 0;
	if (p->heading)
		rc = heading(fp, p->heading, '-', width);
	if (rc == 0)
		rc = put_wrapped(fp, lead[p->status], p->text, true, width, 2);
	putc('\n', fp);
	return rc;
}

static int term_figure(const struct doc_part *p, FILE *fp, size_t width)
{
	struct strbuf line = STRBUF_INIT;
	int rc = strbuf_addf(&line, "(image %s) %s", p->image, p->text ? p->text : "");
	rc = rc ? err_set("out of memory")
		: put_wrapped(fp, "Figure: ", strbuf_str(&line), true, width, 2);
	putc('\n', fp);
	strbuf_release(&line);
	return rc;
}

/* A section's parts after its notes (doc.h, "Composition"). */
static int term_parts(const struct doc_section *s, FILE *fp, size_t width)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->nparts; i++) {
		const struct doc_part *p = &s->parts[i];
		switch (p->kind) {
		case DOC_PART_DOC:
			if (p->heading)
				rc = heading(fp, p->heading, '-', width);
			if (rc == 0)
				rc = term_body(p->doc, fp, width, NULL);
			break;
		case DOC_PART_FIGURE:
			rc = term_figure(p, fp, width);
			break;
		case DOC_PART_TEXT:
			rc = put_wrapped(fp, "", p->text, true, width, 0);
			putc('\n', fp);
			break;
		case DOC_PART_STATUS:
			rc = term_status(p, fp, width);
			break;
		case DOC_PART_PRE:
			rc = put_pre(fp, p->text);
			break;
		}
	}
	return rc;
}

static int term_section(const struct doc_section *s, FILE *fp, size_t width)
{
	bool table = s->table && !s->table->quiet;
	int rc = heading(fp, s->title, '-', width);
	for (size_t i = 0; rc == 0 && i < s->ntext; i++) {
		rc = put_wrapped(fp, "", s->text[i], true, width, 0);
		putc('\n', fp);
	}
	if (rc == 0 && table) {
		rc = term_table(s->table, fp, width);
		if (s->nnotes)
			putc('\n', fp);
	}
	for (size_t i = 0; rc == 0 && i < s->nnotes; i++)
		rc = put_wrapped(fp, "- ", s->notes[i], true, width, 2);
	if (table || s->nnotes)
		putc('\n', fp);
	if (rc == 0)
		rc = term_parts(s, fp, width);
	return rc;
}

static int term_left_out(const struct doc *d, FILE *fp, size_t width)
{
	int rc;
	if (d->nleft_out == 0)
		return 0;
	rc = heading(fp, doc_left_out_title(d).text, '-', width);
	for (size_t i = 0; rc == 0 && i < d->nleft_out && i < DOC_LEFT_OUT_SHOWN; i++) {
		struct strbuf line = STRBUF_INIT;
		rc = strbuf_addf(&line, "%s: %s", d->left_out[i].tag ? d->left_out[i].tag : "",
				 d->left_out[i].reason ? d->left_out[i].reason : "");
		rc = rc ? err_set("out of memory")
			: put_wrapped(fp, "- ", strbuf_str(&line), true, width, 2);
		strbuf_release(&line);
	}
	if (rc == 0 && d->nleft_out > DOC_LEFT_OUT_SHOWN) {
		char more[160];
		snprintf(more, sizeof(more),
			 "... and %zu more (coreplan runs --excluded lists every excluded run; "
			 "--format json lists them all)",
			 d->nleft_out - DOC_LEFT_OUT_SHOWN);
		rc = put_wrapped(fp, "- ", more, false, width, 2);
	}
	putc('\n', fp);
	return rc;
}

static int term_footer(const struct doc *d, FILE *fp, size_t width)
{
	struct strbuf line = STRBUF_INIT;
	int rc = strbuf_adds(&line, "coreplan " COREPLAN_VERSION);
	for (size_t i = 0; rc == 0 && i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		if (f->role != DOC_PROVENANCE)
			continue;
		rc = strbuf_addf(&line, "; %s ", f->label);
		if (rc == 0)
			rc = fact_value(&line, f);
	}
	for (size_t i = 0; i < (width < 3 ? width : 3); i++)
		putc('-', fp);
	putc('\n', fp);
	rc = rc ? err_set("out of memory")
		: put_wrapped(fp, "", strbuf_str(&line), false, width, 0);
	strbuf_release(&line);
	return rc;
}

/* d's listed facts, its sections (quiet ones only when named) and its runs left out. */
static int term_body(const struct doc *d, FILE *fp, size_t width, const char *view)
{
	bool listed = false;
	int rc = doc_error(d);
	for (size_t i = 0; rc == 0 && i < d->nfacts; i++) {
		const struct fact *f = &d->facts[i];
		if (f->role != DOC_LISTED)
			continue;
		rc = put_fact(fp, f, width, ": ");
		listed = true;
	}
	if (listed)
		putc('\n', fp);
	for (size_t i = 0; rc == 0 && i < d->nsections; i++)
		if (view ? !strcmp(view, d->sections[i]->name) : !d->sections[i]->quiet)
			rc = term_section(d->sections[i], fp, width);
	if (rc == 0)
		rc = term_left_out(d, fp, width);
	return rc;
}

int doc_write_text(const struct doc *d, FILE *fp, const char *view, int width)
{
	size_t w = width < MIN_WIDTH ? MIN_WIDTH : (size_t)width;
	int rc = doc_error(d);
	if (rc == 0)
		rc = heading(fp, d->title, '=', w);
	if (rc == 0)
		rc = term_body(d, fp, w, view);
	if (rc == 0)
		rc = term_footer(d, fp, w);
	if (rc == 0 && ferror(fp))
		rc = doc_write_failed();
	return rc;
}
