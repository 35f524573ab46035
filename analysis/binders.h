/*
 * binders: what limits throughput in a load sweep (coreplan binders).
 *
 * Per group (the --group fields; one group when none) and level (--by,
 * default sessions), each resource's use against its capacity:
 *   app_cpu      the app's cores (recomputed over the run's loaded plateau
 *                from its trace, analysis/window.h; the driver's app_cores
 *                without a trace) against the threads it may run: the
 *                host's logical CPUs (vCPUs), or gomaxprocs when smaller
 *   host_cpu     the machine's busy cores (the app and everything
 *                co-located with it) against the vCPUs
 *   pg_cpu       PostgreSQL's cores against the vCPUs (only where some
 *                run has PostgreSQL CPU above 0)
 *   memory       the app's RSS under load (load_rss_kb, else the plateau's
 *                median) plus PostgreSQL's (load_pg_rss_kb) against that
 *                plus the lowest MemAvailable over the plateau
 *   connections  backends_max against max_connections
 *   generator    the load generator's own CPU (gen_cpu_pct, % of its
 *                machine) against 100 %; its own saturation flag
 *                (gen_saturated, which trips at BINDERS_GENERATOR_FLAG %)
 * A level's use is the median over its runs (with the runs' min and max);
 * ratio = use / capacity. The vCPUs are the host's logical CPUs (the runs'
 * topology_host), else the run's nproc; the physical cores are shown too.
 *
 * CPU trust: a run whose /proc/stat tick rate fails the tick check
 * (window.h: stat_tick_hz / (nproc x clk_tck) < WINDOW_TICK_MIN; the
 * field stat_tick_hz without a trace) has untrustworthy CPU figures. A
 * group with more than half its runs failing is CPU-untrustworthy: no
 * CPU resource is named its binder (the sentence says why).
 *
 * The binder rule, per group over its levels in order:
 *   a step i -> i+1 rises when the throughput's elasticity
 *   ln(X[i+1] / X[i]) / ln(L[i+1] / L[i]) is at least rise_min (default
 *   BINDERS_RISE_MIN) and the step is not within noise (noise.h's step
 *   rule on the runs' throughput); the plateau is the longest run of
 *   levels at the end with no rising step (at least two levels);
 *   latency rises over the plateau when its median at the last plateau
 *   level is BINDERS_LATENCY_RISE_PCT above the first's (no latency
 *   field: not required, and said);
 *   a resource binds when, at every plateau level, its ratio is at least
 *   near (default BINDERS_NEAR) and its level medians span at most flat
 *   (default BINDERS_FLAT_PCT) % of their median; of those, a saturated
 *   generator first (the measurement is the generator's), then the one
 *   with the highest ratio (host_cpu only when no process resource
 *   binds: it includes the app).
 * Verdicts (stable words):
 *   binder         a resource binds (binder = its index)
 *   no-binder      the plateau exists but nothing is near its ceiling
 *   untrustworthy  nothing else binds and the CPU cannot be attributed
 *   rising         throughput still rises at the last step
 *   single-level   one level
 * The rest are ranked by their highest plateau ratio (all levels when
 * there is no plateau), with headroom = 1 - ratio.
 *
 * Knee: the first level whose median error rate (err) is above 0, with
 * the level before it ("between 100 and 300"); none when no level has
 * errors (the knee lies above the largest level).
 *
 * Little's law on a closed-loop run (think_time known): the implied mean
 * latency W = sessions / throughput - think (sessions established when
 * known) must lie between the Markov bound max(p50 / 2, p95 / 20, p99 /
 * 100) (a mean is at least t x P(latency >= t)) and max_ms; a run outside
 * fails it and is flagged (sessions not all busy, or a throughput that
 * does not count what the latency does).
 *
 * binders_compute() is the computation on filled runs (unit-tested);
 * binders_run() selects, reads each run's trace figures and host, and
 * computes. The result points into its selection: release with
 * binders_result_release().
 */
#ifndef COREPLAN_BINDERS_H
#define COREPLAN_BINDERS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "cores.h"
#include "select.h"
#include "stats.h"

#define BINDERS_NEAR 0.75
#define BINDERS_FLAT_PCT 10.0
#define BINDERS_RISE_MIN 0.1
#define BINDERS_LATENCY_RISE_PCT 10.0
#define BINDERS_GENERATOR_FLAG 70.0

/* Verdict words. */
#define BINDERS_BINDER "binder"
#define BINDERS_NONE "no-binder"
#define BINDERS_UNTRUSTED "untrustworthy"
#define BINDERS_RISING "rising"
#define BINDERS_SINGLE "single-level"

enum binder_resource {
	BINDER_APP_CPU,
	BINDER_HOST_CPU,
	BINDER_PG_CPU,
	BINDER_MEMORY,
	BINDER_CONNECTIONS,
	BINDER_GENERATOR,
	BINDER_NRES
};

/* "app_cpu", "host_cpu", ...; and in words ("app CPU", "PostgreSQL CPU", ...). */
const char *binder_resource_name(enum binder_resource r);
const char *binder_resource_words(enum binder_resource r);
/* The unit of a resource's use: "cores", "kB", "backends", "%". */
const char *binder_resource_unit(enum binder_resource r);
bool binder_resource_is_cpu(enum binder_resource r);

