/*
 * Unit tests for analysis/window's rule and analysis/cores' figures on
 * synthetic traces (struct trace_series built in C): the window's edges
 * (fraction, trim, dips, idle rows, ramp rows, short windows), the figures
 * worked by hand from the trace's construction, the error paths, and the
 * RSS mean against gsl_stats_mean. The real corpora are in test_window.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/cores.h"
#include "analysis/window.h"
#include "common/err.h"
#include "test_util.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#define MAX_ROWS 1024

/*
 * Row i: epoch 1000 + i, cpu_total_j += 200, cpu_idle_j += 50, app_j += 120,
 * pg_j += 10, app_rss_kb = 1000 + i, mem_avail_kb = 50000 - i per row. So
 * over any window (1 s per row, clk_tck 100, nproc 2): app_cores_wall 1.2,
 * app_cores_stat 120 / (200 / 2) = 1.2, machine_busy (200 - 50) / 100 = 1.5,
 * pg 0.1, stat_tick_hz 200.
 */
static struct trace_row rows_buf[MAX_ROWS];

static void make_trace(struct trace_series *t, const double *conn, size_t n)
{
	assert_true(n <= MAX_ROWS);
	for (size_t i = 0; i < n; i++) {
		struct trace_row *r = &rows_buf[i];
		r->row_no = (int64_t)i + 1;
		r->epoch = 1000 + (double)i;
		r->conn = conn ? conn[i] : 100;
		r->cpu_total_j = 10000 + 200 * (double)i;
		r->cpu_idle_j = 5000 + 50 * (double)i;
		r->app_j = 100 + 120 * (double)i;
		r->pg_j = 10 * (double)i;
		r->app_rss_kb = 1000 + (double)i;
		r->mem_avail_kb = 50000 - (double)i;
	}
	t->rows = rows_buf;
	t->n = n;
}

static void select_with(const double *conn, size_t n, double frac, size_t trim, struct window *w)
{
	struct trace_series t;
	struct window_options o;
	window_options_init(&o);
	o.frac = frac;
	o.trim = trim;
	make_trace(&t, conn, n);
	assert_int_equal(window_select(&t, &o, w), 0);
}

/* The window is rows lo..hi of the trace. */
static void check_span(const struct window *w, size_t lo, size_t hi)
{
	assert_int_equal(w->lo, lo);
	assert_int_equal(w->hi, hi);
}

static void test_window_defaults(void **state)
{
	struct window_options o;
	window_options_init(&o);
	assert_true(o.frac == 0.8);
	assert_int_equal(o.trim, 1);
	assert_int_equal(o.min_rows, 10);
	assert_true(WINDOW_MIN_SECONDS == 10.0);
}

/*
 *  index: 0  1   2   3   4    5    6   7    8    9    10   11  12
 *  conn:  0  50  90  100 100  95   100 100  100  100  80   0   0
 * frac 0.8 (>= 80): rows 2..10 (9 rows > 5) -> trimmed 3..9
 * frac 1.0 (= 100): rows 3..9  (7 rows > 5) -> trimmed 4..8, the 95 dip kept
 */
static void test_window_frac(void **state)
{
	static const double conn[] = {0, 50, 90, 100, 100, 95, 100, 100, 100, 100, 80, 0, 0};
	struct window w;
	select_with(conn, ARRAY_LEN(conn), 0.8, 1, &w);
	check_span(&w, 3, 9);
	assert_int_equal(w.rows, 7);
	assert_true(w.seconds == 6);
	assert_true(w.conn_max == 100);
	select_with(conn, ARRAY_LEN(conn), 1.0, 1, &w);
	check_span(&w, 4, 8);
	assert_int_equal(w.rows, 5);
}

/* trim applies only when the window has more than 2 * trim + 3 rows */
static void test_window_trim_threshold(void **state)
{
	static const double five[] = {0, 100, 100, 100, 100, 100, 0};
	static const double six[] = {0, 100, 100, 100, 100, 100, 100, 0};
	static const double seven[] = {0, 100, 100, 100, 100, 100, 100, 100, 0};
	static const double eight[] = {0, 100, 100, 100, 100, 100, 100, 100, 100, 0};
	struct window w;
	/* trim 1: 5 rows = 2 * 1 + 3 stay, 6 rows lose one at each end */
	select_with(five, ARRAY_LEN(five), 0.8, 1, &w);
	check_span(&w, 1, 5);
	assert_int_equal(w.rows, 5);
	select_with(six, ARRAY_LEN(six), 0.8, 1, &w);
	check_span(&w, 2, 5);
	assert_int_equal(w.rows, 4);
	/* trim 2: 7 rows stay, 8 rows lose two at each end */
	select_with(seven, ARRAY_LEN(seven), 0.8, 2, &w);
	check_span(&w, 1, 7);
	select_with(eight, ARRAY_LEN(eight), 0.8, 2, &w);
	check_span(&w, 3, 6);
	assert_int_equal(w.rows, 4);
	/* trim 0: never trimmed */
	select_with(eight, ARRAY_LEN(eight), 0.8, 0, &w);
	check_span(&w, 1, 8);
}

