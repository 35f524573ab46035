/* fields: tables whose columns are bound to the members of a struct (doc.h). */
#include "doc_impl.h"

#include <stdlib.h>

struct doc_table *doc_table_of(struct doc_section *s, const struct doc_field *fields, size_t ncols)
{
	struct doc_col *cols;
	struct doc_table *t;
	if (!s)
		return NULL;
	cols = calloc(ncols ? ncols : 1, sizeof(*cols));
	if (!cols) {
		s->doc->oom = true;
		return NULL;
	}
	for (size_t c = 0; c < ncols; c++)
		cols[c] = fields[c].col;
	t = doc_table(s, cols, ncols);
	free(cols);
	return t;
}

static void set_text(struct doc_table *t, size_t col, const char *text, bool empty_missing)
{
	if (text && (*text || !empty_missing))
		doc_set_text(t, col, text);
}

void doc_set_fields(struct doc_table *t, const struct doc_field *fields, size_t from, size_t to,
		    const void *row)
{
	for (size_t c = from; c < to; c++) {
		const void *member = (const char *)row + fields[c].offset;
		switch (fields[c].from) {
		case DOC_FROM_NONE:
			break;
		case DOC_FROM_STR:
			set_text(t, c, *(const char *const *)member, fields[c].empty_missing);
			break;
		case DOC_FROM_CHARS:
			set_text(t, c, member, fields[c].empty_missing);
			break;
		case DOC_FROM_INT:
			doc_set_int(t, c, *(const int *)member);
			break;
		case DOC_FROM_SIZE:
			doc_set_int(t, c, (int64_t) * (const size_t *)member);
			break;
		case DOC_FROM_LONG:
			doc_set_int(t, c, *(const long *)member);
			break;
		case DOC_FROM_LLONG:
			doc_set_int(t, c, *(const long long *)member);
			break;
		case DOC_FROM_DOUBLE:
			doc_set_real(t, c, *(const double *)member);
			break;
		case DOC_FROM_BOOL:
			if (fields[c].col.type == DOC_BOOL)
				doc_set_bool(t, c, *(const bool *)member);
			else
				doc_set_int(t, c, *(const bool *)member);
			break;
		case DOC_FROM_YES_NO:
			doc_set_text(t, c, *(const bool *)member ? "yes" : "no");
			break;
		}
	}
}

void doc_rows_of(struct doc_table *t, const struct doc_field *fields, size_t ncols,
		 const void *rows, size_t nrows, size_t size)
{
	for (size_t i = 0; i < nrows; i++) {
		doc_row(t);
		doc_set_fields(t, fields, 0, ncols, (const char *)rows + i * size);
	}
}
