/*
 * size_runs: which runs an input of a sizing reads, and whether a field
 * exists to read them by (size_internal.h). Below the other parts of
 * `coreplan size`, which all use it and none of which it uses.
 */
#include "size_internal.h"

#include "../common/err.h"

#include <string.h>

int size_input_filter(const struct size_request *req, const char *where, const char *option,
		      struct run_filter *f)
{
	int rc = 0;
	memset(f, 0, sizeof(*f));
	if (req->filter)
		rc = run_filter_copy(f, req->filter);
	if (rc == 0 && where)
		rc = run_filter_add_conditions(f, where, option);
	return rc;
}

bool size_field_exists(sqlite3 *db, const char *name)
{
	if (field_check(db, name) == 0)
		return true;
	err_clear();
	return false;
}

const char *size_field_or_null(sqlite3 *db, const char *name)
{
	return size_field_exists(db, name) ? name : NULL;
}
