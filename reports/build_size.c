/* build_size: the document of `coreplan size` (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *unit_of(const char *field)
{
	const struct field_info *f = field_find(field);
	return f ? f->unit : "";
}

/* ---- the instances view: one row per catalog instance ---- */

enum {
	I_INSTANCE,
	I_VCPUS,
	I_THREADS,
	I_PHYSICAL,
	I_SUSTAINED,
	I_PREDICTED,
	I_PREDICTED_LOW,
	I_PREDICTED_HIGH,
	I_VERDICT,
	I_BASIS,
	I_SHORTFALL,
	I_MEASURED_AT,
	I_MEASURED_N,
	I_MEASURED_MEDIAN,
	I_MEASURED_MIN,
	I_MEASURED_MAX,
	I_MEASURED_SHORTFALL,
	I_CHECK,
	I_CHECK_RATIO,
	I_MEMORY_NEEDED,
	I_MEMORY_APP,
	I_MEMORY_COLOCATED,
	I_MEMORY_OS,
	I_MEMORY,
	I_PRICE,
	I_COST,
	I_FLAGS,
	I_PRICE_DATE,
	NINSTANCE_COLS
};

/* "CHEAPEST; extrapolated; translated (factor F); shared-core: ...; measured ...", or NULL. */
static const char *flags_text(const struct size_row *r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (r->cheapest)
		used += (size_t)snprintf(buf + used, len - used, "CHEAPEST; ");
	if (r->extrapolated && used < len)
		used += (size_t)snprintf(buf + used, len - used, "extrapolated; ");
	if (r->translated && r->translation && r->translation->measured && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 "translated (factor %.4f, 95%% interval %.4f-%.4f, measured "
					 "from %s to %s); ",
					 r->translation_factor, r->translation->lo, r->translation->hi,
					 r->translation->from_name, r->translation->to_name);
	else if (r->translated && used < len)
		used += (size_t)snprintf(buf + used, len - used, "translated (factor %g); ",
					 r->translation_factor);
	if (r->shared_core && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 "shared-core: sustained share; burst %.0f not sustained; ",
					 r->burst);
	if (r->measured_below && used < len)
		used += (size_t)snprintf(buf + used, len - used, "measured below prediction; ");
	if (r->measured_above && used < len)
		used += (size_t)snprintf(buf + used, len - used, "measured above prediction; ");
	if (used >= 2 && used < len)
		buf[used - 2] = '\0';
	return buf[0] ? buf : NULL;
}

/* "cfg=pg at 500 sessions" */
static void cell_where(const struct size_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%g sessions", c->group, c->group[0] ? " at " : "", c->sessions);
}

