/* size_model: the predictions, verdicts and measured-cell judgement (size.h); no database. */
#include "size.h"
#include "size_internal.h"

#include "../common/err.h"
#include "../common/num.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB_PER_GIB (1024.0 * 1024.0)

static double scale(double cores, double per_doubling)
{
	return cores >= 1.0 ? pow(per_doubling, log2(cores)) : cores;
}

static const struct size_translation *find_translation(const struct size_inputs *in,
						       const char *name, bool platform)
{
	for (size_t i = 0; i < in->ntranslations; i++)
		if (in->translations[i].platform == platform &&
		    !strcmp(in->translations[i].family, name))
			return &in->translations[i];
	return NULL;
}

/* base, lo, hi divided by a translation's factor (its interval widening the bounds). */
static void translate_base(const struct size_translation *t, double b[3])
{
	b[0] /= t->factor;
	b[1] /= t->measured ? t->hi : t->factor;
	b[2] /= t->measured ? t->lo : t->factor;
}

void size_sessions_factor(const struct size_sessions_curve *c, double sessions,
			  struct size_sessions_at *out)
{
	size_t k = 0, r = c->ref;
	*out = (struct size_sessions_at){1.0, 1.0, 1.0, sessions, 0.0};
	if (c->n == 0)
		return;
	if (sessions <= c->sessions[0]) {
		k = 0;
		out->beyond = sessions < c->sessions[0] ? sessions / c->sessions[0] : 0;
	} else if (sessions >= c->sessions[c->n - 1]) {
		k = c->n - 1;
		out->beyond = sessions > c->sessions[k] ? sessions / c->sessions[k] : 0;
	} else {
		while (k + 1 < c->n && c->sessions[k + 1] <= sessions)
			k++;
		/* strictly between k and k + 1: the lower median, the conservative neighbour */
		if (c->sessions[k] != sessions && c->median[k + 1] < c->median[k])
			k++;
	}
	out->at = c->sessions[k];
	out->factor = c->median[k] / c->median[r];
	out->lo = c->min[k] / c->max[r];
	out->hi = c->max[k] / c->min[r];
}

/*
 * The sessions factor at the counts asked for, where it is lowest: each
 * listed count; for a range its ends and every measured count inside.
 */
static void worst_sessions(const struct size_inputs *in, struct size_sessions_at *out)
{
	const struct size_sessions *s = in->asked;
	struct size_sessions_at x;
	double beyond = 0;
	*out = (struct size_sessions_at){1.0, 1.0, 1.0, NAN, 0.0};
	if (!s || !s->given)
		return;
	for (size_t i = 0; i < s->n + (s->range ? in->curve.n : 0); i++) {
		double at = i < s->n ? s->counts[i] : in->curve.sessions[i - s->n];
		if (i >= s->n && !size_sessions_has(s, at))
			continue;
		size_sessions_factor(&in->curve, at, &x);
		if (isnan(out->at) || x.factor < out->factor)
			*out = x;
		beyond = fmax(beyond, x.beyond > 1 ? x.beyond : 0);
	}
	out->beyond = beyond;
}

const char *size_basis_name(enum size_basis b)
{
	static const char *const names[] = {"unknown", "given", "assumed", "measured"};
	return (size_t)b < sizeof(names) / sizeof(names[0]) ? names[b] : "?";
}

const char *size_group_name(enum size_group g)
{
	return g == SIZE_SHARED ? "shared-core" : "dedicated";
}

/* Do the target's and the base runs' condition differ, both known? */
static bool differs(const char *target, const char *base)
{
	return target[0] && base[0] && strcmp(target, base);
}

