/*
 * db_fixture: a cmocka group's database: an in-memory coreplan database
 * (schema/db.h, every migration applied) holding the test's fixture SQL,
 * in *state; db_fixture_teardown closes it.
 */
#ifndef COREPLAN_TESTS_DB_FIXTURE_H
#define COREPLAN_TESTS_DB_FIXTURE_H

#include <stdio.h>

#include "common/err.h"
#include "schema/db.h"

static inline int db_fixture_setup(void **state, const char *fixture_sql)
{
	sqlite3 *db = NULL;
	if (db_open(":memory:", false, &db) != 0 || db_exec(db, fixture_sql) != 0) {
		fprintf(stderr, "fixture: %s\n", err_msg());
		db_close(db);
		return -1;
	}
	*state = db;
	return 0;
}

static inline int db_fixture_teardown(void **state)
{
	db_close(*state);
	return 0;
}

#endif
