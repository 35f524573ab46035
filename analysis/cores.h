/*
 * cores: per run, the loaded plateau of its trace and what the app really
 * burned there (window.h), beside the figure its driver reported.
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
 */
#ifndef COREPLAN_CORES_H
#define COREPLAN_CORES_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

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

#endif
