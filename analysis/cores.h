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
 * cores_run(), or a trace_request and trace_run(); the result owns what it
 * read and is freed with its _release function, which also accepts the
 * zeroed result a failed call leaves.
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
	double driver_app_cores;   /* NaN when the driver reported none */
	double driver_minus_wall;  /* driver - app_cores_wall */
	bool has_driver_window;
	size_t driver_lo, driver_hi; /* rows of the driver's window in the trace (0-based) */
	double driver_recomputed;  /* app cores over the driver's rows, /proc/stat base */
	char driver_window[160];   /* in words: which rows, and how they differ */
	char note[320];            /* window warnings, untrustworthy ticks, errors */
};

void cores_options_init(struct cores_options *opts);
/* 0 with out->ok set either way; < 0 only for database failures. */
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
	struct run_cores *runs; /* runs[i] is sel.runs[i]'s */
	size_t untrustworthy;   /* runs with figures whose tick check failed */
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
 * Its answer: every row of the run's sample trace in file order, with
 *   app_cores[i]  d(app_j) / (d(epoch) * clk_tck) since row i - 1 (NaN for
 *                 the first row, when the epoch did not advance, or when
 *                 clk_tck is unknown)
 *   marks[i]      plateau (the window `coreplan cores` uses), driver (only
 *                 in the driver's window file), both, or none
 * and the run's figures over its plateau (cores.ok false: no plateau, the
 * reason in cores.note).
 */
struct trace_result {
	int64_t run_id;
	struct trace_series series;
	double *app_cores;
	enum trace_mark *marks;
	struct run_cores cores;
};

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
