/*
 * noise: is a sweep's curve real or noise? (coreplan noise)
 *
 * Over the runs of a selection, within each group (the --group fields;
 * one group when none):
 *   cells     per (level, block): the block's value at that level (the
 *             median of its runs there), its deviation from the level's
 *             median (deviation_abs in the metric's units, deviation_pct in
 *             %, NaN when the level's median is 0), and the level's
 *             position in the block's time order
 *   levels    per level: n, median, min, max, range_pct (NaN when the
 *             median is 0), range_abs, the largest block deviation, and the
 *             level's verdict: the worst of the steps it belongs to
 *             (within-noise, then unreplicated, then resolved); a level with
 *             one run is `unreplicated`
 *   steps     per pair of neighbouring levels (the step rule below)
 *   drift     per block: mean, smallest and largest deviation_pct over the
 *             levels (levels with a 0 median left out); a block is
 *             systematically high (low) when every one of at least 2
 *             deviations is above (below) 0 and the mean is beyond
 *             NOISE_DRIFT_PCT in size
 *   order     per factor that can rotate within a block (the level, and
 *             each group field), per stratum and block: the factor's values
 *             in time order (the order rule below)
 *   bursts    a run that is the first of its level in time and is better
 *             than the median of that level's later runs by the burst factor
 *             (higher is better: ratio >= factor; lower is better: ratio <=
 *             1 / factor; default NOISE_BURST_FACTOR = 1.5x; no ratio when
 *             the later median is 0)
 *   soaks     a (level, block) with at least 3 runs: the first run's ratio
 *             to the median of the rest (the sustained figure), and the
 *             range of the rest
 *   verdict   per group: `resolved` when every step is resolved,
 *             `within-noise` when a step is, else `unreplicated` when a step
 *             is; `single-level` when the group has one level. The whole
 *             analysis takes the worst group's word (within-noise,
 *             unreplicated, single-level, resolved).
 *
 * Step rule (noise_step_judge): analysis/verdict.h's, the one every
 * command uses (docs/statistics.md). For neighbouring levels a -> b, the
 * runs at a against the runs at b: Welch's t on ln values (absolute scale,
 * a value at or below 0: on values), two-sided; `resolved` when p < alpha
 * (VERDICT_ALPHA, 0.05), else `within-noise`; `unreplicated` when either
 * level has one run. The step's word says which way in the metric's kind
 * (higher / lower, faster / slower, uses more / uses less), its interval
 * and p are the verdict's. The range rule is evidence, shown and never
 * deciding: the difference d = median_b - median_a against the
 * within-level spread measured from each median towards the other level
 * (for a rise, (max_a - median_a) + (median_b - min_b); for a fall,
 * (median_a - min_a) + (max_b - median_b)); gap = |d| - spread > 0 is
 * the same as the two levels' [min, max] ranges not overlapping
 * (ranges_disjoint). Why not the verdict: with 3 runs a level, disjoint
 * ranges happen by chance 2 / C(6, 3) = 10% of the time with no
 * difference at all (and 17.5% of 120 synthetic null steps were so
 * called), twice alpha; Welch keeps false alarms at or below alpha
 * (tests/test_verdict_sim.c, docs/statistics.md). The step is the same
 * verdict `compare` gives for the same two sets of runs (the capacity
 * corpus's e2-medium pg 300 -> 500 step: within-noise in both, Welch p =
 * 0.093, ranges disjoint).
 *
 * Order rule. A factor's values are ordered within a block by the start
 * (started_at) of their first run there; results-table order (seq) when a
 * run of the stratum has no start time. Runs are simultaneous when the
 * later starts before the earlier one's measured window ends (started_at +
 * duration_s; equal start times when there is no duration): simultaneous
 * values share a position ("medium+small"). Strata: the level is ordered
 * within each group; a group field within each combination of the other
 * group fields. Only blocks where the factor has 2 or more values count.
 * Per stratum, and for the factor (the worst stratum):
 *   yes           no value holds the same position in every block where it
 *                 appears (at least 2 of them): e.g. ABA, or 1,2,4,8 /
 *                 8,4,2,1 / 2,8,1,4
 *   no            some value holds one position in every block
 *   simultaneous  in every block all values ran at the same time (two
 *                 machines measured at once): time cannot favour one, so
 *                 there is nothing to counterbalance
 *   one-block     only one block has 2 or more values: cannot be balanced
 *   not-rotated   no block has 2 or more values (the factor changes only
 *                 between blocks)
 * The analysis is counterbalanced when the level is `yes` or
 * `simultaneous` and no group field is `no` or `one-block`.
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
#include "verdict.h"

#define NOISE_BURST_FACTOR 1.5
#define NOISE_DRIFT_PCT 1.0
#define NOISE_BURST_MIN_RUNS 2
#define NOISE_SOAK_MIN_RUNS 3

/* The step rule in one sentence (--help, the document's fact step_rule). */
#define NOISE_STEP_RULE                                                                            \
	"a step between neighbouring levels is resolved when Welch's t on the ln values of "       \
	"their runs gives p < alpha (the decision rule every command uses: "                       \
	"docs/statistics.md), otherwise within-noise; unreplicated when either level has one "     \
	"run; whether the two levels' [min, max] ranges are disjoint (gap > 0) is shown as "       \
	"evidence, not the verdict"

