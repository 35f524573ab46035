/*
 * noise_order: the order rule of analysis/noise.h (counterbalancing: each
 * factor's values in time order within blocks, and the verdict on it),
 * and the helpers noise.c shares with it. Internal to noise.c and
 * noise_order.c.
 */
#ifndef COREPLAN_NOISE_ORDER_H
#define COREPLAN_NOISE_ORDER_H

#include "noise.h"

/* Append one zeroed element to a growing array (NULL: out of memory, err_set). */
void *noise_push(void *array_ptr, size_t *count, size_t size);

/* When a run started and when its measured window ended (Unix seconds). */
struct run_time {
	bool has_start;
	double start, end;
};
int noise_run_times(const struct selection *sel, int duration_extra, struct run_time **out);
/* Indices of sel's runs for which keep[i], in time order (results-table order if untimed). */
int noise_time_order(const struct selection *sel, const struct run_time *t, const bool *keep,
		     size_t **out, size_t *n, bool *timed);
/* A run's block, "NA" when it has none. */
const char *noise_block_of(const struct sel_run *run);

/*
 * One stratum of a factor: its runs in time order and each run's value of
 * the factor (parallel arrays).
 */
struct stratum {
	const char *factor;
	bool is_level;
	const char *name;
	const size_t *runs;
	const char *const *values;
	size_t n;
	bool timed;
};
/* The orders of one stratum, block by block (appended to nz->orders). */
int noise_stratum_orders(struct noise *nz, const struct selection *sel, const struct run_time *t,
			 const struct stratum *st);
/* The balance of the orders from index first on: *balance, *note (allocated). */
int noise_judge_orders(const struct noise *nz, size_t first, const char *label,
		       const char **balance, char **note);
/* Fold one stratum's balance into the factor's (the worst stratum wins). */
int noise_combine_balance(struct noise_factor *f, const char *stratum, size_t nstrata,
			  const char *balance, const char *note);
/* The level's and every group field's counterbalancing (nz->factors, nz->counterbalanced). */
int noise_factors(struct noise *nz, const struct selection *sel, const struct run_time *t);

#endif