static void instances_table(struct doc_section *s, const struct size_result *res)
{
	const char *mu = unit_of(res->metric);
	const struct doc_col cols[NINSTANCE_COLS] = {
		[I_INSTANCE] = DOC_COL_TEXT("instance"),
		[I_VCPUS] = DOC_COL_INT("vcpus", "vCPUs"),
		[I_THREADS] = DOC_COL_INT("threads_per_core", "threads"),
		[I_PHYSICAL] = DOC_COL_REAL("physical_cores", "cores", 'g', 4),
		[I_SUSTAINED] = DOC_COL_REAL("sustained_cores", "cores", 'g', 4),
		[I_PREDICTED] = DOC_COL_REAL("predicted", mu, 'f', 0),
		[I_PREDICTED_LOW] = DOC_COL_REAL("predicted_low", mu, 'f', 0),
		[I_PREDICTED_HIGH] = DOC_COL_REAL("predicted_high", mu, 'f', 0),
		[I_VERDICT] = DOC_COL_TEXT("verdict"),
		[I_BASIS] = DOC_COL_TEXT("verdict_basis"),
		[I_SHORTFALL] = DOC_COL_REAL("shortfall", "x", 'f', 2),
		[I_MEASURED_AT] = DOC_COL_TEXT("measured_at"),
		[I_MEASURED_N] = DOC_COL_INT("measured_n", "runs"),
		[I_MEASURED_MEDIAN] = DOC_COL_REAL("measured_median", mu, 'f', 1),
		[I_MEASURED_MIN] = DOC_COL_REAL("measured_min", mu, 'f', 1),
		[I_MEASURED_MAX] = DOC_COL_REAL("measured_max", mu, 'f', 1),
		[I_MEASURED_SHORTFALL] = DOC_COL_REAL("measured_shortfall", "x", 'f', 2),
		[I_CHECK] = DOC_COL_TEXT("model_check"),
		[I_CHECK_RATIO] = DOC_COL_REAL("model_ratio", "x", 'f', 3),
		[I_MEMORY_NEEDED] = DOC_COL_REAL("memory_needed_gib", "GiB", 'f', 2),
		[I_MEMORY_APP] = DOC_COL_REAL("memory_app_gib", "GiB", 'f', 2),
		[I_MEMORY_COLOCATED] = DOC_COL_REAL("memory_colocated_gib", "GiB", 'f', 2),
		[I_MEMORY_OS] = DOC_COL_REAL("memory_os_gib", "GiB", 'f', 2),
		[I_MEMORY] = DOC_COL_REAL("memory_gib", "GiB", 'g', 5),
		[I_PRICE] = DOC_COL_REAL("price_per_hour", "USD/h", 'g', 6),
		[I_COST] = DOC_COL_REAL("cost_per_1k", "USD/h", 'f', 4),
		[I_FLAGS] = DOC_COL_TEXT("flags"),
		[I_PRICE_DATE] = DOC_COL_TEXT("price_date"),
	};
	struct doc_table *t = doc_table(s, cols, NINSTANCE_COLS);
	char flags[320], where[160];
	doc_table_hide_empty(t);
	doc_table_empty_text(t, res->listing
					? "--list-families: nothing sized"
					: "no instance in the catalogs (of the series asked for)");
	for (size_t i = 0; !res->listing && i < res->cat.n; i++) {
		const struct size_row *r = &res->rows[i];
		const struct instance *in = r->inst;
		doc_row(t);
		doc_set_text(t, I_INSTANCE, in->instance);
		doc_set_int(t, I_VCPUS, in->vcpus);
		doc_set_int(t, I_THREADS, in->threads_per_core);
		doc_set_real(t, I_PHYSICAL, in->physical_cores);
		doc_set_real(t, I_SUSTAINED, in->sustained_cores);
		doc_set_real(t, I_PREDICTED, r->predicted);
		doc_set_real(t, I_PREDICTED_LOW, r->predicted_lo);
		doc_set_real(t, I_PREDICTED_HIGH, r->predicted_hi);
		doc_set_text(t, I_VERDICT, r->verdict);
		doc_set_text(t, I_BASIS, r->basis);
		doc_set_real(t, I_SHORTFALL, r->shortfall);
		if (r->worst < res->ncells) {
			const struct size_cell *c = &res->cells[r->worst];
			cell_where(c, where, sizeof(where));
			doc_set_text(t, I_MEASURED_AT, where);
			doc_set_int(t, I_MEASURED_N, (int64_t)c->n);
			doc_set_real(t, I_MEASURED_MEDIAN, c->s.median);
			doc_set_real(t, I_MEASURED_MIN, c->s.min);
			doc_set_real(t, I_MEASURED_MAX, c->s.max);
			doc_set_real(t, I_MEASURED_SHORTFALL, c->shortfall);
			if (c->check)
				doc_set_text(t, I_CHECK, c->check);
			doc_set_real(t, I_CHECK_RATIO, c->check_ratio);
		}
		doc_set_real(t, I_MEMORY_NEEDED, r->memory_needed_gib);
		doc_set_real(t, I_MEMORY_APP, r->memory_app_gib);
		doc_set_real(t, I_MEMORY_COLOCATED, r->memory_colocated_gib);
		doc_set_real(t, I_MEMORY_OS, r->memory_os_gib);
		doc_set_real(t, I_MEMORY, in->memory_gib);
		doc_set_real(t, I_PRICE, in->price_per_hour);
		doc_set_real(t, I_COST, r->cost_per_1k);
		if (flags_text(r, flags, sizeof(flags)))
			doc_set_text(t, I_FLAGS, flags);
		doc_set_text(t, I_PRICE_DATE, in->price_date);
	}
}

/* ---- the measured view: one row per cell (instance, sessions, varying fields) ---- */

enum {
	M_INSTANCE,
	M_SESSIONS,
	M_GROUP,
	M_AT_TARGET,
	M_N,
	M_MEDIAN,
	M_MIN,
	M_MAX,
	M_SHORTFALL,
	M_PREDICTED_LOW,
	M_PREDICTED,
	M_PREDICTED_HIGH,
	M_CHECK,
	M_CHECK_RATIO,
	M_VERDICT,
	M_WORST,
	NMEASURED_COLS
};

