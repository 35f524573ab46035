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
 *   then the leading ramp rows (connections still rising and below the
 *   window's median conn) are left out, and `trim` rows after them (the
 *   new edge is trimmed as the old was), unless keep_ramp (the harness's
 *   system.tsv rule keeps them; FORMATS.md's "plateau" and the GOMAXPROCS
 *   write-up do not: GOMAXPROCS 1 reads 1.007 cores on the plateau, 0.959
 *   with the ramp), when at least WINDOW_MIN_KEPT rows remain.
 * Warnings (window->warnings): ramp rows left out, or left inside with
 * keep_ramp, idle rows inside (conn 0), a window
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
 *   trust               the scale of CPU accounting (docs/statistics.md,
 *                         "Trusting CPU accounting"): untrustworthy below
 *                         tick_min; degraded below WINDOW_TICK_TRUSTED
 *                         (0.95: the guest and wall clocks then disagree by
 *                         more than the corpora's run-to-run spread, 2-3%)
 *                         or when an app-cores figure exceeds nproc (an app
 *                         cannot burn more cores than the guest has: the
 *                         guest's clock runs slow); else trusted
 *   rss median/mean/peak and the minimum available memory over the window rows.
 * A counter that went backwards across the window, a missing column or a
 * zero time span is an error, not a number.
 *
 * Memory: nothing here holds a trace. A database source takes its row
 * count from traces.rows when it is opened (no pass); window_select_source
 * then reads conn and epoch once over the trace (the largest conn and the
 * window's ends in the same pass: find_ends in window.c), then over the
 * window the conn, RSS and available memory once (and the open medians'
 * columns again while they narrow, in a window of more than
 * STREAM_MEDIAN_HOLD rows: stream_median), then the leading ramp rows;
 * cpu_compute_source reads the
 * window's two end rows (and the memory passes itself only for a window
 * made by hand). The median is stats_median's, the mean gsl_stats_mean's
 * recurrence in row order, so the figures are the same bits as from an
 * array of the values.
 */
#ifndef COREPLAN_WINDOW_H
#define COREPLAN_WINDOW_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../schema/queries.h"
#include "median.h"

#define WINDOW_FRAC 0.8
#define WINDOW_TRIM 1
#define WINDOW_MIN_ROWS 10
#define WINDOW_MIN_SECONDS 10.0
#define WINDOW_TICK_MIN 0.75
#define WINDOW_TICK_TRUSTED 0.95
/* the rows a window keeps at least when its ramp rows are left out */
#define WINDOW_MIN_KEPT 3

/*
 * A trace in memory (struct trace_row: schema/queries.h). Only the
 * analyses that have not moved to a trace_source load one (size,
 * translate); a trace of millions of rows does not fit.
 */
struct trace_series {
	struct trace_row *rows;
	size_t n;
};

/* The run's trace of `kind` ("sample" or "window"), in row order; 1 if it has none. */
int trace_series_load(sqlite3 *db, int64_t run_id, const char *kind, struct trace_series *out);
void trace_series_release(struct trace_series *t);

/*
 * Where the window rule and the figures read a trace: a run's trace in the
 * database, streamed row by row through schema/queries.h (constant memory
 * at any length: each figure is a few passes over the rows, see "Memory"
 * below), or a trace_series in memory (the same code, for tests and the
 * loaded analyses). Rows are addressed by position (0-based, row order);
 * a database scan also takes the position's row_no to start there.
 * A source holds no resources: nothing to release.
 */
struct trace_source {
	sqlite3 *db; /* NULL: series */
	int64_t trace_id;
	const struct trace_series *series;
	size_t n; /* rows (a database trace: traces.rows, the count its import stored) */
	uint64_t identity; /* a database trace: trace_summary's identity */
};

/* The run's trace of `kind` in the database (its stored row count read); 1: none. */
int trace_source_open(sqlite3 *db, int64_t run_id, const char *kind, struct trace_source *out);
/* A trace in memory (t must outlive the source). */
void trace_source_series(const struct trace_series *t, struct trace_source *out);

/* One row and its position; nonzero stops the scan with that code. */
typedef int (*trace_scan_fn)(size_t pos, const struct trace_row *row, void *arg);

/*
 * The rows from position `pos` (whose row_no is `row_no`; ignored for a
 * series) to the end, with at least the `columns` (TRACE_COL_*), to fn in
 * order. Returns fn's code when it stopped (positive: not an error). A
 * database trace that does not hold the rows it held when it was opened
 * (re-imported meanwhile) is an error, not a different answer.
 */
int trace_source_scan(const struct trace_source *src, size_t pos, int64_t row_no,
		      unsigned int columns, trace_scan_fn fn, void *arg);
/* The row at `pos` (row_no as for scan), every column. */
int trace_source_row(const struct trace_source *src, size_t pos, int64_t row_no,
		     struct trace_row *out);

struct window_options {
	double frac;
	size_t trim;
	size_t min_rows;
	bool keep_ramp; /* leave the leading ramp rows inside (system.tsv's rule); default false */
};

/*
 * The window's memory columns, summarised with the window (the same passes
 * over its rows) so cpu_compute_source need not read them again; a window
 * made by hand has known false and is read then.
 */
struct window_memory {
	bool known;
	size_t n;      /* RSS values */
	size_t bad_at; /* the first that is not finite, 1-based among them; 0: none */
	double bad;
	double median, mean, min, max; /* of the RSS values */
	double avail_min;              /* NaN: no mem_avail_kb */
};

struct window {
	size_t lo, hi;                /* positions in the trace, inclusive */
	int64_t lo_row_no, hi_row_no; /* their row_no (a database source needs them) */
	size_t rows;
	double seconds;
	double conn_max;
	size_t ramp_rows;     /* leading ramp rows inside the window (keep_ramp) */
	size_t ramp_excluded; /* leading ramp rows left out of it (the default) */
	size_t idle_rows;
	char warnings[256]; /* "" when none */
	struct window_memory memory;
};

void window_options_init(struct window_options *opts);
/*
 * A database trace's window is remembered (the last 8, by trace, its
 * identity and the options): asked again in the same process, it is not
 * read again.
 */
int window_select_source(const struct trace_source *src, const struct window_options *opts,
			 struct window *out);
/* window_select_source() over a trace in memory. */
int window_select(const struct trace_series *t, const struct window_options *opts,
		  struct window *out);

/* How far a run's CPU accounting can be trusted (trust above). */
enum cpu_trust { CPU_TRUSTED, CPU_DEGRADED, CPU_UNTRUSTWORTHY };
/* "trusted", "degraded", "untrustworthy". */
const char *cpu_trust_name(enum cpu_trust trust);

struct cpu_figures {
	double app_cores_wall;
	double app_cores_stat;
	double machine_busy_cores;
	double pg_cores;
	double stat_tick_hz;
	double owed_tick_hz;
	double tick_ratio;
	bool tick_ok;
	enum cpu_trust trust;
	double rss_median_kb, rss_mean_kb, rss_peak_kb;
	double mem_avail_min_kb;
};

/*
 * clk_tck and nproc: from the run's idle banner or manifest (NaN when
 * unknown: the figures that need them are NaN and the message says why).
 */
int cpu_compute_source(const struct trace_source *src, const struct window *w, double clk_tck,
		       double nproc, double tick_min, struct cpu_figures *out);
/* cpu_compute_source() over a trace in memory (w's row_no fields unused). */
int cpu_compute(const struct trace_series *t, const struct window *w, double clk_tck, double nproc,
		double tick_min, struct cpu_figures *out);

#endif
