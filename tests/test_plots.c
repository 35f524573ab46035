/*
 * Unit tests for plot/plots.
 *
 * plot/plots draws from analysis results alone (no database): a
 * hand-made selection gives one data block per block value (a run without
 * one under "block NA"), in the selection's order; a hand-made trace gives
 * app cores per interval (jiffies / (seconds * clk_tck)) and RSS in MiB;
 * the memory band is the OLS line at every point, widened by t * se; the
 * title context names the corpus and the conditions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "plot/plots.h" /* and plot/plot.h */
#include "plot_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_plots_blocks_from_selection(void **state)
{
	/* clang-format off: one run a line */
	struct sel_run runs[] = {
		{.tag = (char *)"r1", .level = 1, .level_numeric = true, .metric = 10, .block = (char *)"a"},
		{.tag = (char *)"r2", .level = 2, .level_numeric = true, .metric = 19, .block = (char *)"b"},
		{.tag = (char *)"r3", .level = 1, .level_numeric = true, .metric = 11, .block = NULL},
		{.tag = (char *)"r4", .level = 2, .level_numeric = true, .metric = 20, .block = (char *)"a"},
		{.tag = (char *)"r5", .level = 4, .level_numeric = true, .metric = 30, .block = (char *)"b"},
	};
	/* clang-format on */
	struct selection sel = {.runs = runs, .n = ARRAY_LEN(runs)};
	static const char *const files[] = {"blk.svg.gp", "blk.svg.tsv", "blk.svg",
					    ".coreplan-outputs", NULL};
	struct tmp t;
	char *image = NULL, *data, *script;
	(void)state;
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "blk", PLOT_SVG, "c, x=1"};
		assert_int_equal(plots_blocks(&target, "lvl", "tput", &sel, &image), 0);
	}
	assert_string_equal(image, "blk.svg");
	data = slurp_in(t.dir, "blk.svg.tsv");
	assert_string_equal(
		data, "# coreplan plot data: one block per series with points (gnuplot index)\n"
		      "# block a\n1\t10\n2\t20\n\n\n"
		      "# block b\n2\t19\n4\t30\n\n\n"
		      "# block NA\n1\t11\n");
	script = slurp_in(t.dir, "blk.svg.gp");
	if (!strstr(script, "set title 'runs by block: c, x=1'") ||
	    !strstr(script, "set xlabel 'lvl'") ||
	    !strstr(script, "set ylabel 'tput (interactions/s)'"))
		fail_msg("title or labels missing from the script:\n%s", script);
	check_dir_holds(t.dir, files);
	free(data);
	free(script);
	free(image);
	tmp_remove(&t);
}

static void check_points(const struct plot_reduce *r, const double *x, const double *y, size_t n)
{
	assert_int_equal(r->out_points, n);
	for (size_t i = 0; i < n; i++)
		if (r->x[i] != x[i] || r->y[i] != y[i])
			fail_msg("point %zu: (%g, %g), expected (%g, %g)", i, r->x[i], r->y[i],
				 x[i], y[i]);
}

static void reduce(struct plot_reduce *r, size_t max_points, const double *y, size_t n)
{
	assert_int_equal(plot_reduce_init(r, n, max_points), 0);
	for (size_t i = 0; i < n; i++)
		plot_reduce_add(r, i, 10.0 * (double)i, y[i]);
	plot_reduce_finish(r);
}

/*
 * Min/max per bucket, worked by hand (x = 10 x position):
 *   12 positions, at most 6 points: 3 buckets of 4 (bucket = pos * 3 / 12)
 *     y  5 1 9 3 | 2 2 8 8 | 7 NaN 0 4
 *     -> (10,1) (20,9) | (40,2) (60,8) [first of equal ones] | (80,7) (100,0)
 *        [the highest comes first: position order]
 *   10 positions, at most 6: buckets 0-3, 4-6, 7-9 (pos * 3 / 10)
 *     y = pos, but 100 at 5 -> (0,0) (30,3) | (40,4) (50,100) | (70,7) (90,9)
 *   a bucket of one value keeps one point; NaN-only buckets none;
 *   n <= max_points keeps every point with a y.
 * The global least and most always survive: a 100000-point series with one
 * spike up and one down at random-looking places, reduced to 2000.
 */
