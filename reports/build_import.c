/* build_import: the document of `coreplan import` (builders.h). */
#include "builders.h"

#include "../common/err.h"

enum { C_NAME, C_LAYOUT, C_STATUS, C_RUNS, C_TIED = C_RUNS + BUILD_CORPUS_NCOUNTS, C_HOSTS, NCOLS };
_Static_assert(sizeof((struct doc_field[]){BUILD_CORPUS_COUNT_COLS(struct import_result)}) ==
		       BUILD_CORPUS_NCOUNTS * sizeof(struct doc_field),
	       "the count columns end where tied_runs starts");

static const char *status_word(enum import_status status)
{
	switch (status) {
	case IMPORT_NEW:
		return "new";
	case IMPORT_REPLACED:
		return "replaced";
	case IMPORT_UNCHANGED:
		return "unchanged";
	}
	return "?";
}

/*
 * The summary sentence `coreplan import` has always printed. Its numbers
 * are the cells of the corpus's row (whole numbers, so the digits are the
 * JSON's exactly).
 */
static void summary_note(struct doc_section *s, const struct import_result *r)
{
	if (r->link_target[0])
		doc_note(s,
			 "'%s': the path named is a symbolic link: imported its target '%s' "
			 "(recorded in table files under the target's name)",
			 r->name, r->link_target);
	if (r->status == IMPORT_UNCHANGED) {
		doc_note(s, "unchanged '%s': nothing to do", r->name);
		return;
	}
	doc_note(s,
		 "%s '%s' (layout %s): %lld runs (%lld listed, %lld unlisted), %lld excluded, "
		 "%lld trace rows, %lld files, %lld missing files",
		 r->status == IMPORT_REPLACED ? "replaced" : "imported", r->name, r->layout,
		 (long long)r->runs, (long long)r->listed, (long long)r->unlisted,
		 (long long)r->excluded, (long long)r->trace_rows, (long long)r->files,
		 (long long)r->missing_files);
	if (r->tied_runs)
		doc_note(s,
			 "'%s': %lld runs tied to a host (%s): sweep, fit and plot count their "
			 "levels in its physical cores (`coreplan import --help`)",
			 r->name, (long long)r->tied_runs, r->hosts);
}

int build_import(const struct import_result *results, size_t n, struct doc **out)
{
	static const struct doc_field cols[NCOLS] = {
		[C_NAME] = DOC_TEXT_OF("name", struct import_result, name),
		[C_LAYOUT] = DOC_TEXT_OF("layout", struct import_result, layout),
		[C_STATUS] = DOC_FIELD_NONE(DOC_COL_TEXT("status")),
		BUILD_CORPUS_COUNT_COLS(struct import_result),
		[C_TIED] = DOC_INT_OF("tied_runs", "runs", struct import_result, tied_runs),
		[C_HOSTS] = DOC_TEXT_OF("hosts", struct import_result, hosts),
	};
	struct doc *d = build_doc(out, "import", "Import");
	struct doc_section *s;
	struct doc_table *t;
	int64_t runs = 0;
	if (!d)
		return ERR_DATA;
	for (size_t i = 0; i < n; i++)
		if (results[i].status != IMPORT_UNCHANGED)
			runs += results[i].runs;
	doc_fact_int(d, "corpus_count", "corpora", DOC_LISTED, (int64_t)n, NULL);
	doc_fact_int(d, "runs_imported", "imported", DOC_LISTED, runs, "runs");
	s = doc_section(d, "imported", "Imported");
	t = doc_table_of(s, cols, NCOLS);
	doc_table_empty_text(t, "no corpus named");
	for (size_t i = 0; i < n; i++) {
		doc_row(t);
		doc_set_text(t, C_STATUS, status_word(results[i].status));
		/* unchanged: nothing was read into the database, only its name and layout */
		doc_set_fields(t, cols, 0, results[i].status == IMPORT_UNCHANGED ? C_RUNS : NCOLS,
			       &results[i]);
	}
	for (size_t i = 0; i < n; i++)
		summary_note(s, &results[i]);
	return build_done(d, out);
}

const char *const build_import_views[] = {"imported", NULL};
