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
	opts->level_counts_workers = field_level_counts_workers(by, opts->workers);
}

/* Which derived figures mean something for this metric and level, and why not. */
static void applicability(struct sweep *sw, const struct sweep_options *o)
{
	const char *metric = o->metric_name ? o->metric_name : "tput";
	const char *kind = field_kind_name(o->metric.kind);
	bool rate = o->metric.kind == FIELD_KIND_RATE;
	bool time = units_kind_is_time(o->metric.kind);
	sw->metric = o->metric;
	sw->level_counts_workers = o->level_counts_workers;
	sw->workers_from = !o->level_counts_workers               ? NULL
			   : o->by && field_counts_workers(o->by) ? "a field known to count workers"
								  : "declared with --workers";
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
			 "is not known to count threads, cores or workers (the fields that do: "
			 "`coreplan sweep --help`; one that does is declared with --workers "
			 "FIELD)",
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

/*
 * Level i's step from level i - 1 by the one decision rule (verdict.h), on
 * the runs' values: the same verdict noise gives the same step.
 */
static int step_verdict(struct sweep *sw, const struct sweep_options *opts, size_t i,
			const double *from, const double *to)
{
	struct sweep_level *lv = &sw->levels[i];
	struct verdict_options o;
	char name_a[40], name_b[40];
	verdict_options_init(&o);
	o.kind = opts->metric.kind;
	o.lower_is_better = opts->metric.lower_is_better;
	snprintf(name_a, sizeof(name_a), "level %g", sw->levels[i - 1].level);
	snprintf(name_b, sizeof(name_b), "level %g", lv->level);
	o.name_a = name_a;
	o.name_b = name_b;
	lv->has_step = true;
	return verdict_two_samples(from, sw->levels[i - 1].s.n, to, lv->s.n, &o, &lv->step);
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
		    (lv->kind == LEVEL_PHYSICAL || lv->kind == LEVEL_ASSUMED) &&
		    lv->per_doubling < 2.0 * sw->stop_efficiency) {
			lv->scaling_stops = true;
			sw->stop_index = i;
		}
	}
}

/*
 * The least-squares per-doubling fit over the levels `use` accepts
 * (NULL: every level); *note says why there is none.
 */
static bool doubling_fit_over(const struct sweep *sw, bool (*use)(const struct sweep_level *),
			      const char *what, struct doubling_fit *fit, char *note, size_t size)
{
	double *levels = malloc((sw->nlevels ? sw->nlevels : 1) * sizeof(double));
	double *medians = malloc((sw->nlevels ? sw->nlevels : 1) * sizeof(double));
	size_t n = 0;
	bool ok = false;
	for (size_t i = 0; levels && medians && i < sw->nlevels; i++) {
		if (use && !use(&sw->levels[i]))
			continue;
		levels[n] = sw->levels[i].level;
		medians[n++] = sw->levels[i].s.median;
	}
	if (!levels || !medians) {
		snprintf(note, size, "out of memory");
	} else if (!sw->scaling_applies) {
		snprintf(note, size,
			 "no %s per-doubling fit: it needs a rate or a time over a level that "
			 "counts workers",
			 what);
	} else if (n < 3) {
		snprintf(note, size, "no %s fit: %zu level%s, a fit needs at least 3", what, n,
			 n == 1 ? "" : "s");
	} else if (stats_per_doubling(levels, medians, n, fit) == 0) {
		ok = true;
		/* a time: the speedup per doubling is exp(-slope); SE = factor * slope SE */
		if (sw->metric.lower_is_better) {
			double slope_se = fit->factor_se / fit->factor, lo = fit->lo;
			fit->factor = 1.0 / fit->factor;
			fit->factor_se = fit->factor * slope_se;
			fit->slope = -fit->slope;
			fit->lo = 1.0 / fit->hi;
			fit->hi = 1.0 / lo;
		}
	} else {
		snprintf(note, size, "no %s fit: %s", what, err_msg());
		err_clear();
	}
	free(levels);
	free(medians);
	return ok;
}

static bool physical_level(const struct sweep_level *lv)
{
	return lv->kind == LEVEL_PHYSICAL || lv->kind == LEVEL_ASSUMED;
}

static void whole_sweep_fit(struct sweep *sw)
{
	sw->has_fit = doubling_fit_over(sw, NULL, "whole-sweep", &sw->fit, sw->fit_note,
					sizeof(sw->fit_note));
	sw->has_physical_fit =
		doubling_fit_over(sw, physical_level, "physical-core", &sw->physical_fit,
				  sw->physical_fit_note, sizeof(sw->physical_fit_note));
}