static void predict(const struct size_inputs *in, struct size_row *row)
{
	const struct instance *inst = row->inst;
	double keep = 1.0 - in->headroom_pct / 100.0;
	double smt = inst->threads_per_core == 2 ? in->smt.value : 1.0;
	double smt_lo = inst->threads_per_core == 2 ? in->smt.lo : 1.0;
	double smt_hi = inst->threads_per_core == 2 ? in->smt.hi : 1.0;
	double b[3] = {in->base.value, in->base.lo, in->base.hi};
	double p = inst->sustained_cores;
	const struct size_translation *t;
	const struct size_sessions_at *f = &row->sessions_at;
	row->shared_core = inst->sustained_vcpu_fraction < 1.0;
	row->group = row->shared_core ? SIZE_SHARED : SIZE_DEDICATED;
	if (strcmp(inst->cpu_family, in->base_family)) {
		if (!(t = find_translation(in, inst->cpu_family, false)))
			return; /* unmeasured CPU */
		row->translated = true;
		row->translation_factor = t->factor;
		row->translation = t;
		translate_base(t, b);
	} else if (differs(in->platform, in->base_platform)) {
		if ((t = find_translation(in, in->platform, true)) != NULL) {
			row->translated = row->platform_translated = true;
			row->translation_factor = t->factor;
			row->translation = t;
			translate_base(t, b);
		} else {
			row->other_platform = true;
		}
	}
	if (differs(in->store, in->base_store)) {
		row->store_factored = in->store_factor.known;
		row->other_store = !row->store_factored;
		if (row->store_factored) {
			b[0] *= in->store_factor.value;
			b[1] *= in->store_factor.lo;
			b[2] *= in->store_factor.hi;
		}
	}
	row->predicted_ok = true;
	row->core_capacity = b[0] * scale(p, in->per_doubling.value) * smt;
	row->core_capacity_lo = b[1] * scale(p, p >= 1 ? in->per_doubling.lo : 1) * smt_lo;
	row->core_capacity_hi = b[2] * scale(p, p >= 1 ? in->per_doubling.hi : 1) * smt_hi;
	worst_sessions(in, &row->sessions_at);
	row->capacity = row->core_capacity * f->factor;
	row->capacity_lo = row->core_capacity_lo * f->lo;
	row->capacity_hi = row->core_capacity_hi * f->hi;
	row->predicted = row->capacity * keep;
	row->predicted_lo = row->calibrated_lo = row->capacity_lo * keep;
	row->predicted_hi = row->calibrated_hi = row->capacity_hi * keep;
	if (row->shared_core)
		row->burst = b[0] * scale(inst->physical_cores, in->per_doubling.value) * smt *
			     f->factor;
	row->extrapolated = in->max_measured_cores > 0 && p > in->max_measured_cores;
	row->cores_beyond = row->extrapolated ? p / in->max_measured_cores : 0;
	row->sessions_beyond = 0;
	if (in->curve.n)
		row->sessions_beyond = f->beyond;
	else if (in->asked && in->asked->given && in->cpu_sessions_max > 0 &&
		 in->asked->largest > in->cpu_sessions_max)
		row->sessions_beyond = in->asked->largest / in->cpu_sessions_max;
	row->memory_beyond = in->asked && in->asked->given && in->mem_sessions_max > 0 &&
					     in->asked->largest > in->mem_sessions_max
				     ? in->asked->largest / in->mem_sessions_max
				     : 0;
}

const char *size_verdict(double lower, double central, double target)
{
	if (lower >= target)
		return "meets";
	return central >= target ? "marginal" : "short";
}

static bool memory_bound(const struct size_row *row)
{
	return !isnan(row->memory_needed_gib) && row->memory_needed_gib > row->inst->memory_gib;
}

/* The row's verdict on its prediction: the calibrated lower bound must meet the target. */
static void judge(const struct size_inputs *in, struct size_row *row)
{
	row->shortfall = row->cost_per_1k = NAN;
	row->basis = "predicted";
	if (!row->predicted_ok) {
		row->verdict = "unmeasured CPU";
		return;
	}
	row->shortfall = in->target / row->predicted;
	row->cost_per_1k =
		row->predicted > 0 ? row->inst->price_per_hour * 1000.0 / row->predicted : NAN;
	if (memory_bound(row))
		row->verdict = "memory-bound";
	else
		row->verdict = size_verdict(row->calibrated_lo, row->predicted, in->target);
}

