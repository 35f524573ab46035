/* levers: see levers.h. The computation; levers_run is in levers_run.c. */
#include "levers.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/units.h"
#include "verdict.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the computation keeps per run. */
struct item {
	size_t index;      /* into the input */
	char *combo;       /* every lever field's value, joined: the run's arm without level */
	char *context;     /* the combo without the lever field being judged */
	bool kind;         /* in a block kind of its combo */
	const char *value; /* the judged lever field's value */
};

struct work {
	const struct lever_input *in;
	struct item *items;
	size_t *order;
	size_t field; /* the lever being judged */
	struct levers *out;
	size_t alloc;
};

/* ---- keys ---- */

/* Fields joined as "f=v f2=v2", leaving out `skip` (nfields: none) and the followers. */
static char *key_of(const struct lever_input *in, const struct lever_run *r, size_t skip)
{
	struct strbuf sb = STRBUF_INIT;
	bool first = true;
	strbuf_adds(&sb, "");
	for (size_t f = 0; f < in->nfields; f++) {
		if (f == skip || in->follows[f])
			continue;
		strbuf_addf(&sb, "%s%s=%s", first ? "" : " ", in->fields[f], r->values[f]);
		first = false;
	}
	return strbuf_detach(&sb);
}

static const struct work *sort_work;

/*
 * The order of items a and b (indices into sort_work's items): by combo,
 * block and level (with_block), or by context and level; then by index.
 */
