/* noise: see noise.h. */
#include "noise.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "noise_order.h"
#include "pooling.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void noise_options_init(struct noise_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->burst_factor = NOISE_BURST_FACTOR;
	opts->drift_pct = NOISE_DRIFT_PCT;
	opts->alpha = VERDICT_ALPHA;
	field_metric_meaning("tput", NULL, false, &opts->metric);
	opts->duration_extra = -1;
}

/* ---- one group ---- */

struct group {
	const struct selection *sel;
	const char *name;
	size_t *runs; /* indices into sel->runs, in time order */
	size_t n;
	double *levels; /* distinct, ascending */
	size_t nlevels;
	const char **blocks; /* distinct, in order of their first run */
	size_t nblocks;
	bool timed;
};

static int group_init(struct group *g, const struct selection *sel, const struct run_time *t,
		      const char *name)
{
	bool *keep = calloc(sel->n ? sel->n : 1, sizeof(*keep));
	int rc = 0;
	memset(g, 0, sizeof(*g));
	g->sel = sel;
	g->name = name;
	if (!keep)
		return err_set("out of memory");
	for (size_t i = 0; i < sel->n; i++) {
		const struct sel_run *run = &sel->runs[i];
		if (strcmp(run->group, name))
			continue;
		if (!run->level_numeric) {
			rc = err_set("run '%s': level '%s' is not a number", run->tag,
				     run->level_text);
			goto done;
		}
		keep[i] = true;
	}
	if ((rc = noise_time_order(sel, t, keep, &g->runs, &g->n, &g->timed)) < 0)
		goto done;
	g->levels = malloc((g->n ? g->n : 1) * sizeof(*g->levels));
	g->blocks = malloc((g->n ? g->n : 1) * sizeof(*g->blocks));
	if (!g->levels || !g->blocks) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < g->n; i++)
		g->levels[i] = sel->runs[g->runs[i]].level;
	gsl_sort(g->levels, 1, g->n);
	for (size_t i = 0; i < g->n; i++)
		if (g->nlevels == 0 || g->levels[i] != g->levels[g->nlevels - 1])
			g->levels[g->nlevels++] = g->levels[i];
	for (size_t i = 0; i < g->n; i++) {
		const char *b = noise_block_of(&sel->runs[g->runs[i]]);
		size_t j = 0;
		while (j < g->nblocks && strcmp(g->blocks[j], b))
			j++;
		if (j == g->nblocks)
			g->blocks[g->nblocks++] = b;
	}
done:
	free(keep);
	return rc;
}

static void group_release(struct group *g)
{
	free(g->runs);
	free(g->levels);
	free(g->blocks);
}

/* Metric values of the group's runs matching level (and block, unless NULL), in time order. */
static size_t gather(const struct group *g, double level, const char *block, double *out,
		     size_t *first_index)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct sel_run *run = &g->sel->runs[g->runs[i]];
		if (run->level != level || (block && strcmp(noise_block_of(run), block)))
			continue;
		if (n == 0 && first_index)
			*first_index = g->runs[i];
		out[n++] = run->metric;
	}
	return n;
}

static void level_text(double level, char buf[32])
{
	snprintf(buf, 32, "%g", level);
}

/* The level order of the group, block by block (the level factor's stratum). */
static int level_orders(struct noise *nz, const struct group *g, const struct run_time *t,
			const char *label, struct noise_verdict *v)
{
	char(*texts)[32] = malloc((g->n ? g->n : 1) * sizeof(*texts));
	const char **values = malloc((g->n ? g->n : 1) * sizeof(*values));
	size_t first = nz->norders;
	int rc;
	if (!texts || !values) {
		free(texts);
		free(values);
		return err_set("out of memory");
	}
	for (size_t i = 0; i < g->n; i++) {
		level_text(g->sel->runs[g->runs[i]].level, texts[i]);
		values[i] = texts[i];
	}
	{
		struct stratum st = {label, true, g->name, g->runs, values, g->n, g->timed};
		rc = noise_stratum_orders(nz, g->sel, t, &st);
	}
	if (rc == 0)
		rc = noise_judge_orders(nz, first, label, &v->balance, &v->counterbalance_note);
	v->counterbalanced = v->balance && !strcmp(v->balance, NOISE_BAL_YES);
	free(texts);
	free(values);
	return rc;
}

