/* binders: see binders.h. The computation; binders_run is in binders_run.c. */
#include "binders.h"

#include "../common/err.h"
#include "noise.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[BINDER_NRES] = {
	[BINDER_APP_CPU] = "app_cpu",         [BINDER_HOST_CPU] = "host_cpu",
	[BINDER_PG_CPU] = "pg_cpu",           [BINDER_MEMORY] = "memory",
	[BINDER_CONNECTIONS] = "connections", [BINDER_GENERATOR] = "generator",
};

static const char *const words[BINDER_NRES] = {
	[BINDER_APP_CPU] = "app CPU",
	[BINDER_HOST_CPU] = "the machine's CPU (app and co-located)",
	[BINDER_PG_CPU] = "PostgreSQL CPU",
	[BINDER_MEMORY] = "memory",
	[BINDER_CONNECTIONS] = "connections",
	[BINDER_GENERATOR] = "the load generator",
};

static const char *const units[BINDER_NRES] = {
	[BINDER_APP_CPU] = "cores", [BINDER_HOST_CPU] = "cores",       [BINDER_PG_CPU] = "cores",
	[BINDER_MEMORY] = "kB",     [BINDER_CONNECTIONS] = "backends", [BINDER_GENERATOR] = "%",
};

const char *binder_resource_name(enum binder_resource r)
{
	return (unsigned)r < BINDER_NRES ? names[r] : "?";
}

const char *binder_resource_words(enum binder_resource r)
{
	return (unsigned)r < BINDER_NRES ? words[r] : "?";
}

const char *binder_resource_unit(enum binder_resource r)
{
	return (unsigned)r < BINDER_NRES ? units[r] : "";
}

bool binder_resource_is_cpu(enum binder_resource r)
{
	return r == BINDER_APP_CPU || r == BINDER_HOST_CPU || r == BINDER_PG_CPU;
}

void binders_options_init(struct binders_options *opts)
{
	*opts = (struct binders_options){.near = BINDERS_NEAR,
					 .flat_pct = BINDERS_FLAT_PCT,
					 .rise_min = BINDERS_RISE_MIN,
					 .latency_rise_pct = BINDERS_LATENCY_RISE_PCT};
}

/* ---- Little's law ---- */

static double max_known(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}

static void little(struct binder_run *r)
{
	double lo = NAN;
	r->little_checked = r->little_fails = false;
	r->little_w_ms = r->little_lo_ms = r->little_hi_ms = NAN;
	if (!isfinite(r->think_s) || !(r->sessions > 0) || !(r->tput > 0) || isnan(r->p50))
		return;
	r->little_w_ms = (r->sessions / r->tput - r->think_s) * 1000.0;
	lo = r->p50 / 2.0;
	lo = max_known(lo, r->p95 / 20.0);
	lo = max_known(lo, r->p99 / 100.0);
	r->little_lo_ms = lo;
	r->little_hi_ms = isfinite(r->max_ms) ? r->max_ms : INFINITY;
	r->little_checked = true;
	r->little_fails = r->little_w_ms < lo || r->little_w_ms > r->little_hi_ms;
}

/* ---- grouping ---- */

struct order {
	size_t index;
	size_t group; /* rank of the group by first appearance */
	const struct binder_run *run;
};

static int by_group_text(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	int c = strcmp(x->run->group, y->run->group);
	if (c)
		return c;
	return (x->index > y->index) - (x->index < y->index);
}

static int by_group_level(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	if (x->run->level != y->run->level)
		return (x->run->level > y->run->level) - (x->run->level < y->run->level);
	return (x->index > y->index) - (x->index < y->index);
}

