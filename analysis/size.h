/*
 * size: which instance meets a throughput target, counted in physical
 * cores, beside what the corpus measured on the instances it ran on
 * (coreplan size). docs/sizing.md explains the model for users.
 *
 * For each catalog instance (schema/catalog.h), with P its sustained
 * physical cores (vcpus * sustained fraction / threads per core) and T its
 * threads per core:
 *   base'      the per-physical-core rate (one thread on a dedicated core),
 *              on the platform and store of its runs (their cpu_model and
 *              store) and at their session count; divided by the
 *              translation factor of the instance's CPU family when it
 *              differs from the base's, or of the target's platform when
 *              --platform names another (`translated`; a measured factor's
 *              interval widens the bounds); a family without a factor is
 *              `unmeasured CPU` (no prediction), a platform without one is
 *              flagged `other platform`
 *   store      the store factor (size_ratio, --store-from) when the target's
 *              store differs from the base runs', else `other store`
 *   scale(P)   per_doubling ^ log2(P) for P >= 1 (the measured scaling
 *              across physical cores), P below one core (a sustained share)
 *   smt        the SMT factor when T = 2 (what a core's second thread
 *              adds), 1 when T = 1: given, measured (--smt-from, else the
 *              pinned runs on the scaling runs' platform), or assumed 1.0
 *   sessions   size_sessions_factor at the counts asked for, the lowest
 *   capacity   base' * store * scale(P) * smt * sessions; predicted =
 *              capacity * (1 - headroom); the bounds the same with every
 *              input's bounds (predicted_lo, predicted_hi), widened by the
 *              row's calibration group (calibrated_lo, calibrated_hi)
 *   memory     app (fixed + per_session * sessions, kB) + co-located
 *              processes (kB, PostgreSQL measured in the memory runs'
 *              traces) + the OS reserve (MiB), against memory_gib; each
 *              part is kept (memory_app_gib, memory_colocated_gib,
 *              memory_os_gib)
 * Verdicts (size_verdict for the three CPU words):
 *   unmeasured CPU  no prediction (and no measurement at the target)
 *   memory-bound    the memory needed exceeds the instance's memory
 *   meets           the lower bound meets the target (calibrated_lo, or
 *                   the measured minimum where the verdict is measured)
 *   marginal        the central value meets it (predicted, or the measured
 *                   median), the lower bound does not
 *   short           otherwise; shortfall = target / predicted
 * cost_per_1k = price_per_hour * 1000 / predicted.
 * Flags: each extrapolation with how far (cores beyond the largest level
 * fitted, sessions beyond the largest the CPU inputs measured, memory
 * beyond the slope's sessions), `translated`, `other platform`, `other
 * store`, the store factor, SMT assumed, uncalibrated, a cell outside its
 * leave-one-out bounds, `shared-core` (sized on the sustained share; the
 * burst figure, all vCPUs at full speed, is shown apart and never as the
 * answer). The cheapest instance whose verdict is `meets` is marked (among
 * the instances sized: with a series list, among those series).
 *
 * Whole-instance cells (size_cells.c): a cell is the runs of one instance
 * at one session count with one value of each field that varies among them
 * (analysis/pooling.h's rule names the fields: cfg=mem and cfg=pg are two
 * cells, never pooled; a block at only some counts is a cell of its own).
 * It is eligible (it counts as the instance's capacity) only when its runs
 * used the whole instance (the worker level x processes unset or >= vcpus,
 * not pinned to fewer CPUs), ran at the target's store and platform (a
 * record missing is taken as the target's, in `assumed`), at the
 * configuration the model's runs share, not in a block of its own, and at a
 * session count asked for (any, without --sessions); why_not lists every
 * reason otherwise.
 *
 * Measured beside predicted (size_judge): per cell n, median, range, the
 * measured shortfall (target / median), `check` = below / above / within
 * the prediction at its own session count, and the verdict of the cell
 * alone. The eligible cells calibrate each group (dedicated, shared-core:
 * struct size_calibration) and are each checked against the bounds the
 * group's other instances calibrate (leave-one-out). The eligible cells at
 * the session counts asked for decide (`decides`; basis "measured"): the
 * worst cell decides (the least favourable verdict, then the lowest
 * median): capacity planning is conservative. Memory-bound still wins (it
 * is the memory model's word, basis "predicted").
 */
