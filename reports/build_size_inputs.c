/* build_size_inputs: the inputs, families and catalog facts of `coreplan size`
 * (build_size_parts.h). */
#include "build_size_parts.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the families view: the CPU families and series of the catalogs sized ---- */

/* A family's rate basis: the base family's own, translated (with its factor) or unmeasured. */
static void family_basis(struct doc_table *t, const struct catalog_family *f, const void *arg)
{
	const struct size_result *res = arg;
	if (res->listing)
		return;
	if (!strcmp(f->cpu_family, res->in.base_family)) {
		doc_set_text(t, BUILD_FAMILY_BASIS, "base");
		return;
	}
	doc_set_text(t, BUILD_FAMILY_BASIS, "unmeasured");
	for (size_t k = 0; k < res->in.ntranslations; k++)
		if (!strcmp(res->in.translations[k].family, f->cpu_family)) {
			doc_set_text(t, BUILD_FAMILY_BASIS, "translated");
			doc_set_real(t, BUILD_FAMILY_FACTOR, res->in.translations[k].factor);
		}
}

void size_doc_families(struct doc_section *s, const struct size_result *res)
{
	doc_table_hide_empty(build_families_table(s, res->families, res->nfamilies,
						  "no instance in the catalogs", family_basis, res));
}

/* ---- the inputs view: one row per input, with its provenance ---- */

enum {
	N_INPUT,
	N_VALUE,
	N_LO,
	N_HI,
	N_UNIT,
	N_RUNS,
	N_CPU_FAMILY,
	N_WHERE,
	N_HOST,
	N_LEVELS,
	N_LEFT_OUT,
	N_STATISTIC,
	N_SOURCE,
	N_BASIS,
	N_SETTING,
	NINPUT_COLS
};

struct input_row {
	const char *name;  /* the row's input and its facts' stem */
	const char *label; /* the facts' label */
	const struct size_value *v;
	const char *unit;
	const struct size_provenance *prov;
	const char *cpu_family;
	const char *missing; /* the source text when the input is not known */
	const char *basis;   /* measured, given, assumed, default (NULL: not known) */
};

static void fact_text2(struct doc *d, const char *stem, const char *suffix, const char *label,
		       const char *what, const char *value)
{
	char name[96], full[200];
	snprintf(name, sizeof(name), "%s_%s", stem, suffix);
	snprintf(full, sizeof(full), "%s, %s", label, what);
	doc_fact_text(d, name, full, DOC_QUIET, value && *value ? value : NULL);
}

static void input_row(struct doc *d, struct doc_table *t, const struct input_row *r)
{
	char name[96], label[200];
	const struct size_provenance *p = r->prov;
	bool known = r->v->known;
	double value = known ? r->v->value : NAN, lo = known ? r->v->lo : NAN,
	       hi = known ? r->v->hi : NAN;
	doc_row(t);
	doc_set_text(t, N_INPUT, r->name);
	doc_set_real(t, N_VALUE, value);
	doc_set_real(t, N_LO, lo);
	doc_set_real(t, N_HI, hi);
	doc_set_text(t, N_UNIT, r->unit);
	if (p && p->where) {
		doc_set_int(t, N_RUNS, (int64_t)p->runs);
		doc_set_text(t, N_WHERE, p->where);
	}
	if (p && p->host[0])
		doc_set_text(t, N_HOST, p->host);
	if (p && p->levels[0])
		doc_set_text(t, N_LEVELS, p->levels);
	if (p && p->left_out[0])
		doc_set_text(t, N_LEFT_OUT, p->left_out);
	if (p && p->statistic[0])
		doc_set_text(t, N_STATISTIC, p->statistic);
	if (r->cpu_family)
		doc_set_text(t, N_CPU_FAMILY, r->cpu_family);
	if (r->basis)
		doc_set_text(t, N_BASIS, r->basis);
	doc_set_text(t, N_SOURCE, known || !r->missing ? r->v->source : r->missing);
	doc_fact_real(d, r->name, r->label, DOC_QUIET, value, r->unit, 'g', 6);
	snprintf(name, sizeof(name), "%s_lo", r->name);
	snprintf(label, sizeof(label), "%s, low bound", r->label);
	doc_fact_real(d, name, label, DOC_QUIET, lo, r->unit, 'g', 6);
	snprintf(name, sizeof(name), "%s_hi", r->name);
	snprintf(label, sizeof(label), "%s, high bound", r->label);
	doc_fact_real(d, name, label, DOC_QUIET, hi, r->unit, 'g', 6);
	snprintf(name, sizeof(name), "%s_runs", r->name);
	snprintf(label, sizeof(label), "%s, runs it rests on", r->label);
	doc_fact_real(d, name, label, DOC_QUIET, p && p->where ? (double)p->runs : NAN, "runs", 'g',
		      6);
	fact_text2(d, r->name, "where", r->label, "the runs' WHERE", p ? p->where : NULL);
	fact_text2(d, r->name, "statistic", r->label, "statistic", p ? p->statistic : NULL);
	fact_text2(d, r->name, "source", r->label, "where it came from",
		   known || !r->missing ? r->v->source : r->missing);
}

