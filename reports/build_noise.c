/* build_noise: the document of `coreplan noise` (builders.h). */
#include "builders.h"

#include "../analysis/noise.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <stdio.h>

static void levels_table(struct doc_section *s, const struct noise *nz, const char *by,
			 const char *metric)
{
	enum { GROUP, VERDICT, LEVEL, N, MEDIAN, MIN, MAX, RANGE, DEV, RANGE_ABS, DEV_ABS, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[VERDICT] = DOC_COL_TEXT("verdict"),
		[LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[N] = DOC_COL_INT("n", "runs"),
		[MEDIAN] = DOC_COL_REAL("median", field_known_unit(metric), 'g', 6),
		[MIN] = DOC_COL_REAL("min", field_known_unit(metric), 'g', 6),
		[MAX] = DOC_COL_REAL("max", field_known_unit(metric), 'g', 6),
		[RANGE] = DOC_COL_REAL("range_pct", "%", 'f', 2),
		[DEV] = DOC_COL_REAL("max_block_dev_pct", "%", 'f', 2),
		[RANGE_ABS] = DOC_COL_REAL("range_abs", field_known_unit(metric), 'g', 6),
		[DEV_ABS] = DOC_COL_REAL("max_block_dev_abs", field_known_unit(metric), 'g', 6),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->nlevels; i++) {
		const struct noise_level *lv = &nz->levels[i];
		doc_row(t);
		doc_set_text(t, GROUP, lv->group);
		doc_set_text(t, VERDICT, lv->verdict);
		doc_set_real(t, LEVEL, lv->level);
		doc_set_int(t, N, (int64_t)lv->s.n);
		doc_set_real(t, MEDIAN, lv->s.median);
		doc_set_real(t, MIN, lv->s.min);
		doc_set_real(t, MAX, lv->s.max);
		doc_set_real(t, RANGE, lv->s.range_pct);
		doc_set_real(t, DEV, lv->max_abs_dev_pct);
		doc_set_real(t, RANGE_ABS, lv->s.range_abs);
		doc_set_real(t, DEV_ABS, lv->max_abs_dev_abs);
	}
}

static void steps_table(struct doc *d, struct doc_section *s, const struct noise *nz,
			const char *by, const char *metric)
{
	enum {
		GROUP,
		FROM,
		TO,
		VERDICT,
		N_FROM,
		N_TO,
		MEDIAN_FROM,
		MEDIAN_TO,
		DIFF,
		GAP,
		DISJOINT,
		WORD,
		EFFECT,
		TEST,
		P,
		RATIO,
		RATIO_LO,
		RATIO_HI,
		MEAN_DIFF,
		MEAN_DIFF_LO,
		MEAN_DIFF_HI,
		RANK_P,
		RUNS_NEEDED,
		NCOLS
	};
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[FROM] = DOC_COL_REAL("from", field_known_unit(by), 'g', 6),
		[TO] = DOC_COL_REAL("to", field_known_unit(by), 'g', 6),
		[VERDICT] = DOC_COL_TEXT("verdict"),
		[N_FROM] = DOC_COL_INT("n_from", "runs"),
		[N_TO] = DOC_COL_INT("n_to", "runs"),
		[MEDIAN_FROM] = DOC_COL_REAL("median_from", field_known_unit(metric), 'g', 6),
		[MEDIAN_TO] = DOC_COL_REAL("median_to", field_known_unit(metric), 'g', 6),
		[DIFF] = DOC_COL_REAL("difference", field_known_unit(metric), 'g', 6),
		[GAP] = DOC_COL_REAL("gap", field_known_unit(metric), 'g', 6),
		[DISJOINT] = DOC_COL_TEXT("ranges_disjoint"),
		[WORD] = DOC_COL_TEXT("direction"),
		[EFFECT] = DOC_COL_TEXT("effect"),
		[TEST] = DOC_COL_TEXT("test"),
		[P] = DOC_COL_REAL("p", NULL, 'g', 3),
		[RATIO] = DOC_COL_REAL("gm_ratio", "x", 'f', 4),
		[RATIO_LO] = DOC_COL_REAL("gm_ratio_lo", "x", 'f', 4),
		[RATIO_HI] = DOC_COL_REAL("gm_ratio_hi", "x", 'f', 4),
		[MEAN_DIFF] = DOC_COL_REAL("mean_diff", field_known_unit(metric), 'g', 4),
		[MEAN_DIFF_LO] = DOC_COL_REAL("mean_diff_lo", field_known_unit(metric), 'g', 4),
		[MEAN_DIFF_HI] = DOC_COL_REAL("mean_diff_hi", field_known_unit(metric), 'g', 4),
		[RANK_P] = DOC_COL_REAL("rank_p", NULL, 'g', 3),
		[RUNS_NEEDED] = DOC_COL_REAL("runs_needed", "runs", 'g', 6),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "none: every group has one level");
	for (size_t i = 0; i < nz->nsteps; i++) {
		const struct noise_step *x = &nz->steps[i];
		doc_row(t);
		doc_set_text(t, GROUP, x->group);
		doc_set_real(t, FROM, x->from);
		doc_set_real(t, TO, x->to);
		doc_set_text(t, VERDICT, x->verdict);
		doc_set_int(t, N_FROM, (int64_t)x->n_from);
		doc_set_int(t, N_TO, (int64_t)x->n_to);
		doc_set_real(t, MEDIAN_FROM, x->median_from);
		doc_set_real(t, MEDIAN_TO, x->median_to);
		doc_set_real(t, DIFF, x->difference);
		doc_set_real(t, GAP, x->gap);
		doc_set_text(t, DISJOINT, x->ranges_disjoint ? "yes" : "no");
		doc_set_text(t, WORD, x->v.change);
		doc_set_text(t, EFFECT, x->effect);
		doc_set_text(t, TEST, x->v.test);
		doc_set_real(t, P, x->v.p);
		doc_set_real(t, x->v.log_scale ? RATIO : MEAN_DIFF, x->v.estimate);
		doc_set_real(t, x->v.log_scale ? RATIO_LO : MEAN_DIFF_LO, x->v.lo);
		doc_set_real(t, x->v.log_scale ? RATIO_HI : MEAN_DIFF_HI, x->v.hi);
		doc_set_real(t, RANK_P, x->v.rank.p);
		if (!verdict_real(&x->v))
			doc_set_real(t, RUNS_NEEDED, x->v.runs_needed);
	}
	doc_text(s, "%s", NOISE_STEP_RULE);
	doc_fact_text(d, "step_rule", "step rule", DOC_QUIET, NOISE_STEP_RULE);
	doc_fact_text(d, "step_spread", "within-level spread (the range rule: evidence)", DOC_QUIET,
		      "from each level's median to its extreme run on the side facing the other "
		      "level, summed over the two levels");
	doc_fact_real(d, "alpha", "two-sided significance level of the step rule", DOC_QUIET,
		      nz->opts.alpha, NULL, 'g', 3);
	doc_fact_int(d, "steps_resolved", "steps resolved", DOC_QUIET, (int64_t)nz->nresolved,
		     "steps");
	doc_fact_int(d, "steps_within_noise", "steps within noise", DOC_QUIET, (int64_t)nz->nwithin,
		     "steps");
	doc_fact_int(d, "steps_unreplicated", "steps unreplicated", DOC_QUIET,
		     (int64_t)nz->nunreplicated, "steps");
}