static void measured_table(struct doc_section *s, const struct size_result *res)
{
	const char *mu = unit_of(res->metric);
	const struct doc_col cols[NMEASURED_COLS] = {
		[M_INSTANCE] = DOC_COL_TEXT("instance"),
		[M_SESSIONS] = DOC_COL_REAL("sessions", "sessions", 'g', 6),
		[M_GROUP] = DOC_COL_TEXT("group"),
		[M_AT_TARGET] = DOC_COL_BOOL("at_target"),
		[M_N] = DOC_COL_INT("n", "runs"),
		[M_MEDIAN] = DOC_COL_REAL("median", mu, 'f', 1),
		[M_MIN] = DOC_COL_REAL("min", mu, 'f', 1),
		[M_MAX] = DOC_COL_REAL("max", mu, 'f', 1),
		[M_SHORTFALL] = DOC_COL_REAL("shortfall", "x", 'f', 2),
		[M_PREDICTED_LOW] = DOC_COL_REAL("predicted_low", mu, 'f', 0),
		[M_PREDICTED] = DOC_COL_REAL("predicted", mu, 'f', 0),
		[M_PREDICTED_HIGH] = DOC_COL_REAL("predicted_high", mu, 'f', 0),
		[M_CHECK] = DOC_COL_TEXT("model_check"),
		[M_CHECK_RATIO] = DOC_COL_REAL("model_ratio", "x", 'f', 3),
		[M_VERDICT] = DOC_COL_TEXT("verdict"),
		[M_WORST] = DOC_COL_BOOL("worst"),
	};
	struct doc_table *t = doc_table(s, cols, NMEASURED_COLS);
	doc_table_empty_text(t, res->listing ? "--list-families: nothing sized"
					     : "no run names a catalog instance (its `instance` "
					       "field) at the session counts asked for");
	for (size_t i = 0; !res->listing && i < res->ncells; i++) {
		const struct size_cell *c = &res->cells[i];
		const struct size_row *r = &res->rows[c->row];
		doc_row(t);
		doc_set_text(t, M_INSTANCE, r->inst->instance);
		doc_set_real(t, M_SESSIONS, c->sessions);
		doc_set_text(t, M_GROUP, c->group);
		doc_set_bool(t, M_AT_TARGET, c->at_target);
		doc_set_int(t, M_N, (int64_t)c->n);
		if (c->n) {
			doc_set_real(t, M_MEDIAN, c->s.median);
			doc_set_real(t, M_MIN, c->s.min);
			doc_set_real(t, M_MAX, c->s.max);
		}
		doc_set_real(t, M_SHORTFALL, c->shortfall);
		doc_set_real(t, M_PREDICTED_LOW, r->predicted_lo);
		doc_set_real(t, M_PREDICTED, r->predicted);
		doc_set_real(t, M_PREDICTED_HIGH, r->predicted_hi);
		if (c->check)
			doc_set_text(t, M_CHECK, c->check);
		doc_set_real(t, M_CHECK_RATIO, c->check_ratio);
		if (c->verdict)
			doc_set_text(t, M_VERDICT, c->verdict);
		doc_set_bool(t, M_WORST, c->worst);
	}
}

/* ---- the families view: the CPU families and series of the catalogs sized ---- */

enum {
	F_FAMILY,
	F_SERIES,
	F_PROVIDER,
	F_N,
	F_VMIN,
	F_VMAX,
	F_BASIS,
	F_FACTOR,
	F_INSTANCES,
	NFAMILY_COLS
};

static void families_table(struct doc_section *s, const struct size_result *res)
{
	static const struct doc_col cols[NFAMILY_COLS] = {
		[F_FAMILY] = DOC_COL_TEXT("cpu_family"),
		[F_SERIES] = DOC_COL_TEXT("series"),
		[F_PROVIDER] = DOC_COL_TEXT("provider"),
		[F_N] = DOC_COL_INT("n", "instances"),
		[F_VMIN] = DOC_COL_INT("vcpus_min", "vCPUs"),
		[F_VMAX] = DOC_COL_INT("vcpus_max", "vCPUs"),
		[F_BASIS] = DOC_COL_TEXT("rate_basis"),
		[F_FACTOR] = DOC_COL_REAL("translation_factor", "x", 'g', 6),
		[F_INSTANCES] = DOC_COL_TEXT("instances"),
	};
	struct doc_table *t = doc_table(s, cols, NFAMILY_COLS);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "no instance in the catalogs");
	for (size_t i = 0; i < res->nfamilies; i++) {
		const struct catalog_family *f = &res->families[i];
		doc_row(t);
		doc_set_text(t, F_FAMILY, f->cpu_family);
		doc_set_text(t, F_SERIES, f->series);
		doc_set_text(t, F_PROVIDER, f->provider);
		doc_set_int(t, F_N, (int64_t)f->n);
		doc_set_int(t, F_VMIN, f->vcpus_min);
		doc_set_int(t, F_VMAX, f->vcpus_max);
		doc_set_text(t, F_INSTANCES, f->instances);
		if (res->listing)
			continue;
		if (!strcmp(f->cpu_family, res->in.base_family)) {
			doc_set_text(t, F_BASIS, "base");
			continue;
		}
		doc_set_text(t, F_BASIS, "unmeasured");
		for (size_t k = 0; k < res->in.ntranslations; k++)
			if (!strcmp(res->in.translations[k].family, f->cpu_family)) {
				doc_set_text(t, F_BASIS, "translated");
				doc_set_real(t, F_FACTOR, res->in.translations[k].factor);
			}
	}
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