#ifndef COREPLAN_SIZE_H
#define COREPLAN_SIZE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../schema/catalog.h"
#include "../schema/fields.h"
#include "catalogs.h"
#include "stats.h"

struct size_value {
	bool known;
	double value, lo, hi; /* lo == hi == value for a given number */
	char source[1024];    /* where it came from, in words */
};

/*
 * A translation of the base rate onto another CPU family: a given number
 * (FAMILY=F), or measured from paired runs (FAMILY=from:WHERE,to:WHERE)
 * as `coreplan translate` measures its rate factor (analysis/translate.h:
 * ratio of the median metric, from / to, seeded bootstrap 95% interval,
 * seed 1). Measured: the to-runs must be on FAMILY and the from-runs on
 * the base rate's family; the rows' bounds widen by the interval
 * (predicted_lo uses base_lo / hi, predicted_hi base_hi / lo).
 */
struct size_translation {
	char family[64];                 /* the CPU family, or the platform (platform true) */
	double factor;                   /* rate on that family = base rate / factor */
	bool measured;                   /* from paired runs: lo, hi and the rest below are set */
	char from[256], to[256];         /* the arms' WHERE (measured) */
	double lo, hi;                   /* the factor's 95% interval (measured) */
	char from_name[96], to_name[96]; /* the arms' CPU families (or their WHERE) */
	size_t from_runs, to_runs;
	char source[1400]; /* where it came from, in words */
	bool platform;     /* `family` is a CPU platform of the base's family (a run's cpu_model) */
};

/* The OS reserve when --os-reserve-mib is not given (size --help says why 512). */
#define SIZE_OS_RESERVE_MIB 512.0

/* The most session counts --sessions may list, and the largest count. */
#define SIZE_MAX_SESSIONS 32
#define SIZE_MAX_SESSION_COUNT 1000000000

/*
 * What --sessions asks: one count ("500"), a list ("300,500") or a range
 * ("300-500": every measured count from 300 to 500). Counts are whole
 * numbers from 1 to SIZE_MAX_SESSION_COUNT, ascending and distinct; a
 * range keeps its two ends in counts[0..1]. largest is what memory is
 * sized at; text is the request as normalised ("500", "300, 500",
 * "300-500").
 */
struct size_sessions {
	bool given;
	bool range;
	double counts[SIZE_MAX_SESSIONS];
	size_t n;
	double largest;
	char text[256];
};

/* Parse --sessions' value into *out (a usage error naming the value when malformed). */
int size_sessions_parse(const char *text, struct size_sessions *out);
/* Is `sessions` one of the counts asked for (in the range, for a range)? */
bool size_sessions_has(const struct size_sessions *s, double sessions);

/*
 * A ratio of two sets of runs' medians (median to / median from): a factor
 * between two conditions the corpus measured on the same instance; bounds
 * from the sets' ranges (min to / max from, max to / min from).
 */
struct size_ratio {
	bool known;
	double value, lo, hi;
	double from_median, to_median;
	size_t from_n, to_n;
	double sessions;                     /* the session count both sets were measured at */
	char from_label[128], to_label[128]; /* "store=memory at 100 sessions" */
};

/*
 * Throughput against sessions (--sessions-from): per measured session
 * count, the median metric and range of the runs at the target's store; the
 * base rate is taken at count `ref` (the base runs' own count, or the
 * measured count nearest it: ref_note says so).
 */
#define SIZE_MAX_CURVE 64
struct size_sessions_curve {
	size_t n; /* 0: no sessions factor (throughput taken as independent of sessions) */
	double sessions[SIZE_MAX_CURVE], median[SIZE_MAX_CURVE];
	double min[SIZE_MAX_CURVE], max[SIZE_MAX_CURVE];
	size_t runs[SIZE_MAX_CURVE];
	size_t ref; /* index of the count the base rate stands at */
	char store[64];
	char instance[96];
	char ref_note[256]; /* "" when the base runs' own count was measured */
};

/*
 * The sessions factor at `sessions`: median(at) / median(ref), with bounds
 * min(at) / max(ref) and max(at) / min(ref). `at` is the measured count
 * used: `sessions` itself when measured; between two measured counts the
 * one whose median is lower (no interpolation: throughput need not be
 * linear in sessions, and the lower neighbour is the conservative one);
 * beyond the measured range its nearest end, and beyond says how far
 * (sessions / the largest count; below the smallest, sessions / the
 * smallest, under 1). Without a curve: 1, at = sessions, beyond 0.
 */
