/*
 * Unit tests for importers/corpus.c on the real corpora in
 * ../shared/corpora/sky (imported unmodified) and on small broken copies.
 *
 * Independent values: every expected number below was read from the
 * corpus files with awk/grep, not from coreplan, e.g.
 *   awk -F'\t' 'NR>1 && $1=="g4-n100-b2" {print $13}' results.tsv  -> 1538.8011664466776
 *   grep small-mem-n100-b1r1 system.tsv | cut -f13                 -> 92928
 * Line counts of trace files are counted here by counting '\n' bytes,
 * independently of the importer's parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "importers/corpus.h"
#include "importers/mapping.h"
#include "importers/runfiles.h"
#include "schema/db.h"
#include "test_util.h"

#define GOMAXPROCS SHARED_CORPORA "/sky/gomaxprocs-scaling-20260816"
#define CAPACITY SHARED_CORPORA "/sky/gcp-x86-capacity-20260816"

static sqlite3 *db;
static char dir[] = "/tmp/coreplan-test-import-XXXXXX";

static int import(const char *path, struct import_result *result)
{
	struct import_options opts;
	int rc;
	import_options_init(&opts);
	assert_int_equal(db_begin(db), 0);
	rc = corpus_import(db, path, &opts, result);
	if (rc == 0)
		assert_int_equal(db_commit(db), 0);
	else
		db_rollback(db);
	return rc;
}

static void gomaxprocs_corpus(void **state)
{
	struct import_result r;
	(void)state;
	assert_int_equal(import(GOMAXPROCS, &r), 0);
	assert_int_equal(r.status, IMPORT_NEW);
	assert_int_equal(r.runs, 29); /* 24 rows + 2 trials + 3 prof folders */
	assert_int_equal(r.listed, 24);
	assert_int_equal(r.unlisted, 5);
	/* 24 rows x 25 columns of results.tsv, every one kept */
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_attrs WHERE source = 'results'"), 600);
	assert_true(db_scalar_real(db, "SELECT tput FROM runs WHERE tag = 'g4-n100-b2'") ==
		    1538.8011664466776);
	assert_int_equal(db_scalar_int(db, "SELECT gomaxprocs FROM runs WHERE tag = 'g4-n100-b2'"), 4);
	/* the generator record's gomaxprocs is the generator's (8), never the app's */
	assert_int_equal(db_scalar_int(db, "SELECT gomaxprocs FROM runs WHERE tag = 'g1-n100-b1'"), 1);
	assert_true(db_scalar_real(db, "SELECT app_cores FROM runs WHERE tag = 'g4-n100-b2'") == 3.512);
	/* unlisted runs take fields from their generator record and tag */
	assert_true(db_scalar_real(db, "SELECT tput FROM runs WHERE tag = 'g8-n100-b0-trial'") ==
		    1782.483575745034);
	assert_int_equal(db_scalar_int(db, "SELECT gomaxprocs FROM runs WHERE tag = 'prof-g4-n100'"), 4);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM exclusions WHERE reason = 'unlisted'"), 5);
	/* g1 trial has no window.tsv; prof runs have neither idle.txt nor window.tsv */
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM missing_files"), 7);
	assert_int_equal(db_scalar_int(db, "SELECT rows FROM traces t JOIN runs r USING (run_id)"
				" WHERE r.tag = 'g1-n100-b1' AND t.kind = 'sample'"),
			 count_lines(GOMAXPROCS "/runs/g1-n100-b1/sample.tsv"));
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM trace_rows WHERE tag = 'g8-n100-b3'"
				" AND kind = 'window'"),
			 count_lines(GOMAXPROCS "/runs/g8-n100-b3/window.tsv"));
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM idle_banners b JOIN runs r USING (run_id)"
				" WHERE r.tag = 'g1-n100-b1'"),
			 13);
	/* unchanged corpus: nothing to do */
	assert_int_equal(import(GOMAXPROCS, &r), 0);
	assert_int_equal(r.status, IMPORT_UNCHANGED);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM corpora"), 1);
}

