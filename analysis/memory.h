/*
 * memory: what one more session (or any level unit) costs, as a slope
 * across levels rather than one level's ratio (coreplan memory).
 *
 * Within each group of runs:
 *   ols        ordinary least squares of the metric on the level over every
 *              run (stats_ols): slope with its standard error and 95%
 *              interval (Student t, n - 2 degrees of freedom), intercept
 *              (the fixed cost), r2, residual standard error
 *   endpoints  per block, (value at the largest level - value at the
 *              smallest) / (largest - smallest level): the seeds' "slope
 *              across n = 100 -> 500" (medians when a block has several
 *              runs at a level)
 *   ratios     per level, median(metric) / level: the single-level ratio,
 *              which charges the fixed load-time growth to the sessions;
 *              shown only as a labelled contrast
 * Every run's residual (metric - fitted) is kept for the residuals view
 * (NaN in a group without a fit).
 *
 * memory_run() is what `coreplan memory` asks (struct memory_request):
 * select the runs; the metric is a run field, or one of the trace-derived
 * figures of cores.h over each run's plateau (memory_trace_metric():
 * rss_median_kb, rss_mean_kb, rss_peak_kb, mem_avail_min_kb), recomputed
 * per run; a run whose trace gives no such figure is left out (the
 * selection's left-out list, with the reason). Levels must be numbers.
 */
#ifndef COREPLAN_MEMORY_H
#define COREPLAN_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

#include "cores.h"
#include "select.h"
#include "stats.h"

struct memory_point {
	const char *tag;
	const char *group;
	const char *block; /* may be NULL */
	double level;
	double value;
	double residual; /* filled by memory_compute */
};

struct memory_fit {
	const char *group;
	bool ok;
	struct ols ols;
	size_t nlevels;
	char note[160]; /* why there is no fit */
};

struct memory_endpoint {
	const char *group;
	const char *block;
	double level_lo, level_hi;
	double value_lo, value_hi;
	double slope;
};

struct memory_ratio {
	const char *group;
	double level;
	size_t n;
	double median;
	double ratio;
};

struct memory {
	struct memory_fit *fits;
	size_t nfits;
	struct memory_endpoint *endpoints;
	size_t nendpoints;
	struct memory_ratio *ratios;
	size_t nratios;
};

/* Points are grouped by `group` (string equality); their residuals are set. */
int memory_compute(struct memory_point *points, size_t n, struct memory *out);
void memory_release(struct memory *m);

/* What `coreplan memory` asks: the runs, the level, block and group fields, the metric. */
struct memory_request {
	const struct run_filter *filter;
	const char *by;
	const char *metric;         /* NULL: load_rss_kb */
	const char *block;          /* NULL: block */
	const char *const *group;   /* NULL-terminated grouping fields, or NULL */
	struct cores_options cores; /* the plateau of trace-derived metrics */
};

/* A request's answer: the runs, their points (into sel's strings), the slopes. */
struct memory_result {
	struct selection sel;
	struct memory_point *points;
	size_t npoints;
	bool from_trace; /* the metric was recomputed from each run's trace */
	struct memory mem;
};

/* Is `name` one of the trace-derived metrics? */
bool memory_trace_metric(const char *name);
/*
 * Select the runs, build their points and compute; release the result
 * either way. No point: the error says what the filter matched and what
 * was left out (select_no_runs).
 */
int memory_run(sqlite3 *db, const struct memory_request *req, struct memory_result *out);
void memory_result_release(struct memory_result *r);

/*
 * A result's points and the texts they point into (its selection's pool),
 * moved out of it: the document of `memory` keeps them for its residuals
 * table, made only when a writer prints it. r keeps its fits, endpoints
 * and ratios, whose group texts are in the moved pool: they are read only
 * while the points live (until memory_points_release).
 */
struct memory_points {
	struct memory_point *points;
	size_t n;
	struct strpool texts;
};
void memory_points_take(struct memory_result *r, struct memory_points *out);
void memory_points_release(struct memory_points *p);

#endif
