/* build_memory: the document of `coreplan memory` (builders.h). */
#include "builders.h"

#include "../analysis/memory.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <stdio.h>
#include <stdlib.h>

/* The slope's unit: the metric's per the level's ("kB/sessions"), or "" when one is unknown. */
static void slope_unit(const char *metric, const char *by, char *buf, size_t size)
{
	if (*field_known_unit(metric) && *field_known_unit(by))
		snprintf(buf, size, "%s/%s", field_known_unit(metric), field_known_unit(by));
	else
		snprintf(buf, size, "%s", "");
}

enum {
	S_GROUP,
	S_N,
	S_LEVELS,
	S_SLOPE,
	S_SLOPE_SE,
	S_SLOPE_LO,
	S_SLOPE_HI,
	S_INTERCEPT,
	S_INTERCEPT_SE,
	S_R2,
	S_RESIDUAL_SE,
	S_METHOD,
	S_NOTE,
	S_NCOLS
};

static void slopes_table(struct doc_section *s, const struct memory *m, const char *metric,
			 const char *by)
{
	const char *u = field_known_unit(metric);
	char per[64];
	slope_unit(metric, by, per, sizeof(per));
	const struct doc_field cols[S_NCOLS] = {
		[S_GROUP] = DOC_TEXT_OF("group", struct memory_fit, group),
		[S_N] = DOC_INT_OF("n", "runs", struct memory_fit, ols.n),
		[S_LEVELS] = DOC_INT_OF("levels", NULL, struct memory_fit, nlevels),
		[S_SLOPE] = DOC_REAL_OF("slope", per, 'f', 2, struct memory_fit, ols.slope),
		[S_SLOPE_SE] =
			DOC_REAL_OF("slope_se", per, 'f', 2, struct memory_fit, ols.slope_se),
		[S_SLOPE_LO] =
			DOC_REAL_OF("slope_lo", per, 'f', 2, struct memory_fit, ols.slope_lo),
		[S_SLOPE_HI] =
			DOC_REAL_OF("slope_hi", per, 'f', 2, struct memory_fit, ols.slope_hi),
		[S_INTERCEPT] =
			DOC_REAL_OF("intercept", u, 'f', 0, struct memory_fit, ols.intercept),
		[S_INTERCEPT_SE] =
			DOC_REAL_OF("intercept_se", u, 'f', 0, struct memory_fit, ols.intercept_se),
		[S_R2] = DOC_REAL_OF("r2", NULL, 'f', 4, struct memory_fit, ols.r2),
		[S_RESIDUAL_SE] =
			DOC_REAL_OF("residual_se", u, 'f', 0, struct memory_fit, ols.residual_se),
		[S_METHOD] = DOC_FIELD_NONE(DOC_COL_TEXT("method")),
		[S_NOTE] = DOC_TEXT_SET_OF("note", struct memory_fit, note),
	};
	struct doc_table *t = doc_table_of(s, cols, S_NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < m->nfits; i++) {
		const struct memory_fit *x = &m->fits[i];
		doc_row(t);
		if (x->ok) {
			doc_set_fields(t, cols, 0, S_NCOLS, x);
			doc_set_text(t, S_METHOD, "OLS, 95% t interval");
		} else {
			/* no fit: its group, its levels and why */
			doc_set_fields(t, cols, S_GROUP, S_GROUP + 1, x);
			doc_set_fields(t, cols, S_LEVELS, S_LEVELS + 1, x);
			doc_set_fields(t, cols, S_NOTE, S_NCOLS, x);
		}
	}
}

/* One group: its fit's figures as facts too (several groups: the table carries them). */
static void slope_facts(struct doc *d, const struct memory *m, const char *metric, const char *by)
{
	const struct memory_fit *x = &m->fits[0];
	char per[64];
	if (m->nfits != 1 || !x->ok)
		return;
	slope_unit(metric, by, per, sizeof(per));
	doc_fact_real(d, "slope", "slope (per level unit)", DOC_LISTED, x->ols.slope, per, 'f', 2);
	doc_fact_real(d, "slope_se", "its standard error", DOC_QUIET, x->ols.slope_se, per, 'f', 2);
	doc_fact_real(d, "slope_lo", "95% interval, low end", DOC_QUIET, x->ols.slope_lo, per, 'f',
		      2);
	doc_fact_real(d, "slope_hi", "95% interval, high end", DOC_QUIET, x->ols.slope_hi, per, 'f',
		      2);
	doc_fact_real(d, "intercept", "intercept (the fixed cost)", DOC_LISTED, x->ols.intercept,
		      field_known_unit(metric), 'f', 0);
	doc_fact_real(d, "intercept_se", "its standard error", DOC_QUIET, x->ols.intercept_se,
		      field_known_unit(metric), 'f', 0);
	doc_fact_real(d, "r2", "R² of the fit", DOC_QUIET, x->ols.r2, NULL, 'f', 4);
	doc_fact_real(d, "residual_se", "residual standard error", DOC_QUIET, x->ols.residual_se,
		      field_known_unit(metric), 'f', 0);
	doc_fact_int(d, "slope_levels", "levels fitted", DOC_QUIET, (int64_t)x->nlevels, NULL);
}

