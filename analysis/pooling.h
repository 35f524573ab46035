/*
 * pooling: no silent pooling. An analysis that pools runs into a level
 * (sweep, noise, fit, memory) first asks which fields vary among its
 * selected runs although nobody declared them: not the level, not a
 * --group field, not the block field, not a --pool field. Such a field
 * means the level's runs are not replicates of one condition: the command
 * refuses (a usage error naming the field, its values and how to go on),
 * and the report groups by the field instead (report/plan.h).
 *
 * The candidates, in this order:
 *   corpus, subcorpus;
 *   the canonical arm fields target, cfg, store, gogc, variant;
 *   the canonical counts sessions and gomaxprocs (the one that is not the level);
 *   the factors among the results-table columns: a column is one when two
 *   or more selected runs hold the same value and that value is text, not
 *   a number (NA and the empty string do not count). A column whose values
 *   all differ (a tag, a timestamp) is an identifier, not a factor; a
 *   numeric column is a measurement or a count. A column that a canonical
 *   field was filled from (the field_origins table) is represented by that
 *   field, and only the arm fields and counts above are candidates among
 *   the canonical ones;
 *   every --pool field.
 * A missing value is a value of its own (shown NA). A candidate varies when
 * two runs of the same declared group (the same --group values) differ in
 * it. A varying candidate that is constant once the earlier varying ones
 * are fixed (store beside cfg, shared_buffers beside target) follows them:
 * it is listed with them, and fixing or pooling them covers it.
 *
 * Block kinds. Within each cell (the declared group and the varying
 * fields' values), a block that holds runs at only some of the cell's
 * levels is its own arm, not a replicate of the blocks that hold every
 * level: a gctrace arm at 2 of 4 levels, a soak block at one. Said only
 * when at least one block of the cell holds every level (blocks that each
 * hold a part of the levels are not replicates of a sweep to begin with).
 * A missing block value is a block of its own (NA).
 *
 * pooling_detect() is the pure computation (unit-tested on synthetic
 * selections); pooling_load() reads the candidates of a selection from the
 * database; pooling_check() is what the analyses' *_run() call.
 * Modules: pooling.c (detection), pool_words.c (refusal, description),
 * pool_load.c (from the database, the check), pool_prefetch.c (what the
 * selection query reads for it, pool_prefetch.h), pool_codes.c (what they
 * share: codebooks, coded columns; internal, pool_codes.h).
 * Ownership: a struct pooling owns its strings; pooling_release() frees them.
 *
 * Cost: the candidates that are columns of `runs` come with the selection
 * (select_runs() reads them in its own query when the spec has a level:
 * pool_prefetch_*() below), each run's value numbered as it comes (a value
 * like the previous run's costs a comparison, a new one a hash lookup);
 * the columns the filter's first run lacks are read as one coalesce(), and
 * only a run that has any of them is read again, by run_id. pooling_load()
 * then reads the results-table columns (each selected run's results row,
 * one statement) and, only for a --pool field that is no column of runs
 * (or a selection without a prefetch), passes over the runs a second time.
 * Detection is linear in the runs: hashing and counting sorts on the codes,
 * no comparison of texts.
 */
#ifndef COREPLAN_POOLING_H
#define COREPLAN_POOLING_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../common/strbuf.h"
#include "select.h"

/* One candidate column: its name and each run's value (NULL: missing). */
struct pool_column {
	const char *name;
	bool factor_rule; /* a results-table column: counts only when it is a factor */
	const char *const *values;
};

/* What pooling_detect() reads: n runs, their level, declared group and block. */
struct pool_input {
	size_t n;
	const char *const *level; /* per run, the level as text */
	const char *const *group; /* per run, the declared group ("" for none); NULL: no groups */
	const char *block_field;  /* NULL: no block kinds */
	const char *const *block; /* per run (NULL entries: missing); NULL when no block field */
	const struct pool_column *columns;
	size_t ncolumns;
	const char *const *pool; /* NULL-terminated fields pooled on purpose, or NULL */
};

struct pool_field {
	char *name;
	char **values; /* distinct values in run order; "NA" for a missing one */
	size_t nvalues;
	char *follows; /* the earlier varying field(s) it follows ("cfg"), or NULL */
	bool pooled;   /* named by --pool, or follows fields that all are */
};

struct pool_kind {
	char *block;  /* the block value ("7"; "NA" when missing) */
	char *cell;   /* where: "gogc=default, sessions=100" ("" when there is one cell) */
	char *levels; /* the levels it holds, "1, 8" */
	char *all;    /* the cell's levels, "1, 2, 4, 8" */
};

struct pooling {
	struct pool_field *fields; /* the varying candidates, in candidate order */
	size_t nfields;
	char **mirrors; /* varying candidates that are the level under another name */
	size_t nmirrors;
	struct pool_kind *kinds; /* the block kinds */
	size_t nkinds;
	char **complete; /* the blocks that hold every level of their cell, in run order */
	size_t ncomplete;
	char *block_field; /* NULL: no block check */
	bool kinds_pooled; /* the block field is a --pool field */
};

int pooling_detect(const struct pool_input *in, struct pooling *out);
void pooling_release(struct pooling *p);

/* Is name one of the canonical candidates (corpus, subcorpus, the arm fields and counts)? */
bool pooling_is_candidate_field(const char *name);

/* Is anything pooled that nobody declared (a field or block kind not pooled on purpose)? */
bool pooling_refuses(const struct pooling *p);
/* Was anything pooled on purpose (--pool)? */
bool pooling_pooled(const struct pooling *p);

/*
 * The usage error (exit 2) for a pooling that refuses: the fields and
 * their values, the block kinds, and how to go on: --where FIELD=V,
 * `split` FIELD (the command's option that splits runs apart: "--group",
 * "--by"; NULL: none), --pool. `command` and `level` name the analysis in
 * the message (level NULL: the analysis has none, "compare (arm a)").
 */
int pooling_refusal(const struct pooling *p, const char *command, const char *level,
		    const char *split);
/* What was pooled on purpose, in words: "gogc (default, 100); block kinds 7" (the fact pooled). */
int pooling_describe(const struct pooling *p, struct strbuf *sb);

/*
 * Read the candidates of the selection's runs (as select_runs() chose them
 * for `spec`: sel->runs' levels and groups, and what it read for pooling,
 * sel->prefetch) and detect. The block field is spec->block, else `block`
 * when some run has it. The --pool fields are
 * spec->filter->pool; each must be a known field (field_check).
 */
int pooling_load(sqlite3 *db, const struct select_spec *spec, const struct selection *sel,
		 struct pooling *out);

/*
 * What every *_run() calls after select_runs(): detect; a pooling that
 * refuses is the usage error of pooling_refusal(); what was pooled on
 * purpose goes to sel->pooled (the builders' fact `pooled` and its note).
 */
int pooling_check(sqlite3 *db, const struct select_spec *spec, struct selection *sel,
		  const char *command, const char *split);

#endif