/* Position of `level` in the group's order row for `block` (0 when absent). */
static size_t position_of(const struct noise *nz, size_t first_order, const char *block,
			  double level)
{
	char text[32];
	level_text(level, text);
	for (size_t r = first_order; r < nz->norders; r++) {
		const struct noise_order *o = &nz->orders[r];
		if (strcmp(o->block, block))
			continue;
		for (size_t i = 0; i < o->nvalues; i++)
			if (!strcmp(o->values[i], text))
				return o->positions[i];
	}
	return 0;
}

static int levels_and_cells(struct noise *nz, const struct group *g, size_t first_order,
			    double *buf)
{
	for (size_t l = 0; l < g->nlevels; l++) {
		struct noise_level *lv = noise_push(&nz->levels, &nz->nlevels, sizeof(*lv));
		size_t n = gather(g, g->levels[l], NULL, buf, NULL);
		int rc;
		if (!lv)
			return ERR_DATA;
		lv->group = g->name;
		lv->level = g->levels[l];
		lv->max_abs_dev_pct = NAN;
		rc = stats_summary_abs(buf, n, &lv->s);
		if (rc)
			return rc;
		nz->zero_median_levels += lv->s.median == 0;
		for (size_t b = 0; b < g->nblocks; b++) {
			struct noise_cell *cell;
			size_t m = gather(g, g->levels[l], g->blocks[b], buf, NULL);
			if (m == 0)
				continue;
			cell = noise_push(&nz->cells, &nz->ncells, sizeof(*cell));
			if (!cell)
				return ERR_DATA;
			cell->group = g->name;
			cell->level = g->levels[l];
			cell->block = g->blocks[b];
			cell->n = m;
			rc = stats_median(buf, m, &cell->value);
			if (rc)
				return rc;
			cell->deviation_abs = cell->value - lv->s.median;
			cell->deviation_pct = lv->s.median != 0
						      ? (cell->value / lv->s.median - 1.0) * 100.0
						      : NAN;
			cell->position = position_of(nz, first_order, g->blocks[b], g->levels[l]);
			/* fmax ignores a NaN: a 0 median leaves the largest % deviation NaN */
			lv->max_abs_dev_pct = fmax(lv->max_abs_dev_pct, fabs(cell->deviation_pct));
			lv->max_abs_dev_abs = fmax(lv->max_abs_dev_abs, fabs(cell->deviation_abs));
		}
	}
	return 0;
}

static int drifts(struct noise *nz, const struct group *g, size_t first_cell)
{
	for (size_t b = 0; b < g->nblocks; b++) {
		struct noise_drift *d = NULL;
		size_t above = 0, below = 0;
		double sum = 0;
		for (size_t c = first_cell; c < nz->ncells; c++) {
			const struct noise_cell *cell = &nz->cells[c];
			if (strcmp(cell->block, g->blocks[b]) || isnan(cell->deviation_pct))
				continue;
			if (!d) {
				d = noise_push(&nz->drifts, &nz->ndrifts, sizeof(*d));
				if (!d)
					return ERR_DATA;
				d->group = g->name;
				d->block = g->blocks[b];
				d->min_dev_pct = INFINITY;
				d->max_dev_pct = -INFINITY;
			}
			d->nlevels++;
			sum += cell->deviation_pct;
			above += cell->deviation_pct > 0;
			below += cell->deviation_pct < 0;
			d->min_dev_pct = fmin(d->min_dev_pct, cell->deviation_pct);
			d->max_dev_pct = fmax(d->max_dev_pct, cell->deviation_pct);
		}
		if (!d)
			continue;
		d->mean_dev_pct = sum / (double)d->nlevels;
		d->drift = "none";
		if (d->nlevels >= 2 && fabs(d->mean_dev_pct) > nz->opts.drift_pct) {
			if (above == d->nlevels)
				d->drift = "high";
			else if (below == d->nlevels)
				d->drift = "low";
		}
	}
	return 0;
}

