/*
 * noise: is a sweep's curve real or noise? (coreplan noise)
 *
 * Over the runs of a selection, within each group (the --group fields;
 * one group when none):
 *   cells     per (level, block): the block's value at that level (the
 *             median of its runs there), its deviation from the level's
 *             median in %, and the block's position in time at that level
 *   levels    per level: n, median, min, max, range_pct and the largest
 *             block deviation
 *   drift     per block: mean, smallest and largest deviation over the
 *             levels; a block is systematically high (low) when every one
 *             of at least 2 deviations is above (below) 0 and the mean is
 *             beyond NOISE_DRIFT_PCT in size
 *   order     per block: its levels in time order (generator start time;
 *             results-table order when a run has none); the sweep is
 *             counterbalanced when no level holds the same position in
 *             two blocks
 *   bursts    a run that is the first of its level in time and reaches at
 *             least the burst factor times the median of that level's later
 *             runs (ratio >= factor; default NOISE_BURST_FACTOR = 1.5x)
 *   soaks     a (level, block) with at least 3 runs: the first run's ratio
 *             to the median of the rest (the sustained figure), and the
 *             range of the rest
 *   verdict   `resolved` when every level's range_pct is within the
 *             threshold (default NOISE_RANGE_PCT = 5%) and no two
 *             neighbouring levels' [min, max] ranges overlap; otherwise
 *             `within-noise`, naming the levels that fail. The whole
 *             analysis is resolved when every group is.
 * Bursts need NOISE_BURST_MIN_RUNS runs at a level, soaks
 * NOISE_SOAK_MIN_RUNS runs in one (level, block).
 *
 * noise_run() is what `coreplan noise` asks (struct noise_request):
 * select the runs (select.h), then noise_compute().
 */
#ifndef COREPLAN_NOISE_H
#define COREPLAN_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "select.h"
#include "stats.h"

#define NOISE_BURST_FACTOR 1.5
#define NOISE_RANGE_PCT 5.0
#define NOISE_DRIFT_PCT 1.0
#define NOISE_BURST_MIN_RUNS 2
#define NOISE_SOAK_MIN_RUNS 3

struct noise_options {
	double burst_factor;
	double range_pct;
	double drift_pct;
};

struct noise_cell {
	const char *group;
	double level;
	const char *block;
	size_t n;
	double value;
	double deviation_pct;
	size_t position; /* 1-based order of this level within its block, by time */
};

struct noise_level {
	const char *group;
	double level;
	struct summary s;
	double max_abs_dev_pct;
	bool within_noise;
	const char *why; /* static text when within_noise */
};

struct noise_drift {
	const char *group;
	const char *block;
	size_t nlevels;
	double mean_dev_pct, min_dev_pct, max_dev_pct;
	const char *drift; /* "high", "low" or "none" */
};

struct noise_order {
	const char *group;
	const char *block;
	char *levels; /* "1,2,4,8" in time order */
	bool timed;   /* order from start times (else results-table order) */
};

struct noise_burst {
	const char *group;
	double level;
	const char *tag;
	double value;
	double later_median;
	size_t later_n;
	double ratio;
	bool burst;
};

struct noise_soak {
	const char *group;
	double level;
	const char *block;
	size_t n;
	const char *first_tag;
	double first;
	struct summary sustained; /* the runs after the first */
	double ratio;
};

struct noise_verdict {
	const char *group;
	bool resolved;
	char *within_noise; /* levels, comma-separated */
	double max_range_pct;
	double max_abs_dev_pct;
	bool counterbalanced;
	char *counterbalance_note;
	size_t nbursts;
};

struct noise {
	struct noise_cell *cells;
	size_t ncells;
	struct noise_level *levels;
	size_t nlevels;
	struct noise_drift *drifts;
	size_t ndrifts;
	struct noise_order *orders;
	size_t norders;
	struct noise_burst *bursts; /* every first run checked, burst or not */
	size_t nbursts;
	struct noise_soak *soaks;
	size_t nsoaks;
	struct noise_verdict *verdicts;
	size_t nverdicts;
	struct noise_options opts;
	bool resolved;        /* every group resolved */
	bool counterbalanced; /* every group counterbalanced */
	size_t burst_count;   /* bursts over every group */
};

/* What `coreplan noise` asks: the runs, the level, block and group fields, the metric. */
struct noise_request {
	const struct run_filter *filter;
	const char *by;
	const char *metric;       /* NULL: tput */
	const char *block;        /* NULL: block */
	const char *const *group; /* NULL-terminated grouping fields, or NULL */
	struct noise_options opts;
};

/* A request's answer: the runs it read (with those left out) and the analysis. */
struct noise_result {
	struct selection sel;
	struct noise nz;
};

void noise_options_init(struct noise_options *opts);
/*
 * Levels must be numeric; runs without a block value count as block "NA".
 * The result points into `sel` (tags, groups, blocks): keep `sel` alive
 * until noise_release().
 */
int noise_compute(const struct selection *sel, const struct noise_options *opts,
		  struct noise *out);
void noise_release(struct noise *nz);
/*
 * Select the runs and compute; release the result either way. No run
 * selected: the error says what the filter matched (select_no_runs).
 */
int noise_run(sqlite3 *db, const struct noise_request *req, struct noise_result *out);
void noise_result_release(struct noise_result *r);

#endif
