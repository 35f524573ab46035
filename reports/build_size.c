/* build_size: the document of `coreplan size` (builders.h). */
#include "build_size_parts.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the instances view: one row per catalog instance ---- */

enum {
	I_INSTANCE,
	I_VCPUS,
	I_THREADS,
	I_PHYSICAL,
	I_SUSTAINED,
	I_PREDICTED,
	I_PREDICTED_LOW,
	I_PREDICTED_HIGH,
	I_CALIBRATED_LOW,
	I_CALIBRATED_HIGH,
	I_CALIBRATION,
	I_SESSIONS_FACTOR,
	I_SESSIONS_AT,
	I_CORES_BEYOND,
	I_SESSIONS_BEYOND,
	I_MEMORY_BEYOND,
	I_VERDICT,
	I_BASIS,
	I_SHORTFALL,
	I_MEASURED_AT,
	I_MEASURED_N,
	I_MEASURED_MEDIAN,
	I_MEASURED_MIN,
	I_MEASURED_MAX,
	I_MEASURED_SHORTFALL,
	I_CHECK,
	I_CHECK_RATIO,
	I_MEMORY_NEEDED,
	I_MEMORY_APP,
	I_MEMORY_COLOCATED,
	I_MEMORY_OS,
	I_MEMORY,
	I_PRICE,
	I_COST,
	I_FLAGS,
	I_PRICE_DATE,
	NINSTANCE_COLS
};

/* "dedicated: 3 cells of 1 instance, measured / predicted 0.916 (0.90-0.93)" or "uncalibrated:
 * ...". */
static void calibration_text(const struct size_result *res, const struct size_row *r, char *buf,
			     size_t len)
{
	const struct size_calibration *k = &res->calibration[r->group];
	if (k->n == 0)
		snprintf(buf, len, "uncalibrated: no eligible measured cell of a %s instance",
			 size_group_name(r->group));
	else
		snprintf(buf, len,
			 "%s: %zu cell%s of %zu instance%s, measured / predicted %.3f (%.3f-%.3f)",
			 size_group_name(r->group), k->n, k->n == 1 ? "" : "s", k->instances,
			 k->instances == 1 ? "" : "s", k->median, k->min, k->max);
}

