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
	field_metric_meaning("tput", NULL, false, &opts->metric);
	opts->level_counts_workers = true;
}

void sweep_options_fields(struct sweep_options *opts, const char *metric, const char *by,
			  const enum field_kind *kind, bool lower_is_better)
{
	opts->metric_name = metric ? metric : "tput";
	opts->by = by;
	field_metric_meaning(opts->metric_name, kind, lower_is_better, &opts->metric);
	opts->level_counts_workers = by && field_counts_workers(by);
}

/* Which derived figures mean something for this metric and level, and why not. */
static void applicability(struct sweep *sw, const struct sweep_options *o)
{
	const char *metric = o->metric_name ? o->metric_name : "tput";
	const char *kind = field_kind_name(o->metric.kind);
	bool rate = o->metric.kind == FIELD_KIND_RATE;
	bool time = o->metric.kind == FIELD_KIND_TIME;
	sw->metric = o->metric;
	sw->level_counts_workers = o->level_counts_workers;
	sw->scaling_applies = (rate || time) && o->level_counts_workers;
	sw->per_unit_applies = rate;
	if (!rate && !time)
		snprintf(sw->scaling_why, sizeof(sw->scaling_why),
			 "speedup, efficiency and per_doubling are left out: metric '%s' is of "
			 "kind %s, and they compare a rate or a time",
			 metric, kind);
	else if (!o->level_counts_workers)
		snprintf(sw->scaling_why, sizeof(sw->scaling_why),
			 "speedup, efficiency and per_doubling are left out: level field '%s' "
			 "does not count threads, cores or workers (the fields that do: "
			 "`coreplan sweep --help`)",
			 o->by ? o->by : "?");
	if (!rate)
		snprintf(sw->per_unit_why, sizeof(sw->per_unit_why),
			 "per_unit and cpu_us_per_op are left out: metric '%s' is of kind %s, and "
			 "they divide a rate (operations per second)",
			 metric, kind);
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

static int level_stats(const struct selection *sel, struct sweep_level *lv, bool per_unit,
		       double *values, double *cores)
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
	rc = stats_summary_abs(values, n, &lv->s);
	if (rc) {
		err_prefix("level %g", lv->level);
		return rc;
	}
	lv->app_cores = NAN;
	lv->cpu_us_per_op = NAN;
	lv->app_cores_n = ncores;
	if (ncores > 0) {
		rc = stats_median(cores, ncores, &lv->app_cores);
		if (rc == 0 && per_unit && lv->s.median > 0)
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

/* The figure speedups compare: the median, or its inverse when lower is better; NaN if <= 0. */
static double performance(const struct sweep *sw, const struct sweep_level *lv)
{
	if (!(lv->s.median > 0))
		return NAN;
	return sw->metric.lower_is_better ? 1.0 / lv->s.median : lv->s.median;
}

static void scaling(struct sweep *sw, size_t base_index)
{
	const struct sweep_level *base = &sw->levels[base_index];
	double pbase = performance(sw, base);
	sw->base = base->level;
	sw->stop_index = sw->nlevels;
	if (sw->scaling_applies && isnan(pbase))
		snprintf(sw->base_note, sizeof(sw->base_note),
			 "the median at the base level %g is not above 0: no speedup or efficiency",
			 base->level);
	for (size_t i = 0; i < sw->nlevels; i++) {
		struct sweep_level *lv = &sw->levels[i];
		double p = performance(sw, lv);
		lv->per_unit = sw->per_unit_applies ? lv->s.median / lv->level : NAN;
		lv->speedup = lv->efficiency = lv->per_doubling = NAN;
		if (!sw->scaling_applies)
			continue;
		lv->speedup = p / pbase;
		lv->efficiency = lv->speedup / (lv->level / base->level);
		if (i == 0)
			continue;
		lv->per_doubling = pow(p / performance(sw, &sw->levels[i - 1]),
				       1.0 / log2(lv->level / sw->levels[i - 1].level));
		if (sw->stop_index == sw->nlevels && isfinite(lv->per_doubling) &&
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
	} else if (!sw->scaling_applies) {
		snprintf(sw->fit_note, sizeof(sw->fit_note),
			 "no whole-sweep per-doubling fit: it needs a rate or a time over a level "
			 "that counts workers");
	} else if (sw->nlevels < 3) {
		snprintf(sw->fit_note, sizeof(sw->fit_note),
			 "no whole-sweep fit: %zu level%s, a fit needs at least 3", sw->nlevels,
			 sw->nlevels == 1 ? "" : "s");
	} else {
		for (size_t i = 0; i < sw->nlevels; i++) {
			levels[i] = sw->levels[i].level;
			medians[i] = sw->levels[i].s.median;
		}
		if (stats_per_doubling(levels, medians, sw->nlevels, &sw->fit) == 0) {
			sw->has_fit = true;
			/* a time: the speedup per doubling is exp(-slope); SE = factor * slope SE */
			if (sw->metric.lower_is_better) {
				double slope_se = sw->fit.factor_se / sw->fit.factor;
				sw->fit.factor = 1.0 / sw->fit.factor;
				sw->fit.factor_se = sw->fit.factor * slope_se;
			}
		} else {
			snprintf(sw->fit_note, sizeof(sw->fit_note), "no whole-sweep fit: %s",
				 err_msg());
		}
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
	applicability(out, opts);
	for (size_t i = 0; rc == 0 && i < nlevels; i++) {
		out->levels[i].level = levels[i];
		rc = level_stats(sel, &out->levels[i], out->per_unit_applies, values, cores);
		out->zero_median_levels += rc == 0 && out->levels[i].s.median == 0;
	}
	if (rc == 0)
		rc = find_base(out, opts, &base_index);
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
	struct sweep_options opts = req->opts;
	int rc;
	memset(out, 0, sizeof(*out));
	sweep_options_fields(&opts, spec.metric, req->by, req->has_kind ? &req->kind : NULL,
			     req->lower_is_better);
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = sweep_compute(&out->sel, &opts, &out->sw);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "sweep", false);
	return rc;
}

void sweep_result_release(struct sweep_result *r)
{
	sweep_release(&r->sw);
	selection_release(&r->sel);
}
