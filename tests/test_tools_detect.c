/*
 * Unit tests for detection on structure (importers/tool_detect.c) and the
 * streaming JSON reader (importers/tool_json.c). The shapes are the
 * tools' own: hyperfine 1.15's --export-json/--export-csv/--export-markdown
 * and Google Benchmark 1.7's console table were printed by the installed
 * tools (lines copied from their output), benchstat's two layouts from
 * golang.org/x/perf's cmd/benchstat testdata and README. Expected line and
 * column numbers are counted by hand on the strings below.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tool_class classify(const char *text, size_t n)
{
	struct tool_src s;
	struct tool_class c;
	tool_src_mem(&s, text, n, "x");
	assert_int_equal(tool_classify(&s, &c), 0);
	tool_src_close(&s);
	return c;
}

static void expect_tool(const char *text, const char *format)
{
	struct tool_class c = classify(text, strlen(text));
	if (c.kind != TOOL_KIND_TOOL || strcmp(c.format->name, format))
		fail_msg("'%.60s...': kind %d (%s), expected %s", text, c.kind, c.why, format);
}

static void expect_kind(const char *text, size_t n, enum tool_kind kind, const char *why)
{
	struct tool_class c = classify(text, n);
	if (c.kind != kind)
		fail_msg("'%.60s': kind %d (%s), expected %d", text, c.kind, c.why, kind);
	if (why && !strstr(c.why, why))
		fail_msg("'%.60s': why '%s' lacks '%s'", text, c.why, why);
}

static void test_tools_by_structure(void **state)
{
	(void)state;
	expect_tool("goos: linux\nBenchmarkX-8 \t 100\t 12.5 ns/op\n", "gobench");
	/* test output before the first result line */
	expect_tool("=== RUN   TestA\n--- PASS: TestA (0.00s)\nBenchmarkA 1 2 ns/op\n", "gobench");
	/* Go text without a result line is still Go text: its converter names what is missing */
	expect_tool("goos: linux\ngoarch: amd64\npkg: x\nPASS\nok  \tx\t0.1s\n", "gobench");
	/* CR-only line ends: seen as Go text (the converter then refuses the CRs) */
	expect_tool("goos: linux\rBenchmarkA 1 2 ns/op\r", "gobench");
	expect_tool("{\"results\": [{\"command\": \"sleep 1\", \"times\": [1]}]}", "hyperfine");
	expect_tool("\xef\xbb\xbf  {\"results\": []}", "hyperfine");
	expect_tool("{\"context\": {\"num_cpus\": 2}, \"benchmarks\": []}", "gbench");
	expect_tool("{\"benchmarks\": [{\"name\": \"BM\", \"run_type\": \"iteration\"}]}",
		    "gbench");
	expect_tool("command,mean,stddev,median,user,system,min,max\nsleep 1,1,0,1,0,0,1,1\n",
		    "hyperfine-csv");
	expect_tool(
		"command,mean,stddev,median,user,system,min,max,parameter_n\na 1,1,0,1,0,0,1,1,1\n",
		"hyperfine-csv");
	expect_tool("Running 1s test @ http://h/\n  1 threads and 1 connections\n", "wrk");
	/* a Lua script's setup output before wrk's own lines */
	expect_tool(
		"thread 1 created\nRunning 1s test @ http://h/\n  1 threads and 1 connections\n",
		"wrk");
}

/* A first field longer than any fixed prefix (the old detection read 64 KiB). */
static void test_long_first_field(void **state)
{
	size_t big = 200 << 10;
	char *text = malloc(big + 200);
	size_t n;
	(void)state;
	assert_non_null(text);
	n = (size_t)sprintf(text, "{\"results\": [{\"command\": \"");
	memset(text + n, 'a', big);
	n += big;
	n += (size_t)sprintf(text + n, "\", \"times\": [1]}]}");
	expect_tool(text, "hyperfine");
	n = (size_t)sprintf(text, "{\"context\": {\"executable\": \"");
	memset(text + n, 'b', big);
	n += big;
	n += (size_t)sprintf(text + n, "\"}, \"benchmarks\": []}");
	expect_tool(text, "gbench");
	free(text);
}

