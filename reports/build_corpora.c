/* build_corpora: the document of `coreplan corpora` (builders.h). */
#include "builders.h"

#include "../common/err.h"

enum {
	C_NAME,
	C_LAYOUT,
	C_RUNS,
	C_LISTED,
	C_UNLISTED,
	C_EXCLUDED,
	C_TRACE_ROWS,
	C_FILES,
	C_MISSING,
	C_IMPORTED_AT,
	C_HASH,
	C_SOURCE,
	NCOLS
};

int build_corpora(const struct corpus_listing *l, struct doc **out)
{
	static const struct doc_col cols[NCOLS] = {
		[C_NAME] = DOC_COL_TEXT("name"),
		[C_LAYOUT] = DOC_COL_TEXT("layout"),
		[C_RUNS] = DOC_COL_INT("runs", "runs"),
		[C_LISTED] = DOC_COL_INT("listed", "runs"),
		[C_UNLISTED] = DOC_COL_INT("unlisted", "runs"),
		[C_EXCLUDED] = DOC_COL_INT("excluded", "runs"),
		[C_TRACE_ROWS] = DOC_COL_INT("trace_rows", "rows"),
		[C_FILES] = DOC_COL_INT("files", "files"),
		[C_MISSING] = DOC_COL_INT("missing_files", "files"),
		[C_IMPORTED_AT] = DOC_COL_TEXT("imported_at"),
		[C_HASH] = DOC_COL_TEXT("content_hash"),
		[C_SOURCE] = DOC_COL_TEXT("source_path"),
	};
	struct doc *d = build_doc(out, "corpora", "Corpora");
	struct doc_section *s;
	struct doc_table *t;
	if (!d)
		return ERR_DATA;
	/* "corpora" is the provenance fact naming them */
	doc_fact_int(d, "corpus_count", "corpora", DOC_LISTED, (int64_t)l->n, NULL);
	s = doc_section(d, "corpora", "Corpora");
	t = doc_table(s, cols, NCOLS);
	doc_table_empty_text(t, "no corpora");
	for (size_t i = 0; i < l->n; i++) {
		const struct corpus_row *r = &l->rows[i];
		doc_row(t);
		doc_set_text(t, C_NAME, r->name);
		doc_set_text(t, C_LAYOUT, r->layout);
		doc_set_int(t, C_RUNS, r->runs);
		doc_set_int(t, C_LISTED, r->listed);
		doc_set_int(t, C_UNLISTED, r->unlisted);
		doc_set_int(t, C_EXCLUDED, r->excluded);
		doc_set_int(t, C_TRACE_ROWS, r->trace_rows);
		doc_set_int(t, C_FILES, r->files);
		doc_set_int(t, C_MISSING, r->missing_files);
		doc_set_text(t, C_IMPORTED_AT, r->imported_at);
		doc_set_text(t, C_HASH, r->content_hash);
		doc_set_text(t, C_SOURCE, r->source_path);
	}
	if (l->n == 0)
		doc_note(s, "no corpora in the database: run `coreplan import PATH` first");
	return build_done(d, out);
}

const char *const build_corpora_views[] = {"corpora", NULL};
