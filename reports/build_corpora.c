/* build_corpora: the document of `coreplan corpora` (builders.h). */
#include "builders.h"

#include "../common/err.h"

int build_corpora(const struct corpus_listing *l, struct doc **out)
{
	static const struct doc_field cols[] = {
		DOC_TEXT_OF("name", struct corpus_row, name),
		DOC_TEXT_OF("layout", struct corpus_row, layout),
		BUILD_CORPUS_COUNT_COLS(struct corpus_row),
		DOC_TEXT_OF("imported_at", struct corpus_row, imported_at),
		DOC_TEXT_OF("content_hash", struct corpus_row, content_hash),
		DOC_TEXT_OF("source_path", struct corpus_row, source_path),
	};
	struct doc *d = build_doc(out, "corpora", "Corpora");
	struct doc_section *s;
	struct doc_table *t;
	if (!d)
		return ERR_DATA;
	/* "corpora" is the provenance fact naming them */
	doc_fact_int(d, "corpus_count", "corpora", DOC_LISTED, (int64_t)l->n, NULL);
	s = doc_section(d, "corpora", "Corpora");
	t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	doc_table_empty_text(t, "no corpora");
	doc_rows_of(t, cols, DOC_NFIELDS(cols), l->rows, l->n, sizeof(l->rows[0]));
	if (l->n == 0)
		doc_note(s, "no corpora in the database: run `coreplan import PATH` first");
	return build_done(d, out);
}

const char *const build_corpora_views[] = {"corpora", NULL};
