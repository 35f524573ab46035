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
	const char *u = field_known_unit(metric);
	const struct doc_field cols[] = {
		DOC_TEXT_OF("group", struct noise_level, group),
		DOC_TEXT_OF("verdict", struct noise_level, verdict),
		DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct noise_level, level),
		DOC_INT_OF("n", "runs", struct noise_level, s.n),
		DOC_REAL_OF("median", u, 'g', 6, struct noise_level, s.median),
		DOC_REAL_OF("min", u, 'g', 6, struct noise_level, s.min),
		DOC_REAL_OF("max", u, 'g', 6, struct noise_level, s.max),
		DOC_REAL_OF("range_pct", "%", 'f', 2, struct noise_level, s.range_pct),
		DOC_REAL_OF("max_block_dev_pct", "%", 'f', 2, struct noise_level, max_abs_dev_pct),
		DOC_REAL_OF("range_abs", u, 'g', 6, struct noise_level, s.range_abs),
		DOC_REAL_OF("max_block_dev_abs", u, 'g', 6, struct noise_level, max_abs_dev_abs),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	doc_table_hide_empty(t);
	doc_rows_of(t, cols, DOC_NFIELDS(cols), nz->levels, nz->nlevels, sizeof(nz->levels[0]));
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
	const char *u = field_known_unit(metric);
	const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_TEXT_OF("group", struct noise_step, group),
		[FROM] = DOC_REAL_OF("from", field_known_unit(by), 'g', 6, struct noise_step, from),
		[TO] = DOC_REAL_OF("to", field_known_unit(by), 'g', 6, struct noise_step, to),
		[VERDICT] = DOC_TEXT_OF("verdict", struct noise_step, verdict),
		[N_FROM] = DOC_INT_OF("n_from", "runs", struct noise_step, n_from),
		[N_TO] = DOC_INT_OF("n_to", "runs", struct noise_step, n_to),
		[MEDIAN_FROM] =
			DOC_REAL_OF("median_from", u, 'g', 6, struct noise_step, median_from),
		[MEDIAN_TO] = DOC_REAL_OF("median_to", u, 'g', 6, struct noise_step, median_to),
		[DIFF] = DOC_REAL_OF("difference", u, 'g', 6, struct noise_step, difference),
		[GAP] = DOC_REAL_OF("gap", u, 'g', 6, struct noise_step, gap),
		[DISJOINT] = DOC_YES_NO_OF("ranges_disjoint", struct noise_step, ranges_disjoint),
		[WORD] = DOC_TEXT_OF("direction", struct noise_step, v.change),
		[EFFECT] = DOC_TEXT_OF("effect", struct noise_step, effect),
		[TEST] = DOC_TEXT_OF("test", struct noise_step, v.test),
		[P] = DOC_REAL_OF("p", NULL, 'g', 3, struct noise_step, v.p),
		[RATIO] = DOC_FIELD_NONE(DOC_COL_REAL("gm_ratio", "x", 'f', 4)),
		[RATIO_LO] = DOC_FIELD_NONE(DOC_COL_REAL("gm_ratio_lo", "x", 'f', 4)),
		[RATIO_HI] = DOC_FIELD_NONE(DOC_COL_REAL("gm_ratio_hi", "x", 'f', 4)),
		[MEAN_DIFF] = DOC_FIELD_NONE(DOC_COL_REAL("mean_diff", u, 'g', 4)),
		[MEAN_DIFF_LO] = DOC_FIELD_NONE(DOC_COL_REAL("mean_diff_lo", u, 'g', 4)),
		[MEAN_DIFF_HI] = DOC_FIELD_NONE(DOC_COL_REAL("mean_diff_hi", u, 'g', 4)),
		[RANK_P] = DOC_REAL_OF("rank_p", NULL, 'g', 3, struct noise_step, v.rank.p),
		[RUNS_NEEDED] = DOC_FIELD_NONE(DOC_COL_REAL("runs_needed", "runs", 'g', 6)),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "none: every group has one level");
	for (size_t i = 0; i < nz->nsteps; i++) {
		const struct noise_step *x = &nz->steps[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, x);
		build_set_interval(t, x->v.log_scale ? RATIO : MEAN_DIFF, x->v.estimate, x->v.lo,
				   x->v.hi);
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
	const char *u = field_known_unit(metric);
	const struct doc_field cols[] = {
		DOC_TEXT_OF("group", struct noise_cell, group),
		DOC_TEXT_OF("block", struct noise_cell, block),
		DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct noise_cell, level),
		DOC_INT_OF("n", "runs", struct noise_cell, n),
		DOC_REAL_OF("value", u, 'g', 6, struct noise_cell, value),
		DOC_REAL_OF("deviation_pct", "%", 'f', 2, struct noise_cell, deviation_pct),
		DOC_INT_OF("position", NULL, struct noise_cell, position),
		DOC_REAL_OF("deviation_abs", u, 'g', 6, struct noise_cell, deviation_abs),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	doc_table_hide_empty(t);
	doc_rows_of(t, cols, DOC_NFIELDS(cols), nz->cells, nz->ncells, sizeof(nz->cells[0]));
}