/* Verdict words (stable: facts and cells). */
#define NOISE_RESOLVED "resolved"
#define NOISE_WITHIN "within-noise"
#define NOISE_UNREPLICATED "unreplicated"
#define NOISE_SINGLE_LEVEL "single-level"

/* Counterbalancing words (stable). */
#define NOISE_BAL_YES "yes"
#define NOISE_BAL_NO "no"
#define NOISE_BAL_SIMULTANEOUS "simultaneous"
#define NOISE_BAL_ONE_BLOCK "one-block"
#define NOISE_BAL_NOT_ROTATED "not-rotated"

struct noise_options {
	double burst_factor;
	double drift_pct;
	double alpha; /* the step rule's: VERDICT_ALPHA */
	/* the metric's kind and direction (bursts, steps); init: tput's */
	struct metric_meaning metric;
	const char *by; /* the level field's name in orders and notes; NULL: "level" */
	/*
	 * NULL, or the NULL-terminated group fields whose order within blocks
	 * is checked: the selection's extra[i] holds group field i's value.
	 */
	const char *const *factors;
	int duration_extra; /* extra index of duration_s (simultaneous runs), or -1 */
};

struct noise_cell {
	const char *group;
	double level;
	const char *block;
	size_t n;
	double value;
	double deviation_abs; /* value - level median */
	double deviation_pct; /* NaN when the level median is 0 */
	size_t position;      /* 1-based order of this level within its block, by time */
};

struct noise_level {
	const char *group;
	double level;
	struct summary s;       /* stats_summary_abs: range_pct NaN for a 0 median */
	double max_abs_dev_pct; /* NaN when the median is 0 */
	double max_abs_dev_abs;
	const char *verdict; /* NOISE_RESOLVED, NOISE_WITHIN or NOISE_UNREPLICATED */
	bool within_noise;   /* verdict is NOISE_WITHIN */
	const char *why;     /* static text for a level that is not resolved */
};

/* One step between neighbouring levels of a group (the step rule). */
struct noise_step {
	const char *group;
	double from, to; /* levels, from < to */
	size_t n_from, n_to;
	double median_from, median_to;
	double difference;     /* median_to - median_from */
	double difference_pct; /* difference / |median_from| * 100; NaN when median_from is 0 */
	double spread_from;    /* from's median to its extreme facing `to` */
	double spread_to;      /* to's median to its extreme facing `from` */
	double spread;         /* spread_from + spread_to */
	double gap;            /* |difference| - spread: > 0 iff the ranges are disjoint */
	bool ranges_disjoint;  /* gap > 0: the range rule, evidence only */
	const char *change;    /* "rise", "fall" or "none" */
	const char *effect;    /* "better", "worse" or "none", by the metric's direction */
	const char *verdict;   /* NOISE_RESOLVED, NOISE_WITHIN or NOISE_UNREPLICATED */
	/* the decision (verdict.h): its word, test, p, the ratio to / from and its interval */
	struct verdict v;
};

struct noise_drift {
	const char *group;
	const char *block;
	size_t nlevels;
	double mean_dev_pct, min_dev_pct, max_dev_pct;
	const char *drift; /* "high", "low" or "none" */
};

/* A factor's order in one block of one stratum. */
struct noise_order {
	const char *factor; /* the level field's name (options.by) or a group field */
	bool is_level;
	char *group; /* level: the group; group field: the other group fields' values */
	const char *block;
	char *levels; /* the values in time order, "1,2,4,8"; simultaneous ones "a+b" */
	bool timed;   /* order from start times (else results-table order) */
	size_t nvalues;
	char **values;     /* in time order */
	size_t *positions; /* 1-based; equal for simultaneous values */
};

