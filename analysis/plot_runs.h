/*
 * plot_runs: the analysis behind each kind of plot (`coreplan plot KIND`
 * and the report's plots): the runs or the trace a plot draws and the
 * figures drawn over them, read once. plot/plots.h turns a result into
 * the gnuplot script, data file and image; nothing here draws.
 *
 *   scaling  the sweep of the metric by --by (sweep.h, default options;
 *            its levels classified on the runs' host, or req->host, and
 *            the SMT factor looked for as sweep_run does) and the power
 *            law fitted to the runs at physical-core levels (every run when
 *            the host is unknown: assumed physical; fit.h; has_power false
 *            when the fit fails or there are fewer than two such levels)
 *   blocks   the runs with their --block value (default field `block`);
 *            every level must be a number
 *   trace    the one run --tag names among the selected runs: its plateau
 *            and CPU figures (cores.h) and the two series drawn, app cores
 *            per interval and app RSS (MiB) against the seconds since the
 *            first row, read row by row; a trace longer than
 *            PLOT_TRACE_POINTS rows is reduced to at most that many points
 *            per series by min/max per bucket (struct plot_reduce), which
 *            keeps every peak and trough a bucket holds, the global ones
 *            among them; the title and the plot's facts say so
 *   memory   the memory analysis (memory.h's memory_run: metric default
 *            load_rss_kb, groups by req->group, the same pooling check):
 *            the runs and one OLS line per group, as `coreplan memory`
 *            and the report's memory tables have them
 * A selection without runs is an error ("no runs to plot").
 */
#ifndef COREPLAN_PLOT_RUNS_H
#define COREPLAN_PLOT_RUNS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "cores.h"
#include "fit.h"
#include "memory.h"
#include "select.h"
#include "stats.h"
#include "sweep.h"
#include "window.h"

/*
 * Min/max per bucket: a series of n positions (known in advance) reduced
 * to at most max_points points. With n <= max_points every point is kept.
 * Otherwise the positions are cut into B = max_points / 2 buckets of equal
 * length (position i is in bucket i * B / n) and each bucket keeps its
 * lowest and its highest point (the first of equal ones), in position
 * order, or one point when they are the same. A point with a NaN y is
 * skipped (its position still counts for the buckets), so in_points can be
 * less than n. Points are added in position order.
 */
struct plot_reduce {
	size_t n, max_points, buckets;
	size_t in_points;  /* points added with a y */
	size_t out_points; /* points kept: x[], y[] */
	double *x, *y;
	size_t bucket; /* the bucket being filled (SIZE_MAX: none yet) */
	bool has_min;
	size_t min_pos, max_pos;
	double min_x, min_y, max_x, max_y;
};

/* max_points >= 2; out of memory is an error. */
int plot_reduce_init(struct plot_reduce *r, size_t n, size_t max_points);
void plot_reduce_add(struct plot_reduce *r, size_t pos, double x, double y);
/* Keep the last bucket's points (after the last add). */
void plot_reduce_finish(struct plot_reduce *r);
/* Did the reduction leave points out (more than max_points)? */
bool plot_reduce_reduced(const struct plot_reduce *r);
void plot_reduce_release(struct plot_reduce *r);

/* The most points a trace plot draws per series. */
#define PLOT_TRACE_POINTS 2000

/* The trace plot's series, reduced as they are read. */
/*
 * The length in seconds of a trace interval whose epochs (whole seconds)
 * advanced by d_epoch and the machine's tick counter (cpu_total_j) by
 * d_ticks: d_ticks / tick_hz when tick_hz is a number > 0 (the run's
 * trusted tick rate over its window) and that length lies within one second
 * of d_epoch (whole-second stamps are off by at most a second each way);
 * else d_epoch. NaN when d_epoch <= 0 (rows sharing an epoch: two samplers
 * appending to one file). The sampler's iterations take a little over a
 * second, so now and then a stamp skips a second though the counters moved
 * by one second's worth: divided by d_epoch = 2 that interval would show a
 * false dip to half the rate.
 */
double plots_interval_seconds(double d_epoch, double d_ticks, double tick_hz);

struct trace_plot {
	size_t rows;              /* trace rows */
	struct plot_reduce cores; /* x seconds since the first row, y app cores per interval */
	struct plot_reduce rss;   /* x seconds, y app RSS in MiB */
	bool has_shade;           /* the plateau, in seconds */
	double shade_from, shade_to;
	double first_epoch;
	struct trace_row prev;
	double clk_tck;
	double tick_hz; /* the run's trusted tick rate, else NaN (plots_interval_seconds) */
	size_t lo, hi;
};

/*
 * Start a trace plot of `rows` rows, at most max_points per series, with
 * the plateau of c shaded when c->ok; then add every row in order, then
 * finish.
 *   seconds   epoch - the first row's epoch
 *   cores     (app_j - previous app_j) / (interval * clk_tck), the
 *             interval's length by plots_interval_seconds (the trusted
 *             tick counter's, else the epochs' step); none for the first
 *             row or when the epoch did not advance
 *   rss       app_rss_kb / 1024
 */
int trace_plot_init(struct trace_plot *tp, size_t rows, size_t max_points,
		    const struct run_cores *c);
void trace_plot_add(struct trace_plot *tp, size_t pos, const struct trace_row *row);
void trace_plot_finish(struct trace_plot *tp);
void trace_plot_release(struct trace_plot *tp);

enum plot_kind { PLOT_KIND_SCALING, PLOT_KIND_BLOCKS, PLOT_KIND_TRACE, PLOT_KIND_MEMORY };

/* "scaling", "blocks", "trace" or "memory". */
const char *plot_kind_name(enum plot_kind kind);

struct plot_request {
	enum plot_kind kind;
	const struct run_filter *filter;
	const char *by;     /* the level field (scaling, blocks, memory) */
	const char *metric; /* NULL: the kind's default (plot_request_metric) */
	const char *block;  /* blocks: the block field; NULL: block */
	const char *tag;    /* trace: the run */
	const char *host;   /* scaling: count levels on this host; NULL: the runs' own */
	const char *workers; /* scaling: --workers FIELD, declared to count workers, or NULL */
	const char *const *group; /* memory: NULL-terminated grouping fields, or NULL */
};

/* The metric the request plots: its own, else load_rss_kb for memory, tput otherwise. */
const char *plot_request_metric(const struct plot_request *req);

/* What one kind's analysis found; only the kind's own members are set. */
struct plot_result {
	enum plot_kind kind;
	struct sweep_result sweep;   /* scaling: the runs and the sweep */
	bool has_power;              /* scaling: the power law was fitted */
	struct fit_result power;     /* scaling: over the physical-core levels' runs */
	size_t power_points;         /* scaling: the runs it was fitted to */
	struct selection sel;        /* blocks */
	struct memory_result memory; /* memory: the runs, points and fits per group */
	int64_t run_id;              /* trace: the run */
	struct trace_plot trace;     /* trace: its series, reduced */
	struct run_cores cores;      /* trace: its plateau and CPU figures */
};

/* Run the request's kind; release the result either way. */
int plot_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out);
/* The runs the result drew (scaling, blocks, memory), or NULL (trace). */
const struct selection *plot_result_selection(const struct plot_result *r);
void plot_result_release(struct plot_result *r);

#endif
