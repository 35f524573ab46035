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

/* ---- the instances view: today's table, column for column ---- */

enum {
	I_INSTANCE,
	I_VCPUS,
	I_THREADS,
	I_PHYSICAL,
	I_SUSTAINED,
	I_PREDICTED,
	I_PREDICTED_LOW,
	I_PREDICTED_HIGH,
	I_MEMORY_NEEDED,
	I_MEMORY,
	I_VERDICT,
	I_SHORTFALL,
	I_PRICE,
	I_COST,
	I_MEASURED_N,
	I_MEASURED_MEDIAN,
	I_MEASURED_MIN,
	I_MEASURED_MAX,
	I_FLAGS,
	I_PRICE_DATE,
	NINSTANCE_COLS
};

/* "CHEAPEST; extrapolated; translated (factor F); shared-core: ...", or NULL. */
static const char *flags_text(const struct size_row *r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (r->cheapest)
		used += (size_t)snprintf(buf + used, len - used, "CHEAPEST; ");
	if (r->extrapolated && used < len)
		used += (size_t)snprintf(buf + used, len - used, "extrapolated; ");
	if (r->translated && used < len)
		used += (size_t)snprintf(buf + used, len - used, "translated (factor %g); ",
					 r->translation_factor);
	if (r->shared_core && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 "shared-core: sustained share; burst %.0f not sustained; ",
					 r->burst);
	if (used >= 2 && used < len)
		buf[used - 2] = '\0';
	return buf[0] ? buf : NULL;
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
		[I_MEMORY_NEEDED] = DOC_COL_REAL("memory_needed_gib", "GiB", 'f', 2),
		[I_MEMORY] = DOC_COL_REAL("memory_gib", "GiB", 'g', 5),
		[I_VERDICT] = DOC_COL_TEXT("verdict"),
		[I_SHORTFALL] = DOC_COL_REAL("shortfall", "x", 'f', 2),
		[I_PRICE] = DOC_COL_REAL("price_per_hour", "USD/h", 'g', 6),
		[I_COST] = DOC_COL_REAL("cost_per_1k", "USD/h", 'f', 4),
		[I_MEASURED_N] = DOC_COL_INT("measured_n", "runs"),
		[I_MEASURED_MEDIAN] = DOC_COL_REAL("measured_median", mu, 'f', 1),
		[I_MEASURED_MIN] = DOC_COL_REAL("measured_min", mu, 'f', 1),
		[I_MEASURED_MAX] = DOC_COL_REAL("measured_max", mu, 'f', 1),
		[I_FLAGS] = DOC_COL_TEXT("flags"),
		[I_PRICE_DATE] = DOC_COL_TEXT("price_date"),
	};
	struct doc_table *t = doc_table(s, cols, NINSTANCE_COLS);
	char flags[256];
	doc_table_empty_text(t, "no instance in the catalogs (of the series asked for)");
	for (size_t i = 0; i < res->cat.n; i++) {
		const struct size_row *r = &res->rows[i];
		const struct instance *in = r->inst;
		const struct size_measured *m = &res->measured[i];
		doc_row(t);
		doc_set_text(t, I_INSTANCE, in->instance);
		doc_set_int(t, I_VCPUS, in->vcpus);
		doc_set_int(t, I_THREADS, in->threads_per_core);
		doc_set_real(t, I_PHYSICAL, in->physical_cores);
		doc_set_real(t, I_SUSTAINED, in->sustained_cores);
		doc_set_real(t, I_PREDICTED, r->predicted);
		doc_set_real(t, I_PREDICTED_LOW, r->predicted_lo);
		doc_set_real(t, I_PREDICTED_HIGH, r->predicted_hi);
		doc_set_real(t, I_MEMORY_NEEDED, r->memory_needed_gib);
		doc_set_real(t, I_MEMORY, in->memory_gib);
		doc_set_text(t, I_VERDICT, r->verdict);
		doc_set_real(t, I_SHORTFALL, r->shortfall);
		doc_set_real(t, I_PRICE, in->price_per_hour);
		doc_set_real(t, I_COST, r->cost_per_1k);
		if (m->n) {
			doc_set_int(t, I_MEASURED_N, (int64_t)m->n);
			doc_set_real(t, I_MEASURED_MEDIAN, m->s.median);
			doc_set_real(t, I_MEASURED_MIN, m->s.min);
			doc_set_real(t, I_MEASURED_MAX, m->s.max);
		}
		if (flags_text(r, flags, sizeof(flags)))
			doc_set_text(t, I_FLAGS, flags);
		doc_set_text(t, I_PRICE_DATE, in->price_date);
	}
}

/* ---- the inputs view: one row per input, as the old "- base rate ..." lines ---- */

enum { N_INPUT, N_VALUE, N_LO, N_HI, N_UNIT, N_RUNS, N_CPU_FAMILY, N_WHERE, N_SOURCE, NINPUT_COLS };

struct input_row {
	const char *name;  /* the row's input and its facts' stem */
	const char *label; /* the facts' label */
	const struct size_value *v;
	const char *unit;
	const struct size_provenance *prov;
	const char *cpu_family;
};

