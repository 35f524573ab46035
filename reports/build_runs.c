/* build_runs: the document of `coreplan runs` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum { C_CORPUS, C_SUBCORPUS, C_TAG, C_LISTED, C_EXCLUDED, NLEAD };

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

static int runs_table(struct doc_section *s, const struct run_listing *l)
{
	size_t ncols = NLEAD + field_canonical_count + (l->with_reasons ? 1 : 0);
	struct doc_col *cols = calloc(ncols, sizeof(*cols));
	struct doc_table *t;
	if (!cols)
		return err_set("out of memory");
	cols[C_CORPUS] = (struct doc_col)DOC_COL_TEXT("corpus");
	cols[C_SUBCORPUS] = (struct doc_col)DOC_COL_TEXT("subcorpus");
	cols[C_TAG] = (struct doc_col)DOC_COL_TEXT("tag");
	cols[C_LISTED] = (struct doc_col)DOC_COL_INT("listed", NULL);
	cols[C_EXCLUDED] = (struct doc_col)DOC_COL_INT("excluded", NULL);
	for (size_t i = 0; i < field_canonical_count; i++)
		cols[NLEAD + i] = field_col(&field_canonical[i]);
	if (l->with_reasons)
		cols[ncols - 1] = (struct doc_col)DOC_COL_TEXT("reasons");
	t = doc_table(s, cols, ncols);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, l->with_reasons ? "no excluded run matches the filter"
						: "no run matches the filter");
	for (size_t r = 0; r < l->n; r++) {
		const struct run_row *row = &l->rows[r];
		doc_row(t);
		doc_set_text(t, C_CORPUS, row->corpus);
		doc_set_text(t, C_SUBCORPUS, row->subcorpus);
		doc_set_text(t, C_TAG, row->tag);
		doc_set_int(t, C_LISTED, row->listed);
		doc_set_int(t, C_EXCLUDED, row->excluded);
		for (size_t i = 0; i < field_canonical_count; i++)
			set_value(t, NLEAD + i, cols[NLEAD + i].type, &row->fields[i]);
		if (l->with_reasons)
			doc_set_text(t, ncols - 1, row->reasons);
	}
	free(cols);
	return 0;
}

int build_runs(const struct run_listing *l, struct doc **out)
{
	struct doc *d = doc_new("runs", l->with_reasons ? "Excluded runs" : "Runs");
	struct doc_section *s;
	const char *hidden;
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)l->n, NULL);
	hidden =
		doc_fact_int(d, "excluded_not_shown", "excluded runs the filter matched, not shown",
			     DOC_QUIET, l->excluded_not_shown, "runs");
	s = doc_section(d, "runs", l->with_reasons ? "Excluded runs" : "Runs");
	if (runs_table(s, l)) {
		doc_free(d);
		return ERR_DATA;
	}
	if (l->excluded_not_shown > 0)
		doc_note(s,
			 "%s run%s left out: excluded (use --include-excluded or --excluded to see "
			 "them)",
			 hidden, l->excluded_not_shown == 1 ? "" : "s");
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
