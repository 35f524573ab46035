/* build_report: the corpus summary that opens a report (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <string.h>

/* Split a TAB-joined query row into at most n fields (in place). */
static size_t fields(char *row, char **out, size_t n)
{
	size_t k = 0;
	while (k < n) {
		char *tab = strchr(row, '\t');
		out[k++] = row;
		if (!tab)
			break;
		*tab = '\0';
		row = tab + 1;
	}
	return k;
}

static void corpora_section(struct doc *d, const struct corpus_listing *listing, const char *only)
{
	static const struct doc_field cols[] = {
		DOC_TEXT_OF("corpus", struct corpus_row, name),
		DOC_TEXT_OF("layout", struct corpus_row, layout),
		DOC_INT_OF("runs", NULL, struct corpus_row, runs),
		DOC_INT_OF("listed", NULL, struct corpus_row, listed),
		DOC_INT_OF("unlisted", NULL, struct corpus_row, unlisted),
		DOC_INT_OF("excluded", NULL, struct corpus_row, excluded),
		DOC_INT_OF("trace_rows", NULL, struct corpus_row, trace_rows),
		DOC_INT_OF("files", NULL, struct corpus_row, files),
	};
	struct doc_table *t =
		doc_table_of(doc_section(d, "corpora", "Corpora"), cols, DOC_NFIELDS(cols));
	for (size_t i = 0; i < listing->n; i++) {
		if (only && strcmp(only, listing->rows[i].name))
			continue;
		doc_row(t);
		doc_set_fields(t, cols, 0, DOC_NFIELDS(cols), &listing->rows[i]);
	}
}

/* A section whose table holds rows, each TAB-joined text fields (at most TEXT_COLS_MAX). */
enum { TEXT_COLS_MAX = 8 };
static void text_section(struct doc *d, const char *name, const char *title,
			 const struct doc_col *cols, size_t ncols, const char *empty,
			 const struct text_list *rows)
{
	struct doc_table *t = doc_table(doc_section(d, name, title), cols, ncols);
	doc_table_empty_text(t, empty);
	for (size_t i = 0; i < rows->n; i++) {
		char *f[TEXT_COLS_MAX] = {NULL};
		size_t n = fields(rows->items[i], f, ncols < TEXT_COLS_MAX ? ncols : TEXT_COLS_MAX);
		doc_row(t);
		for (size_t c = 0; c < n; c++)
			doc_set_text(t, c, f[c]);
	}
}

static void excluded_section(struct doc *d, const struct text_list *rows)
{
	static const struct doc_col cols[] = {
		DOC_COL_TEXT("corpus"), DOC_COL_TEXT("subcorpus"), DOC_COL_TEXT("tag"),
		DOC_COL_TEXT("reason"), DOC_COL_TEXT("detail"),
	};
	text_section(d, "excluded", "Excluded runs", cols, 5,
		     "none: every run the corpus lists is analysed", rows);
}

static void missing_section(struct doc *d, const struct text_list *rows)
{
	static const struct doc_col cols[] = {
		DOC_COL_TEXT("tag"),
		DOC_COL_TEXT("kind"),
		DOC_COL_TEXT("expected_path"),
	};
	text_section(d, "missing", "What the corpus does not contain", cols, 3,
		     "no expected file is missing", rows);
}

int build_report_corpus(const struct corpus_listing *listing, const char *corpus,
			struct text_list *exclusions, struct text_list *missing, struct doc **out)
{
	struct doc *d = build_doc(out, "report", "Corpus");
	if (!d)
		return ERR_DATA;
	corpora_section(d, listing, corpus);
	excluded_section(d, exclusions);
	missing_section(d, missing);
	return build_done(d, out);
}
