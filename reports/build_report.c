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
	static const struct doc_col cols[] = {
		DOC_COL_TEXT("corpus"),          DOC_COL_TEXT("layout"),
		DOC_COL_INT("runs", NULL),       DOC_COL_INT("listed", NULL),
		DOC_COL_INT("unlisted", NULL),   DOC_COL_INT("excluded", NULL),
		DOC_COL_INT("trace_rows", NULL), DOC_COL_INT("files", NULL),
	};
	struct doc_table *t = doc_table(doc_section(d, "corpora", "Corpora"), cols, 8);
	for (size_t i = 0; i < listing->n; i++) {
		const struct corpus_row *r = &listing->rows[i];
		if (only && strcmp(only, r->name))
			continue;
		doc_row(t);
		doc_set_text(t, 0, r->name);
		doc_set_text(t, 1, r->layout);
		doc_set_int(t, 2, r->runs);
		doc_set_int(t, 3, r->listed);
		doc_set_int(t, 4, r->unlisted);
		doc_set_int(t, 5, r->excluded);
		doc_set_int(t, 6, r->trace_rows);
		doc_set_int(t, 7, r->files);
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