static void drift_table(struct doc_section *s, const struct noise *nz)
{
	static const struct doc_field cols[] = {
		DOC_TEXT_OF("group", struct noise_drift, group),
		DOC_TEXT_OF("block", struct noise_drift, block),
		DOC_TEXT_OF("drift", struct noise_drift, drift),
		DOC_INT_OF("levels", NULL, struct noise_drift, nlevels),
		DOC_REAL_OF("mean_dev_pct", "%", 'f', 2, struct noise_drift, mean_dev_pct),
		DOC_REAL_OF("min_dev_pct", "%", 'f', 2, struct noise_drift, min_dev_pct),
		DOC_REAL_OF("max_dev_pct", "%", 'f', 2, struct noise_drift, max_dev_pct),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	doc_table_hide_empty(t);
	doc_rows_of(t, cols, DOC_NFIELDS(cols), nz->drifts, nz->ndrifts, sizeof(nz->drifts[0]));
}

static void order_table(struct doc *d, struct doc_section *s, const struct noise *nz)
{
	enum { FACTOR, GROUP, BLOCK, LEVELS, ORDERED_BY, NCOLS };
	static const struct doc_field cols[NCOLS] = {
		[FACTOR] = DOC_TEXT_OF("factor", struct noise_order, factor),
		[GROUP] = DOC_TEXT_OF("group", struct noise_order, group),
		[BLOCK] = DOC_TEXT_OF("block", struct noise_order, block),
		[LEVELS] = DOC_TEXT_OF("levels_in_order", struct noise_order, levels),
		[ORDERED_BY] = DOC_FIELD_NONE(DOC_COL_TEXT("ordered_by")),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	struct strbuf names = STRBUF_INIT;
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->norders; i++) {
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, &nz->orders[i]);
		doc_set_text(t, ORDERED_BY,
			     nz->orders[i].timed ? "start time" : "results-table row");
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
	const char *u = field_known_unit(metric);
	const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_TEXT_OF("group", struct noise_burst, group),
		[TAG] = DOC_TEXT_OF("tag", struct noise_burst, tag),
		[BURST] = DOC_FIELD_NONE(DOC_COL_TEXT("burst")),
		[LEVEL] = DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct noise_burst,
				      level),
		[FIRST] = DOC_REAL_OF("first", u, 'g', 6, struct noise_burst, value),
		[LATER] = DOC_REAL_OF("later_median", u, 'g', 6, struct noise_burst, later_median),
		[LATER_N] = DOC_INT_OF("later_n", "runs", struct noise_burst, later_n),
		[RATIO] = DOC_REAL_OF("ratio", "x", 'f', 2, struct noise_burst, ratio),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	char empty[96];
	doc_table_hide_empty(t);
	snprintf(empty, sizeof(empty), "none: no level has %s or more runs",
		 doc_fact_int(d, "burst_min_runs", "runs a level needs for the burst check",
			      DOC_QUIET, NOISE_BURST_MIN_RUNS, "runs"));
	doc_table_empty_text(t, empty);
	for (size_t i = 0; i < nz->nbursts; i++) {
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, &nz->bursts[i]);
		doc_set_text(t, BURST, nz->bursts[i].burst ? "burst" : "no");
	}
}

