/*
 * queries: read-only questions about the database that commands and the
 * report ask, as functions, so no SQL lives in cli/. Each binds its
 * parameters (schema/fields.h rules: corpus text never reaches SQL text).
 */
#ifndef COREPLAN_QUERIES_H
#define COREPLAN_QUERIES_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/hash.h"
#include "../common/strbuf.h"
#include "fields.h"

/*
 * What a result was computed from: the corpora `corpus` names (NULL:
 * every corpus), their names comma-separated into *names, and their
 * content hash into hex: one corpus's own content hash as stored, or, for
 * several, one SHA-256 over each one's name and content hash (in name
 * order). With no corpus, names is empty and hex the hash of nothing.
 */
int query_provenance(sqlite3 *db, const char *corpus, struct strbuf *names,
		     char hex[HASH_HEX_LEN + 1]);

/*
 * The runs whose tag is `tag` (in corpus `corpus` and sub-corpus
 * `subcorpus` when not NULL): how many there are into *matches and, when
 * there is at least one, the last one's run_id into *run_id.
 */
int query_find_run(sqlite3 *db, const char *tag, const char *corpus, const char *subcorpus,
		   int64_t *run_id, int *matches);
/* ---- coreplan runs ---- */

/*
 * One value of a run listing as SQLite stored it: type is SQLITE_NULL,
 * SQLITE_INTEGER (i), SQLITE_FLOAT (real) or SQLITE_TEXT (text).
 */
struct query_value {
	int type;
	int64_t i;
	double real;
	const char *text;
};

/*
 * A run: its identity, its flags and every canonical field
 * (field_canonical order). Its strings belong to the query and are valid
 * only during the callback that receives the row.
 */
struct run_row {
	const char *corpus, *subcorpus, *tag;
	bool listed, excluded;
	struct query_value *fields; /* field_canonical_count values */
	const char *const *extra;   /* the extra fields' text values (NULL: missing) */
	size_t nextra;
	const char *reasons;        /* "reason: detail; ..." (only_excluded), or NULL */
};

/* Called once per run, in order; nonzero stops the listing with that code. */
typedef int (*run_row_fn)(const struct run_row *row, void *arg);

/*
 * The runs `filter` selects, ordered by corpus, subcorpus and seq, with
 * every canonical field (with filter->only_excluded also each run's
 * exclusion reasons), streamed to fn one row at a time so a listing of any
 * length holds one row. *excluded_not_shown gets the runs the filter
 * matched but left out as excluded (0 when it keeps or asks for excluded
 * runs). The caller checks the filter first (run_filter_check).
 */
int query_runs(sqlite3 *db, const struct run_filter *filter, run_row_fn fn, void *arg,
	       int64_t *excluded_not_shown);
struct text_list;
/* query_runs with the text of each extra field too (extra: n field names, row->extra). */
int query_runs_with(sqlite3 *db, const struct run_filter *filter, const char *const *extra,
		    size_t nextra, run_row_fn fn, void *arg, int64_t *excluded_not_shown);
/*
 * The fields a tool's runs carry, for `coreplan runs`: when the filter's
 * runs are a tool's (query_default_metric), its primary metric first, then
 * every other results column the runs have (command, name, requests_per_s,
 * ...) in byte order; else an empty list.
 */
int query_tool_fields(sqlite3 *db, const struct run_filter *filter, struct text_list *out);

/* ---- coreplan corpora ---- */

/* One imported corpus and what it holds. Strings owned. */
struct corpus_row {
	char *name, *layout;
	int64_t runs, listed, unlisted;
	int64_t excluded;   /* runs with at least one exclusion */
	int64_t trace_rows; /* trace samples stored */
	int64_t files, missing_files;
	char *imported_at;  /* UTC, as stored */
	char *content_hash; /* the first 12 hex digits */
	char *source_path;
};

struct corpus_listing {
	struct corpus_row *rows;
	size_t n;
};

/* Every corpus, by name. corpus_listing_release() frees out either way. */
int query_corpora(sqlite3 *db, struct corpus_listing *out);
void corpus_listing_release(struct corpus_listing *l);

/* ---- the report ---- */

/* A list of owned strings. */
struct text_list {
	char **items;
	size_t n;
};
void text_list_release(struct text_list *l);

/*
 * One row per excluded run (corpus, subcorpus, tag, reason, detail) or
 * missing run file (tag, kind, expected path), of `corpus` (NULL: every
 * corpus), in corpus and run order; each row's fields joined by '\t'.
 */