/* Order runs by group (first appearance) and level; *ngroups distinct groups. */
static struct order *ordered(const struct binder_run *runs, size_t n, size_t *ngroups)
{
	struct order *o = calloc(n ? n : 1, sizeof(*o));
	size_t *first = NULL, g = 0;
	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct order){i, 0, &runs[i]};
	qsort(o, n, sizeof(*o), by_group_text);
	/* each group's first appearance (the smallest index, first after the sort) */
	first = calloc(n ? n : 1, sizeof(*first));
	if (!first) {
		free(o);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(o[i].run->group, o[i - 1].run->group))
			first[g++] = o[i].index;
		o[i].group = g - 1;
	}
	/* rank the groups by their first run */
	for (size_t i = 0; i < n; i++) {
		size_t rank = 0, mine = first[o[i].group];
		for (size_t k = 0; k < g; k++)
			rank += first[k] < mine;
		o[i].group = rank;
	}
	free(first);
	qsort(o, n, sizeof(*o), by_group_level);
	*ngroups = g;
	return o;
}

/* ---- one level ---- */

static int summary_of(double *v, size_t n, struct summary *out)
{
	memset(out, 0, sizeof(*out));
	return n ? stats_summary_abs(v, n, out) : 0;
}

static int use_of(const struct order *o, size_t n, enum binder_resource r, double *v,
		  struct binder_use *u)
{
	double *caps = v + n, *ratios = v + 2 * n;
	size_t k = 0, kc = 0, kr = 0;
	memset(u, 0, sizeof(*u));
	u->median = u->min = u->max = u->cap = u->ratio = u->ratio_min = u->ratio_max = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct binder_run *run = o[i].run;
		if (!isfinite(run->use[r]))
			continue;
		v[k++] = run->use[r];
		if (isfinite(run->cap[r]) && run->cap[r] > 0) {
			caps[kc++] = run->cap[r];
			ratios[kr++] = run->use[r] / run->cap[r];
		}
	}
	u->n = k;
	if (k) {
		struct summary s;
		int rc = stats_summary_abs(v, k, &s);
		if (rc)
			return rc;
		u->median = s.median;
		u->min = s.min;
		u->max = s.max;
	}
	if (kc) {
		struct summary s;
		int rc = stats_summary_abs(caps, kc, &s);
		if (rc == 0)
			u->cap = s.median;
		if (rc == 0)
			rc = stats_summary_abs(ratios, kr, &s);
		if (rc)
			return rc;
		u->ratio_min = s.min;
		u->ratio_max = s.max;
		u->ratio = u->median / u->cap;
	}
	return 0;
}

static int level_of(const struct order *o, size_t n, double *v, struct binder_level *l)
{
	size_t k = 0;
	int rc = 0;
	memset(l, 0, sizeof(*l));
	l->group = o[0].run->group;
	l->level = o[0].run->level;
	l->n = n;
	l->vcpus = l->physical_cores = l->elasticity = NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(o[i].run->tput))
			v[k++] = o[i].run->tput;
	rc = summary_of(v, k, &l->tput);
	if (rc == 0 && k && !(l->tput_v = malloc(k * sizeof(*l->tput_v))))
		rc = err_set("out of memory");
	if (rc == 0 && k)
		memcpy(l->tput_v, v, k * sizeof(*v));
	k = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (isfinite(o[i].run->latency))
			v[k++] = o[i].run->latency;
	l->has_latency = k > 0;
	if (rc == 0)
		rc = summary_of(v, k, &l->latency);
	k = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (isfinite(o[i].run->err)) {
			v[k++] = o[i].run->err;
			l->err_runs += o[i].run->err > 0;
		}
	l->has_err = k > 0;
	if (rc == 0)
		rc = summary_of(v, k, &l->err);
	for (int r = 0; rc == 0 && r < BINDER_NRES; r++)
		rc = use_of(o, n, (enum binder_resource)r, v, &l->res[r]);
	k = 0;
	l->avail_min = NAN;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (isfinite(o[i].run->app_rss_kb))
			v[k++] = o[i].run->app_rss_kb;
		if (isfinite(o[i].run->avail_kb) &&
		    (isnan(l->avail_min) || o[i].run->avail_kb < l->avail_min))
			l->avail_min = o[i].run->avail_kb;
	}
	if (rc == 0)
		rc = summary_of(v, k, &l->app_rss);
	for (size_t i = 0; i < n; i++) {
		const struct binder_run *run = o[i].run;
		l->cpu_checked += run->cpu_checked;
		l->cpu_untrusted += run->cpu_checked && !run->cpu_trusted;
		l->from_trace += run->from_trace;
		if (run->from_trace && isfinite(run->driver_app_cores)) {
			double d = run->driver_app_cores;
			l->driver_app_min = l->driver_app_n ? fmin(l->driver_app_min, d) : d;
			l->driver_app_max = l->driver_app_n ? fmax(l->driver_app_max, d) : d;
			l->driver_app_n++;
		}
		l->gen_flagged += run->gen_flag_known && run->gen_saturated;
		l->little_checked += run->little_checked;
		l->little_fails += run->little_fails;
		if (isfinite(run->cap[BINDER_HOST_CPU]))
			l->vcpus = run->cap[BINDER_HOST_CPU];
		if (isfinite(run->physical_cores))
			l->physical_cores = run->physical_cores;
	}
	return rc;
}