struct size_sessions_at {
	double factor, lo, hi;
	double at;
	double beyond; /* 0 inside the measured range */
};
void size_sessions_factor(const struct size_sessions_curve *c, double sessions,
			  struct size_sessions_at *out);

/* What a condition of the target (its platform, its store) rests on. */
enum size_basis {
	SIZE_UNKNOWN,  /* neither given nor recorded on the base runs */
	SIZE_GIVEN,    /* on the command line (--platform, --store) */
	SIZE_ASSUMED,  /* not given: taken to be the base runs' own (said in every row) */
	SIZE_MEASURED, /* read from runs (a factor's) */
};

/* "unknown", "given", "assumed", "measured". */
const char *size_basis_name(enum size_basis b);

struct size_inputs {
	double target;
	bool has_sessions;
	double sessions; /* the largest count asked for: memory is sized at it */
	double headroom_pct;
	struct size_value base;
	char base_family[64];
	/* the conditions the base runs were measured at ("" when they do not record it) */
	char base_platform[96]; /* their cpu_model */
	char base_store[64];    /* their store */
	/* the target's: given, else the base's (assumed), else unknown ("") */
	char platform[96];
	char store[64];
	enum size_basis platform_basis, store_basis;
	double base_sessions; /* the base runs' session count, NaN when not one */
	/* the target's store against the base runs' (--store-from), known when measured */
	struct size_ratio store_factor;
	/* throughput against sessions at the target's store (--sessions-from) */
	struct size_sessions_curve curve;
	/* the session counts the CPU inputs' runs span (base, scaling, curve); NaN: none */
	double cpu_sessions_min, cpu_sessions_max;
	/* the session counts the memory slope was fitted over; NaN: not fitted */
	double mem_sessions_min, mem_sessions_max;
	const struct size_sessions *asked; /* the counts asked for (NULL: none) */
	struct size_value per_doubling;
	double max_measured_cores; /* the largest physical-core level fitted; 0: unknown */
	struct size_value smt;
	enum size_basis smt_basis; /* SIZE_ASSUMED: no measurement, 1.0 */
	struct size_value mem_per_session_kb, mem_fixed_kb;
	struct size_value colocated_kb; /* not known: nothing counted beside the app */
	double os_reserve_mib;
	const struct size_translation *translations;
	size_t ntranslations;
};

/* The calibration groups: the model's error is measured apart for each. */
enum size_group {
	SIZE_DEDICATED, /* sustained_vcpu_fraction 1 */
	SIZE_SHARED,    /* shared-core: sized on the sustained share */
	SIZE_NGROUPS
};

/* "dedicated", "shared-core". */
const char *size_group_name(enum size_group g);

/*
 * The model's error on one group's instances (size_judge): over the
 * eligible measured cells of that group's rows, the ratio measured median
 * / the model's capacity at the cell (no headroom). n 0: uncalibrated.
 */
struct size_calibration {
	size_t n;         /* eligible measured cells */
	size_t instances; /* of how many instances */
	double median, min, max;
};

