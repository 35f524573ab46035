/*
 * findings_more: the numbers of the findings on what binds, the levers,
 * the hardware ceiling, the knee and Little's law (findings.h); their
 * sentences are in findings_more_text.c.
 */
#include "findings.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Figure names of the k-th item of a list: PREFIX k SUFFIX ("rest0_lo"). */
static void figf(struct finding *x, const char *prefix, size_t k, const char *suffix, double value,
		 const char *unit)
{
	char name[48];
	snprintf(name, sizeof(name), "%s%zu%s", prefix, k, suffix);
	finding_fig(x, name, value, unit);
}

static void labelf(struct finding *x, const char *prefix, size_t k, const char *suffix,
		   const char *text)
{
	char name[48];
	snprintf(name, sizeof(name), "%s%zu%s", prefix, k, suffix);
	finding_label(x, name, text);
}

/* ---- binder ---- */

/* The runs' min and max use of resource r over levels [from, to]. */
static void use_range(const struct binder_group *g, int r, size_t from, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = from; i < g->nlevels; i++) {
		const struct binder_use *u = &g->levels[i].res[r];
		if (!u->n)
			continue;
		*lo = fmin(*lo, u->min);
		*hi = fmax(*hi, u->max);
	}
	if (!isfinite(*lo))
		*lo = *hi = NAN;
}

/*
 * The driver's own app_cores over the plateau levels, when every level's
 * runs were recomputed from traces and carry one: the harness's window
 * may differ from coreplan's (system.tsv keeps the ramp's tail), and a
 * reader comparing with the driver's table should see both.
 */
static void driver_range(const struct binder_group *g, size_t from, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = from; i < g->nlevels; i++) {
		const struct binder_level *l = &g->levels[i];
		if (!l->driver_app_n) {
			*lo = *hi = NAN;
			return;
		}
		*lo = fmin(*lo, l->driver_app_min);
		*hi = fmax(*hi, l->driver_app_max);
	}
	if (!isfinite(*lo))
		*lo = *hi = NAN;
}

static void ratio_range(const struct binder_group *g, int r, size_t from, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = from; i < g->nlevels; i++) {
		const struct binder_use *u = &g->levels[i].res[r];
		if (!u->n || !isfinite(u->ratio_min))
			continue;
		*lo = fmin(*lo, u->ratio_min);
		*hi = fmax(*hi, u->ratio_max);
	}
	if (!isfinite(*lo))
		*lo = *hi = NAN;
}

/* The resources ranked (but the binder) with their use over levels [from, last]. */
static void rest_figs(struct finding *x, const struct binder_group *g, size_t from)
{
	size_t k = 0;
	for (size_t i = 0; i < g->nrank; i++) {
		int r = (int)g->rank[i].r;
		double lo, hi, rlo, rhi;
		if (r == g->binder)
			continue;
		use_range(g, r, from, &lo, &hi);
		ratio_range(g, r, from, &rlo, &rhi);
		labelf(x, "rest", k, "", binder_resource_name((enum binder_resource)r));
		figf(x, "rest", k, "_lo", lo, binder_resource_unit((enum binder_resource)r));
		figf(x, "rest", k, "_hi", hi, binder_resource_unit((enum binder_resource)r));
		figf(x, "rest", k, "_cap", g->levels[g->nlevels - 1].res[r].cap,
		     binder_resource_unit((enum binder_resource)r));
		figf(x, "rest", k, "_cap_lo", g->levels[from].res[r].cap,
		     binder_resource_unit((enum binder_resource)r));
		figf(x, "rest", k, "_ratio_lo", 100 * rlo, "%");
		figf(x, "rest", k, "_ratio_hi", 100 * rhi, "%");
		k++;
	}
	finding_fig(x, "rest", (double)k, NULL);
}

/*
 * The resources no run of the group records (binder_group_records): said,
 * so that "nothing binds" never reads as "the database was weighed and
 * does not".
 */
static void absent_figs(struct finding *x, const struct binder_group *g)
{
	size_t k = 0;
	for (int r = 0; r < BINDER_NRES; r++)
		if (!binder_group_records(g, (enum binder_resource)r))
			labelf(x, "absent", k++, "", binder_resource_name((enum binder_resource)r));
	finding_fig(x, "absent", (double)k, NULL);
}

