/*
 * Unit tests for importers/tools (the registry, the row builder) and the
 * Go benchmark converter (importers/tool_gobench.c). Expected values are
 * read off the input text by hand; the committed samples under
 * fixtures/tools/gobench were printed by go 1.19.8 `go test -bench .
 * -cpu 1,2 -count 3 -benchtime 2000x`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "doc/doc.h"
#include "importers/table.h"
#include "importers/tools.h"
#include "schema/fields.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int convert(const char *text, struct table *t)
{
	err_clear();
	return convert_as("gobench", text, strlen(text), "b.txt", t);
}

static void test_registry(void **state)
{
	(void)state;
	assert_non_null(tool_find("gobench"));
	assert_null(tool_find("nosuch"));
	assert_non_null(strstr(tool_names(), "gobench"));
	assert_true(detects("goos: linux\nBenchmarkX-8 \t 100\t 12.5 ns/op\n", 41, "gobench"));
	/* a headed table whose first column happens to be named Benchmark... is not Go text */
	assert_false(detects("Benchmark\tns\nfoo\t3\n", 18, "gobench"));
	assert_false(detects("tag\ttput\nr1\t3\n", 14, "gobench"));
	/* import --format takes both kinds of name: a tool format must not be an output format */
	for (size_t i = 0; tool_formats[i].name; i++) {
		enum doc_format f;
		assert_int_not_equal(doc_format_parse(tool_formats[i].name, &f), 0);
	}
}

static void test_config_and_results(void **state)
{
	struct table t;
	const char *text = "goos: linux\n"
			   "goarch: amd64\n"
			   "pkg: example.com/x\n"
			   "cpu: Intel(R) Xeon(R) Processor\n"
			   "BenchmarkSum/size=100-2   \t    2000\t       117.5 ns/op\n"
			   "note: second\r\n"
			   "BenchmarkSum/size=100     \t    2000\t        97.25 ns/op\n"
			   "BenchmarkJoin-16 \t 10 \t 52.88 ns/op\t 16.00 bytes/join\t 16 B/op\t 1 "
			   "allocs/op\t 3.5 MB/s\n"
			   "PASS\nok  \texample.com/x\t0.145s\n";
	(void)state;
	assert_int_equal(convert(text, &t), 0);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(table_cell(&t, 0, "name"), "BenchmarkSum/size=100");
	assert_string_equal(table_cell(&t, 0, "gomaxprocs"), "2");
	assert_string_equal(table_cell(&t, 1, "gomaxprocs"), "1"); /* no suffix: GOMAXPROCS=1 */
	check_cells(&t, (const char *const[]){"2:gomaxprocs=16", "0:size=100", "2:size=", NULL});
	check_row(&t, 0,
		  (const char *const[]){"iterations=2000", "ns_per_op=117.5",
					"cpu=Intel(R) Xeon(R) Processor", "note=", NULL});
	assert_string_equal(table_cell(&t, 1, "note"), "second"); /* CR stripped */
	check_row(&t, 2,
		  (const char *const[]){"pkg=example.com/x", "bytes_per_join=16.00", "B_per_op=16",
					"allocs_per_op=1", "MB_per_s=3.5", NULL});
	assert_int_equal(t.lines[0], 5);
	assert_int_equal(t.lines[2], 8);
	table_release(&t);
}

static void test_unset_config(void **state)
{
	struct table t;
	(void)state;
	assert_int_equal(
		convert("note: a\nBenchmarkA 1 2 ns/op\nnote:\nBenchmarkA 1 3 ns/op\n", &t), 0);
	assert_string_equal(table_cell(&t, 0, "note"), "a");
	assert_string_equal(table_cell(&t, 1, "note"), "");
	table_release(&t);
}

/* A Go text the converter refuses: where the error points and what it says. */
struct gobench_refusal {
	const char *text;
	const char *where; /* file:line[:column], counted by hand in text */
	const char *what;
};