/* measured (from runs), given (a number) or NULL (not known). */
static const char *basis_of(const struct size_value *v, const struct size_provenance *p)
{
	if (!v->known)
		return NULL;
	return p && p->where ? "measured" : "given";
}

/* A condition of the target (platform, store): its setting, basis and why. */
static void condition_row(struct doc *d, struct doc_table *t, const char *name, const char *what,
			  const char *target, enum size_basis basis, const char *base,
			  const char *option)
{
	char source[512], fact[64], label[128];
	doc_row(t);
	doc_set_text(t, N_INPUT, name);
	if (target[0])
		doc_set_text(t, N_SETTING, target);
	doc_set_text(t, N_BASIS, size_basis_name(basis));
	if (basis == SIZE_GIVEN)
		snprintf(source, sizeof(source), "given: %s %s%s%s%s", option, target,
			 base[0] ? " (the base runs': " : "", base, base[0] ? ")" : "");
	else if (basis == SIZE_ASSUMED)
		snprintf(source, sizeof(source),
			 "not given: assumed the base runs' own %s, %s (%s NAME sizes for another)",
			 what, target, option);
	else
		snprintf(source, sizeof(source),
			 "not known: the base runs record no %s and %s is not given", what, option);
	doc_set_text(t, N_SOURCE, source);
	doc_fact_text(d, name, what, DOC_LISTED, target[0] ? target : NULL);
	snprintf(fact, sizeof(fact), "%s_basis", name);
	snprintf(label, sizeof(label), "what the %s rests on", what);
	doc_fact_text(d, fact, label, DOC_QUIET, size_basis_name(basis));
}

/* The store factor's row (when measured). */
static void store_factor_row(struct doc *d, struct doc_table *t, const struct size_result *res)
{
	const struct size_ratio *x = &res->in.store_factor;
	const struct size_provenance *p = &res->store_prov;
	char source[512];
	if (!x->known)
		return;
	doc_row(t);
	doc_set_text(t, N_INPUT, "store_factor");
	doc_set_real(t, N_VALUE, x->value);
	doc_set_real(t, N_LO, x->lo);
	doc_set_real(t, N_HI, x->hi);
	doc_set_text(t, N_UNIT, "x");
	doc_set_int(t, N_RUNS, (int64_t)p->runs);
	doc_set_text(t, N_WHERE, p->where);
	doc_set_text(t, N_HOST, p->host);
	doc_set_text(t, N_STATISTIC, p->statistic);
	doc_set_text(t, N_BASIS, "measured");
	snprintf(source, sizeof(source),
		 "the base rate carried from store=%s to store=%s: median %.1f (%zu runs, %s) / "
		 "median %.1f (%zu runs, %s) = %.4f (bounds %.4f-%.4f)",
		 res->in.base_store, res->in.store, x->to_median, x->to_n, x->to_label,
		 x->from_median, x->from_n, x->from_label, x->value, x->lo, x->hi);
	doc_set_text(t, N_SOURCE, source);
	doc_fact_real(d, "store_factor", "store factor (target's store over the base runs')",
		      DOC_QUIET, x->value, "x", 'g', 6);
	doc_fact_real(d, "store_factor_lo", "store factor, low bound", DOC_QUIET, x->lo, "x", 'g',
		      6);
	doc_fact_real(d, "store_factor_hi", "store factor, high bound", DOC_QUIET, x->hi, "x", 'g',
		      6);
}