static void inputs_section(struct doc *d, struct doc_section *s, const struct size_result *res)
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
	};
	const struct size_inputs *in = &res->in;
	const struct size_provenance *sp = &res->per_doubling_prov;
	const char *mu = unit_of(res->metric);
	struct size_value os = {true, in->os_reserve_mib, in->os_reserve_mib, in->os_reserve_mib,
				""};
	const char *no_memory = "not given (no memory verdict)";
	const struct input_row rows[] = {
		{"base_rate", "base rate per physical core", &in->base, mu, &res->base_prov,
		 in->base_family, NULL},
		{"per_doubling", "scaling across physical cores, per doubling", &in->per_doubling,
		 "x", sp, NULL, NULL},
		{"smt_factor", "SMT factor", &in->smt, "x", &res->smt_prov, NULL, NULL},
		{"mem_per_session_kb", "memory per session", &in->mem_per_session_kb, "kB",
		 &res->memory_prov, NULL, no_memory},
		{"mem_fixed_kb", "fixed memory", &in->mem_fixed_kb, "kB", &res->memory_prov, NULL,
		 no_memory},
		{"colocated_kb", "co-located processes' memory (PostgreSQL)", &in->colocated_kb,
		 "kB", &res->colocated_prov, NULL, NULL},
		{"os_reserve_mib", "OS reserve", &os, "MiB", NULL, NULL, NULL},
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
	for (size_t i = 0; i < in->ntranslations; i++) {
		const struct size_translation *x = &in->translations[i];
		doc_row(t);
		doc_set_text(t, N_INPUT, "translation");
		doc_set_real(t, N_VALUE, x->factor);
		doc_set_real(t, N_LO, x->measured ? x->lo : x->factor);
		doc_set_real(t, N_HI, x->measured ? x->hi : x->factor);
		doc_set_text(t, N_UNIT, "x");
		doc_set_text(t, N_CPU_FAMILY, x->family);
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
static void catalogs_fact(struct doc *d, const struct size_result *res)
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

static void plot_facts(struct doc *d, const struct sizing_plot *plot)
{
	doc_fact_text(d, "plot", "plot image", DOC_QUIET, plot ? plot->image : NULL);
	doc_fact_text(d, "plot_data", "plot data", DOC_QUIET, plot ? plot->data : NULL);
	doc_fact_text(d, "plot_script", "plot script", DOC_QUIET, plot ? plot->script : NULL);
}

/* The rule the verdicts follow, in words (a fact). */
#define VERDICT_RULE                                                                               \
	"meets: the lower bound meets the target (predicted_low, or the measured minimum when "    \
	"the verdict rests on measurement); marginal: the central value does (predicted, or the "  \
	"measured median), the lower bound does not; short: neither; memory-bound: the memory "    \
	"needed exceeds the instance's; unmeasured CPU: no rate for its CPU family. Measured "     \
	"at the session counts asked for, the worst cell decides (the least favourable verdict, "  \
	"then the lowest median): capacity planning is conservative"

int build_size(const struct size_request *req, const struct size_result *res,
	       const struct sizing_plot *plot, struct doc **out)
{
	const struct size_inputs *in = &res->in;
	const char *mu = unit_of(res->metric);
	const char *target, *sessions, *headroom;
	bool has_cheapest = res->cheapest < res->cat.n;
	size_t nmeasured = 0;
	struct doc *d = doc_new("size", "");
	struct doc_section *s;
	(void)req;
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	if (res->listing) {
		doc_set_title(d, "CPU families and series of the catalogs");
		catalogs_fact(d, res);
		s = doc_section(d, "inputs", "Inputs");
		inputs_section(d, s, res);
		s = doc_section(d, "instances", "Instances");
		instances_table(s, res);
		s = doc_section(d, "measured", "Measured beside predicted");
		measured_table(s, res);
		s = doc_section(d, "families", "CPU families and series");
		families_table(s, res);
		doc_note(s, "--base-cpu, --translate FAMILY=F and --series take these names; a "
			    "catalog instance name stands for its cpu_family");
		goto done;
	}
	target = doc_fact_real(d, "target", "target", DOC_LISTED, in->target, mu, 'g', 6);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, res->metric);
	sessions = doc_fact_real(d, "sessions", "sessions (memory is sized at the largest)",
				 DOC_LISTED, in->has_sessions ? in->sessions : NAN, "sessions", 'g',
				 6);
	doc_fact_text(d, "sessions_asked", "session counts asked for", DOC_LISTED,
		      res->sessions.given ? res->sessions.text : NULL);
	doc_fact_bool(d, "sessions_range", "the session counts are a range", DOC_QUIET,
		      res->sessions.range);
	headroom = doc_fact_real(d, "headroom", "headroom kept free", DOC_LISTED, in->headroom_pct,
				 "%", 'g', 6);
	if (res->sessions.given && res->sessions.n > 1)
		doc_set_title(d, "Sizing: target %s %s at %s sessions, headroom %s%%", target,
			      res->metric, res->sessions.text, headroom);
	else if (in->has_sessions)
		doc_set_title(d, "Sizing: target %s %s at %s sessions, headroom %s%%", target,
			      res->metric, sessions, headroom);
	else
		doc_set_title(d, "Sizing: target %s %s, headroom %s%%", target, res->metric,
			      headroom);
	doc_fact_text(d, "cheapest", "cheapest instance that meets the target", DOC_LISTED,
		      has_cheapest ? res->cat.items[res->cheapest].instance : NULL);
	doc_fact_real(d, "cheapest_predicted", "its predicted capacity", DOC_LISTED,
		      has_cheapest ? res->rows[res->cheapest].predicted : NAN, mu, 'f', 0);
	doc_fact_text(d, "cheapest_basis", "what its verdict rests on", DOC_LISTED,
		      has_cheapest ? res->rows[res->cheapest].basis : NULL);
	for (size_t i = 0; i < res->cat.n; i++)
		nmeasured += !strcmp(res->rows[i].basis, "measured");
	doc_fact_int(d, "verdicts_measured", "instances whose verdict rests on measurement",
		     DOC_LISTED, (int64_t)nmeasured, NULL);
	doc_fact_text(d, "verdict_rule", "how the verdicts are reached", DOC_QUIET, VERDICT_RULE);
	catalogs_fact(d, res);
	plot_facts(d, plot);

	s = doc_section(d, "inputs", "Inputs");
	inputs_section(d, s, res);
	if (res->per_doubling_prov.where && !res->per_doubling_prov.host[0])
		doc_note(s, "no host topology is known for the --scaling-from runs: their levels "
			    "are assumed to count physical cores (tie the corpus to its host's "
			    "topology so the SMT levels are left out of the fit)");

	s = doc_section(d, "instances", "Instances");
	instances_table(s, res);
	doc_note(s, "predictions are estimates from the inputs above, not measurements; "
		    "verdict_basis says whether the verdict rests on them or on the runs that "
		    "named the instance (measured_*: the worst cell of the measured view)");
	doc_note(s, "meets needs the lower bound at the target; marginal: only the central value "
		    "is; the worst measured cell decides where the corpus measured the instance: "
		    "capacity planning is conservative");
	doc_note(s, "memory needed = app (fixed + per session x the largest session count) + "
		    "co-located processes + the OS reserve");
	doc_note(s, "prices: see price_date and the catalog's price_source; definitions: "
		    "`coreplan size --help`");

	s = doc_section(d, "measured", "Measured beside predicted");
	measured_table(s, res);
	doc_note(s, "one row per instance, session count and value of each field that varies "
		    "among its runs (docs/analysis.md, \"No silent pooling\"): cfg=mem and cfg=pg are "
		    "never pooled; model_check: below (median / predicted_low), above (median / "
		    "predicted_high) or within the predicted bounds");

	s = doc_section(d, "families", "CPU families and series");
	families_table(s, res);
	doc_note(s, "rate_basis: base (the base rate's family), translated (a --translate "
		    "factor), unmeasured (no rate: `unmeasured CPU`)");
done:
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