static const struct gobench_refusal gobench_refusals[] = {
	{"BenchmarkA 1 2 ns/op\nBenchmarkB x 2 ns/op\n", "b.txt:2:12", "iteration count"},
	{"BenchmarkA 10 2 ns/op 3 ns/op\n", "b.txt:1:", "given twice"},
	{"BenchmarkA 10 nan ns/op\n", "b.txt:1:15", "not a finite decimal number"},
	{"BenchmarkA 10 1e999 ns/op\n", "b.txt:1:15", "not a finite decimal number"},
	{"BenchmarkA 10 2\n", "b.txt:1:", "no unit"},
	{"BenchmarkA 10\n", "b.txt:1:", "at least one value"},
	{"BenchmarkA\n", "b.txt:1:", "iteration count"},
	{"PASS\nok\n", "b.txt:2", "no benchmark result lines"},
	{"", "b.txt:1", "no benchmark result lines"},
	{"name: x\nBenchmarkA 1 2 ns/op\n", "b.txt:1:1", "configuration key 'name'"},
	{"BenchmarkA/gomaxprocs=3 1 2 ns/op\n", "b.txt:1:", "sub-benchmark key"},
	{"BenchmarkA-0 1 2 ns/op\n", "b.txt:1:", "not a positive number"},
	{"BenchmarkA 0 2 ns/op\n", "b.txt:1:12", "positive whole number"},
	{"BenchmarkA 1 2 name\n", "b.txt:1:", "unit 'name'"},
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(gobench_refusals); i++) {
		const struct gobench_refusal *c = &gobench_refusals[i];
		struct table t;
		assert_int_not_equal(convert(c->text, &t), 0);
		if (!strstr(err_msg(), c->where) || !strstr(err_msg(), c->what))
			fail_msg("case %zu: '%s' lacks '%s' or '%s'", i, err_msg(), c->where,
				 c->what);
		assert_int_equal(t.nrows, 0);
		table_release(&t);
	}
	{
		struct table t;
		char text[] = "BenchmarkA 1 2 ns/op\nBench\0markB 1 2 ns/op\n";
		err_clear();
		assert_int_not_equal(convert_as("gobench", text, sizeof(text) - 1, "b.txt", &t), 0);
		assert_non_null(strstr(err_msg(), "b.txt:2:6: NUL byte"));
	}
}

static void test_file_column(void **state)
{
	struct table t;
	const char *text = "BenchmarkA-4 1 2 ns/op\n";
	(void)state;
	assert_int_equal(tool_convert_table(tool_find("gobench"), text, strlen(text), "d/old.txt",
					    "old.txt", &t),
			 0);
	assert_string_equal(table_cell(&t, 0, "file"), "old.txt");
	assert_string_equal(table_cell(&t, 0, "ns_per_op"), "2");
	table_release(&t);
	err_clear();
	assert_int_not_equal(convert("file: x\nBenchmarkA 1 2 ns/op\n", &t), 0);
}

/* The metric columns' kinds and directions, as schema/fields infers them. */
static void test_unit_meanings(void **state)
{
	struct metric_meaning m;
	(void)state;
	field_metric_meaning("ns_per_op", NULL, false, &m);
	assert_int_equal(m.kind, FIELD_KIND_TIME);
	assert_true(m.lower_is_better);
	field_metric_meaning("B_per_op", NULL, false, &m);
	assert_int_equal(m.kind, FIELD_KIND_MEMORY);
	assert_true(m.lower_is_better);
	field_metric_meaning("allocs_per_op", NULL, false, &m);
	assert_int_equal(m.kind, FIELD_KIND_COUNT);
	assert_true(m.lower_is_better);
	assert_false(m.direction_assumed);
	field_metric_meaning("MB_per_s", NULL, false, &m);
	assert_int_equal(m.kind, FIELD_KIND_RATE);
	assert_false(m.lower_is_better);
}

/* The committed sample, read whole: 18 result lines, as printed by go. */
static void test_sample(void **state)
{
	FILE *f = fopen(TESTS_DIR "/../fixtures/tools/gobench/old.txt", "rb");
	char buf[8192];
	size_t n;
	struct table t;
	(void)state;
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_true(detects(buf, n, "gobench"));
	assert_int_equal(convert_as("gobench", buf, n, "old.txt", &t), 0);
	assert_int_equal(t.nrows, 18);
	check_cells(&t, (const char *const[]){"0:name=BenchmarkSum/size=100", "0:ns_per_op=97.25",
					      "3:gomaxprocs=2", NULL});
	check_row(&t, 17,
		  (const char *const[]){"name=BenchmarkParallelJoin", "ns_per_op=116.8",
					"goos=linux", NULL});
	table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),     cmocka_unit_test(test_config_and_results),
		cmocka_unit_test(test_unset_config), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_file_column),  cmocka_unit_test(test_unit_meanings),
		cmocka_unit_test(test_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
