/* sweep: see sweep.h. */
#include "sweep.h"

#include "../common/err.h"
#include "pooling.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sweep_options_init(struct sweep_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->stop_efficiency = SWEEP_STOP_EFFICIENCY;
}

/* The distinct levels, ascending. */
static int distinct_levels(const struct selection *sel, double **levels, size_t *n)
{
	double *all = malloc((sel->n ? sel->n : 1) * sizeof(*all));
	size_t count = 0;
	if (!all)
		return err_set("out of memory");
	for (size_t i = 0; i < sel->n; i++) {
		if (!sel->runs[i].level_numeric || !(sel->runs[i].level > 0)) {
			int rc = err_set("run '%s': level '%s' is not a number above 0 (a sweep "
					 "needs numeric levels)",
					 sel->runs[i].tag, sel->runs[i].level_text);
			free(all);
			return rc;
		}
		all[i] = sel->runs[i].level;
	}
	gsl_sort(all, 1, sel->n);
	for (size_t i = 0; i < sel->n; i++)
		if (count == 0 || all[i] != all[count - 1])
			all[count++] = all[i];
	*levels = all;
	*n = count;
	return 0;
}

static int level_stats(const struct selection *sel, struct sweep_level *lv, double *values,
		       double *cores)
{
	size_t n = 0, ncores = 0;
	int rc;
	for (size_t i = 0; i < sel->n; i++) {
		if (sel->runs[i].level != lv->level)
			continue;
		values[n++] = sel->runs[i].metric;
		if (!isnan(sel->runs[i].app_cores))
			cores[ncores++] = sel->runs[i].app_cores;
	}
	rc = stats_summary(values, n, &lv->s);
	if (rc) {
		err_prefix("level %g", lv->level);
		return rc;
	}
	lv->app_cores = NAN;
	lv->cpu_us_per_op = NAN;
	lv->app_cores_n = ncores;
	if (ncores > 0) {
		rc = stats_median(cores, ncores, &lv->app_cores);
		if (rc == 0 && lv->s.median > 0)
			lv->cpu_us_per_op = lv->app_cores * 1e6 / lv->s.median;
	}
	return rc;
}

static int find_base(struct sweep *sw, const struct sweep_options *opts, size_t *base_index)
{
	*base_index = 0;
	if (!opts->has_base)
		return 0;
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].level == opts->base) {
			*base_index = i;
			return 0;
		}
	return err_usage("--base %g is not one of the levels", opts->base);
}

static void scaling(struct sweep *sw, size_t base_index)
{
	const struct sweep_level *base = &sw->levels[base_index];
	sw->base = base->level;
	sw->stop_index = sw->nlevels;
	for (size_t i = 0; i < sw->nlevels; i++) {
		struct sweep_level *lv = &sw->levels[i];
		lv->speedup = lv->s.median / base->s.median;
		lv->efficiency = lv->speedup / (lv->level / base->level);
		lv->per_unit = lv->s.median / lv->level;
		lv->per_doubling = NAN;
		if (i == 0)
			continue;
		lv->per_doubling = pow(lv->s.median / sw->levels[i - 1].s.median,
				       1.0 / log2(lv->level / sw->levels[i - 1].level));
		if (sw->stop_index == sw->nlevels &&
		    lv->per_doubling < 2.0 * sw->stop_efficiency) {
			lv->scaling_stops = true;
			sw->stop_index = i;
		}
	}
}

static void whole_sweep_fit(struct sweep *sw)
{
	double *levels = malloc(sw->nlevels * sizeof(double));
	double *medians = malloc(sw->nlevels * sizeof(double));
	sw->has_fit = false;
	if (!levels || !medians) {
		snprintf(sw->fit_note, sizeof(sw->fit_note), "out of memory");
	} else if (sw->nlevels < 3) {
		snprintf(sw->fit_note, sizeof(sw->fit_note),
			 "no whole-sweep fit: %zu level%s, a fit needs at least 3", sw->nlevels,
			 sw->nlevels == 1 ? "" : "s");
	} else {
		for (size_t i = 0; i < sw->nlevels; i++) {
			levels[i] = sw->levels[i].level;
			medians[i] = sw->levels[i].s.median;
		}
		if (stats_per_doubling(levels, medians, sw->nlevels, &sw->fit) == 0)
			sw->has_fit = true;
		else
			snprintf(sw->fit_note, sizeof(sw->fit_note), "no whole-sweep fit: %s",
				 err_msg());
	}
	free(levels);
	free(medians);
}

int sweep_compute(const struct selection *sel, const struct sweep_options *opts,
		  struct sweep *out)
{
	double *levels = NULL, *values = NULL, *cores = NULL;
	size_t nlevels = 0, base_index = 0;
	int rc;
	memset(out, 0, sizeof(*out));
	out->stop_efficiency = opts->stop_efficiency;
	if (sel->n == 0)
		return err_set("no runs to analyse (check --corpus and --where; excluded runs "
			       "are left out unless --include-excluded)");
	rc = distinct_levels(sel, &levels, &nlevels);
	if (rc)
		return rc;
	out->levels = calloc(nlevels, sizeof(*out->levels));
	values = malloc(sel->n * sizeof(*values));
	cores = malloc(sel->n * sizeof(*cores));
	if (!out->levels || !values || !cores) {
		rc = err_set("out of memory");
		goto done;
	}
	out->nlevels = nlevels;
	for (size_t i = 0; rc == 0 && i < nlevels; i++) {
		out->levels[i].level = levels[i];
		rc = level_stats(sel, &out->levels[i], values, cores);
	}
	if (rc == 0)
		rc = find_base(out, opts, &base_index);
	if (rc == 0 && !(out->levels[base_index].s.median > 0))
		rc = err_set("the median at the base level %g is not above 0: no speedup",
			     out->levels[base_index].level);
	if (rc == 0) {
		scaling(out, base_index);
		whole_sweep_fit(out);
	}
done:
	free(levels);
	free(values);
	free(cores);
	if (rc)
		sweep_release(out);
	return rc;
}

void sweep_release(struct sweep *sw)
{
	free(sw->levels);
	memset(sw, 0, sizeof(*sw));
}

int sweep_run(sqlite3 *db, const struct sweep_request *req, struct sweep_result *out)
{
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .metric = req->metric ? req->metric : "tput"};
	int rc;
	memset(out, 0, sizeof(*out));
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = sweep_compute(&out->sel, &req->opts, &out->sw);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "sweep", false);
	return rc;
}

void sweep_result_release(struct sweep_result *r)
{
	sweep_release(&r->sw);
	selection_release(&r->sel);
}
