/*
 * size: which instance meets a throughput target, counted in physical
 * cores (coreplan size).
 *
 * For each catalog instance (importers/catalog.h), with P its sustained
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
 * The cheapest instance that meets the target is marked.
 */
#ifndef COREPLAN_SIZE_H
#define COREPLAN_SIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "../importers/catalog.h"

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

int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows);

#endif