static void input_row(struct doc *d, struct doc_table *t, const struct input_row *r)
{
	char name[64], label[160];
	bool known = r->v->known;
	double value = known ? r->v->value : NAN, lo = known ? r->v->lo : NAN,
	       hi = known ? r->v->hi : NAN;
	doc_row(t);
	doc_set_text(t, N_INPUT, r->name);
	doc_set_real(t, N_VALUE, value);
	doc_set_real(t, N_LO, lo);
	doc_set_real(t, N_HI, hi);
	doc_set_text(t, N_UNIT, r->unit);
	if (r->prov && r->prov->where) {
		doc_set_int(t, N_RUNS, (int64_t)r->prov->runs);
		doc_set_text(t, N_WHERE, r->prov->where);
	}
	if (r->cpu_family)
		doc_set_text(t, N_CPU_FAMILY, r->cpu_family);
	doc_set_text(t, N_SOURCE, known ? r->v->source : "not given (no memory verdict)");
	doc_fact_real(d, r->name, r->label, DOC_QUIET, value, r->unit, 'g', 6);
	snprintf(name, sizeof(name), "%s_lo", r->name);
	snprintf(label, sizeof(label), "%s, low bound", r->label);
	doc_fact_real(d, name, label, DOC_QUIET, lo, r->unit, 'g', 6);
	snprintf(name, sizeof(name), "%s_hi", r->name);
	snprintf(label, sizeof(label), "%s, high bound", r->label);
	doc_fact_real(d, name, label, DOC_QUIET, hi, r->unit, 'g', 6);
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
		[N_SOURCE] = DOC_COL_TEXT("source"),
	};
	const struct size_inputs *in = &res->in;
	const char *mu = unit_of(res->metric);
	const struct input_row rows[] = {
		{"base_rate", "base rate per physical core", &in->base, mu, &res->base_prov,
		 in->base_family},
		{"per_doubling", "scaling across physical cores, per doubling", &in->per_doubling,
		 "x", &res->per_doubling_prov, NULL},
		{"smt_factor", "SMT factor", &in->smt, "x", &res->smt_prov, NULL},
		{"mem_per_session_kb", "memory per session", &in->mem_per_session_kb, "kB",
		 &res->memory_prov, NULL},
		{"mem_fixed_kb", "fixed memory", &in->mem_fixed_kb, "kB", &res->memory_prov, NULL},
	};
	struct doc_table *t = doc_table(s, cols, NINPUT_COLS);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		input_row(d, t, &rows[i]);
	for (size_t i = 0; i < in->ntranslations; i++) {
		char source[160];
		snprintf(source, sizeof(source), "given: %s rates = base / %g",
			 in->translations[i].family, in->translations[i].factor);
		doc_row(t);
		doc_set_text(t, N_INPUT, "translation");
		doc_set_real(t, N_VALUE, in->translations[i].factor);
		doc_set_real(t, N_LO, in->translations[i].factor);
		doc_set_real(t, N_HI, in->translations[i].factor);
		doc_set_text(t, N_UNIT, "x");
		doc_set_text(t, N_CPU_FAMILY, in->translations[i].family);
		doc_set_text(t, N_SOURCE, source);
	}
	doc_fact_text(d, "base_cpu", "CPU family of the base rate", DOC_QUIET, in->base_family);
	doc_fact_real(d, "per_doubling_se", "standard error of the per-doubling factor", DOC_QUIET,
		      res->per_doubling_prov.se, "x", 'g', 6);
	doc_fact_real(d, "max_measured_cores", "largest measured core count", DOC_QUIET,
		      in->max_measured_cores > 0 ? in->max_measured_cores : NAN, "cores", 'g', 6);
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
	doc_fact_int(d, "instances", "instances sized", DOC_LISTED, (int64_t)res->cat.n, NULL);
	strbuf_release(&sb);
}

static void plot_facts(struct doc *d, const struct sizing_plot *plot)
{
	doc_fact_text(d, "plot", "plot image", DOC_QUIET, plot ? plot->image : NULL);
	doc_fact_text(d, "plot_data", "plot data", DOC_QUIET, plot ? plot->data : NULL);
	doc_fact_text(d, "plot_script", "plot script", DOC_QUIET, plot ? plot->script : NULL);
}

int build_size(const struct size_request *req, const struct size_result *res,
	       const struct sizing_plot *plot, struct doc **out)
{
	const struct size_inputs *in = &res->in;
	const char *mu = unit_of(res->metric);
	const char *target, *sessions, *headroom;
	bool has_cheapest = res->cheapest < res->cat.n;
	struct doc *d = doc_new("size", "");
	struct doc_section *s;
	(void)req;
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	target = doc_fact_real(d, "target", "target", DOC_LISTED, in->target, mu, 'g', 6);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, res->metric);
	sessions = doc_fact_real(d, "sessions", "sessions", DOC_LISTED,
				 in->has_sessions ? in->sessions : NAN, "sessions", 'g', 6);
	headroom = doc_fact_real(d, "headroom", "headroom kept free", DOC_LISTED, in->headroom_pct,
				 "%", 'g', 6);
	if (in->has_sessions)
		doc_set_title(d, "Sizing: target %s %s at %s sessions, headroom %s%%", target,
			      res->metric, sessions, headroom);
	else
		doc_set_title(d, "Sizing: target %s %s, headroom %s%%", target, res->metric,
			      headroom);
	doc_fact_text(d, "cheapest", "cheapest instance that meets the target", DOC_LISTED,
		      has_cheapest ? res->cat.items[res->cheapest].instance : NULL);
	doc_fact_real(d, "cheapest_predicted", "its predicted capacity", DOC_LISTED,
		      has_cheapest ? res->rows[res->cheapest].predicted : NAN, mu, 'f', 0);
	catalogs_fact(d, res);
	plot_facts(d, plot);

	s = doc_section(d, "inputs", "Inputs");
	inputs_section(d, s, res);

	s = doc_section(d, "instances", "Instances");
	instances_table(s, res);
	doc_note(s, "predictions are estimates from the inputs above, not measurements; "
		    "measured_* columns are runs that named the instance");
	doc_note(s, "prices: see price_date and the catalog's price_source; definitions: "
		    "`coreplan size --help`");
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