static void level_figs(struct finding *x, const struct binder_group *g, size_t from)
{
	const struct binder_level *a = &g->levels[from], *b = &g->levels[g->nlevels - 1];
	size_t flagged = 0, runs = 0;
	finding_fig(x, "level_from", a->level, NULL);
	finding_fig(x, "level_to", b->level, NULL);
	finding_fig(x, "levels", (double)(g->nlevels - from), NULL);
	finding_fig(x, "tput_from", a->tput.median, NULL);
	finding_fig(x, "tput_to", b->tput.median, NULL);
	finding_fig(x, "lat_from", a->has_latency ? a->latency.median : NAN, NULL);
	finding_fig(x, "lat_to", b->has_latency ? b->latency.median : NAN, NULL);
	finding_fig(x, "elasticity", b->elasticity, NULL);
	finding_fig(x, "vcpus", b->vcpus, NULL);
	finding_fig(x, "physical", b->physical_cores, NULL);
	finding_fig(x, "app_rss_lo", b->app_rss.n ? b->app_rss.min : NAN, "kB");
	finding_fig(x, "app_rss_hi", b->app_rss.n ? b->app_rss.max : NAN, "kB");
	finding_fig(x, "avail_min", b->avail_min, "kB");
	for (size_t i = from; i < g->nlevels; i++) {
		flagged += g->levels[i].gen_flagged;
		runs += g->levels[i].res[BINDER_GENERATOR].n;
	}
	finding_fig(x, "gen_flagged", (double)flagged, "runs");
	finding_fig(x, "gen_runs", (double)runs, "runs");
	finding_fig(x, "untrusted", (double)g->cpu_untrusted_runs, "runs");
	finding_fig(x, "checked", (double)g->cpu_checked_runs, "runs");
}

static int binder_finding(struct findings *f, const struct binder_group *g, const char *by,
			  const char *latency, const char *subject, const char *section,
			  bool keep_rising)
{
	struct finding *x;
	size_t from = g->plateau_from < g->nlevels ? g->plateau_from : 0;
	if (!strcmp(g->verdict, BINDERS_SINGLE) ||
	    (!keep_rising && !strcmp(g->verdict, BINDERS_RISING)))
		return 0;
	if (g->nrank == 0) /* once, for the primary group */
		return keep_rising
			       ? findings_unsupported(
					 f, FINDING_BINDER, subject, section,
					 "the runs record no resource use (CPU, memory, "
					 "connections or the generator's CPU): nothing to weigh "
					 "against a capacity")
			       : 0;
	if (!(x = findings_add(f, FINDING_BINDER, subject, section)))
		return err_set("out of memory");
	snprintf(x->word, sizeof(x->word), "%s", g->verdict);
	x->n = g->nruns;
	finding_label(x, "by", by);
	finding_label(x, "latency", latency);
	level_figs(x, g, from);
	if (g->binder >= 0) {
		double lo, hi, rlo, rhi;
		use_range(g, g->binder, from, &lo, &hi);
		ratio_range(g, g->binder, from, &rlo, &rhi);
		finding_label(x, "resource", binder_resource_name((enum binder_resource)g->binder));
		finding_fig(x, "use_lo", lo, binder_resource_unit((enum binder_resource)g->binder));
		finding_fig(x, "use_hi", hi, binder_resource_unit((enum binder_resource)g->binder));
		finding_fig(x, "cap", g->levels[g->nlevels - 1].res[g->binder].cap,
			    binder_resource_unit((enum binder_resource)g->binder));
		finding_fig(x, "ratio_lo", 100 * rlo, "%");
		finding_fig(x, "ratio_hi", 100 * rhi, "%");
		if (g->binder == BINDER_APP_CPU) {
			double dlo, dhi;
			driver_range(g, from, &dlo, &dhi);
			finding_fig(x, "driver_lo", dlo, "cores");
			finding_fig(x, "driver_hi", dhi, "cores");
		}
		x->value = g->levels[g->nlevels - 1].res[g->binder].ratio;
		x->lo = lo;
		x->hi = hi;
		snprintf(x->unit, sizeof(x->unit), "of capacity");
	}
	rest_figs(x, g, from);
	absent_figs(x, g);
	snprintf(x->method, sizeof(x->method),
		 "binders: a resource binds when throughput stops rising (elasticity below "
		 "%.2g or within noise) while latency rises and it stays at %.0f%% of its capacity "
		 "or more, flat within %.0f%%",
		 BINDERS_RISE_MIN, 100 * BINDERS_NEAR, BINDERS_FLAT_PCT);
	return 0;
}