struct size_row {
	const struct instance *inst;
	enum size_group group;
	bool predicted_ok;
	/* the model's capacity (no headroom) and its bounds, before the sessions factor */
	double core_capacity, core_capacity_lo, core_capacity_hi;
	/* the sessions factor where it is lowest among the counts asked for */
	struct size_sessions_at sessions_at;
	/* ... and after it: at sessions_at.at */
	double capacity, capacity_lo, capacity_hi;
	/* the capacity with the headroom kept free */
	double predicted, predicted_lo, predicted_hi;
	/*
	 * predicted_lo/hi widened by the group's calibration (size_judge):
	 * lo * min(1, the smallest ratio), hi * max(1, the largest); the
	 * uncalibrated bounds when the group has no eligible cell
	 */
	double calibrated_lo, calibrated_hi;
	bool calibrated;
	double burst; /* shared-core only, else NaN */
	/* NaN without app memory inputs or sessions */
	double memory_needed_gib, memory_app_gib, memory_colocated_gib, memory_os_gib;
	const char *verdict;
	const char *basis; /* "measured" or "predicted" */
	double shortfall;  /* target / predicted */
	double cost_per_1k;
	bool extrapolated, translated, shared_core, cheapest;
	bool other_store;    /* the target's store differs from the base runs' (no factor) */
	bool other_platform; /* the target's platform differs from the base runs' (no factor) */
	bool store_factored; /* ... and a measured factor carries the base to it */
	bool platform_translated;
	/* how far each dimension is extrapolated: 0 inside what was measured, else the ratio */
	double cores_beyond;    /* sustained cores / the largest fitted level */
	double sessions_beyond; /* the largest count asked / the largest the CPU inputs measured */
	double memory_beyond;   /* the largest count asked / the largest the memory slope spans */
	double translation_factor;
	const struct size_translation *translation; /* the one used, or NULL */
	/* size_judge: the cells of this row (cells[first .. first + ncells)) and the worst */
	size_t first_cell, ncells, worst;    /* worst: SIZE_MAX when none decides */
	size_t eligible_cells;               /* of its cells, those that count as its capacity */
	bool measured_below, measured_above; /* a deciding cell outside the bounds */
	bool loo_miss;                       /* an eligible cell outside its leave-one-out bounds */
};

/* The rows of cat (rows[i] is cat->items[i]); *rows is a new array the caller frees. */
int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows);

/* "meets" when lower >= target, "marginal" when central >= target, else "short". */
const char *size_verdict(double lower, double central, double target);

/*
 * One instance's runs at one session count with one value of each varying
 * field: a cell. It counts as the instance's capacity (eligible) only when
 * its runs used the whole instance and the target's conditions (size_cells.c,
 * "Whole-instance cells" in size_run's contract below); why_not lists every
 * reason it does not, "; "-separated.
 */
struct size_cell {
	size_t row; /* its row (and catalog item) */
	double sessions;
	char *group;    /* "cfg=pg" (the varying fields, ", "-separated), "" when none vary */
	bool at_target; /* at a session count asked for by --sessions */
	size_t n;       /* 0: no run at this count (a listed count the instance lacks) */
	struct summary s;
	/* what its runs record (NULL: not recorded) */
	char *platform; /* cpu_model */
	char *store;    /* store */
	double workers; /* the worker level x processes; NaN when unset */
	size_t cpus;    /* CPUs of the cpuset it was pinned to; 0 when not pinned */
	bool eligible;  /* counts as its instance's capacity (calibrates the model) */
	bool decides;   /* eligible and at a session count asked for: the verdict may rest on it */
	char *why_not;  /* why it is not eligible ("; "-separated), NULL when it is */
	char *assumed;  /* what eligibility took without a record ("platform not recorded"), or NULL
			 */
	/* size_judge */
	double shortfall;   /* target / median */
	const char *check;  /* "below", "above", "within"; NULL without n or prediction */
	double check_ratio; /* median / predicted_lo (below), / predicted_high (above), else NaN */
	double model, model_lo, model_hi; /* the model's capacity at the cell (no headroom), NaN */
	double ratio; /* median / model: the model's error here (eligible cells), else NaN */
	/*
	 * leave-one-out (eligible cells): the bounds predicted for it with the
	 * group's calibration from the OTHER instances' eligible cells (the
	 * uncalibrated bounds when there are none), and where the median falls
	 */
	double loo_lo, loo_hi;
	const char *loo_check; /* "within", "below", "above"; NULL when not eligible */
	double loo_miss;       /* below: median / loo_lo - 1; above: median / loo_hi - 1; else 0 */
	size_t loo_n;          /* the cells the leave-one-out calibration rests on */
	const char *verdict; /* this cell alone (size_verdict of min and median); NULL without n */
	bool worst;          /* the cell its row's verdict rests on */
};

/*
 * Compare the cells (grouped by row, cells of a row contiguous and rows in
 * order) with the rows' predictions, calibrate each group on the eligible
 * cells (calibration[SIZE_NGROUPS]; each row's calibrated bounds, the
 * leave-one-out check of each eligible cell) and let the deciding cells
 * decide: each cell's figures, each row's first_cell, ncells, worst,
 * measured_below/above, verdict and basis, and the cheapest mark again.
 * Rows without deciding cells are judged on their calibrated bounds.
 */