/* The memory parts at the largest session count (NaN without the app's inputs). */
static void memory(const struct size_inputs *in, struct size_row *row)
{
	row->memory_needed_gib = row->memory_app_gib = NAN;
	row->memory_colocated_gib = row->memory_os_gib = NAN;
	if (!in->has_sessions || !in->mem_per_session_kb.known || !in->mem_fixed_kb.known)
		return;
	row->memory_app_gib =
		(in->mem_fixed_kb.value + in->mem_per_session_kb.value * in->sessions) / KB_PER_GIB;
	row->memory_colocated_gib =
		in->colocated_kb.known ? in->colocated_kb.value / KB_PER_GIB : 0.0;
	row->memory_os_gib = in->os_reserve_mib / 1024.0;
	row->memory_needed_gib =
		row->memory_app_gib + row->memory_colocated_gib + row->memory_os_gib;
}

/* The cheapest row whose verdict is meets gets the mark (the first at equal prices). */
static void mark_cheapest(struct size_row *rows, size_t n)
{
	size_t cheapest = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		rows[i].cheapest = false;
		if (!strcmp(rows[i].verdict, "meets") &&
		    (cheapest == SIZE_MAX ||
		     rows[i].inst->price_per_hour < rows[cheapest].inst->price_per_hour))
			cheapest = i;
	}
	if (cheapest != SIZE_MAX)
		rows[cheapest].cheapest = true;
}

int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows)
{
	struct size_row *out;
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
		row->capacity = row->capacity_lo = row->capacity_hi = NAN;
		row->core_capacity = row->core_capacity_lo = row->core_capacity_hi = NAN;
		row->calibrated_lo = row->calibrated_hi = NAN;
		row->translation_factor = NAN;
		row->worst = SIZE_MAX;
		memory(in, row);
		predict(in, row);
		judge(in, row);
	}
	mark_cheapest(out, cat->n);
	*rows = out;
	return 0;
}

/* ---- measured beside predicted ---- */

static int verdict_rank(const char *verdict)
{
	if (!strcmp(verdict, "meets"))
		return 2;
	return !strcmp(verdict, "marginal") ? 1 : 0;
}

/* Is cell a worse than cell b (a less favourable verdict, then a lower median)? */
static bool worse(const struct size_cell *a, const struct size_cell *b)
{
	int ra = verdict_rank(a->verdict), rb = verdict_rank(b->verdict);
	return ra != rb ? ra < rb : a->s.median < b->s.median;
}

static void judge_cell(const struct size_inputs *in, const struct size_row *row,
		       struct size_cell *c)
{
	c->shortfall = c->check_ratio = c->ratio = NAN;
	c->model = c->model_lo = c->model_hi = c->loo_lo = c->loo_hi = NAN;
	c->loo_miss = 0;
	c->loo_n = 0;
	c->check = c->loo_check = NULL;
	c->verdict = NULL;
	c->worst = false;
	c->decides = c->eligible && c->at_target && c->n > 0;
	if (c->n == 0)
		return;
	c->shortfall = c->s.median > 0 ? in->target / c->s.median : NAN;
	c->verdict = size_verdict(c->s.min, c->s.median, in->target);
	if (!row->predicted_ok)
		return;
	{
		struct size_sessions_at f;
		size_sessions_factor(&in->curve, c->sessions, &f);
		c->model = row->core_capacity * f.factor;
		c->model_lo = row->core_capacity_lo * f.lo;
		c->model_hi = row->core_capacity_hi * f.hi;
	}
	if (c->eligible && c->model > 0)
		c->ratio = c->s.median / c->model;
	/* against the prediction at its own session count, headroom kept */
	{
		double keep = 1.0 - in->headroom_pct / 100.0;
		double lo = c->model_lo * keep, hi = c->model_hi * keep;
		if (c->s.median < lo) {
			c->check = "below";
			c->check_ratio = c->s.median / lo;
		} else if (c->s.median > hi) {
			c->check = "above";
			c->check_ratio = c->s.median / hi;
		} else {
			c->check = "within";
		}
	}
}

/* Does the cell calibrate its group's model (eligible, with runs and a model to compare)? */
static bool calibrates(const struct size_cell *c)
{
	return c->eligible && c->n > 0 && !isnan(c->ratio);
}

