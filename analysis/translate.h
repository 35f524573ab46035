/*
 * translate: carrying a figure measured on one CPU to another, from paired
 * runs of the same workload on both (coreplan translate).
 *
 * Each kind of figure has its own factor, measured from the two arms
 * (`from`, e.g. Apple M1 runs; `to`, e.g. x86 runs) on per-run values:
 *   rate           work per time: the metric (default tput); factor =
 *                  from / to, a from-rate divided by it is a to-rate
 *   cpu_time       CPU time per operation, windows matched (below);
 *                  factor = to / from, a from-time multiplied by it
 *   idle_memory    idle_rss_kb, factor = to / from
 *   loaded_memory  load_rss_kb, factor = to / from
 *   session_slope  memory per session: an OLS of load_rss_kb on sessions
 *                  on each side (stats_ols), factor = slope(to) /
 *                  slope(from); needs 3+ runs and 2+ session counts per
 *                  side; its interval is the ratio of the slopes' 95%
 *                  intervals' ends (to_lo / from_hi, to_hi / from_lo),
 *                  measured only when both intervals lie above 0
 *   latency        p50_ms, factor = to / from, only when both arms are
 *                  closed-loop runs (think_time 0) at the same sessions
 *                  with the app CPU-saturated (its cores at least
 *                  TRANSLATE_SATURATED of its gomaxprocs): latency then
 *                  follows the CPU; otherwise not measured, with the reason
 * A median kind: factor = the ratio of the medians, with a seeded
 * bootstrap 95% interval (stats_bootstrap_median_ratio, TRANSLATE_RESAMPLES
 * resamples), mean_factor the ratio of the means (no interval), range_lo
 * and range_hi the ratios of the ranges' ends. A kind whose values an arm
 * lacks is not measured and says why; a kind without a factor translates
 * nothing.
 *
 * Windows of the CPU time (translate_cpu_bounds, per run): the CPU seconds
 * of the counted window divided by the interactions counted in it.
 *   trace   when every run of both arms has a trace window: app_j over the
 *           loaded plateau (analysis/window.h's rule) or, for a trace
 *           without connection counts, the generator's window (started_at
 *           + warmup_s .. + duration_s), as cores x duration_s
 *   window  cpu_s declared to cover the counted window (cpu_s_span=window)
 *   span    cpu_s declared to cover ramp + warm-up + window
 *           (cpu_s_span=run, with ramp_s, warmup_s and duration_s): the
 *           window's CPU lies between its share duration / span of cpu_s
 *           (the app burned at its average rate throughout) and all of it
 *           (nothing outside the window): the run's value is the midpoint,
 *           lo and hi its bounds
 *   unknown otherwise: the CPU factor is not measured (the windows cannot
 *           be matched)
 * With bounds on either side, factor = median(to mid) / median(from mid),
 * ci_lo = the bootstrap low of median(to lo) / median(from hi), ci_hi =
 * the bootstrap high of median(to hi) / median(from lo): the mismatch is
 * carried into the interval, and the factor's method says so.
 *
 * --apply's items: each has a name, value, unit and optionally a kind;
 * translate_item_kind() infers the kind from the unit (and the name) when
 * absent. A value that is not a finite number, a negative value, an
 * unknown unit, a kind that does not fit its unit, or a result out of
 * range is an error naming file:line:col. A kind without a factor is not
 * an error: its row is `not translated` and says why.
 *
 * --check WHERE: the runs the WHERE selects (within the common filter)
 * measure each translated figure on the target CPU (TRANSLATE_MEASURES);
 * each row then carries the measured value and whether it lies inside the
 * translated interval.
 *
 * The result owns its selections and items; translate_result_release()
 * frees it (and the zeroed result a failed call leaves).
 */
#ifndef COREPLAN_TRANSLATE_H
#define COREPLAN_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select.h"
#include "stats.h"

#define TRANSLATE_RESAMPLES 10000
/* A run is CPU-saturated when its app cores reach this share of its gomaxprocs. */
#define TRANSLATE_SATURATED 0.9

/* The kinds of figure, in the factors table's order. */
enum translate_kind {
	TRANSLATE_RATE,
	TRANSLATE_CPU,
	TRANSLATE_IDLE,
	TRANSLATE_LOADED,
	TRANSLATE_SLOPE,
	TRANSLATE_LATENCY,
	TRANSLATE_NKINDS
};

/* "rate", "cpu_time", "idle_memory", "loaded_memory", "session_slope", "latency". */
const char *translate_kind_name(enum translate_kind kind);
/* 0, or -1 for a word that names no kind. */
int translate_kind_parse(const char *word, enum translate_kind *kind);

