/* fuzz_genrec: the generator-record (JSON) importer (importers/runfiles.c). */
#include "fuzz.h"

#include "common/err.h"
#include "importers/runfiles.h"
#include "schema/db.h"

#include <stdlib.h>

static sqlite3 *db;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct attr_list attrs = {0};
	const char *path = fuzz_file(data, size, ".json");
	if (!db && (db_open(":memory:", false, &db) != 0 ||
		    db_exec(db, "INSERT INTO corpora VALUES (1, 'c', '/', 'h', 't', 'l', 'm', '{}');"
				"INSERT INTO files VALUES (1, 1, 'f', 0, 'h', 'generator', NULL);"
				"INSERT INTO runs (run_id, corpus_id, tag, seq, listed)"
				" VALUES (1, 1, 'r', 1, 1);") != 0))
		abort();
	db_exec(db, "SAVEPOINT fuzz");
	genrec_import(db, 1, 1, path, "fuzz", &attrs);
	db_exec(db, "ROLLBACK TO fuzz; RELEASE fuzz");
	attr_list_release(&attrs);
	err_clear();
	return 0;
}
