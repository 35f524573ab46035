/* findings: see findings.h. */
#include "findings.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct finding *findings_add(struct findings *f, enum finding_kind kind, const char *subject,
			     const char *section)
{
	struct finding *grown = realloc(f->items, (f->n + 1) * sizeof(*grown)), *x;
	if (!grown)
		return NULL;
	f->items = grown;
	x = &grown[f->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->supported = true;
	x->value = x->lo = x->hi = x->eff = x->level = NAN;
	snprintf(x->subject, sizeof(x->subject), "%s", subject ? subject : "");
	snprintf(x->section, sizeof(x->section), "%s", section ? section : "");
	snprintf(x->id, sizeof(x->id), "%s%s%s", finding_kind_name(kind), *x->subject ? " " : "",
		 x->subject);
	return x;
}

void finding_fig(struct finding *x, const char *name, double value, const char *unit)
{
	struct finding_fig *g;
	if (x->nfigs >= FINDING_MAX_FIGS)
		return; /* the sentence then reads NaN: never a wrong number */
	g = &x->figs[x->nfigs++];
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->value = value;
	g->text[0] = '\0';
	snprintf(g->unit, sizeof(g->unit), "%s", unit ? unit : "");
}

void finding_label(struct finding *x, const char *name, const char *text)
{
	finding_fig(x, name, NAN, NULL);
	if (x->nfigs && !strcmp(x->figs[x->nfigs - 1].name, name))
		snprintf(x->figs[x->nfigs - 1].text, sizeof(x->figs[0].text), "%s",
			 text ? text : "");
}

static const struct finding_fig *fig_named(const struct finding *x, const char *name)
{
	for (size_t i = 0; i < x->nfigs; i++)
		if (!strcmp(x->figs[i].name, name))
			return &x->figs[i];
	return NULL;
}

double finding_get(const struct finding *x, const char *name)
{
	const struct finding_fig *g = fig_named(x, name);
	return g ? g->value : NAN;
}

size_t finding_count(const struct finding *x, const char *name, size_t max)
{
	double v = finding_get(x, name);
	if (!(v >= 0))
		return 0;
	return v > (double)max ? max : (size_t)v;
}

const char *finding_text(const struct finding *x, const char *name)
{
	const struct finding_fig *g = fig_named(x, name);
	return g ? g->text : "";
}

int findings_unsupported(struct findings *f, enum finding_kind kind, const char *subject,
			 const char *section, const char *why)
{
	struct finding *x = findings_add(f, kind, subject, section);
	if (!x)
		return err_set("out of memory");
	x->supported = false;
	snprintf(x->why, sizeof(x->why), "%s", why);
	return 0;
}

/* The physical levels' speedups and efficiencies, and where scaling stops (level<i>, ...). */
static void scaling_figs(struct finding *x, const struct sweep *sw, const char *by)
{
	size_t k = 0;
	char name[32];
	finding_label(x, "by", by);
	for (size_t i = 0; i < sw->nlevels && k < 12; i++) {
		const struct sweep_level *l = &sw->levels[i];
		if (l->kind == LEVEL_SMT || l->kind == LEVEL_BEYOND)
			continue;
		snprintf(name, sizeof(name), "level%zu", k);
		finding_fig(x, name, l->level, NULL);
		snprintf(name, sizeof(name), "speedup%zu", k);
		finding_fig(x, name, l->speedup, "x");
		snprintf(name, sizeof(name), "efficiency%zu", k);
		finding_fig(x, name, l->efficiency, NULL);
		k++;
	}
	finding_fig(x, "levels", (double)k, NULL);
	if (sw->stop_index < sw->nlevels && sw->stop_index > 0) {
		finding_fig(x, "stop_level", sw->levels[sw->stop_index].level, NULL);
		finding_fig(x, "stop_from", sw->levels[sw->stop_index - 1].level, NULL);
		finding_fig(x, "stop_per_doubling", sw->levels[sw->stop_index].per_doubling, "x");
		finding_fig(x, "stop_min", 2 * sw->stop_efficiency, "x");
	}
}

int findings_sweep(struct findings *f, const struct sweep *sw, size_t nruns, const char *by,
		   const char *subject, const char *section)
{
	struct finding *x;
	char why[768];
	if (!sw->level_counts_workers || !sw->scaling_applies) {
		snprintf(why, sizeof(why),
			 "the sweep is over %s, which is not known to count workers (%s): no "
			 "core-scaling finding (per-doubling and scaling models over it would be "
			 "wrong)",
			 by, field_worker_names);
		return findings_unsupported(f, FINDING_SCALING, subject, section, why);
	}
	if (!sw->has_physical_fit) {
		snprintf(why, sizeof(why), "no per-doubling factor over the physical cores: %s",
			 *sw->physical_fit_note ? sw->physical_fit_note : "too few levels");
		return findings_unsupported(f, FINDING_SCALING, subject, section, why);
	}
	if (!(x = findings_add(f, FINDING_SCALING, subject, section)))
		return err_set("out of memory");
	x->value = sw->physical_fit.factor;
	x->lo = sw->physical_fit.lo; /* Student's t with the fit's degrees of freedom */
	x->hi = sw->physical_fit.hi;
	x->eff = sw->physical_efficiency;
	x->n = sw->physical_fit.n;
	x->assumed = !sw->host.known;
	snprintf(x->unit, sizeof(x->unit), "x per doubling");
	snprintf(x->method, sizeof(x->method),
		 "least squares of ln(median) on log2(%s) over %zu physical-core level medians "
		 "(%zu runs), 95%% interval from Student's t with %g degrees of freedom",
		 by, sw->physical_fit.n, nruns, sw->physical_fit.df);
	scaling_figs(x, sw, by);
	if (!sw->host.known)
		return findings_unsupported(
			f, FINDING_SMT, subject, section,
			"no topology is recorded for these runs, so the levels are assumed to be "
			"physical cores and no level can be told to be SMT: pass --host NAME (a "
			"catalog instance such as e2-standard-8, or a recorded topology)");
	if (sw->nsmt == 0) {
		snprintf(why, sizeof(why),
			 "no level exceeds host %s's %zu physical cores: the sweep measures no SMT "
			 "level",
			 sw->host.name, sw->host.physical_cores);
		return findings_unsupported(f, FINDING_SMT, subject, section, why);
	}
	for (size_t i = 0; i < sw->nlevels; i++) {
		const struct sweep_level *l = &sw->levels[i];
		if (l->kind != LEVEL_SMT)
			continue;
		/* a step from below the physical cores adds cores and siblings at once */
		if (l->smt_over >= sw->nlevels ||
		    sw->levels[l->smt_over].level < (double)sw->host.physical_cores) {
			snprintf(why, sizeof(why),
				 "level %g is SMT on host %s (%zu physical cores), but the sweep's "
				 "last physical level below it is not %zu: its step adds physical "
				 "cores and SMT siblings together",
				 l->level, sw->host.name, sw->host.physical_cores,
				 sw->host.physical_cores);
			return findings_unsupported(f, FINDING_SMT, subject, section, why);
		}
		if (!(x = findings_add(f, FINDING_SMT, subject, section)))
			return err_set("out of memory");
		x->value = l->smt_step;
		x->level = l->level;
		x->lo = l->s.min / sw->levels[l->smt_over].s.median;
		x->hi = l->s.max / sw->levels[l->smt_over].s.median;
		x->n = l->s.n;
		x->eff = sw->levels[l->smt_over].level;
		snprintf(x->unit, sizeof(x->unit), "x over level %g",
			 sw->levels[l->smt_over].level);
		snprintf(x->method, sizeof(x->method),
			 "median over the last physical level's median; range min..max of the "
			 "level's runs over it; host %s: %zu physical cores, %zu logical CPUs (%s)",
			 sw->host.name, sw->host.physical_cores, sw->host.logical_cpus,
			 sw->host.source);
		break;
	}
	return 0;
}

int findings_target_sweep(struct findings *f, const struct sweep *sw, double target,
			  const struct size_sessions *sessions, const char *subject,
			  const char *section)
{
	const struct sweep_level *worst = NULL;
	struct finding *x;
	for (size_t i = 0; i < sw->nlevels; i++) {
		const struct sweep_level *l = &sw->levels[i];
		if (size_sessions_has(sessions, l->level) &&
		    (!worst || l->s.median < worst->s.median))
			worst = l;
	}
	if (!worst)
		return 0; /* the group has no run at the counts asked */
	if (!(x = findings_add(f, FINDING_TARGET, subject, section)))
		return err_set("out of memory");
	x->value = worst->s.median > 0 ? target / worst->s.median : INFINITY;
	x->lo = worst->s.median;
	x->hi = target;
	x->level = worst->level;
	x->n = worst->s.n;
	x->met = worst->s.median >= target;
	snprintf(x->word, sizeof(x->word), "measured");
	snprintf(x->steps, sizeof(x->steps), "%s", sessions->text);
	snprintf(x->unit, sizeof(x->unit), "x short");
	snprintf(x->method, sizeof(x->method),
		 "target / the lowest level median at the sessions asked (sweep medians of %zu "
		 "runs at %g sessions)",
		 worst->s.n, worst->level);
	return 0;
}

/* What the verdict of row r rests on, the calibration and the caveats, into x (words). */
static void size_words(const struct size_result *res, const struct size_row *r, struct finding *x)
{
	const struct size_calibration *k = &res->calibration[r->group];
	const char *group = size_group_name(r->group);
	struct strbuf sb = STRBUF_INIT;
	if (r->worst < res->ncells) {
		const struct size_cell *c = &res->cells[r->worst];
		snprintf(x->word, sizeof(x->word), "measured");
		snprintf(x->steps, sizeof(x->steps),
			 "its own whole-instance runs (the worst cell, %s%s%g sessions: median "
			 "%.1f, n = %zu)",
			 c->group, c->group[0] ? " at " : "", c->sessions, c->s.median, c->n);
	} else {
		snprintf(x->word, sizeof(x->word), "predicted");
		snprintf(x->steps, sizeof(x->steps),
			 "the model alone (no whole-instance run of it at the target's "
			 "conditions)");
	}
	if (k->n)
		snprintf(x->within, sizeof(x->within),
			 "calibrated on %zu measured cell%s of %zu %s instance%s: measured / "
			 "predicted %.2f (%.2f-%.2f)",
			 k->n, k->n == 1 ? "" : "s", k->instances, group,
			 k->instances == 1 ? "" : "s", k->median, k->min, k->max);
	else
		snprintf(x->within, sizeof(x->within),
			 "uncalibrated: no eligible measured cell of a %s instance", group);
	if (r->extrapolated)
		strbuf_addf(&sb, "; %.2fx the physical cores fitted", r->cores_beyond);
	if (r->sessions_beyond > 1)
		strbuf_addf(&sb, "; %.2fx the sessions measured", r->sessions_beyond);
	if (r->memory_beyond > 1)
		strbuf_addf(&sb, "; memory %.2fx past the slope's sessions", r->memory_beyond);
	if (r->other_platform)
		strbuf_addf(&sb, "; other platform (base %s)", res->in.base_platform);
	if (r->other_store)
		strbuf_addf(&sb, "; other store (base %s)", res->in.base_store);
	if (r->translated)
		strbuf_adds(&sb, "; translated from another CPU");
	snprintf(x->method, sizeof(x->method),
		 "coreplan size: base rate x per-doubling^log2(physical cores) (x SMT) x the "
		 "platform, store and sessions factors, the cheapest whose calibrated lower "
		 "bound (or worst measured minimum) meets the target%s",
		 sb.buf ? strbuf_str(&sb) : "");
	strbuf_release(&sb);
}

int findings_size(struct findings *f, const struct size_result *res, const char *section)
{
	struct finding *x;
	const struct size_row *r;
	if (res->cheapest >= res->cat.n) {
		char why[768];
		snprintf(why, sizeof(why),
			 "no instance of the %zu in the catalogs meets %g at %s sessions on its "
			 "calibrated lower bound or its measured runs",
			 res->cat.n, res->in.target,
			 res->sessions.given ? res->sessions.text : "any");
		return findings_unsupported(f, FINDING_PREDICTED, "", section, why);
	}
	r = &res->rows[res->cheapest];
	if (!(x = findings_add(f, FINDING_PREDICTED, r->inst->instance, section)))
		return err_set("out of memory");
	x->value = r->predicted;
	x->lo = r->calibrated_lo;
	x->hi = r->calibrated_hi;
	x->met = true;
	x->n = r->eligible_cells;
	x->level = r->cost_per_1k;
	snprintf(x->unit, sizeof(x->unit), "%s", res->metric ? res->metric : "tput");
	size_words(res, r, x);
	return 0;
}

int findings_noise(struct findings *f, const struct noise *nz, size_t nruns, const char *subject,
		   const char *section)
{
	const struct noise_verdict *v;
	struct finding *x;
	if (nz->nverdicts == 0)
		return findings_unsupported(f, FINDING_NOISE, subject, section,
					    "no noise verdict for these runs");
	v = &nz->verdicts[0];
	if (!(x = findings_add(f, FINDING_NOISE, subject, section)))
		return err_set("out of memory");
	x->value = v->max_range_pct;
	x->n = nruns;
	snprintf(x->word, sizeof(x->word), "%s", v->verdict);
	snprintf(x->steps, sizeof(x->steps), "%s", v->steps_resolved ? v->steps_resolved : "");
	snprintf(x->within, sizeof(x->within), "%s",
		 v->steps_within_noise ? v->steps_within_noise : "");
	snprintf(x->unit, sizeof(x->unit), "%% largest range");
	finding_fig(x, "bursts", (double)v->nbursts, NULL);
	snprintf(x->method, sizeof(x->method),
		 "a step is resolved when Welch's t on the neighbouring levels' runs gives p < "
		 "%g (docs/statistics.md)",
		 nz->opts.alpha);
	return 0;
}

int findings_cpu(struct findings *f, const struct cores_result *res, const char *subject,
		 const char *section)
{
	struct finding *x;
	size_t with = 0;
	for (size_t i = 0; i < res->sel.n; i++)
		with += res->runs[i].ok;
	if (with == 0)
		return findings_unsupported(f, FINDING_CPU, subject, section,
					    "no run has CPU figures from its trace");
	if (!(x = findings_add(f, FINDING_CPU, subject, section)))
		return err_set("out of memory");
	x->value = (double)res->untrustworthy;
	x->degraded = res->degraded;
	x->lo = res->ratio_lo[CPU_DEGRADED];
	x->hi = res->ratio_hi[CPU_DEGRADED];
	x->n = with;
	snprintf(x->unit, sizeof(x->unit), "runs failing the tick check");
	snprintf(x->method, sizeof(x->method),
		 "tick check: /proc/stat's tick rate against nproc x clk_tck over each run's "
		 "plateau; trusted at a ratio of %.2f or more with no app-cores figure above the "
		 "guest's CPUs, untrustworthy below %.2f, degraded between",
		 WINDOW_TICK_TRUSTED, WINDOW_TICK_MIN);
	return 0;
}

int findings_memory(struct findings *f, const struct memory *m, const char *unit,
		    const char *subject, const char *section)
{
	struct finding *x;
	for (size_t i = 0; i < m->nfits; i++) {
		const struct memory_fit *fit = &m->fits[i];
		if (!fit->ok)
			continue;
		if (!(x = findings_add(f, FINDING_MEMORY, subject, section)))
			return err_set("out of memory");
		x->value = fit->ols.slope;
		x->lo = fit->ols.slope_lo;
		x->hi = fit->ols.slope_hi;
		x->n = fit->ols.n;
		snprintf(x->unit, sizeof(x->unit), "%s", unit);
		snprintf(x->method, sizeof(x->method),
			 "OLS over every run (%zu session counts), 95%% t interval", fit->nlevels);
		return 0;
	}
	return findings_unsupported(f, FINDING_MEMORY, subject, section,
				    m->nfits ? m->fits[0].note : "no slope");
}

int findings_translate(struct findings *f, const struct translate_factor *rate, size_t n_from,
		       size_t n_to, const char *subject, const char *section)
{
	struct finding *x;
	if (!rate->measured)
		return findings_unsupported(f, FINDING_TRANSLATE, subject, section,
					    *rate->words ? rate->words : "no rate factor");
	if (!(x = findings_add(f, FINDING_TRANSLATE, subject, section)))
		return err_set("out of memory");
	x->value = rate->factor;
	if (rate->has_ci) {
		x->lo = rate->ci_lo;
		x->hi = rate->ci_hi;
	}
	x->n = n_from + n_to;
	snprintf(x->unit, sizeof(x->unit), "x (rate, %s)", rate->statistic);
	snprintf(x->method, sizeof(x->method), "%s of each arm's runs%s%s", rate->statistic,
		 *rate->rule ? "; " : "", rate->rule);
	return 0;
}

int findings_cpu_per_op(struct findings *f, const struct sweep *sw, const char *by,
			const char *subject, const char *section)
{
	const struct sweep_level *first = NULL, *last = NULL;
	struct finding *x;
	if (!sw->level_counts_workers || !sw->per_unit_applies)
		return 0;
	for (size_t i = 0; i < sw->nlevels; i++)
		if (isfinite(sw->levels[i].cpu_us_per_op)) {
			if (!first)
				first = &sw->levels[i];
			last = &sw->levels[i];
		}
	if (!first || first == last)
		return 0;
	if (!(x = findings_add(f, FINDING_CPU_PER_OP, subject, section)))
		return err_set("out of memory");
	x->value = last->cpu_us_per_op / first->cpu_us_per_op;
	x->lo = first->cpu_us_per_op;
	x->hi = last->cpu_us_per_op;
	x->level = last->level;
	x->eff = first->level;
	x->n = first->s.n + last->s.n;
	snprintf(x->unit, sizeof(x->unit), "x");
	finding_label(x, "by", by);
	finding_fig(x, "from_level", first->level, NULL);
	finding_fig(x, "to_level", last->level, NULL);
	finding_fig(x, "from_us", first->cpu_us_per_op, "us");
	finding_fig(x, "to_us", last->cpu_us_per_op, "us");
	finding_fig(x, "ratio", x->value, "x");
	finding_fig(x, "change", x->value >= 1 ? x->value : 1 / x->value, "x");
	finding_fig(x, "from_app_cores", first->app_cores, "cores");
	finding_fig(x, "to_app_cores", last->app_cores, "cores");
	finding_fig(x, "from_median", first->s.median, NULL);
	finding_fig(x, "to_median", last->s.median, NULL);
	snprintf(x->method, sizeof(x->method),
		 "the level's median app_cores (the driver's) x 10^6 / its median throughput");
	return 0;
}

/* Is the ratio beyond the burst factor in the metric's better direction? */
static bool beyond_factor(double ratio, const struct noise *nz)
{
	double k = nz->opts.burst_factor;
	return nz->opts.metric.lower_is_better ? ratio <= 1 / k : ratio >= k;
}

int findings_bursts(struct findings *f, const struct noise *nz, const char *by, const char *subject,
		    const char *section)
{
	for (size_t i = 0; i < nz->nsoaks; i++) {
		const struct noise_soak *s = &nz->soaks[i];
		struct finding *x;
		if (!isfinite(s->ratio) || !beyond_factor(s->ratio, nz))
			continue;
		if (!(x = findings_add(f, FINDING_SOAK, subject, section)))
			return err_set("out of memory");
		x->value = s->ratio;
		x->lo = s->first;
		x->hi = s->sustained.median;
		x->level = s->level;
		x->n = s->n;
		snprintf(x->unit, sizeof(x->unit), "x the sustained median");
		finding_label(x, "by", by);
		finding_label(x, "block", s->block);
		finding_label(x, "first_tag", s->first_tag);
		finding_fig(x, "level", s->level, NULL);
		finding_fig(x, "first", s->first, NULL);
		finding_fig(x, "sustained_median", s->sustained.median, NULL);
		finding_fig(x, "sustained_min", s->sustained.min, NULL);
		finding_fig(x, "sustained_max", s->sustained.max, NULL);
		finding_fig(x, "sustained_n", (double)s->sustained.n, "runs");
		finding_fig(x, "ratio", s->ratio, "x");
		snprintf(x->method, sizeof(x->method),
			 "the block's first run against the median of the runs after it (noise: "
			 "soaks)");
	}
	for (size_t i = 0; i < nz->nbursts; i++) {
		const struct noise_burst *b = &nz->bursts[i];
		struct finding *x;
		bool soaked = false;
		if (!b->burst)
			continue;
		for (size_t k = 0; k < nz->nsoaks && !soaked; k++)
			soaked = !strcmp(nz->soaks[k].first_tag, b->tag) &&
				 isfinite(nz->soaks[k].ratio) &&
				 beyond_factor(nz->soaks[k].ratio, nz);
		if (soaked)
			continue; /* the soak finding says it */
		if (!(x = findings_add(f, FINDING_BURST, subject, section)))
			return err_set("out of memory");
		x->value = b->ratio;
		x->lo = b->value;
		x->hi = b->later_median;
		x->level = b->level;
		x->n = b->later_n + 1;
		snprintf(x->unit, sizeof(x->unit), "x the later runs' median");
		finding_label(x, "by", by);
		finding_label(x, "tag", b->tag);
		finding_fig(x, "level", b->level, NULL);
		finding_fig(x, "first", b->value, NULL);
		finding_fig(x, "later_median", b->later_median, NULL);
		finding_fig(x, "later_n", (double)b->later_n, "runs");
		finding_fig(x, "ratio", b->ratio, "x");
		finding_fig(x, "factor", nz->opts.burst_factor, "x");
		snprintf(x->method, sizeof(x->method),
			 "the level's first run in time against the median of its later runs; a "
			 "burst at %gx or more (noise: first-run bursts)",
			 nz->opts.burst_factor);
	}
	return 0;
}

/*
 * A memory factor's figures: stem, stem_pct, stem_lo, stem_hi, stem_from, stem_to
 * (NaN when not measured).
 */
static void memory_factor_figs(struct finding *x, const char *stem,
			       const struct translate_factor *k)
{
	struct {
		const char *suffix;
		double value;
		const char *unit;
	} figs[] = {
		{"", k->factor, "x"},
		{"_pct", 100 * fabs(1 - k->factor), "%"},
		{"_lo", k->has_ci ? k->ci_lo : NAN, "x"},
		{"_hi", k->has_ci ? k->ci_hi : NAN, "x"},
		{"_from", k->from.median, "kB"},
		{"_to", k->to.median, "kB"},
	};
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		char name[32];
		snprintf(name, sizeof(name), "%s%s", stem, figs[i].suffix);
		finding_fig(x, name, k->measured ? figs[i].value : NAN, figs[i].unit);
	}
}