/* Units, their families and conversions: common/units.h (units_family, units_scale). */

/*
 * The kind of a figure: the kind column's word when given (it must fit the
 * unit's family), else from the unit: a rate is rate; a time is cpu_time
 * unless the name says latency, p50, p90, p95 or p99 (latency); a memory
 * size is loaded_memory unless the name says idle (idle_memory); a memory
 * per session is session_slope. *how gets "kind column", "unit" or "unit
 * and name". Errors (ERR_DATA, message without a place: the caller adds
 * it): an unknown unit (listing the known ones), an unknown kind word, a
 * kind that does not fit the unit.
 */
int translate_item_kind(const char *name, const char *unit, const char *kind_word,
			enum translate_kind *kind, const char **how);

/* One kind's factor. */
struct translate_factor {
	enum translate_kind kind;
	bool measured;
	bool to_over_from; /* factor = to / from (every kind but rate) */
	char measure[96];  /* what each run gives: "tput", "idle_rss_kb", ... */
	char statistic[16]; /* "median" or "OLS slope" */
	struct summary from, to; /* the per-run values (cpu_time: the midpoints) */
	double from_lo, from_hi, to_lo, to_hi; /* cpu_time: the bounds' extremes; slope: 95% */
	double factor;
	bool has_ci;
	double ci_lo, ci_hi;
	double end_lo, end_hi;     /* cpu_time with bounds: the factor on each end's medians */
	double mean_factor;        /* NaN for the slope */
	double range_lo, range_hi; /* NaN for the slope */
	char method[512];          /* how the figures were matched; "" when nothing to say */
	char rule[96];
	char words[512]; /* in words, or why not measured */
};

/*
 * Per-run values of one kind on both arms (NaN entries skipped; with
 * bounds, a run is skipped when its value or a bound is NaN). lo/hi NULL:
 * the value is exact.
 */
struct translate_input {
	enum translate_kind kind;
	const char *measure; /* what each run gives, for the table; NULL: the kind's */
	const double *from, *from_lo, *from_hi;
	size_t nfrom;
	const double *to, *to_lo, *to_hi;
	size_t nto;
};

/* A median kind's factor (not the slope). Names go into the words. */
int translate_factor_compute(const struct translate_input *in, uint64_t seed,
			     const char *from_name, const char *to_name,
			     struct translate_factor *out);

/* The session slope's factor from each side's OLS (NULL: that side has none, why says why). */
int translate_slope_factor(const struct ols *from, const struct ols *to, const char *why,
			   const char *from_name, const char *to_name, struct translate_factor *out);

/* What a run's CPU seconds cover (translate_cpu_bounds). */
enum translate_cpu_basis { TCPU_TRACE, TCPU_WINDOW, TCPU_SPAN, TCPU_UNKNOWN };
const char *translate_cpu_basis_name(enum translate_cpu_basis basis);

/* One run's CPU fields (NaN or NULL when missing). */
struct translate_cpu_run {
	double cpu_s, interactions, duration_s, ramp_s, warmup_s;
	const char *span;      /* cpu_s_span: "window", "run" or NULL */
	double trace_cpu_s;    /* app CPU seconds over the counted window from its trace, or NaN */
	bool use_trace;        /* every run of both arms has a trace window */
};

/*
 * CPU microseconds per counted interaction: *lo <= *mid <= *hi (equal
 * unless the basis is span), *cores the app's cores over the window (span:
 * its lower bound, cpu_s / span), *basis what was used; NaN everywhere and
 * TCPU_UNKNOWN when the fields do not say what cpu_s covers.
 */
void translate_cpu_bounds(const struct translate_cpu_run *r, double *lo, double *mid,
			  double *hi, double *cores, enum translate_cpu_basis *basis);

/* One arm's load shape, per run (NaN when unknown), for the latency rule. */
struct translate_shape {
	const char *name;
	size_t n;
	const double *think_s, *sessions, *cores, *gomaxprocs;
};

/*
 * Can latency be translated? Both arms closed-loop (every think_s 0), the
 * same sessions on every run of both, every run's cores >= TRANSLATE_SATURATED
 * x its gomaxprocs. false with the reason in why (a missing field says so).
 */
bool translate_latency_comparable(const struct translate_shape *from,
				  const struct translate_shape *to, char *why, size_t len);

/*
 * One figure to translate, as read from a table (cli/ reads --apply's
 * file): its name (NULL when the table has none), its value and unit as
 * written, its kind word (NULL or "" to infer it), and where they are (file
 * line, 1-based columns) so errors can name the place.
 */
