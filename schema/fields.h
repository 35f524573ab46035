/*
 * fields: the canonical run fields and how a field name given on the
 * command line (--where, --by, --metric) becomes SQL.
 *
 * A canonical field is a typed column of `runs` (tput, gomaxprocs,
 * sessions, ...), mapped at import from whatever each harness calls it.
 * Any other name is looked up among the run's source columns (run_fields
 * view: results-table columns, joined tables, generator-record keys such
 * as `outcomes.ok`, idle-banner keys, tag parts), so an unknown column can
 * still be used as a factor or a metric by name. If a name occurs in
 * several sources, the source the run's table prefers (its manifest's
 * `prefer.NAME = SOURCE`, stored in field_prefs) wins, else the first in
 * this order: results, join, generator, idle, acct, tag, set.
 *
 * FIELD@SOURCE names one source's column and nothing else:
 * `xact_per_s@results` is results.tsv's inline figure even where the plain
 * name reads system.tsv's; `app_cores@results` is the results column, not
 * the canonical field. Every place that takes a field name takes this form.
 */
#ifndef COREPLAN_FIELDS_H
#define COREPLAN_FIELDS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "../common/units.h"

enum field_type { FIELD_INT, FIELD_REAL, FIELD_TEXT, FIELD_BOOL };

/*
 * What a field measures and which way is better: enum field_kind and enum
 * field_direction (common/units.h; schema/README.md, "Metric kinds"). The
 * analyses use them to leave out figures that mean nothing for a metric
 * (CPU per operation needs a rate, speedup a rate or a time over a level
 * that counts workers) and to word a change (units_change_word).
 */
struct field_info {
	const char *name;
	enum field_type type;
	const char *unit; /* "" when none */
	const char *doc;
	enum field_kind kind;
	enum field_direction direction; /* FIELD_DIR_NONE: a setting or label, not a metric */
};

/*
 * The sources a source column can come from (run_fields.source), in the
 * order a plain name reads them when its table prefers none; NULL-terminated.
 */
extern const char *const field_sources[];
bool field_source_known(const char *source);

/*
 * "FIELD@SOURCE": the source part ("join"), or NULL when the name has no
 * '@' (a plain name). *len gets the length of the FIELD part either way.
 */
const char *field_source_of(const char *name, size_t *len);

/* Canonical fields in display order (the runs table's column order). */
extern const struct field_info field_canonical[];
extern const size_t field_canonical_count;
const struct field_info *field_find(const char *name);

/*
 * Well-known fields that are no column of `runs` but that tools and
 * harnesses name the same way (Go's ns_per_op, B_per_op, allocs_per_op,
 * MB_per_s; hyperfine's time_s; wrk's requests_per_s and latency_*_ms;
 * the capacity corpus's system.tsv columns): their kind, direction and
 * unit, read before any inference from the name.
 */
extern const struct field_info field_known[];
extern const size_t field_known_count;
/* A canonical field, else a well-known one (exact name), else NULL. */
const struct field_info *field_find_known(const char *name);
/*
 * A field's unit for a column head: field_unit of a canonical field,
 * field_known_unit of a canonical or well-known one; "" for NULL, a name
 * that is no such field, or a field without a unit.
 */
const char *field_unit(const char *name);
const char *field_known_unit(const char *name);

/*
 * The primary metric of a tool's runs, by its corpus layout (the tool
 * format's name): gobench ns_per_op (Go's sec/op, in ns), hyperfine
 * time_s, hyperfine-csv mean_s, gbench real_time_ns (cpu_time_ns beside
 * it), wrk requests_per_s (latency_*_ms beside it); NULL for any other
 * layout. Static storage. query_default_metric (schema/queries.h) applies
 * it to a selection of runs.
 */
const char *tool_default_metric(const char *layout);

/*
 * A metric's kind and direction, and where each came from:
 *   kind       the canonical or well-known field's kind (field_known);
 *              else inferred from the name's unit suffix or a known name
 *              (field_metric_meaning's comment in fields_list.c,
 *              schema/README.md); else assumed rate
 *   direction  the canonical or well-known field's; else by kind (rate
 *              higher; time, latency, memory, cpu lower:
 *              units_kind_direction) or by a word in the name (err, fail,
 *              drop, loss, miss, reject: lower; avail, free, hit, success:
 *              higher); else assumed higher
 * kind (when not NULL: --metric-kind) replaces the kind, and the
 * direction is then the kind's unless the canonical field has one;
 * lower_is_better (--lower-is-better) sets the direction. kind_from and
 * direction_from are static text: "canonical field", "name (...)",
 * "kind (...)", "--metric-kind", "--lower-is-better", "assumed (...)". A
 * label or workers field used as a metric reads as a count.
 */
