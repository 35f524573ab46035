/* build_runs: the document of `coreplan runs` (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum { C_CORPUS, C_SUBCORPUS, C_TAG, C_LISTED, C_EXCLUDED, NLEAD };

/* A run's first columns; the canonical fields, extra fields and reasons follow. */
static const struct doc_field lead_cols[NLEAD] = {
	[C_CORPUS] = DOC_TEXT_OF("corpus", struct run_row, corpus),
	[C_SUBCORPUS] = DOC_TEXT_OF("subcorpus", struct run_row, subcorpus),
	[C_TAG] = DOC_TEXT_OF("tag", struct run_row, tag),
	[C_LISTED] = DOC_INT_OF("listed", NULL, struct run_row, listed),
	[C_EXCLUDED] = DOC_INT_OF("excluded", NULL, struct run_row, excluded),
};

/*
 * The column of a canonical field: its type and unit (booleans stay 0/1
 * numbers, as they always were). Markdown rounds reals to 6 significant
 * digits, kB to whole kilobytes (so a large RSS is not 1.2e+06).
 */
static struct doc_col field_col(const struct field_info *f)
{
	struct doc_col c = DOC_COL_TEXT(f->name);
	c.unit = f->unit;
	if (f->type == FIELD_INT || f->type == FIELD_BOOL) {
		c.type = DOC_INT;
	} else if (f->type == FIELD_REAL) {
		bool kb = !strcmp(f->unit, "kB");
		c.type = DOC_REAL;
		c.style = kb ? 'f' : 'g';
		c.precision = kb ? 0 : 6;
	}
	return c;
}

/* A stored value into a cell of its column's type (a value of another type stays missing). */
static void set_value(struct doc_table *t, size_t col, enum doc_type type,
		      const struct query_value *v)
{
	if (v->type == SQLITE_TEXT && type == DOC_TEXT)
		doc_set_text(t, col, v->text);
	else if (v->type == SQLITE_INTEGER && type != DOC_TEXT)
		doc_set_int(t, col, v->i);
	else if (v->type == SQLITE_FLOAT && type != DOC_TEXT)
		doc_set_real(t, col, v->real);
}

enum { F_FIELD, F_SOURCE, F_COLUMN, F_RUNS, F_READ, F_SELECT, F_RULE, NFIELDCOLS };

static const struct doc_field field_cols[NFIELDCOLS] = {
	[F_FIELD] = DOC_TEXT_OF("field", struct field_source_row, field),
	[F_SOURCE] = DOC_TEXT_OF("source", struct field_source_row, source),
	[F_COLUMN] = DOC_TEXT_OF("column", struct field_source_row, column),
	[F_RUNS] = DOC_INT_OF("runs", "runs", struct field_source_row, runs),
	[F_READ] = DOC_INT_OF("read", "runs", struct field_source_row, read),
	[F_SELECT] = DOC_FIELD_NONE(DOC_COL_TEXT("select")),
	[F_RULE] = DOC_FIELD_NONE(DOC_COL_TEXT("rule")),
};

/* The fields section: one row per (field, source) the listing gives. */
static void fields_section(struct doc *d, bool filled)
{
	struct doc_section *s = doc_section(d, "fields", "Field sources");
	struct doc_table *t = doc_table_of(s, field_cols, NFIELDCOLS);
	if (!filled) {
		doc_table_empty_text(t, "not listed: `coreplan runs --fields` lists each field's "
					"sources and the one its plain name reads");
		return;
	}
	doc_table_empty_text(t, "no run matches the filter");
	doc_text(s, "Per field name, the sources that hold it among the selected runs. `runs`: "
		    "runs that have the column there, NA included (for a canonical field: runs "
		    "whose value came from it); `read`: runs whose plain name reads it; `select` "
		    "reads this source "
		    "alone. A plain non-canonical name reads the source its table prefers (the "
		    "manifest's prefer.NAME = SOURCE), else the first of results, join, "
		    "generator, idle, acct, tag, set.");
}

int build_runs_begin(bool with_reasons, bool fields, struct doc **out)
{
	return build_runs_begin_with(with_reasons, fields, NULL, 0, out);
}

