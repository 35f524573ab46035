/*
 * translate: carrying a figure measured on one CPU to another, from paired
 * runs of the same workload on both (coreplan translate).
 *
 * For two arms (`from`, e.g. Apple M1 runs; `to`, e.g. x86 runs):
 *   rate     factor = from / to of the throughput: a from-rate divided by
 *            the factor is a to-rate; a from-time multiplied by it is a
 *            to-time. Reported on medians (with a seeded bootstrap 95%
 *            interval, stats_bootstrap_median_ratio) and on means (no
 *            interval), so a figure quoted elsewhere can be matched to
 *            its statistic; bounds are the ratios of the ranges' ends.
 *   cpu      CPU time per operation (cpu_s / interactions, as each corpus
 *            records cpu_s), factor = to / from
 *   memory   idle and loaded RSS, factor = to / from: memory is multiplied
 *            by it, and its sign is said in words ("to uses 15.2% less")
 * A figure whose fields the arms lack is reported as not measured.
 *
 * translate_run() selects both arms (the common filter plus each arm's own
 * FIELD=V conditions), computes the five figures (rate on medians and on
 * means, cpu_us_per_op, idle_rss_kb, load_rss_kb) and, given --apply's
 * items, translates each one:
 *   a rate (int/s, qps, ...)   divided by the median rate factor, its
 *                              interval from the factor's (to / ci_hi, to / ci_lo)
 *   a time (ms, us, s, ...)    multiplied by the median rate factor
 *   a memory size (kB, MiB)    multiplied by the median loaded-RSS factor
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

struct translate_figure {
	char name[32];      /* "rate", "cpu_per_op", "idle_rss", "load_rss" */
	char statistic[16]; /* "median" or "mean" */
	bool measured;
	struct summary from, to;
	double factor;
	bool has_ci;
	double ci_lo, ci_hi;
	double range_lo, range_hi;
	char rule[96];  /* how to apply it */
	char words[160];
};

/* Values of one figure for both arms (NaN entries are skipped). */
struct translate_input {
	const char *name;
	const double *from;
	size_t nfrom;
	const double *to;
	size_t nto;
	bool to_over_from; /* factor = to / from (cpu, memory) instead of from / to */
};

int translate_figure(const struct translate_input *in, const char *statistic, uint64_t seed,
		     const char *from_name, const char *to_name, struct translate_figure *out);

/* Unit kinds for --apply. */
enum unit_kind { UNIT_RATE, UNIT_TIME, UNIT_MEMORY, UNIT_UNKNOWN };
enum unit_kind translate_unit_kind(const char *unit);
/* "rate", "time", "memory" (NULL for UNIT_UNKNOWN). */
const char *translate_kind_name(enum unit_kind kind);

/* The five figures, in this order. */
enum {
	TRANSLATE_RATE,      /* rate, median */
	TRANSLATE_RATE_MEAN, /* rate, mean */
	TRANSLATE_CPU,       /* cpu_us_per_op, median */
	TRANSLATE_IDLE,      /* idle_rss_kb, median */
	TRANSLATE_LOAD,      /* load_rss_kb, median */
	TRANSLATE_NFIGS
};

/*
 * One figure to translate, as read from a table (cli/ reads --apply's
 * file): its name (NULL when the table has none), its value as written,
 * its unit, and where they are (file line, 1-based value and unit columns)
 * so errors can name the place.
 */
struct translate_item {
	const char *name;
	const char *value;
	const char *unit;
	long line;
	long value_col, unit_col;
};

/* An item translated: its value read, its kind, the factor used and the result. */
struct translate_applied {
	const char *name; /* the item's (NULL when none) */
	const char *unit;
	double value;
	enum unit_kind kind;
	double factor;
	double translated, lo, hi; /* lo <= hi */
};

/*
 * Translate n items with figs (TRANSLATE_NFIGS of them) into out[0..n).
 * A value that is not a number or an unknown unit is an error naming
 * display:line:col; a kind whose factor was not measured is an error.
 */
int translate_apply(const struct translate_figure *figs, const struct translate_item *items,
		    size_t n, const char *display, struct translate_applied *out);

/* What `coreplan translate` asks. */
struct translate_request {
	const struct run_filter *filter; /* the common filter both arms start from */
	const char *from, *to;           /* each arm's conditions ("subcorpus=m1") */
	const char *metric;              /* NULL: tput */
	uint64_t seed;
	const struct translate_item *items; /* --apply's figures, or NULL */
	size_t nitems;
	const char *items_path; /* where they were read, for messages */
};

struct translate_arm {
	struct run_filter filter;
	struct selection sel;
	char name[96]; /* the runs' common cpu_family, else the arm's conditions */
};

struct translate_result {
	struct translate_arm from, to;
	struct translate_figure figs[TRANSLATE_NFIGS];
	/*
	 * A factor quoted elsewhere between mixed_lo and mixed_hi mixed the
	 * statistics: mean(from) / median(to) and median(from) / mean(to) of the
	 * rate (has_mixed when the rate was measured); mixed_lo_mean_first says
	 * mixed_lo is the first of the two.
	 */
	bool has_mixed;
	double mixed_lo, mixed_hi;
	bool mixed_lo_mean_first;
	struct translate_applied *applied; /* one per request item */
	size_t napplied;
};

/* An arm without runs is an error naming its conditions. */
int translate_run(sqlite3 *db, const struct translate_request *req, struct translate_result *out);
void translate_result_release(struct translate_result *r);

#endif