/* a dip inside the window is kept; a dip to zero is counted as idle */
static void test_window_dips_and_idle(void **state)
{
	static const double dip[] = {0, 100, 100, 100, 10, 100, 100, 100, 0};
	static const double idle[] = {0, 100, 100, 100, 0, 100, 100, 100, 0};
	struct window w;
	select_with(dip, ARRAY_LEN(dip), 0.8, 1, &w);
	check_span(&w, 2, 6);
	assert_int_equal(w.idle_rows, 0);
	assert_null(strstr(w.warnings, "idle"));
	select_with(idle, ARRAY_LEN(idle), 0.8, 1, &w);
	check_span(&w, 2, 6);
	assert_int_equal(w.idle_rows, 1);
	assert_non_null(strstr(w.warnings, "1 idle row inside"));
}

/*
 *  index: 0  1   2   3   4   5..18 (fourteen 100s)  19
 *  conn:  0  10  60  70  80  100                    0
 * frac 0.5, trim 0: rows 2..18 (17 rows); the window's median conn is 100;
 * leading rows rising and below it: 60, 70, 80 -> 3 ramp rows, left out by
 * default (the window starts at 5, trim 0 after them); --keep-ramp keeps
 * them; with trim 1 the row after the ramp is trimmed too (6..17).
 */
static void test_window_ramp_rows(void **state)
{
	double conn[20] = {0, 10, 60, 70, 80};
	struct window w;
	struct trace_series t;
	struct window_options o;
	for (size_t i = 5; i < 19; i++)
		conn[i] = 100;
	conn[19] = 0;
	select_with(conn, ARRAY_LEN(conn), 0.5, 0, &w);
	check_span(&w, 5, 18);
	assert_int_equal(w.rows, 14);
	assert_int_equal(w.ramp_rows, 0);
	assert_int_equal(w.ramp_excluded, 3);
	assert_non_null(strstr(w.warnings, "3 ramp rows left out"));
	assert_null(strstr(w.warnings, "short window"));
	/* kept on request: the old window and its warning */
	make_trace(&t, conn, ARRAY_LEN(conn));
	window_options_init(&o);
	o.frac = 0.5;
	o.trim = 0;
	o.keep_ramp = true;
	assert_int_equal(window_select(&t, &o, &w), 0);
	assert_int_equal(w.lo, 2);
	assert_int_equal(w.ramp_rows, 3);
	assert_int_equal(w.ramp_excluded, 0);
	assert_non_null(strstr(w.warnings, "3 ramp rows inside"));
	/* trim 1: rows 3..17 first; 70, 80 rising below 100: 2 ramp rows, then 1 more trimmed */
	o.trim = 1;
	o.keep_ramp = false;
	assert_int_equal(window_select(&t, &o, &w), 0);
	assert_int_equal(w.ramp_excluded, 2);
	check_span(&w, 6, 17);
	/* frac 1.0 leaves no ramp row */
	select_with(conn, ARRAY_LEN(conn), 1.0, 0, &w);
	assert_int_equal(w.lo, 5);
	assert_int_equal(w.ramp_rows, 0);
	assert_int_equal(w.ramp_excluded, 0);
	assert_string_equal(w.warnings, "");
}