/* A first run better than the later median by the factor, in the metric's direction. */
static bool is_burst(double first, double later, double factor, bool lower_is_better)
{
	if (later == 0)
		return false;
	return lower_is_better ? later >= factor * first : first / later >= factor;
}

static int bursts_and_soaks(struct noise *nz, const struct group *g, double *buf)
{
	for (size_t l = 0; l < g->nlevels; l++) {
		size_t first = 0;
		size_t n = gather(g, g->levels[l], NULL, buf, &first);
		struct noise_burst *b;
		if (n >= NOISE_BURST_MIN_RUNS) {
			int rc;
			b = noise_push(&nz->bursts, &nz->nbursts, sizeof(*b));
			if (!b)
				return ERR_DATA;
			b->group = g->name;
			b->level = g->levels[l];
			b->tag = g->sel->runs[first].tag;
			b->value = buf[0];
			b->later_n = n - 1;
			rc = stats_median(buf + 1, n - 1, &b->later_median);
			if (rc)
				return rc;
			b->ratio = b->later_median != 0 ? b->value / b->later_median : NAN;
			b->burst = is_burst(b->value, b->later_median, nz->opts.burst_factor,
					    nz->opts.metric.lower_is_better);
		}
		for (size_t k = 0; k < g->nblocks; k++) {
			struct noise_soak *s;
			size_t m = gather(g, g->levels[l], g->blocks[k], buf, &first);
			int rc;
			if (m < NOISE_SOAK_MIN_RUNS)
				continue;
			s = noise_push(&nz->soaks, &nz->nsoaks, sizeof(*s));
			if (!s)
				return ERR_DATA;
			s->group = g->name;
			s->level = g->levels[l];
			s->block = g->blocks[k];
			s->n = m;
			s->first_tag = g->sel->runs[first].tag;
			s->first = buf[0];
			rc = stats_summary_abs(buf + 1, m - 1, &s->sustained);
			if (rc)
				return rc;
			s->ratio = s->sustained.median != 0 ? s->first / s->sustained.median : NAN;
		}
	}
	return 0;
}

/* ---- the step rule ---- */

/* The range rule (evidence): the spreads facing each other and the gap between the ranges. */
static void range_rule(const struct summary *a, const struct summary *b, bool lower_is_better,
		       struct noise_step *out)
{
	double d = b->median - a->median;
	double rise_from = a->max - a->median, rise_to = b->median - b->min;
	double fall_from = a->median - a->min, fall_to = b->max - b->median;
	out->n_from = a->n;
	out->n_to = b->n;
	out->median_from = a->median;
	out->median_to = b->median;
	out->difference = d;
	out->difference_pct = a->median != 0 ? d / fabs(a->median) * 100 : NAN;
	if (d > 0) {
		out->spread_from = rise_from;
		out->spread_to = rise_to;
		out->gap = b->min - a->max;
		out->change = "rise";
		out->effect = lower_is_better ? "worse" : "better";
		out->ranges_disjoint = b->min > a->max;
	} else if (d < 0) {
		out->spread_from = fall_from;
		out->spread_to = fall_to;
		out->gap = a->min - b->max;
		out->change = "fall";
		out->effect = lower_is_better ? "better" : "worse";
		out->ranges_disjoint = a->min > b->max;
	} else {
		bool rise = rise_from + rise_to >= fall_from + fall_to;
		out->spread_from = rise ? rise_from : fall_from;
		out->spread_to = rise ? rise_to : fall_to;
		out->gap = -(out->spread_from + out->spread_to);
		out->change = out->effect = "none";
		out->ranges_disjoint = false;
	}
	out->spread = out->spread_from + out->spread_to;
}

