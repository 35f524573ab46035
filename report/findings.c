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
	return x;
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

int findings_sweep(struct findings *f, const struct sweep *sw, size_t nruns, const char *by,
		   const char *subject, const char *section)
{
	struct finding *x;
	char why[768];
	if (!sw->level_counts_workers || !sw->scaling_applies) {
		snprintf(why, sizeof(why),
			 "the sweep is over %s, which does not count workers: no core-scaling "
			 "finding (per-doubling and scaling models over it would be wrong)",
			 by);
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

void findings_release(struct findings *f)
{
	free(f->items);
	f->items = NULL;
	f->n = 0;
}