/* ---- one group ---- */

/* The step from level a to b: elasticity, its word and whether it is within noise. */
static void step_of(const struct binder_level *a, struct binder_level *b,
		    const struct binders_options *opts)
{
	struct noise_step s;
	double xa = a->tput.median, xb = b->tput.median;
	bool rising;
	b->step_within_noise = false;
	if (opts->lower_is_better) {
		xa = xa > 0 ? 1.0 / xa : NAN;
		xb = xb > 0 ? 1.0 / xb : NAN;
	}
	b->elasticity = xa > 0 && xb > 0 && a->level > 0 && b->level > a->level
				? log(xb / xa) / log(b->level / a->level)
				: NAN;
	struct verdict_options vo;
	verdict_options_init(&vo);
	vo.kind = opts->kind;
	vo.lower_is_better = opts->lower_is_better;
	if (a->tput.n && b->tput.n &&
	    noise_step_judge(a->tput_v, a->tput.n, b->tput_v, b->tput.n, &vo, &s) == 0)
		b->step_within_noise = !strcmp(s.verdict, NOISE_WITHIN);
	else
		err_clear(); /* values the test cannot take: judged by the elasticity alone */
	rising = isnan(b->elasticity) ? xb > xa : b->elasticity >= opts->rise_min;
	if (rising && !b->step_within_noise)
		b->step = "rise";
	else if (xb < xa && !b->step_within_noise)
		b->step = "fall";
	else
		b->step = "flat";
}

/* Is resource r near its ceiling and flat at every level from `from`? */
static bool binds_over(const struct binder_group *g, enum binder_resource r, size_t from,
		       double near, double flat_pct)
{
	double lo = INFINITY, hi = -INFINITY, mid;
	double *med = calloc(g->nlevels, sizeof(*med));
	size_t k = 0;
	bool ok = med != NULL;
	for (size_t i = from; ok && i < g->nlevels; i++) {
		const struct binder_use *u = &g->levels[i].res[r];
		if (u->n == 0 || !isfinite(u->ratio) || u->ratio < near) {
			ok = false;
			break;
		}
		med[k++] = u->median;
		lo = u->median < lo ? u->median : lo;
		hi = u->median > hi ? u->median : hi;
	}
	if (ok && k > 0 && stats_median(med, k, &mid) == 0)
		ok = mid > 0 && (hi - lo) / mid * 100.0 <= flat_pct;
	else
		ok = false;
	free(med);
	return ok;
}

static int by_ratio(const void *a, const void *b)
{
	const struct binder_rank *x = a, *y = b;
	if (x->ratio != y->ratio)
		return x->ratio < y->ratio ? 1 : -1;
	return (x->r > y->r) - (x->r < y->r);
}