int size_judge(const struct size_inputs *in, struct size_row *rows, size_t nrows,
	       struct size_cell *cells, size_t ncells, struct size_calibration *calibration);

/*
 * What `coreplan size` asks. Each input is a number given on the command
 * line or a WHERE (FIELD=V[,V] conditions, space-separated) that selects
 * runs within the common filter; a given number wins over its WHERE (the
 * base rate: giving both is refused by the command).
 *   base_from     single-thread runs on a dedicated core: their median
 *                 metric is the base rate, on the one cpu_family they name
 *   scaling_from  a sweep over workers (level field scaling_by, default
 *                 gomaxprocs): only the levels that are physical cores on
 *                 the runs' host (analysis/hosts.h: their topology_host)
 *                 are fitted, the SMT levels are left out and counted (the
 *                 SMT factor is applied once, apart); without a known host
 *                 every level is assumed physical, and the input says so.
 *                 A power law: per doubling 2^b with +- t SE as bounds (t at 0.975 with the fit's dof);
 *                 its largest fitted level is the largest measured core
 *                 count
 *   smt_from      runs for coreplan smt: its smt_factor; without it (and
 *                 without smt_factor) the pinned runs on the scaling runs'
 *                 platform, corpus by corpus, else 1.0 assumed (smt_basis)
 *   store_from    runs of one instance with the base runs' store and the
 *                 target's (`store`): the store factor at the base's count
 *   sessions_from runs of one instance at several session counts (default
 *                 store_from's): the sessions curve, at the target's store
 *   memory_from   runs for an OLS of load_rss_kb on sessions, and their
 *                 traces' pg_rss_kb (the co-located PostgreSQL: the median
 *                 over runs of each run's plateau median, analysis/window.h)
 *   measured_where  extra conditions for the runs that name an instance
 *                 (their `instance` field, at `sessions` when given)
 * Validated against the catalogs (usage errors listing the valid names):
 * series, base_cpu and each translation's family; a catalog instance name
 * stands for its cpu_family. A base family no catalog has is accepted only
 * with translations (every prediction then goes through a factor).
 * Catalogs (analysis/catalogs.h): the catalog_files in TEMP tables, else
 * the stored catalogs, else the shipped ones (shipped_dir) in TEMP tables.
 * list_families: only the catalogs and their families (no inputs, no rows).
 */
struct size_request {
	const struct run_filter *filter; /* the common filter (--corpus, --where) */
	const char *metric;              /* NULL: tput */
	double target;
	struct size_sessions sessions;
	double headroom_pct;
	char **series; /* only these series (none: every series) */
	size_t nseries;
	const char *base_from, *scaling_from, *scaling_by, *smt_from, *memory_from;
	const char *measured_where;
	bool has_base_rate, has_per_doubling, has_smt, has_mem_per, has_mem_fixed;
	bool has_colocated, has_os_reserve;
	double base_rate, per_doubling, smt_factor, mem_per, mem_fixed, colocated_kb;
	double os_reserve_mib;
	const char *base_cpu;   /* the CPU family base_rate was measured on */
	const char *platform;   /* the target's CPU platform (--platform), NULL: the base runs' */
	const char *store;      /* the target's store (--store), NULL: the base runs' */
	const char *store_from; /* runs of one instance with both stores: the store factor */
	const char *sessions_from; /* runs at several session counts: the sessions factor */
	struct size_translation *translations;
	size_t ntranslations;
	char **catalog_files;
	size_t ncatalog_files;
	const char *shipped_dir;
	catalog_reader reader; /* how catalog files are parsed (cli: catalog_read) */
	bool list_families;
	char **fleet; /* --fleet: the instances to count fleets of (none: every instance) */
	size_t nfleet;
};

/*
 * How an input was obtained: runs selected with a WHERE, a given number, or
 * a default; which levels it rests on and which statistic it is.
 */
struct size_provenance {
	const char *where;   /* the WHERE text, or NULL for a given number or the default */
	size_t runs;         /* runs it was computed from (0 when given) */
	double se;           /* per_doubling: the fit's standard error; else NaN */
	char statistic[768]; /* "median of tput", "OLS slope of load_rss_kb on sessions", ... */
	char levels[256];    /* the levels used ("gomaxprocs 1, 2, 4"), "" when none */
	char left_out[256];  /* levels left out and why, "" when none */
	char host[256];      /* the host the levels were classified on, "" when unknown */
	size_t runs_left_out;
};