/* The sessions curve's row: each measured count's median against the count the base stands at. */
static void sessions_row(struct doc *d, struct doc_table *t, const struct size_result *res)
{
	const struct size_sessions_curve *c = &res->in.curve;
	const struct size_provenance *p = &res->sessions_prov;
	struct strbuf sb = STRBUF_INIT;
	struct size_sessions_at at;
	doc_row(t);
	doc_set_text(t, N_INPUT, "sessions_factor");
	doc_set_text(t, N_UNIT, "x");
	if (c->n == 0) {
		doc_set_text(t, N_BASIS, "assumed");
		doc_set_text(t, N_SOURCE,
			     "not measured: throughput taken as independent of sessions (1.0); "
			     "--sessions-from WHERE (or --store-from) measures it");
		doc_fact_text(d, "sessions_factor_basis", "what the sessions factor rests on",
			      DOC_QUIET, "assumed");
		return;
	}
	size_sessions_factor(c,
			     res->in.asked && res->in.asked->given ? res->in.asked->largest
								   : c->sessions[c->ref],
			     &at);
	doc_set_real(t, N_VALUE, at.factor);
	doc_set_real(t, N_LO, at.lo);
	doc_set_real(t, N_HI, at.hi);
	doc_set_int(t, N_RUNS, (int64_t)p->runs);
	doc_set_text(t, N_WHERE, p->where);
	doc_set_text(t, N_HOST, p->host);
	doc_set_text(t, N_LEVELS, p->levels);
	doc_set_text(t, N_STATISTIC, p->statistic);
	doc_set_text(t, N_BASIS, "measured");
	strbuf_addf(&sb,
		    "at the largest count asked (%g sessions, measured at %g): median %.1f / "
		    "%.1f at %g sessions (the base rate's count); the curve (store=%s, %s):",
		    res->in.asked && res->in.asked->given ? res->in.asked->largest : at.at, at.at,
		    c->median[c->ref] * at.factor, c->median[c->ref], c->sessions[c->ref], c->store,
		    c->instance);
	for (size_t i = 0; i < c->n; i++)
		strbuf_addf(&sb, "%s %g sessions %.1f (%zu runs, %.1f-%.1f)", i ? ";" : "",
			    c->sessions[i], c->median[i], c->runs[i], c->min[i], c->max[i]);
	if (c->ref_note[0])
		strbuf_addf(&sb, "; %s", c->ref_note);
	doc_set_text(t, N_SOURCE, sb.buf ? strbuf_str(&sb) : "");
	strbuf_release(&sb);
	doc_fact_real(d, "sessions_factor", "sessions factor at the largest count asked", DOC_QUIET,
		      at.factor, "x", 'g', 6);
	doc_fact_real(d, "sessions_factor_lo", "sessions factor, low bound", DOC_QUIET, at.lo, "x",
		      'g', 6);
	doc_fact_real(d, "sessions_factor_hi", "sessions factor, high bound", DOC_QUIET, at.hi, "x",
		      'g', 6);
	doc_fact_text(d, "sessions_factor_basis", "what the sessions factor rests on", DOC_QUIET,
		      "measured");
}

