/* build_catalog: the document of `coreplan catalog` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <stdio.h>

enum { C_CATALOG, C_SOURCE, C_SHA256, C_LOADED, C_INSTANCES, C_ACTION, NCATALOG_COLS };

static void catalogs_table(struct doc_section *s, const struct catalog_result *res)
{
	static const struct doc_field cols[NCATALOG_COLS] = {
		[C_CATALOG] = DOC_TEXT_OF("catalog", struct catalog_info, name),
		[C_SOURCE] = DOC_TEXT_OF("source_path", struct catalog_info, source_path),
		[C_SHA256] = DOC_TEXT_OF("sha256", struct catalog_info, sha256),
		[C_LOADED] = DOC_TEXT_OF("loaded_at", struct catalog_info, loaded_at),
		[C_INSTANCES] = DOC_INT_OF("instances", NULL, struct catalog_info, instances),
		[C_ACTION] = DOC_FIELD_NONE(DOC_COL_TEXT("action")),
	};
	struct doc_table *t = doc_table_of(s, cols, NCATALOG_COLS);
	doc_table_empty_text(t, "no catalog stored");
	for (size_t i = 0; i < res->ncatalogs; i++) {
		doc_row(t);
		doc_set_fields(t, cols, 0, NCATALOG_COLS, &res->catalogs[i]);
		if (res->action[i])
			doc_set_text(t, C_ACTION, res->action[i]);
	}
}

static void instances_table(struct doc_section *s, const struct catalog *cat)
{
	static const struct doc_field cols[] = {
		DOC_TEXT_OF("catalog", struct instance, catalog),
		DOC_TEXT_OF("instance", struct instance, instance),
		DOC_TEXT_OF("provider", struct instance, provider),
		DOC_TEXT_OF("series", struct instance, series),
		DOC_INT_OF("vcpus", "vCPUs", struct instance, vcpus),
		DOC_INT_OF("threads_per_core", "threads", struct instance, threads_per_core),
		DOC_REAL_OF("sustained_vcpu_fraction", NULL, 'g', 6, struct instance,
			    sustained_vcpu_fraction),
		DOC_REAL_OF("memory_gib", "GiB", 'g', 6, struct instance, memory_gib),
		DOC_TEXT_OF("cpu_family", struct instance, cpu_family),
		DOC_REAL_OF("price_per_hour", "USD/h", 'g', 6, struct instance, price_per_hour),
		DOC_TEXT_OF("price_region", struct instance, price_region),
		DOC_TEXT_OF("price_source", struct instance, price_source),
		DOC_TEXT_OF("price_date", struct instance, price_date),
		DOC_REAL_OF("physical_cores", "cores", 'g', 6, struct instance, physical_cores),
		DOC_REAL_OF("sustained_cores", "cores", 'g', 6, struct instance, sustained_cores),
		DOC_INT_OF("line", NULL, struct instance, line),
		DOC_TEXT_SET_OF("cpu_platforms", struct instance, cpu_platforms),
	};
	struct doc_table *t = doc_table_of(s, cols, DOC_NFIELDS(cols));
	doc_table_empty_text(t, "no catalog stored");
	doc_rows_of(t, cols, DOC_NFIELDS(cols), cat->items, cat->n, sizeof(cat->items[0]));
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
