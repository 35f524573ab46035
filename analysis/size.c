/* size: see size.h. */
#include "size.h"

#include "../common/err.h"
#include "fit.h"
#include "select.h"
#include "smt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		base /= t->factor;
		base_lo /= t->factor;
		base_hi /= t->factor;
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

static void judge(const struct size_inputs *in, struct size_row *row)
{
	row->shortfall = row->cost_per_1k = NAN;
	if (!row->predicted_ok) {
		row->verdict = "unmeasured CPU";
		return;
	}
	row->shortfall = in->target / row->predicted;
	row->cost_per_1k = row->predicted > 0 ? row->inst->price_per_hour * 1000.0 / row->predicted
					      : NAN;
	if (!isnan(row->memory_needed_gib) && row->memory_needed_gib > row->inst->memory_gib)
		row->verdict = "memory-bound";
	else
		row->verdict = row->predicted >= in->target ? "meets" : "short";
}

int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows)
{
	struct size_row *out;
	size_t cheapest = SIZE_MAX;
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
		row->memory_needed_gib = NAN;
		if (in->has_sessions && in->mem_per_session_kb.known && in->mem_fixed_kb.known)
			row->memory_needed_gib = (in->mem_fixed_kb.value +
						  in->mem_per_session_kb.value * in->sessions) /
						 (1024.0 * 1024.0);
		predict(in, row);
		judge(in, row);
		if (!strcmp(row->verdict, "meets") &&
		    (cheapest == SIZE_MAX ||
		     row->inst->price_per_hour < out[cheapest].inst->price_per_hour))
			cheapest = i;
	}
	if (cheapest != SIZE_MAX)
		out[cheapest].cheapest = true;
	*rows = out;
	return 0;
}

/* ---- the inputs from the database ---- */

/* The request's common filter plus the input's own conditions. */
static int input_filter(const struct size_request *req, const char *where, const char *option,
			struct run_filter *f)
{
	int rc = 0;
	memset(f, 0, sizeof(*f));
	if (req->filter)
		rc = run_filter_copy(f, req->filter);
	if (rc == 0)
		rc = run_filter_add_conditions(f, where, option);
	return rc;
}

/* The runs an input WHERE selects (non-excluded unless the filter keeps them). */
static int select_where(sqlite3 *db, const struct size_request *req, const char *where,
			const char *option, const char *by, const char *metric,
			const char *const *extra, struct selection *sel)
{
	struct run_filter f;
	int rc = input_filter(req, where, option, &f);
	if (rc == 0) {
		struct select_spec spec = {.filter = &f, .by = by, .metric = metric, .extra = extra};
		rc = select_runs(db, &spec, sel);
	}
	run_filter_release(&f);
	if (rc == 0 && sel->n == 0)
		rc = err_set("no runs for '%s'", where);
	return rc;
}