void size_doc_inputs(struct doc *d, struct doc_section *s, const struct size_result *res)
{
	static const struct doc_col cols[NINPUT_COLS] = {
		[N_INPUT] = DOC_COL_TEXT("input"),
		[N_VALUE] = DOC_COL_REAL("value", NULL, 'g', 6),
		[N_LO] = DOC_COL_REAL("lo", NULL, 'g', 6),
		[N_HI] = DOC_COL_REAL("hi", NULL, 'g', 6),
		[N_UNIT] = DOC_COL_TEXT("unit"),
		[N_RUNS] = DOC_COL_INT("runs", "runs"),
		[N_CPU_FAMILY] = DOC_COL_TEXT("cpu_family"),
		[N_WHERE] = DOC_COL_TEXT("where"),
		[N_HOST] = DOC_COL_TEXT("host"),
		[N_LEVELS] = DOC_COL_TEXT("levels"),
		[N_LEFT_OUT] = DOC_COL_TEXT("left_out"),
		[N_STATISTIC] = DOC_COL_TEXT("statistic"),
		[N_SOURCE] = DOC_COL_TEXT("source"),
		[N_BASIS] = DOC_COL_TEXT("basis"),
		[N_SETTING] = DOC_COL_TEXT("setting"),
	};
	const struct size_inputs *in = &res->in;
	const struct size_provenance *sp = &res->per_doubling_prov;
	const char *mu = field_unit(res->metric);
	struct size_value os = {true, in->os_reserve_mib, in->os_reserve_mib, in->os_reserve_mib,
				""};
	const char *no_memory = "not given (no memory verdict)";
	const struct input_row rows[] = {
		{"base_rate", "base rate per physical core", &in->base, mu, &res->base_prov,
		 in->base_family, NULL, basis_of(&in->base, &res->base_prov)},
		{"per_doubling", "scaling across physical cores, per doubling", &in->per_doubling,
		 "x", sp, NULL, NULL, basis_of(&in->per_doubling, sp)},
		{"smt_factor", "SMT factor", &in->smt, "x", &res->smt_prov, NULL, NULL,
		 size_basis_name(in->smt_basis)},
		{"mem_per_session_kb", "memory per session", &in->mem_per_session_kb, "kB",
		 &res->memory_prov, NULL, no_memory,
		 basis_of(&in->mem_per_session_kb, &res->memory_prov)},
		{"mem_fixed_kb", "fixed memory", &in->mem_fixed_kb, "kB", &res->memory_prov, NULL,
		 no_memory, basis_of(&in->mem_fixed_kb, &res->memory_prov)},
		{"colocated_kb", "co-located processes' memory (PostgreSQL)", &in->colocated_kb,
		 "kB", &res->colocated_prov, NULL, NULL,
		 in->colocated_kb.known ? basis_of(&in->colocated_kb, &res->colocated_prov)
					: "assumed"},
		{"os_reserve_mib", "OS reserve", &os, "MiB", NULL, NULL, NULL,
		 res->os_reserve_given ? "given" : "default"},
	};
	struct doc_table *t = doc_table(s, cols, NINPUT_COLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "--list-families: nothing sized");
	if (res->listing)
		return;
	snprintf(os.source, sizeof(os.source),
		 "%s %g MiB for the kernel and the guest's own "
		 "services, counted in every instance's memory",
		 res->os_reserve_given ? "given:" : "default (size --help):", in->os_reserve_mib);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		input_row(d, t, &rows[i]);
	condition_row(d, t, "platform", "CPU platform", in->platform, in->platform_basis,
		      in->base_platform, "--platform");
	condition_row(d, t, "store", "session store", in->store, in->store_basis, in->base_store,
		      "--store");
	store_factor_row(d, t, res);
	sessions_row(d, t, res);
	for (size_t i = 0; i < in->ntranslations; i++) {
		const struct size_translation *x = &in->translations[i];
		doc_row(t);
		doc_set_text(t, N_INPUT, "translation");
		doc_set_real(t, N_VALUE, x->factor);
		doc_set_real(t, N_LO, x->measured ? x->lo : x->factor);
		doc_set_real(t, N_HI, x->measured ? x->hi : x->factor);
		doc_set_text(t, N_UNIT, "x");
		doc_set_text(t, N_CPU_FAMILY, x->family);
		doc_set_text(t, N_BASIS, x->measured ? "measured" : "given");
		if (x->platform)
			doc_set_text(t, N_SETTING, "platform");
		if (x->measured) {
			char where[600];
			snprintf(where, sizeof(where), "from:%s,to:%s", x->from, x->to);
			doc_set_int(t, N_RUNS, (int64_t)(x->from_runs + x->to_runs));
			doc_set_text(t, N_WHERE, where);
			doc_set_text(t, N_STATISTIC,
				     "ratio of medians (from / to), seeded bootstrap 95% interval");
		}
		doc_set_text(t, N_SOURCE, x->source);
	}
	doc_fact_text(d, "base_cpu", "CPU family of the base rate", DOC_QUIET, in->base_family);
	doc_fact_text(d, "base_cpu_note", "why the base family is accepted", DOC_QUIET,
		      res->base_family_note[0] ? res->base_family_note : NULL);
	doc_fact_real(d, "per_doubling_se", "standard error of the per-doubling factor", DOC_QUIET,
		      sp->se, "x", 'g', 6);
	doc_fact_real(d, "max_measured_cores", "largest physical-core level fitted", DOC_QUIET,
		      in->max_measured_cores > 0 ? in->max_measured_cores : NAN, "cores", 'g', 6);
	doc_fact_text(d, "scaling_levels", "levels the scaling was fitted over", DOC_QUIET,
		      sp->levels[0] ? sp->levels : NULL);
	doc_fact_text(d, "scaling_left_out", "levels left out of the scaling fit", DOC_QUIET,
		      sp->left_out[0] ? sp->left_out : NULL);
	doc_fact_int(d, "scaling_runs_left_out", "runs left out of the scaling fit", DOC_QUIET,
		     (int64_t)sp->runs_left_out, "runs");
	doc_fact_text(d, "scaling_host", "host the scaling levels were classified on", DOC_QUIET,
		      sp->host[0] ? sp->host : NULL);
	doc_fact_text(d, "scaling_level_kind", "what the fitted levels count", DOC_QUIET,
		      !sp->where    ? NULL
		      : sp->host[0] ? "physical cores (the host's topology)"
				    : "assumed physical cores (no host topology)");
	doc_fact_int(d, "translations", "translation factors given", DOC_QUIET,
		     (int64_t)in->ntranslations, NULL);
}

