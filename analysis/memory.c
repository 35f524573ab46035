/* memory: see memory.h. */
#include "memory.h"

#include "../common/err.h"
#include "pooling.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A point as the sort sees it: its keys and its position among the points;
 * key is its group's rank << 32 | its block's rank (struct text_ranks), so
 * the sort compares integers where it compared texts.
 */
struct entry {
	const char *group, *block;
	uint64_t key;
	double level, value;
	size_t pos;
};

static int cmp_text(const char *a, const char *b)
{
	if (a == b)
		return 0; /* the same text: a selection's texts are interned (select.h) */
	if (!a || !b)
		return (a != NULL) - (b != NULL); /* NULL first */
	return strcmp(a, b);
}

static int cmp_size(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int cmp_level(double a, double b)
{
	return (a > b) - (a < b);
}

/*
 * The distinct texts of one field of the points (their groups or blocks),
 * each pointer once in an open-addressing table (a selection's equal texts
 * are one pointer, but equal texts need not be), ranked in cmp_text order:
 * equal texts have one rank.
 */
struct text_ranks {
	const char **slot_text; /* the pointers; slot_used says which slots hold one */
	bool *slot_used;
	uint32_t *slot_rank;
	size_t nslots, nused;
};

static size_t rank_slot(const struct text_ranks *r, const char *text)
{
	size_t i = (size_t)(((uintptr_t)text >> 3) * 0x9e3779b97f4a7c15u) & (r->nslots - 1);
	while (r->slot_used[i] && r->slot_text[i] != text)
		i = (i + 1) & (r->nslots - 1);
	return i;
}

static void ranks_release(struct text_ranks *r)
{
	free(r->slot_text);
	free(r->slot_used);
	free(r->slot_rank);
	memset(r, 0, sizeof(*r));
}

static int ranks_grow(struct text_ranks *r)
{
	struct text_ranks bigger = {0};
	bigger.nslots = r->nslots ? 2 * r->nslots : 64;
	bigger.slot_text = calloc(bigger.nslots, sizeof(*bigger.slot_text));
	bigger.slot_used = calloc(bigger.nslots, sizeof(*bigger.slot_used));
	bigger.slot_rank = calloc(bigger.nslots, sizeof(*bigger.slot_rank));
	if (!bigger.slot_text || !bigger.slot_used || !bigger.slot_rank) {
		ranks_release(&bigger);
		return err_set("out of memory");
	}
	for (size_t i = 0; i < r->nslots; i++)
		if (r->slot_used[i]) {
			size_t j = rank_slot(&bigger, r->slot_text[i]);
			bigger.slot_used[j] = true;
			bigger.slot_text[j] = r->slot_text[i];
		}
	bigger.nused = r->nused;
	ranks_release(r);
	*r = bigger;
	return 0;
}

static int by_text(const void *pa, const void *pb)
{
	return cmp_text(*(const char *const *)pa, *(const char *const *)pb);
}

/* Rank the distinct texts of e[i].group (block false) or e[i].block. */
static int ranks_build(struct text_ranks *r, const struct entry *e, size_t n, bool block)
{
	const char **texts;
	size_t k = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const char *t = block ? e[i].block : e[i].group;
		size_t j;
		if (2 * (r->nused + 1) > r->nslots && (rc = ranks_grow(r)) != 0)
			break;
		j = rank_slot(r, t);
		if (!r->slot_used[j]) {
			r->slot_used[j] = true;
			r->slot_text[j] = t;
			r->nused++;
		}
	}
	if (rc)
		return rc;
	if (!(texts = malloc((r->nused ? r->nused : 1) * sizeof(*texts))))
		return err_set("out of memory");
	for (size_t i = 0; i < r->nslots; i++)
		if (r->slot_used[i])
			texts[k++] = r->slot_text[i];
	qsort(texts, k, sizeof(*texts), by_text);
	for (size_t i = 0, rank = 0; i < k; i++) {
		rank += i > 0 && cmp_text(texts[i - 1], texts[i]) != 0;
		r->slot_rank[rank_slot(r, texts[i])] = (uint32_t)rank;
	}
	free(texts);
	return 0;
}