static void test_window_short_warning(void **state)
{
	static const double conn[] = {0, 100, 100, 100, 100, 100, 100, 100, 0};
	double longer[20];
	struct trace_series t;
	struct window_options o;
	struct window w;
	/* 7 rows over 6 s, trimmed to 5 rows over 4 s: fewer than 10 rows */
	select_with(conn, ARRAY_LEN(conn), 0.8, 1, &w);
	assert_int_equal(w.rows, 5);
	assert_non_null(strstr(w.warnings, "short window: 5 rows over 4 s"));
	/* 18 rows at 1 s: no warning; at 0.5 s per row (8.5 s) the time span warns */
	for (size_t i = 0; i < ARRAY_LEN(longer); i++)
		longer[i] = i == 0 || i + 1 == ARRAY_LEN(longer) ? 0 : 100;
	select_with(longer, ARRAY_LEN(longer), 0.8, 0, &w);
	assert_int_equal(w.rows, 18);
	assert_string_equal(w.warnings, "");
	window_options_init(&o);
	o.trim = 0;
	make_trace(&t, longer, ARRAY_LEN(longer));
	for (size_t i = 0; i < t.n; i++)
		rows_buf[i].epoch = 1000 + 0.5 * (double)i;
	assert_int_equal(window_select(&t, &o, &w), 0);
	assert_true(w.seconds == 8.5);
	assert_non_null(strstr(w.warnings, "short window"));
	/* min_rows is an option */
	o.min_rows = 19;
	make_trace(&t, longer, ARRAY_LEN(longer));
	assert_int_equal(window_select(&t, &o, &w), 0);
	assert_non_null(strstr(w.warnings, "short window: 18 rows"));
}

/* Eleven rows at 100 connections between two idle ones. */
static const double plateau11[] = {0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 0};

/* t = the plateau11 trace, o = the default options. */
static void plateau_trace(struct trace_series *t, struct window_options *o)
{
	window_options_init(o);
	make_trace(t, plateau11, ARRAY_LEN(plateau11));
}

static void test_window_figures(void **state)
{
	struct trace_series t;
	struct window_options o;
	struct window w;
	struct cpu_figures f;
	plateau_trace(&t, &o);
	assert_int_equal(window_select(&t, &o, &w), 0);
	/* rows 1..11 trimmed to 2..10: 9 rows over 8 s */
	check_span(&w, 2, 10);
	assert_int_equal(cpu_compute(&t, &w, 100, 2, WINDOW_TICK_MIN, &f), 0);
	check_abs(f.app_cores_wall, 1.2, 1e-12, "app_cores_wall");
	check_abs(f.app_cores_stat, 1.2, 1e-12, "app_cores_stat");
	check_abs(f.machine_busy_cores, 1.5, 1e-12, "machine_busy_cores");
	check_abs(f.pg_cores, 0.1, 1e-12, "pg_cores");
	check_abs(f.stat_tick_hz, 200, 1e-12, "stat_tick_hz");
	check_abs(f.owed_tick_hz, 200, 0, "owed_tick_hz");
	assert_true(f.tick_ok);
	/* rss 1002..1010: median 1006, mean 1006, peak 1010; mem_avail min 50000 - 10 */
	check_abs(f.rss_median_kb, 1006, 0, "rss_median_kb");
	check_abs(f.rss_mean_kb, 1006, 1e-9, "rss_mean_kb");
	check_abs(f.rss_peak_kb, 1010, 0, "rss_peak_kb");
	check_abs(f.mem_avail_min_kb, 49990, 0, "mem_avail_min_kb");
	/* a guest ticking at half the owed rate: ratio 0.5, below 0.75 */
	for (size_t i = 0; i < t.n; i++)
		rows_buf[i].cpu_total_j = 10000 + 100 * (double)i;
	assert_int_equal(cpu_compute(&t, &w, 100, 2, WINDOW_TICK_MIN, &f), 0);
	check_abs(f.stat_tick_hz, 100, 1e-12, "stat_tick_hz (half)");
	check_abs(f.tick_ratio, 0.5, 1e-12, "tick_ratio (half)");
	check_abs(f.app_cores_stat, 2.4, 1e-12, "app_cores_stat (half clock)");
	check_abs(f.app_cores_wall, 1.2, 1e-12, "app_cores_wall (unchanged)");
	assert_false(f.tick_ok);
	assert_int_equal(cpu_compute(&t, &w, 100, 2, 0.5, &f), 0);
	assert_true(f.tick_ok); /* ratio >= tick_min */
	/* the same counters on a 4-CPU guest: owed 400 Hz, per-CPU clock 100 / 4 = 25 */
	assert_int_equal(cpu_compute(&t, &w, 100, 4, WINDOW_TICK_MIN, &f), 0);
	check_abs(f.owed_tick_hz, 400, 0, "owed_tick_hz (4 CPUs)");
	check_abs(f.tick_ratio, 0.25, 1e-12, "tick_ratio (4 CPUs)");
	check_abs(f.app_cores_stat, 120.0 / (100.0 / 4), 1e-12, "app_cores_stat (4 CPUs)");
}

/* window_select refuses t, with a message containing part. */
static void expect_no_window(const struct trace_series *t, const struct window_options *o,
			     const char *part)
{
	struct window w;
	err_clear();
	assert_true(window_select(t, o, &w) < 0);
	check_msg(part);
}