int noise_step_judge(const double *from, size_t n_from, const double *to, size_t n_to,
		     const struct verdict_options *o, struct noise_step *out)
{
	int rc = verdict_two_samples(from, n_from, to, n_to, o, &out->v);
	if (rc)
		return rc;
	range_rule(&out->v.a, &out->v.b, o->lower_is_better, out);
	switch (out->v.call) {
	case VERDICT_REAL:
		out->verdict = NOISE_RESOLVED;
		break;
	case VERDICT_UNREPLICATED:
		out->verdict = NOISE_UNREPLICATED;
		break;
	default:
		out->verdict = NOISE_WITHIN;
		break;
	}
	return 0;
}

/* Rank of a verdict word when several combine: the lowest wins. */
static int verdict_rank(const char *word)
{
	static const char *const order[] = {NOISE_WITHIN, NOISE_UNREPLICATED, NOISE_SINGLE_LEVEL,
					    NOISE_RESOLVED};
	for (int i = 0; i < 4; i++)
		if (!strcmp(word, order[i]))
			return i;
	return 4;
}

static const char *worse(const char *a, const char *b)
{
	return !a || verdict_rank(b) < verdict_rank(a) ? b : a;
}

static int steps(struct noise *nz, const struct group *g, size_t first_level)
{
	const struct noise_level *lv = nz->levels + first_level;
	double *from = malloc((g->n ? g->n : 1) * sizeof(*from));
	double *to = malloc((g->n ? g->n : 1) * sizeof(*to));
	struct verdict_options o;
	int rc = from && to ? 0 : err_set("out of memory");
	verdict_options_init(&o);
	o.alpha = nz->opts.alpha;
	o.kind = nz->opts.metric.kind;
	o.lower_is_better = nz->opts.metric.lower_is_better;
	for (size_t i = 0; rc == 0 && i + 1 < g->nlevels; i++) {
		struct noise_step *s = noise_push(&nz->steps, &nz->nsteps, sizeof(*s));
		char name_a[48], name_b[48];
		size_t na = gather(g, lv[i].level, NULL, from, NULL);
		size_t nb = gather(g, lv[i + 1].level, NULL, to, NULL);
		if (!s) {
			rc = ERR_DATA;
			break;
		}
		snprintf(name_a, sizeof(name_a), "level %g", lv[i].level);
		snprintf(name_b, sizeof(name_b), "level %g", lv[i + 1].level);
		o.name_a = name_a;
		o.name_b = name_b;
		rc = noise_step_judge(from, na, to, nb, &o, s);
		s->group = g->name;
		s->from = lv[i].level;
		s->to = lv[i + 1].level;
		nz->nresolved += !strcmp(s->verdict, NOISE_RESOLVED);
		nz->nwithin += !strcmp(s->verdict, NOISE_WITHIN);
		nz->nunreplicated += !strcmp(s->verdict, NOISE_UNREPLICATED);
	}
	free(from);
	free(to);
	return rc;
}

static void add_step(struct strbuf *sb, const struct noise_step *s)
{
	strbuf_addf(sb, "%s%g→%g", sb->len ? ", " : "", s->from, s->to);
}

