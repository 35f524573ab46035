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

/* The lever and the two values it compares: both tables' first columns, from the lever_pair. */
#define PAIR_COLS                                                                                  \
	[LEVER] = DOC_TEXT_OF("lever", struct lever_pair, field),                                  \
	[CONTEXT] = DOC_TEXT_OF("context", struct lever_pair, context),                            \
	[VALUE] = DOC_TEXT_OF("value", struct lever_pair, value),                                  \
	[BASE] = DOC_TEXT_OF("base", struct lever_pair, base)

/* An arm's runs at one level, named pre "n", pre "median", ... */
#define ARM_COLS(P, pre, unit)                                                                     \
	[P##_N] = DOC_INT_OF(pre "n", "runs", struct lever_arm, n),                                \
	[P##_MEDIAN] = DOC_REAL_OF(pre "median", unit, 'g', 6, struct lever_arm, s.median),        \
	[P##_MIN] = DOC_REAL_OF(pre "min", unit, 'g', 6, struct lever_arm, s.min),                 \
	[P##_MAX] = DOC_REAL_OF(pre "max", unit, 'g', 6, struct lever_arm, s.max)

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
	static const struct doc_field cols[NCOLS] = {
		PAIR_COLS,
		[FOLLOWS] = DOC_TEXT_OF("moves_with_it", struct lever_pair, follows),
		[CONFOUNDED] = DOC_TEXT_OF("also_differs", struct lever_pair, confounded),
		[LEVELS] = DOC_INT_OF("levels", NULL, struct lever_pair, ncells),
		[MIN] = DOC_REAL_OF("ratio_min", "x", 'f', 4, struct lever_pair, min_ratio),
		[MAX] = DOC_REAL_OF("ratio_max", "x", 'f', 4, struct lever_pair, max_ratio),
		[POOLED] = DOC_REAL_OF("pooled", "x", 'f', 4, struct lever_pair, pooled),
		[LO] = DOC_REAL_OF("pooled_lo", "x", 'f', 4, struct lever_pair, pooled_lo),
		[HI] = DOC_REAL_OF("pooled_hi", "x", 'f', 4, struct lever_pair, pooled_hi),
		[INDEPENDENT] = DOC_BOOL_OF("level_independent", struct lever_pair, independent),
		[EFFECT] = DOC_BOOL_OF("effect", struct lever_pair, effect),
		[REAL] = DOC_INT_OF("levels_real", NULL, struct lever_pair, nreal),
		[BEYOND] = DOC_INT_OF("levels_beyond_noise", NULL, struct lever_pair, nbeyond),
		[BETTER] = DOC_FIELD_NONE(DOC_COL_TEXT("better")),
		[APP_MIN] =
			DOC_REAL_OF("app_cores_ratio_min", "x", 'f', 4, struct lever_pair, app_min),
		[APP_MAX] =
			DOC_REAL_OF("app_cores_ratio_max", "x", 'f', 4, struct lever_pair, app_max),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_empty_text(t, "none: no field takes two values while the runs agree on the rest");
	doc_table_hide_empty(t);
	for (size_t i = 0; i < l->npairs; i++) {
		const struct lever_pair *p = &l->pairs[i];
		if (!shown(p, only))
			continue;
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, p);
		if (p->effect)
			doc_set_text(t, BETTER,
				     p->direction == 0 ? "mixed"
				     : p->better       ? p->value
						       : p->base);
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
	const struct doc_field cols[NCOLS] = {
		PAIR_COLS,
		[LEVEL] = DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct lever_cell,
				      level),
		ARM_COLS(A, "base_", mu),
		ARM_COLS(B, "", mu),
		[RATIO] = DOC_REAL_OF("ratio", "x", 'f', 4, struct lever_cell, ratio),
		[ESTIMATE] = DOC_REAL_OF("gm_ratio", "x", 'f', 4, struct lever_cell, estimate),
		[LO] = DOC_REAL_OF("gm_ratio_lo", "x", 'f', 4, struct lever_cell, lo),
		[HI] = DOC_REAL_OF("gm_ratio_hi", "x", 'f', 4, struct lever_cell, hi),
		[VERDICT] = DOC_TEXT_OF("verdict", struct lever_cell, verdict),
		[METHOD] = DOC_TEXT_OF("method", struct lever_cell, method),
		[NOISE] = DOC_REAL_OF("noise_pct", "%", 'f', 2, struct lever_cell, noise_pct),
		[BEYOND] = DOC_BOOL_OF("beyond_noise", struct lever_cell, beyond_noise),
		[A_APP] = DOC_REAL_OF("base_app_cores", "cores", 'f', 3, struct lever_cell,
				      a.app_cores),
		[B_APP] = DOC_REAL_OF("app_cores", "cores", 'f', 3, struct lever_cell, b.app_cores),
		[KINDS] = DOC_FIELD_NONE(DOC_COL_INT("block_kind_runs_left_out", "runs")),
		[REASON] = DOC_TEXT_OF("reason", struct lever_cell, reason),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < l->npairs; i++) {
		const struct lever_pair *p = &l->pairs[i];
		if (!shown(p, only))
			continue;
		for (size_t k = 0; k < p->ncells; k++) {
			const struct lever_cell *c = &p->cells[k];
			doc_row(t);
			doc_set_fields(t, cols, LEVER, BASE + 1, p);
			if (by)
				doc_set_fields(t, cols, LEVEL, LEVEL + 1, c);
			doc_set_fields(t, cols, A_N, A_MAX + 1, &c->a);
			doc_set_fields(t, cols, B_N, B_MAX + 1, &c->b);
			/* beyond_noise is the borrowed-spread test's: only an unreplicated arm has
			 * one */
			doc_set_fields(t, cols, RATIO, c->unreplicated ? BEYOND + 1 : BEYOND, c);
			doc_set_fields(t, cols, A_APP, NCOLS, c);
			doc_set_int(t, KINDS, (int64_t)(c->a.kinds_left_out + c->b.kinds_left_out));
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
