/* noise_lookups: rows of a struct noise by key, for the noise tests. */
#ifndef COREPLAN_TESTS_NOISE_LOOKUPS_H
#define COREPLAN_TESTS_NOISE_LOOKUPS_H

#include "analysis_rows.h"

#include "analysis/noise.h"

static inline const struct noise_cell *cell_of(const struct noise *nz, const char *group,
					       double level, const char *block)
{
	for (size_t i = 0; i < nz->ncells; i++)
		if (!strcmp(nz->cells[i].group, group) && nz->cells[i].level == level &&
		    !strcmp(nz->cells[i].block, block))
			return &nz->cells[i];
	fail_msg("no cell (%s, %g, %s)", group, level, block);
	return NULL;
}

static inline const struct noise_level *nlevel_of(const struct noise *nz, const char *group,
						  double level)
{
	for (size_t i = 0; i < nz->nlevels; i++)
		if (!strcmp(nz->levels[i].group, group) && nz->levels[i].level == level)
			return &nz->levels[i];
	fail_msg("no level (%s, %g)", group, level);
	return NULL;
}

/* The level's order in one block of one group. */
static inline const struct noise_order *order_of(const struct noise *nz, const char *group,
						 const char *block)
{
	for (size_t i = 0; i < nz->norders; i++)
		if (nz->orders[i].is_level && !strcmp(nz->orders[i].group, group) &&
		    !strcmp(nz->orders[i].block, block))
			return &nz->orders[i];
	fail_msg("no order (%s, %s)", group, block);
	return NULL;
}

/* A group field's order in one block of one stratum (the other group fields' values). */
static inline const struct noise_order *field_order_of(const struct noise *nz, const char *factor,
						       const char *stratum, const char *block)
{
	for (size_t i = 0; i < nz->norders; i++)
		if (!nz->orders[i].is_level && !strcmp(nz->orders[i].factor, factor) &&
		    !strcmp(nz->orders[i].group, stratum) && !strcmp(nz->orders[i].block, block))
			return &nz->orders[i];
	fail_msg("no order of %s (%s, %s)", factor, stratum, block);
	return NULL;
}

static inline const struct noise_factor *factor_of(const struct noise *nz, const char *name)
{
	for (size_t i = 0; i < nz->nfactors; i++)
		if (!strcmp(nz->factors[i].name, name))
			return &nz->factors[i];
	fail_msg("no factor %s", name);
	return NULL;
}

static inline const struct noise_step *step_of(const struct noise *nz, const char *group,
					       double from)
{
	for (size_t i = 0; i < nz->nsteps; i++)
		if (!strcmp(nz->steps[i].group, group) && nz->steps[i].from == from)
			return &nz->steps[i];
	fail_msg("no step (%s, from %g)", group, from);
	return NULL;
}

static inline const struct noise_drift *drift_of(const struct noise *nz, const char *block)
{
	for (size_t i = 0; i < nz->ndrifts; i++)
		if (!strcmp(nz->drifts[i].block, block))
			return &nz->drifts[i];
	fail_msg("no drift row for block %s", block);
	return NULL;
}

static inline const struct noise_burst *burst_of(const struct noise *nz, const char *group,
						 double level)
{
	for (size_t i = 0; i < nz->nbursts; i++)
		if (!strcmp(nz->bursts[i].group, group) && nz->bursts[i].level == level)
			return &nz->bursts[i];
	fail_msg("no burst row (%s, %g)", group, level);
	return NULL;
}

static inline const struct noise_verdict *verdict_of(const struct noise *nz, const char *group)
{
	for (size_t i = 0; i < nz->nverdicts; i++)
		if (!strcmp(nz->verdicts[i].group, group))
			return &nz->verdicts[i];
	fail_msg("no verdict for group '%s'", group);
	return NULL;
}

#endif