/* knee: where errors first appear, or none up to the largest level (word "none"). */
static int knee_finding(struct findings *f, const struct binder_group *g, const char *by,
			const char *subject, const char *section)
{
	struct finding *x;
	const struct binder_level *last = &g->levels[g->nlevels - 1];
	if (g->err_levels == 0)
		return 0; /* no error rate recorded */
	if (!(x = findings_add(f, FINDING_KNEE, subject, section)))
		return err_set("out of memory");
	finding_label(x, "by", by);
	finding_fig(x, "levels", (double)g->nlevels, NULL);
	x->n = g->nruns;
	if (!g->has_knee) {
		snprintf(x->word, sizeof(x->word), "none");
		x->level = last->level;
		snprintf(x->method, sizeof(x->method),
			 "the first level whose median error rate is above 0");
		return 0;
	}
	{
		const struct binder_level *k = &g->levels[g->knee];
		const struct binder_level *before = g->knee ? &g->levels[g->knee - 1] : NULL;
		snprintf(x->word, sizeof(x->word), "knee");
		x->level = k->level;
		x->value = k->err.median;
		x->lo = before ? before->level : NAN;
		snprintf(x->unit, sizeof(x->unit), "error rate");
		finding_fig(x, "after", before ? before->level : NAN, NULL);
		finding_fig(x, "after_err_runs", before ? (double)before->err_runs : NAN, "runs");
		finding_fig(x, "after_n", before ? (double)before->n : NAN, "runs");
		finding_fig(x, "at", k->level, NULL);
		finding_fig(x, "at_err_runs", (double)k->err_runs, "runs");
		finding_fig(x, "at_n", (double)k->n, "runs");
		finding_fig(x, "at_err", 100 * k->err.median, "%");
		finding_fig(x, "last", last->level, NULL);
		finding_fig(x, "last_err", 100 * last->err.median, "%");
		snprintf(
			x->method, sizeof(x->method),
			"the first level whose median error rate (err) is above 0, after the level "
			"before it");
	}
	return 0;
}

int findings_binders(struct findings *f, const struct binders *b, const char *by,
		     const char *latency, const char *subject, const char *section,
		     const char *knee_section, bool keep_rising)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < b->ngroups; i++) {
		const struct binder_group *g = &b->groups[i];
		char label[256];
		snprintf(label, sizeof(label), "%s%s%s", subject ? subject : "",
			 subject && *subject && *g->group ? " " : "", g->group);
		rc = binder_finding(f, g, by, latency, label, section, keep_rising);
		if (rc == 0)
			rc = knee_finding(f, g, by, label, knee_section);
	}
	return rc;
}

int findings_little(struct findings *f, size_t checked, size_t fails, const char *section)
{
	struct finding *x;
	if (checked == 0)
		return 0;
	if (!(x = findings_add(f, FINDING_LITTLE, "", section)))
		return err_set("out of memory");
	x->value = (double)fails;
	x->n = checked;
	snprintf(x->unit, sizeof(x->unit), "runs failing Little's law");
	snprintf(x->method, sizeof(x->method),
		 "sessions / throughput - think time, the implied mean latency, between the "
		 "Markov bound from p50, p95 and p99 and the maximum latency");
	return 0;
}

/* ---- levers ---- */

static double effect_of(const struct lever_pair *p)
{
	return p->pooled > 0 ? fabs(log(p->pooled)) : 0;
}