int build_runs_begin_with(bool with_reasons, bool fields, const char *const *extra, size_t nextra,
			  struct doc **out)
{
	size_t ncols = NLEAD + field_canonical_count + nextra + (with_reasons ? 1 : 0);
	struct doc_col *cols = calloc(ncols, sizeof(*cols));
	struct doc *d = doc_new("runs", fields         ? "Field sources"
					: with_reasons ? "Excluded runs"
						       : "Runs");
	struct doc_table *t;
	*out = NULL;
	if (!cols || !d) {
		free(cols);
		doc_free(d);
		return err_set("out of memory");
	}
	for (size_t i = 0; i < NLEAD; i++)
		cols[i] = lead_cols[i].col;
	for (size_t i = 0; i < field_canonical_count; i++)
		cols[NLEAD + i] = field_col(&field_canonical[i]);
	for (size_t i = 0; i < nextra; i++) {
		cols[NLEAD + field_canonical_count + i] = (struct doc_col)DOC_COL_TEXT(extra[i]);
		cols[NLEAD + field_canonical_count + i].unit = field_known_unit(extra[i]);
	}
	if (with_reasons)
		cols[ncols - 1] = (struct doc_col)DOC_COL_TEXT("reasons");
	if (fields)
		fields_section(d, true);
	t = doc_table(doc_section(d, "runs", with_reasons ? "Excluded runs" : "Runs"), cols, ncols);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, fields         ? "not listed with --fields"
				: with_reasons ? "no excluded run matches the filter"
					       : "no run matches the filter");
	if (!fields)
		fields_section(d, false);
	free(cols);
	*out = d;
	return 0;
}

int build_fields_row(const struct field_source_row *row, void *doc)
{
	struct doc_table *t = doc_section_table(doc_find_section(doc, "fields"));
	struct strbuf select = STRBUF_INIT;
	const char *rule;
	strbuf_addf(&select, "%s@%s", row->column, row->source);
	if (row->canonical && row->read > 0)
		rule = strcmp(row->column, row->field) ? "canonical field, filled from this column"
						       : "canonical field, filled from it";
	else if (row->canonical)
		rule = "not read: the plain name is the canonical field";
	else if (row->read == 0)
		rule = "shadowed by another source: read it with select";
	else if (row->preferred)
		rule = "preferred by the manifest (prefer.NAME)";
	else
		rule = "first source holding it";
	doc_row(t);
	doc_set_fields(t, field_cols, 0, NFIELDCOLS, row);
	doc_set_text(t, F_SELECT, strbuf_str(&select));
	doc_set_text(t, F_RULE, rule);
	strbuf_release(&select);
	return doc_error(doc);
}

int build_fields_end(struct doc *d, int64_t runs)
{
	struct doc_table *t = doc_section_table(doc_find_section(d, "fields"));
	size_t nrows = doc_table_rows(t), names = 0;
	for (size_t i = 0; i < nrows; i++)
		names += i == 0 ||
			 strcmp(doc_cell_text(t, i, F_FIELD), doc_cell_text(t, i - 1, F_FIELD));
	doc_fact_int(d, "runs", "runs", DOC_LISTED, runs, NULL);
	doc_fact_int(d, "fields", "field names", DOC_LISTED, (int64_t)names, NULL);
	doc_fact_int(d, "field_sources", "field sources (rows)", DOC_LISTED, (int64_t)nrows, NULL);
	return doc_error(d);
}

int build_runs_row(const struct run_row *row, void *doc)
{
	struct doc_table *t = doc_section_table(doc_find_section(doc, "runs"));
	size_t ncols = doc_table_cols(t);
	doc_row(t);
	doc_set_fields(t, lead_cols, 0, NLEAD, row);
	for (size_t i = 0; i < field_canonical_count; i++)
		set_value(t, NLEAD + i, doc_table_col(t, NLEAD + i)->type, &row->fields[i]);
	for (size_t i = 0; i < row->nextra; i++)
		if (row->extra[i])
			doc_set_text(t, NLEAD + field_canonical_count + i, row->extra[i]);
	if (ncols > NLEAD + field_canonical_count + row->nextra)
		doc_set_text(t, ncols - 1, row->reasons);
	return doc_error(doc);
}

int build_runs_end(struct doc *d, int64_t excluded_not_shown)
{
	struct doc_section *s = doc_find_section(d, "runs");
	const char *hidden;
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)doc_table_rows(doc_section_table(s)),
		     NULL);
	hidden =
		doc_fact_int(d, "excluded_not_shown", "excluded runs the filter matched, not shown",
			     DOC_QUIET, excluded_not_shown, "runs");
	if (excluded_not_shown > 0)
		doc_note(s,
			 "%s run%s left out: excluded (use --include-excluded or --excluded to see "
			 "them)",
			 hidden, excluded_not_shown == 1 ? "" : "s");
	return doc_error(d);
}

const char *const build_runs_views[] = {"runs", "fields", NULL};