struct metric_meaning {
	enum field_kind kind;
	bool lower_is_better;
	bool kind_assumed;      /* nothing said what the metric is */
	bool direction_assumed; /* nothing said which way is better */
	const char *kind_from;
	const char *direction_from;
};
void field_metric_meaning(const char *name, const enum field_kind *kind, bool lower_is_better,
			  struct metric_meaning *out);
/*
 * Does a level field count workers (threads, cores, processes sharing the
 * work)? Only fields known to: the canonical FIELD_KIND_WORKERS fields
 * (gomaxprocs: Go's -cpu N too) and, case insensitively, the names in
 * field_worker_names (Google Benchmark's threads among them). A field of
 * any other name counts workers only when it is declared so: `--workers
 * FIELD` (field_level_counts_workers), never by guessing from its name
 * (hyperfine's parameter n is no worker count).
 */
bool field_counts_workers(const char *name);
/* field_counts_workers(by), or by is the declared workers field (NULL: none). */
bool field_level_counts_workers(const char *by, const char *workers);
extern const char field_worker_names[]; /* "gomaxprocs, threads, ..." for help and notes */

/*
 * A run filter as given on the command line. Each --where is FIELD=V[,V...]
 * (any of the values); several --where are ANDed. A value matches when the
 * field's text equals it, or when the value is a number and the field holds
 * a number equal to it (gomaxprocs=8.0 matches 8; a TEXT canonical field
 * such as block compares as text only). For a boolean canonical field the
 * value may also be true/false or yes/no. Excluded runs (rows in
 * `exclusions`) are left out unless include_excluded; only_excluded keeps
 * only them (and wins over include_excluded).
 */
struct field_where {
	char *field;
	char **values;
	size_t nvalues;
	bool missing; /* the field has no value (nvalues == 0) */
};

struct run_filter {
	char *corpus; /* NULL: every corpus */
	struct field_where *where;
	size_t nwhere;
	bool include_excluded;
	bool only_excluded;
	/*
	 * --pool: fields the analysis may pool over on purpose (analysis/pooling.h);
	 * not a condition: the SQL of the filter ignores them.
	 */
	char **pool;
	size_t npool;
};

/*
 * Parse "FIELD=V1,V2" and append it to the filter (schema/fields_where.c).
 * An empty value is the empty string ("subcorpus=" selects the main
 * sub-corpus; "a,,b" has three values). A value in double quotes is taken
 * as it is, spaces, ',', '=' and ';' included, with \" a quote and \\ a
 * backslash inside (command="sleep 0.01", name="BenchmarkSort/size=16").
 * An unquoted value holding '=' ("cfg=mem,target=small") is a usage error
 * that explains the grammar: commas separate values, several --where are
 * ANDed, quotes hold what a value cannot.
 */
int run_filter_add_where(struct run_filter *filter, const char *text);
/*
 * --where-file: the text's lines are FIELD=VALUE conditions, the value
 * taken literally to the line's end (no quotes, no commas; a CR before the
 * newline dropped); empty lines and lines starting with '#' are skipped;
 * lines naming one field make one condition whose values are any of them,
 * and different fields all apply. A line without '=' (or with an empty
 * FIELD) is an error at display:line:1; a file with no condition is one.
 */
int run_filter_add_where_lines(struct run_filter *filter, const char *text, const char *display);
/* Append value as a condition reads it back: as it is, or in quotes when it needs them. */
int where_value_quote(const char *value, struct strbuf *sb);
/* Append FIELD is one of values[0..n) (n >= 1), typed: no text to parse. */
int run_filter_add(struct run_filter *filter, const char *field, const char *const *values,
		   size_t nvalues);
/*
 * Append each whitespace- or ';'-separated FIELD=V[,V...] condition of
 * text ("gogc=800 gomaxprocs=8": an arm of compare, translate, size);
 * spaces and ';' inside a quoted value do not separate.
 * Text with no condition is a usage error naming `what` (e.g. "--a").
 */
int run_filter_add_conditions(struct run_filter *filter, const char *text, const char *what);
/* Append the comma-separated fields of --pool F1[,F2...]; an empty name is a usage error. */
int run_filter_add_pool(struct run_filter *filter, const char *list);
/* Append "FIELD has no value" (a run whose results row lacks the column). */
int run_filter_add_missing(struct run_filter *filter, const char *field);
/* dst = a deep copy of src (dst need not be initialised). */
int run_filter_copy(struct run_filter *dst, const struct run_filter *src);
/* Append "corpus X, f=a,b g=c" (or "all corpora, ...", then ", pooling F,G") for facts and titles.
 */
