/* build_levers: the document of `coreplan levers` (builders.h). */
#include "builders.h"

#include "../analysis/levers.h"
#include "../common/err.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool shown(const struct lever_pair *p, const char *only)
{
	return !only || !strcmp(p->field, only);
}

static void pairs_table(struct doc_section *s, const struct levers *l, const char *only)
{
	enum {
		LEVER,
		CONTEXT,
		VALUE,
		BASE,
		FOLLOWS,
		CONFOUNDED,
		LEVELS,
		MIN,
		MAX,
		POOLED,
		LO,
		HI,
		INDEPENDENT,
		EFFECT,
		REAL,
		BEYOND,
		BETTER,
		APP_MIN,
		APP_MAX,
		NCOLS
	};
	const struct doc_col cols[NCOLS] = {
		[LEVER] = DOC_COL_TEXT("lever"),
		[CONTEXT] = DOC_COL_TEXT("context"),
		[VALUE] = DOC_COL_TEXT("value"),
		[BASE] = DOC_COL_TEXT("base"),
		[FOLLOWS] = DOC_COL_TEXT("moves_with_it"),
		[CONFOUNDED] = DOC_COL_TEXT("also_differs"),
		[LEVELS] = DOC_COL_INT("levels", NULL),
		[MIN] = DOC_COL_REAL("ratio_min", "x", 'f', 4),
		[MAX] = DOC_COL_REAL("ratio_max", "x", 'f', 4),
		[POOLED] = DOC_COL_REAL("pooled", "x", 'f', 4),
		[LO] = DOC_COL_REAL("pooled_lo", "x", 'f', 4),
		[HI] = DOC_COL_REAL("pooled_hi", "x", 'f', 4),
		[INDEPENDENT] = DOC_COL_BOOL("level_independent"),
		[EFFECT] = DOC_COL_BOOL("effect"),
		[REAL] = DOC_COL_INT("levels_real", NULL),
		[BEYOND] = DOC_COL_INT("levels_beyond_noise", NULL),
		[BETTER] = DOC_COL_TEXT("better"),
		[APP_MIN] = DOC_COL_REAL("app_cores_ratio_min", "x", 'f', 4),
		[APP_MAX] = DOC_COL_REAL("app_cores_ratio_max", "x", 'f', 4),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_empty_text(t, "none: no field takes two values while the runs agree on the rest");
	doc_table_hide_empty(t);
	for (size_t i = 0; i < l->npairs; i++) {
		const struct lever_pair *p = &l->pairs[i];
		if (!shown(p, only))
			continue;
		doc_row(t);
		doc_set_text(t, LEVER, p->field);
		doc_set_text(t, CONTEXT, p->context);
		doc_set_text(t, VALUE, p->value);
		doc_set_text(t, BASE, p->base);
		if (p->follows)
			doc_set_text(t, FOLLOWS, p->follows);
		if (p->confounded)
			doc_set_text(t, CONFOUNDED, p->confounded);
		doc_set_int(t, LEVELS, (int64_t)p->ncells);
		doc_set_real(t, MIN, p->min_ratio);
		doc_set_real(t, MAX, p->max_ratio);
		doc_set_real(t, POOLED, p->pooled);
		doc_set_real(t, LO, p->pooled_lo);
		doc_set_real(t, HI, p->pooled_hi);
		doc_set_bool(t, INDEPENDENT, p->independent);
		doc_set_bool(t, EFFECT, p->effect);
		doc_set_int(t, REAL, (int64_t)p->nreal);
		doc_set_int(t, BEYOND, (int64_t)p->nbeyond);
		if (p->effect)
			doc_set_text(t, BETTER,
				     p->direction == 0 ? "mixed"
				     : p->better       ? p->value
						       : p->base);
		doc_set_real(t, APP_MIN, p->app_min);
		doc_set_real(t, APP_MAX, p->app_max);
	}
}

static void levels_table(struct doc_section *s, const struct levers *l, const char *by,
			 const char *metric, const char *only)
{
	enum {
		LEVER,
		CONTEXT,
		VALUE,
		BASE,
		LEVEL,
		A_N,
		A_MEDIAN,
		A_MIN,
		A_MAX,
		B_N,
		B_MEDIAN,
		B_MIN,
		B_MAX,
		RATIO,
		ESTIMATE,
		LO,
		HI,
		VERDICT,
		METHOD,
		NOISE,
		BEYOND,
		A_APP,
		B_APP,
		KINDS,
		REASON,
		NCOLS
	};
	const char *mu = field_known_unit(metric);
	const struct doc_col cols[NCOLS] = {
		[LEVER] = DOC_COL_TEXT("lever"),
		[CONTEXT] = DOC_COL_TEXT("context"),
		[VALUE] = DOC_COL_TEXT("value"),
		[BASE] = DOC_COL_TEXT("base"),
		[LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[A_N] = DOC_COL_INT("base_n", "runs"),
		[A_MEDIAN] = DOC_COL_REAL("base_median", mu, 'g', 6),
		[A_MIN] = DOC_COL_REAL("base_min", mu, 'g', 6),
		[A_MAX] = DOC_COL_REAL("base_max", mu, 'g', 6),
		[B_N] = DOC_COL_INT("n", "runs"),
		[B_MEDIAN] = DOC_COL_REAL("median", mu, 'g', 6),
		[B_MIN] = DOC_COL_REAL("min", mu, 'g', 6),
		[B_MAX] = DOC_COL_REAL("max", mu, 'g', 6),
		[RATIO] = DOC_COL_REAL("ratio", "x", 'f', 4),
		[ESTIMATE] = DOC_COL_REAL("gm_ratio", "x", 'f', 4),
		[LO] = DOC_COL_REAL("gm_ratio_lo", "x", 'f', 4),
		[HI] = DOC_COL_REAL("gm_ratio_hi", "x", 'f', 4),
		[VERDICT] = DOC_COL_TEXT("verdict"),
		[METHOD] = DOC_COL_TEXT("method"),
		[NOISE] = DOC_COL_REAL("noise_pct", "%", 'f', 2),
		[BEYOND] = DOC_COL_BOOL("beyond_noise"),
		[A_APP] = DOC_COL_REAL("base_app_cores", "cores", 'f', 3),
		[B_APP] = DOC_COL_REAL("app_cores", "cores", 'f', 3),
		[KINDS] = DOC_COL_INT("block_kind_runs_left_out", "runs"),
		[REASON] = DOC_COL_TEXT("reason"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < l->npairs; i++) {
		const struct lever_pair *p = &l->pairs[i];
		if (!shown(p, only))
			continue;
		for (size_t k = 0; k < p->ncells; k++) {
			const struct lever_cell *c = &p->cells[k];
			doc_row(t);
			doc_set_text(t, LEVER, p->field);
			doc_set_text(t, CONTEXT, p->context);
			doc_set_text(t, VALUE, p->value);
			doc_set_text(t, BASE, p->base);
			if (by)
				doc_set_real(t, LEVEL, c->level);
			doc_set_int(t, A_N, (int64_t)c->a.n);
			doc_set_real(t, A_MEDIAN, c->a.s.median);
			doc_set_real(t, A_MIN, c->a.s.min);
			doc_set_real(t, A_MAX, c->a.s.max);
			doc_set_int(t, B_N, (int64_t)c->b.n);
			doc_set_real(t, B_MEDIAN, c->b.s.median);
			doc_set_real(t, B_MIN, c->b.s.min);
			doc_set_real(t, B_MAX, c->b.s.max);
			doc_set_real(t, RATIO, c->ratio);
			doc_set_real(t, ESTIMATE, c->estimate);
			doc_set_real(t, LO, c->lo);
			doc_set_real(t, HI, c->hi);
			doc_set_text(t, VERDICT, c->verdict);
			doc_set_text(t, METHOD, c->method);
			doc_set_real(t, NOISE, c->noise_pct);
			if (c->unreplicated)
				doc_set_bool(t, BEYOND, c->beyond_noise);
			doc_set_real(t, A_APP, c->a.app_cores);
			doc_set_real(t, B_APP, c->b.app_cores);
			doc_set_int(t, KINDS, (int64_t)(c->a.kinds_left_out + c->b.kinds_left_out));
			doc_set_text(t, REASON, c->reason);
		}
	}
}

int build_levers(const struct levers_request *req, const struct levers_result *res,
		 const char *only, struct doc **out)
{
	const struct levers *l = &res->lv;
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = build_doc(out, "levers", "");
	struct doc_section *s;
	struct strbuf sb = STRBUF_INIT;
	if (!d)
		return ERR_DATA;
	if (only)
		doc_set_title(d, "Lever %s: %s%s%s", only, metric, req->by ? " by " : "",
			      req->by ? req->by : "");
	else
		doc_set_title(d, "What each lever is worth: %s%s%s", metric, req->by ? " by " : "",
			      req->by ? req->by : "");
	for (size_t i = 0; i < res->nfields; i++)
		strbuf_addf(&sb, "%s%s%s%s%s", i ? ", " : "", res->fields[i],
			    res->follows[i] ? " (with " : "",
			    res->follows[i] ? res->follows[i] : "", res->follows[i] ? ")" : "");
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->sel.n, NULL);
	doc_fact_text(d, "by", "level field", req->by ? DOC_LISTED : DOC_QUIET,
		      req->by ? req->by : "");
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_text(d, "better", "better", DOC_LISTED, l->lower_is_better ? "lower" : "higher");
	doc_fact_text(d, "varying", "fields that vary", DOC_LISTED, strbuf_str(&sb));
	doc_fact_int(d, "levers", "levers", DOC_LISTED, (int64_t)l->nlevers, NULL);
	doc_fact_int(d, "effects", "pairs with an effect", DOC_LISTED, (int64_t)l->neffects, NULL);
	doc_fact_real(d, "independent_pct", "level-independent within", DOC_QUIET,
		      LEVERS_INDEPENDENT_PCT, "%", 'g', 3);
	s = doc_section(d, "levers", "Levers");
	pairs_table(s, l, only);
	doc_note(s,
		 "each value against the base at every level both have (the base: the smallest "
		 "number, else the value that ran first); pooled: the levels' verdicts summed "
		 "up (verdict.h's tally: their geometric mean with its interval), else the "
		 "geometric mean of the ratios; level-independent: every ratio on one side of 1 "
		 "and the largest within %s%% of the smallest; definitions: `coreplan levers "
		 "--help`",
		 doc_fact_shown(d, "independent_pct"));
	s = doc_section(d, "levels", "Each lever at each level");
	levels_table(s, l, req->by, metric, only);
	doc_note(s,
		 "ratio: median / base median; gm_ratio with its %s%% interval: the verdict of "
		 "verdict.h (Welch t on ln values); an arm with one run is tested against the "
		 "pooled spread of the level's replicated arms (method t-borrowed; noise_pct their "
		 "largest spread), and untested when there are none",
		 doc_fact_real(d, "confidence", "interval confidence", DOC_QUIET, 95, "%", 'g', 3));
	strbuf_release(&sb);
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_levers_views[] = {"levers", "levels", NULL};
