/*
 * sweep: per-level statistics of a load sweep and how the metric scales
 * from level to level (coreplan sweep).
 *
 * Definitions (also in `coreplan sweep --help` and the Markdown output):
 *   median, min, max, range_pct   stats.h (even count: mean of the middle two);
 *                 range_pct is missing (NaN) at a level whose median is 0
 *   range_abs     max - min, in the metric's units (always)
 *   speedup       median / median at the base level (default: smallest
 *                 level); for a lower-is-better metric (a time) base median
 *                 / median, so that above 1 is faster in both cases
 *   efficiency    speedup / (level / base)
 *   per_doubling  (m / previous m) ^ (1 / log2(level / previous level)),
 *                 m the median (a lower-is-better metric: 1 / median): the
 *                 speedup from the previous level normalised to one doubling
 *   per_unit      median / level
 *   app_cores     median of the driver-reported app_cores of the level's runs
 *   cpu_us_per_op app_cores * 10^6 / median
 * The whole-sweep per-doubling factor is exp(slope) of the least-squares
 * fit of ln(median) on log2(level) (stats_per_doubling), with its standard
 * error and its 95% interval from Student's t with the fit's n - 2 degrees
 * of freedom (a lower-is-better metric: exp(-slope), the same SE form, the
 * interval inverted). Scaling
 * "stops" at the first level whose per_doubling falls below 2 *
 * stop_efficiency (default SWEEP_STOP_EFFICIENCY = 0.6: a doubling of the
 * level that buys less than 1.2x).
 *
 * What applies (the figures that do not are left NaN and the result says
 * why; the columns stay in the table):
 *   speedup, efficiency, per_doubling, the stop rule and the whole-sweep
 *     fit: a rate or a time metric over a level that counts workers (a
 *     field known to: field_counts_workers, gomaxprocs, threads, cores,
 *     ...; or declared so: --workers FIELD), not a session sweep nor a
 *     fraction, memory, count or CPU metric;
 *   per_unit and cpu_us_per_op: a rate metric (CPU per operation divides
 *     by operations per second; a per-level ratio of memory or latency
 *     charges fixed costs to the level);
 *   speedup and efficiency also need a base median above 0, per_doubling
 *     two medians above 0.
 *
 * Levels in physical cores (analysis/hosts.h). When the level counts
 * workers, each level gets its kind on the runs' host (run_host_of: the
 * request's host, else the runs' topology_host field): physical (level <=
 * the host's physical cores), smt (up to its logical CPUs), beyond (more),
 * or, with no known host, assumed physical (the document says so; runs on
 * several hosts are that too, with the reason). Then:
 *   the stop rule    looks at physical (and assumed) levels only: a step
 *                    onto SMT siblings is not the application stopping
 *   smt_step         at an SMT level, performance / performance at the
 *                    last physical level (the largest one below it), when
 *                    that level is the host's physical cores; when the sweep
 *                    skipped physical cores (1 -> 8 on 4 cores) the step adds
 *                    unmeasured physical cores and SMT siblings together:
 *                    smt_step is missing and mixed_step holds the ratio,
 *                    labelled so in every format
 *   physical fit     the whole-sweep fit over the physical (and assumed)
 *                    levels only: physical_fit (needs 3 such levels)
 *   physical_efficiency  the efficiency at the largest physical level
 *   smt_factor       what `coreplan smt` measures on the same host's runs
 *                    (host_smt_factor, hosts.h), when it can: sweep_run
 *                    only, and only when the sweep has an SMT level
 * The whole-sweep fit over every level stays, as before.
 *
 * Each level's step from the previous one gets the verdict of the one
 * decision rule (verdict.h: Welch's t on ln values, real when p < 0.05),
 * the same one noise and compare give the same runs: step (resolved,
 * within-noise, unreplicated) and step_p in the levels table.
 */
#ifndef COREPLAN_SWEEP_H
#define COREPLAN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "hosts.h"
#include "select.h"
#include "stats.h"
#include "verdict.h"

#define SWEEP_STOP_EFFICIENCY 0.6

struct sweep_options {
	bool has_base;
	double base;            /* base level when has_base */
	double stop_efficiency; /* per-doubling efficiency threshold */
	/* what the metric and the level are (sweep_options_fields); init: a rate over workers */
	struct metric_meaning metric;
	bool level_counts_workers;
	const char *workers;     /* the field declared to count workers (--workers), or NULL */
	const char *metric_name; /* for the reasons; NULL: "tput" */
	const char *by;          /* for the reasons; NULL: "the level" */
	/* the host levels are counted on (NULL or unknown: assumed physical); sweep_run sets it */
	const struct run_host *host;
};