struct translate_item {
	const char *name;
	const char *value;
	const char *unit;
	const char *kind;
	long line;
	long value_col, unit_col, kind_col;
};

/* The figures --check measures on the target runs. */
enum translate_measure_id {
	TM_RATE,
	TM_CPU,
	TM_IDLE,
	TM_LOADED,
	TM_SLOPE,
	TM_P50,
	TM_P95,
	TM_P99,
	TRANSLATE_MEASURES
};

struct translate_measure {
	bool known;
	double value;  /* the median over the runs (the slope: OLS) */
	size_t n;      /* runs */
	char unit[32]; /* its unit: the metric's, us, kB, kB/session, ms */
	char what[96]; /* "median tput", ... or why it is not known */
};


/* An item translated: its value read, its kind, the factor used and the result. */
struct translate_applied {
	const char *name; /* the item's (NULL when none) */
	const char *unit;
	double value;
	enum translate_kind kind;
	const char *kind_how; /* translate_item_kind's *how */
	bool translated;      /* false: the kind has no factor (factors[kind].words says why) */
	double factor, factor_lo, factor_hi;
	double translated_value, lo, hi; /* lo <= hi; NaN when not translated */
	/* --check */
	enum translate_measure_id measure; /* what the target runs measure for it */
	bool checked;                      /* a measured value and a translation */
	bool inside;                       /* lo <= measured <= hi */
	double measured;                   /* in the item's unit; NaN when not measured */
	size_t measured_n;
	/* "inside", "outside", or why not checked ("" without --check) */
	char check[256];
};

/* Which measure checks an item of this kind and name (latency: p95 or p99 when named). */
enum translate_measure_id translate_measure_for(enum translate_kind kind, const char *name);

/*
 * Translate n items with factors (TRANSLATE_NKINDS of them) into out[0..n);
 * errors as the header says, naming display:line:col.
 */
int translate_apply(const struct translate_factor *factors, const struct translate_item *items,
		    size_t n, const char *display, struct translate_applied *out);

/* What `coreplan translate` asks. */
struct translate_request {
	const struct run_filter *filter; /* the common filter both arms start from */
	const char *from, *to;           /* each arm's conditions ("subcorpus=m1") */
	const char *metric;              /* NULL: tput */
	uint64_t seed;
	const struct translate_item *items; /* --apply's figures, or NULL */
	size_t nitems;
	const char *items_path;  /* where they were read, for messages */
	bool apply_medians;      /* also translate the from-arm's own medians, one per kind */
	const char *check;       /* --check's conditions, or NULL */
};

struct translate_arm {
	struct run_filter filter;
	struct selection sel;
	char name[96]; /* the runs' common cpu_family, else the arm's conditions */
};

struct translate_result {
	struct translate_arm from, to, check; /* check: empty without --check */
	bool has_check;
	bool check_is_to; /* the check runs include the to-arm's own runs */
	struct translate_factor factors[TRANSLATE_NKINDS];
	/*
	 * A factor quoted elsewhere between mixed_lo and mixed_hi mixed the
	 * statistics: mean(from) / median(to) and median(from) / mean(to) of the
	 * rate (has_mixed when the rate was measured); mixed_lo_mean_first says
	 * mixed_lo is the first of the two.
	 */
	bool has_mixed;
	double mixed_lo, mixed_hi;
	bool mixed_lo_mean_first;
	struct translate_measure measures[TRANSLATE_MEASURES]; /* on the check runs */
	/* --apply-medians: the items made from the from-arm's medians (owned) */
	struct translate_item *own_items;
	char (*own_text)[2][96]; /* their name and value texts */
	size_t nown;
	struct translate_applied *applied; /* the request's items, then the own ones */
	size_t napplied;
};

/* An arm without runs is an error naming its conditions. */
int translate_run(sqlite3 *db, const struct translate_request *req, struct translate_result *out);
void translate_result_release(struct translate_result *r);

/*
 * The rate factor alone, measured as translate_run measures it (seed 1 in
 * size): for `size --translate FAMILY=from:WHERE,to:WHERE`. *out gets the
 * factor, the arms' names and run counts.
 */
struct translate_rate {
	struct translate_factor factor;
	char from_name[96], to_name[96];
	size_t from_runs, to_runs;
};
int translate_rate_factor(sqlite3 *db, const struct run_filter *filter, const char *from,
			  const char *to, const char *metric, uint64_t seed,
			  struct translate_rate *out);

#endif