/* Each level's kind on the host, the SMT steps and the efficiency at the last physical level. */
static void classify(struct sweep *sw, const struct sweep_options *opts)
{
	sw->classified = opts->level_counts_workers;
	if (opts->host)
		sw->host = *opts->host;
	sw->last_physical = sw->nlevels;
	sw->physical_efficiency = NAN;
	for (size_t i = 0; i < sw->nlevels; i++) {
		struct sweep_level *lv = &sw->levels[i];
		lv->kind = sw->classified ? level_kind_on(&sw->host, lv->level) : LEVEL_ASSUMED;
		lv->smt_step = NAN;
		lv->mixed_step = NAN;
		lv->mixed = false;
		lv->smt_over = sw->nlevels;
		if (!sw->classified)
			continue;
		if (physical_level(lv)) {
			sw->nphysical++;
			sw->last_physical = i;
		} else if (lv->kind == LEVEL_SMT) {
			sw->nsmt++;
		} else {
			sw->nbeyond++;
		}
	}
}

/* After scaling(): the SMT steps and the efficiency at the last physical level. */
static void smt_steps(struct sweep *sw)
{
	if (!sw->classified || !sw->scaling_applies)
		return;
	if (sw->last_physical < sw->nlevels)
		sw->physical_efficiency = sw->levels[sw->last_physical].efficiency;
	for (size_t i = 0; sw->last_physical < sw->nlevels && i < sw->nlevels; i++) {
		struct sweep_level *lv = &sw->levels[i];
		if (lv->kind != LEVEL_SMT)
			continue;
		double step = performance(sw, lv) / performance(sw, &sw->levels[sw->last_physical]);
		lv->smt_over = sw->last_physical;
		lv->mixed = sw->host.known &&
			    sw->levels[sw->last_physical].level < (double)sw->host.physical_cores;
		if (lv->mixed)
			lv->mixed_step = step;
		else
			lv->smt_step = step;
	}
}

int sweep_compute(const struct selection *sel, const struct sweep_options *opts, struct sweep *out)
{
	double *levels = NULL, *values = NULL, *cores = NULL, *previous = NULL;
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
	previous = malloc(sel->n * sizeof(*previous));
	cores = malloc(sel->n * sizeof(*cores));
	if (!out->levels || !values || !previous || !cores) {
		rc = err_set("out of memory");
		goto done;
	}
	out->nlevels = nlevels;
	applicability(out, opts);
	for (size_t i = 0; rc == 0 && i < nlevels; i++) {
		double *swap = values;
		out->levels[i].level = levels[i];
		rc = level_stats(sel, &out->levels[i], out->per_unit_applies, values, cores);
		out->zero_median_levels += rc == 0 && out->levels[i].s.median == 0;
		if (rc == 0 && i > 0)
			rc = step_verdict(out, opts, i, previous, values);
		/* this level's values are the next step's `from` */
		values = previous;
		previous = swap;
	}
	if (rc == 0)
		rc = find_base(out, opts, &base_index);
	if (rc == 0) {
		classify(out, opts);
		scaling(out, base_index);
		smt_steps(out);
		whole_sweep_fit(out);
	}
done:
	free(levels);
	free(values);
	free(previous);
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

int sweep_smt_factor(sqlite3 *db, struct sweep *sw, const char *prefer)
{
	int rc;
	if (sw->nsmt == 0 || !sw->host.known)
		return 0;
	rc = host_smt_factor(db, sw->host.name, prefer, &sw->smt);
	sw->has_smt_factor = rc == 0;
	return rc == 1 ? 0 : rc;
}

int sweep_run(sqlite3 *db, const struct sweep_request *req, struct sweep_result *out)
{
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .numeric_by = true,
				   .metric = req->metric ? req->metric : "tput"};
	struct sweep_options opts = req->opts;
	struct run_host host;
	int rc;
	memset(out, 0, sizeof(*out));
	memset(&host, 0, sizeof(host));
	if (req->workers)
		opts.workers = req->workers;
	sweep_options_fields(&opts, spec.metric, req->by, req->has_kind ? &req->kind : NULL,
			     req->lower_is_better);
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0 && opts.level_counts_workers)
		rc = run_host_levels(db, &out->sel, req->host, &host);
	opts.host = &host;
	if (rc == 0)
		rc = sweep_compute(&out->sel, &opts, &out->sw);
	if (rc == 0)
		rc = sweep_smt_factor(db, &out->sw, out->sel.runs[0].corpus);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "sweep", NULL);
	return rc;
}

void sweep_result_release(struct sweep_result *r)
{
	sweep_release(&r->sw);
	selection_release(&r->sel);
}