static void test_plot_reduce_min_max(void **state)
{
	static const double y12[] = {5, 1, 9, 3, 2, 2, 8, 8, 7, NAN, 0, 4};
	static const double x12w[] = {10, 20, 40, 60, 80, 100}, y12w[] = {1, 9, 2, 8, 7, 0};
	static const double y10[] = {0, 1, 2, 3, 4, 100, 6, 7, 8, 9};
	static const double x10w[] = {0, 30, 40, 50, 70, 90}, y10w[] = {0, 3, 4, 100, 7, 9};
	static const double y6[] = {NAN, 3, NAN, NAN, NAN, NAN};
	static const double x6w[] = {10}, y6w[] = {3};
	static const double y3[] = {1, NAN, 2};
	static const double x3w[] = {0, 20}, y3w[] = {1, 2};
	struct plot_reduce r;
	double *series = malloc(100000 * sizeof(*series));
	bool seen_max = false, seen_min = false;
	(void)state;
	assert_non_null(series);
	reduce(&r, 6, y12, ARRAY_LEN(y12));
	check_points(&r, x12w, y12w, ARRAY_LEN(y12w));
	assert_int_equal(r.in_points, 11);
	assert_true(plot_reduce_reduced(&r));
	plot_reduce_release(&r);
	reduce(&r, 6, y10, ARRAY_LEN(y10));
	check_points(&r, x10w, y10w, ARRAY_LEN(y10w));
	plot_reduce_release(&r);
	reduce(&r, 4, y6, ARRAY_LEN(y6));
	check_points(&r, x6w, y6w, 1);
	assert_false(plot_reduce_reduced(&r));
	plot_reduce_release(&r);
	reduce(&r, 2000, y3, ARRAY_LEN(y3));
	check_points(&r, x3w, y3w, 2);
	assert_false(plot_reduce_reduced(&r));
	plot_reduce_release(&r);

	for (size_t i = 0; i < 100000; i++)
		series[i] = 50 + 10 * sin((double)i / 777.0);
	series[61231] = 1000;  /* the global most */
	series[99999] = -1000; /* the global least, in the last bucket */
	reduce(&r, 2000, series, 100000);
	assert_true(r.out_points <= 2000);
	assert_true(r.out_points >= 1000);
	assert_true(plot_reduce_reduced(&r));
	for (size_t i = 0; i < r.out_points; i++) {
		size_t pos = (size_t)(r.x[i] / 10);
		assert_true(r.y[i] == series[pos]); /* a point of the series */
		if (i)
			assert_true(r.x[i] > r.x[i - 1]); /* in order */
		seen_max |= r.y[i] == 1000 && pos == 61231;
		seen_min |= r.y[i] == -1000 && pos == 99999;
	}
	assert_true(seen_max && seen_min);
	plot_reduce_release(&r);
	free(series);
}

/*
 * The trace plot of a long trace: 5000 rows (more than PLOT_TRACE_POINTS),
 * so each series is reduced, the title says so with the counts, the data
 * file holds at most PLOT_TRACE_POINTS points per series, and the plateau
 * shade is at the plateau rows' seconds (rows 1000 and 3999: 999 and
 * 3998 s after the first).
 */
static void test_plots_trace_reduced(void **state)
{
	struct trace_row *rows = calloc(5000, sizeof(*rows));
	struct trace_plot tp;
	struct run_cores cores;
	struct tmp t;
	char *image = NULL, *data, *script;
	size_t lines = 0;
	(void)state;
	assert_non_null(rows);
	for (size_t i = 0; i < 5000; i++) {
		rows[i].row_no = (int64_t)i + 1;
		rows[i].epoch = 1000 + (double)i;
		rows[i].app_j = 100 * (double)i + (i == 2500 ? 5000 : 0);
		rows[i].app_rss_kb = 2048 + (double)(i % 7);
	}
	memset(&cores, 0, sizeof(cores));
	cores.ok = true;
	cores.clk_tck = 100;
	cores.window.lo = 999;
	cores.window.hi = 3998;
	assert_int_equal(trace_plot_init(&tp, 5000, PLOT_TRACE_POINTS, &cores), 0);
	for (size_t i = 0; i < 5000; i++)
		trace_plot_add(&tp, i, &rows[i]);
	trace_plot_finish(&tp);
	assert_true(plot_reduce_reduced(&tp.cores) && plot_reduce_reduced(&tp.rss));
	assert_int_equal(tp.cores.in_points, 4999);
	assert_true(tp.shade_from == 999 && tp.shade_to == 3998);
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "tr", PLOT_SVG, NULL};
		int rc = plots_trace(&target, "r1", &tp, &cores, &image);
		if (rc == PLOT_NOT_INSTALLED) {
			trace_plot_release(&tp);
			free(rows);
			tmp_remove(&t);
			skip();
		}
		assert_int_equal(rc, 0);
	}
	script = slurp_in(t.dir, "tr.svg.gp");
	if (!strstr(script, "5000 rows reduced to 2000 points per series by min/max per bucket") ||
	    !strstr(script, "rect from 999, graph 0 to 3998, graph 1"))
		fail_msg("title or shade wrong:\n%s", script);
	data = slurp_in(t.dir, "tr.svg.tsv");
	for (const char *p = data; *p; p++)
		lines += *p == '\n';
	assert_true(lines <= 2 * PLOT_TRACE_POINTS + 6);
	/* the spike: 5100 jiffies in 1 s at 100 Hz = 51 cores, and the drop after it, -49 */
	assert_non_null(strstr(data, "\t51\n"));
	assert_non_null(strstr(data, "\t-49\n"));
	free(data);
	free(script);
	free(image);
	trace_plot_release(&tp);
	free(rows);
	tmp_remove(&t);
}