static void capacity_corpus(void **state)
{
	struct import_result r;
	(void)state;
	assert_int_equal(import(CAPACITY, &r), 0);
	assert_int_equal(r.runs, 55); /* 47 + 3 m1 + 3 core + rejected + superseded trial */
	assert_int_equal(r.listed, 53);
	/* load RSS comes from system.tsv (92928), not results.tsv's defective 94936 */
	assert_true(db_scalar_real(db, "SELECT load_rss_kb FROM runs WHERE tag = 'small-mem-n100-b1r1'") ==
		    92928.0);
	assert_int_equal(db_scalar_int(db, "SELECT sessions FROM runs WHERE tag = 'small-mem-n100-b1r1'"), 100);
	assert_true(db_scalar_real(db, "SELECT tput FROM runs WHERE tag = 'm1-r2' AND subcorpus = 'm1'") ==
		    858.8742965751081);
	assert_true(db_scalar_real(db, "SELECT tput FROM runs WHERE tag = 'core-mem-p5-n25-r1'") == 299.3);
	assert_true(db_scalar_real(db, "SELECT cpu_s FROM runs WHERE tag = 'm1-r1'") == 48.41);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM exclusions e JOIN runs r USING (run_id)"
				" WHERE r.tag = 'medium-pgnofsync-n100-bfsr1' AND e.reason = 'rejected'"
				" AND e.detail LIKE 'FAIL pgnofsync arm:%'"),
			 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_attrs a JOIN runs r USING (run_id)"
				" JOIN corpora c USING (corpus_id) WHERE a.source = 'results'"
				" AND r.subcorpus = '' AND c.name = 'gcp-x86-capacity-20260816'"),
			 47 * 33);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM run_attrs a JOIN runs r USING (run_id)"
				" WHERE a.source = 'join'"),
			 47 * 18);
	assert_int_equal(db_scalar_int(db, "SELECT rows FROM traces t JOIN runs r USING (run_id)"
				" WHERE r.tag = 'small-pg-n300-bsoakr5'"),
			 count_lines(CAPACITY "/samples/small-pg-n300-bsoakr5.tsv"));
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM files WHERE kind = 'other'"), 0);
}

/*
 * Every column of generator_records equals what SQLite's own ->> reads
 * from the record stored beside it (the extraction genrec used before it
 * bound the values its json_tree walk met): both sky corpora's 83 records
 * (true/false as 1/0, integers, reals, text), then one record with a
 * repeated key (->> and the walk both take the first), a null and a
 * missing column. Runs after gomaxprocs_corpus and capacity_corpus.
 */
static void generator_columns_match_json(void **state)
{
	static const char cols[] =
		"label sessions_requested sessions_established duration interactions_counted"
		" interactions_per_sec p50_ms p95_ms p99_ms max_ms error_rate patch_rate"
		" generator_cpu_percent_of_machine generator_possibly_saturated valid host started_at";
	static const char record[] = "{\"label\": \"x\", \"sessions_requested\": 7,"
				     " \"sessions_requested\": 9, \"valid\": false,"
				     " \"host\": null, \"p50_ms\": 2.5}";
	char sql[4096], col[64];
	struct attr_list attrs = {0};
	size_t len = 0;
	int64_t run_id, file_id;
	(void)state;
	len = (size_t)snprintf(sql, sizeof(sql), "SELECT count(*) FROM generator_records WHERE 0");
	for (const char *p = cols; *p;) {
		size_t n = strcspn(p, " ");
		snprintf(col, sizeof(col), "%.*s", (int)n, p);
		len += (size_t)snprintf(sql + len, sizeof(sql) - len, " OR %s IS NOT json ->> '%s'",
					col, col);
		p += n + (p[n] == ' ');
	}
	/* find -name "*.json": 29 load.json in the GOMAXPROCS corpus, 54 in the capacity corpus */
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM generator_records"), 83);
	assert_int_equal(db_scalar_int(db, sql), 0);
	/* a run of its own for the hand-written record */
	run_id = db_scalar_int(db, "SELECT run_id FROM generator_records LIMIT 1");
	file_id = db_scalar_int(db, "SELECT file_id FROM generator_records LIMIT 1");
	assert_int_equal(db_exec(db, "DELETE FROM generator_records WHERE run_id ="
				     " (SELECT run_id FROM generator_records LIMIT 1)"),
			 0);
	assert_int_equal(genrec_parse(db, run_id, file_id, record, sizeof(record) - 1, "r.json",
				      &attrs),
			 0);
	attr_list_release(&attrs);
	assert_int_equal(db_scalar_int(db, sql), 0);
	snprintf(sql, sizeof(sql),
		 "SELECT sessions_requested * 100 + valid * 10 + (host IS NULL) + (max_ms IS NULL)"
		 " FROM generator_records WHERE run_id = %lld",
		 (long long)run_id);
	assert_int_equal(db_scalar_int(db, sql), 702);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void bad_values_name_file_line_column(void **state)
{
	/* a results table and the message importing it gives */
	static const struct bad_table {
		const char *text;
		const char *message;
	} bad[] = {
		{"tag\ttput\nA\t10\nB\tNaN\n", "nan.tsv:3:2: 'NaN' for tput is not a finite number"},
		{"tag\ttput\nA\t-3\n", "nan.tsv:2:2: tput is -3, must be zero or more"},
		{"tag\tgomaxprocs\nA\t1.5\n", "nan.tsv:2:2: '1.5' for gomaxprocs is not an integer"},
		{"tag\ttput\nA\t1\nA\t2\n", "nan.tsv:3: duplicate run tag 'A' (also line 2)"},
	};
	struct import_result r;
	char path[300];
	(void)state;
	snprintf(path, sizeof(path), "%s/nan.tsv", dir);
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		write_file(path, bad[i].text);
		assert_int_equal(import(path, &r), ERR_DATA);
		check_msg(bad[i].message);
	}
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM corpora WHERE name = 'nan'"), 0);
}