static void cells_table(struct doc_section *s, const struct noise *nz, const char *by,
			const char *metric)
{
	enum { GROUP, BLOCK, LEVEL, N, VALUE, DEV, POSITION, DEV_ABS, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[BLOCK] = DOC_COL_TEXT("block"),
		[LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[N] = DOC_COL_INT("n", "runs"),
		[VALUE] = DOC_COL_REAL("value", field_known_unit(metric), 'g', 6),
		[DEV] = DOC_COL_REAL("deviation_pct", "%", 'f', 2),
		[POSITION] = DOC_COL_INT("position", NULL),
		[DEV_ABS] = DOC_COL_REAL("deviation_abs", field_known_unit(metric), 'g', 6),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->ncells; i++) {
		const struct noise_cell *c = &nz->cells[i];
		doc_row(t);
		doc_set_text(t, GROUP, c->group);
		doc_set_text(t, BLOCK, c->block);
		doc_set_real(t, LEVEL, c->level);
		doc_set_int(t, N, (int64_t)c->n);
		doc_set_real(t, VALUE, c->value);
		doc_set_real(t, DEV, c->deviation_pct);
		doc_set_int(t, POSITION, (int64_t)c->position);
		doc_set_real(t, DEV_ABS, c->deviation_abs);
	}
}

static void drift_table(struct doc_section *s, const struct noise *nz)
{
	enum { GROUP, BLOCK, DRIFT, LEVELS, MEAN, MIN, MAX, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[BLOCK] = DOC_COL_TEXT("block"),
		[DRIFT] = DOC_COL_TEXT("drift"),
		[LEVELS] = DOC_COL_INT("levels", NULL),
		[MEAN] = DOC_COL_REAL("mean_dev_pct", "%", 'f', 2),
		[MIN] = DOC_COL_REAL("min_dev_pct", "%", 'f', 2),
		[MAX] = DOC_COL_REAL("max_dev_pct", "%", 'f', 2),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->ndrifts; i++) {
		const struct noise_drift *d = &nz->drifts[i];
		doc_row(t);
		doc_set_text(t, GROUP, d->group);
		doc_set_text(t, BLOCK, d->block);
		doc_set_text(t, DRIFT, d->drift);
		doc_set_int(t, LEVELS, (int64_t)d->nlevels);
		doc_set_real(t, MEAN, d->mean_dev_pct);
		doc_set_real(t, MIN, d->min_dev_pct);
		doc_set_real(t, MAX, d->max_dev_pct);
	}
}

static void order_table(struct doc *d, struct doc_section *s, const struct noise *nz)
{
	enum { FACTOR, GROUP, BLOCK, LEVELS, ORDERED_BY, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[FACTOR] = DOC_COL_TEXT("factor"),
		[GROUP] = DOC_COL_TEXT("group"),
		[BLOCK] = DOC_COL_TEXT("block"),
		[LEVELS] = DOC_COL_TEXT("levels_in_order"),
		[ORDERED_BY] = DOC_COL_TEXT("ordered_by"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	struct strbuf names = STRBUF_INIT;
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->norders; i++) {
		const struct noise_order *o = &nz->orders[i];
		doc_row(t);
		doc_set_text(t, FACTOR, o->factor);
		doc_set_text(t, GROUP, o->group);
		doc_set_text(t, BLOCK, o->block);
		doc_set_text(t, LEVELS, o->levels);
		doc_set_text(t, ORDERED_BY, o->timed ? "start time" : "results-table row");
	}
	doc_text(s,
		 "Each factor's values in the order their first run started in the block (the "
		 "level within each group; a group field within each combination of the other "
		 "group fields). Runs that overlap in time (one starts before the other's "
		 "measured window, started_at + duration_s, ends) are simultaneous: they share a "
		 "position, written a+b. A factor is counterbalanced when no value holds one "
		 "position in every block; a factor whose values always ran at the same time "
		 "(two machines measured at once) is `simultaneous`: time order cannot favour "
		 "one of them.");
	for (size_t i = 0; i < nz->nfactors; i++) {
		const struct noise_factor *f = &nz->factors[i];
		struct strbuf name = STRBUF_INIT, note = STRBUF_INIT;
		strbuf_addf(&names, "%s%s", i ? "," : "", f->name);
		strbuf_addf(&name, "counterbalanced_%s", f->name);
		strbuf_addf(&note, "order of %s%s", f->name, f->is_level ? " (the level)" : "");
		doc_fact_text(d, strbuf_str(&name), strbuf_str(&note), DOC_LISTED, f->balance);
		strbuf_reset(&name);
		strbuf_addf(&name, "order_note_%s", f->name);
		doc_fact_text(d, strbuf_str(&name), "why", DOC_QUIET, f->note);
		doc_note(s, "%s: %s (%s)", f->name, f->balance, f->note);
		strbuf_release(&name);
		strbuf_release(&note);
	}
	doc_fact_text(d, "order_factors", "factors whose order is checked", DOC_QUIET,
		      strbuf_str(&names));
	strbuf_release(&names);
}

static void bursts_table(struct doc *d, struct doc_section *s, const struct noise *nz,
			 const char *by, const char *metric)
{
	enum { GROUP, TAG, BURST, LEVEL, FIRST, LATER, LATER_N, RATIO, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[TAG] = DOC_COL_TEXT("tag"),
		[BURST] = DOC_COL_TEXT("burst"),
		[LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[FIRST] = DOC_COL_REAL("first", field_known_unit(metric), 'g', 6),
		[LATER] = DOC_COL_REAL("later_median", field_known_unit(metric), 'g', 6),
		[LATER_N] = DOC_COL_INT("later_n", "runs"),
		[RATIO] = DOC_COL_REAL("ratio", "x", 'f', 2),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	char empty[96];
	doc_table_hide_empty(t);
	snprintf(empty, sizeof(empty), "none: no level has %s or more runs",
		 doc_fact_int(d, "burst_min_runs", "runs a level needs for the burst check",
			      DOC_QUIET, NOISE_BURST_MIN_RUNS, "runs"));
	doc_table_empty_text(t, empty);
	for (size_t i = 0; i < nz->nbursts; i++) {
		const struct noise_burst *x = &nz->bursts[i];
		doc_row(t);
		doc_set_text(t, GROUP, x->group);
		doc_set_text(t, TAG, x->tag);
		doc_set_text(t, BURST, x->burst ? "burst" : "no");
		doc_set_real(t, LEVEL, x->level);
		doc_set_real(t, FIRST, x->value);
		doc_set_real(t, LATER, x->later_median);
		doc_set_int(t, LATER_N, (int64_t)x->later_n);
		doc_set_real(t, RATIO, x->ratio);
	}
}

static void soaks_table(struct doc *d, struct doc_section *s, const struct noise *nz,
			const char *by, const char *metric)
{
	enum { GROUP, BLOCK, FIRST_TAG, LEVEL, N, FIRST, MEDIAN, RATIO, MIN, MAX, RANGE, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[BLOCK] = DOC_COL_TEXT("block"),
		[FIRST_TAG] = DOC_COL_TEXT("first_tag"),
		[LEVEL] = DOC_COL_REAL("level", field_known_unit(by), 'g', 6),
		[N] = DOC_COL_INT("n", "runs"),
		[FIRST] = DOC_COL_REAL("first", field_known_unit(metric), 'g', 6),
		[MEDIAN] = DOC_COL_REAL("sustained_median", field_known_unit(metric), 'g', 6),
		[RATIO] = DOC_COL_REAL("ratio", "x", 'f', 2),
		[MIN] = DOC_COL_REAL("sustained_min", field_known_unit(metric), 'g', 6),
		[MAX] = DOC_COL_REAL("sustained_max", field_known_unit(metric), 'g', 6),
		[RANGE] = DOC_COL_REAL("sustained_range_pct", "%", 'f', 2),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	char empty[96];
	doc_table_hide_empty(t);
	snprintf(empty, sizeof(empty), "none: no level has %s or more runs in one block",
		 doc_fact_int(d, "soak_min_runs", "runs one block needs at a level for a soak",
			      DOC_QUIET, NOISE_SOAK_MIN_RUNS, "runs"));
	doc_table_empty_text(t, empty);
	for (size_t i = 0; i < nz->nsoaks; i++) {
		const struct noise_soak *x = &nz->soaks[i];
		doc_row(t);
		doc_set_text(t, GROUP, x->group);
		doc_set_text(t, BLOCK, x->block);
		doc_set_text(t, FIRST_TAG, x->first_tag);
		doc_set_real(t, LEVEL, x->level);
		doc_set_int(t, N, (int64_t)x->n);
		doc_set_real(t, FIRST, x->first);
		doc_set_real(t, MEDIAN, x->sustained.median);
		doc_set_real(t, RATIO, x->ratio);
		doc_set_real(t, MIN, x->sustained.min);
		doc_set_real(t, MAX, x->sustained.max);
		doc_set_real(t, RANGE, x->sustained.range_pct);
	}
}

static void verdict_table(struct doc *d, struct doc_section *s, const struct noise *nz)
{
	enum {
		GROUP,
		VERDICT,
		LEVELS,
		BALANCED,
		NOTE,
		BURSTS,
		RANGE,
		DEV,
		STEPS,
		RESOLVED,
		WITHIN,
		UNREPLICATED,
		BALANCE,
		NCOLS
	};
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[VERDICT] = DOC_COL_TEXT("verdict"),
		[LEVELS] = DOC_COL_TEXT("within_noise_levels"),
		[BALANCED] = DOC_COL_TEXT("counterbalanced"),
		[NOTE] = DOC_COL_TEXT("order_note"),
		[BURSTS] = DOC_COL_INT("bursts", NULL),
		[RANGE] = DOC_COL_REAL("max_range_pct", "%", 'f', 2),
		[DEV] = DOC_COL_REAL("max_block_dev_pct", "%", 'f', 2),
		[STEPS] = DOC_COL_TEXT("steps"),
		[RESOLVED] = DOC_COL_TEXT("steps_resolved"),
		[WITHIN] = DOC_COL_TEXT("steps_within_noise"),
		[UNREPLICATED] = DOC_COL_TEXT("steps_unreplicated"),
		[BALANCE] = DOC_COL_TEXT("level_order"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	struct strbuf all = STRBUF_INIT;
	const char *burst, *drift;
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->nverdicts; i++) {
		const struct noise_verdict *v = &nz->verdicts[i];
		doc_row(t);
		doc_set_text(t, GROUP, v->group);
		doc_set_text(t, VERDICT, v->verdict);
		doc_set_text(t, LEVELS, v->within_noise);
		doc_set_text(t, BALANCED, v->counterbalanced ? "yes" : "no");
		doc_set_text(t, NOTE, v->counterbalance_note);
		doc_set_int(t, BURSTS, (int64_t)v->nbursts);
		doc_set_real(t, RANGE, v->max_range_pct);
		doc_set_real(t, DEV, v->max_abs_dev_pct);
		doc_set_text(t, STEPS, v->steps_text);
		doc_set_text(t, RESOLVED, v->steps_resolved);
		doc_set_text(t, WITHIN, v->steps_within_noise);
		doc_set_text(t, UNREPLICATED, v->steps_unreplicated);
		doc_set_text(t, BALANCE, v->balance);
		if (nz->nverdicts > 1)
			strbuf_addf(&all, "%s%s: %s", i ? " | " : "", v->group, v->steps_text);
		else
			strbuf_adds(&all, v->steps_text);
	}
	doc_fact_text(d, "verdict_steps", "steps", DOC_LISTED, strbuf_str(&all));
	strbuf_release(&all);
	burst = doc_fact_real(d, "threshold_burst_factor", "burst factor", DOC_QUIET,
			      nz->opts.burst_factor, "x", 'f', 2);
	drift = doc_fact_real(d, "threshold_drift_pct", "drift threshold", DOC_QUIET,
			      nz->opts.drift_pct, "%", 'f', 2);
	doc_note(s,
		 "a step is resolved when Welch's t on the two levels' runs gives p < alpha, "
		 "the rule compare uses (the steps view; whether the ranges are disjoint is "
		 "evidence beside it); thresholds: burst factor %sx, drift %s%%; definitions: "
		 "`coreplan noise --help`, docs/statistics.md",
		 burst, drift);
}

/* The metric's kind and direction (bursts and the steps' effect use the direction). */
static void meaning_facts(struct doc *d, struct doc_section *s, const struct noise *nz,
			  const char *metric)
{
	const struct metric_meaning *m = &nz->opts.metric;
	build_metric_facts(d, m);
	if (m->kind_assumed)
		doc_note(s, "metric '%s' has no known kind: assumed a rate (pass --metric-kind)",
			 metric);
	if (nz->zero_median_levels > 0)
		doc_note(
			s,
			"%s level%s with a median of 0: range_pct, deviation_pct and the drift are "
			"left out there (a share of 0 is undefined); range_abs and deviation_abs "
			"are in the metric's units",
			doc_fact_int(d, "zero_median_levels", "levels whose median is 0", DOC_QUIET,
				     (int64_t)nz->zero_median_levels, "levels"),
			nz->zero_median_levels == 1 ? "" : "s");
	else
		doc_fact_int(d, "zero_median_levels", "levels whose median is 0", DOC_QUIET, 0,
			     "levels");
}

int build_noise(const struct noise_request *req, const struct noise_result *res, struct doc **out)
{
	const struct noise *nz = &res->nz;
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = build_doc(out, "noise", "");
	struct doc_section *s;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Noise of %s by %s", metric, req->by);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->sel.n, NULL);
	doc_fact_text(d, "by", "level field", DOC_LISTED, req->by);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_text(d, "block", "block field", DOC_LISTED, req->block ? req->block : "block");
	build_group_fact(d, req->group);
	doc_fact_int(d, "groups", "groups", DOC_LISTED, (int64_t)nz->nverdicts, NULL);
	doc_fact_text(d, "verdict", "verdict", DOC_LISTED, nz->verdict);
	doc_fact_bool(d, "counterbalanced", "counterbalanced", DOC_LISTED, nz->counterbalanced);
	doc_fact_int(d, "bursts", "first-run bursts", DOC_LISTED, (int64_t)nz->burst_count, NULL);
	/* Markdown order: the verdict first (views list: levels first) */
	s = doc_section(d, "verdict", "Verdict");
	verdict_table(d, s, nz);
	meaning_facts(d, s, nz, metric);
	steps_table(d, doc_section(d, "steps", "Steps between neighbouring levels"), nz, req->by,
		    metric);
	levels_table(doc_section(d, "levels", "Levels"), nz, req->by, metric);
	cells_table(doc_section(d, "cells", "Blocks at each level"), nz, req->by, metric);
	drift_table(doc_section(d, "drift", "Block drift"), nz);
	order_table(d, doc_section(d, "order", "Run order"), nz);
	bursts_table(d, doc_section(d, "bursts", "First-run bursts"), nz, req->by, metric);
	soaks_table(d, doc_section(d, "soaks", "Soaks (repeated runs of one cell)"), nz, req->by,
		    metric);
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_noise_views[] = {"levels", "steps", "cells",   "drift", "order",
					 "bursts", "soaks", "verdict", NULL};
