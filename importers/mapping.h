/*
 * mapping: from the attributes of one run (every value read from its
 * results row, joined rows, generator record, idle banner, accounting
 * file, tag and manifest constants) to the typed canonical fields of the
 * runs table.
 *
 * For each canonical field the first value found wins, in this order: a
 * manifest override (`field.NAME = source:name`), then the results row,
 * joined rows, generator record, idle banner, accounting file, tag parts
 * and `set` constants, each under the names listed in mapping.c (e.g.
 * throughput is `tput`, `interactions_per_sec` or `ips`). The generator
 * record's own `gomaxprocs` and `host` describe the generator machine and
 * are never mapped onto the app's fields.
 *
 * A value that does not convert to the field's type, or breaks a range
 * rule (negative, NaN or infinite throughput, a fraction outside 0..1),
 * is an error naming the file, line and column it came from; except a
 * generator-record value that breaks a range rule (sessions_requested -5):
 * it is not mapped, and its run is excluded (mapping_impossible_detail()).
 */
#ifndef COREPLAN_MAPPING_H
#define COREPLAN_MAPPING_H

#include <sqlite3.h>
#include <stdint.h>

#include "manifest.h"
#include "runfiles.h"

/* Gives the display path of a file id, for messages. */
typedef const char *(*mapping_path_fn)(int64_t file_id, void *arg);

/* "UPDATE runs SET <every canonical field> = ?N ... WHERE run_id = ?M". */
const char *mapping_update_sql(void);

/* "INSERT INTO field_origins (run_id, field, source, name) VALUES (?1, ?2, ?3, ?4)". */
const char *mapping_origin_sql(void);

/*
 * Bind every canonical field of one run to `update` (prepared from
 * mapping_update_sql()) and step it; record where each value came from
 * (source and name) with `origin` (prepared from mapping_origin_sql()).
 */
int mapping_apply(sqlite3 *db, sqlite3_stmt *update, sqlite3_stmt *origin, int64_t run_id,
		  const struct attr_list *attrs, const struct manifest_table *table,
		  const char *manifest_origin, mapping_path_fn path_of, void *path_arg);

/*
 * The same, bound to any statement: every canonical field of the run to
 * parameters first .. first + field_canonical_count - 1, not stepped; a
 * field the run has none of is left unbound (the caller clears the
 * bindings first: sqlite3_clear_bindings, one call, where binding NULL to
 * each of them cost more than the rest of a tool run's insert); `origin`
 * (NULL: none) is called for each
 * field bound with the attribute it came from (corpus_tool.c records
 * those of shared attributes once per attribute set).
 */
typedef int (*mapping_origin_fn)(const char *field, const struct attr *a, void *arg);
int mapping_bind(sqlite3 *db, sqlite3_stmt *stmt, int first, const struct attr_list *attrs,
		 const struct manifest_table *table, const char *manifest_origin,
		 mapping_path_fn path_of, void *path_arg, mapping_origin_fn origin,
		 void *origin_arg);

/*
 * Exclude (reason `impossible-value`) every run of the corpus whose
 * generator record breaks the range rule of a field the mapping reads from
 * it (a count or time below 0, an error or patch rate outside 0..1); the
 * detail names each key, its value and the rule.
 */
/*
 * The detail of the exclusion 'impossible-value' a run's generator values
 * give it: "the generator record says NAME VALUE (must be RULE), ..." in
 * name order, or *detail NULL when none breaks a rule (caller frees).
 */
int mapping_impossible_detail(const struct attr_list *attrs, char **detail);

/*
 * The table's `prefer.NAME = SOURCE` rules into field_prefs for its runs
 * (corpus_id, subcorpus): which source a plain field name reads
 * (schema/fields.h, field_sql).
 */
int mapping_store_prefs(sqlite3 *db, int64_t corpus_id, const char *subcorpus,
			const struct manifest_table *table);

#endif