static void test_refused_and_unknown(void **state)
{
	static const char gbench_console[] =
		"2026-12-01T11:48:43+00:00\n"
		"Running ./bm\n"
		"Run on (2 X 2300 MHz CPU s)\n"
		"CPU Caches:\n"
		"  L1 Data 48 KiB (x1)\n"
		"Load Average: 0.84, 1.23, 2.06\n"
		"-----------------------------------------------------------\n"
		"Benchmark                 Time             CPU   Iterations\n"
		"-----------------------------------------------------------\n"
		"BM_Sum/threads:1        358 ns          356 ns        34793\n";
	static const char benchstat_new[] =
		"goos: linux\n"
		"       │  old.txt   │              new.txt               │\n"
		"       │   sec/op   │   sec/op     vs base               │\n"
		"Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)\n";
	static const char benchstat_old[] =
		"name                  old time/op  new time/op  delta\n"
		"Encode/format=json-8  1.72µs ± 1%  1.42µs ± 1%  -17.20%  (p=0.000 n=10+10)\n";
	(void)state;
	expect_kind(gbench_console, strlen(gbench_console), TOOL_KIND_REFUSED,
		    "Google Benchmark's console output");
	expect_kind(gbench_console, strlen(gbench_console), TOOL_KIND_REFUSED,
		    "--benchmark_format=json");
	expect_kind("| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n|:---|---:|\n",
		    SIZE_MAX, TOOL_KIND_REFUSED, "hyperfine --export-markdown table");
	expect_kind(benchstat_new, strlen(benchstat_new), TOOL_KIND_REFUSED,
		    "benchstat's own output");
	expect_kind(benchstat_old, strlen(benchstat_old), TOOL_KIND_REFUSED,
		    "benchstat's own output");
	expect_kind("", 0, TOOL_KIND_UNKNOWN, "it is empty");
	expect_kind("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, TOOL_KIND_UNKNOWN, "binary data");
	expect_kind("hello\nworld\n", 12, TOOL_KIND_UNKNOWN,
		    "text of 2 lines whose first line ('hello') has no tab or comma");
	expect_kind("{\"a\": 1, \"b\": [2]}", 18, TOOL_KIND_UNKNOWN,
		    "a JSON object with the keys a, b");
	expect_kind("[1, 2]", 6, TOOL_KIND_UNKNOWN, "JSON holding an array");
	expect_kind("{\"a\": 1,}", 9, TOOL_KIND_UNKNOWN, "not valid JSON");
	expect_kind("tag\ttput\nr1\t3\n", 14, TOOL_KIND_TABLE, NULL);
	expect_kind("tag,tput\nr1,3\n", 14, TOOL_KIND_TABLE, NULL);
	/* a table whose first column happens to be named Benchmark... is a table */
	expect_kind("Benchmark\tns\nfoo\t3\n", 18, TOOL_KIND_TABLE, NULL);
}

/* ---- the JSON reader ---- */

static int read_all(const char *text, size_t n)
{
	struct tool_src s;
	struct tj j;
	enum tj_type t;
	int rc;
	err_clear();
	tool_src_mem(&s, text, n, "j.json");
	rc = tj_open(&j, &s);
	if (rc == 0)
		rc = tj_value(&j, &t);
	if (rc == 0)
		rc = tj_skip(&j, t);
	if (rc == 0)
		rc = tj_finish(&j);
	tj_close(&j);
	tool_src_close(&s);
	return rc;
}

static void expect_json_error(const char *text, size_t n, const char *message)
{
	if (read_all(text, n) == 0)
		fail_msg("accepted: %s", text);
	if (!strstr(err_msg(), message))
		fail_msg("'%s' lacks '%s'", err_msg(), message);
}

static void test_json_reader(void **state)
{
	(void)state;
	{
		static const char ok[] =
			"{\"a\": [1, -2.5e3, true, false, null, \"\\u00e9\\ud83d\\ude00\"]}";
		assert_int_equal(read_all(ok, strlen(ok)), 0);
	}
	assert_int_equal(read_all(" \n[]\n ", 6), 0);
	expect_json_error("{\"a\": 1, \"a\": 2}", 16,
			  "j.json:1:10: $.a: key given twice in one object");
	expect_json_error("{\"x\": {\"k\": 1, \"k\": 1}}", 23,
			  "j.json:1:16: $.x.k: key given twice");
	expect_json_error("[\"ab\\u0000c\"]", 13, "$[0]: an escaped NUL (\\u0000)");
	expect_json_error("[\"\\udc00\"]", 10, "a lone low surrogate");
	expect_json_error("[\"\\ud800x\"]", 11, "without its low half");
	expect_json_error("[1e999]", 7, "j.json:1:2: $[0]: a number beyond a double's range");
	expect_json_error("[-1e400]", 8, "beyond a double's range");
	expect_json_error("[0x1p3]", 7, "$[0]: 'x' where");
	expect_json_error("[01]", 4, "a leading zero");
	expect_json_error("[1.]", 4, "a digit after '.'");
	expect_json_error("[NaN]", 5, "'N' where a JSON value should be");
	expect_json_error("{\"a\": 1", 7, "truncated: the file ends");
	expect_json_error("{\"a\": 1} x", 10, "j.json:1:10: $: 'x' where the end of the file");
	expect_json_error("[\"a\nb\"]", 7,
			  "j.json:1:2: $[0]: a line break inside the string that starts here");
	expect_json_error("[1,\n 2,\n \0]", 11, "j.json:3:2: $[2]: a NUL byte where");
	{
		char deep[5000];
		memset(deep, '[', 2001);
		memset(deep + 2001, ']', 2001);
		expect_json_error(deep, 4002, "nested deeper than 2000 levels");
	}
}

/* The path names keys that are not identifiers in quotes. */
static void test_json_path(void **state)
{
	(void)state;
	expect_json_error("{\"a b\": [0, {\"c\": tru}]}", 24,
			  "j.json:1:22: $.\"a b\"[1].c: '}' where a JSON value should be");
}

/* Rows the converters refuse by the one rule for values (tools.h). */
static void expect_convert_error(const char *format, const char *text, const char *message)
{
	struct table t;
	err_clear();
	if (tool_convert_table(tool_find(format), text, strlen(text), "v.txt", NULL, &t) == 0) {
		table_release(&t);
		fail_msg("%s accepted: %s", format, text);
	}
	if (!strstr(err_msg(), message))
		fail_msg("'%s' lacks '%s'", err_msg(), message);
}

static void test_value_rules(void **state)
{
	(void)state;
	expect_convert_error(
		"gobench", "BenchmarkA 1 0x1p3 ns/op\n",
		"v.txt:1:14: value '0x1p3' is not a finite decimal number (hex floats");
	expect_convert_error("gobench", "BenchmarkA 1 -5 ns/op\n",
			     "v.txt:1:14: value '-5' is negative: a ns/op cannot be");
	expect_convert_error("gobench", "BenchmarkA 1 -5 B/op\n", "is negative: a B/op");
	expect_convert_error("gobench", "goos: linux\rBenchmarkA 1 2 ns/op\r",
			     "v.txt:1:12: a carriage return inside the line: CR-only line ends");
	expect_convert_error("gobench", "goos: linux\nPASS\n",
			     "v.txt:2: no benchmark result lines");
	expect_convert_error(
		"hyperfine",
		"{\"results\": [{\"command\": \"a\", \"command\": \"b\", \"times\": [1]}]}",
		"v.txt:1:31: $.results[0].command: key given twice in one object");
	expect_convert_error("hyperfine",
			     "{\"results\": [{\"command\": \"a\\u0000b\", \"times\": [1]}]}",
			     "$.results[0].command: an escaped NUL");
	expect_convert_error(
		"gbench",
		"{\"benchmarks\": [{\"name\": \"B\", \"iterations\": 1, \"real_time\": 1e308,"
		" \"cpu_time\": 1, \"time_unit\": \"s\"}]}",
		"$.benchmarks[0].real_time: 1e308: in ns it is beyond a double's range");
	expect_convert_error(
		"gbench",
		"{\"benchmarks\": [{\"name\": \"B\", \"iterations\": 1, \"real_time\": -1,"
		" \"cpu_time\": 1}]}",
		"$.benchmarks[0].real_time: -1 is below 0: a time or count cannot be negative");
	expect_convert_error("gbench", "{\"benchmarks\": [], \"context\": {}}",
			     "$.benchmarks: empty: no benchmark ran");
	expect_convert_error("hyperfine-csv", "command,mean,stddev,median,user,system,min,max\n",
			     "a header but no commands");
	expect_convert_error(
		"hyperfine-csv",
		"command,mean,stddev,median,user,system,min,max\na,0x1p3,0,1,0,0,1,1\n",
		"v.txt:2:2: mean '0x1p3' is not a time in seconds");
	expect_convert_error(
		"hyperfine-csv",
		"command,mean,stddev,median,user,system,min,max\na,-1,0,1,0,0,1,1\n",
		"mean '-1' is not a time in seconds (a finite decimal number, not negative)");
}

/* hyperfine's CSV export: one run per command, its summary, the parameter without its prefix. */
static void test_hyperfine_csv(void **state)
{
	/* printed by hyperfine 1.15: --parameter-scan n 1 2 'sleep 0.00{n}' --export-csv */
	static const char csv[] =
		"command,mean,stddev,median,user,system,min,max,parameter_n\n"
		"sleep 0.001,0.002102884666666667,0.00020636178499987195,0.002009103,"
		"0.0008463333333333334,0,0.001960068,0.0023394830000000003,1\n"
		"sleep 0.002,0.003510821666666667,0.0006631136021379245,0.003184281,"
		"0.0006116666666666666,0.00032933333333333333,0.003074302,0.0042738820000000005,"
		"2\n";
	struct table t;
	(void)state;
	assert_int_equal(tool_convert_table(tool_find("hyperfine-csv"), csv, strlen(csv), "s.csv",
					    "s.csv", &t),
			 0);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.cells[1][table_col(&t, "median_s")], "0.003184281");
	assert_string_equal(t.cells[0][table_col(&t, "mean_s")], "0.002102884666666667");
	assert_string_equal(t.cells[1][table_col(&t, "n")], "2");
	/* the scan's template, as for the JSON export */
	assert_string_equal(t.cells[0][table_col(&t, "command")], "sleep 0.00{n}");
	assert_string_equal(t.cells[1][table_col(&t, "file")], "s.csv");
	assert_int_equal(t.lines[1], 3);
	table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tools_by_structure),
		cmocka_unit_test(test_long_first_field),
		cmocka_unit_test(test_refused_and_unknown),
		cmocka_unit_test(test_json_reader),
		cmocka_unit_test(test_json_path),
		cmocka_unit_test(test_value_rules),
		cmocka_unit_test(test_hyperfine_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