static int compare_items(const void *a, const void *b, bool with_block)
{
	const struct item *x = &sort_work->items[*(const size_t *)a];
	const struct item *y = &sort_work->items[*(const size_t *)b];
	const struct lever_run *rx = &sort_work->in->runs[x->index];
	const struct lever_run *ry = &sort_work->in->runs[y->index];
	int c = with_block ? strcmp(x->combo, y->combo) : strcmp(x->context, y->context);
	if (c == 0 && with_block)
		c = strcmp(rx->block ? rx->block : "", ry->block ? ry->block : "");
	if (c)
		return c;
	if (rx->level != ry->level)
		return rx->level < ry->level ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static int by_combo_block_level(const void *a, const void *b)
{
	return compare_items(a, b, true);
}

static int by_context_level(const void *a, const void *b)
{
	return compare_items(a, b, false);
}

/* The block of the run at w->order[k] ("" when it has none). */
static const char *block_at(const struct work *w, size_t k)
{
	const char *block = w->in->runs[w->items[w->order[k]].index].block;
	return block ? block : "";
}

/* Distinct levels among order[lo..hi) (sorted by level within). */
static size_t distinct_levels(const struct work *w, const size_t *order, size_t lo, size_t hi)
{
	size_t n = 0;
	for (size_t i = lo; i < hi; i++)
		n += i == lo || w->in->runs[w->items[order[i]].index].level !=
					w->in->runs[w->items[order[i - 1]].index].level;
	return n;
}

/*
 * Block kinds: within each combo, a block holding fewer levels than the
 * combo while some block holds all of them (order sorted by combo, block,
 * level).
 */
static void mark_kinds(struct work *w)
{
	size_t n = w->in->n;
	sort_work = w;
	qsort(w->order, n, sizeof(*w->order), by_combo_block_level);
	for (size_t i = 0; i < n;) {
		size_t j = i, levels, best = 0;
		double *all;
		size_t nall = 0;
		while (j < n && !strcmp(w->items[w->order[j]].combo, w->items[w->order[i]].combo))
			j++;
		/* the combo's distinct levels */
		all = calloc(j - i, sizeof(*all));
		if (!all)
			return; /* out of memory: no kinds marked (every run used) */
		for (size_t k = i; k < j; k++) {
			double lv = w->in->runs[w->items[w->order[k]].index].level;
			bool seen = false;
			for (size_t m = 0; m < nall && !seen; m++)
				seen = all[m] == lv;
			if (!seen)
				all[nall++] = lv;
		}
		levels = nall;
		free(all);
		for (size_t k = i; k < j;) {
			size_t e = k;
			const char *blk = block_at(w, k);
			while (e < j && !strcmp(block_at(w, e), blk))
				e++;
			if (distinct_levels(w, w->order, k, e) > best)
				best = distinct_levels(w, w->order, k, e);
			k = e;
		}
		for (size_t k = i; best == levels && levels > 1 && k < j;) {
			size_t e = k;
			const char *blk = block_at(w, k);
			bool kind;
			while (e < j && !strcmp(block_at(w, e), blk))
				e++;
			kind = distinct_levels(w, w->order, k, e) < levels;
			for (size_t m = k; m < e; m++)
				w->items[w->order[m]].kind = kind;
			k = e;
		}
		i = j;
	}
}

/* ---- one cell ---- */

static bool numeric(const char *v, double *x)
{
	return v && num_parse_real(v, x) == 0;
}

/*
 * Does arm `value` have a run among order[lo..hi) in a block that holds
 * all of its combo's levels (kind false, mark_kinds)? Then its arm is such
 * runs alone, and the runs of shorter blocks are left out.
 */
static bool has_plain(const struct work *w, size_t lo, size_t hi, const char *value)
{
	for (size_t i = lo; i < hi; i++)
		if (!strcmp(w->items[w->order[i]].value, value) && !w->items[w->order[i]].kind)
			return true;
	return false;
}

/* The arm of `value` among order[lo..hi) (one context, one level). */
static int arm_of(const struct work *w, size_t lo, size_t hi, const char *value, double *buf,
		  struct lever_arm *arm)
{
	double *app = buf + (hi - lo);
	size_t n = 0, napp = 0, kinds = 0;
	bool plain = has_plain(w, lo, hi, value);
	memset(arm, 0, sizeof(*arm));
	arm->value = value;
	arm->app_cores = NAN;
	for (size_t i = lo; i < hi; i++) {
		const struct item *it = &w->items[w->order[i]];
		const struct lever_run *r = &w->in->runs[it->index];
		size_t used;
		if (strcmp(it->value, value) != 0)
			continue;
		if (plain && it->kind) {
			kinds++;
			continue;
		}
		buf[n++] = r->value;
		if (isfinite(r->app_cores))
			app[napp++] = r->app_cores;
		used = strlen(arm->tags);
		if (used + 1 < sizeof(arm->tags))
			snprintf(arm->tags + used, sizeof(arm->tags) - used, "%s%s",
				 used ? "," : "", r->tag ? r->tag : "");
	}
	arm->n = n;
	arm->kinds_left_out = kinds;
	if (napp)
		stats_median(app, napp, &arm->app_cores);
	return n ? stats_summary_abs(buf, n, &arm->s) : 0;
}

/* The values of arm `value` among order[lo..hi), as arm_of chose them. */
static size_t values_of(const struct work *w, size_t lo, size_t hi, const char *value, double *v)
{
	size_t n = 0;
	bool plain = has_plain(w, lo, hi, value);
	for (size_t i = lo; i < hi; i++) {
		const struct item *it = &w->items[w->order[i]];
		if (!strcmp(it->value, value) && !(plain && it->kind))
			v[n++] = w->in->runs[it->index].value;
	}
	return n;
}

/* mean(ln x), x[i] > 0 */
static double ln_mean(const double *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += log(x[i]);
	return sum / (double)n;
}

/*
 * An unreplicated cell tested against the spread the level's replicated
 * arms show (their pooled sd of ln values, sd with df degrees of
 * freedom): t = (mean ln b - mean ln a) / (sd sqrt(1/na + 1/nb)), two-sided
 * p from Student's t with df; its verdict filled as verdict.h's would be.
 */
static void borrowed_test(const double *a, size_t na, const double *b, size_t nb, double sd,
			  double df, enum field_kind kind, struct lever_cell *c)
{
	struct verdict *v = &c->v;
	double d, se, t, p, q;
	if (!(sd > 0) || !(df > 0) || a[0] <= 0 || b[0] <= 0) {
		snprintf(c->reason, sizeof(c->reason),
			 "an arm with one run and no replicated arm at this level to measure the "
			 "spread: no test");
		return;
	}
	d = ln_mean(b, nb) - ln_mean(a, na);
	se = sd * sqrt(1.0 / (double)na + 1.0 / (double)nb);
	t = d / se;
	p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	q = gsl_cdf_tdist_Pinv(0.975, df);
	v->has_test = v->log_scale = true;
	v->test = "t-borrowed";
	v->test_words = "t on ln values with the replicated arms' spread";
	v->t = (struct t_test){na, nb, d, se, df, t, p, d - q * se, d + q * se, 0.95};
	v->p = p;
	v->estimate = exp(d);
	v->lo = exp(d - q * se);
	v->hi = exp(d + q * se);
	v->direction = d > 0 ? 1 : d < 0 ? -1 : 0;
	v->call = p < VERDICT_ALPHA ? VERDICT_REAL : VERDICT_WITHIN_NOISE;
	v->word = v->call == VERDICT_REAL ? units_change_word(kind, v->direction)
					  : VERDICT_WITHIN_NOISE_WORD;
	c->beyond_noise = v->call == VERDICT_REAL;
	snprintf(c->reason, sizeof(c->reason),
		 "an arm with one run: t on ln values with the spread of the replicated arms at "
		 "this level (sd %.4g, df %.0f): t = %.3f, p = %.3g %s alpha %g",
		 sd, df, t, p, p < VERDICT_ALPHA ? "<" : ">=", VERDICT_ALPHA);
}

/*
 * The verdict of b against a (verdict.h's verdict_two_samples, the one
 * every command uses), its words the metric's kind's; an arm with one run
 * is unreplicated there, and the borrowed-spread test says whether it is
 * beyond noise.
 */
static int judge(const double *a, size_t na, const double *b, size_t nb, double sd, double df,
		 bool lower, enum field_kind kind, struct lever_cell *c)
{
	struct verdict_options o;
	verdict_options_init(&o);
	o.kind = kind;
	o.lower_is_better = lower;
	c->unreplicated = na < 2 || nb < 2;
	if (verdict_two_samples(a, na, b, nb, &o, &c->v) != 0) {
		err_clear(); /* values the test cannot take */
		memset(&c->v, 0, sizeof(c->v));
		c->v.call = VERDICT_WITHIN_NOISE;
		c->v.word = VERDICT_WITHIN_NOISE_WORD;
		snprintf(c->reason, sizeof(c->reason), "not compared");
	} else {
		snprintf(c->reason, sizeof(c->reason), "%s", c->v.reason);
	}
	if (c->unreplicated)
		borrowed_test(a, na, b, nb, sd, df, kind, c);
	c->real = !c->unreplicated && verdict_real(&c->v);
	c->verdict = c->unreplicated && !c->v.has_test ? VERDICT_UNREPLICATED_WORD : c->v.word;
	c->method = c->v.has_test ? c->v.test : "none";
	c->has_ci = c->v.has_test && c->v.log_scale;
	c->estimate = c->has_ci ? c->v.estimate : NAN;
	c->lo = c->has_ci ? c->v.lo : NAN;
	c->hi = c->has_ci ? c->v.hi : NAN;
	c->se = c->has_ci ? c->v.t.se : NAN;
	c->df = c->has_ci ? c->v.t.df : NAN;
	c->p = c->v.has_test ? c->v.p : NAN;
	return 0;
}

/*
 * The pooled sd of ln values of the replicated arms among order[lo..hi)
 * (*df: its degrees of freedom, 0 when none), and their largest spread in %.
 */
static double spread_of(const struct work *w, size_t lo, size_t hi, double *buf, double *df,
			double *worst_pct)
{
	double ss = 0;
	*df = 0;
	*worst_pct = NAN;
	for (size_t i = lo; i < hi; i++) {
		const char *v = w->items[w->order[i]].value;
		bool seen = false, positive = true;
		struct summary s;
		double mean;
		size_t n;
		for (size_t k = lo; k < i && !seen; k++)
			seen = !strcmp(w->items[w->order[k]].value, v);
		if (seen || (n = values_of(w, lo, hi, v, buf)) < 2)
			continue;
		for (size_t k = 0; k < n; k++)
			positive &= buf[k] > 0;
		if (stats_summary_abs(buf, n, &s) == 0 && isfinite(s.spread_pct) &&
		    (isnan(*worst_pct) || s.spread_pct > *worst_pct))
			*worst_pct = s.spread_pct;
		if (!positive)
			continue;
		mean = ln_mean(buf, n);
		for (size_t k = 0; k < n; k++)
			ss += (log(buf[k]) - mean) * (log(buf[k]) - mean);
		*df += (double)(n - 1);
	}
	return *df > 0 ? sqrt(ss / *df) : NAN;
}

static int cell_of(const struct work *w, size_t lo, size_t hi, const char *base, const char *value,
		   struct lever_cell *c)
{
	double *buf = calloc(2 * (hi - lo) + 2, sizeof(*buf)), *bb;
	size_t na, nb;
	int rc;
	if (!buf)
		return err_set("out of memory");
	memset(c, 0, sizeof(*c));
	c->level = w->in->runs[w->items[w->order[lo]].index].level;
	rc = arm_of(w, lo, hi, base, buf, &c->a);
	if (rc == 0)
		rc = arm_of(w, lo, hi, value, buf, &c->b);
	bb = buf + (hi - lo);
	na = values_of(w, lo, hi, base, buf);
	nb = values_of(w, lo, hi, value, bb);
	c->ratio = c->a.s.median != 0 ? c->b.s.median / c->a.s.median : NAN;
	c->app_ratio = NAN;
	c->effect_pct = c->ratio > 0 ? (fmax(c->ratio, 1 / c->ratio) - 1) * 100 : NAN;
	if (rc == 0) {
		double *scratch = calloc(hi - lo + 1, sizeof(*scratch)), df = 0;
		double sd = scratch ? spread_of(w, lo, hi, scratch, &df, &c->noise_pct) : NAN;
		free(scratch);
		rc = judge(buf, na, bb, nb, sd, df, w->in->lower_is_better, w->in->kind, c);
	}
	if (rc == 0 && c->a.app_cores > 0)
		c->app_ratio = c->b.app_cores / c->a.app_cores;
	free(buf);
	return rc;
}

/* ---- pairs ---- */

static struct lever_pair *pair_of(struct work *w, const char *context, const char *base,
				  const char *value)
{
	struct levers *l = w->out;
	const char *field = w->in->fields[w->field];
	struct lever_pair *p;
	for (size_t i = 0; i < l->npairs; i++) {
		p = &l->pairs[i];
		if (!strcmp(p->field, field) && !strcmp(p->context, context) &&
		    !strcmp(p->base, base) && !strcmp(p->value, value))
			return p;
	}
	if (GROW(l->pairs, w->alloc, l->npairs + 1) != 0)
		return NULL;
	p = &l->pairs[l->npairs];
	memset(p, 0, sizeof(*p));
	p->field = strdup(field);
	p->context = strdup(context);
	p->base = strdup(base);
	p->value = strdup(value);
	if (!p->field || !p->context || !p->base || !p->value) {
		free(p->field);
		free(p->context);
		free(p->base);
		free(p->value);
		return NULL;
	}
	l->npairs++;
	return p;
}

/* The first run of arm `value` among order[lo..hi) (as arm_of chose). */
static const struct lever_run *first_of(const struct work *w, size_t lo, size_t hi,
					const char *value)
{
	bool plain = has_plain(w, lo, hi, value);
	for (size_t i = lo; i < hi; i++) {
		const struct item *it = &w->items[w->order[i]];
		if (!strcmp(it->value, value) && !(plain && it->kind))
			return &w->in->runs[it->index];
	}
	return NULL;
}

/* Add the settings whose value differs between the arms to p->confounded. */
static int confounders(const struct work *w, size_t lo, size_t hi, const char *base,
		       const char *value, struct lever_pair *p)
{
	const struct lever_run *a = first_of(w, lo, hi, base), *b = first_of(w, lo, hi, value);
	for (size_t k = 0; a && b && k < w->in->nsettings; k++) {
		const char *va = a->settings ? a->settings[k] : NULL;
		const char *vb = b->settings ? b->settings[k] : NULL;
		const char *name = w->in->settings[k];
		struct strbuf sb = STRBUF_INIT;
		if (!va || !vb || !strcmp(va, vb))
			continue;
		if (p->confounded && strstr(p->confounded, name))
			continue;
		strbuf_addf(&sb, "%s%s%s", p->confounded ? p->confounded : "",
			    p->confounded ? ", " : "", name);
		free(p->confounded);
		if (!(p->confounded = strbuf_detach(&sb)))
			return err_set("out of memory");
	}
	return 0;
}

static int add_cell(struct lever_pair *p, const struct lever_cell *c)
{
	struct lever_cell *grown = realloc(p->cells, (p->ncells + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	p->cells = grown;
	p->cells[p->ncells++] = *c;
	return 0;
}

/* The first-seen rank of a value of the lever among all runs (the base rule's order). */
static size_t first_seen(const struct work *w, const char *value)
{
	for (size_t i = 0; i < w->in->n; i++)
		if (!strcmp(w->in->runs[i].values[w->field], value))
			return i;
	return w->in->n;
}

/* The base among the values present in order[lo..hi): smallest number, else first seen. */
static const char *base_of(const struct work *w, size_t lo, size_t hi)
{
	const char *best = NULL, *first = NULL;
	double best_x = INFINITY;
	size_t first_rank = (size_t)-1;
	for (size_t i = lo; i < hi; i++) {
		const char *v = w->items[w->order[i]].value;
		double x;
		size_t rank = first_seen(w, v);
		if (numeric(v, &x) && x < best_x) {
			best_x = x;
			best = v;
		}
		if (rank < first_rank) {
			first_rank = rank;
			first = v;
		}
	}
	return best ? best : first;
}

/* One context at one level: order[lo..hi). */
static int level_cells(struct work *w, size_t lo, size_t hi)
{
	const char *base = base_of(w, lo, hi);
	const char *context = w->items[w->order[lo]].context;
	int rc = 0;
	for (size_t i = lo; rc == 0 && i < hi; i++) {
		const char *v = w->items[w->order[i]].value;
		bool seen = !strcmp(v, base);
		struct lever_pair *p;
		struct lever_cell c;
		for (size_t k = lo; k < i && !seen; k++)
			seen = !strcmp(w->items[w->order[k]].value, v);
		if (seen)
			continue;
		if (!(p = pair_of(w, context, base, v)))
			return err_set("out of memory");
		rc = cell_of(w, lo, hi, base, v, &c);
		if (rc == 0)
			rc = add_cell(p, &c);
		if (rc == 0)
			rc = confounders(w, lo, hi, base, v, p);
	}
	return rc;
}

static int judge_field(struct work *w, size_t f)
{
	size_t n = w->in->n;
	int rc = 0;
	w->field = f;
	for (size_t i = 0; i < n; i++) {
		struct item *it = &w->items[i];
		free(it->context);
		it->context = key_of(w->in, &w->in->runs[it->index], f);
		it->value = w->in->runs[it->index].values[f];
		if (!it->context)
			return err_set("out of memory");
	}
	sort_work = w;
	qsort(w->order, n, sizeof(*w->order), by_context_level);
	for (size_t i = 0; rc == 0 && i < n;) {
		size_t j = i;
		const struct item *first = &w->items[w->order[i]];
		while (j < n && !strcmp(w->items[w->order[j]].context, first->context) &&
		       w->in->runs[w->items[w->order[j]].index].level ==
			       w->in->runs[first->index].level)
			j++;
		rc = level_cells(w, i, j);
		i = j;
	}
	return rc;
}

/* The fields that follow lever f (their follows text names it), or NULL. */
static char *followers_of(const struct lever_input *in, size_t f)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; k < in->nfields; k++) {
		const char *fl = in->follows[k];
		size_t len = strlen(in->fields[f]);
		const char *at;
		if (!fl || !(at = strstr(fl, in->fields[f])))
			continue;
		if ((at == fl || strchr(", ", at[-1])) && strchr(", ", at[len]))
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", in->fields[k]);
	}
	return sb.len ? strbuf_detach(&sb) : (strbuf_release(&sb), NULL);
}

/* verdict.h's sum of the levels' verdicts (one scale: every cell tested on ln values). */
static int tally_of(const struct lever_pair *p, bool lower, enum field_kind kind,
		    struct verdict_tally *t)
{
	const struct verdict **v = calloc(p->ncells ? p->ncells : 1, sizeof(*v));
	struct verdict_options o;
	int rc;
	if (!v)
		return err_set("out of memory");
	for (size_t i = 0; i < p->ncells; i++)
		v[i] = &p->cells[i].v;
	verdict_options_init(&o);
	o.kind = kind;
	o.lower_is_better = lower;
	rc = verdict_tally(v, p->ncells, &o, t);
	free(v);
	return rc;
}

static void pair_summary(struct lever_pair *p, bool lower, enum field_kind kind)
{
	struct verdict_tally tally;
	bool all_ci = p->ncells > 0, above = true, below = true;
	int dir = 0;
	p->min_ratio = INFINITY;
	p->max_ratio = -INFINITY;
	p->pooled = p->pooled_lo = p->pooled_hi = NAN;
	p->app_min = p->app_max = NAN;
	for (size_t i = 0; i < p->ncells; i++) {
		const struct lever_cell *c = &p->cells[i];
		if (isfinite(c->ratio)) {
			p->min_ratio = fmin(p->min_ratio, c->ratio);
			p->max_ratio = fmax(p->max_ratio, c->ratio);
			above &= c->ratio > 1;
			below &= c->ratio < 1;
		}
		all_ci &= c->has_ci;
		p->tested |= c->has_ci || !c->unreplicated;
		p->nreal += c->real;
		p->nbeyond += c->beyond_noise;
		if (c->real || c->beyond_noise) {
			int d = c->ratio > 1 ? 1 : -1;
			dir = dir == 0 ? d : dir == d ? d : 2;
		}
		if (isfinite(c->app_ratio)) {
			p->app_min =
				isnan(p->app_min) ? c->app_ratio : fmin(p->app_min, c->app_ratio);
			p->app_max =
				isnan(p->app_max) ? c->app_ratio : fmax(p->app_max, c->app_ratio);
		}
	}
	p->effect = p->nreal + p->nbeyond > 0;
	p->direction = dir == 2 ? 0 : dir;
	p->better = p->direction != 0 && ((p->direction > 0) != lower);
	p->independent = p->ncells >= 2 && (above || below) &&
			 p->max_ratio <= p->min_ratio * (1 + LEVERS_INDEPENDENT_PCT / 100.0);
	if (all_ci && tally_of(p, lower, kind, &tally) == 0) {
		p->pooled = tally.estimate;
		p->pooled_lo = tally.lo;
		p->pooled_hi = tally.hi;
		p->pooled_ci = isfinite(tally.lo);
	} else if (p->ncells > 0 && p->min_ratio > 0) {
		double gm = 0;
		for (size_t i = 0; i < p->ncells; i++)
			gm += log(p->cells[i].ratio);
		p->pooled = exp(gm / (double)p->ncells);
	}
	err_clear();
	if (!isfinite(p->min_ratio))
		p->min_ratio = p->max_ratio = NAN;
}

int levers_compute(const struct lever_input *in, struct levers *out)
{
	struct work w;
	size_t start;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	out->lower_is_better = in->lower_is_better;
	w.in = in;
	w.out = out;
	w.items = calloc(in->n ? in->n : 1, sizeof(*w.items));
	w.order = calloc(in->n ? in->n : 1, sizeof(*w.order));
	if (!w.items || !w.order)
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < in->n; i++) {
		w.items[i].index = i;
		w.order[i] = i;
		if (!(w.items[i].combo = key_of(in, &in->runs[i], in->nfields)))
			rc = err_set("out of memory");
	}
	if (rc == 0 && in->has_level)
		mark_kinds(&w);
	for (size_t f = 0; rc == 0 && f < in->nfields; f++) {
		if (in->follows[f])
			continue;
		out->nlevers++;
		start = out->npairs;
		rc = judge_field(&w, f);
		for (size_t i = start; rc == 0 && i < out->npairs; i++)
			out->pairs[i].follows = followers_of(in, f);
	}
	for (size_t i = 0; rc == 0 && i < out->npairs; i++) {
		pair_summary(&out->pairs[i], in->lower_is_better, in->kind);
		out->neffects += out->pairs[i].effect;
	}
	for (size_t i = 0; w.items && i < in->n; i++) {
		free(w.items[i].combo);
		free(w.items[i].context);
	}
	free(w.items);
	free(w.order);
	if (rc)
		levers_release(out);
	return rc;
}

void levers_release(struct levers *l)
{
	for (size_t i = 0; i < l->npairs; i++) {
		free(l->pairs[i].field);
		free(l->pairs[i].context);
		free(l->pairs[i].value);
		free(l->pairs[i].base);
		free(l->pairs[i].follows);
		free(l->pairs[i].confounded);
		free(l->pairs[i].cells);
	}
	free(l->pairs);
	memset(l, 0, sizeof(*l));
}