/*
 * The calibration of group g over the eligible cells, leaving out the cells
 * of row `skip` (SIZE_MAX: none): n, instances and the ratios' median,
 * minimum and maximum. Linear in the cells plus a sort of the ratios.
 */
static int calibrate_group(const struct size_row *rows, const struct size_cell *cells,
			   size_t ncells, enum size_group g, size_t skip,
			   struct size_calibration *out)
{
	double *ratios = malloc((ncells ? ncells : 1) * sizeof(double));
	size_t n = 0, last_row = SIZE_MAX;
	struct summary s;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	out->median = out->min = out->max = NAN;
	if (!ratios)
		return err_set("out of memory");
	for (size_t i = 0; i < ncells; i++) {
		const struct size_cell *c = &cells[i];
		if (!calibrates(c) || rows[c->row].group != g || c->row == skip)
			continue;
		ratios[n++] = c->ratio;
		out->instances += c->row != last_row; /* cells of a row are together */
		last_row = c->row;
	}
	if (n > 0 && (rc = stats_summary(ratios, n, &s)) == 0) {
		out->n = n;
		out->median = s.median;
		out->min = s.min;
		out->max = s.max;
	}
	free(ratios);
	return rc;
}

/* lo * min(1, the smallest ratio), hi * max(1, the largest): bounds widened, never narrowed. */
static void widen(const struct size_calibration *k, double lo, double hi, double *out_lo,
		  double *out_hi)
{
	*out_lo = k->n ? lo * fmin(1.0, k->min) : lo;
	*out_hi = k->n ? hi * fmax(1.0, k->max) : hi;
}

/* Each eligible cell against the bounds its group's other instances calibrate. */
static int leave_one_out(struct size_row *rows, struct size_cell *cells, size_t ncells)
{
	for (size_t i = 0; i < ncells; i++) {
		struct size_cell *c = &cells[i];
		struct size_calibration k;
		int rc;
		if (!calibrates(c))
			continue;
		rc = calibrate_group(rows, cells, ncells, rows[c->row].group, c->row, &k);
		if (rc)
			return rc;
		widen(&k, c->model_lo, c->model_hi, &c->loo_lo, &c->loo_hi);
		c->loo_n = k.n;
		if (c->s.median < c->loo_lo) {
			c->loo_check = "below";
			c->loo_miss = c->s.median / c->loo_lo - 1.0;
		} else if (c->s.median > c->loo_hi) {
			c->loo_check = "above";
			c->loo_miss = c->s.median / c->loo_hi - 1.0;
		} else {
			c->loo_check = "within";
		}
		rows[c->row].loo_miss |= strcmp(c->loo_check, "within") != 0;
	}
	return 0;
}

int size_judge(const struct size_inputs *in, struct size_row *rows, size_t nrows,
	       struct size_cell *cells, size_t ncells, struct size_calibration *calibration)
{
	int rc = 0;
	for (size_t i = 0; i < nrows; i++) {
		rows[i].first_cell = rows[i].ncells = rows[i].eligible_cells = 0;
		rows[i].worst = SIZE_MAX;
		rows[i].measured_below = rows[i].measured_above = rows[i].loo_miss = false;
	}
	for (size_t i = 0; i < ncells; i++) {
		struct size_cell *c = &cells[i];
		struct size_row *r;
		if (c->row >= nrows)
			return err_set("a measured cell names row %zu of %zu", c->row, nrows);
		r = &rows[c->row];
		if (r->ncells > 0 && cells[i - 1].row != c->row)
			return err_set("the measured cells of '%s' are not together",
				       r->inst->instance);
		if (r->ncells++ == 0)
			r->first_cell = i;
		judge_cell(in, r, c);
		r->eligible_cells += c->eligible && c->n > 0;
		if (!c->decides)
			continue;
		r->measured_below |= c->check && !strcmp(c->check, "below");
		r->measured_above |= c->check && !strcmp(c->check, "above");
		if (r->worst == SIZE_MAX || worse(c, &cells[r->worst]))
			r->worst = i;
	}
	for (int g = 0; rc == 0 && g < SIZE_NGROUPS; g++)
		rc = calibrate_group(rows, cells, ncells, (enum size_group)g, SIZE_MAX,
				     &calibration[g]);
	if (rc == 0)
		rc = leave_one_out(rows, cells, ncells);
	if (rc)
		return rc;
	for (size_t i = 0; i < nrows; i++) {
		struct size_row *r = &rows[i];
		const struct size_calibration *k = &calibration[r->group];
		if (r->predicted_ok) {
			r->calibrated = k->n > 0;
			widen(k, r->predicted_lo, r->predicted_hi, &r->calibrated_lo,
			      &r->calibrated_hi);
		}
		judge(in, r);
		if (r->worst == SIZE_MAX)
			continue;
		cells[r->worst].worst = true;
		if (memory_bound(r)) {
			r->verdict = "memory-bound";
			r->basis = "predicted";
		} else {
			r->verdict = cells[r->worst].verdict;
			r->basis = "measured";
		}
	}
	mark_cheapest(rows, nrows);
	return 0;
}