/* "shipped: aws (/path/aws.tsv), gce (/path/gce.tsv)" */
void size_doc_catalogs(struct doc *d, const struct size_result *res)
{
	const struct catalogs_used *u = &res->catalogs;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: ", catalog_origin_name(u->origin));
	for (size_t i = 0; i < u->n; i++)
		strbuf_addf(&sb, "%s%s (%s)", i ? ", " : "", u->infos[i].name,
			    u->infos[i].source_path);
	if (u->n == 0)
		strbuf_adds(&sb, "none");
	doc_fact_text(d, "catalogs", "catalogs", DOC_LISTED, sb.buf ? strbuf_str(&sb) : NULL);
	doc_fact_text(d, "catalog_origin", "where the catalogs came from", DOC_QUIET,
		      catalog_origin_name(u->origin));
	doc_fact_int(d, "instances", res->listing ? "instances" : "instances sized", DOC_LISTED,
		     (int64_t)res->cat.n, NULL);
	doc_fact_int(d, "families", "CPU family and series pairs", DOC_LISTED,
		     (int64_t)res->nfamilies, NULL);
	strbuf_release(&sb);
}

void size_doc_plot(struct doc *d, const struct sizing_plot *plot)
{
	doc_fact_text(d, "plot", "plot image", DOC_QUIET, plot ? plot->image : NULL);
	doc_fact_text(d, "plot_data", "plot data", DOC_QUIET, plot ? plot->data : NULL);
	doc_fact_text(d, "plot_script", "plot script", DOC_QUIET, plot ? plot->script : NULL);
}