static void test_window_errors(void **state)
{
	static const double zeros[] = {0, 0, 0, 0, 0, 0};
	struct trace_series t;
	struct window_options o;
	struct window w;
	struct cpu_figures f;

	/* no conn column (NaN everywhere) */
	plateau_trace(&t, &o);
	for (size_t i = 0; i < t.n; i++)
		rows_buf[i].conn = NAN;
	expect_no_window(&t, &o, "no connection count (conn)");

	/* conn always 0 */
	make_trace(&t, zeros, ARRAY_LEN(zeros));
	expect_no_window(&t, &o, "never has a connection");

	/* an empty trace */
	t.n = 0;
	expect_no_window(&t, &o, "");

	/* a counter reset across the window: app_j lower at the last row */
	make_trace(&t, plateau11, ARRAY_LEN(plateau11));
	assert_int_equal(window_select(&t, &o, &w), 0);
	rows_buf[w.hi].app_j = 50;
	err_clear();
	assert_true(cpu_compute(&t, &w, 100, 2, WINDOW_TICK_MIN, &f) < 0);
	check_msg("app_j went backwards");

	/* no app_j column */
	make_trace(&t, plateau11, ARRAY_LEN(plateau11));
	for (size_t i = 0; i < t.n; i++)
		rows_buf[i].app_j = NAN;
	err_clear();
	assert_true(cpu_compute(&t, &w, 100, 2, WINDOW_TICK_MIN, &f) < 0);
	check_msg("no app_j column");

	/* zero time span: every row at the same epoch */
	make_trace(&t, plateau11, ARRAY_LEN(plateau11));
	for (size_t i = 0; i < t.n; i++)
		rows_buf[i].epoch = 1000;
	assert_int_equal(window_select(&t, &o, &w), 0);
	assert_true(w.seconds == 0);
	err_clear();
	assert_true(cpu_compute(&t, &w, 100, 2, WINDOW_TICK_MIN, &f) < 0);
	check_msg("spans no time");
	err_clear();
}


/*
 * The RSS mean over a window is gsl_stats_mean of the window's values to
 * the bit (its recurrence, in row order), also for values whose running
 * sum rounds: 1e6 + 0.1 i + a random fraction.
 */
static void test_window_mean_is_gsl_mean(void **state)
{
	double conn[MAX_ROWS], rss[MAX_ROWS];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct trace_series t;
	struct window_options o;
	struct window w;
	struct cpu_figures f;
	size_t n = 900;
	(void)state;
	assert_non_null(rng);
	for (size_t i = 0; i < n; i++)
		conn[i] = i < 5 || i + 5 >= n ? 0 : 100;
	make_trace(&t, conn, n);
	for (size_t i = 0; i < n; i++)
		rows_buf[i].app_rss_kb = 1e6 + 0.1 * (double)i + gsl_rng_uniform(rng);
	window_options_init(&o);
	assert_int_equal(window_select(&t, &o, &w), 0);
	assert_int_equal(cpu_compute(&t, &w, 100, 2, WINDOW_TICK_MIN, &f), 0);
	for (size_t i = 0; i < w.rows; i++)
		rss[i] = rows_buf[w.lo + i].app_rss_kb;
	check_same_bits(f.rss_mean_kb, gsl_stats_mean(rss, 1, w.rows), "rss_mean_kb");
	/* a window made by hand (as size and translate make theirs) reads the rows itself */
	{
		struct window hand = {.lo = w.lo, .hi = w.hi, .rows = w.rows, .seconds = w.seconds};
		struct cpu_figures g;
		assert_int_equal(cpu_compute(&t, &hand, 100, 2, WINDOW_TICK_MIN, &g), 0);
		check_same_bits(g.rss_mean_kb, f.rss_mean_kb, "rss_mean_kb (window by hand)");
		check_same_bits(g.rss_median_kb, f.rss_median_kb, "rss_median_kb (window by hand)");
		check_same_bits(g.mem_avail_min_kb, f.mem_avail_min_kb, "mem_avail_min_kb");
	}
	gsl_rng_free(rng);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_defaults),
		cmocka_unit_test(test_window_frac),
		cmocka_unit_test(test_window_trim_threshold),
		cmocka_unit_test(test_window_dips_and_idle),
		cmocka_unit_test(test_window_ramp_rows),
		cmocka_unit_test(test_window_short_warning),
		cmocka_unit_test(test_window_figures),
		cmocka_unit_test(test_window_errors),
		cmocka_unit_test(test_window_mean_is_gsl_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
