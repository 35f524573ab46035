/*
 * pool_prefetch: the pooling candidates (analysis/pooling.h) that are
 * columns of `runs`, read by the selection query itself (select_runs()),
 * so that the pooling check does not pass over the runs again. select.c
 * depends on this module, never on the pooling check (pool_load.c), so the
 * two do not depend on each other.
 */
#ifndef COREPLAN_POOL_PREFETCH_H
#define COREPLAN_POOL_PREFETCH_H

#include <sqlite3.h>

#include "../common/strbuf.h"
#include "select.h"

/*
 * For select_runs() only. When the spec has a level (spec->by), the
 * selection query also reads the candidates that are canonical fields (the
 * arm fields and counts pooling_load() would read, the block field when
 * spec->block is NULL, the canonical --pool fields). pool_prefetch_new()
 * runs before the query (*out NULL: no level; it reads the filter's first
 * run to see which columns to group), pool_prefetch_sql() appends their
 * columns (", r.store, coalesce(r.target, r.cfg)") to the query's column
 * list, and pool_prefetch_row() reads them from each run the selection
 * takes, in selection order, starting at result column `first`, with the
 * --group text and --block value select_runs() filled in `run`. The
 * selection owns the prefetch (sel->prefetch); pool_prefetch_free() frees
 * it (NULL is fine).
 */
struct pool_prefetch;
int pool_prefetch_new(sqlite3 *db, const struct select_spec *spec, struct pool_prefetch **out);
int pool_prefetch_sql(const struct pool_prefetch *pf, struct strbuf *sql);
int pool_prefetch_row(struct pool_prefetch *pf, sqlite3_stmt *stmt, int first,
		      const struct sel_run *run);
void pool_prefetch_free(struct pool_prefetch *pf);

#endif