int findings_memory_factors(struct findings *f, const struct translate_result *res,
			    const char *subject, const char *section)
{
	const struct translate_factor *idle = &res->factors[TRANSLATE_IDLE],
				      *loaded = &res->factors[TRANSLATE_LOADED];
	struct finding *x;
	if (!idle->measured && !loaded->measured)
		return findings_unsupported(f, FINDING_MEMORY_FACTORS, subject, section,
					    *idle->words ? idle->words
							 : "no memory factor measured");
	if (!(x = findings_add(f, FINDING_MEMORY_FACTORS, subject, section)))
		return err_set("out of memory");
	x->value = loaded->measured ? loaded->factor : idle->factor;
	x->n = res->from.sel.n + res->to.sel.n;
	snprintf(x->unit, sizeof(x->unit), "x (%s memory, to / from)",
		 loaded->measured ? "loaded" : "idle");
	finding_label(x, "from", res->from.name);
	finding_label(x, "to", res->to.name);
	memory_factor_figs(x, "idle", idle);
	memory_factor_figs(x, "loaded", loaded);
	snprintf(x->method, sizeof(x->method),
		 "ratio of the medians of idle_rss_kb and load_rss_kb, to / from, with a seeded "
		 "bootstrap 95%% interval (translate: idle_memory, loaded_memory)");
	return 0;
}

