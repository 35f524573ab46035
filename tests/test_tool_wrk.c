/*
 * Unit tests for importers/tool_wrk: wrk 4.1 text output to a one-row
 * table. The inputs are verbatim outputs of wrk 4.1.0 (Debian 4.1.0-3)
 * run against python3 -m http.server on 127.0.0.1 (and a responder that
 * closes every connection, for the socket errors); the expected values are
 * the printed numbers converted by hand (1 KB = 1024 B, 1 MB = 1024 KB).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "importers/table.h"
#include "importers/tool_wrk.h"
#include "schema/fields.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* wrk -t1 -c1 -d1s --latency http://127.0.0.1:18731/ */
static const char latency_run[] = "Running 1s test @ http://127.0.0.1:18731/\n"
				  "  1 threads and 1 connections\n"
				  "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
				  "    Latency     1.75ms    1.46ms   5.71ms   54.73%\n"
				  "    Req/Sec   592.10    288.48     1.06k    60.00%\n"
				  "  Latency Distribution\n"
				  "     50%    1.87ms\n"
				  "     75%    3.10ms\n"
				  "     90%    3.93ms\n"
				  "     99%    4.14ms\n"
				  "  589 requests in 1.00s, 109.29KB read\n"
				  "Requests/sec:    588.78\n"
				  "Transfer/sec:    109.25KB\n";

/* wrk -t2 -c4 -d1s http://127.0.0.1:18731/ (no --latency) */
static const char plain_run[] = "Running 1s test @ http://127.0.0.1:18731/\n"
				"  2 threads and 4 connections\n"
				"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
				"    Latency     5.73ms    3.46ms  16.47ms   63.98%\n"
				"    Req/Sec   355.65     71.96   480.00     75.00%\n"
				"  711 requests in 1.00s, 131.92KB read\n"
				"Requests/sec:    707.94\n"
				"Transfer/sec:    131.36KB\n";

/* wrk -t1 -c8 -d1s --latency http://127.0.0.1:18731/nope (404s) */
static const char non2xx_run[] = "Running 1s test @ http://127.0.0.1:18731/nope\n"
				 "  1 threads and 8 connections\n"
				 "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
				 "    Latency     9.96ms    6.01ms  24.31ms   63.88%\n"
				 "    Req/Sec   601.10    191.78     0.92k    70.00%\n"
				 "  Latency Distribution\n"
				 "     50%    9.87ms\n"
				 "     75%   13.11ms\n"
				 "     90%   18.94ms\n"
				 "     99%   24.07ms\n"
				 "  598 requests in 1.00s, 303.67KB read\n"
				 "  Non-2xx or 3xx responses: 598\n"
				 "Requests/sec:    596.40\n"
				 "Transfer/sec:    302.86KB\n";

/* wrk -t1 -c2 -d1s --timeout 1s against a responder closing every connection */
static const char socket_run[] = "Running 1s test @ http://127.0.0.1:18732/\n"
				 "  1 threads and 2 connections\n"
				 "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
				 "    Latency     0.00us    0.00us   0.00us    -nan%\n"
				 "    Req/Sec     0.00      0.00     0.00      -nan%\n"
				 "  0 requests in 1.10s, 0.00B read\n"
				 "  Socket errors: connect 0, read 18806, write 0, timeout 0\n"
				 "Requests/sec:      0.00\n"
				 "Transfer/sec:       0.00B\n";

static const char *cell(const struct table *t, const char *name)
{
	int c = table_col(t, name);
	assert_true(c >= 0);
	assert_int_equal(t->nrows, 1);
	return t->cells[0][c];
}

static double real(const struct table *t, const char *name)
{
	const char *s = cell(t, name);
	char *end;
	double v;
	assert_true(s[0] != '\0');
	v = strtod(s, &end);
	assert_true(*end == '\0');
	return v;
}

static int wrk_mem(const char *b, size_t n, const char *p, struct table *t)
{
	return convert_as("wrk", b, n, p, t);
}

static void convert_ok(const char *text, struct table *t)
{
	int rc = wrk_mem(text, strlen(text), "run.txt", t);
	if (rc != 0)
		fail_msg("convert: %s", err_msg());
}