struct sweep_level {
	double level;
	struct summary s;
	double speedup;
	double efficiency;
	double per_doubling; /* NaN for the first level */
	double per_unit;
	double app_cores; /* NaN when no run has it */
	size_t app_cores_n;
	double cpu_us_per_op; /* NaN when app_cores is NaN */
	bool scaling_stops;
	enum level_kind kind; /* on the host; LEVEL_ASSUMED also when !classified */
	double smt_step;      /* an SMT level's step over the last physical level, else NaN */
	size_t smt_over;      /* that level's index */
	/*
	 * The sweep skipped physical cores: the last physical level is below the
	 * host's physical cores, so this SMT level's step over it adds unmeasured
	 * physical cores and SMT siblings together. smt_step is then NaN (it is
	 * no SMT step) and mixed_step holds the ratio.
	 */
	bool mixed;
	double mixed_step;
	/* the step from the previous level by the one decision rule (verdict.h); not level 0 */
	bool has_step;
	struct verdict step;
};

struct sweep {
	struct sweep_level *levels;
	size_t nlevels;
	double base;
	double stop_efficiency;
	bool has_fit;
	struct doubling_fit fit;
	char fit_note[256]; /* why there is no fit, when !has_fit */
	size_t stop_index;  /* index of the first level where scaling stops, or nlevels */
	struct metric_meaning metric;
	bool level_counts_workers;
	const char *workers_from; /* why it counts workers: a known field or --workers; NULL */
	bool scaling_applies;     /* speedup, efficiency, per_doubling, stop rule, fit */
	bool per_unit_applies;    /* per_unit and cpu_us_per_op */
	char scaling_why[256];    /* why not, when !scaling_applies */
	char per_unit_why[256];
	char base_note[160];       /* why speedups are missing though they apply, or "" */
	size_t zero_median_levels; /* levels whose median is 0: range_pct missing */
	/* levels in physical cores (above); classified: the level counts workers */
	bool classified;
	struct run_host host;            /* a copy of opts->host (known false: assumed) */
	size_t nphysical, nsmt, nbeyond; /* levels of each kind (assumed ones count as physical) */
	size_t last_physical;            /* index of the largest physical level, or nlevels */
	double physical_efficiency;      /* efficiency at last_physical, else NaN */
	bool has_physical_fit;
	struct doubling_fit physical_fit;
	char physical_fit_note[256]; /* why there is no physical fit, when !has_physical_fit */
	bool has_smt_factor;         /* sweep_run measured one on the host's runs */
	struct host_smt smt;
};

/* What `coreplan sweep` asks: the runs, the level field, the metric. */
struct sweep_request {
	const struct run_filter *filter;
	const char *by;
	const char *metric; /* NULL: tput */
	bool has_kind;      /* --metric-kind */
	enum field_kind kind;
	bool lower_is_better;      /* --lower-is-better */
	struct sweep_options opts; /* base and stop; sweep_run sets the fields' meaning */
	const char *host;          /* --host: count levels on this host; NULL: the runs' own */
	const char *workers;       /* --workers FIELD: it counts workers (declared), or NULL */
};

/* A request's answer: the runs it read (with those left out) and the sweep. */
struct sweep_result {
	struct selection sel;
	struct sweep sw;
};

void sweep_options_init(struct sweep_options *opts);
/*
 * The metric's meaning (field_metric_meaning, with --metric-kind when kind
 * is not NULL and --lower-is-better) and whether the level `by` counts
 * workers: a field known to (field_counts_workers), or the one opts->workers
 * declares (field_level_counts_workers). The names must outlive the sweep.
 */
void sweep_options_fields(struct sweep_options *opts, const char *metric, const char *by,
			  const enum field_kind *kind, bool lower_is_better);
/*
 * Select the runs, find their host (when the level counts workers; runs
 * on several hosts without req->host are counted as assumed physical,
 * the reason in host.mixed_note), compute the sweep and, when it has an
 * SMT level, look for an SMT factor measured on the host's runs; release
 * the result either way. No run selected: the error says what the
 * filter matched (select_no_runs).
 */
int sweep_run(sqlite3 *db, const struct sweep_request *req, struct sweep_result *out);
void sweep_result_release(struct sweep_result *r);
/*
 * After sweep_compute() with a known host and an SMT level: the SMT
 * factor measured on the host's runs (host_smt_factor; corpus `prefer`
 * first) into sw->smt, has_smt_factor saying whether one was. 0 also
 * when none is measured.
 */
int sweep_smt_factor(sqlite3 *db, struct sweep *sw, const char *prefer);
/* Levels must be numbers > 0; at least one run. A median of 0 is no error (see above). */
int sweep_compute(const struct selection *sel, const struct sweep_options *opts, struct sweep *out);
void sweep_release(struct sweep *sw);

#endif
