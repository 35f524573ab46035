/*
 * cores: per run, the loaded plateau of its trace and what the app really
 * burned there (window.h), beside the figure its driver reported
 * (coreplan cores); and one run's trace row by row with its windows
 * marked (coreplan trace).
 *
 * Clock ticks and CPU count come from the run's fields `clk_tck` and
 * `nproc` (idle banner, or the manifest's `set`). When the run has a
 * driver window file (trace kind `window`), the driver's window is located
 * in the trace (first and last rows matched by epoch) and its figure is
 * recomputed from those rows on the /proc/stat time base, so the output
 * can say which window the driver used and whether that explains the
 * difference.
 *
 * A run whose figures cannot be computed (no trace, no conn column, a
 * counter reset across the window, missing clk_tck) gets ok = false and
 * the reason in `note`; it is never given a number.
 *
 * Call order: fill a cores_request (cores_options_init first) and call
 * cores_run(), or a trace_request and trace_run() (then trace_each() for
 * the rows); the result owns what it read and is freed with its _release
 * function, which also accepts the zeroed result a failed call leaves.
 *
 * Memory: no trace is loaded; the figures are passes over the rows
 * (window.h, "Memory"), so a run of 10,000,000 trace rows costs what one
 * of 100 does, in memory.
 */
#ifndef COREPLAN_CORES_H
#define COREPLAN_CORES_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "select.h"
#include "window.h"

struct cores_options {
	struct window_options window;
	double tick_min;
};

struct run_cores {
	bool ok;
	struct window window;
	struct cpu_figures cpu;
	double clk_tck, nproc;
	double driver_app_cores;  /* NaN when the driver reported none */
	double driver_minus_wall; /* driver - app_cores_wall */
	bool has_driver_window;
	size_t driver_lo, driver_hi; /* rows of the driver's window in the trace (0-based) */
	double driver_recomputed;    /* app cores over the driver's rows, /proc/stat base */
	char driver_window[160];     /* in words: which rows, and how they differ */
	char note[320];              /* window warnings, untrustworthy ticks, errors */
};

void cores_options_init(struct cores_options *opts);
/*
 * The run's figures over its sample trace t (trace_source_open, or a trace
 * in memory): 0 with out->ok set either way; < 0 only for database
 * failures. A database trace is streamed.
 */
int cores_compute_source(sqlite3 *db, int64_t run_id, const struct trace_source *t,
			 double driver_app_cores, const struct cores_options *opts,
			 struct run_cores *out);
/* The same, opening the run's sample trace itself. */
int cores_compute(sqlite3 *db, int64_t run_id, double driver_app_cores,
		  const struct cores_options *opts, struct run_cores *out);

/* The clock rule every figure rests on, in words (a fact of the documents). */
#define CORES_CLOCK_SOURCE                                                                         \
	"clk_tck and nproc come from the run's idle banner or the manifest's `set`"

/* What `coreplan cores` asks: the runs and the window and tick options. */
struct cores_request {
	const struct run_filter *filter;
	struct cores_options opts;
};

/* Its answer: the runs read (with those left out) and one run_cores per run. */
struct cores_result {
	struct selection sel;
	struct run_cores *runs;   /* runs[i] is sel.runs[i]'s */
	size_t untrustworthy;     /* runs with figures whose tick check failed */
	size_t trusted, degraded; /* runs with figures at the other two trust levels */
	/* the tick ratio range at each trust level (NaN when no run is at it) */
	double ratio_lo[3], ratio_hi[3];
	double stat_max[3]; /* the largest app_cores_stat at each level */
};

/* Select the runs (none is not an error) and compute each one's figures. */
int cores_run(sqlite3 *db, const struct cores_request *req, struct cores_result *out);
void cores_result_release(struct cores_result *r);

/*
 * What `coreplan trace TAG` asks: the run (its tag, and the corpus and
 * sub-corpus when the tag is in several; NULL: any) and the window options.
 */
struct trace_request {
	const char *tag;
	const char *corpus;
	const char *subcorpus;
	struct cores_options opts;
};

/* Which window a trace row is in. */
enum trace_mark { TRACE_MARK_NONE, TRACE_MARK_PLATEAU, TRACE_MARK_DRIVER, TRACE_MARK_BOTH };

/*
 * Its answer: the run, its sample trace (read row by row by trace_each,
 * never held) and the run's figures over its plateau (cores.ok false: no
 * plateau, the reason in cores.note). The result holds no memory; its
 * source reads `db`, which must stay open while trace_each runs.
 */
struct trace_result {
	int64_t run_id;
	struct trace_source source;
	size_t rows;
	struct run_cores cores;
};

/*
 * One row as `coreplan trace` shows it:
 *   app_cores  d(app_j) / (d(epoch) * clk_tck) since the previous row (NaN
 *              for the first row, when the epoch did not advance, or when
 *              clk_tck is unknown)
 *   mark       plateau (the window `coreplan cores` uses), driver (only in
 *              the driver's window file), both, or none
 */
struct trace_point {
	const struct trace_row *row;
	double app_cores;
	enum trace_mark mark;
};

/* Called once per row; nonzero stops trace_each with that code. */
typedef int (*trace_point_fn)(size_t pos, const struct trace_point *p, void *arg);

/*
 * Every row of the result's trace in file order, with its app cores and
 * mark, to fn one at a time (one row in memory at any trace length).
 */
int trace_each(const struct trace_result *res, trace_point_fn fn, void *arg);

/*
 * No run of that tag is an error naming it; a tag in several corpora or
 * sub-corpora is a usage error asking for --corpus; a run without a trace
 * is an error.
 */
int trace_run(sqlite3 *db, const struct trace_request *req, struct trace_result *out);
void trace_result_release(struct trace_result *r);
/* "plateau", "driver", "both", or NULL for none. */
const char *trace_mark_name(enum trace_mark mark);

#endif