int query_exclusions(sqlite3 *db, const char *corpus, struct text_list *out);
int query_missing_files(sqlite3 *db, const char *corpus, struct text_list *out);

/*
 * The distinct values (as text, NULL values left out, byte order) of
 * `field` over the runs the filter selects, at most `max` of them; *more
 * says whether there were others.
 */
int query_distinct(sqlite3 *db, const struct run_filter *filter, const char *field, size_t max,
		   struct text_list *out, bool *more);

/*
 * Why a filter selects no run, for the "no runs to analyse" message:
 * appends "no run has FIELD=V; FIELD takes a, b, c" for the first
 * condition that leaves no run (at most QUERY_UNMATCHED_VALUES values,
 * then "..."; quoted as --where takes them), or nothing when every
 * condition matches some run (the conditions together match none) or the
 * filter selects runs.
 */
#define QUERY_UNMATCHED_VALUES 12
int query_unmatched(sqlite3 *db, const struct run_filter *filter, struct strbuf *why);

/*
 * The combinations of the fields' values present in the selected runs
 * ("NA" for a missing value), each as nfields consecutive items, in
 * byte order of the values.
 */
int query_combinations(sqlite3 *db, const struct run_filter *filter, const char *const *fields,
		       size_t nfields, struct text_list *out, size_t *ncombos);

/*
 * Per sub-corpus of `corpus` (NULL: every corpus), its runs' single
 * cpu_family, as pairs (subcorpus, family) of consecutive items; a
 * sub-corpus whose runs name several families or none is left out.
 */
int query_subcorpus_families(sqlite3 *db, const char *corpus, struct text_list *out);

/*
 * The first listed run (in corpus and results-table order) the filter
 * selects that has a sample trace and a tag no other run in the database
 * has (so the tag alone names it);
 * *tag NULL (return 0) when there is none. Caller frees *tag.
 */
int query_first_traced_run(sqlite3 *db, const struct run_filter *filter, char **tag);

/*
 * The default metric of the runs the filter selects, when they are a
 * tool's: *metric gets tool_default_metric (schema/fields.h) of their
 * corpora's layout when every corpus with a selected run has a tool layout
 * and they name one metric; else NULL (the command's own default, tput).
 * Static storage.
 */
int query_default_metric(sqlite3 *db, const struct run_filter *filter, const char **metric);

/* ---- traces ---- */

/* One trace row (trace_samples); a column not read, or that the trace lacks, is NaN. */
struct trace_row {
	int64_t row_no;
	double epoch;
	double conn;
	double cpu_total_j;
	double cpu_idle_j;
	double app_j;
	double pg_j;
	double app_rss_kb;
	double mem_avail_kb;
};

/* The columns a trace scan reads (row_no always), OR-ed: fewer columns read faster. */
enum {
	TRACE_COL_EPOCH = 1 << 0,
	TRACE_COL_CONN = 1 << 1,
	TRACE_COL_CPU_TOTAL = 1 << 2,
	TRACE_COL_CPU_IDLE = 1 << 3,
	TRACE_COL_APP_J = 1 << 4,
	TRACE_COL_PG_J = 1 << 5,
	TRACE_COL_APP_RSS = 1 << 6,
	TRACE_COL_MEM_AVAIL = 1 << 7,
	TRACE_COL_ALL = (1 << 8) - 1,
};

/* What a trace stores: its row count as the import recorded it (traces.rows). */
struct trace_summary {
	size_t rows; /* 0: the run has no such trace, or an empty one */
	/*
	 * A hash of what the rows were made from (the trace's file hash and
	 * columns, its corpus's content hash, options and import time): two
	 * reads with the same identity read the same rows.
	 */
	uint64_t identity;
};

/* The run's trace of `kind` ("sample" or "window"): its trace_id (-1: none) and summary. */
int query_trace_find(sqlite3 *db, int64_t run_id, const char *kind, int64_t *trace_id,
		     struct trace_summary *out);

/* Called once per trace row, in row order; nonzero stops the scan with that code. */
typedef int (*trace_row_fn)(const struct trace_row *row, void *arg);

/*
 * The rows of trace `trace_id` from row_no `from_row_no` on, in row order,
 * with the `columns` asked for (TRACE_COL_*; the others NaN), streamed to
 * fn one row at a time: a trace of any length holds one row in memory.
 * Returns fn's nonzero code when it stopped the scan (a positive one is
 * not an error), else 0 or a database error.
 */
int query_trace_rows(sqlite3 *db, int64_t trace_id, int64_t from_row_no, unsigned int columns,
		     trace_row_fn fn, void *arg);

#endif
