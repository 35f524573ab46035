/*
 * sweep: per-level statistics of a load sweep and how the metric scales
 * from level to level (coreplan sweep).
 *
 * Definitions (also in `coreplan sweep --help` and the Markdown output):
 *   median, min, max, range_pct   stats.h (even count: mean of the middle two)
 *   speedup       median / median at the base level (default: smallest level)
 *   efficiency    speedup / (level / base)
 *   per_doubling  (median / previous median) ^ (1 / log2(level / previous level)):
 *                 the growth from the previous level normalised to one doubling
 *   per_unit      median / level
 *   app_cores     median of the driver-reported app_cores of the level's runs
 *   cpu_us_per_op app_cores * 10^6 / median
 * The whole-sweep per-doubling factor is exp(slope) of the least-squares
 * fit of ln(median) on log2(level) (stats_per_doubling), with its standard
 * error. Scaling "stops" at the first level whose per_doubling falls below
 * 2 * stop_efficiency (default SWEEP_STOP_EFFICIENCY = 0.6: a doubling of
 * the level that buys less than 1.2x).
 */
#ifndef COREPLAN_SWEEP_H
#define COREPLAN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "select.h"
#include "stats.h"

#define SWEEP_STOP_EFFICIENCY 0.6

struct sweep_options {
	bool has_base;
	double base;           /* base level when has_base */
	double stop_efficiency; /* per-doubling efficiency threshold */
};

struct sweep_level {
	double level;
	struct summary s;
	double speedup;
	double efficiency;
	double per_doubling; /* NaN for the first level */
	double per_unit;
	double app_cores;     /* NaN when no run has it */
	size_t app_cores_n;
	double cpu_us_per_op; /* NaN when app_cores is NaN */
	bool scaling_stops;
};

struct sweep {
	struct sweep_level *levels;
	size_t nlevels;
	double base;
	double stop_efficiency;
	bool has_fit;
	struct doubling_fit fit;
	char fit_note[160]; /* why there is no fit, when !has_fit */
	size_t stop_index;  /* index of the first level where scaling stops, or nlevels */
};

/* What `coreplan sweep` asks: the runs, the level field, the metric. */
struct sweep_request {
	const struct run_filter *filter;
	const char *by;
	const char *metric; /* NULL: tput */
	struct sweep_options opts;
};

/* A request's answer: the runs it read (with those left out) and the sweep. */
struct sweep_result {
	struct selection sel;
	struct sweep sw;
};

void sweep_options_init(struct sweep_options *opts);
/*
 * Select the runs and compute the sweep; release the result either way.
 * No run selected: the error says what the filter matched (select_no_runs).
 */
int sweep_run(sqlite3 *db, const struct sweep_request *req, struct sweep_result *out);
void sweep_result_release(struct sweep_result *r);
/* Levels must be numbers > 0; at least one run. */
int sweep_compute(const struct selection *sel, const struct sweep_options *opts,
		  struct sweep *out);
void sweep_release(struct sweep *sw);

#endif