/* ---- the list's order ---- */

static int push(struct findings *out, const struct finding *x)
{
	struct finding *y = findings_add(out, x->kind, NULL, NULL);
	if (!y)
		return err_set("out of memory");
	*y = *x;
	return 0;
}

/* The groups' measured targets as one finding: every group's figures, the best headline. */
static int merge_targets(const struct findings *all, struct findings *out)
{
	struct finding *m = NULL;
	size_t k = 0;
	double best = INFINITY;
	for (size_t i = 0; i < all->n; i++) {
		const struct finding *x = &all->items[i];
		char name[32];
		if (x->kind != FINDING_TARGET || !x->supported)
			continue;
		if (!m) {
			if (!(m = findings_add(out, FINDING_TARGET, "", x->section)))
				return err_set("out of memory");
			snprintf(m->word, sizeof(m->word), "%s", x->word);
			snprintf(m->steps, sizeof(m->steps), "%s", x->steps);
			snprintf(m->unit, sizeof(m->unit), "%s", x->unit);
			snprintf(m->method, sizeof(m->method), "%s",
				 "target / each group's lowest level median at the sessions asked "
				 "(its sweep's medians)");
			m->hi = x->hi;
		}
		m->met |= x->met;
		snprintf(name, sizeof(name), "group%zu", k);
		finding_label(m, name, x->subject);
		snprintf(name, sizeof(name), "median%zu", k);
		finding_fig(m, name, x->lo, NULL);
		snprintf(name, sizeof(name), "level%zu", k);
		finding_fig(m, name, x->level, NULL);
		snprintf(name, sizeof(name), "n%zu", k);
		finding_fig(m, name, (double)x->n, "runs");
		snprintf(name, sizeof(name), "short%zu", k);
		finding_fig(m, name, x->value, "x");
		if (x->value < best) {
			best = x->value;
			m->value = x->value;
			m->lo = x->lo;
			m->level = x->level;
			m->eff = (double)k;
			snprintf(m->subject, sizeof(m->subject), "%s", x->subject);
		}
		k++;
	}
	if (m) {
		m->n = k;
		finding_fig(m, "groups", (double)k, NULL);
		finding_fig(m, "target", m->hi, NULL);
		snprintf(m->id, sizeof(m->id), "target");
	}
	return 0;
}

