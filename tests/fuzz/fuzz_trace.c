/* fuzz_trace: the headerless trace importer (importers/trace.c) into SQLite. */
#include "fuzz.h"

#include "common/err.h"
#include "importers/trace.h"
#include "schema/db.h"

#include <stdlib.h>

static sqlite3 *db;
static struct trace_writer *writer;

static void setup(void)
{
	if (db_open(":memory:", false, &db) != 0 ||
	    db_exec(db, "INSERT INTO corpora VALUES (1, 'c', '/', 'h', 't', 'l', 'm', '{}');"
			"INSERT INTO files VALUES (1, 1, 'f', 0, 'h', 'sample', NULL);"
			"INSERT INTO runs (run_id, corpus_id, tag, seq, listed) VALUES (1, 1, 'r', 1, 1);"
			"INSERT INTO traces VALUES (1, 1, 'sample', 1, 'x', 0, 0);") != 0 ||
	    trace_writer_new(db, &writer) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"epoch",       "app_rss_kb", "mem_avail_kb",
					    "conn",        "cpu_total_j", "cpu_idle_j",
					    "app_j",       "extra_col"};
	struct trace_spec spec = {size && data[0] & 1 ? 8 : 7, names, size && data[0] & 2 ? ',' : '\t'};
	struct trace_stats stats;
	const char *path = fuzz_file(data, size, ".tsv");
	if (!db)
		setup();
	db_exec(db, "SAVEPOINT fuzz");
	trace_writer_import(writer, 1, path, "fuzz", &spec, &stats, NULL, NULL);
	db_exec(db, "ROLLBACK TO fuzz; RELEASE fuzz");
	err_clear();
	return 0;
}