static uint32_t rank_of(const struct text_ranks *r, const char *text)
{
	return r->slot_rank[rank_slot(r, text)];
}

/* Every entry's key from its group's and block's ranks; *ngroups, *nblocks: ranks of each. */
static int entry_keys(struct entry *e, size_t n, size_t *ngroups, size_t *nblocks)
{
	struct text_ranks groups = {0}, blocks = {0};
	int rc = ranks_build(&groups, e, n, false);
	if (rc == 0)
		rc = ranks_build(&blocks, e, n, true);
	*ngroups = *nblocks = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		uint32_t g = rank_of(&groups, e[i].group), b = rank_of(&blocks, e[i].block);
		e[i].key = (uint64_t)g << 32 | b;
		if (g >= *ngroups)
			*ngroups = (size_t)g + 1;
		if (b >= *nblocks)
			*nblocks = (size_t)b + 1;
	}
	ranks_release(&groups);
	ranks_release(&blocks);
	return rc;
}

/* Stable counting sort of in[0, n) into out by one part of the key (nranks values). */
static int count_sort(const struct entry *in, struct entry *out, size_t n, size_t nranks,
		      bool group)
{
	size_t *at = calloc(nranks + 1, sizeof(*at));
	if (!at)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		at[(group ? in[i].key >> 32 : in[i].key & 0xffffffffu) + 1]++;
	for (size_t r = 0; r < nranks; r++)
		at[r + 1] += at[r];
	for (size_t i = 0; i < n; i++)
		out[at[group ? in[i].key >> 32 : in[i].key & 0xffffffffu]++] = in[i];
	free(at);
	return 0;
}

/*
 * The points sorted once by group, block, level, then position, so each
 * group, each of its blocks and each block's level is a run of the order,
 * and equal keys keep the points' order (a median's buffer, and so its
 * messages, are what a scan in point order gives).
 */
static int by_group_block_level(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = (a->key > b->key) - (a->key < b->key); /* group, then block (entry_keys) */
	if (c == 0)
		c = cmp_level(a->level, b->level);
	return c ? c : cmp_size(a->pos, b->pos);
}

static int by_level(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = cmp_level(a->level, b->level);
	return c ? c : cmp_size(a->pos, b->pos);
}

/*
 * e (in point order) sorted as qsort by by_group_block_level sorts it: by
 * block, then group, with two stable counting sorts (tmp: n entries of
 * scratch), then each block's points by level and position (few: by
 * insertion, a large block by qsort).
 */
static int order_points(struct entry *e, struct entry *tmp, size_t n, size_t ngroups,
			size_t nblocks)
{
	int rc = count_sort(e, tmp, n, nblocks, false);
	if (rc == 0)
		rc = count_sort(tmp, e, n, ngroups, true);
	for (size_t start = 0, end; rc == 0 && start < n; start = end) {
		for (end = start + 1; end < n && e[end].key == e[start].key; end++)
			;
		if (end - start > 32) {
			qsort(e + start, end - start, sizeof(*e), by_group_block_level);
			continue;
		}
		for (size_t i = start + 1; i < end; i++) {
			struct entry x = e[i];
			size_t j = i;
			for (; j > start && by_group_block_level(&e[j - 1], &x) > 0; j--)
				e[j] = e[j - 1];
			e[j] = x;
		}
	}
	return rc;
}

/* A run [start, end) of the order and the first point (in point order) in it. */
struct span {
	size_t start, end;
	size_t first;
};

static int by_first(const void *pa, const void *pb)
{
	return cmp_size(((const struct span *)pa)->first, ((const struct span *)pb)->first);
}

static bool same_group(const struct entry *a, const struct entry *b)
{
	return a->key >> 32 == b->key >> 32;
}

static bool same_block(const struct entry *a, const struct entry *b)
{
	return a->key == b->key;
}

