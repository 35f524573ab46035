/* doc write_md: the Markdown writer (see doc.h, "Formats"). */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

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
		const char *v = doc_cell_shown(&t->cols[c], &row[c], buf);
		const char *cell;
		if (doc_md_escape(&sb, v ? v : "NA", true)) { /* missing: NA, as in tsv and csv */
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
			rc = doc_write_failed();
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
	if ((rc = doc_each_row(t, md_row, &p, &rows)) != 0)
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
	rc = doc_each_row(t, md_row, &p, &rows);
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

static int md_body(const struct doc *d, FILE *fp, int level, unsigned int flags, const char *view);

static void md_figure(const struct doc_part *p, FILE *fp)
{
	struct strbuf line = STRBUF_INIT;
	/* the alt text and path are coreplan's own (plots/NN-KIND.svg) */
	fputs("![", fp);
	put_escaped(fp, p->alt, true);
	fprintf(fp, "](%s)\n\n", p->image);
	if (p->text) {
		strbuf_addf(&line, "Figure: %s", p->text);
		put_escaped(fp, strbuf_str(&line), false);
		fputs("\n\n", fp);
	}
	if (p->files) {
		strbuf_reset(&line);
		strbuf_addf(&line, "(data: `%s.tsv`, script: `%s.gp`)", p->image, p->image);
		put_escaped(fp, strbuf_str(&line), false);
		fputs("\n\n", fp);
	}
	strbuf_release(&line);
}

static void md_status(const struct doc_part *p, FILE *fp)
{
	switch (p->status) {
	case DOC_STATUS_NOT_MEASURED:
		fputs("**Not measured**: ", fp);
		put_escaped(fp, p->text, false);
		break;
	case DOC_STATUS_LEFT_OUT:
		fputs("*Left out*: ", fp);
		put_escaped(fp, p->text, false);
		break;
	case DOC_STATUS_NO_PLOT:
		fputs("*Plot not drawn: ", fp);
		put_escaped(fp, p->text, false);
		putc('*', fp);
		break;
	}
	fputs("\n\n", fp);
}

/* A fenced block longer than any run of backticks inside it, so the text cannot close it. */
static void md_pre(const struct doc_part *p, FILE *fp)
{
	size_t run = 0, longest = 0, len;
	struct strbuf safe = STRBUF_INIT;
	doc_term_escape(&safe, p->text, "\n\t");
	for (const char *c = strbuf_str(&safe); *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	put_repeat(fp, '`', longest < 3 ? 3 : longest + 1);
	fputs("text\n", fp);
	len = strlen(strbuf_str(&safe));
	fputs(strbuf_str(&safe), fp);
	if (len == 0 || strbuf_str(&safe)[len - 1] != '\n')
		putc('\n', fp);
	put_repeat(fp, '`', longest < 3 ? 3 : longest + 1);
	fputs("\n\n", fp);
	strbuf_release(&safe);
}

/* A section's parts after its notes (doc.h, "Composition"). */
static int md_parts(const struct doc_section *s, FILE *fp, int level)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->nparts; i++) {
		const struct doc_part *p = &s->parts[i];
		switch (p->kind) {
		case DOC_PART_DOC:
			if (p->heading)
				heading(fp, level + 1, p->heading);
			rc = md_body(p->doc, fp, p->heading ? level + 1 : level,
				     DOC_MD_FACTS | DOC_MD_LEFT_OUT, NULL);
			break;
		case DOC_PART_FIGURE:
			md_figure(p, fp);
			break;
		case DOC_PART_TEXT:
			put_escaped(fp, p->text, false);
			fputs("\n\n", fp);
			break;
		case DOC_PART_STATUS:
			if (p->heading)
				heading(fp, level + 1, p->heading);
			md_status(p, fp);
			break;
		case DOC_PART_PRE:
			md_pre(p, fp);
			break;
		}
	}
	return rc;
}

static int md_section(const struct doc_section *s, FILE *fp, int level)
{
	int rc = 0;
	bool table = s->table && !s->table->quiet;
	heading(fp, level, s->title);
	for (size_t i = 0; i < s->ntext; i++) {
		put_escaped(fp, s->text[i], false);
		fputs("\n\n", fp);
	}
	if (table) {
		rc = md_table(s->table, fp);
		if (s->nnotes)
			putc('\n', fp);
	}
	for (size_t i = 0; i < s->nnotes; i++) {
		const char *link = s->note_links ? s->note_links[i] : NULL;
		fputs("- ", fp);
		put_escaped(fp, s->notes[i], false);
		if (link)
			fprintf(fp, " ([section](#%s))", link);
		putc('\n', fp);
	}
	if (table || s->nnotes)
		putc('\n', fp);
	if (rc == 0)
		rc = md_parts(s, fp, level);
	return rc;
}

static void md_left_out(const struct doc *d, FILE *fp, int level)
{
	if (d->nleft_out == 0)
		return;
	heading(fp, level, doc_left_out_title(d).text);
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
		fprintf(fp,
			"- ... and %zu more (`coreplan runs --excluded` lists every excluded "
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

/* The doc under `level`: title, facts, sections (quiet ones not), left out, footer as flags say. */
static int md_body(const struct doc *d, FILE *fp, int level, unsigned int flags, const char *view)
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
		if (view ? !strcmp(view, d->sections[i]->name) : !d->sections[i]->quiet)
			rc = md_section(d->sections[i], fp, level + 1);
	if (rc == 0 && (flags & DOC_MD_LEFT_OUT))
		md_left_out(d, fp, level + 1);
	if (rc == 0 && (flags & DOC_MD_FOOTER))
		md_footer(d, fp);
	return rc;
}

int doc_write_md(const struct doc *d, FILE *fp, int level, unsigned int flags, const char *view)
{
	return md_body(d, fp, level, flags, view);
}
