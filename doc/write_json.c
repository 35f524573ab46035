/* doc write_json: the JSON writer (see doc.h and schema/README.md, "JSON output"). */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <inttypes.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

/* The JSON output's shape version (schema/README.md, "JSON output"). */
#define DOC_JSON_FORMAT 1

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
	return ferror(j->fp) ? doc_write_failed() : 0;
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
	rc = doc_each_row(t, json_row, &j, &rows);
	fputs(j.n ? "\n      ]" : "]", fp);
	return rc;
}

static int json_doc(const struct doc *d, const char *view, FILE *fp, bool top);

/* A JSON string, or null for NULL (doc_json_string writes NULL as ""). */
static void json_text_or_null(FILE *fp, const char *text)
{
	if (text)
		doc_json_string(fp, text);
	else
		fputs("null", fp);
}

/* The note_links array, when any note points at a heading. */
static void json_links(FILE *fp, const struct doc_section *s)
{
	if (!s->note_links)
		return;
	fputs(",\n      \"links\": [", fp);
	for (size_t i = 0; i < s->nnotes; i++) {
		fputs(i ? ", " : "", fp);
		json_text_or_null(fp, s->note_links[i]);
	}
	fputs("]", fp);
}

/* IMAGE + suffix as a JSON string (a figure's data or script), or null. */
static void json_beside(FILE *fp, const char *image, const char *suffix)
{
	struct strbuf name = STRBUF_INIT;
	if (!image || strbuf_addf(&name, "%s%s", image, suffix))
		fputs("null", fp);
	else
		doc_json_string(fp, strbuf_str(&name));
	strbuf_release(&name);
}

static int json_part(const struct doc_part *p, FILE *fp)
{
	int rc = 0;
	switch (p->kind) {
	case DOC_PART_DOC:
		fputs("{\"part\": \"document\", \"heading\": ", fp);
		json_text_or_null(fp, p->heading);
		fputs(", \"document\": ", fp);
		rc = json_doc(p->doc, NULL, fp, false);
		fputs("}", fp);
		break;
	case DOC_PART_FIGURE:
		fputs("{\"part\": \"figure\", \"image\": ", fp);
		doc_json_string(fp, p->image);
		fputs(", \"alt\": ", fp);
		doc_json_string(fp, p->alt);
		fputs(", \"caption\": ", fp);
		json_text_or_null(fp, p->text);
		fputs(", \"data\": ", fp);
		json_beside(fp, p->files ? p->image : NULL, ".tsv");
		fputs(", \"script\": ", fp);
		json_beside(fp, p->files ? p->image : NULL, ".gp");
		fputs("}", fp);
		break;
	case DOC_PART_PRE:
		fputs("{\"part\": \"pre\", \"text\": ", fp);
		doc_json_string(fp, p->text);
		fputs("}", fp);
		break;
	case DOC_PART_TEXT:
		fputs("{\"part\": \"text\", \"text\": ", fp);
		doc_json_string(fp, p->text);
		fputs("}", fp);
		break;
	case DOC_PART_STATUS:
		fputs("{\"part\": \"status\", \"heading\": ", fp);
		json_text_or_null(fp, p->heading);
		fputs(", \"status\": ", fp);
		doc_json_string(fp, doc_status_name(p->status));
		fputs(", \"reason\": ", fp);
		doc_json_string(fp, p->text);
		fputs("}", fp);
		break;
	}
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
	json_links(fp, s);
	if (s->quiet)
		fputs(",\n      \"quiet\": true", fp);
	if (s->nparts) {
		fputs(",\n      \"parts\": [", fp);
		for (size_t i = 0; rc == 0 && i < s->nparts; i++) {
			fputs(i ? ",\n        " : "\n        ", fp);
			rc = json_part(&s->parts[i], fp);
		}
		fputs("\n      ]", fp);
	}
	fputs("\n    }", fp);
	return rc;
}

/*
 * One document as a JSON object: at the top with the tool's version and
 * the format number and a final newline; embedded (a part) without them.
 */
static int json_doc(const struct doc *d, const char *view, FILE *fp, bool top)
{
	bool first = true;
	int rc = 0;
	if (top) {
		fputs("{\n  \"coreplan\": \"" COREPLAN_VERSION "\",\n", fp);
		fprintf(fp, "  \"format\": %d,\n  \"command\": ", DOC_JSON_FORMAT);
	} else {
		fputs("{\n  \"command\": ", fp);
	}
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
	fputs(d->nleft_out ? "\n  ]\n}" : "]\n}", fp);
	if (top)
		fputs("\n", fp);
	return 0;
}

int doc_write_json(const struct doc *d, const char *view, FILE *fp)
{
	return json_doc(d, view, fp, true);
}
