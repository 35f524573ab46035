/* build_import: the document of `coreplan import` (builders.h). */
#include "builders.h"

#include "../common/err.h"

enum {
	C_NAME,
	C_LAYOUT,
	C_STATUS,
	C_RUNS,
	C_LISTED,
	C_UNLISTED,
	C_EXCLUDED,
	C_TRACE_ROWS,
	C_FILES,
	C_MISSING,
	C_TIED,
	C_HOSTS,
	NCOLS
};

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
	static const struct doc_col cols[NCOLS] = {
		[C_NAME] = DOC_COL_TEXT("name"),
		[C_LAYOUT] = DOC_COL_TEXT("layout"),
		[C_STATUS] = DOC_COL_TEXT("status"),
		[C_RUNS] = DOC_COL_INT("runs", "runs"),
		[C_LISTED] = DOC_COL_INT("listed", "runs"),
		[C_UNLISTED] = DOC_COL_INT("unlisted", "runs"),
		[C_EXCLUDED] = DOC_COL_INT("excluded", "runs"),
		[C_TRACE_ROWS] = DOC_COL_INT("trace_rows", "rows"),
		[C_FILES] = DOC_COL_INT("files", "files"),
		[C_MISSING] = DOC_COL_INT("missing_files", "files"),
		[C_TIED] = DOC_COL_INT("tied_runs", "runs"),
		[C_HOSTS] = DOC_COL_TEXT("hosts"),
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
	t = doc_table(s, cols, NCOLS);
	doc_table_empty_text(t, "no corpus named");
	for (size_t i = 0; i < n; i++) {
		const struct import_result *r = &results[i];
		doc_row(t);
		doc_set_text(t, C_NAME, r->name);
		doc_set_text(t, C_LAYOUT, r->layout);
		doc_set_text(t, C_STATUS, status_word(r->status));
		if (r->status == IMPORT_UNCHANGED)
			continue; /* nothing was read into the database */
		doc_set_int(t, C_RUNS, r->runs);
		doc_set_int(t, C_LISTED, r->listed);
		doc_set_int(t, C_UNLISTED, r->unlisted);
		doc_set_int(t, C_EXCLUDED, r->excluded);
		doc_set_int(t, C_TRACE_ROWS, r->trace_rows);
		doc_set_int(t, C_FILES, r->files);
		doc_set_int(t, C_MISSING, r->missing_files);
		doc_set_int(t, C_TIED, r->tied_runs);
		doc_set_text(t, C_HOSTS, r->hosts);
	}
	for (size_t i = 0; i < n; i++)
		summary_note(s, &results[i]);
	return build_done(d, out);
}

const char *const build_import_views[] = {"imported", NULL};