/* Level verdicts from their steps; the group's verdict and step lists. */
static int verdict(struct noise *nz, const struct group *g, size_t first_level, size_t first_step,
		   struct noise_verdict *v)
{
	struct strbuf list = STRBUF_INIT, res = STRBUF_INIT, within = STRBUF_INIT,
		      unrep = STRBUF_INIT, text = STRBUF_INIT;
	struct noise_level *lv = nz->levels + first_level;
	const struct noise_step *st = nz->steps + first_step;
	size_t n = nz->nlevels - first_level, nsteps = nz->nsteps - first_step;
	v->group = g->name;
	v->max_range_pct = NAN;
	v->max_abs_dev_pct = NAN;
	v->verdict = nsteps == 0 ? NOISE_SINGLE_LEVEL : NOISE_RESOLVED;
	for (size_t i = 0; i < n; i++) {
		const char *word = NULL;
		if (i > 0)
			word = worse(word, st[i - 1].verdict);
		if (i + 1 < n)
			word = worse(word, st[i].verdict);
		if (lv[i].s.n < 2)
			word = NOISE_UNREPLICATED;
		lv[i].verdict = word ? word : NOISE_SINGLE_LEVEL;
		lv[i].within_noise = !strcmp(lv[i].verdict, NOISE_WITHIN);
		if (lv[i].within_noise)
			lv[i].why = "a step to a neighbouring level is within noise (Welch p >= "
				    "alpha)";
		else if (lv[i].s.n < 2)
			lv[i].why = "one run";
		else if (!strcmp(lv[i].verdict, NOISE_UNREPLICATED))
			lv[i].why = "a neighbouring level has one run";
		else if (!word)
			lv[i].why = "the only level: no step";
		v->max_range_pct = fmax(v->max_range_pct, lv[i].s.range_pct);
		v->max_abs_dev_pct = fmax(v->max_abs_dev_pct, lv[i].max_abs_dev_pct);
		if (lv[i].within_noise)
			strbuf_addf(&list, "%s%g", list.len ? "," : "", lv[i].level);
	}
	for (size_t i = 0; i < nsteps; i++) {
		v->verdict = worse(v->verdict, st[i].verdict);
		if (!strcmp(st[i].verdict, NOISE_RESOLVED))
			add_step(&res, &st[i]);
		else if (!strcmp(st[i].verdict, NOISE_WITHIN))
			add_step(&within, &st[i]);
		else
			add_step(&unrep, &st[i]);
	}
	if (res.len)
		strbuf_addf(&text, "%s: %s", NOISE_RESOLVED, strbuf_str(&res));
	if (within.len)
		strbuf_addf(&text, "%s%s: %s", text.len ? "; " : "", NOISE_WITHIN,
			    strbuf_str(&within));
	if (unrep.len)
		strbuf_addf(&text, "%s%s: %s", text.len ? "; " : "", NOISE_UNREPLICATED,
			    strbuf_str(&unrep));
	if (nsteps == 0)
		strbuf_adds(&text, "no steps: one level");
	v->resolved = !strcmp(v->verdict, NOISE_RESOLVED);
	v->within_noise = strbuf_detach(&list);
	v->steps_resolved = strbuf_detach(&res);
	v->steps_within_noise = strbuf_detach(&within);
	v->steps_unreplicated = strbuf_detach(&unrep);
	v->steps_text = strbuf_detach(&text);
	for (size_t i = 0; i < nz->nbursts; i++)
		v->nbursts += nz->bursts[i].group == g->name && nz->bursts[i].burst;
	if (!v->within_noise || !v->steps_resolved || !v->steps_within_noise ||
	    !v->steps_unreplicated || !v->steps_text)
		return err_set("out of memory");
	return 0;
}

static int analyse_group(struct noise *nz, const struct selection *sel, const struct run_time *t,
			 const char *name, double *buf)
{
	struct group g;
	struct noise_verdict *v = NULL;
	size_t first_cell = nz->ncells, first_level = nz->nlevels, first_order = nz->norders;
	size_t first_step = nz->nsteps;
	const char *label = nz->opts.by ? nz->opts.by : "level";
	int rc = group_init(&g, sel, t, name);
	if (rc == 0 && !(v = noise_push(&nz->verdicts, &nz->nverdicts, sizeof(*v))))
		rc = ERR_DATA;
	if (rc == 0)
		rc = level_orders(nz, &g, t, label, v);
	if (rc == 0)
		rc = levels_and_cells(nz, &g, first_order, buf);
	if (rc == 0)
		rc = drifts(nz, &g, first_cell);
	if (rc == 0)
		rc = bursts_and_soaks(nz, &g, buf);
	if (rc == 0)
		rc = steps(nz, &g, first_level);
	if (rc == 0)
		rc = verdict(nz, &g, first_level, first_step, &nz->verdicts[nz->nverdicts - 1]);
	group_release(&g);
	return rc;
}