/* The counterbalancing of one factor over every stratum. */
struct noise_factor {
	const char *name;
	bool is_level;
	const char *balance; /* NOISE_BAL_* */
	char *note;          /* what decided, e.g. "sessions=100 is at position 1 in every block" */
};

struct noise_burst {
	const char *group;
	double level;
	const char *tag;
	double value;
	double later_median;
	size_t later_n;
	double ratio; /* value / later_median; NaN when later_median is 0 */
	bool burst;
};

struct noise_soak {
	const char *group;
	double level;
	const char *block;
	size_t n;
	const char *first_tag;
	double first;
	struct summary sustained; /* the runs after the first (stats_summary_abs) */
	double ratio;             /* NaN when the sustained median is 0 */
};

struct noise_verdict {
	const char *group;
	const char *verdict; /* NOISE_RESOLVED, NOISE_WITHIN, NOISE_UNREPLICATED or _SINGLE_LEVEL */
	bool resolved;       /* verdict is NOISE_RESOLVED */
	char *within_noise;  /* levels whose verdict is within-noise, comma-separated */
	char *steps_resolved; /* "100→300, 300→500" ("" none) */
	char *steps_within_noise;
	char *steps_unreplicated;
	char *steps_text;     /* "resolved: 100→300; within-noise: 300→500" */
	double max_range_pct; /* over the levels with a median other than 0; NaN if none */
	double max_abs_dev_pct;
	const char *balance;  /* the level order in this group: NOISE_BAL_* */
	bool counterbalanced; /* balance is NOISE_BAL_YES */
	char *counterbalance_note;
	size_t nbursts;
};

struct noise {
	struct noise_cell *cells;
	size_t ncells;
	struct noise_level *levels;
	size_t nlevels;
	struct noise_step *steps;
	size_t nsteps;
	struct noise_drift *drifts;
	size_t ndrifts;
	struct noise_order *orders;
	size_t norders;
	struct noise_factor *factors; /* the level first, then each group field */
	size_t nfactors;
	struct noise_burst *bursts; /* every first run checked, burst or not */
	size_t nbursts;
	struct noise_soak *soaks;
	size_t nsoaks;
	struct noise_verdict *verdicts;
	size_t nverdicts;
	struct noise_options opts;
	const char *verdict;                      /* the worst group's word */
	bool resolved;                            /* every group resolved */
	bool counterbalanced;                     /* the order rule above */
	size_t burst_count;                       /* bursts over every group */
	size_t nresolved, nwithin, nunreplicated; /* steps by verdict */
	size_t zero_median_levels; /* levels whose median is 0: relative figures left out */
};

/* What `coreplan noise` asks: the runs, the level, block and group fields, the metric. */
struct noise_request {
	const struct run_filter *filter;
	const char *by;
	const char *metric;       /* NULL: tput */
	const char *block;        /* NULL: block */
	const char *const *group; /* NULL-terminated grouping fields, or NULL */
	bool has_kind;            /* --metric-kind */
	enum field_kind kind;
	bool lower_is_better;      /* --lower-is-better */
	struct noise_options opts; /* burst and drift; noise_run fills the rest in a copy */
};

/* A request's answer: the runs it read (with those left out) and the analysis. */
struct noise_result {
	struct selection sel;
	struct noise nz;
};

void noise_options_init(struct noise_options *opts);
/*
 * The step rule for neighbouring levels (from < to): the runs' values at
 * each (n_from, n_to >= 1), the metric's meaning and alpha in o (kind,
 * lower_is_better). Fills every field but group, from, to.
 */
int noise_step_judge(const double *from, size_t n_from, const double *to, size_t n_to,
		     const struct verdict_options *o, struct noise_step *out);
/*
 * Levels must be numeric; runs without a block value count as block "NA".
 * The result points into `sel` (tags, groups, blocks) and into opts' names:
 * keep both alive until noise_release(). With opts->factors, every run's
 * extra must hold them (sel->nextra large enough).
 */
int noise_compute(const struct selection *sel, const struct noise_options *opts, struct noise *out);
void noise_release(struct noise *nz);
/*
 * Select the runs (with the group fields and duration_s as extra fields)
 * and compute with a copy of req->opts whose metric (the metric's meaning,
 * with --metric-kind and --lower-is-better), by, factors and
 * duration_extra it sets; release the result either way. No run selected: the error
 * says what the filter matched (select_no_runs).
 */
int noise_run(sqlite3 *db, const struct noise_request *req, struct noise_result *out);
void noise_result_release(struct noise_result *r);

#endif