static void test_plots_trace_from_series(void **state)
{
	struct trace_row rows[] = {
		{.row_no = 1, .epoch = 100, .app_j = 1000, .app_rss_kb = 1024},
		{.row_no = 2, .epoch = 101, .app_j = 1100, .app_rss_kb = 2048},
		{.row_no = 3, .epoch = 103, .app_j = 1400, .app_rss_kb = 3072},
	};
	struct trace_plot tp;
	struct run_cores cores;
	struct tmp t;
	char *image = NULL, *data;
	(void)state;
	memset(&cores, 0, sizeof(cores));
	cores.ok = false; /* no plateau: nothing shaded */
	cores.clk_tck = 100;
	assert_int_equal(trace_plot_init(&tp, ARRAY_LEN(rows), PLOT_TRACE_POINTS, &cores), 0);
	for (size_t i = 0; i < ARRAY_LEN(rows); i++)
		trace_plot_add(&tp, i, &rows[i]);
	trace_plot_finish(&tp);
	assert_false(plot_reduce_reduced(&tp.cores));
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "tr", PLOT_SVG, NULL};
		assert_int_equal(plots_trace(&target, "r1", &tp, &cores, &image), 0);
	}
	trace_plot_release(&tp);
	data = slurp_in(t.dir, "tr.svg.tsv");
	/* cores: 100 jiffies in 1 s, 300 in 2 s at 100 Hz; the first row has no interval */
	assert_string_equal(
		data, "# coreplan plot data: one block per series with points (gnuplot index)\n"
		      "# app cores (per interval)\n1\t1\n3\t1.5\n\n\n"
		      "# app RSS (MiB)\n0\t1\n1\t2\n3\t3\n");
	free(data);
	data = slurp_in(t.dir, "tr.svg.gp");
	if (!strstr(data, "set title 'trace of r1: all runs'") || strstr(data, "plateau"))
		fail_msg("trace script: title missing or a plateau shaded:\n%s", data);
	free(data);
	free(image);
	tmp_remove(&t);
}