/* The knee findings of groups with no errors, as one. */
static int merge_no_knees(const struct findings *all, struct findings *out)
{
	struct finding *m = NULL;
	size_t k = 0;
	for (size_t i = 0; i < all->n; i++) {
		const struct finding *x = &all->items[i];
		char name[32];
		if (x->kind != FINDING_KNEE || !x->supported || strcmp(x->word, "none") != 0)
			continue;
		if (!m) {
			if (!(m = findings_add(out, FINDING_KNEE, "", x->section)))
				return err_set("out of memory");
			*m = *x;
			m->nfigs = 0;
			m->subject[0] = '\0';
			snprintf(m->id, sizeof(m->id), "knee none");
			finding_label(m, "by", finding_text(x, "by"));
		}
		snprintf(name, sizeof(name), "group%zu", k);
		finding_label(m, name, x->subject);
		snprintf(name, sizeof(name), "max_level%zu", k);
		finding_fig(m, name, x->level, NULL);
		snprintf(name, sizeof(name), "runs%zu", k);
		finding_fig(m, name, (double)x->n, "runs");
		k++;
	}
	if (m)
		finding_fig(m, "groups", (double)k, NULL);
	return 0;
}

static bool is_rising(const struct finding *x)
{
	return x->kind == FINDING_BINDER && x->supported && !strcmp(x->word, BINDERS_RISING);
}