static void test_latency_run(void **state)
{
	struct table t;
	(void)state;
	assert_true(detects(latency_run, strlen(latency_run), "wrk"));
	convert_ok(latency_run, &t);
	assert_int_equal(t.ncols, 26);
	assert_int_equal(t.lines[0], 1);
	assert_string_equal(cell(&t, "url"), "http://127.0.0.1:18731/");
	assert_string_equal(cell(&t, "wrk_threads"), "1");
	assert_string_equal(cell(&t, "connections"), "1");
	assert_float_equal(real(&t, "test_duration_s"), 1, 0);
	assert_float_equal(real(&t, "latency_avg_ms"), 1.75, 1e-12);
	assert_float_equal(real(&t, "latency_stdev_ms"), 1.46, 1e-12);
	assert_float_equal(real(&t, "latency_max_ms"), 5.71, 1e-12);
	assert_float_equal(real(&t, "latency_within_stdev_pct"), 54.73, 1e-12);
	assert_float_equal(real(&t, "thread_requests_avg_per_s"), 592.10, 1e-12);
	assert_float_equal(real(&t, "thread_requests_stdev_per_s"), 288.48, 1e-12);
	assert_float_equal(real(&t, "thread_requests_max_per_s"), 1060, 1e-9); /* 1.06k */
	assert_float_equal(real(&t, "latency_p50_ms"), 1.87, 1e-12);
	assert_float_equal(real(&t, "latency_p75_ms"), 3.10, 1e-12);
	assert_float_equal(real(&t, "latency_p90_ms"), 3.93, 1e-12);
	assert_float_equal(real(&t, "latency_p99_ms"), 4.14, 1e-12);
	assert_string_equal(cell(&t, "requests_total"), "589");
	assert_float_equal(real(&t, "elapsed_s"), 1.00, 1e-12);
	assert_float_equal(real(&t, "read_MB"), 109.29 / 1024, 1e-12);
	assert_float_equal(real(&t, "requests_per_s"), 588.78, 1e-12);
	assert_float_equal(real(&t, "transfer_MB_per_s"), 109.25 / 1024, 1e-12);
	assert_string_equal(cell(&t, "socket_connect_errors_count"), "0");
	assert_string_equal(cell(&t, "socket_read_errors_count"), "0");
	assert_string_equal(cell(&t, "non_2xx_errors_count"), "0");
	table_release(&t);
}

static void test_plain_run(void **state)
{
	struct table t;
	(void)state;
	convert_ok(plain_run, &t);
	assert_string_equal(cell(&t, "wrk_threads"), "2");
	assert_string_equal(cell(&t, "connections"), "4");
	assert_float_equal(real(&t, "latency_max_ms"), 16.47, 1e-12);
	assert_float_equal(real(&t, "thread_requests_max_per_s"), 480, 1e-12);
	assert_string_equal(cell(&t, "latency_p50_ms"), ""); /* no --latency */
	assert_string_equal(cell(&t, "latency_p99_ms"), "");
	assert_float_equal(real(&t, "requests_per_s"), 707.94, 1e-12);
	table_release(&t);
}

static void test_non2xx_run(void **state)
{
	struct table t;
	(void)state;
	convert_ok(non2xx_run, &t);
	assert_string_equal(cell(&t, "url"), "http://127.0.0.1:18731/nope");
	assert_string_equal(cell(&t, "non_2xx_errors_count"), "598");
	assert_float_equal(real(&t, "thread_requests_max_per_s"), 920, 1e-9); /* 0.92k */
	assert_float_equal(real(&t, "latency_p75_ms"), 13.11, 1e-12);
	assert_float_equal(real(&t, "requests_per_s"), 596.40, 1e-12);
	table_release(&t);
}

static void test_socket_errors_run(void **state)
{
	struct table t;
	(void)state;
	convert_ok(socket_run, &t);
	assert_string_equal(cell(&t, "socket_connect_errors_count"), "0");
	assert_string_equal(cell(&t, "socket_read_errors_count"), "18806");
	assert_string_equal(cell(&t, "socket_write_errors_count"), "0");
	assert_string_equal(cell(&t, "socket_timeout_errors_count"), "0");
	assert_string_equal(cell(&t, "requests_total"), "0");
	/* no requests: wrk's zero latency and -nan% are no measurement */
	assert_string_equal(cell(&t, "latency_avg_ms"), "");
	assert_string_equal(cell(&t, "latency_within_stdev_pct"), "");
	assert_string_equal(cell(&t, "thread_requests_avg_per_s"), "");
	assert_float_equal(real(&t, "elapsed_s"), 1.10, 1e-12);
	assert_float_equal(real(&t, "requests_per_s"), 0, 0);
	assert_float_equal(real(&t, "transfer_MB_per_s"), 0, 0);
	table_release(&t);
}

