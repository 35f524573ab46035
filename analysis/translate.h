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
 */
#ifndef COREPLAN_TRANSLATE_H
#define COREPLAN_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