static void single_table_is_a_corpus(void **state)
{
	struct import_result r;
	(void)state;
	assert_int_equal(import(SHARED_CORPORA "/writeups/yip-sharding/level1.tsv", &r), 0);
	assert_int_equal(r.runs, 4);
	assert_string_equal(r.layout, "table");
	/* no tag column: rows are row1..row4; N and Gbps stay attributes by name */
	assert_true(db_scalar_real(db, "SELECT num FROM run_attrs a JOIN runs r USING (run_id)"
				" WHERE r.tag = 'row4' AND a.name = 'Gbps'") == 10.55);
	assert_int_equal(import(SHARED_CORPORA "/writeups/gomaxprocs-affinity/runs.tsv", &r), 0);
	assert_true(db_scalar_real(db, "SELECT tput FROM runs WHERE tag = 'pin-siblings-r2'") == 1102.0);
	assert_int_equal(db_scalar_int(db, "SELECT sessions FROM runs WHERE tag = 'shard-8x1-r1'"), 96);
}

/*
 * A run's impossible generator values, named in one exclusion detail in
 * name order. Expected text: what the SQL this replaced (the build of
 * 06d972e) stored for the same five values in fixtures/example's
 * g1-n100-b1; interactions_per_sec 12 and a JSON null break nothing, nor
 * does a value of another source.
 */
static void impossible_generator_values(void **state)
{
	static const struct {
		const char *source, *name, *value;
	} values[] = {
		{"generator", "sessions_requested", "-5"}, {"generator", "p50_ms", "-2.25"},
		{"generator", "error_rate", "1.5"},        {"generator", "patch_rate", "3"},
		{"generator", "interactions_per_sec", "12"}, {"generator", "host", NULL},
		{"results", "tput", "-1"},
	};
	struct attr_list attrs = {0};
	char *detail = NULL;
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(values); i++)
		assert_int_equal(attr_list_add(&attrs, values[i].source, values[i].name,
					       values[i].value, 1, 1, 1),
				 0);
	assert_int_equal(mapping_impossible_detail(&attrs, &detail), 0);
	assert_non_null(detail);
	assert_string_equal(detail,
			    "the generator record says error_rate 1.5 (must be a fraction between 0 "
			    "and 1), p50_ms -2.25 (must be zero or more), patch_rate 3 (must be a "
			    "fraction between 0 and 1), sessions_requested -5 (must be zero or more)");
	free(detail);
	attr_list_release(&attrs);
	/* nothing broken: no detail */
	assert_int_equal(attr_list_add(&attrs, "generator", "error_rate", "0.25", 1, 1, 1), 0);
	assert_int_equal(mapping_impossible_detail(&attrs, &detail), 0);
	assert_null(detail);
	attr_list_release(&attrs);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	return db_open(":memory:", false, &db);
}

static int teardown(void **state)
{
	(void)state;
	db_close(db);
	return remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gomaxprocs_corpus),
		cmocka_unit_test(capacity_corpus),
		cmocka_unit_test(generator_columns_match_json),
		cmocka_unit_test(bad_values_name_file_line_column),
		cmocka_unit_test(single_table_is_a_corpus),
		cmocka_unit_test(impossible_generator_values),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
