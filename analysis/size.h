/*
 * size: which instance meets a throughput target, counted in physical
 * cores (coreplan size).
 *
 * For each catalog instance (schema/catalog.h), with P its sustained
 * physical cores (vcpus * sustained fraction / threads per core) and T its
 * threads per core:
 *   base'      the per-physical-core rate (one thread on a dedicated core),
 *              divided by the translation factor of the instance's CPU
 *              family when it differs from the base's (`translated`);
 *              without a factor the row is `unmeasured CPU` and gets no
 *              prediction
 *   scale(P)   per_doubling ^ log2(P) for P >= 1 (the measured scaling
 *              across physical cores), P below one core (a sustained share)
 *   smt        the SMT factor when T = 2 (what a core's second thread
 *              adds), 1 when T = 1
 *   predicted  base' * scale(P) * smt * (1 - headroom)
 *   bounds     the same with the base runs' range and the per-doubling and
 *              SMT factors' bounds
 *   memory     fixed + per_session * sessions (kB) against memory_gib
 *   verdict    unmeasured CPU | memory-bound | meets | short;
 *              shortfall = target / predicted
 *   cost_per_1k  price_per_hour * 1000 / predicted
 * Flags: `extrapolated` when P exceeds the largest measured core count,
 * `translated`, `shared-core` (sized on the sustained share; the burst
 * figure, all vCPUs at full speed, is shown apart and never as the answer).
 * The cheapest instance that meets the target is marked (among the
 * instances sized: with a series list, among those series).
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
	char source[512];     /* where it came from, in words */
};

struct size_translation {
	char family[64];
	double factor; /* rate on that family = base rate / factor */
};

struct size_inputs {
	double target;
	bool has_sessions;
	double sessions;
	double headroom_pct;
	struct size_value base;
	char base_family[64];
	struct size_value per_doubling;
	double max_measured_cores; /* 0: unknown */
	struct size_value smt;
	struct size_value mem_per_session_kb, mem_fixed_kb;
	const struct size_translation *translations;
	size_t ntranslations;
};

struct size_row {
	const struct instance *inst;
	bool predicted_ok;
	double predicted, predicted_lo, predicted_hi;
	double burst; /* shared-core only, else NaN */
	double memory_needed_gib; /* NaN without memory inputs or sessions */
	const char *verdict;
	double shortfall;
	double cost_per_1k;
	bool extrapolated, translated, shared_core, cheapest;
	double translation_factor;
};

/* The rows of cat (rows[i] is cat->items[i]); *rows is a new array the caller frees. */
int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows);

/*
 * What `coreplan size` asks. Each input is a number given on the command
 * line or a WHERE (FIELD=V[,V] conditions, space-separated) that selects
 * runs within the common filter; a given number wins over its WHERE (the
 * base rate: giving both is refused by the command).
 *   base_from     single-thread runs on a dedicated core: their median
 *                 metric is the base rate, on the one cpu_family they name
 *   scaling_from  a sweep over physical cores (level field scaling_by,
 *                 default gomaxprocs): a power law; per doubling 2^b with
 *                 +-1.96 SE as bounds; its largest level is the largest
 *                 measured core count
 *   smt_from      runs for coreplan smt: its smt_factor (default 1.0)
 *   memory_from   runs for an OLS of load_rss_kb on sessions
 *   measured_where  extra conditions for the runs that name an instance
 *                 (their `instance` field, at `sessions` when given)
 * Catalogs (analysis/catalogs.h): the catalog_files in TEMP tables, else
 * the stored catalogs, else the shipped ones (shipped_dir) in TEMP tables.
 */
struct size_request {
	const struct run_filter *filter; /* the common filter (--corpus, --where) */
	const char *metric;              /* NULL: tput */
	double target;
	bool has_sessions;
	double sessions;
	double headroom_pct;
	char **series; /* only these series (none: every series) */
	size_t nseries;
	const char *base_from, *scaling_from, *scaling_by, *smt_from, *memory_from;
	const char *measured_where;
	bool has_base_rate, has_per_doubling, has_smt, has_mem_per, has_mem_fixed;
	double base_rate, per_doubling, smt_factor, mem_per, mem_fixed;
	const char *base_cpu; /* the CPU family base_rate was measured on */
	struct size_translation *translations;
	size_t ntranslations;
	char **catalog_files;
	size_t ncatalog_files;
	const char *shipped_dir;
	catalog_reader reader; /* how catalog files are parsed (cli: catalog_read) */
};

/* The runs that name one instance: their count and the metric's summary. */
struct size_measured {
	size_t n;
	struct summary s; /* when n > 0 */
};

/* How an input was obtained: runs selected with a WHERE, a given number, or a default. */
struct size_provenance {
	const char *where; /* the WHERE text, or NULL for a given number or the default */
	size_t runs;       /* runs it was computed from (0 when given) */
	double se;         /* per_doubling: the fit's standard error; else NaN */
};

/*
 * A request's answer: the inputs with where each came from, the catalogs
 * and instances used (read through SQL), one row per instance and the
 * measured runs of each. in.translations points into the request, which
 * must outlive the result.
 */
struct size_result {
	const char *metric;
	struct size_inputs in;
	struct size_provenance base_prov, per_doubling_prov, smt_prov, memory_prov;
	struct catalogs_used catalogs;
	struct catalog cat;
	struct size_row *rows;         /* cat.n, rows[i] for cat.items[i] */
	struct size_measured *measured; /* cat.n */
	size_t cheapest;               /* index of the cheapest row that meets, or cat.n */
};

/*
 * Choose the catalogs, gather the inputs, compute the rows and read the
 * measured runs. The database may be an empty one (given numbers only).
 * Release the result either way.
 */
int size_run(sqlite3 *db, const struct size_request *req, struct size_result *out);
void size_result_release(struct size_result *r);

#endif