/* ---- --sessions ---- */

int size_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int session_count(const char *text, size_t len, const char *whole, double *out)
{
	char buf[64];
	int64_t n;
	if (len == 0 || len >= sizeof(buf))
		return err_usage("--sessions needs N, N1,N2 or LO-HI, got '%s'", whole);
	memcpy(buf, text, len);
	buf[len] = '\0';
	/* a count of sessions is whole: 1.5 sessions is not a request */
	if (num_parse_int(buf, &n) || n < 1 || n > SIZE_MAX_SESSION_COUNT)
		return err_usage("--sessions needs whole session counts from 1 to %d (N, N1,N2 or "
				 "LO-HI), got '%s'",
				 SIZE_MAX_SESSION_COUNT, whole);
	*out = (double)n;
	return 0;
}

int size_sessions_parse(const char *text, struct size_sessions *out)
{
	const char *dash = strchr(text, '-');
	size_t used = 0;
	char num[32];
	memset(out, 0, sizeof(*out));
	if (text[0] == '-') /* "-3": a negative count, not a range */
		return session_count(text, strlen(text), text, &out->counts[0]);
	if (dash && !strchr(text, ',')) {
		double lo, hi;
		if (session_count(text, (size_t)(dash - text), text, &lo) ||
		    session_count(dash + 1, strlen(dash + 1), text, &hi))
			return ERR_USAGE;
		if (!(lo < hi))
			return err_usage("--sessions LO-HI needs LO below HI, got '%s'", text);
		out->range = true;
		out->counts[0] = lo;
		out->counts[1] = hi;
		out->n = 2;
	} else {
		const char *p = text;
		for (;;) {
			size_t len = strcspn(p, ",");
			if (out->n == SIZE_MAX_SESSIONS)
				return err_usage("--sessions lists more than %d counts",
						 SIZE_MAX_SESSIONS);
			if (session_count(p, len, text, &out->counts[out->n]))
				return ERR_USAGE;
			out->n++;
			if (!p[len])
				break;
			p += len + 1;
		}
		qsort(out->counts, out->n, sizeof(double), size_cmp_double);
		for (size_t i = 1; i < out->n; i++)
			if (out->counts[i] == out->counts[i - 1])
				return err_usage("--sessions lists %s twice",
						 num_format_real(out->counts[i], num));
	}
	out->given = true;
	out->largest = out->counts[out->n - 1];
	for (size_t i = 0; i < out->n; i++)
		used += (size_t)snprintf(out->text + used, sizeof(out->text) - used, "%s%s",
					 i == 0       ? ""
					 : out->range ? "-"
						      : ", ",
					 num_format_real(out->counts[i], num));
	return 0;
}

bool size_sessions_has(const struct size_sessions *s, double sessions)
{
	if (!s->given)
		return false;
	if (s->range)
		return sessions >= s->counts[0] && sessions <= s->counts[1];
	for (size_t i = 0; i < s->n; i++)
		if (s->counts[i] == sessions)
			return true;
	return false;
}