/* Append one flag ("; "-separated) to the flags text. */
static void flag(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void flag(struct strbuf *sb, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	strbuf_addf(sb, "%s%s", sb->len ? "; " : "", text);
}

/* The extrapolations: cores, sessions, memory, each with how far. */
static void beyond_flags(const struct size_result *res, const struct size_row *r, struct strbuf *sb)
{
	const struct size_inputs *in = &res->in;
	if (r->extrapolated)
		flag(sb, "extrapolated: %g physical cores, %.2fx the largest fitted (%g)",
		     r->inst->sustained_cores, r->cores_beyond, in->max_measured_cores);
	if (r->sessions_beyond > 1)
		flag(sb, "sessions extrapolated: %g, %.2fx the largest measured (%g)",
		     in->asked->largest, r->sessions_beyond,
		     in->curve.n ? in->curve.sessions[in->curve.n - 1] : in->cpu_sessions_max);
	else if (r->sessions_beyond > 0)
		flag(sb, "sessions below the measured range: %.2fx its smallest count",
		     r->sessions_beyond);
	if (r->memory_beyond > 1)
		flag(sb,
		     "memory extrapolated: %g sessions, %.2fx the largest the slope was fitted at "
		     "(%g)",
		     in->asked->largest, r->memory_beyond, in->mem_sessions_max);
}

/* "CHEAPEST; extrapolated ...; translated (factor F); shared-core: ...; measured ...", or NULL. */
static char *flags_text(const struct size_result *res, const struct size_row *r)
{
	const struct size_inputs *in = &res->in;
	const struct size_translation *t = r->translation;
	struct strbuf sb = STRBUF_INIT;
	if (r->cheapest)
		flag(&sb, "CHEAPEST");
	beyond_flags(res, r, &sb);
	if (r->translated && t && t->measured)
		flag(&sb,
		     "translated%s (factor %.4f, 95%% interval %.4f-%.4f, measured from %s to %s)",
		     r->platform_translated ? " to another platform" : "", r->translation_factor,
		     t->lo, t->hi, t->from_name, t->to_name);
	else if (r->translated)
		flag(&sb, "translated%s (factor %g)",
		     r->platform_translated ? " to another platform" : "", r->translation_factor);
	if (r->shared_core)
		flag(&sb, "shared-core: sustained share; burst %.0f not sustained", r->burst);
	if (r->other_platform)
		flag(&sb,
		     "other platform: sized for %s (%s), the base rate measured on %s, no factor",
		     in->platform, size_basis_name(in->platform_basis), in->base_platform);
	if (r->other_store)
		flag(&sb,
		     "other store: sized for %s (%s), the base rate measured with %s, no factor",
		     in->store, size_basis_name(in->store_basis), in->base_store);
	if (r->store_factored)
		flag(&sb, "store factor %.3f (%s over %s)", in->store_factor.value, in->store,
		     in->base_store);
	if (r->predicted_ok && r->inst->threads_per_core == 2 && in->smt_basis == SIZE_ASSUMED)
		flag(&sb, "SMT assumed 1.0 (not measured)");
	if (r->predicted_ok && !r->calibrated)
		flag(&sb, "uncalibrated");
	if (r->loo_miss)
		flag(&sb, "a measured cell outside its leave-one-out bounds");
	if (r->measured_below)
		flag(&sb, "measured below prediction");
	if (r->measured_above)
		flag(&sb, "measured above prediction");
	return sb.buf ? strbuf_detach(&sb) : NULL;
}

/* "cfg=pg at 500 sessions" */
static void cell_where(const struct size_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%g sessions", c->group, c->group[0] ? " at " : "", c->sessions);
}

static void instances_table(struct doc_section *s, const struct size_result *res)
{
	const char *mu = field_unit(res->metric);
	/* each column from the instance (in), its row (r) or the cell its verdict rests on (c) */
	const struct doc_field cols[NINSTANCE_COLS] = {
		[I_INSTANCE] = DOC_TEXT_OF("instance", struct instance, instance),
		[I_VCPUS] = DOC_INT_OF("vcpus", "vCPUs", struct instance, vcpus),
		[I_THREADS] = DOC_INT_OF("threads_per_core", "threads", struct instance,
					 threads_per_core),
		[I_PHYSICAL] = DOC_REAL_OF("physical_cores", "cores", 'g', 4, struct instance,
					   physical_cores),
		[I_SUSTAINED] = DOC_REAL_OF("sustained_cores", "cores", 'g', 4, struct instance,
					    sustained_cores),
		[I_PREDICTED] = DOC_REAL_OF("predicted", mu, 'f', 0, struct size_row, predicted),
		[I_PREDICTED_LOW] =
			DOC_REAL_OF("predicted_low", mu, 'f', 0, struct size_row, predicted_lo),
		[I_PREDICTED_HIGH] =
			DOC_REAL_OF("predicted_high", mu, 'f', 0, struct size_row, predicted_hi),
		[I_CALIBRATED_LOW] =
			DOC_REAL_OF("calibrated_low", mu, 'f', 0, struct size_row, calibrated_lo),
		[I_CALIBRATED_HIGH] =
			DOC_REAL_OF("calibrated_high", mu, 'f', 0, struct size_row, calibrated_hi),
		[I_CALIBRATION] = DOC_FIELD_NONE(DOC_COL_TEXT("calibration")),
		[I_SESSIONS_FACTOR] = DOC_REAL_OF("sessions_factor", "x", 'f', 3, struct size_row,
						  sessions_at.factor),
		[I_SESSIONS_AT] = DOC_REAL_OF("sessions_factor_at", "sessions", 'g', 6,
					      struct size_row, sessions_at.at),
		[I_CORES_BEYOND] = DOC_FIELD_NONE(DOC_COL_REAL("cores_beyond", "x", 'f', 2)),
		[I_SESSIONS_BEYOND] = DOC_FIELD_NONE(DOC_COL_REAL("sessions_beyond", "x", 'f', 2)),
		[I_MEMORY_BEYOND] = DOC_FIELD_NONE(DOC_COL_REAL("memory_beyond", "x", 'f', 2)),
		[I_VERDICT] = DOC_TEXT_OF("verdict", struct size_row, verdict),
		[I_BASIS] = DOC_TEXT_OF("verdict_basis", struct size_row, basis),
		[I_SHORTFALL] = DOC_REAL_OF("shortfall", "x", 'f', 2, struct size_row, shortfall),
		[I_MEASURED_AT] = DOC_FIELD_NONE(DOC_COL_TEXT("measured_at")),
		[I_MEASURED_N] = DOC_INT_OF("measured_n", "runs", struct size_cell, n),
		[I_MEASURED_MEDIAN] =
			DOC_REAL_OF("measured_median", mu, 'f', 1, struct size_cell, s.median),
		[I_MEASURED_MIN] = DOC_REAL_OF("measured_min", mu, 'f', 1, struct size_cell, s.min),
		[I_MEASURED_MAX] = DOC_REAL_OF("measured_max", mu, 'f', 1, struct size_cell, s.max),
		[I_MEASURED_SHORTFALL] =
			DOC_REAL_OF("measured_shortfall", "x", 'f', 2, struct size_cell, shortfall),
		[I_CHECK] = DOC_TEXT_OF("model_check", struct size_cell, check),
		[I_CHECK_RATIO] =
			DOC_REAL_OF("model_ratio", "x", 'f', 3, struct size_cell, check_ratio),
		[I_MEMORY_NEEDED] = DOC_REAL_OF("memory_needed_gib", "GiB", 'f', 2, struct size_row,
						memory_needed_gib),
		[I_MEMORY_APP] = DOC_REAL_OF("memory_app_gib", "GiB", 'f', 2, struct size_row,
					     memory_app_gib),
		[I_MEMORY_COLOCATED] = DOC_REAL_OF("memory_colocated_gib", "GiB", 'f', 2,
						   struct size_row, memory_colocated_gib),
		[I_MEMORY_OS] =
			DOC_REAL_OF("memory_os_gib", "GiB", 'f', 2, struct size_row, memory_os_gib),
		[I_MEMORY] = DOC_REAL_OF("memory_gib", "GiB", 'g', 5, struct instance, memory_gib),
		[I_PRICE] = DOC_REAL_OF("price_per_hour", "USD/h", 'g', 6, struct instance,
					price_per_hour),
		[I_COST] =
			DOC_REAL_OF("cost_per_1k", "USD/h", 'f', 4, struct size_row, cost_per_1k),
		[I_FLAGS] = DOC_FIELD_NONE(DOC_COL_TEXT("flags")),
		[I_PRICE_DATE] = DOC_TEXT_OF("price_date", struct instance, price_date),
	};
	struct doc_table *t = doc_table_of(s, cols, NINSTANCE_COLS);
	char *flags, where[320];
	doc_table_hide_empty(t);
	doc_table_empty_text(t, res->listing
					? "--list-families: nothing sized"
					: "no instance in the catalogs (of the series asked for)");
	for (size_t i = 0; !res->listing && i < res->cat.n; i++) {
		const struct size_row *r = &res->rows[i];
		const struct instance *in = r->inst;
		doc_row(t);
		doc_set_fields(t, cols, I_INSTANCE, I_PREDICTED, in);
		doc_set_fields(t, cols, I_PREDICTED, I_CALIBRATION, r);
		if (r->predicted_ok) {
			calibration_text(res, r, where, sizeof(where));
			doc_set_text(t, I_CALIBRATION, where);
		}
		if (r->predicted_ok && res->in.curve.n)
			doc_set_fields(t, cols, I_SESSIONS_FACTOR, I_CORES_BEYOND, r);
		if (r->cores_beyond > 0)
			doc_set_real(t, I_CORES_BEYOND, r->cores_beyond);
		if (r->sessions_beyond > 0)
			doc_set_real(t, I_SESSIONS_BEYOND, r->sessions_beyond);
		if (r->memory_beyond > 0)
			doc_set_real(t, I_MEMORY_BEYOND, r->memory_beyond);
		doc_set_fields(t, cols, I_VERDICT, I_MEASURED_AT, r);
		if (r->worst < res->ncells) {
			const struct size_cell *c = &res->cells[r->worst];
			cell_where(c, where, sizeof(where));
			doc_set_text(t, I_MEASURED_AT, where);
			doc_set_fields(t, cols, I_MEASURED_N, I_MEMORY_NEEDED, c);
		}
		doc_set_fields(t, cols, I_MEMORY_NEEDED, I_MEMORY, r);
		doc_set_fields(t, cols, I_MEMORY, I_COST, in);
		doc_set_fields(t, cols, I_COST, I_FLAGS, r);
		if ((flags = flags_text(res, r)) != NULL)
			doc_set_text(t, I_FLAGS, flags);
		free(flags);
		doc_set_fields(t, cols, I_PRICE_DATE, NINSTANCE_COLS, in);
	}
}

/* ---- the fleets view: N x instance for horizontal scale-out ---- */

enum {
	L_INSTANCE,
	L_N,
	L_N_CENTRAL,
	L_N_OPTIMISTIC,
	L_SESSIONS_EACH,
	L_SESSIONS_FACTOR,
	L_SESSIONS_AT,
	L_CAPACITY,
	L_CAPACITY_LOW,
	L_CAPACITY_HIGH,
	L_TOTAL_LOW,
	L_MEMORY_EACH,
	L_MEMORY,
	L_PRICE,
	L_COST,
	L_COST_CENTRAL,
	L_CHEAPEST,
	L_WHY,
	L_FLAGS,
	NFLEET_COLS
};

static void fleets_table(struct doc_section *s, const struct size_result *res)
{
	const char *mu = field_unit(res->metric);
	/* each column from the fleet (f) but the instance's own (r->inst) and the counts set */
	const struct doc_field cols[NFLEET_COLS] = {
		[L_INSTANCE] = DOC_TEXT_OF("instance", struct instance, instance),
		[L_N] = DOC_FIELD_NONE(DOC_COL_INT("n", "instances")),
		[L_N_CENTRAL] = DOC_FIELD_NONE(DOC_COL_INT("n_central", "instances")),
		[L_N_OPTIMISTIC] = DOC_FIELD_NONE(DOC_COL_INT("n_optimistic", "instances")),
		[L_SESSIONS_EACH] = DOC_REAL_OF("sessions_each", "sessions", 'g', 10,
						struct size_fleet, sessions_each),
		[L_SESSIONS_FACTOR] = DOC_REAL_OF("sessions_factor", "x", 'f', 3, struct size_fleet,
						  sessions_at.factor),
		[L_SESSIONS_AT] = DOC_REAL_OF("sessions_factor_at", "sessions", 'g', 6,
					      struct size_fleet, sessions_at.at),
		[L_CAPACITY] =
			DOC_REAL_OF("capacity_each", mu, 'f', 0, struct size_fleet, capacity),
		[L_CAPACITY_LOW] = DOC_REAL_OF("capacity_each_low", mu, 'f', 0, struct size_fleet,
					       capacity_lo),
		[L_CAPACITY_HIGH] = DOC_REAL_OF("capacity_each_high", mu, 'f', 0, struct size_fleet,
						capacity_hi),
		[L_TOTAL_LOW] = DOC_REAL_OF("total_low", mu, 'f', 0, struct size_fleet, total_lo),
		[L_MEMORY_EACH] = DOC_REAL_OF("memory_each_gib", "GiB", 'f', 2, struct size_fleet,
					      memory_each_gib),
		[L_MEMORY] = DOC_REAL_OF("memory_gib", "GiB", 'g', 5, struct instance, memory_gib),
		[L_PRICE] = DOC_REAL_OF("price_per_hour", "USD/h", 'g', 6, struct instance,
					price_per_hour),
		[L_COST] = DOC_REAL_OF("cost_per_hour", "USD/h", 'f', 4, struct size_fleet,
				       cost_per_hour),
		[L_COST_CENTRAL] = DOC_REAL_OF("cost_central", "USD/h", 'f', 4, struct size_fleet,
					       cost_central),
		[L_CHEAPEST] = DOC_BOOL_OF("cheapest", struct size_fleet, cheapest),
		[L_WHY] = DOC_TEXT_OF("why_none", struct size_fleet, why),
		[L_FLAGS] = DOC_FIELD_NONE(DOC_COL_TEXT("flags")),
	};
	struct doc_table *t = doc_table_of(s, cols, NFLEET_COLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, res->listing
					? "--list-families: nothing sized"
					: "no instance in the catalogs (of the series asked for)");
	for (size_t i = 0; !res->listing && i < res->nfleets; i++) {
		const struct size_fleet *f = &res->fleets[i];
		const struct size_row *r = &res->rows[f->row];
		struct strbuf sb = STRBUF_INIT;
		doc_row(t);
		doc_set_fields(t, cols, L_INSTANCE, L_N, r->inst);
		doc_set_fields(t, cols, L_MEMORY, L_COST, r->inst);
		doc_set_fields(t, cols, L_COST_CENTRAL, L_FLAGS, f);
		if (f->n_central)
			doc_set_int(t, L_N_CENTRAL, (int64_t)f->n_central);
		if (f->n_optimistic)
			doc_set_int(t, L_N_OPTIMISTIC, (int64_t)f->n_optimistic);
		if (!f->n)
			continue;
		doc_set_int(t, L_N, (int64_t)f->n);
		doc_set_fields(t, cols, L_SESSIONS_EACH, L_SESSIONS_FACTOR, f);
		if (res->in.curve.n)
			doc_set_fields(t, cols, L_SESSIONS_FACTOR, L_CAPACITY, f);
		doc_set_fields(t, cols, L_CAPACITY, L_MEMORY, f);
		doc_set_fields(t, cols, L_COST, L_COST_CENTRAL, f);
		if (f->cheapest)
			flag(&sb, "CHEAPEST FLEET");
		if (r->extrapolated)
			flag(&sb, "extrapolated: %g physical cores, %.2fx the largest fitted",
			     r->inst->sustained_cores, r->cores_beyond);
		if (f->sessions_at.beyond > 1)
			flag(&sb, "sessions each extrapolated: %.2fx the largest measured",
			     f->sessions_at.beyond);
		else if (f->sessions_at.beyond > 0)
			flag(&sb, "sessions each below the measured range: taken at %g",
			     f->sessions_at.at);
		if (r->translated)
			flag(&sb, "translated (factor %.4f)", r->translation_factor);
		if (r->other_platform)
			flag(&sb, "other platform (base: %s)", res->in.base_platform);
		if (r->other_store)
			flag(&sb, "other store (base: %s)", res->in.base_store);
		if (!r->calibrated)
			flag(&sb, "uncalibrated");
		if (sb.len)
			doc_set_text(t, L_FLAGS, strbuf_str(&sb));
		strbuf_release(&sb);
	}
}

/* The shared-nothing assumption, and what the corpus measured of it (a note and facts). */
static void shared_nothing(struct doc *d, struct doc_section *s, const struct size_result *res)
{
	const struct size_sharding *x = &res->sharding;
	const struct size_fleet *c =
		res->cheapest_fleet < res->nfleets ? &res->fleets[res->cheapest_fleet] : NULL;
	char text[1024];
	if (x->known)
		snprintf(text, sizeof(text),
			 "fleets assume shared-nothing scale-out: N instances serve N x one "
			 "instance's capacity at its share of the sessions (nothing shared between "
			 "them: no common database, lock or cache). What the corpus measured of "
			 "it: %s reached %.2fx one single-thread process (%.2f-%.2f, %zu runs, %s) "
			 "against a hardware ceiling of %.2fx (physical cores x the SMT factor): "
			 "%.0f%% of it, within one box",
			 x->label, x->value, x->lo, x->hi, x->n, x->where, x->ceiling,
			 100.0 * x->value / x->ceiling);
	else
		snprintf(text, sizeof(text),
			 "fleets assume shared-nothing scale-out: N instances serve N x one "
			 "instance's capacity at its share of the sessions (nothing shared between "
			 "them); the runs the SMT factor rests on measure no sharded arm, so the "
			 "assumption is not checked here");
	doc_note(s, "%s", text);
	doc_note(s, "n: the smallest count whose lower bound meets the target (as `meets` needs "
		    "it); n_central and n_optimistic: with the central and the upper capacity; "
		    "each instance sized at ceil(sessions / n), its sessions factor the lower "
		    "neighbour between measured counts");
	doc_fact_text(d, "shared_nothing", "the fleets' assumption, and what was measured of it",
		      DOC_QUIET, text);
	doc_fact_real(d, "sharded_over_ceiling", "the sharded arm's share of the ceiling",
		      DOC_QUIET, x->known ? x->value / x->ceiling : NAN, "x", 'g', 6);
	doc_fact_text(d, "cheapest_fleet", "the cheapest fleet that meets the target", DOC_LISTED,
		      c ? res->rows[c->row].inst->instance : NULL);
	doc_fact_int(d, "cheapest_fleet_n", "its instances (the lower bound meets)", DOC_LISTED,
		     c ? (int64_t)c->n : 0, "instances");
	doc_fact_real(d, "cheapest_fleet_cost", "its cost", DOC_LISTED, c ? c->cost_per_hour : NAN,
		      "USD/h", 'f', 4);
}

/* ---- the measured view: one row per cell (instance, sessions, varying fields) ---- */

enum {
	M_INSTANCE,
	M_SESSIONS,
	M_GROUP,
	M_AT_TARGET,
	M_N,
	M_MEDIAN,
	M_MIN,
	M_MAX,
	M_SHORTFALL,
	M_PREDICTED_LOW,
	M_PREDICTED,
	M_PREDICTED_HIGH,
	M_CHECK,
	M_CHECK_RATIO,
	M_VERDICT,
	M_WORST,
	M_ELIGIBLE,
	M_DECIDES,
	M_WHY_NOT,
	M_ASSUMED,
	M_PLATFORM,
	M_STORE,
	M_WORKERS,
	M_CPUS,
	M_MODEL,
	M_RATIO,
	M_LOO_LOW,
	M_LOO_HIGH,
	M_LOO_CHECK,
	M_LOO_MISS,
	M_LOO_N,
	NMEASURED_COLS
};

static void measured_table(struct doc_section *s, const struct size_result *res)
{
	const char *mu = field_unit(res->metric);
	/* each column from the cell (c) but the predictions, its row's (r) */
	const struct doc_field cols[NMEASURED_COLS] = {
		[M_INSTANCE] = DOC_FIELD_NONE(DOC_COL_TEXT("instance")),
		[M_SESSIONS] =
			DOC_REAL_OF("sessions", "sessions", 'g', 6, struct size_cell, sessions),
		[M_GROUP] = DOC_TEXT_OF("group", struct size_cell, group),
		[M_AT_TARGET] = DOC_BOOL_OF("at_target", struct size_cell, at_target),
		[M_N] = DOC_INT_OF("n", "runs", struct size_cell, n),
		[M_MEDIAN] = DOC_REAL_OF("median", mu, 'f', 1, struct size_cell, s.median),
		[M_MIN] = DOC_REAL_OF("min", mu, 'f', 1, struct size_cell, s.min),
		[M_MAX] = DOC_REAL_OF("max", mu, 'f', 1, struct size_cell, s.max),
		[M_SHORTFALL] = DOC_REAL_OF("shortfall", "x", 'f', 2, struct size_cell, shortfall),
		[M_PREDICTED_LOW] =
			DOC_REAL_OF("predicted_low", mu, 'f', 0, struct size_row, predicted_lo),
		[M_PREDICTED] = DOC_REAL_OF("predicted", mu, 'f', 0, struct size_row, predicted),
		[M_PREDICTED_HIGH] =
			DOC_REAL_OF("predicted_high", mu, 'f', 0, struct size_row, predicted_hi),
		[M_CHECK] = DOC_TEXT_OF("model_check", struct size_cell, check),
		[M_CHECK_RATIO] =
			DOC_REAL_OF("model_ratio", "x", 'f', 3, struct size_cell, check_ratio),
		[M_VERDICT] = DOC_TEXT_OF("verdict", struct size_cell, verdict),
		[M_WORST] = DOC_BOOL_OF("worst", struct size_cell, worst),
		[M_ELIGIBLE] = DOC_BOOL_OF("eligible", struct size_cell, eligible),
		[M_DECIDES] = DOC_BOOL_OF("decides", struct size_cell, decides),
		[M_WHY_NOT] = DOC_TEXT_OF("left_out_because", struct size_cell, why_not),
		[M_ASSUMED] = DOC_TEXT_OF("assumed", struct size_cell, assumed),
		[M_PLATFORM] = DOC_TEXT_OF("platform", struct size_cell, platform),
		[M_STORE] = DOC_TEXT_OF("store", struct size_cell, store),
		[M_WORKERS] = DOC_REAL_OF("workers", "threads", 'g', 6, struct size_cell, workers),
		[M_CPUS] = DOC_FIELD_NONE(DOC_COL_INT("pinned_cpus", "CPUs")),
		[M_MODEL] = DOC_REAL_OF("model", mu, 'f', 0, struct size_cell, model),
		[M_RATIO] =
			DOC_REAL_OF("measured_over_model", "x", 'f', 3, struct size_cell, ratio),
		[M_LOO_LOW] = DOC_REAL_OF("loo_low", mu, 'f', 0, struct size_cell, loo_lo),
		[M_LOO_HIGH] = DOC_REAL_OF("loo_high", mu, 'f', 0, struct size_cell, loo_hi),
		[M_LOO_CHECK] = DOC_TEXT_OF("loo_check", struct size_cell, loo_check),
		[M_LOO_MISS] = DOC_FIELD_NONE(DOC_COL_REAL("loo_miss", "%", 'f', 1)),
		[M_LOO_N] = DOC_INT_OF("loo_cells", "cells", struct size_cell, loo_n),
	};
	struct doc_table *t = doc_table_of(s, cols, NMEASURED_COLS);
	doc_table_empty_text(t, res->listing ? "--list-families: nothing sized"
					     : "no run names a catalog instance (its `instance` "
					       "field) at the session counts asked for");
	for (size_t i = 0; !res->listing && i < res->ncells; i++) {
		const struct size_cell *c = &res->cells[i];
		const struct size_row *r = &res->rows[c->row];
		doc_row(t);
		doc_set_text(t, M_INSTANCE, r->inst->instance);
		/* no run at this count: no median, min or max */
		doc_set_fields(t, cols, M_SESSIONS, c->n ? M_SHORTFALL : M_MEDIAN, c);
		doc_set_fields(t, cols, M_SHORTFALL, M_PREDICTED_LOW, c);
		doc_set_fields(t, cols, M_PREDICTED_LOW, M_CHECK, r);
		doc_set_fields(t, cols, M_CHECK, M_LOO_LOW, c);
		if (c->cpus)
			doc_set_int(t, M_CPUS, (int64_t)c->cpus);
		if (c->loo_check) {
			doc_set_fields(t, cols, M_LOO_LOW, NMEASURED_COLS, c);
			doc_set_real(t, M_LOO_MISS, 100.0 * c->loo_miss);
		}
	}
}

/* Per group: the eligible cells the model's error rests on, and that error (facts). */
static void calibration_facts(struct doc *d, const struct size_result *res)
{
	static const char *const stem[SIZE_NGROUPS] = {"calibration_dedicated",
						       "calibration_shared_core"};
	for (int g = 0; g < SIZE_NGROUPS; g++) {
		const struct size_calibration *k = &res->calibration[g];
		char name[96], label[160];
		snprintf(name, sizeof(name), "%s_cells", stem[g]);
		snprintf(label, sizeof(label), "eligible measured cells of %s instances",
			 size_group_name((enum size_group)g));
		doc_fact_int(d, name, label, DOC_LISTED, (int64_t)k->n, "cells");
		snprintf(name, sizeof(name), "%s_instances", stem[g]);
		snprintf(label, sizeof(label), "%s instances they measured",
			 size_group_name((enum size_group)g));
		doc_fact_int(d, name, label, DOC_QUIET, (int64_t)k->instances, "instances");
		snprintf(name, sizeof(name), "%s_median", stem[g]);
		snprintf(label, sizeof(label), "%s model error: median of measured / predicted",
			 size_group_name((enum size_group)g));
		doc_fact_real(d, name, label, DOC_LISTED, k->median, "x", 'g', 6);
		snprintf(name, sizeof(name), "%s_min", stem[g]);
		snprintf(label, sizeof(label), "%s model error: the smallest ratio",
			 size_group_name((enum size_group)g));
		doc_fact_real(d, name, label, DOC_QUIET, k->min, "x", 'g', 6);
		snprintf(name, sizeof(name), "%s_max", stem[g]);
		snprintf(label, sizeof(label), "%s model error: the largest ratio",
			 size_group_name((enum size_group)g));
		doc_fact_real(d, name, label, DOC_QUIET, k->max, "x", 'g', 6);
	}
}

/* The rule the verdicts follow, in words (a fact). */
#define VERDICT_RULE                                                                               \
	"meets: the lower bound meets the target (calibrated_low: the predicted bounds widened "   \
	"by "                                                                                      \
	"the model's error on the group's eligible measured cells, or the measured minimum when "  \
	"the verdict rests on measurement); marginal: the central value does (predicted, or the "  \
	"measured median), the lower bound does not; short: neither; memory-bound: the memory "    \
	"needed exceeds the instance's; unmeasured CPU: no rate for its CPU family. The eligible " \
	"cells at the session counts asked for decide, the worst one (the least favourable "       \
	"verdict, then the lowest median): capacity planning is conservative"

int build_size(const struct size_request *req, const struct size_result *res,
	       const struct sizing_plot *plot, struct doc **out)
{
	const struct size_inputs *in = &res->in;
	const char *mu = field_unit(res->metric);
	const char *target, *sessions, *headroom;
	bool has_cheapest = res->cheapest < res->cat.n;
	size_t nmeasured = 0;
	struct doc *d = build_doc(out, "size", "");
	struct doc_section *s;
	(void)req;
	if (!d)
		return ERR_DATA;
	if (res->listing) {
		doc_set_title(d, "CPU families and series of the catalogs");
		size_doc_catalogs(d, res);
		s = doc_section(d, "inputs", "Inputs");
		size_doc_inputs(d, s, res);
		s = doc_section(d, "instances", "Instances");
		instances_table(s, res);
		s = doc_section(d, "measured", "Measured beside predicted");
		measured_table(s, res);
		s = doc_section(d, "fleets", "Fleets: N x instance");
		fleets_table(s, res);
		s = doc_section(d, "families", "CPU families and series");
		size_doc_families(s, res);
		doc_note(s, "--base-cpu, --translate FAMILY=F and --series take these names; a "
			    "catalog instance name stands for its cpu_family");
		goto done;
	}
	target = doc_fact_real(d, "target", "target", DOC_LISTED, in->target, mu, 'g', 6);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, res->metric);
	sessions = doc_fact_real(d, "sessions", "sessions (memory is sized at the largest)",
				 DOC_LISTED, in->has_sessions ? in->sessions : NAN, "sessions", 'g',
				 6);
	doc_fact_text(d, "sessions_asked", "session counts asked for", DOC_LISTED,
		      res->sessions.given ? res->sessions.text : NULL);
	doc_fact_bool(d, "sessions_range", "the session counts are a range", DOC_QUIET,
		      res->sessions.range);
	headroom = doc_fact_real(d, "headroom", "headroom kept free", DOC_LISTED, in->headroom_pct,
				 "%", 'g', 6);
	if (res->sessions.given && res->sessions.n > 1)
		doc_set_title(d, "Sizing: target %s %s at %s sessions, headroom %s%%", target,
			      res->metric, res->sessions.text, headroom);
	else if (in->has_sessions)
		doc_set_title(d, "Sizing: target %s %s at %s sessions, headroom %s%%", target,
			      res->metric, sessions, headroom);
	else
		doc_set_title(d, "Sizing: target %s %s, headroom %s%%", target, res->metric,
			      headroom);
	doc_fact_text(d, "cheapest", "cheapest instance that meets the target", DOC_LISTED,
		      has_cheapest ? res->cat.items[res->cheapest].instance : NULL);
	doc_fact_real(d, "cheapest_predicted", "its predicted capacity", DOC_LISTED,
		      has_cheapest ? res->rows[res->cheapest].predicted : NAN, mu, 'f', 0);
	doc_fact_text(d, "cheapest_basis", "what its verdict rests on", DOC_LISTED,
		      has_cheapest ? res->rows[res->cheapest].basis : NULL);
	for (size_t i = 0; i < res->cat.n; i++)
		nmeasured += !strcmp(res->rows[i].basis, "measured");
	doc_fact_int(d, "verdicts_measured", "instances whose verdict rests on measurement",
		     DOC_LISTED, (int64_t)nmeasured, NULL);
	doc_fact_text(d, "verdict_rule", "how the verdicts are reached", DOC_QUIET, VERDICT_RULE);
	calibration_facts(d, res);
	size_doc_catalogs(d, res);
	size_doc_plot(d, plot);

	s = doc_section(d, "inputs", "Inputs");
	size_doc_inputs(d, s, res);
	if (res->per_doubling_prov.where && !res->per_doubling_prov.host[0])
		doc_note(s, "no host topology is known for the --scaling-from runs: their levels "
			    "are assumed to count physical cores (tie the corpus to its host's "
			    "topology so the SMT levels are left out of the fit)");

	s = doc_section(d, "instances", "Instances");
	instances_table(s, res);
	doc_note(s, "predictions are estimates from the inputs above, not measurements; "
		    "verdict_basis says whether the verdict rests on them or on the runs that "
		    "named the instance (measured_*: the worst cell of the measured view)");
	doc_note(s, "meets needs the calibrated lower bound at the target (the predicted bounds "
		    "widened by the model's error on the group's eligible measured cells, or "
		    "`uncalibrated` when there are none); marginal: only the central value is; "
		    "the worst eligible measured cell decides where the corpus measured the "
		    "instance: capacity planning is conservative");
	doc_note(s, "memory needed = app (fixed + per session x the largest session count) + "
		    "co-located processes + the OS reserve");
	doc_note(s, "prices: see price_date and the catalog's price_source; definitions: "
		    "`coreplan size --help`");

	s = doc_section(d, "measured", "Measured beside predicted");
	measured_table(s, res);
	doc_note(s,
		 "one row per instance, session count and value of each field that varies "
		 "among its runs (docs/analysis.md, \"No silent pooling\"): cfg=mem and cfg=pg are "
		 "never pooled; model_check: below (median / predicted_low), above (median / "
		 "predicted_high) or within the predicted bounds");
	doc_note(s, "eligible: the cell counts as the instance's capacity (its runs used the "
		    "whole instance, at the target's store, platform and configuration, not a "
		    "block of its own, at a session count asked for); left_out_because lists "
		    "every reason it does not, assumed what was taken without a record; "
		    "measured_over_model calibrates its group; loo_*: the bounds its group's "
		    "other instances calibrate and by how much the median misses them (%%)");

	s = doc_section(d, "fleets", "Fleets: N x instance");
	fleets_table(s, res);
	shared_nothing(d, s, res);

	s = doc_section(d, "families", "CPU families and series");
	size_doc_families(s, res);
	doc_note(s, "rate_basis: base (the base rate's family), translated (a --translate "
		    "factor), unmeasured (no rate: `unmeasured CPU`)");
done:
	return build_done(d, out);
}

const char *const build_size_views[] = {"instances", "inputs",   "measured",
					"fleets",    "families", NULL};
