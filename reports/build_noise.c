/* build_noise: the document of `coreplan noise` (builders.h). */
#include "builders.h"

#include "../analysis/noise.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <stdio.h>

/* The unit of a field for column headers and facts ("" when unknown). */
static const char *unit_of(const char *field)
{
	const struct field_info *f = field_find(field);
	return f ? f->unit : "";
}

static const char *verdict_word(bool resolved)
{
	return resolved ? "resolved" : "within-noise";
}

static void levels_table(struct doc_section *s, const struct noise *nz, const char *by,
			 const char *metric)
{
	enum { GROUP, VERDICT, LEVEL, N, MEDIAN, MIN, MAX, RANGE, DEV, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[VERDICT] = DOC_COL_TEXT("verdict"),
		[LEVEL] = DOC_COL_REAL("level", unit_of(by), 'g', 6),
		[N] = DOC_COL_INT("n", "runs"),
		[MEDIAN] = DOC_COL_REAL("median", unit_of(metric), 'g', 6),
		[MIN] = DOC_COL_REAL("min", unit_of(metric), 'g', 6),
		[MAX] = DOC_COL_REAL("max", unit_of(metric), 'g', 6),
		[RANGE] = DOC_COL_REAL("range_pct", "%", 'f', 2),
		[DEV] = DOC_COL_REAL("max_block_dev_pct", "%", 'f', 2),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->nlevels; i++) {
		const struct noise_level *lv = &nz->levels[i];
		doc_row(t);
		doc_set_text(t, GROUP, lv->group);
		doc_set_text(t, VERDICT, verdict_word(!lv->within_noise));
		doc_set_real(t, LEVEL, lv->level);
		doc_set_int(t, N, (int64_t)lv->s.n);
		doc_set_real(t, MEDIAN, lv->s.median);
		doc_set_real(t, MIN, lv->s.min);
		doc_set_real(t, MAX, lv->s.max);
		doc_set_real(t, RANGE, lv->s.range_pct);
		doc_set_real(t, DEV, lv->max_abs_dev_pct);
	}
}