int noise_compute(const struct selection *sel, const struct noise_options *opts, struct noise *out)
{
	struct run_time *t = NULL;
	double *buf = NULL;
	size_t nfields = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	if (sel->n == 0)
		return err_set("no runs to analyse (check --corpus and --where; excluded runs "
			       "are left out unless --include-excluded)");
	while (opts->factors && opts->factors[nfields])
		nfields++;
	if (sel->nextra < nfields ||
	    (opts->duration_extra >= 0 && (size_t)opts->duration_extra >= sel->nextra))
		return err_set("noise: the selection lacks the group fields' values");
	buf = malloc(sel->n * sizeof(*buf));
	if (!buf)
		return err_set("out of memory");
	rc = noise_run_times(sel, opts->duration_extra, &t);
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(sel->runs[j].group, sel->runs[i].group);
		if (!seen)
			rc = analyse_group(out, sel, t, sel->runs[i].group, buf);
	}
	if (rc == 0)
		rc = noise_factors(out, sel, t);
	free(buf);
	free(t);
	if (rc) {
		noise_release(out);
		return rc;
	}
	out->resolved = true;
	for (size_t i = 0; i < out->nverdicts; i++) {
		out->verdict = worse(out->verdict, out->verdicts[i].verdict);
		out->resolved &= out->verdicts[i].resolved;
		out->burst_count += out->verdicts[i].nbursts;
	}
	return 0;
}

void noise_release(struct noise *nz)
{
	for (size_t i = 0; i < nz->norders; i++) {
		for (size_t k = 0; nz->orders[i].values && k < nz->orders[i].nvalues; k++)
			free(nz->orders[i].values[k]);
		free(nz->orders[i].values);
		free(nz->orders[i].positions);
		free(nz->orders[i].levels);
		free(nz->orders[i].group);
	}
	for (size_t i = 0; i < nz->nfactors; i++)
		free(nz->factors[i].note);
	for (size_t i = 0; i < nz->nverdicts; i++) {
		free(nz->verdicts[i].within_noise);
		free(nz->verdicts[i].steps_resolved);
		free(nz->verdicts[i].steps_within_noise);
		free(nz->verdicts[i].steps_unreplicated);
		free(nz->verdicts[i].steps_text);
		free(nz->verdicts[i].counterbalance_note);
	}
	free(nz->cells);
	free(nz->levels);
	free(nz->steps);
	free(nz->drifts);
	free(nz->orders);
	free(nz->factors);
	free(nz->bursts);
	free(nz->soaks);
	free(nz->verdicts);
	memset(nz, 0, sizeof(*nz));
}

int noise_run(sqlite3 *db, const struct noise_request *req, struct noise_result *out)
{
	const char *metric = req->metric ? req->metric : "tput";
	const char **extra = NULL;
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .numeric_by = true,
				   .metric = metric,
				   .block = req->block ? req->block : "block",
				   .group = req->group};
	struct noise_options opts = req->opts;
	size_t nfields = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	while (req->group && req->group[nfields])
		nfields++;
	/* the group fields' values one by one, and duration_s: the order rule */
	extra = calloc(nfields + 2, sizeof(*extra));
	if (!extra)
		return err_set("out of memory");
	for (size_t i = 0; i < nfields; i++)
		extra[i] = req->group[i];
	extra[nfields] = "duration_s";
	spec.extra = extra;
	field_metric_meaning(metric, req->has_kind ? &req->kind : NULL, req->lower_is_better,
			     &opts.metric);
	opts.by = req->by;
	opts.factors = req->group;
	opts.duration_extra = (int)nfields;
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = noise_compute(&out->sel, &opts, &out->nz);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "noise", "--group");
	free(extra);
	return rc;
}

void noise_result_release(struct noise_result *r)
{
	noise_release(&r->nz);
	selection_release(&r->sel);
}
