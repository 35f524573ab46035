/*
 * translate_internal: what translate.c (kinds, factors, --apply) shares
 * with translate_run.c (the arms read from the database). Private to the
 * translate module: other modules include translate.h.
 */
#ifndef COREPLAN_TRANSLATE_INTERNAL_H
#define COREPLAN_TRANSLATE_INTERNAL_H

#include "translate.h"

/*
 * A factor of `kind` with nothing measured yet: every figure NaN, its
 * statistic ("median", "OLS slope"), its measure `measure` (NULL: the
 * kind's own, "p50_ms"), no words.
 */
void translate_factor_begin(struct translate_factor *f, enum translate_kind kind,
			    const char *measure);

/* The smallest and largest of x[0..n) (+inf and -inf when n is 0). */
double translate_min_of(const double *x, size_t n);
double translate_max_of(const double *x, size_t n);

#endif