int run_filter_describe(const struct run_filter *filter, struct strbuf *sb);
void run_filter_release(struct run_filter *filter);

/*
 * The one "does this field exist" check every command uses: a canonical
 * field, corpus/subcorpus/tag, or a column some imported run has. Else a
 * usage error (exit 2) naming the closest known field when one is near.
 * FIELD@SOURCE: the source must be one of field_sources and some run must
 * have FIELD in it; else a usage error listing the sources FIELD has.
 */
int field_check(sqlite3 *db, const char *name);
/* A --corpus that names no corpus is a usage error listing the imported ones. */
int corpus_check(sqlite3 *db, const char *name);
/* corpus_check and field_check for every condition of the filter. */
int run_filter_check(sqlite3 *db, const struct run_filter *filter);

/*
 * Append to `sql` a boolean SQL expression over the alias `r` (a row of
 * runs) that the filter selects, with `?` placeholders; the values to bind,
 * in order, are appended to *binds (caller frees with field_binds_free).
 */
int run_filter_sql(const struct run_filter *filter, struct strbuf *sql, char ***binds,
		   size_t *nbinds);
void field_binds_free(char **binds, size_t nbinds);

/*
 * A plain, non-canonical field that only attribute sets hold (set_attrs:
 * Go runs' name, file, goos, ...; schema/README.md "Tool runs"): one
 * attr_names name, rows in some run's set and in no run's own rows
 * (attr_rows, run_values, idle_banners). Then *name_id is its id and a
 * run's value of the field is its set's: a condition on it can be tested
 * once per set (field_set_where_sql) instead of once per run, which is what
 * field_sql's subquery costs. Else *name_id is 0 and nothing changes.
 */
int field_set_only(sqlite3 *db, const char *name, int64_t *name_id);
/*
 * Append the condition w (not a missing-field one) on a set-only field
 * (name_id from field_set_only) as a boolean expression over run alias `r`,
 * selecting the runs run_filter_sql would for it; binds as run_filter_sql.
 */
int field_set_where_sql(const struct field_where *w, int64_t name_id, struct strbuf *sql,
			char ***binds, size_t *nbinds);

/*
 * Append an SQL expression giving `name` for run alias `r`: the column
 * itself for a canonical field, otherwise a subquery on run_fields (the
 * numeric value when `numeric`, else the text) that reads the source the
 * run's (corpus, subcorpus) prefers in field_prefs, else the first source
 * in field_sources order; FIELD@SOURCE reads that source only. Names are
 * bound, never pasted: their text goes to *binds. With `numeric`, a text
 * value is the number its whole text spells, else NULL, never 0: a TEXT
 * canonical field (variant), corpus, subcorpus and tag go through the SQL
 * function coreplan_number (schema/db.h), source columns read run_fields.num.
 */
int field_sql(const char *name, bool numeric, struct strbuf *sql, char ***binds, size_t *nbinds);

/*
 * The field-source listing (`coreplan runs --fields`): per field name, each
 * source that holds it among the filter's runs and how many of them the
 * plain name reads there. A canonical field's rows are where its runs'
 * values came from (field_origins: a results column, a joined column, a
 * generator key, a `set` constant, ...), all read by the plain name; a
 * source column named like a canonical field that filled none of them is
 * listed with read 0 (FIELD@SOURCE reads it). A non-canonical name's rows
 * are its source columns; per run the plain name reads one (the preferred
 * source, else the first in field_sources order). Rows come canonical
 * fields first (field_canonical order), then the other names in byte
 * order; within a name, the rows read most first. Strings are valid only
 * during the callback.
 */
struct field_source_row {
	const char *field;  /* the name as commands take it */
	const char *source; /* results, join, generator, idle, acct, tag, set */
	const char *column; /* the name within the source (a canonical origin may differ) */
	int64_t runs;       /* runs with the column there (canonical: whose value came from it) */
	int64_t read;       /* of those, runs whose plain name reads it */
	bool canonical;     /* field is a canonical field */
	bool preferred;     /* a field_prefs rule (manifest prefer.NAME) names this source */
};
typedef int (*field_source_fn)(const struct field_source_row *row, void *arg);
/* *nruns gets the number of runs the filter selects. */
int field_sources_list(sqlite3 *db, const struct run_filter *filter, field_source_fn fn, void *arg,
		       int64_t *nruns);

/* `corpus`, `subcorpus` and `tag` name a run's identity and work as fields too. */
bool field_is_pseudo(const char *name);

/* Bind binds[0..n) as text to stmt starting at parameter `first`. */
int field_bind_all(sqlite3_stmt *stmt, int first, char **binds, size_t nbinds);

#endif