/* A binder finding that names a binder, or why none is near (not `rising`, not unsupported). */
static bool is_judged(const struct finding *x)
{
	return x->kind == FINDING_BINDER && x->supported && !is_rising(x);
}

int findings_order(const struct findings *const *from, size_t nfrom, struct findings *out)
{
	struct findings all = {0};
	bool named = false, rising_done = false;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	for (size_t k = 0; rc == 0 && k < nfrom; k++)
		for (size_t i = 0; rc == 0 && i < from[k]->n; i++)
			rc = push(&all, &from[k]->items[i]);
	for (size_t i = 0; i < all.n; i++)
		named |= is_judged(&all.items[i]);
	for (int kind = 0; rc == 0 && kind < FINDING_NKINDS; kind++) {
		bool merged_target = false;
		if (kind == FINDING_TARGET) {
			size_t before = out->n;
			rc = merge_targets(&all, out);
			merged_target = out->n > before;
		}
		if (rc == 0 && kind == FINDING_KNEE)
			rc = merge_no_knees(&all, out);
		for (size_t i = 0; rc == 0 && i < all.n; i++) {
			const struct finding *x = &all.items[i];
			if ((int)x->kind != kind)
				continue;
			if (kind == FINDING_TARGET && (x->supported || merged_target))
				continue;
			if (kind == FINDING_KNEE && x->supported && !strcmp(x->word, "none"))
				continue;
			if (is_rising(x) || (x->kind == FINDING_BINDER && !x->supported)) {
				if (named || rising_done)
					continue;
				rising_done = true;
			}
			rc = push(out, x);
		}
	}
	findings_release(&all);
	if (rc)
		findings_release(out);
	return rc;
}

void findings_release(struct findings *f)
{
	free(f->items);
	f->items = NULL;
	f->n = 0;
}
