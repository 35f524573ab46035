/*
 * Unit tests for importers/tool_hyperfine.c and importers/tool_gbench.c
 * (tool_json.h): the committed samples made by the tools themselves
 * (fixtures/tools/hyperfine/sleep_threads.json by hyperfine 1.15,
 * fixtures/tools/gbench/bm_sum.json by libbenchmark 1.7.1), synthetic files
 * shaped like the other things the tools write, and bad input with its
 * JSON path. Expected values were read from the same JSON files with
 * /usr/bin/python3's json module (named at each check).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "importers/table.h"
#include "importers/tool_json.h"
#include "importers/tools.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "fixtures"
#endif

static int hyperfine_mem(const char *b, size_t n, const char *p, struct table *t)
{
	return convert_as("hyperfine", b, n, p, t);
}

static int gbench_mem(const char *b, size_t n, const char *p, struct table *t)
{
	return convert_as("gbench", b, n, p, t);
}

static double num(const struct table *t, size_t row, const char *col)
{
	return strtod(table_cell(t, row, col), NULL);
}

/* A converter on a string; returns its code, the message in err_msg(). */
static int conv(int (*f)(const char *, size_t, const char *, struct table *), const char *text,
		struct table *t)
{
	err_clear();
	return f(text, strlen(text), "x.json", t);
}

static void expect_error(int (*f)(const char *, size_t, const char *, struct table *),
			 const char *text, const char *message)
{
	struct table t;
	int rc = conv(f, text, &t);
	if (rc == 0) {
		table_release(&t);
		fail_msg("accepted: %s", text);
	}
	if (!strstr(err_msg(), message))
		fail_msg("message '%s', expected '%s'", err_msg(), message);
	assert_int_equal(t.nrows, 0);
	assert_null(t.cells);
}

/*
 * fixtures/tools/FORMAT/NAME, detected as format and not as other, then
 * converted as format into t (its display path NAME); the file's bytes,
 * freed by the caller after t.
 */
static char *convert_fixture(const char *format, const char *other, const char *name,
			    struct table *t)
{
	char path[512];
	size_t n;
	char *text;
	snprintf(path, sizeof(path), "%s/tools/%s/%s", FIXTURES_DIR, format, name);
	text = slurp(path, &n);
	assert_true(detects(text, n, format));
	assert_false(detects(text, n, other));
	assert_int_equal(convert_as(format, text, n, name, t), 0);
	return text;
}

static void test_hyperfine_sample(void **state)
{
	struct table t;
	char *text = convert_fixture("hyperfine", "gbench", "sleep_threads.json", &t);
	(void)state;
	/* python3 json: 4 results of 3 times each */
	assert_int_equal(t.nrows, 12);
	assert_string_equal(t.display_path, "sleep_threads.json");
	assert_string_equal(table_cell(&t, 0, "id"), "c1-r1");
	/* the scan substitutes threads into the command: its template is the command */
	check_cells(&t, (const char *const[]){"2:command=sleep 0.0{threads}",
					      "11:command=sleep 0.0{threads}", "2:threads=1",
					      "11:threads=4", "11:run=3", NULL});
	/* python3: results[0].times[2] = 0.016183647940000004, results[3].times[2] = 0.03966656594
	 */
	assert_true(num(&t, 2, "time_s") == 0.016183647940000004);
	assert_true(num(&t, 11, "time_s") == 0.03966656594);
	/* python3: results[1].user = 0.00127312 (one mean per command in hyperfine 1.15) */
	assert_true(num(&t, 3, "user_mean_s") == 0.00127312);
	assert_true(num(&t, 5, "user_mean_s") == 0.00127312);
	assert_string_equal(table_cell(&t, 4, "exit_code"), "0");
	assert_string_equal(table_cell(&t, 4, "valid"), "1");
	assert_int_equal(table_col(&t, "user_s"), -1);
	table_release(&t);
	free(text);
}

