/* build_fit: the document of `coreplan fit` (builders.h). */
#include "builders.h"

#include "../analysis/fit.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void params_table(struct doc_section *s, const struct fit_run_result *res)
{
	enum { MODEL, PARAM, AT_BOUND, VALUE, SE, NCOLS };
	static const struct doc_field cols[NCOLS] = {
		[MODEL] = DOC_FIELD_NONE(DOC_COL_TEXT("model")),
		[PARAM] = DOC_TEXT_OF("param", struct fit_param, name),
		[AT_BOUND] = DOC_FIELD_NONE(DOC_COL_TEXT("at_bound")),
		[VALUE] = DOC_REAL_OF("value", NULL, 'g', 6, struct fit_param, value),
		[SE] = DOC_REAL_OF("se", NULL, 'g', 6, struct fit_param, se),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_empty_text(t, "none: no model was fitted");
	for (int m = 0; m < FIT_NMODELS; m++)
		for (size_t j = 0; res->ok[m] && j < res->fits[m].nparams; j++) {
			const struct fit_param *p = &res->fits[m].params[j];
			doc_row(t);
			doc_set_fields(t, cols, 0, NCOLS, p);
			doc_set_text(t, MODEL, res->fits[m].model_name);
			doc_set_text(t, AT_BOUND, p->at_bound ? "at bound" : "no");
		}
}

enum {
	S_MODEL,
	S_N,
	S_LEVELS,
	S_DOF,
	S_RESIDUAL_SE,
	S_R2,
	S_PEAK_N,
	S_PEAK_X,
	S_CEILING,
	S_PER_DOUBLING,
	S_PER_DOUBLING_SE,
	S_ITERATIONS,
	S_NOTE,
	S_NCOLS
};

/* A fact named <model>_<column>. */
static const char *model_real(struct doc *d, const char *model, const char *column,
			      const char *label, double value, const char *unit, char style,
			      int precision)
{
	char name[64], text[128];
	snprintf(name, sizeof(name), "%s_%s", model, column);
	snprintf(text, sizeof(text), "%s: %s", model, label);
	return doc_fact_real(d, name, text, DOC_QUIET, value, unit, style, precision);
}

static void model_int(struct doc *d, const char *model, const char *column, const char *label,
		      size_t value)
{
	char name[64], text[128];
	snprintf(name, sizeof(name), "%s_%s", model, column);
	snprintf(text, sizeof(text), "%s: %s", model, label);
	doc_fact_int(d, name, text, DOC_QUIET, (int64_t)value, NULL);
}

/* The summary row of a fitted model, and the same figures as facts. */
static void summary_row(struct doc *d, struct doc_table *t, const struct doc_field *cols,
			const struct fit_result *r, const char *by, const char *metric)
{
	const char *m = r->model_name;
	bool curve = r->model != FIT_POWER;
	doc_set_fields(t, cols, S_N, S_NOTE, r);
	if (isinf(r->peak_n) && curve)
		doc_set_text(t, S_NOTE, "no peak (kappa = 0)");
	model_int(d, m, "n", "points", r->n);
	model_int(d, m, "levels", "distinct levels", r->nlevels);
	model_int(d, m, "dof", "degrees of freedom", r->dof);
	model_real(d, m, "residual_se", "residual standard error", r->residual_se, field_known_unit(metric),
		   'g', 6);
	model_real(d, m, "r2", "R²", r->r2, NULL, 'f', 4);
	if (curve) {
		model_real(d, m, "peak_n", "peak level N*", r->peak_n, field_known_unit(by), 'g', 7);
		model_real(d, m, "peak_x", "metric at the peak", r->peak_x, field_known_unit(metric), 'g',
			   6);
		model_real(d, m, "amdahl_ceiling", "Amdahl ceiling lambda / sigma",
			   r->amdahl_ceiling, field_known_unit(metric), 'g', 7);
	} else {
		model_real(d, m, "per_doubling", "per-doubling factor 2^b", r->per_doubling, "x",
			   'f', 4);
		model_real(d, m, "per_doubling_se", "its standard error", r->per_doubling_se, "x",
			   'f', 4);
	}
	model_int(d, m, "iterations", "solver iterations", r->iterations);
}

static void summary_table(struct doc *d, struct doc_section *s, const struct fit_run_result *res,
			  const char *by, const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[S_NCOLS] = {
		[S_MODEL] = DOC_FIELD_NONE(DOC_COL_TEXT("model")),
		[S_N] = DOC_INT_OF("n", "points", struct fit_result, n),
		[S_LEVELS] = DOC_INT_OF("levels", NULL, struct fit_result, nlevels),
		[S_DOF] = DOC_INT_OF("dof", NULL, struct fit_result, dof),
		[S_RESIDUAL_SE] =
			DOC_REAL_OF("residual_se", u, 'g', 6, struct fit_result, residual_se),
		[S_R2] = DOC_REAL_OF("r2", NULL, 'f', 4, struct fit_result, r2),
		[S_PEAK_N] = DOC_REAL_OF("peak_n", field_known_unit(by), 'g', 7, struct fit_result,
					 peak_n),
		[S_PEAK_X] = DOC_REAL_OF("peak_x", u, 'g', 6, struct fit_result, peak_x),
		[S_CEILING] =
			DOC_REAL_OF("amdahl_ceiling", u, 'g', 7, struct fit_result, amdahl_ceiling),
		[S_PER_DOUBLING] =
			DOC_REAL_OF("per_doubling", "x", 'f', 4, struct fit_result, per_doubling),
		[S_PER_DOUBLING_SE] = DOC_REAL_OF("per_doubling_se", "x", 'f', 4, struct fit_result,
						  per_doubling_se),
		[S_ITERATIONS] = DOC_INT_OF("iterations", NULL, struct fit_result, iterations),
		[S_NOTE] = DOC_FIELD_NONE(DOC_COL_TEXT("note")),
	};
	struct doc_table *t = doc_table_of(s, cols, S_NCOLS);
	for (int m = 0; m < FIT_NMODELS; m++) {
		const char *name = fit_model_name((enum fit_model)m);
		if (!res->asked[m])
			continue;
		doc_row(t);
		doc_set_text(t, S_MODEL, name);
		if (res->ok[m]) {
			summary_row(d, t, cols, &res->fits[m], by, metric);
		} else {
			char note[300], fact[64];
			snprintf(note, sizeof(note), "not fitted: %s", res->error[m]);
			doc_set_text(t, S_NOTE, note);
			snprintf(fact, sizeof(fact), "%s_error", name);
			doc_fact_text(d, fact, "why the model was not fitted", DOC_QUIET,
				      res->error[m]);
		}
	}
}

static bool point_fitted(const struct fit_run_result *res, size_t i)
{
	return !res->in_fit || res->in_fit[i];
}

/*
 * Every point: a fitted one with its fitted values, one left out (an SMT
 * level) with what the models predict there, its kind and whether it was fitted.
 */
static void points_table(struct doc_section *s, const struct fit_run_result *res, const char *by,
			 const char *metric)
{
	enum { LEVEL, VALUE, KIND = 2 + FIT_NMODELS, FITTED, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[VALUE] = DOC_COL_REAL("value", field_known_unit(metric), 'g', 7),
		[2 + FIT_USL] = DOC_COL_REAL("usl", field_known_unit(metric), 'g', 7),
		[2 + FIT_AMDAHL] = DOC_COL_REAL("amdahl", field_known_unit(metric), 'g', 7),
		[2 + FIT_POWER] = DOC_COL_REAL("power", field_known_unit(metric), 'g', 7),
		[KIND] = DOC_COL_TEXT("core_kind"),
		[FITTED] = DOC_COL_BOOL("fitted"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	size_t j = 0; /* the point's index among the fitted ones */
	doc_table_hide_empty(t);
	for (size_t i = 0; i < res->n; i++) {
		bool fitted = point_fitted(res, i);
		doc_row(t);
		doc_set_real(t, LEVEL, res->level[i]);
		doc_set_real(t, VALUE, res->x[i]);
		for (int m = 0; m < FIT_NMODELS; m++)
			if (res->ok[m])
				doc_set_real(t, (size_t)(2 + m),
					     fitted ? res->fits[m].fitted[j]
						    : fit_predict(&res->fits[m], res->level[i]));
		if (res->classified && res->kind)
			doc_set_text(t, KIND, level_kind_name(res->kind[i]));
		if (res->classified)
			doc_set_bool(t, FITTED, fitted);
		j += fitted;
	}
}

/* "1, 2, 4": the distinct levels fitted (or left out), ascending. */
static void levels_text(const struct fit_run_result *res, bool fitted, struct strbuf *sb)
{
	double last = -INFINITY;
	for (;;) {
		double next = INFINITY;
		for (size_t i = 0; i < res->n; i++)
			if (point_fitted(res, i) == fitted && res->level[i] > last &&
			    res->level[i] < next)
				next = res->level[i];
		if (isinf(next))
			break;
		strbuf_addf(sb, "%s%g", sb->len ? ", " : "", next);
		last = next;
	}
}

/* Which levels were fitted, on which host, and which were left out and why. */
static void levels_facts(struct doc *d, struct doc_section *s, const struct fit_run_result *res)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const struct run_host *h = &res->host;
	size_t left = res->n - (res->in_fit ? res->nfit : res->n);
	levels_text(res, true, &in);
	levels_text(res, false, &out);
	doc_fact_text(d, "levels_fitted", "levels fitted", DOC_LISTED, strbuf_str(&in));
	doc_fact_text(d, "levels_left_out", "levels left out", left ? DOC_LISTED : DOC_QUIET,
		      left ? strbuf_str(&out) : "none");
	doc_fact_int(d, "points_fitted", "points fitted", DOC_QUIET, (int64_t)(res->n - left),
		     "runs");
	doc_fact_bool(d, "all_levels", "every level fitted (--all-levels)", DOC_QUIET,
		      res->all_levels);
	if (!res->classified) {
		strbuf_release(&in);
		strbuf_release(&out);
		return;
	}
	doc_fact_text(d, "host", "host", DOC_LISTED, h->known ? h->name : "none");
	if (h->known) {
		const char *cores = doc_fact_int(d, "physical_cores", "physical cores", DOC_QUIET,
						 (int64_t)h->physical_cores, "cores");
		const char *cpus = doc_fact_int(d, "logical_cpus", "logical CPUs", DOC_QUIET,
						(int64_t)h->logical_cpus, "CPUs");
		const char *n = doc_fact_int(d, "points_left_out", "points left out", DOC_QUIET,
					     (int64_t)left, "runs");
		bool smt = false, beyond = false;
		for (size_t i = 0; res->kind && i < res->n; i++) {
			smt |= res->kind[i] == LEVEL_SMT;
			beyond |= res->kind[i] == LEVEL_BEYOND;
		}
		if (res->all_levels)
			doc_note(s,
				 "every level is fitted (--all-levels), SMT levels and levels "
				 "beyond the logical CPUs included, on host %s (%s physical cores, "
				 "%s logical CPUs): the curve mixes core scaling with SMT",
				 h->name, cores, cpus);
		else if (left)
			doc_note(s,
				 "fitted over the physical-core levels %s of host %s (%s physical "
				 "cores, %s logical CPUs); level%s %s (%s run%s: %s%s%s) left out: "
				 "--all-levels fits every level",
				 strbuf_str(&in), h->name, cores, cpus,
				 strchr(strbuf_str(&out), ',') ? "s" : "", strbuf_str(&out), n,
				 left == 1 ? "" : "s", smt ? "SMT siblings" : "",
				 smt && beyond ? "; " : "",
				 beyond ? "more workers than logical CPUs" : "");
		else
			doc_note(s,
				 "fitted over the physical-core levels %s of host %s (%s physical "
				 "cores, %s logical CPUs): every level is a physical-core level",
				 strbuf_str(&in), h->name, cores, cpus);
	} else {
		doc_fact_int(d, "points_left_out", "points left out", DOC_QUIET, 0, "runs");
		if (h->mixed)
			doc_note(s,
				 "levels are assumed to be physical cores and all fitted (%s: fit "
				 "--host NAME, or select one host's runs)",
				 h->mixed_note);
		else
			doc_note(s, "levels are assumed to be physical cores and all fitted (no "
				    "topology recorded: coreplan import --host / a manifest's "
				    "topology)");
	}
	strbuf_release(&in);
	strbuf_release(&out);
}

/* The models asked for, comma-separated ("usl,amdahl,power"). */
static void models_fact(struct doc *d, const struct fit_run_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	for (int m = 0; m < FIT_NMODELS; m++)
		if (res->asked[m])
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "",
				    fit_model_name((enum fit_model)m));
	doc_fact_text(d, "models", "models", DOC_LISTED, strbuf_str(&sb));
	strbuf_release(&sb);
}

int build_fit(const struct fit_request *req, const struct fit_run_result *res, struct doc **out)
{
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = build_doc(out, "fit", "");
	struct doc_section *points, *summary;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Scaling models of %s by %s", metric, req->by);
	doc_fact_int(d, "runs", "points (runs)", DOC_LISTED, (int64_t)res->n, NULL);
	doc_fact_text(d, "by", "level field", DOC_LISTED, req->by);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	models_fact(d, res);
	/* Markdown order: the summary first (views list: params first) */
	summary = doc_section(d, "summary", "Fit");
	summary_table(d, summary, res, req->by, metric);
	levels_facts(d, summary, res);
	params_table(doc_section(d, "params", "Parameters"), res);
	points = doc_section(d, "points", "Fitted values");
	points_table(points, res, req->by, metric);
	doc_note(points, "method and definitions: `coreplan fit --help`");
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_fit_views[] = {"params", "summary", "points", NULL};