static void test_plots_memory_band(void **state)
{
	/* two groups, as memory --group cfg has them: mem with a line, pg at one level (none) */
	struct memory_point pts[6] = {
		{"a", "cfg=mem", "1", 1, 3, 0},   {"b", "cfg=mem", "1", 2, 5.5, 0},
		{"c", "cfg=mem", "1", 3, 6.5, 0}, {"d", "cfg=mem", "1", 4, 9, 0},
		{"e", "cfg=pg", "1", 2, 20, 0},   {"f", "cfg=pg", "2", 2, 22, 0},
	};
	struct memory_result mr;
	struct strbuf cap = STRBUF_INIT;
	struct tmp t;
	char *image = NULL, *data, *band, *line, *gp;
	(void)state;
	memset(&mr, 0, sizeof(mr));
	mr.points = pts;
	mr.npoints = 6;
	assert_int_equal(memory_compute(pts, 6, &mr.mem), 0);
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "mem", PLOT_SVG, "c", {NULL, false, false}, &cap};
		assert_int_equal(plots_memory(&target, "sessions", "load_rss_kb", &mr, &image), 0);
	}
	data = slurp_in(t.dir, "mem.svg.tsv");
	band = strstr(data, "# cfg=mem: 95% band of the line\n");
	assert_non_null(band);
	/*
	 * By hand: slope 9.5 / 5 = 1.9, intercept 6 - 1.9 x 2.5 = 1.25, so 3.15 at x = 1;
	 * SSE 0.45, s^2 0.225, se of the mean at 1 = sqrt(0.225 (1/4 + 2.25/5)); t(0.975, 2)
	 * 4.302652729911275: band 1.4424376348172416 .. 4.857562365182758
	 * (scipy.stats.linregress and t.ppf agree, SciPy 1.10.1).
	 */
	{
		double bx, by, blo, bhi;
		line = strchr(band, '\n') + 1;
		assert_int_equal(sscanf(line, "%lf\t%lf\t%lf\t%lf", &bx, &by, &blo, &bhi), 4);
		assert_true(bx == 1);
		assert_true(fabs(by - 3.15) < 1e-12);
		assert_true(fabs(blo - 1.4424376348172416) < 1e-9);
		assert_true(fabs(bhi - 4.857562365182758) < 1e-9);
	}
	if (!strstr(data, "# cfg=mem: runs\n1\t3\n2\t5.5\n3\t6.5\n4\t9\n"))
		fail_msg("cfg=mem's points are not its runs:\n%s", data);
	if (!strstr(data, "# cfg=pg: runs\n2\t20\n2\t22\n"))
		fail_msg("cfg=pg's points are not its runs:\n%s", data);
	/* one level: no line for pg (nothing drawn, nothing in the key), and the caption says so */
	if (strstr(data, "cfg=pg: OLS line") || strstr(data, "cfg=pg: 95%"))
		fail_msg("cfg=pg has a line though it has one level:\n%s", data);
	gp = slurp_in(t.dir, "mem.svg.gp");
	/* two groups: two colours, and the line of a group in its points' colour */
	if (!strstr(gp, "lines lw 2 lc rgb '#0072b2' title 'cfg=mem: OLS line'") ||
	    !strstr(gp, "lc rgb '#d55e00' title 'cfg=pg: runs'") ||
	    !strstr(gp, "lc rgb '#0072b2' title 'cfg=mem: runs'"))
		fail_msg("the groups do not have a colour each:\n%s", gp);
	if (!strstr(strbuf_str(&cap), "2 groups") || !strstr(strbuf_str(&cap), "cfg=pg: 2 runs, no line") ||
	    !strstr(strbuf_str(&cap), "Runs: c (n 6)."))
		fail_msg("caption: %s", strbuf_str(&cap));
	free(gp);
	free(data);
	free(image);
	memory_release(&mr.mem);
	strbuf_release(&cap);
	tmp_remove(&t);
}

static void test_plots_interval_seconds(void **state)
{
	(void)state;
	/* g1-n100-b1's row 46 (gomaxprocs corpus): the stamp steps 2 s, the ticks 839 at the
	 * run's 800 Hz: the interval lasted 839 / 800 = 1.04875 s, not 2 (by hand) */
	assert_true(fabs(plots_interval_seconds(2, 839, 800) - 1.04875) < 1e-12);
	assert_true(fabs(plots_interval_seconds(1, 833, 800) - 1.04125) < 1e-12);
	/* a true skipped second: the ticks moved two seconds' worth */
	assert_true(plots_interval_seconds(2, 1600, 800) == 2);
	/* ticks not trusted (NaN rate) or not moving: the epochs */
	assert_true(plots_interval_seconds(2, 800, NAN) == 2);
	assert_true(plots_interval_seconds(3, 0, 800) == 3);
	/* ticks more than a second off the stamps: the stamps (ticks stalled or a wrong rate) */
	assert_true(plots_interval_seconds(2, 3000, 800) == 2);
	assert_true(plots_interval_seconds(3, 800, 800) == 3); /* 1 s by the ticks, 2 off */
	/* rows sharing an epoch: no interval */
	assert_true(isnan(plots_interval_seconds(0, 135, 800)));
}

/* The trace plot's series of rows, as the plot analysis streams them. */
static void trace_plot_of(struct trace_plot *tp, const struct trace_row *rows, size_t n,
			  const struct run_cores *cores)
{
	assert_int_equal(trace_plot_init(tp, n, PLOT_TRACE_POINTS, cores), 0);
	for (size_t i = 0; i < n; i++)
		trace_plot_add(tp, i, &rows[i]);
	trace_plot_finish(tp);
}

