/*
 * size_internal: what the parts of `coreplan size` share among themselves
 * (analysis/size.c, size_model.c, size_inputs.c, size_factors.c,
 * size_cells.c, size_fleet.c, size_runs.c); not part of size.h's contract.
 */
#ifndef COREPLAN_SIZE_INTERNAL_H
#define COREPLAN_SIZE_INTERNAL_H

#include "size.h"

/* qsort's comparison of two doubles, ascending. */
int size_cmp_double(const void *a, const void *b);

/* size_runs.c: the request's common filter plus an input's own conditions (`where`, of `option`; NULL: none). */
int size_input_filter(const struct size_request *req, const char *where, const char *option,
		      struct run_filter *f);

/* size_runs.c: `name` when some imported run has that field, else NULL (no error left). */
const char *size_field_or_null(sqlite3 *db, const char *name);
/* size_runs.c: does some imported run have field `name`? (field_check, no error left) */
bool size_field_exists(sqlite3 *db, const char *name);

/*
 * The store factor (--store-from) and the sessions curve (--sessions-from,
 * else the --store-from runs) into res->in, with their provenances.
 */
int size_condition_factors(sqlite3 *db, const struct size_request *req, struct size_result *res);

/* The value the runs of `where` (within the common filter) share for `field`, or NULL (*out). */
int size_shared_value(sqlite3 *db, const struct size_request *req, const char *where,
		      const char *option, const char *field, char **out);

/* Every input of the request, from the database or as given (res->in and the provenances). */
int size_gather_inputs(sqlite3 *db, const struct size_request *req, struct size_result *res);

/* Free a cell's strings (the cell itself is the caller's). */
void size_cell_release(struct size_cell *c);

/* Every catalog instance's measured cells (none when no run names an instance). */
int size_read_cells(sqlite3 *db, const struct size_request *req, struct size_result *res);

#endif
