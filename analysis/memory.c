/* memory: see memory.h. */
#include "memory.h"

#include "../common/err.h"

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