static void pair_figs(struct finding *x, size_t k, const struct lever_pair *p)
{
	char levels[96] = "";
	bool unrep = true;
	for (size_t i = 0; i < p->ncells; i++) {
		size_t used = strlen(levels);
		snprintf(levels + used, sizeof(levels) - used, "%s%g", i ? ", " : "",
			 p->cells[i].level);
		unrep &= p->cells[i].unreplicated;
	}
	labelf(x, "value", k, "", p->value);
	labelf(x, "base", k, "", p->base);
	labelf(x, "levels", k, "", levels);
	labelf(x, "better", k, "", p->direction == 0 ? "" : p->better ? p->value : p->base);
	labelf(x, "confounded", k, "", p->confounded ? p->confounded : "");
	{
		/* the better arm over the worse (the sentence's reading), the worse's cost */
		bool up = p->direction == 0 || p->better;
		figf(x, "bmin", k, "", up ? p->min_ratio : 1 / p->max_ratio, "x");
		figf(x, "bmax", k, "", up ? p->max_ratio : 1 / p->min_ratio, "x");
		figf(x, "bpooled", k, "", up ? p->pooled : 1 / p->pooled, "x");
		figf(x, "blo", k, "", !p->pooled_ci ? NAN : up ? p->pooled_lo : 1 / p->pooled_hi, "x");
		figf(x, "bhi", k, "", !p->pooled_ci ? NAN : up ? p->pooled_hi : 1 / p->pooled_lo, "x");
		figf(x, "cost_lo", k, "", 100 * (1 - (up ? 1 / p->min_ratio : p->max_ratio)), "%");
		figf(x, "cost_hi", k, "", 100 * (1 - (up ? 1 / p->max_ratio : p->min_ratio)), "%");
		figf(x, "pct_lo", k, "", 100 * (p->min_ratio - 1), "%");
		figf(x, "pct_hi", k, "", 100 * (p->max_ratio - 1), "%");
	}
	figf(x, "min", k, "", p->min_ratio, "x");
	figf(x, "max", k, "", p->max_ratio, "x");
	figf(x, "pooled", k, "", p->pooled, "x");
	figf(x, "lo", k, "", p->pooled_ci ? p->pooled_lo : NAN, "x");
	figf(x, "hi", k, "", p->pooled_ci ? p->pooled_hi : NAN, "x");
	figf(x, "ncells", k, "", (double)p->ncells, NULL);
	figf(x, "independent", k, "", p->independent, NULL);
	figf(x, "effect", k, "", p->effect, NULL);
	figf(x, "tested", k, "", p->tested, NULL);
	figf(x, "unreplicated", k, "", unrep, NULL);
	figf(x, "app_min", k, "", p->app_min, "x");
	figf(x, "app_max", k, "", p->app_max, "x");
	figf(x, "real", k, "", (double)p->nreal, NULL);
	figf(x, "beyond", k, "", (double)p->nbeyond, NULL);
	if (p->ncells == 1) {
		figf(x, "from", k, "", p->cells[0].a.s.median, NULL);
		figf(x, "to", k, "", p->cells[0].b.s.median, NULL);
	}
}

/* One finding for the pairs [lo, hi) of one lever and context: effects first. */
static int lever_finding(struct findings *f, const struct levers *l, size_t lo, size_t hi,
			 const char *by, const char *metric, const char *section)
{
	const struct lever_pair *best = NULL;
	char subject[256];
	struct finding *x;
	size_t k = 0;
	snprintf(subject, sizeof(subject), "%s%s%s", l->pairs[lo].field,
		 *l->pairs[lo].context ? " " : "", l->pairs[lo].context);
	if (!(x = findings_add(f, FINDING_LEVER, subject, section)))
		return err_set("out of memory");
	finding_label(x, "field", l->pairs[lo].field);
	finding_label(x, "context", l->pairs[lo].context);
	finding_label(x, "follows", l->pairs[lo].follows ? l->pairs[lo].follows : "");
	finding_label(x, "by", by ? by : "");
	finding_label(x, "metric", metric);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = lo; i < hi; i++) {
			const struct lever_pair *p = &l->pairs[i];
			if (p->effect != (pass == 0))
				continue;
			if (p->effect && (!best || effect_of(p) > effect_of(best)))
				best = p;
			if (k < FINDINGS_MAX_PAIRS)
				pair_figs(x, k++, p);
		}
	finding_fig(x, "pairs", (double)k, NULL);
	snprintf(x->word, sizeof(x->word), "%s", best ? "effect" : "none");
	x->n = hi - lo;
	if (best) {
		x->value = best->pooled;
		x->lo = best->pooled_ci ? best->pooled_lo : NAN;
		x->hi = best->pooled_ci ? best->pooled_hi : NAN;
		snprintf(x->unit, sizeof(x->unit), "x (%s %s against %s)", best->field, best->value,
			 best->base);
	}
	snprintf(x->method, sizeof(x->method),
		 "levers: each value against the base at every level both have; ratio of medians, "
		 "Welch t on ln values (an arm with one run: against the replicated arms' "
		 "spread); pooled over the levels; level-independent within %.0f%%",
		 LEVERS_INDEPENDENT_PCT);
	return 0;
}