/* Units wrk's units.c prints: us/ms/s/m/h, k/M, B/KB/MB/GB; CRLF line ends. */
static void test_units(void **state)
{
	static const char text[] = "Running 2m test @ http://h/\r\n"
				   "  4 threads and 1000 connections\r\n"
				   "  Thread Stats   Avg      Stdev     Max   +/- Stdev\r\n"
				   "    Latency   500.00us    1.50s    2.00m    99.00%\r\n"
				   "    Req/Sec     1.50M     2.00k   3.00M     50.00%\r\n"
				   "  Latency Distribution\r\n"
				   "     50%  250.00us\r\n"
				   "     75%    1.00s\r\n"
				   "     90%    1.00m\r\n"
				   "     99%    1.00h\r\n"
				   "  100000 requests in 2.00m, 1.50GB read\r\n"
				   "  Socket errors: connect 1, read 2, write 3, timeout 4\r\n"
				   "  Non-2xx or 3xx responses: 5\r\n"
				   "Requests/sec: 833.33\r\n"
				   "Transfer/sec:     512.00B\r\n"
				   "\r\n";
	struct table t;
	(void)state;
	convert_ok(text, &t);
	assert_float_equal(real(&t, "test_duration_s"), 120, 1e-12);
	assert_float_equal(real(&t, "latency_avg_ms"), 0.5, 1e-12);
	assert_float_equal(real(&t, "latency_stdev_ms"), 1500, 1e-9);
	assert_float_equal(real(&t, "latency_max_ms"), 120000, 1e-9);
	assert_float_equal(real(&t, "thread_requests_avg_per_s"), 1.5e6, 1e-6);
	assert_float_equal(real(&t, "thread_requests_stdev_per_s"), 2000, 1e-9);
	assert_float_equal(real(&t, "latency_p50_ms"), 0.25, 1e-12);
	assert_float_equal(real(&t, "latency_p90_ms"), 60000, 1e-9);
	assert_float_equal(real(&t, "latency_p99_ms"), 3600000, 1e-6);
	assert_float_equal(real(&t, "elapsed_s"), 120, 1e-9);
	assert_float_equal(real(&t, "read_MB"), 1536, 1e-9);
	assert_float_equal(real(&t, "transfer_MB_per_s"), 512.0 / 1048576, 1e-15);
	assert_string_equal(cell(&t, "socket_connect_errors_count"), "1");
	assert_string_equal(cell(&t, "socket_timeout_errors_count"), "4");
	assert_string_equal(cell(&t, "non_2xx_errors_count"), "5");
	table_release(&t);
}

/* Replace the first `from` in latency_run with `to`; expect "run.txt:L:C: ...msg". */
static void expect_bad(const char *from, const char *to, const char *where, const char *msg)
{
	char text[2048];
	const char *at = strstr(latency_run, from);
	struct table t;
	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - latency_run), latency_run, to,
		 at + strlen(from));
	assert_int_equal(wrk_mem(text, strlen(text), "run.txt", &t), ERR_DATA);
	if (strncmp(err_msg(), where, strlen(where)) != 0 || !strstr(err_msg(), msg))
		fail_msg("message '%s', wanted '%s' ... '%s'", err_msg(), where, msg);
	assert_int_equal(t.nrows, 0);
	assert_null(t.header);
}

static void test_malformed(void **state)
{
	(void)state;
	/* a line before Running is a Lua script's setup output: with no Running after it, named */
	expect_bad("Running 1s", "Runing 1s", "run.txt:1:1:",
		   "'Runing 1s test @ http://127.0.0.1:18731/' is not wrk's, and the Running "
		   "line never follows");
	expect_bad("1 threads", "x threads", "run.txt:2:3:", "expected a thread count");
	expect_bad("1 connections", "0 connections", "run.txt:2:17:", "at least one");
	expect_bad("1.46ms", "1.46parsecs", "run.txt:4:31:", "unknown unit 'parsecs'");
	expect_bad("54.73%", "154.73%", "run.txt:4:45:", "over 100");
	expect_bad("1.06k", "1.06q", "run.txt:5:40:", "unknown unit 'q'");
	expect_bad("     75%    3.10ms\n", "",
		   "run.txt:8:6:", "expected wrk's next latency percentile");
	expect_bad("589 requests", "-589 requests", "run.txt:11:3:", "expected a request count");
	expect_bad("in 1.00s,", "in 1.00s", "run.txt:11:", "expected ','");
	expect_bad("Requests/sec:    588.78\n", "",
		   "run.txt:12:1:", "expected the Requests/sec line");
	expect_bad("Transfer/sec:    109.25KB\n", "", "run.txt:13: wrk output",
		   "ends before the Transfer/sec");
	expect_bad("1.87ms", "1.87ms extra", "run.txt:7:", "unexpected 'extra'");
	expect_bad("Thread Stats", "Thread\x01Stats", "run.txt:3:1:",
		   "'  Thread\\x01Stats   Avg      Stdev     Max   +/- Stdev' is not wrk's");
	expect_bad("Latency     1.75ms", "Latency     1.75e3ms",
		   "run.txt:4:", "unknown unit 'e3ms'");
	expect_bad("Requests/sec:    588.78", "Requests/sec:    nan",
		   "run.txt:12:18:", "expected a request rate");
}