static void test_hyperfine_shapes(void **state)
{
	struct table t;
	(void)state;
	/* a failing run (hyperfine -i), per-run user/system arrays, two parameters, no exit codes
	 */
	assert_int_equal(conv(hyperfine_mem,
			      "{\"results\": [{\"command\": \"false\", \"times\": [0.5, 0.25],"
			      " \"exit_codes\": [0, 1], \"user\": [0.1, 0.2], \"system\": 0.05,"
			      " \"parameters\": {\"size\": 10, \"mode\": \"fast\"}},"
			      " {\"command\": \"true\", \"times\": [1e-3]}]}",
			      &t),
			 0);
	assert_int_equal(t.nrows, 3);
	check_row(&t, 1, (const char *const[]){"valid=0", "exit_code=1", "user_s=0.2", NULL});
	check_cells(&t, (const char *const[]){"0:system_mean_s=0.05", "0:size=10", "1:mode=fast",
					      "2:time_s=0.001", NULL});
	assert_string_equal(table_cell(&t, 2, "command"), "true"); /* different commands: as written */
	assert_string_equal(table_cell(&t, 2, "exit_code"), "");
	assert_string_equal(table_cell(&t, 2, "valid"), "1");
	assert_string_equal(table_cell(&t, 2, "size"), ""); /* no parameters: empty, read as missing */
	table_release(&t);
}

static void test_hyperfine_errors(void **state)
{
	(void)state;
	expect_error(hyperfine_mem,
		     "{\"results\": [{\"command\": \"a\", \"times\": [0.1, 0.2, 0.3, \"x\"]}]}",
		     "x.json:1:56: $.results[0].times[3]: a string, expected a time in seconds");
	expect_error(hyperfine_mem,
		     "{\"results\": [{\"command\": \"a\", \"times\": [0.1]},"
		     " {\"command\": \"b\", \"times\": [-0.1]}]}",
		     "$.results[1].times[0]: -0.1 is negative");
	expect_error(hyperfine_mem, "{\"results\": [{\"command\": \"a\", \"times\": [1e999]}]}",
		     "x.json:1:41: $.results[0].times[0]: a number beyond a double's range");
	expect_error(
		hyperfine_mem,
		"{\"results\": [{\"command\": \"a\", \"times\": [1, 2], \"exit_codes\": [0]}]}",
		"$.results[0].exit_codes: 1 entries for 2 times");
	expect_error(hyperfine_mem,
		     "{\"results\": [{\"command\": \"a\", \"times\": [1], \"exit_codes\": [0.5]}]}",
		     "x.json:1:60: $.results[0].exit_codes[0]: 0.5, expected an integer exit code");
	expect_error(hyperfine_mem,
		     "{\"results\": [{\"command\": \"a\", \"times\": [1],"
		     " \"parameters\": {\"time_s\": \"1\"}}]}",
		     "$.results[0].parameters.time_s: the name of a column");
	expect_error(hyperfine_mem,
		     "{\"results\": [{\"command\": \"a\", \"times\": [1],"
		     " \"parameters\": {\"n\": \"1\", \"n\": \"2\"}}]}",
		     "x.json:1:70: $.results[0].parameters.n: key given twice in one object");
	expect_error(hyperfine_mem, "{\"results\": [{\"times\": [1]}]}",
		     "$.results[0].command: missing");
	expect_error(hyperfine_mem, "{\"results\": [{\"command\": \"a\", \"times\": []}]}",
		     "$.results[0].times: empty");
	expect_error(hyperfine_mem, "{\"results\": []}", "$.results: empty");
	expect_error(hyperfine_mem, "{\"result\": []}", "$.results: missing");
	expect_error(hyperfine_mem, "[1, 2]", "x.json:1:1: $: an array, expected a JSON object");
	expect_error(hyperfine_mem, "{\"results\": [\n  {\"command\": \"a\" oops}]}",
		     "x.json:2:19");
	expect_error(hyperfine_mem,
		     "{\"results\": [{\"command\": \"a\", \"times\": [1], \"user\": [0.1, 0.2]}]}",
		     "x.json: $.results[0].user: 2 entries for 1 times");
	{
		struct table t;
		static const char nul[] = "{\"results\": [\n{\"command\": \"a\0\"}]}";
		err_clear();
		assert_true(hyperfine_mem(nul, sizeof(nul) - 1, "x.json", &t) < 0);
		assert_non_null(
			strstr(err_msg(),
			       "x.json:2:15: $.results[0].command: a NUL byte inside a string"));
	}
}