/* Cut e[start, end) into runs of equal keys, in the order of their first points. */
static size_t spans_of(const struct entry *e, size_t start, size_t end,
		       bool (*same)(const struct entry *, const struct entry *), struct span *out)
{
	size_t k = 0;
	for (size_t i = start; i < end; i++) {
		if (i == start || !same(&e[i - 1], &e[i]))
			out[k++] = (struct span){i, i, e[i].pos};
		out[k - 1].end = i + 1;
		if (e[i].pos < out[k - 1].first)
			out[k - 1].first = e[i].pos;
	}
	qsort(out, k, sizeof(*out), by_first);
	return k;
}

/* The median of e[start, ...) at e[start]'s level (e sorted by level); *end after them. */
static int median_from(const struct entry *e, size_t start, size_t limit, double *buf, size_t *end,
		       double *median)
{
	size_t m = 0, i = start;
	for (; i < limit && e[i].level == e[start].level; i++)
		buf[m++] = e[i].value;
	*end = i;
	return stats_median(buf, m, median);
}

/* Distinct levels of e[start, end) (sorted by level). */
static size_t distinct_levels(const struct entry *e, size_t start, size_t end)
{
	size_t k = 0;
	for (size_t i = start; i < end; i++)
		k += i == start || e[i].level != e[i - 1].level;
	return k;
}

/* The group's OLS over its points in point order (e), and every residual. */
static int fit_group(struct memory *m, struct memory_point *p, const struct entry *e, size_t count,
		     size_t nlevels, double *x, double *y)
{
	struct memory_fit *fit = &m->fits[m->nfits++];
	fit->group = e[0].group;
	fit->nlevels = nlevels;
	for (size_t i = 0; i < count; i++) {
		x[i] = e[i].level;
		y[i] = e[i].value;
		p[e[i].pos].residual = NAN; /* until the group has a fit */
	}
	if (fit->nlevels < 2) {
		snprintf(fit->note, sizeof(fit->note),
			 "one level only: a slope needs runs at 2 or more levels");
		return 0;
	}
	if (stats_ols(x, y, count, &fit->ols) != 0) {
		snprintf(fit->note, sizeof(fit->note), "%s", err_msg());
		err_clear();
		return 0;
	}
	fit->ok = true;
	for (size_t i = 0; i < count; i++)
		p[e[i].pos].residual =
			e[i].value - (fit->ols.intercept + fit->ols.slope * e[i].level);
	return 0;
}

/* One block's endpoint slope (e[s.start, s.end) by level), when it has 2 or more levels. */
static int endpoint_of(struct memory *m, const struct entry *e, struct span s, double *buf)
{
	struct memory_endpoint *ep;
	size_t end, last = s.end - 1;
	int rc;
	if (distinct_levels(e, s.start, s.end) < 2)
		return 0;
	while (last > s.start && e[last - 1].level == e[s.end - 1].level)
		last--;
	ep = &m->endpoints[m->nendpoints++];
	ep->group = e[s.start].group;
	ep->block = e[s.start].block;
	ep->level_lo = e[s.start].level;
	ep->level_hi = e[last].level;
	rc = median_from(e, s.start, s.end, buf, &end, &ep->value_lo);
	if (rc == 0)
		rc = median_from(e, last, s.end, buf, &end, &ep->value_hi);
	if (rc == 0)
		ep->slope = (ep->value_hi - ep->value_lo) / (ep->level_hi - ep->level_lo);
	return rc;
}

/* Per level of the group (e sorted by level): the median and the ratio. */
static int ratios_of(struct memory *m, const struct entry *e, size_t count, double *buf)
{
	for (size_t i = 0; i < count;) {
		struct memory_ratio *r = &m->ratios[m->nratios++];
		size_t end;
		int rc = median_from(e, i, count, buf, &end, &r->median);
		if (rc)
			return rc;
		r->group = e[i].group;
		r->level = e[i].level;
		r->n = end - i;
		r->ratio = r->level != 0 ? r->median / r->level : NAN;
		i = end;
	}
	return 0;
}