static void test_nul_and_empty(void **state)
{
	static const char text[] = "Running 1s test @ http://h/\n  1 thr\0eads";
	struct table t;
	(void)state;
	assert_int_equal(wrk_mem(text, sizeof(text) - 1, "run.txt", &t), ERR_DATA);
	assert_string_equal(err_msg(), "run.txt:2:8: NUL byte in wrk output (binary data)");
	assert_int_equal(wrk_mem("", 0, "run.txt", &t), ERR_DATA);
	assert_non_null(strstr(err_msg(), "empty file"));
}

/*
 * What a Lua script (wrk -s) prints is the script's: lines before
 * "Running" (setup), during the run and after Transfer/sec (done, here
 * the percentile lines of wrk's own scripts/report.lua) are kept, counted,
 * and the run's figures are those of the plain run.
 */
static void test_lua_script(void **state)
{
	char text[4096];
	struct table t;
	(void)state;
	snprintf(text, sizeof(text),
		 "thread 1 created\n%s------------------------------\n"
		 "50%%,612\n99%%,4980\n",
		 latency_run);
	assert_true(detects(text, strlen(text), "wrk"));
	convert_ok(text, &t);
	assert_string_equal(cell(&t, "script_lines"), "4");
	assert_string_equal(cell(&t, "script_output"),
			    "thread 1 created\n------------------------------\n50%,612\n99%,4980");
	assert_string_equal(cell(&t, "requests_per_s"), "588.78");
	assert_string_equal(cell(&t, "wrk_threads"), "1");
	table_release(&t);
}

static void test_detect(void **state)
{
	(void)state;
	assert_true(detects(plain_run, strlen(plain_run), "wrk"));
	assert_false(detects("Running 1s test @ x\n", 20, "wrk"));
	assert_false(detects("block\trep\n1\t2\n", 14, "wrk"));
	assert_false(detects("goos: linux\n", 12, "wrk"));
	assert_false(detects("", 0, "wrk"));
}

/* The column names give schema/fields' inference the kind and direction README states. */
static void test_column_meanings(void **state)
{
	static const struct {
		const char *name;
		enum field_kind kind;
		bool lower;
	} want[] = {
		{"requests_per_s", FIELD_KIND_RATE, false},
		{"transfer_MB_per_s", FIELD_KIND_RATE, false},
		{"thread_requests_avg_per_s", FIELD_KIND_RATE, false},
		{"latency_avg_ms", FIELD_KIND_LATENCY, true},
		{"latency_p99_ms", FIELD_KIND_LATENCY, true},
		{"latency_max_ms", FIELD_KIND_LATENCY, true},
		{"socket_read_errors_count", FIELD_KIND_COUNT, true},
		{"socket_timeout_errors_count", FIELD_KIND_COUNT, true},
		{"non_2xx_errors_count", FIELD_KIND_COUNT, true},
		{"requests_total", FIELD_KIND_COUNT, false},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct metric_meaning m;
		field_metric_meaning(want[i].name, NULL, false, &m);
		if (m.kind != want[i].kind || m.lower_is_better != want[i].lower || m.kind_assumed)
			fail_msg("%s: kind %d lower %d (%s; %s)", want[i].name, (int)m.kind,
				 (int)m.lower_is_better, m.kind_from, m.direction_from);
	}
	/* wrk's threads and connections are not the workers a sweep scales */
	for (size_t i = 0; i < 2; i++)
		assert_false(field_counts_workers(i ? "connections" : "wrk_threads"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_run),
		cmocka_unit_test(test_plain_run),
		cmocka_unit_test(test_non2xx_run),
		cmocka_unit_test(test_socket_errors_run),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_nul_and_empty),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_lua_script),
		cmocka_unit_test(test_column_meanings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
