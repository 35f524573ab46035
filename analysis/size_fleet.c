/* size_fleet: N x one instance for horizontal scale-out (size.h, size_fleets); no database. */
#include "size.h"

#include "../common/err.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define KB_PER_GIB (1024.0 * 1024.0)

/* One instance's memory at `sessions` (GiB), NaN without the memory inputs. */
static double memory_at(const struct size_inputs *in, double sessions)
{
	if (!in->mem_per_session_kb.known || !in->mem_fixed_kb.known || isnan(sessions))
		return NAN;
	return (in->mem_fixed_kb.value + in->mem_per_session_kb.value * sessions) / KB_PER_GIB +
	       (in->colocated_kb.known ? in->colocated_kb.value / KB_PER_GIB : 0.0) +
	       in->os_reserve_mib / 1024.0;
}

/* One instance's capacity at n's share of the sessions (headroom kept, calibrated bounds). */
static void share_capacity(const struct size_inputs *in, const struct size_row *r,
			   const struct size_calibration *k, double sessions,
			   struct size_sessions_at *at, double c[3])
{
	double keep = 1.0 - in->headroom_pct / 100.0;
	if (isnan(sessions))
		*at = (struct size_sessions_at){1.0, 1.0, 1.0, NAN, 0.0};
	else
		size_sessions_factor(&in->curve, sessions, at);
	c[0] = r->core_capacity * at->factor * keep;
	c[1] = r->core_capacity_lo * at->lo * keep;
	c[2] = r->core_capacity_hi * at->hi * keep;
	if (k->n) {
		c[1] *= fmin(1.0, k->min);
		c[2] *= fmax(1.0, k->max);
	}
}

/* The fleet of one row: the three counts, and the figures at n. */
static void count_fleet(const struct size_inputs *in, const struct size_row *r,
			const struct size_calibration *k, struct size_fleet *f)
{
	bool given = in->asked && in->asked->given;
	double total = given ? in->asked->largest : NAN, c[3];
	bool fitted_once = false;
	memset(f, 0, sizeof(*f));
	f->sessions_each = f->capacity = f->capacity_lo = f->capacity_hi = NAN;
	f->total_lo = f->memory_each_gib = f->cost_per_hour = f->cost_central = NAN;
	if (!r->predicted_ok) {
		f->why = "no prediction (unmeasured CPU)";
		return;
	}
	for (size_t n = 1; n <= SIZE_FLEET_MAX && !f->n; n++) {
		/* sessions are whole: an instance's share is rounded up */
		double each = given ? ceil(total / (double)n) : NAN, mem = memory_at(in, each);
		struct size_sessions_at at;
		if (!isnan(mem) && mem > r->inst->memory_gib)
			continue; /* memory-bound at this share: more instances */
		fitted_once = true;
		share_capacity(in, r, k, each, &at, c);
		if (!f->n_optimistic && (double)n * c[2] >= in->target)
			f->n_optimistic = n;
		if (!f->n_central && (double)n * c[0] >= in->target)
			f->n_central = n;
		if ((double)n * c[1] >= in->target) {
			f->n = n;
			f->sessions_each = each;
			f->sessions_at = at;
			f->capacity = c[0];
			f->capacity_lo = c[1];
			f->capacity_hi = c[2];
			f->total_lo = (double)n * c[1];
			f->memory_each_gib = mem;
		}
		if (!(c[1] > 0) && !(c[0] > 0) && !(c[2] > 0))
			break; /* no capacity at all: no count of them meets it */
	}
	if (!f->n) {
		f->why =
			!fitted_once ? "memory-bound at every share up to the largest fleet counted"
			: f->n_central ? "its lower bound meets the target at no fleet size counted"
				       : "no fleet size counted meets the target";
		return;
	}
	f->cost_per_hour = (double)f->n * r->inst->price_per_hour;
	f->cost_central = f->n_central ? (double)f->n_central * r->inst->price_per_hour : NAN;
}

int size_fleets(const struct size_inputs *in, const struct size_row *rows, size_t nrows,
		const struct size_calibration *calibration, struct size_fleet *out, size_t *nfleets,
		size_t *cheapest)
{
	size_t best = SIZE_MAX;
	*cheapest = *nfleets;
	for (size_t i = 0; i < *nfleets; i++) {
		struct size_fleet *f = &out[i];
		size_t row = f->row;
		if (row >= nrows)
			return err_set("a fleet names row %zu of %zu", row, nrows);
		count_fleet(in, &rows[row], &calibration[rows[row].group], f);
		f->row = row;
		if (f->n && (best == SIZE_MAX || f->cost_per_hour < out[best].cost_per_hour ||
			     (f->cost_per_hour == out[best].cost_per_hour && f->n < out[best].n)))
			best = i;
	}
	if (best != SIZE_MAX) {
		out[best].cheapest = true;
		*cheapest = best;
	}
	return 0;
}
