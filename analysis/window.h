/*
 * window: a run's loaded plateau, chosen from its own trace, and the CPU
 * and memory figures recomputed over it (coreplan cores, trace, memory).
 *
 * Window rule (window_select), after FORMATS.md's system.tsv rule:
 *   mx  = the largest connection count (`conn`) in the trace
 *   lo  = the first row with conn >= frac * mx, hi = the last such row;
 *         rows between them stay even if they dip
 *   then, when the window has more than 2 * trim + 3 rows, `trim` rows are
 *   dropped at each end (frac 0.8, trim 1 is system.tsv's rule exactly;
 *   frac 1.0 keeps only rows at the maximum).
 * Warnings (window->warnings): ramp rows left inside (leading rows whose
 * conn is rising and below the window's median conn), idle rows inside (conn 0), a window
 * shorter than min_rows (default WINDOW_MIN_ROWS) or spanning less than
 * WINDOW_MIN_SECONDS.
 *
 * Figures (cpu_compute), all deltas last window row minus first:
 *   app_cores_wall      = d(app_j) / (d(epoch) * clk_tck)
 *   app_cores_stat      = d(app_j) / (d(cpu_total_j) / nproc): the guest's
 *                         own /proc/stat jiffies as the clock
 *   machine_busy_cores  = (d(cpu_total_j) - d(cpu_idle_j)) / (d(epoch) * clk_tck)
 *   pg_cores            = d(pg_j) / (d(epoch) * clk_tck)
 *   stat_tick_hz        = d(cpu_total_j) / d(epoch), against owed = nproc * clk_tck;
 *                         tick_ok when stat_tick_hz / owed >= tick_min
 *                         (default WINDOW_TICK_MIN = 0.75): below it, CPU
 *                         attribution from this guest is untrustworthy
 *   rss median/mean/peak and the minimum available memory over the window rows.
 * A counter that went backwards across the window, a missing column or a
 * zero time span is an error, not a number.
 */
#ifndef COREPLAN_WINDOW_H
#define COREPLAN_WINDOW_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WINDOW_FRAC 0.8
#define WINDOW_TRIM 1
#define WINDOW_MIN_ROWS 10
#define WINDOW_MIN_SECONDS 10.0
#define WINDOW_TICK_MIN 0.75

/* One trace row; a column the trace lacks reads as NaN. */
struct trace_row {
	int64_t row_no;
	double epoch;
	double conn;
	double cpu_total_j;
	double cpu_idle_j;
	double app_j;
	double pg_j;
	double app_rss_kb;
	double mem_avail_kb;
};

struct trace_series {
	struct trace_row *rows;
	size_t n;
};

/* The run's trace of `kind` ("sample" or "window"), in row order; 1 if it has none. */
int trace_series_load(sqlite3 *db, int64_t run_id, const char *kind, struct trace_series *out);
void trace_series_release(struct trace_series *t);

struct window_options {
	double frac;
	size_t trim;
	size_t min_rows;
};

struct window {
	size_t lo, hi; /* indices into the series, inclusive */
	size_t rows;
	double seconds;
	double conn_max;
	size_t ramp_rows;
	size_t idle_rows;
	char warnings[256]; /* "" when none */
};

void window_options_init(struct window_options *opts);
int window_select(const struct trace_series *t, const struct window_options *opts,
		  struct window *out);

struct cpu_figures {
	double app_cores_wall;
	double app_cores_stat;
	double machine_busy_cores;
	double pg_cores;
	double stat_tick_hz;
	double owed_tick_hz;
	double tick_ratio;
	bool tick_ok;
	double rss_median_kb, rss_mean_kb, rss_peak_kb;
	double mem_avail_min_kb;
};

/*
 * clk_tck and nproc: from the run's idle banner or manifest (NaN when
 * unknown: the figures that need them are NaN and the message says why).
 */
int cpu_compute(const struct trace_series *t, const struct window *w, double clk_tck,
		double nproc, double tick_min, struct cpu_figures *out);

#endif
