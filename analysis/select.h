/*
 * select: the runs an analysis works on, read once from the database.
 *
 * Every analysis command names a factor (--by), a metric (--metric) and
 * optionally a block field, filters runs with a struct run_filter, and
 * must say which runs it left out and why. select_runs() does all of that
 * in two queries over `runs` (never over traces): the chosen runs with
 * their factor, metric and block values, and the runs the filter matched
 * but left out (excluded runs, with their stored reasons, and runs that
 * lack the metric or the factor). When there is a factor, the first query
 * also reads the fields the pooling check needs (analysis/pooling.h,
 * pool_prefetch_new(): one run read ahead, a run read again by run_id only
 * when it holds a field most runs lack). The chosen runs come in
 * runs_in_order order (corpus name, subcorpus, seq): without --corpus they
 * are read from the table as stored, and again by the index when the
 * stored order is not that one (select.c, scan_order); excluded runs are
 * skipped by their ids, read once.
 *
 * Fields are resolved by schema/fields.h (canonical column or any source
 * column by name). Ownership: a selection owns all its strings;
 * selection_release() frees them. The runs' texts live in sel->strings
 * (common/strpool.h): equal texts (a corpus, a block, a group) are one
 * pointer, and no run's text is freed on its own.
 */
#ifndef COREPLAN_SELECT_H
#define COREPLAN_SELECT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/strpool.h"
#include "../schema/fields.h"

struct pool_prefetch;

struct sel_run {
	int64_t run_id;
	char *corpus;
	char *subcorpus;
	char *tag;
	int64_t seq;        /* order in its results table (execution order) */
	char *level_text;   /* the --by value as text */
	double level;       /* ... as a number, when level_numeric */
	bool level_numeric;
	double metric;
	char *block;        /* the --block value, or NULL */
	char *group;        /* the --group values joined with ", ", or "" */
	char *started_at;   /* from the generator record, or NULL */
	char **extra;       /* the select_spec's extra fields as text (NULL: missing) */
	double app_cores;   /* driver-reported; NaN when absent */
};

struct sel_left_out {
	char *tag;
	char *reason;
	bool excluded; /* an excluded run (kept with --include-excluded) */
};

/*
 * A list of runs left out, a selection's or an analysis's own (benchstat,
 * comparepy): sel_left_out_add appends one (tag and reason copied, NULL as
 * ""): 0, or out of memory (what was added stays listed). sel_left_out_free
 * frees the list and its strings.
 */
int sel_left_out_add(struct sel_left_out **list, size_t *n, const char *tag, const char *reason,
		     bool excluded);
void sel_left_out_free(struct sel_left_out *list, size_t n);

struct selection {
	struct sel_run *runs;
	size_t n;
	size_t nextra; /* entries of each run's extra */
	struct sel_left_out *left_out;
	size_t nleft_out;
	/*
	 * What the analysis pooled on purpose (--pool), in words, or NULL: set by
	 * pooling_check() (analysis/pooling.h); documents show it as the fact
	 * `pooled` and a note.
	 */
	char *pooled;
	/*
	 * The pooling candidates the selection query read beside the runs
	 * (analysis/pooling.h, pool_prefetch_new()), or NULL: pooling_load()
	 * reads them instead of passing over the runs again.
	 */
	struct pool_prefetch *prefetch;
	/* when the filter matched no run: which condition left none and the values there (or NULL) */
	char *no_match;
	/* the runs' texts (corpus ... extra values), interned */
	struct strpool strings;
};

struct select_spec {
	const struct run_filter *filter;
	const char *by;     /* the level field; NULL when the analysis has none */
	/*
	 * The level must be a number (sweep, fit, memory, noise, blocks plot): a
	 * selected run whose --by value is text is an error naming the field, the
	 * run and the value (select_not_number), never a level of 0.
	 */
	bool numeric_by;
	const char *metric; /* NULL when the analysis has none (metric reads 0) */
	const char *block;  /* NULL: no block field */
	const char *const *group; /* NULL-terminated grouping fields, or NULL */
	/* NULL-terminated fields to fetch as text, or NULL; a field no run has reads NULL */
	const char *const *extra;
};

/*
 * Runs ordered by corpus, subcorpus and seq. A name that is neither a
 * canonical field nor a column of any selected run is a usage error. A
 * selected run without a metric value (none, NA or empty) is left out; one
 * whose metric is other text ("plain") is an error (select_not_number).
 */
int select_runs(sqlite3 *db, const struct select_spec *spec, struct selection *out);
void selection_release(struct selection *sel);

/*
 * The error for text where a number is needed, e.g.
 *   --metric variant: run 'g1-n100-b1' has 'plain', text, not a number (...)
 * option is "--by" or "--metric". Returns ERR_DATA.
 */
int select_not_number(const char *option, const char *field, const char *tag, const char *value);

/*
 * Add a run to the left-out list after selection: an analysis that
 * cannot use a selected run (its trace gives no value) says so here, so
 * the document lists it with the excluded ones. The run stays in
 * sel->runs; the analysis skips it.
 */
int selection_leave_out(struct selection *sel, const char *tag, const char *reason);

/*
 * The error every X_run() returns when it has no run to work on: what the
 * filter matched and what was left out, e.g.
 *   no runs to analyse (3 runs matched but were left out, e.g.
 *   'g1-trial': unlisted; --include-excluded keeps excluded runs)
 * (the last part only when an excluded run was left out and the filter
 * does not keep them). Returns ERR_DATA.
 */
int select_no_runs(const struct selection *sel, const struct run_filter *filter);

#endif
