/* build_catalog: the document of `coreplan catalog` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <stdio.h>

enum { C_CATALOG, C_SOURCE, C_SHA256, C_LOADED, C_INSTANCES, C_ACTION, NCATALOG_COLS };

static void catalogs_table(struct doc_section *s, const struct catalog_result *res)
{
	static const struct doc_col cols[NCATALOG_COLS] = {
		[C_CATALOG] = DOC_COL_TEXT("catalog"),
		[C_SOURCE] = DOC_COL_TEXT("source_path"),
		[C_SHA256] = DOC_COL_TEXT("sha256"),
		[C_LOADED] = DOC_COL_TEXT("loaded_at"),
		[C_INSTANCES] = DOC_COL_INT("instances", NULL),
		[C_ACTION] = DOC_COL_TEXT("action"),
	};
	struct doc_table *t = doc_table(s, cols, NCATALOG_COLS);
	doc_table_empty_text(t, "no catalog stored");
	for (size_t i = 0; i < res->ncatalogs; i++) {
		const struct catalog_info *c = &res->catalogs[i];
		doc_row(t);
		doc_set_text(t, C_CATALOG, c->name);
		doc_set_text(t, C_SOURCE, c->source_path);
		doc_set_text(t, C_SHA256, c->sha256);
		doc_set_text(t, C_LOADED, c->loaded_at);
		doc_set_int(t, C_INSTANCES, (int64_t)c->instances);
		if (res->action[i])
			doc_set_text(t, C_ACTION, res->action[i]);
	}
}

enum {
	S_CATALOG,
	S_INSTANCE,
	S_PROVIDER,
	S_SERIES,
	S_VCPUS,
	S_THREADS,
	S_FRACTION,
	S_MEMORY,
	S_CPU_FAMILY,
	S_PRICE,
	S_REGION,
	S_PRICE_SOURCE,
	S_DATE,
	S_PHYSICAL,
	S_SUSTAINED,
	S_LINE,
	S_PLATFORMS,
	NSHOW_COLS
};

static void instances_table(struct doc_section *s, const struct catalog *cat)
{
	static const struct doc_col cols[NSHOW_COLS] = {
		[S_CATALOG] = DOC_COL_TEXT("catalog"),
		[S_INSTANCE] = DOC_COL_TEXT("instance"),
		[S_PROVIDER] = DOC_COL_TEXT("provider"),
		[S_SERIES] = DOC_COL_TEXT("series"),
		[S_VCPUS] = DOC_COL_INT("vcpus", "vCPUs"),
		[S_THREADS] = DOC_COL_INT("threads_per_core", "threads"),
		[S_FRACTION] = DOC_COL_REAL("sustained_vcpu_fraction", NULL, 'g', 6),
		[S_MEMORY] = DOC_COL_REAL("memory_gib", "GiB", 'g', 6),
		[S_CPU_FAMILY] = DOC_COL_TEXT("cpu_family"),
		[S_PRICE] = DOC_COL_REAL("price_per_hour", "USD/h", 'g', 6),
		[S_REGION] = DOC_COL_TEXT("price_region"),
		[S_PRICE_SOURCE] = DOC_COL_TEXT("price_source"),
		[S_DATE] = DOC_COL_TEXT("price_date"),
		[S_PHYSICAL] = DOC_COL_REAL("physical_cores", "cores", 'g', 6),
		[S_SUSTAINED] = DOC_COL_REAL("sustained_cores", "cores", 'g', 6),
		[S_LINE] = DOC_COL_INT("line", NULL),
		[S_PLATFORMS] = DOC_COL_TEXT("cpu_platforms"),
	};
	struct doc_table *t = doc_table(s, cols, NSHOW_COLS);
	doc_table_empty_text(t, "no catalog stored");
	for (size_t i = 0; i < cat->n; i++) {
		const struct instance *in = &cat->items[i];
		doc_row(t);
		doc_set_text(t, S_CATALOG, in->catalog);
		doc_set_text(t, S_INSTANCE, in->instance);
		doc_set_text(t, S_PROVIDER, in->provider);
		doc_set_text(t, S_SERIES, in->series);
		doc_set_int(t, S_VCPUS, in->vcpus);
		doc_set_int(t, S_THREADS, in->threads_per_core);
		doc_set_real(t, S_FRACTION, in->sustained_vcpu_fraction);
		doc_set_real(t, S_MEMORY, in->memory_gib);
		doc_set_text(t, S_CPU_FAMILY, in->cpu_family);
		doc_set_real(t, S_PRICE, in->price_per_hour);
		doc_set_text(t, S_REGION, in->price_region);
		doc_set_text(t, S_PRICE_SOURCE, in->price_source);
		doc_set_text(t, S_DATE, in->price_date);
		doc_set_real(t, S_PHYSICAL, in->physical_cores);
		doc_set_real(t, S_SUSTAINED, in->sustained_cores);
		doc_set_int(t, S_LINE, in->line);
		if (in->cpu_platforms && in->cpu_platforms[0])
			doc_set_text(t, S_PLATFORMS, in->cpu_platforms);
	}
}

int build_catalog(const struct catalog_request *req, const struct catalog_result *res,
		  struct doc **out)
{
	static const char *const actions[] = {[CATALOG_STORE] = "store",
					      [CATALOG_SHOW] = "show",
					      [CATALOG_FAMILIES] = "families"};
	struct doc *d = build_doc(out, "catalog", "Instance catalogs");
	struct doc_section *s;
	if (!d)
		return ERR_DATA;
	doc_fact_text(d, "action", "action", DOC_QUIET, actions[req->action]);
	if (req->action == CATALOG_STORE) {
		doc_fact_int(d, "stored", "catalogs stored now", DOC_LISTED, (int64_t)res->nstored,
			     NULL);
		doc_fact_int(d, "replaced", "of which replaced one of the same name", DOC_LISTED,
			     (int64_t)res->nreplaced, NULL);
	}
	doc_fact_int(d, "catalogs", "catalogs in the database", DOC_LISTED, (int64_t)res->ncatalogs,
		     NULL);
	doc_fact_int(d, "instances", "instances", DOC_LISTED, (int64_t)res->cat.n, NULL);
	doc_fact_int(d, "families", "CPU family and series pairs", DOC_LISTED,
		     (int64_t)res->nfamilies, NULL);

	s = doc_section(d, "catalogs", "Catalogs");
	catalogs_table(s, res);
	if (res->kept)
		doc_note(s, "the database already holds catalogs: none stored (`coreplan catalog "
			    "FILE...` stores or replaces one)");
	if (res->ncatalogs == 0)
		doc_note(s, "`coreplan catalog` stores the shipped catalogs");
	doc_note(s, "`coreplan size` sizes on these unless given --catalog FILE");

	s = doc_section(d, "instances", "Instances");
	instances_table(s, &res->cat);

	s = doc_section(d, "families", "CPU families and series");
	build_families_table(s, res->families, res->nfamilies, "no catalog stored", NULL, NULL);
	return build_done(d, out);
}

const char *const build_catalog_views[] = {"catalogs", "instances", "families", NULL};