int findings_levers(struct findings *f, const struct levers *l, const char *by, const char *metric,
		    const char *section)
{
	struct finding *x;
	int rc = 0;
	if (l->npairs == 0)
		return findings_unsupported(f, FINDING_LEVER, "", section,
					    "no field takes two or more values while the runs "
					    "agree on the rest: nothing to contrast");
	if (l->neffects == 0) {
		if (!(x = findings_add(f, FINDING_LEVER, "", section)))
			return err_set("out of memory");
		snprintf(x->word, sizeof(x->word), "none");
		x->n = l->npairs;
		x->value = 0;
		finding_label(x, "metric", metric);
		finding_label(x, "by", by ? by : "");
		for (size_t i = 0; i < l->npairs && i < FINDINGS_MAX_PAIRS; i++) {
			labelf(x, "field", i, "", l->pairs[i].field);
			pair_figs(x, i, &l->pairs[i]);
		}
		finding_fig(
			x, "pairs",
			(double)(l->npairs < FINDINGS_MAX_PAIRS ? l->npairs : FINDINGS_MAX_PAIRS),
			NULL);
		snprintf(x->id, sizeof(x->id), "lever none");
		snprintf(x->method, sizeof(x->method),
			 "levers: no pair is real at any level nor, unreplicated, beyond the "
			 "replicated arms' spread");
		return 0;
	}
	for (size_t i = 0; rc == 0 && i < l->npairs;) {
		size_t j = i;
		while (j < l->npairs && !strcmp(l->pairs[j].field, l->pairs[i].field) &&
		       !strcmp(l->pairs[j].context, l->pairs[i].context))
			j++;
		rc = lever_finding(f, l, i, j, by, metric, section);
		i = j;
	}
	return rc;
}

/* ---- the hardware ceiling ---- */

static const struct smt_figure *figure(const struct smt_figures *figs, const char *name)
{
	for (size_t i = 0; i < figs->n; i++)
		if (!strcmp(figs->figures[i].name, name))
			return &figs->figures[i];
	return NULL;
}

static void smt_fig(struct finding *x, const char *name, const struct smt_figure *g)
{
	char n[32];
	finding_fig(x, name, g && g->measured ? g->value : NAN, "x");
	snprintf(n, sizeof(n), "%s_lo", name);
	finding_fig(x, n, g && g->measured ? g->lo : NAN, "x");
	snprintf(n, sizeof(n), "%s_hi", name);
	finding_fig(x, n, g && g->measured ? g->hi : NAN, "x");
}

int findings_smt_figures(struct findings *f, const struct smt_result *res, const char *section)
{
	const struct smt_figure *svd = figure(&res->figs, "shared_vs_distinct"),
				*smt = figure(&res->figs, "smt_factor"),
				*ceiling = figure(&res->figs, "ceiling"), *sharded = NULL;
	struct finding *x;
	if (!(svd && svd->measured) && !(smt && smt->measured))
		return 0;
	for (size_t i = 0; i < res->figs.n; i++) {
		const struct smt_figure *g = &res->figs.figures[i];
		if (!strncmp(g->name, "sharded ", 8) && g->measured &&
		    (!sharded || g->value > sharded->value))
			sharded = g;
	}
	if (!(x = findings_add(f, FINDING_CEILING, res->host, section)))
		return err_set("out of memory");
	finding_label(x, "host", res->host);
	finding_fig(x, "physical", (double)res->topo.physical_cores, "cores");
	finding_fig(x, "logical", (double)res->topo.n, "CPUs");
	smt_fig(x, "svd", svd);
	finding_label(x, "svd_num", svd && svd->measured ? svd->num.label : "");
	finding_label(x, "svd_den", svd && svd->measured ? svd->den.label : "");
	smt_fig(x, "smt", smt);
	smt_fig(x, "step", figure(&res->figs, "smt_step"));
	smt_fig(x, "ceiling", ceiling);
	smt_fig(x, "sharded", sharded);
	finding_label(x, "sharded_name", sharded ? sharded->name + 8 : "");
	finding_fig(x, "sharded_pct",
		    sharded && ceiling && ceiling->measured ? 100 * sharded->value / ceiling->value
							    : NAN,
		    "%");
	x->value = smt && smt->measured ? smt->value : NAN;
	x->lo = smt && smt->measured ? smt->lo : NAN;
	x->hi = smt && smt->measured ? smt->hi : NAN;
	x->n = res->sel.n;
	snprintf(x->unit, sizeof(x->unit), "x (SMT factor)");
	snprintf(x->method, sizeof(x->method),
		 "smt: ratios of the arms' medians, bounds from their ranges' ends; the ceiling = "
		 "physical cores x the SMT factor, in single-thread runs");
	return 0;
}