/* A trace whose 1 Hz sampler skipped a stamp: no false dip (rates by hand). */
/*
 * Draw tp as tr.svg in a new folder (the caption appended to cap): the data
 * file holds want_data and the caption want_caption; the folder is removed.
 */
static void check_trace_plot(const struct trace_plot *tp, const struct run_cores *cores,
			     struct strbuf *cap, const char *want_data, const char *want_caption)
{
	struct plot_target target = {NULL, "tr", PLOT_SVG, NULL, {NULL, false, false}, NULL};
	struct tmp t;
	char *image = NULL, *data;
	tmp_make(&t);
	target.dir = t.dir;
	target.caption = cap;
	assert_int_equal(plots_trace(&target, "r1", tp, cores, &image), 0);
	data = slurp_in(t.dir, "tr.svg.tsv");
	check_contains(data, want_data, "trace plot data");
	check_contains(strbuf_str(cap), want_caption, "trace plot caption");
	free(data);
	free(image);
	tmp_remove(&t);
}

static void test_plots_trace_skipped_second(void **state)
{
	/*
	 * rows 1-5; each interval lasts 1 s by the ticks (800 per s on 8 CPUs at 100 Hz) and
	 * the app used 100 jiffies in it (1 core), except row 4 -> 5, a real skipped second
	 * (1600 ticks, 200 jiffies: 2 s at 1 core). Row 3's stamp skips a second with one
	 * second's counts: by the epochs that interval would read 100 / (2 x 100) = 0.5.
	 */
	struct trace_row rows[] = {
		{.row_no = 1, .epoch = 100, .cpu_total_j = 0, .app_j = 0, .app_rss_kb = 1024},
		{.row_no = 2, .epoch = 101, .cpu_total_j = 800, .app_j = 100, .app_rss_kb = 1024},
		{.row_no = 3, .epoch = 103, .cpu_total_j = 1600, .app_j = 200, .app_rss_kb = 1024},
		{.row_no = 4, .epoch = 104, .cpu_total_j = 2400, .app_j = 300, .app_rss_kb = 1024},
		{.row_no = 5, .epoch = 106, .cpu_total_j = 4000, .app_j = 500, .app_rss_kb = 1024},
	};
	struct trace_plot tp;
	struct run_cores cores;
	struct strbuf cap = STRBUF_INIT;
	(void)state;
	memset(&cores, 0, sizeof(cores));
	cores.ok = true;
	cores.window.lo = 1;
	cores.window.hi = 4;
	cores.clk_tck = 100;
	cores.cpu.tick_ok = true;
	cores.cpu.stat_tick_hz = 800;
	trace_plot_of(&tp, rows, ARRAY_LEN(rows), &cores);
	check_trace_plot(&tp, &cores, &cap, "# app cores (per interval)\n1\t1\n3\t1\n4\t1\n6\t1\n\n",
			 "d(cpu_total_j) / 800.0 Hz");
	/* the same trace with untrusted ticks: the epochs, and the dip they give */
	strbuf_reset(&cap);
	cores.cpu.tick_ok = false;
	trace_plot_release(&tp);
	trace_plot_of(&tp, rows, ARRAY_LEN(rows), &cores);
	/* the epoch-based cores, and the caption's warning of the dip */
	check_trace_plot(&tp, &cores, &cap, "# app cores (per interval)\n1\t1\n3\t0.5\n4\t1\n6\t1\n\n",
			 "can show a dip");
	trace_plot_release(&tp);
	strbuf_release(&cap);
}

static void test_plots_context(void **state)
{
	struct run_filter f = {0};
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(plots_context(&f, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "all corpora");
	strbuf_release(&sb);
	f.corpus = strdup("c");
	assert_int_equal(run_filter_add_where(&f, "gomaxprocs=1,2"), 0);
	assert_int_equal(run_filter_add_where(&f, "block=a"), 0);
	assert_int_equal(plots_context(&f, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "c, gomaxprocs=1,2 block=a");
	strbuf_release(&sb);
	run_filter_release(&f);
}


/* every test: its folder removed and PATH restored even when it fails */
#define TEST(f) cmocka_unit_test_teardown(f, plot_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_plots_blocks_from_selection),
		TEST(test_plots_trace_from_series),
		TEST(test_plot_reduce_min_max),
		TEST(test_plots_trace_reduced),
		TEST(test_plots_memory_band),
		TEST(test_plots_interval_seconds),
		TEST(test_plots_trace_skipped_second),
		TEST(test_plots_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
