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
 * Every run's residual (metric - fitted) is kept for the residuals view.
 */
#ifndef COREPLAN_MEMORY_H
#define COREPLAN_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
