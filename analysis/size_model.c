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
		row->translation = t;
		base /= t->factor;
		base_lo /= t->measured ? t->hi : t->factor;
		base_hi /= t->measured ? t->lo : t->factor;
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
		row->verdict = size_verdict(row->predicted_lo, row->predicted, in->target);
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
	c->shortfall = c->check_ratio = NAN;
	c->check = NULL;
	c->verdict = NULL;
	c->worst = false;
	if (c->n == 0)
		return;
	c->shortfall = c->s.median > 0 ? in->target / c->s.median : NAN;
	c->verdict = size_verdict(c->s.min, c->s.median, in->target);
	if (!row->predicted_ok)
		return;
	if (c->s.median < row->predicted_lo) {
		c->check = "below";
		c->check_ratio = c->s.median / row->predicted_lo;
	} else if (c->s.median > row->predicted_hi) {
		c->check = "above";
		c->check_ratio = c->s.median / row->predicted_hi;
	} else {
		c->check = "within";
	}
}

int size_judge(const struct size_inputs *in, struct size_row *rows, size_t nrows,
	       struct size_cell *cells, size_t ncells)
{
	for (size_t i = 0; i < nrows; i++) {
		rows[i].first_cell = rows[i].ncells = 0;
		rows[i].worst = SIZE_MAX;
		rows[i].measured_below = rows[i].measured_above = false;
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
		if (!c->verdict || !c->at_target)
			continue;
		r->measured_below |= c->check && !strcmp(c->check, "below");
		r->measured_above |= c->check && !strcmp(c->check, "above");
		if (r->worst == SIZE_MAX || worse(c, &cells[r->worst]))
			r->worst = i;
	}
	for (size_t i = 0; i < nrows; i++) {
		struct size_row *r = &rows[i];
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