static void rank_of(struct binder_group *g, size_t from)
{
	g->nrank = 0;
	for (int r = 0; r < BINDER_NRES; r++) {
		double best = -INFINITY;
		for (size_t i = from; i < g->nlevels; i++) {
			const struct binder_use *u = &g->levels[i].res[r];
			if (u->n && isfinite(u->ratio) && u->ratio > best)
				best = u->ratio;
		}
		if (!isfinite(best))
			continue;
		g->rank[g->nrank++] = (struct binder_rank){(enum binder_resource)r, best, 1 - best};
	}
	qsort(g->rank, g->nrank, sizeof(g->rank[0]), by_ratio);
}

bool binder_group_records(const struct binder_group *g, enum binder_resource r)
{
	for (size_t i = 0; i < g->nlevels; i++)
		if (g->levels[i].res[r].n > 0)
			return true;
	return false;
}

/* Does PostgreSQL run in this group (some run with its CPU above 0)? */
static bool has_pg(const struct binder_group *g)
{
	for (size_t i = 0; i < g->nlevels; i++)
		if (g->levels[i].res[BINDER_PG_CPU].n && g->levels[i].res[BINDER_PG_CPU].max > 0)
			return true;
	return false;
}

/* The binder among the resources that bind: generator, then the highest ratio. */
static int choose(const struct binder_group *g, size_t from)
{
	int best = -1;
	double best_ratio = -INFINITY;
	if (g->binds[BINDER_GENERATOR])
		return BINDER_GENERATOR;
	for (size_t i = from; i < g->nlevels; i++)
		if (g->levels[i].gen_flagged)
			return BINDER_GENERATOR;
	for (int r = 0; r < BINDER_NRES; r++) {
		double ratio = g->levels[g->nlevels - 1].res[r].ratio;
		if (!g->binds[r] || r == BINDER_HOST_CPU)
			continue;
		if (binder_resource_is_cpu((enum binder_resource)r) && g->cpu_untrusted)
			continue;
		if (ratio > best_ratio) {
			best = r;
			best_ratio = ratio;
		}
	}
	if (best < 0 && g->binds[BINDER_HOST_CPU] && !g->cpu_untrusted)
		best = BINDER_HOST_CPU;
	return best;
}