/* memory_compute's work arrays, n elements each. */
struct memory_work {
	struct entry *order;  /* by group, block, level */
	struct entry *by_pos; /* each group's points in point order, where its span of order is */
	struct entry *group;  /* one group's points by level */
	size_t *group_at;     /* a point's group (its index in groups) */
	struct span *groups, *blocks;
	double *x, *y, *buf;
};

/*
 * Fill w->by_pos from the points in point order (in): a counting sort by
 * group, so no group needs sorting back into point order.
 */
static void group_by_pos(struct memory_work *w, const struct entry *in, size_t n, size_t ngroups)
{
	for (size_t g = 0; g < ngroups; g++) {
		for (size_t i = w->groups[g].start; i < w->groups[g].end; i++)
			w->group_at[w->order[i].pos] = g;
		w->groups[g].first = w->groups[g].start; /* the next free place of the group */
	}
	for (size_t i = 0; i < n; i++)
		w->by_pos[w->groups[w->group_at[i]].first++] = in[i];
	for (size_t g = 0; g < ngroups; g++)
		w->groups[g].first = w->by_pos[w->groups[g].start].pos;
}

/* One group g of the order: its fit, its blocks' endpoint slopes, its ratios. */
static int group_compute(struct memory *out, struct memory_point *p, struct memory_work *w,
			 struct span g)
{
	size_t count = g.end - g.start, nblocks, nlevels;
	const struct entry *in_order = w->by_pos + g.start;
	struct entry *e = w->group;
	int rc;
	memcpy(e, in_order, count * sizeof(*e));
	qsort(e, count, sizeof(*e), by_level);
	nlevels = distinct_levels(e, 0, count);
	rc = fit_group(out, p, in_order, count, nlevels, w->x, w->y);
	nblocks = spans_of(w->order, g.start, g.end, same_block, w->blocks);
	for (size_t b = 0; rc == 0 && b < nblocks; b++)
		rc = endpoint_of(out, w->order, w->blocks[b], w->buf);
	if (rc == 0)
		rc = ratios_of(out, e, count, w->buf);
	return rc;
}

static void work_release(struct memory_work *w)
{
	free(w->order);
	free(w->by_pos);
	free(w->group);
	free(w->group_at);
	free(w->groups);
	free(w->blocks);
	free(w->x);
	free(w->y);
	free(w->buf);
}

/*
 * One sort of the points by group, block and level (n log n; the scan of
 * every earlier point for each one was quadratic in runs), then each group
 * in the order of its first point, each block in the order of its first
 * point within the group.
 */
int memory_compute(struct memory_point *points, size_t n, struct memory *out)
{
	struct memory_work w = {0};
	size_t ngroups, ngroup_ranks = 0, nblock_ranks = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return err_set("no runs to analyse (check --corpus and --where; excluded runs "
			       "are left out unless --include-excluded)");
	w.order = malloc(n * sizeof(*w.order));
	w.by_pos = malloc(n * sizeof(*w.by_pos));
	w.group = malloc(n * sizeof(*w.group));
	w.group_at = malloc(n * sizeof(*w.group_at));
	w.groups = malloc(n * sizeof(*w.groups));
	w.blocks = malloc(n * sizeof(*w.blocks));
	w.x = malloc(n * sizeof(*w.x));
	w.y = malloc(n * sizeof(*w.y));
	w.buf = malloc(n * sizeof(*w.buf));
	out->fits = calloc(n, sizeof(*out->fits));
	out->endpoints = calloc(n, sizeof(*out->endpoints));
	out->ratios = calloc(n, sizeof(*out->ratios));
	if (!w.order || !w.by_pos || !w.group || !w.group_at || !w.groups || !w.blocks || !w.x ||
	    !w.y || !w.buf || !out->fits || !out->endpoints || !out->ratios)
		rc = err_set("out of memory");
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			w.order[i] = (struct entry){points[i].group, points[i].block, 0,
						    points[i].level, points[i].value, i};
		rc = entry_keys(w.order, n, &ngroup_ranks, &nblock_ranks);
	}
	if (rc == 0) {
		memcpy(w.by_pos, w.order, n * sizeof(*w.order));
		rc = order_points(w.order, w.group, n, ngroup_ranks, nblock_ranks);
	}
	if (rc == 0) {
		ngroups = spans_of(w.order, 0, n, same_group, w.groups);
		memcpy(w.group, w.by_pos, n * sizeof(*w.group)); /* the points in point order */
		group_by_pos(&w, w.group, n, ngroups);
		for (size_t g = 0; rc == 0 && g < ngroups; g++)
			rc = group_compute(out, points, &w, w.groups[g]);
	}
	work_release(&w);
	if (rc)
		memory_release(out);
	return rc;
}

