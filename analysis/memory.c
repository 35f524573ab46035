/* memory: see memory.h. */
#include "memory.h"

#include "../common/err.h"
#include "pooling.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *push(void *array_ptr, size_t *count, size_t size)
{
	void **array = array_ptr;
	char *grown = realloc(*array, (*count + 1) * size);
	if (!grown) {
		err_set("out of memory");
		return NULL;
	}
	*array = grown;
	memset(grown + *count * size, 0, size);
	return grown + (*count)++ * size;
}

static bool same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && !strcmp(a, b));
}

/* Distinct sorted levels of a group (and block, unless NULL means any). */
static size_t levels_of(const struct memory_point *p, size_t n, const char *group,
			const char *block, bool any_block, double *out)
{
	size_t count = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		if (same(p[i].group, group) && (any_block || same(p[i].block, block)))
			out[count++] = p[i].level;
	gsl_sort(out, 1, count);
	for (size_t i = 0; i < count; i++)
		if (k == 0 || out[i] != out[k - 1])
			out[k++] = out[i];
	return k;
}

static int median_at(const struct memory_point *p, size_t n, const char *group,
		     const char *block, bool any_block, double level, double *buf, size_t *m,
		     double *median)
{
	*m = 0;
	for (size_t i = 0; i < n; i++)
		if (same(p[i].group, group) && (any_block || same(p[i].block, block)) &&
		    p[i].level == level)
			buf[(*m)++] = p[i].value;
	return stats_median(buf, *m, median);
}

static int fit_group(struct memory *m, struct memory_point *p, size_t n, const char *group,
		     double *x, double *y)
{
	struct memory_fit *fit = push(&m->fits, &m->nfits, sizeof(*fit));
	size_t k = 0;
	if (!fit)
		return ERR_DATA;
	fit->group = group;
	for (size_t i = 0; i < n; i++)
		if (same(p[i].group, group)) {
			x[k] = p[i].level;
			y[k++] = p[i].value;
			p[i].residual = NAN; /* until the group has a fit */
		}
	fit->nlevels = levels_of(p, n, group, NULL, true, x + n);
	if (fit->nlevels < 2) {
		snprintf(fit->note, sizeof(fit->note),
			 "one level only: a slope needs runs at 2 or more levels");
		return 0;
	}
	if (stats_ols(x, y, k, &fit->ols) != 0) {
		snprintf(fit->note, sizeof(fit->note), "%s", err_msg());
		err_clear();
		return 0;
	}
	fit->ok = true;
	for (size_t i = 0; i < n; i++)
		if (same(p[i].group, group))
			p[i].residual = p[i].value - (fit->ols.intercept + fit->ols.slope * p[i].level);
	return 0;
}

static int endpoints_of(struct memory *m, const struct memory_point *p, size_t n,
			const char *group, double *levels, double *buf)
{
	for (size_t i = 0; i < n; i++) {
		struct memory_endpoint *e;
		size_t nl, count;
		bool seen = false;
		int rc;
		if (!same(p[i].group, group))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = same(p[j].group, group) && same(p[j].block, p[i].block);
		if (seen)
			continue;
		nl = levels_of(p, n, group, p[i].block, false, levels);
		if (nl < 2)
			continue;
		if (!(e = push(&m->endpoints, &m->nendpoints, sizeof(*e))))
			return ERR_DATA;
		e->group = group;
		e->block = p[i].block;
		e->level_lo = levels[0];
		e->level_hi = levels[nl - 1];
		rc = median_at(p, n, group, p[i].block, false, e->level_lo, buf, &count,
			       &e->value_lo);
		if (rc == 0)
			rc = median_at(p, n, group, p[i].block, false, e->level_hi, buf, &count,
				       &e->value_hi);
		if (rc)
			return rc;
		e->slope = (e->value_hi - e->value_lo) / (e->level_hi - e->level_lo);
	}
	return 0;
}

static int ratios_of(struct memory *m, const struct memory_point *p, size_t n,
		     const char *group, double *levels, double *buf)
{
	size_t nl = levels_of(p, n, group, NULL, true, levels);
	for (size_t l = 0; l < nl; l++) {
		struct memory_ratio *r = push(&m->ratios, &m->nratios, sizeof(*r));
		int rc;
		if (!r)
			return ERR_DATA;
		r->group = group;
		r->level = levels[l];
		rc = median_at(p, n, group, NULL, true, levels[l], buf, &r->n, &r->median);
		if (rc)
			return rc;
		r->ratio = levels[l] != 0 ? r->median / levels[l] : NAN;
	}
	return 0;
}

int memory_compute(struct memory_point *points, size_t n, struct memory *out)
{
	double *x = NULL, *y = NULL, *levels = NULL, *buf = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return err_set("no runs to analyse (check --corpus and --where; excluded runs "
			       "are left out unless --include-excluded)");
	x = malloc(2 * n * sizeof(*x));
	y = malloc(n * sizeof(*y));
	levels = malloc(n * sizeof(*levels));
	buf = malloc(n * sizeof(*buf));
	if (!x || !y || !levels || !buf)
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = same(points[j].group, points[i].group);
		if (seen)
			continue;
		rc = fit_group(out, points, n, points[i].group, x, y);
		if (rc == 0)
			rc = endpoints_of(out, points, n, points[i].group, levels, buf);
		if (rc == 0)
			rc = ratios_of(out, points, n, points[i].group, levels, buf);
	}
	free(x);
	free(y);
	free(levels);
	free(buf);
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