static int base_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"cpu_family", NULL};
	struct size_inputs *in = &res->in;
	struct selection sel = {0};
	struct summary s;
	double *v = NULL;
	int rc = select_where(db, req, req->base_from, "--base-from", NULL, res->metric, extra,
			      &sel);
	const char *family = rc == 0 ? sel.runs[0].extra[0] : NULL;
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		if (!sel.runs[i].extra[0] || !family || strcmp(sel.runs[i].extra[0], family))
			rc = err_set("the base runs must name one cpu_family (run '%s' has '%s')",
				     sel.runs[i].tag,
				     sel.runs[i].extra[0] ? sel.runs[i].extra[0] : "none");
	if (rc == 0 && !(v = malloc(sel.n * sizeof(double))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		v[i] = sel.runs[i].metric;
	if (rc == 0)
		rc = stats_summary(v, sel.n, &s);
	if (rc == 0) {
		in->base = (struct size_value){true, s.median, s.min, s.max, ""};
		snprintf(in->base.source, sizeof(in->base.source),
			 "median %s of %zu runs (%s), range %g-%g, on %s", res->metric, sel.n,
			 req->base_from, s.min, s.max, family);
		snprintf(in->base_family, sizeof(in->base_family), "%s", family);
		res->base_prov = (struct size_provenance){req->base_from, sel.n, NAN};
	}
	free(v);
	selection_release(&sel);
	return rc;
}

static int scaling_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	const char *by = req->scaling_by ? req->scaling_by : "gomaxprocs";
	struct size_inputs *in = &res->in;
	struct selection sel = {0};
	struct fit_result fit = {0};
	double *level = NULL, *x = NULL;
	int rc = select_where(db, req, req->scaling_from, "--scaling-from", by, res->metric, NULL,
			      &sel);
	if (rc == 0 && (!(level = malloc(sel.n * sizeof(double))) ||
			!(x = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		level[i] = sel.runs[i].level;
		x[i] = sel.runs[i].metric;
		if (level[i] > in->max_measured_cores)
			in->max_measured_cores = level[i];
	}
	if (rc == 0)
		rc = fit_scaling(FIT_POWER, level, x, sel.n, &fit);
	if (rc == 0) {
		double d = fit.per_doubling, se = fit.per_doubling_se;
		in->per_doubling = (struct size_value){true, d, d - 1.96 * se, d + 1.96 * se, ""};
		snprintf(in->per_doubling.source, sizeof(in->per_doubling.source),
			 "power law fitted to %zu runs (%s) over %s 1..%g: per doubling %.4f (SE "
			 "%.4f); levels must count physical cores",
			 sel.n, req->scaling_from, by, in->max_measured_cores, d, se);
		res->per_doubling_prov = (struct size_provenance){req->scaling_from, sel.n, se};
	}
	fit_release(&fit);
	free(level);
	free(x);
	selection_release(&sel);
	return rc;
}

static int smt_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct smt_result m;
	struct run_filter f;
	int rc = input_filter(req, req->smt_from, "--smt-from", &f);
	if (rc == 0) {
		struct smt_request q = {&f, res->metric, NULL, NULL, NULL, NULL};
		rc = smt_measure(db, &q, &m);
	}
	run_filter_release(&f);
	if (rc)
		return rc;
	for (size_t i = 0; i < m.figs.n; i++) {
		const struct smt_figure *x = &m.figs.figures[i];
		if (strcmp(x->name, "smt_factor") || !x->measured)
			continue;
		in->smt = (struct size_value){true, x->value, x->lo, x->hi, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "smt_factor of coreplan smt on %s (host %s): %s / %s", req->smt_from,
			 m.host, x->num.label, x->den.label);
		res->smt_prov = (struct size_provenance){req->smt_from, m.sel.n, NAN};
	}
	smt_result_release(&m);
	return in->smt.known ? 0 : err_set("the runs of --smt-from give no smt_factor");
}

static int memory_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct selection sel = {0};
	struct ols ols;
	double *x = NULL, *y = NULL;
	int rc = select_where(db, req, req->memory_from, "--memory-from", "sessions",
			      "load_rss_kb", NULL, &sel);
	if (rc == 0 &&
	    (!(x = malloc(sel.n * sizeof(double))) || !(y = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		x[i] = sel.runs[i].level;
		y[i] = sel.runs[i].metric;
	}
	if (rc == 0)
		rc = stats_ols(x, y, sel.n, &ols);
	if (rc == 0) {
		in->mem_per_session_kb =
			(struct size_value){true, ols.slope, ols.slope_lo, ols.slope_hi, ""};
		in->mem_fixed_kb =
			(struct size_value){true, ols.intercept, ols.intercept, ols.intercept, ""};
		snprintf(in->mem_per_session_kb.source, sizeof(in->mem_per_session_kb.source),
			 "OLS of load_rss_kb on sessions over %zu runs (%s): %.1f kB/session (95%% "
			 "%.1f-%.1f), fixed %.0f kB",
			 sel.n, req->memory_from, ols.slope, ols.slope_lo, ols.slope_hi,
			 ols.intercept);
		snprintf(in->mem_fixed_kb.source, sizeof(in->mem_fixed_kb.source),
			 "intercept of the OLS of load_rss_kb on sessions over %zu runs (%s)", sel.n,
			 req->memory_from);
		res->memory_prov = (struct size_provenance){req->memory_from, sel.n, NAN};
	}
	free(x);
	free(y);
	selection_release(&sel);
	return rc;
}

static void given(struct size_value *v, double value, const char *what)
{
	*v = (struct size_value){true, value, value, value, ""};
	snprintf(v->source, sizeof(v->source), "given: %s %g", what, value);
}

static int gather_inputs(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	const struct size_provenance none = {NULL, 0, NAN};
	int rc = 0;
	res->base_prov = res->per_doubling_prov = res->smt_prov = res->memory_prov = none;
	in->target = req->target;
	in->has_sessions = req->has_sessions;
	in->sessions = req->sessions;
	in->headroom_pct = req->headroom_pct;
	in->translations = req->translations;
	in->ntranslations = req->ntranslations;
	if (req->has_base_rate) {
		given(&in->base, req->base_rate, "base rate");
		snprintf(in->base_family, sizeof(in->base_family), "%s",
			 req->base_cpu ? req->base_cpu : "");
	} else if (req->base_from) {
		rc = base_from_db(db, req, res);
	}
	if (rc == 0 && req->has_per_doubling)
		given(&in->per_doubling, req->per_doubling, "per-doubling factor");
	else if (rc == 0 && req->scaling_from)
		rc = scaling_from_db(db, req, res);
	if (rc == 0 && req->has_smt)
		given(&in->smt, req->smt_factor, "SMT factor");
	else if (rc == 0 && req->smt_from)
		rc = smt_from_db(db, req, res);
	if (rc == 0 && !in->smt.known) {
		in->smt = (struct size_value){true, 1.0, 1.0, 1.0, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "not given: a core's second thread counted as adding nothing (1.0)");
	}
	if (rc == 0 && req->has_mem_per)
		given(&in->mem_per_session_kb, req->mem_per, "kB per session");
	if (rc == 0 && req->has_mem_fixed)
		given(&in->mem_fixed_kb, req->mem_fixed, "fixed kB");
	if (rc == 0 && !req->has_mem_per && req->memory_from)
		rc = memory_from_db(db, req, res);
	return rc;
}

/* ---- the measured runs of each instance ---- */

/* Runs that name this instance (at the request's sessions, with --measured-where). */
static int measured_for(sqlite3 *db, const struct size_request *req, const char *metric,
			const char *instance, struct size_measured *out)
{
	struct selection sel = {0};
	struct run_filter f;
	char sessions[32];
	const char *value = sessions;
	double *v = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	memset(&f, 0, sizeof(f));
	if (req->filter)
		rc = run_filter_copy(&f, req->filter);
	if (rc == 0)
		rc = run_filter_add(&f, "instance", &instance, 1);
	snprintf(sessions, sizeof(sessions), "%g", req->sessions);
	if (rc == 0 && req->has_sessions)
		rc = run_filter_add(&f, "sessions", &value, 1);
	if (rc == 0 && req->measured_where)
		rc = run_filter_add_conditions(&f, req->measured_where, "--measured-where");
	if (rc == 0) {
		struct select_spec spec = {.filter = &f, .metric = metric};
		rc = select_runs(db, &spec, &sel);
	}
	run_filter_release(&f);
	if (rc == 0 && sel.n > 0 && !(v = malloc(sel.n * sizeof(double))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && v && i < sel.n; i++)
		v[i] = sel.runs[i].metric;
	if (rc == 0 && v) {
		out->n = sel.n;
		rc = stats_summary(v, sel.n, &out->s);
	}
	free(v);
	selection_release(&sel);
	return rc;
}

/* Does any imported run have an `instance` field? (No: nothing is measured.) */
static bool runs_name_instances(sqlite3 *db)
{
	if (field_check(db, "instance") == 0)
		return true;
	err_clear();
	return false;
}

void size_result_release(struct size_result *r)
{
	if (!r)
		return;
	catalogs_used_release(&r->catalogs);
	catalog_release(&r->cat);
	free(r->rows);
	free(r->measured);
	memset(r, 0, sizeof(*r));
}

int size_run(sqlite3 *db, const struct size_request *req, struct size_result *out)
{
	int rc;
	memset(out, 0, sizeof(*out));
	out->metric = req->metric ? req->metric : "tput";
	rc = catalogs_use(db, req->catalog_files, req->ncatalog_files, req->shipped_dir,
			  req->reader, &out->catalogs);
	if (rc == 0)
		rc = catalog_load(db, (const char *const *)req->series, req->nseries, &out->cat);
	if (rc == 0)
		rc = gather_inputs(db, req, out);
	if (rc == 0)
		rc = size_compute(&out->cat, &out->in, &out->rows);
	if (rc == 0 && !(out->measured = calloc(out->cat.n ? out->cat.n : 1,
						sizeof(*out->measured))))
		rc = err_set("out of memory");
	if (rc == 0 && runs_name_instances(db))
		for (size_t i = 0; rc == 0 && i < out->cat.n; i++)
			rc = measured_for(db, req, out->metric, out->cat.items[i].instance,
					  &out->measured[i]);
	out->cheapest = out->cat.n;
	for (size_t i = 0; rc == 0 && i < out->cat.n; i++)
		if (out->rows[i].cheapest)
			out->cheapest = i;
	if (rc)
		size_result_release(out);
	return rc;
}