static void cells_table(struct doc_section *s, const struct noise *nz, const char *by,
			const char *metric)
{
	enum { GROUP, BLOCK, LEVEL, N, VALUE, DEV, POSITION, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[BLOCK] = DOC_COL_TEXT("block"),
		[LEVEL] = DOC_COL_REAL("level", unit_of(by), 'g', 6),
		[N] = DOC_COL_INT("n", "runs"),
		[VALUE] = DOC_COL_REAL("value", unit_of(metric), 'g', 6),
		[DEV] = DOC_COL_REAL("deviation_pct", "%", 'f', 2),
		[POSITION] = DOC_COL_INT("position", NULL),
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

static void order_table(struct doc_section *s, const struct noise *nz)
{
	enum { GROUP, BLOCK, LEVELS, ORDERED_BY, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[BLOCK] = DOC_COL_TEXT("block"),
		[LEVELS] = DOC_COL_TEXT("levels_in_order"),
		[ORDERED_BY] = DOC_COL_TEXT("ordered_by"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->norders; i++) {
		const struct noise_order *o = &nz->orders[i];
		doc_row(t);
		doc_set_text(t, GROUP, o->group);
		doc_set_text(t, BLOCK, o->block);
		doc_set_text(t, LEVELS, o->levels);
		doc_set_text(t, ORDERED_BY, o->timed ? "start time" : "results-table row");
	}
}

static void bursts_table(struct doc *d, struct doc_section *s, const struct noise *nz,
			 const char *by, const char *metric)
{
	enum { GROUP, TAG, BURST, LEVEL, FIRST, LATER, LATER_N, RATIO, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[TAG] = DOC_COL_TEXT("tag"),
		[BURST] = DOC_COL_TEXT("burst"),
		[LEVEL] = DOC_COL_REAL("level", unit_of(by), 'g', 6),
		[FIRST] = DOC_COL_REAL("first", unit_of(metric), 'g', 6),
		[LATER] = DOC_COL_REAL("later_median", unit_of(metric), 'g', 6),
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
		[LEVEL] = DOC_COL_REAL("level", unit_of(by), 'g', 6),
		[N] = DOC_COL_INT("n", "runs"),
		[FIRST] = DOC_COL_REAL("first", unit_of(metric), 'g', 6),
		[MEDIAN] = DOC_COL_REAL("sustained_median", unit_of(metric), 'g', 6),
		[RATIO] = DOC_COL_REAL("ratio", "x", 'f', 2),
		[MIN] = DOC_COL_REAL("sustained_min", unit_of(metric), 'g', 6),
		[MAX] = DOC_COL_REAL("sustained_max", unit_of(metric), 'g', 6),
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
	enum { GROUP, VERDICT, LEVELS, BALANCED, NOTE, BURSTS, RANGE, DEV, NCOLS };
	const struct doc_col cols[NCOLS] = {
		[GROUP] = DOC_COL_TEXT("group"),
		[VERDICT] = DOC_COL_TEXT("verdict"),
		[LEVELS] = DOC_COL_TEXT("within_noise_levels"),
		[BALANCED] = DOC_COL_TEXT("counterbalanced"),
		[NOTE] = DOC_COL_TEXT("order_note"),
		[BURSTS] = DOC_COL_INT("bursts", NULL),
		[RANGE] = DOC_COL_REAL("max_range_pct", "%", 'f', 2),
		[DEV] = DOC_COL_REAL("max_block_dev_pct", "%", 'f', 2),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	const char *range, *burst, *drift;
	doc_table_hide_empty(t);
	for (size_t i = 0; i < nz->nverdicts; i++) {
		const struct noise_verdict *v = &nz->verdicts[i];
		doc_row(t);
		doc_set_text(t, GROUP, v->group);
		doc_set_text(t, VERDICT, verdict_word(v->resolved));
		doc_set_text(t, LEVELS, v->within_noise);
		doc_set_text(t, BALANCED, v->counterbalanced ? "yes" : "no");
		doc_set_text(t, NOTE, v->counterbalance_note);
		doc_set_int(t, BURSTS, (int64_t)v->nbursts);
		doc_set_real(t, RANGE, v->max_range_pct);
		doc_set_real(t, DEV, v->max_abs_dev_pct);
	}
	range = doc_fact_real(d, "threshold_range_pct", "largest range of a resolved level",
			      DOC_QUIET, nz->opts.range_pct, "%", 'f', 2);
	burst = doc_fact_real(d, "threshold_burst_factor", "burst factor", DOC_QUIET,
			      nz->opts.burst_factor, "x", 'f', 2);
	drift = doc_fact_real(d, "threshold_drift_pct", "drift threshold", DOC_QUIET,
			      nz->opts.drift_pct, "%", 'f', 2);
	doc_note(s,
		 "thresholds: range %s%%, burst factor %sx, drift %s%%; definitions: "
		 "`coreplan noise --help`",
		 range, burst, drift);
}

/* The group fields as given ("target,cfg"), or "" for none. */
static void group_fact(struct doc *d, const char *const *group)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; group && group[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", group[i]);
	doc_fact_text(d, "group", "group fields", sb.len ? DOC_LISTED : DOC_QUIET, strbuf_str(&sb));
	strbuf_release(&sb);
}

int build_noise(const struct noise_request *req, const struct noise_result *res, struct doc **out)
{
	const struct noise *nz = &res->nz;
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = doc_new("noise", "");
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	doc_set_title(d, "Noise of %s by %s", metric, req->by);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->sel.n, NULL);
	doc_fact_text(d, "by", "level field", DOC_LISTED, req->by);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_text(d, "block", "block field", DOC_LISTED, req->block ? req->block : "block");
	group_fact(d, req->group);
	doc_fact_int(d, "groups", "groups", DOC_LISTED, (int64_t)nz->nverdicts, NULL);
	doc_fact_text(d, "verdict", "verdict", DOC_LISTED, verdict_word(nz->resolved));
	doc_fact_bool(d, "counterbalanced", "counterbalanced", DOC_LISTED, nz->counterbalanced);
	doc_fact_int(d, "bursts", "first-run bursts", DOC_LISTED, (int64_t)nz->burst_count, NULL);
	/* Markdown order: the verdict first (views list: levels first) */
	verdict_table(d, doc_section(d, "verdict", "Verdict"), nz);
	levels_table(doc_section(d, "levels", "Levels"), nz, req->by, metric);
	cells_table(doc_section(d, "cells", "Blocks at each level"), nz, req->by, metric);
	drift_table(doc_section(d, "drift", "Block drift"), nz);
	order_table(doc_section(d, "order", "Run order"), nz);
	bursts_table(d, doc_section(d, "bursts", "First-run bursts"), nz, req->by, metric);
	soaks_table(d, doc_section(d, "soaks", "Soaks (repeated runs of one cell)"), nz, req->by,
		    metric);
	build_left_out(d, &res->sel);
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