void memory_release(struct memory *m)
{
	free(m->fits);
	free(m->endpoints);
	free(m->ratios);
	memset(m, 0, sizeof(*m));
}

static const char *const trace_metrics[] = {"rss_median_kb", "rss_mean_kb", "rss_peak_kb",
					    "mem_avail_min_kb", NULL};

bool memory_trace_metric(const char *name)
{
	for (size_t i = 0; trace_metrics[i]; i++)
		if (!strcmp(trace_metrics[i], name))
			return true;
	return false;
}

static double trace_value(const struct run_cores *c, const char *name)
{
	if (!c->ok)
		return NAN;
	if (!strcmp(name, "rss_median_kb"))
		return c->cpu.rss_median_kb;
	if (!strcmp(name, "rss_mean_kb"))
		return c->cpu.rss_mean_kb;
	if (!strcmp(name, "rss_peak_kb"))
		return c->cpu.rss_peak_kb;
	return c->cpu.mem_avail_min_kb;
}

/* Points from the selection; trace-derived metrics are recomputed per run. */
static int build_points(sqlite3 *db, const struct memory_request *req, const char *metric,
			struct memory_result *out)
{
	struct selection *sel = &out->sel;
	int rc = 0;
	out->npoints = 0;
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		const struct sel_run *run = &sel->runs[i];
		struct memory_point *p = &out->points[out->npoints];
		double value = run->metric;
		if (!run->level_numeric)
			return err_set("run '%s': level '%s' is not a number", run->tag,
				       run->level_text);
		if (out->from_trace) {
			struct run_cores c;
			rc = cores_compute(db, run->run_id, NAN, &req->cores, &c);
			if (rc)
				return rc;
			value = trace_value(&c, metric);
			if (isnan(value)) {
				rc = selection_leave_out(sel, run->tag,
							 c.note[0] ? c.note : "no trace value");
				continue;
			}
		}
		p->tag = run->tag;
		p->group = run->group;
		p->block = run->block;
		p->level = run->level;
		p->value = value;
		p->residual = NAN;
		out->npoints++;
	}
	return rc;
}

int memory_run(sqlite3 *db, const struct memory_request *req, struct memory_result *out)
{
	const char *metric = req->metric ? req->metric : "load_rss_kb";
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .numeric_by = true,
				   .block = req->block ? req->block : "block",
				   .group = req->group};
	int rc;
	memset(out, 0, sizeof(*out));
	out->from_trace = memory_trace_metric(metric);
	spec.metric = out->from_trace ? NULL : metric;
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && !(out->points = calloc(out->sel.n ? out->sel.n : 1, sizeof(*out->points))))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = build_points(db, req, metric, out);
	if (rc == 0 && out->npoints == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "memory", "--group");
	if (rc == 0)
		rc = memory_compute(out->points, out->npoints, &out->mem);
	return rc;
}

void memory_result_release(struct memory_result *r)
{
	memory_release(&r->mem);
	free(r->points);
	selection_release(&r->sel);
	memset(r, 0, sizeof(*r));
}

void memory_points_take(struct memory_result *r, struct memory_points *out)
{
	out->points = r->points;
	out->n = r->npoints;
	out->texts = r->sel.strings;
	r->points = NULL;
	r->npoints = 0;
	r->sel.strings = (struct strpool)STRPOOL_INIT;
}

void memory_points_release(struct memory_points *p)
{
	free(p->points);
	strpool_release(&p->texts);
	memset(p, 0, sizeof(*p));
}