/* One run, filled by binders_run (or a test): NaN for what it lacks. */
struct binder_run {
	const char *tag;
	const char *group; /* "" when there are no groups */
	double level;
	double tput, latency, err;
	double p50, p95, p99, max_ms; /* ms: Little's law bounds */
	double sessions;              /* established, else requested */
	double think_s;               /* NaN: not a known closed loop */
	double use[BINDER_NRES], cap[BINDER_NRES];
	double app_rss_kb,
		avail_kb;      /* the app's RSS and the lowest MemAvailable (memory's parts) */
	double physical_cores; /* of the host; NaN unknown */
	bool cpu_checked;      /* a tick check was possible */
	bool cpu_trusted;      /* passed it (true when unchecked) */
	bool from_trace;       /* CPU and memory recomputed from the trace */
	double driver_app_cores; /* with from_trace: the run's own app_cores field (NaN none) */
	bool gen_flag_known, gen_saturated;
	/* Little's law (set by binders_compute) */
	bool little_checked, little_fails;
	double little_w_ms, little_lo_ms, little_hi_ms;
};

struct binder_use {
	size_t n; /* runs with a value */
	double median, min, max;
	double cap;                  /* the capacity (median over the runs; NaN unknown) */
	double ratio;                /* median / cap; NaN unknown */
	double ratio_min, ratio_max; /* over the runs */
};

struct binder_level {
	const char *group;
	double level;
	size_t n;
	struct summary tput;
	double *tput_v; /* the runs' throughput values (tput.n of them; the step's test) */
	bool has_latency;
	struct summary latency;
	bool has_err;
	struct summary err;
	size_t err_runs; /* runs with err > 0 */
	struct binder_use res[BINDER_NRES];
	struct summary app_rss;       /* n 0: none */
	double avail_min;             /* the lowest MemAvailable of its runs, kB; NaN none */
	double vcpus, physical_cores; /* NaN unknown */
	size_t cpu_checked, cpu_untrusted, from_trace;
	/* the driver's app_cores of the runs recomputed from a trace (n 0: none) */
	double driver_app_min, driver_app_max;
	size_t driver_app_n;
	size_t gen_flagged; /* runs whose generator flag is set */
	size_t little_checked, little_fails;
	double elasticity; /* of the step from the previous level; NaN for the first */
	const char *step;  /* the previous step: "rise", "flat", "fall" (NULL first) */
	bool step_within_noise;
};

struct binder_rank {
	enum binder_resource r;
	double ratio; /* the highest over the judged levels */
	double headroom;
};

struct binder_group {
	const char *group;
	struct binder_level *levels; /* into binders.levels */
	size_t nlevels;
	size_t nruns;
	const char *verdict;
	int binder;          /* enum binder_resource, or -1 */
	size_t plateau_from; /* first plateau level index; nlevels: none */
	bool latency_rises, latency_known;
	bool cpu_untrusted; /* more than half the runs fail the tick check */
	size_t cpu_untrusted_runs, cpu_checked_runs;
	bool binds[BINDER_NRES]; /* near and flat over the plateau */
	struct binder_rank rank[BINDER_NRES];
	size_t nrank;
	char why[640]; /* the verdict in words */
	/* knee */
	bool has_knee;
	size_t knee;       /* index of the first level with errors */
	size_t err_levels; /* levels with an error rate */
	size_t little_checked, little_fails;
};

struct binders_options {
	double near, flat_pct, rise_min, latency_rise_pct;
	bool lower_is_better; /* the metric (never for throughput) */
	enum field_kind kind; /* the metric's kind (the step test's words) */
};

struct binders {
	struct binder_level *levels;
	size_t nlevels;
	struct binder_group *groups;
	size_t ngroups;
	struct binders_options opts;
	size_t nbinders; /* groups with a binder */
	size_t little_checked, little_fails;
};

void binders_options_init(struct binders_options *opts);
/*
 * Group, level and judge runs[0..n) (any order; groups keep the order of
 * their first run, levels ascend). Sets each run's Little's-law fields.
 * runs must outlive out (out points to their group texts).
 */
int binders_compute(struct binder_run *runs, size_t n, const struct binders_options *opts,
		    struct binders *out);
void binders_release(struct binders *b);
/*
 * Whether some run of g records resource r at any level (PostgreSQL CPU:
 * above 0, as judged): a resource no run records is absent, neither
 * weighed nor ranked.
 */
bool binder_group_records(const struct binder_group *g, enum binder_resource r);

struct binders_request {
	const struct run_filter *filter;
	const char *by;           /* NULL: sessions */
	const char *metric;       /* NULL: tput */
	const char *latency;      /* NULL: p50_ms */
	const char *const *group; /* NULL-terminated, or NULL */
	struct binders_options opts;
	struct cores_options cores;
	const char *host; /* count CPUs on this host; NULL: the runs' topology_host */
};

struct binders_result {
	struct selection sel;
	struct binder_run *runs; /* sel.n */
	struct binders b;
	bool any_trace;
};

/*
 * Select (levels numeric), refuse silent pooling (pooling.h, like noise),
 * read each run's plateau figures and host, compute. No run: the error
 * says what the filter matched.
 */
int binders_run(sqlite3 *db, const struct binders_request *req, struct binders_result *out);
void binders_result_release(struct binders_result *r);

#endif