static void endpoints_table(struct doc_section *s, const struct memory *m, const char *metric,
			    const char *by)
{
	const char *u = field_known_unit(metric), *by_u = field_known_unit(by);
	char per[64];
	slope_unit(metric, by, per, sizeof(per));
	const struct doc_field cols[] = {
		DOC_TEXT_OF("group", struct memory_endpoint, group),
		DOC_TEXT_OF("block", struct memory_endpoint, block),
		DOC_REAL_OF("level_lo", by_u, 'g', 6, struct memory_endpoint, level_lo),
		DOC_REAL_OF("level_hi", by_u, 'g', 6, struct memory_endpoint, level_hi),
		DOC_REAL_OF("value_lo", u, 'f', 0, struct memory_endpoint, value_lo),
		DOC_REAL_OF("value_hi", u, 'f', 0, struct memory_endpoint, value_hi),
		DOC_REAL_OF("slope", per, 'f', 2, struct memory_endpoint, slope),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "none: no block has runs at two or more levels");
	doc_rows_of(t, cols, DOC_NFIELDS(cols), m->endpoints, m->nendpoints,
		    sizeof(m->endpoints[0]));
}

static void ratios_table(struct doc_section *s, const struct memory *m, const char *metric,
			 const char *by)
{
	enum { GROUP, LEVEL, N, MEDIAN, RATIO, LABEL, NCOLS };
	char per[64];
	slope_unit(metric, by, per, sizeof(per));
	const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_TEXT_OF("group", struct memory_ratio, group),
		[LEVEL] = DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct memory_ratio,
				      level),
		[N] = DOC_INT_OF("n", "runs", struct memory_ratio, n),
		[MEDIAN] = DOC_REAL_OF("median", field_known_unit(metric), 'f', 0,
				       struct memory_ratio, median),
		[RATIO] = DOC_REAL_OF("ratio", per, 'f', 2, struct memory_ratio, ratio),
		[LABEL] = DOC_FIELD_NONE(DOC_COL_TEXT("label")),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < m->nratios; i++) {
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, &m->ratios[i]);
		doc_set_text(t, LABEL, "contrast: includes the fixed cost");
	}
}

enum { R_GROUP, R_TAG, R_BLOCK, R_LEVEL, R_VALUE, R_RESIDUAL, R_NCOLS };

/* The residuals' rows, made when a writer reaches the table (most formats and views never do). */
static int fill_residuals(struct doc_table *t, void *arg)
{
	const struct memory_points *mp = arg;
	for (size_t i = 0; i < mp->n && !doc_table_stopped(t); i++) {
		const struct memory_point *p = &mp->points[i];
		doc_row(t);
		doc_set_text(t, R_GROUP, p->group);
		doc_set_text(t, R_TAG, p->tag);
		if (p->block)
			doc_set_text(t, R_BLOCK, p->block);
		doc_set_real(t, R_LEVEL, p->level);
		doc_set_real(t, R_VALUE, p->value);
		doc_set_real(t, R_RESIDUAL, p->residual);
	}
	return 0;
}

static void free_residuals(void *arg)
{
	memory_points_release(arg);
	free(arg);
}

/* The table owns the points from now on (memory_points_take). */
static int residuals_table(struct doc_section *s, struct memory_result *res, const char *metric,
			   const char *by)
{
	const struct doc_col cols[R_NCOLS] = {
		[R_GROUP] = DOC_COL_TEXT("group"),
		[R_TAG] = DOC_COL_TEXT("tag"),
		[R_BLOCK] = DOC_COL_TEXT("block"),
		[R_LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[R_VALUE] = DOC_COL_REAL("value", field_known_unit(metric), 'f', 0),
		[R_RESIDUAL] = DOC_COL_REAL("residual", field_known_unit(metric), 'f', 0),
	};
	struct doc_table *t = doc_table(s, cols, R_NCOLS);
	struct memory_points *mp = malloc(sizeof(*mp));
	doc_table_hide_empty(t);
	if (!mp)
		return err_set("out of memory");
	memory_points_take(res, mp);
	doc_table_stream(t, fill_residuals, mp, free_residuals);
	return 0;
}

int build_memory(const struct memory_request *req, struct memory_result *res,
		 struct doc **out)
{
	const struct memory *m = &res->mem;
	const char *metric = req->metric ? req->metric : "load_rss_kb";
	struct doc *d = build_doc(out, "memory", "");
	struct doc_section *last;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Memory: %s against %s", metric, req->by);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->npoints, NULL);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_bool(d, "from_trace", "recomputed from each run's trace plateau", DOC_QUIET,
		      res->from_trace);
	doc_fact_text(d, "by", "level field", DOC_LISTED, req->by);
	doc_fact_text(d, "block", "block field", DOC_QUIET, req->block ? req->block : "block");
	build_group_fact(d, req->group);
	doc_fact_int(d, "groups", "groups", DOC_LISTED, (int64_t)m->nfits, NULL);
	slope_facts(d, m, metric, req->by);
	slopes_table(doc_section(d, "slopes", "Per-level-unit slope (OLS over every run)"), m,
		     metric, req->by);
	endpoints_table(doc_section(d, "endpoints", "Endpoint slope per block"), m, metric,
			req->by);
	ratios_table(doc_section(d, "ratios",
				 "Single-level ratio (contrast only: includes the fixed cost)"),
		     m, metric, req->by);
	last = doc_section(d, "residuals", "Residuals");
	if (residuals_table(last, res, metric, req->by) != 0) {
		doc_free(d);
		return ERR_DATA;
	}
	doc_note(last, "definitions: `coreplan memory --help`");
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_memory_views[] = {"slopes", "endpoints", "ratios", "residuals", NULL};