static void judge(struct binder_group *g, const struct binders_options *opts)
{
	size_t k;
	g->binder = -1;
	g->plateau_from = g->nlevels;
	for (size_t i = 0; i < g->nlevels; i++) {
		g->cpu_checked_runs += g->levels[i].cpu_checked;
		g->cpu_untrusted_runs += g->levels[i].cpu_untrusted;
		g->little_checked += g->levels[i].little_checked;
		g->little_fails += g->levels[i].little_fails;
		g->err_levels += g->levels[i].has_err;
		if (!g->has_knee && g->levels[i].has_err && g->levels[i].err.median > 0) {
			g->has_knee = true;
			g->knee = i;
		}
	}
	g->cpu_untrusted = g->cpu_checked_runs && g->cpu_untrusted_runs * 2 > g->cpu_checked_runs;
	for (size_t i = 1; i < g->nlevels; i++)
		step_of(&g->levels[i - 1], &g->levels[i], opts);
	if (!has_pg(g))
		for (size_t i = 0; i < g->nlevels; i++)
			g->levels[i].res[BINDER_PG_CPU].n = 0;
	if (g->nlevels < 2) {
		g->verdict = BINDERS_SINGLE;
		snprintf(g->why, sizeof(g->why), "one level: no trend to judge");
		rank_of(g, 0);
		return;
	}
	k = g->nlevels - 1;
	while (k > 0 && strcmp(g->levels[k].step, "rise") != 0)
		k--;
	if (k >= g->nlevels - 1) {
		g->verdict = BINDERS_RISING;
		snprintf(g->why, sizeof(g->why),
			 "throughput still rises at the last step (elasticity %.2f): nothing binds "
			 "within the sweep",
			 g->levels[g->nlevels - 1].elasticity);
		rank_of(g, 0);
		return;
	}
	g->plateau_from = k;
	{
		const struct binder_level *a = &g->levels[k], *b = &g->levels[g->nlevels - 1];
		g->latency_known = a->has_latency && b->has_latency;
		g->latency_rises = !g->latency_known ||
				   b->latency.median >
					   a->latency.median * (1 + opts->latency_rise_pct / 100.0);
	}
	for (int r = 0; r < BINDER_NRES; r++)
		g->binds[r] = binds_over(g, (enum binder_resource)r, k, opts->near, opts->flat_pct);
	rank_of(g, k);
	if (g->latency_known && !g->latency_rises) {
		g->verdict = BINDERS_NONE;
		snprintf(g->why, sizeof(g->why),
			 "throughput stops rising but latency does not rise over the plateau: the "
			 "offered load did not grow");
		return;
	}
	g->binder = choose(g, k);
	if (g->binder >= 0) {
		g->verdict = BINDERS_BINDER;
		snprintf(g->why, sizeof(g->why),
			 "%s stays at %.0f%% of its capacity at the plateau's first level and %.0f%% at "
			 "its last while throughput stops rising",
			 binder_resource_words((enum binder_resource)g->binder),
			 100 * g->levels[k].res[g->binder].ratio,
			 100 * g->levels[g->nlevels - 1].res[g->binder].ratio);
	} else if (g->cpu_untrusted) {
		g->verdict = BINDERS_UNTRUSTED;
		snprintf(g->why, sizeof(g->why),
			 "%zu of %zu runs fail the tick check: the guest's CPU accounting cannot "
			 "say "
			 "whether CPU binds, and nothing else is near its ceiling",
			 g->cpu_untrusted_runs, g->cpu_checked_runs);
	} else {
		g->verdict = BINDERS_NONE;
		snprintf(
			g->why, sizeof(g->why),
			"throughput stops rising but no resource stays near its ceiling (%.0f%% of "
			"capacity)",
			100 * opts->near);
	}
}

int binders_compute(struct binder_run *runs, size_t n, const struct binders_options *opts,
		    struct binders *out)
{
	struct order *o = NULL;
	double *v = NULL;
	size_t ngroups = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	for (size_t i = 0; i < n; i++) {
		little(&runs[i]);
		out->little_checked += runs[i].little_checked;
		out->little_fails += runs[i].little_fails;
	}
	o = ordered(runs, n, &ngroups);
	v = calloc(3 * (n ? n : 1), sizeof(*v));
	out->levels = calloc(n ? n : 1, sizeof(*out->levels));
	out->groups = calloc(ngroups ? ngroups : 1, sizeof(*out->groups));
	if (!o || !v || !out->levels || !out->groups)
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n;) {
		size_t j = i;
		while (j < n && o[j].group == o[i].group && o[j].run->level == o[i].run->level)
			j++;
		rc = level_of(&o[i], j - i, v, &out->levels[out->nlevels]);
		if (rc == 0) {
			struct binder_group *g = &out->groups[o[i].group];
			if (!g->levels) {
				g->group = o[i].run->group;
				g->levels = &out->levels[out->nlevels];
			}
			g->nlevels++;
			g->nruns += j - i;
			out->nlevels++;
		}
		i = j;
	}
	out->ngroups = rc == 0 ? ngroups : 0;
	for (size_t i = 0; i < out->ngroups; i++) {
		judge(&out->groups[i], opts);
		out->nbinders += out->groups[i].binder >= 0;
	}
	free(o);
	free(v);
	if (rc)
		binders_release(out);
	return rc;
}

void binders_release(struct binders *b)
{
	for (size_t i = 0; b->levels && i < b->nlevels; i++)
		free(b->levels[i].tput_v);
	free(b->levels);
	free(b->groups);
	memset(b, 0, sizeof(*b));
}