static void soaks_table(struct doc *d, struct doc_section *s, const struct noise *nz,
			const char *by, const char *metric)
{
	const char *u = field_known_unit(metric);
	const struct doc_field cols[] = {
		DOC_TEXT_OF("group", struct noise_soak, group),
		DOC_TEXT_OF("block", struct noise_soak, block),
		DOC_TEXT_OF("first_tag", struct noise_soak, first_tag),
		DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct noise_soak, level),
		DOC_INT_OF("n", "runs", struct noise_soak, n),
		DOC_REAL_OF("first", u, 'g', 6, struct noise_soak, first),
		DOC_REAL_OF("sustained_median", u, 'g', 6, struct noise_soak, sustained.median),
		DOC_REAL_OF("ratio", "x", 'f', 2, struct noise_soak, ratio),
		DOC_REAL_OF("sustained_min", u, 'g', 6, struct noise_soak, sustained.min),
		DOC_REAL_OF("sustained_max", u, 'g', 6, struct noise_soak, sustained.max),
		DOC_REAL_OF("sustained_range_pct", "%", 'f', 2, struct noise_soak,
			    sustained.range_pct),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	char empty[96];
	doc_table_hide_empty(t);
	snprintf(empty, sizeof(empty), "none: no level has %s or more runs in one block",
		 doc_fact_int(d, "soak_min_runs", "runs one block needs at a level for a soak",
			      DOC_QUIET, NOISE_SOAK_MIN_RUNS, "runs"));
	doc_table_empty_text(t, empty);
	doc_rows_of(t, cols, DOC_NFIELDS(cols), nz->soaks, nz->nsoaks, sizeof(nz->soaks[0]));
}

static void verdict_table(struct doc *d, struct doc_section *s, const struct noise *nz)
{
	static const struct doc_field cols[] = {
		DOC_TEXT_OF("group", struct noise_verdict, group),
		DOC_TEXT_OF("verdict", struct noise_verdict, verdict),
		DOC_TEXT_OF("within_noise_levels", struct noise_verdict, within_noise),
		DOC_YES_NO_OF("counterbalanced", struct noise_verdict, counterbalanced),
		DOC_TEXT_OF("order_note", struct noise_verdict, counterbalance_note),
		DOC_INT_OF("bursts", NULL, struct noise_verdict, nbursts),
		DOC_REAL_OF("max_range_pct", "%", 'f', 2, struct noise_verdict, max_range_pct),
		DOC_REAL_OF("max_block_dev_pct", "%", 'f', 2, struct noise_verdict,
			    max_abs_dev_pct),
		DOC_TEXT_OF("steps", struct noise_verdict, steps_text),
		DOC_TEXT_OF("steps_resolved", struct noise_verdict, steps_resolved),
		DOC_TEXT_OF("steps_within_noise", struct noise_verdict, steps_within_noise),
		DOC_TEXT_OF("steps_unreplicated", struct noise_verdict, steps_unreplicated),
		DOC_TEXT_OF("level_order", struct noise_verdict, balance),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	struct strbuf all = STRBUF_INIT;
	const char *burst, *drift;
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->nverdicts; i++) {
		const struct noise_verdict *v = &nz->verdicts[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, DOC_NFIELDS(cols), v);
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
