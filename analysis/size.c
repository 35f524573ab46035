/* size: see size.h. */
#include "size.h"

#include "../common/err.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double scale(double cores, double per_doubling)
{
	return cores >= 1.0 ? pow(per_doubling, log2(cores)) : cores;
}

static const struct size_translation *find_translation(const struct size_inputs *in,
							const char *family)
{
	for (size_t i = 0; i < in->ntranslations; i++)
		if (!strcmp(in->translations[i].family, family))
			return &in->translations[i];
	return NULL;
}

static void predict(const struct size_inputs *in, struct size_row *row)
{
	const struct instance *inst = row->inst;
	double keep = 1.0 - in->headroom_pct / 100.0;
	double smt = inst->threads_per_core == 2 ? in->smt.value : 1.0;
	double smt_lo = inst->threads_per_core == 2 ? in->smt.lo : 1.0;
	double smt_hi = inst->threads_per_core == 2 ? in->smt.hi : 1.0;
	double base = in->base.value, base_lo = in->base.lo, base_hi = in->base.hi;
	double p = inst->sustained_cores;
	if (strcmp(inst->cpu_family, in->base_family)) {
		const struct size_translation *t = find_translation(in, inst->cpu_family);
		if (!t)
			return; /* unmeasured CPU */
		row->translated = true;
		row->translation_factor = t->factor;
		base /= t->factor;
		base_lo /= t->factor;
		base_hi /= t->factor;
	}
	row->predicted_ok = true;
	row->predicted = base * scale(p, in->per_doubling.value) * smt * keep;
	row->predicted_lo = base_lo * scale(p, p >= 1 ? in->per_doubling.lo : 1) * smt_lo * keep;
	row->predicted_hi = base_hi * scale(p, p >= 1 ? in->per_doubling.hi : 1) * smt_hi * keep;
	row->shared_core = inst->sustained_vcpu_fraction < 1.0;
	if (row->shared_core)
		row->burst = base * scale(inst->physical_cores, in->per_doubling.value) * smt;
	row->extrapolated = in->max_measured_cores > 0 && p > in->max_measured_cores;
}

static void judge(const struct size_inputs *in, struct size_row *row)
{
	row->shortfall = row->cost_per_1k = NAN;
	if (!row->predicted_ok) {
		row->verdict = "unmeasured CPU";
		return;
	}
	row->shortfall = in->target / row->predicted;
	row->cost_per_1k = row->predicted > 0 ? row->inst->price_per_hour * 1000.0 / row->predicted
					      : NAN;
	if (!isnan(row->memory_needed_gib) && row->memory_needed_gib > row->inst->memory_gib)
		row->verdict = "memory-bound";
	else
		row->verdict = row->predicted >= in->target ? "meets" : "short";
}

int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows)
{
	struct size_row *out;
	size_t cheapest = SIZE_MAX;
	*rows = NULL;
	if (!in->base.known || !(in->base.value > 0))
		return err_usage("no base rate: give --base-from WHERE or --base-rate R --base-cpu "
				 "FAMILY");
	if (!in->per_doubling.known)
		return err_usage("no scaling across cores: give --scaling-from WHERE or "
				 "--per-doubling F");
	if (!(in->target > 0))
		return err_usage("--target must be a rate above 0");
	out = calloc(cat->n ? cat->n : 1, sizeof(*out));
	if (!out)
		return err_set("out of memory");
	for (size_t i = 0; i < cat->n; i++) {
		struct size_row *row = &out[i];
		row->inst = &cat->items[i];
		row->burst = row->predicted = row->predicted_lo = row->predicted_hi = NAN;
		row->translation_factor = NAN;
		row->memory_needed_gib = NAN;
		if (in->has_sessions && in->mem_per_session_kb.known && in->mem_fixed_kb.known)
			row->memory_needed_gib = (in->mem_fixed_kb.value +
						  in->mem_per_session_kb.value * in->sessions) /
						 (1024.0 * 1024.0);
		predict(in, row);
		judge(in, row);
		if (!strcmp(row->verdict, "meets") &&
		    (cheapest == SIZE_MAX ||
		     row->inst->price_per_hour < out[cheapest].inst->price_per_hour))
			cheapest = i;
	}
	if (cheapest != SIZE_MAX)
		out[cheapest].cheapest = true;
	*rows = out;
	return 0;
}