static void test_gbench_sample(void **state)
{
	struct table t;
	char *text = convert_fixture("gbench", "hyperfine", "bm_sum.json", &t);
	(void)state;
	/* python3 json: 6 rows with run_type iteration, 8 aggregates (mean, median, stddev, cv x 2)
	 */
	assert_int_equal(t.nrows, 6);
	check_cells(&t, (const char *const[]){"0:aggregate_rows=8", "0:name=BM_Sum",
					      "3:name=BM_Sum", "3:id=BM_Sum/threads:2/rep:0",
					      "0:threads=1", "5:threads=2", "5:repetition=2",
					      "4:iterations=36212", NULL});
	/* python3: benchmarks[1].real_time = 369.44439971332594 ns, [9] cpu_time 381.0588755108804
	 */
	assert_true(num(&t, 1, "real_time_ns") == 369.44439971332594);
	assert_true(num(&t, 4, "cpu_time_ns") == 381.0588755108804);
	assert_true(num(&t, 2, "items_per_second") == 2645424600.7988663);
	assert_int_equal(table_col(&t, "bytes_per_second") >= 0, 1);
	/* python3: context num_cpus 2, mhz_per_cpu 2300, library_build_type debug */
	check_cells(&t, (const char *const[]){"5:num_cpus=2", "5:mhz_per_cpu=2300",
					      "0:library_build_type=debug", NULL});
	assert_string_equal(table_cell(&t, 0, "caches"),
			    "L1 Data 48 KiB (x1), L1 Instruction 32 KiB (x1), L2 Unified 2048 KiB"
			    " (x1), L3 Unified 266240 KiB (x2)");
	assert_string_equal(table_cell(&t, 0, "cpu_scaling_enabled"), "0");
	table_release(&t);
	free(text);
}

static void test_gbench_shapes(void **state)
{
	struct table t;
	(void)state;
	/* microseconds, a user counter, an errored row, no context, no run_type (old versions) */
	assert_int_equal(
		conv(gbench_mem,
		     "{\"context\": {}, \"benchmarks\": ["
		     "{\"name\": \"BM_a/64/threads:4/real_time\", \"threads\": 4,"
		     " \"iterations\": 10, \"real_time\": 1.5, \"cpu_time\": 2,"
		     " \"time_unit\": \"us\", \"hits\": 7},"
		     "{\"name\": \"BM_b\", \"run_type\": \"iteration\", \"repetition_index\": 0,"
		     " \"error_occurred\": true, \"error_message\": \"boom\"}]}",
		     &t),
		0);
	assert_int_equal(t.nrows, 2);
	check_row(&t, 0,
		  (const char *const[]){"name=BM_a/64/real_time", "threads=4", "real_time_ns=1500",
					"cpu_time_ns=2000", "hits=7", "aggregate_rows=0", NULL});
	check_row(&t, 1,
		  (const char *const[]){"valid=0", "threads=1", "error_message=boom",
					"real_time_ns=", NULL});
	table_release(&t);
	/* seconds */
	assert_int_equal(
		conv(gbench_mem,
		     "{\"context\": {}, \"benchmarks\": [{\"name\": \"s\", \"iterations\": 1,"
		     " \"real_time\": 2.5, \"cpu_time\": 0.5, \"time_unit\": \"s\"}]}",
		     &t),
		0);
	assert_string_equal(table_cell(&t, 0, "real_time_ns"), "2500000000");
	table_release(&t);
}