/* The most instances a fleet may count (a larger count is not a fleet this tool sizes). */
#define SIZE_FLEET_MAX 10000

/*
 * N x one instance for horizontal scale-out (size_fleets), assuming
 * shared-nothing: N instances serve N x one instance's capacity at its
 * share of the sessions, ceil(sessions / N). For each N the per-instance
 * capacity is the row's before the sessions factor x the sessions factor
 * at that share (size_sessions_factor: the conservative neighbour between
 * measured counts) x (1 - headroom), its bounds widened by the row's
 * group calibration; memory at the share must fit the instance.
 *   n           the smallest N whose lower bound meets the target (N x
 *               capacity_lo >= target): the answer, as `meets` needs the
 *               lower bound
 *   n_central   the smallest N whose central capacity meets it
 *   n_optimistic the smallest N whose upper bound meets it
 * 0 when none up to SIZE_FLEET_MAX does (why says why). The cheapest fleet
 * is the lowest n x price among those with an n (fewer instances at a tie).
 */
struct size_fleet {
	size_t row;
	size_t n, n_central, n_optimistic;
	double sessions_each; /* ceil(sessions / n); NaN without --sessions */
	struct size_sessions_at sessions_at;
	double capacity, capacity_lo, capacity_hi; /* one instance at n's share */
	double total_lo;                           /* n x capacity_lo */
	double memory_each_gib;                    /* NaN without memory inputs */
	double cost_per_hour, cost_central;        /* n x price, n_central x price */
	const char *why;                           /* no n: why; else NULL */
	bool cheapest;
};

int size_fleets(const struct size_inputs *in, const struct size_row *rows, size_t nrows,
		const struct size_calibration *calibration, struct size_fleet *out, size_t *nfleets,
		size_t *cheapest);

/*
 * What the corpus measured of shared-nothing scale-out: the sharded arm
 * with the most processes against the SMT ceiling (coreplan smt's
 * `sharded PxT` and `ceiling`), when the SMT factor came from runs.
 */
struct size_sharding {
	bool known;
	char label[96];       /* "8 processes x 1 thread" */
	double value, lo, hi; /* in units of one single-thread process */
	double ceiling;       /* physical cores x the SMT factor, same units */
	size_t n;
	char where[300];
};

/*
 * A request's answer: the inputs with where each came from, the catalogs
 * and instances used (read through SQL), one row per instance, the
 * measured cells, and the CPU families of the instances sized.
 * in.translations points into the request, which must outlive the result.
 */
struct size_result {
	const char *metric;
	struct size_sessions sessions;
	struct size_inputs in;
	struct size_provenance base_prov, per_doubling_prov, smt_prov, memory_prov, colocated_prov;
	struct size_provenance store_prov, sessions_prov;
	char base_family_note[256]; /* why a base family no catalog has is accepted, or "" */
	char scaling_platform[96];  /* the --scaling-from runs' cpu_model, "" when not one */
	char smt_where[300]; /* the WHERE the SMT factor was measured on without --smt-from */
	struct size_translation
		*translations; /* the request's, families resolved (in.translations) */
	struct catalogs_used catalogs;
	struct catalog cat;
	struct size_row *rows;   /* cat.n, rows[i] for cat.items[i] */
	struct size_cell *cells; /* grouped by row */
	size_t ncells;
	struct size_calibration calibration[SIZE_NGROUPS]; /* the model's error per group */
	size_t cheapest;                 /* index of the cheapest row that meets, or cat.n */
	struct catalog_family *families; /* of cat (every catalog with list_families) */
	size_t nfamilies;
	struct size_fleet *fleets;      /* the --fleet instances' (else every row's), nfleets */
	size_t nfleets, cheapest_fleet; /* cheapest_fleet: index into fleets, or nfleets */
	struct size_sharding sharding;
	bool os_reserve_given; /* --os-reserve-mib, not the default */
	bool listing;          /* list_families: no inputs, rows or cells */
};

/*
 * Choose the catalogs, validate the request against them, gather the
 * inputs, compute the rows, read the measured runs and judge. The database
 * may be an empty one (given numbers only). Release the result either way.
 */
int size_run(sqlite3 *db, const struct size_request *req, struct size_result *out);
void size_result_release(struct size_result *r);

#endif