#define GB(row) "{\"context\": {\"num_cpus\": 2}, \"benchmarks\": [" row "]}"
#define OKROW "{\"name\": \"a\", \"iterations\": 1, \"real_time\": 1, \"cpu_time\": 1}"

static void test_gbench_errors(void **state)
{
	(void)state;
	expect_error(gbench_mem,
		     GB(OKROW ", {\"name\": \"a\", \"iterations\": 1, \"real_time\": \"fast\","
			      " \"cpu_time\": 1}"),
		     "x.json:1:152: $.benchmarks[1].real_time: a string, expected a number");
	expect_error(
		gbench_mem,
		GB("{\"name\": \"a\", \"iterations\": 1, \"real_time\": 1, \"cpu_time\": 1e999}"),
		"x.json:1:104: $.benchmarks[0].cpu_time: a number beyond a double's range");
	expect_error(gbench_mem,
		     GB("{\"name\": \"a\", \"threads\": 0, \"iterations\": 1,"
			" \"real_time\": 1, \"cpu_time\": 1}"),
		     "$.benchmarks[0].threads: 0 is below 1");
	expect_error(gbench_mem,
		     GB("{\"name\": \"a\", \"threads\": 2.5, \"iterations\": 1,"
			" \"real_time\": 1, \"cpu_time\": 1}"),
		     "$.benchmarks[0].threads: 2.5 is not a 64-bit integer");
	expect_error(gbench_mem,
		     GB("{\"name\": \"a\", \"iterations\": 1, \"real_time\": 1,"
			" \"cpu_time\": 1, \"time_unit\": \"min\"}"),
		     "$.benchmarks[0].time_unit: 'min', expected ns, us, ms or s");
	expect_error(gbench_mem,
		     GB("{\"name\": \"a\", \"iterations\": 1, \"real_time\": 1,"
			" \"cpu_time\": 1, \"valid\": 1}"),
		     "$.benchmarks[0].valid: a counter named like a column");
	expect_error(gbench_mem,
		     GB("{\"name\": \"a_mean\", \"run_type\": \"aggregate\", \"iterations\": 3,"
			" \"real_time\": 1, \"cpu_time\": 1}"),
		     "$.benchmarks: only aggregate rows");
	expect_error(gbench_mem, GB(""), "$.benchmarks: empty");
	expect_error(gbench_mem,
		     GB("{\"name\": \"a\", \"iterations\": 1, \"real_time\": 1,"
			" \"cpu_time\": 1, \"hits\": 1, \"hits\": 2}"),
		     "x.json:1:118: $.benchmarks[0].hits: key given twice in one object");
	expect_error(gbench_mem, GB("{\"iterations\": 1}"), "$.benchmarks[0].name: missing");
	expect_error(gbench_mem, GB("{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1}"),
		     "$.benchmarks[0].iterations: missing");
	expect_error(gbench_mem, GB("3"),
		     "x.json:1:45: $.benchmarks[0]: a number, expected a benchmark object");
	expect_error(gbench_mem,
		     "{\"context\": {\"num_cpus\": \"two\"}, \"benchmarks\": [" OKROW "]}",
		     "x.json:1:26: $.context.num_cpus: a string, expected a number");
	expect_error(gbench_mem, "{\"context\": {}}", "$.benchmarks: missing");
	expect_error(gbench_mem, "{\"context\": {}, \"benchmarks\": [", "x.json:1:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hyperfine_sample),
		cmocka_unit_test(test_hyperfine_shapes),
		cmocka_unit_test(test_hyperfine_errors),
		cmocka_unit_test(test_gbench_sample),
		cmocka_unit_test(test_gbench_shapes),
		cmocka_unit_test(test_gbench_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
