/* build_common: the parts of documents every builder shares (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

struct doc *build_doc(struct doc **out, const char *command, const char *title)
{
	struct doc *d = doc_new(command, title);
	*out = NULL;
	if (!d)
		err_set("out of memory");
	return d;
}

int build_done(struct doc *d, struct doc **out)
{
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}

void build_provenance(struct doc *d, const char *db_path, const char *corpora,
		      const char *content_hash, const char *filter)
{
	doc_fact_text(d, "database", "database", DOC_PROVENANCE, db_path);
	doc_fact_text(d, "corpora", "corpora", DOC_PROVENANCE, *corpora ? corpora : "none");
	doc_fact_text(d, "content_sha256", "content sha256", DOC_PROVENANCE, content_hash);
	doc_fact_text(d, "filter", "filter", DOC_PROVENANCE, filter);
}

void build_metric_facts(struct doc *d, const struct metric_meaning *m)
{
	doc_fact_text(d, "metric_kind", "metric kind", DOC_LISTED, field_kind_name(m->kind));
	doc_fact_text(d, "metric_kind_from", "metric kind from",
		      m->kind_assumed ? DOC_LISTED : DOC_QUIET, m->kind_from);
	doc_fact_text(d, "metric_direction", "better", DOC_LISTED,
		      m->lower_is_better ? "lower" : "higher");
	doc_fact_text(d, "metric_direction_from", "better from",
		      m->direction_assumed ? DOC_LISTED : DOC_QUIET, m->direction_from);
}

void build_group_fact(struct doc *d, const char *const *group)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; group && group[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", group[i]);
	doc_fact_text(d, "group", "group fields", sb.len ? DOC_LISTED : DOC_QUIET, strbuf_str(&sb));
	strbuf_release(&sb);
}

void build_left_out(struct doc *d, const struct selection *sel)
{
	build_left_out_list(d, sel->left_out, sel->nleft_out);
	/* what --pool pooled on purpose (analysis/pooling.h): a fact, and a note on the first table
	 */
	if (sel->pooled) {
		doc_fact_text(d, "pooled", "pooled on purpose (--pool)", DOC_QUIET, sel->pooled);
		if (doc_section_count(d) > 0)
			doc_note(doc_section_at(d, 0),
				 "pooled on purpose (--pool): %s; these runs are not replicates of "
				 "one condition",
				 sel->pooled);
	}
}

void build_left_out_list(struct doc *d, const struct sel_left_out *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		doc_left_out(d, list[i].tag, list[i].reason);
	build_left_out_count(d);
}

void build_left_out_count(struct doc *d)
{
	doc_fact_int(d, "runs_left_out", "runs left out", DOC_QUIET, (int64_t)doc_left_out_count(d),
		     "runs");
}

struct doc_table *build_families_table(struct doc_section *s,
				       const struct catalog_family *families, size_t n,
				       const char *empty, build_family_basis_fn basis,
				       const void *arg)
{
	enum { FAMILY, SERIES, PROVIDER, N, VMIN, VMAX, BASIS, FACTOR, INSTANCES, PLATFORMS, NCOLS };
	static const struct doc_col all[NCOLS] = {
		[FAMILY] = DOC_COL_TEXT("cpu_family"),
		[SERIES] = DOC_COL_TEXT("series"),
		[PROVIDER] = DOC_COL_TEXT("provider"),
		[N] = DOC_COL_INT("n", "instances"),
		[VMIN] = DOC_COL_INT("vcpus_min", "vCPUs"),
		[VMAX] = DOC_COL_INT("vcpus_max", "vCPUs"),
		[BASIS] = DOC_COL_TEXT("rate_basis"),
		[FACTOR] = DOC_COL_REAL("translation_factor", "x", 'g', 6),
		[INSTANCES] = DOC_COL_TEXT("instances"),
		[PLATFORMS] = DOC_COL_TEXT("cpu_platforms"),
	};
	_Static_assert((int)BASIS == (int)BUILD_FAMILY_BASIS && (int)FACTOR == (int)BUILD_FAMILY_FACTOR,
		       "the basis columns as builders.h numbers them");
	/* without a basis the two basis columns are not in the table: the later ones move up */
	size_t skip = basis ? 0 : FACTOR + 1 - BASIS;
	struct doc_col cols[NCOLS];
	for (size_t c = 0, k = 0; c < NCOLS; c++)
		if (basis || c < BASIS || c > FACTOR)
			cols[k++] = all[c];
	struct doc_table *t = doc_table(s, cols, NCOLS - skip);
	doc_table_empty_text(t, empty);
	for (size_t i = 0; i < n; i++) {
		const struct catalog_family *f = &families[i];
		doc_row(t);
		doc_set_text(t, FAMILY, f->cpu_family);
		doc_set_text(t, SERIES, f->series);
		doc_set_text(t, PROVIDER, f->provider);
		doc_set_int(t, N, (int64_t)f->n);
		doc_set_int(t, VMIN, f->vcpus_min);
		doc_set_int(t, VMAX, f->vcpus_max);
		doc_set_text(t, INSTANCES - skip, f->instances);
		if (f->platforms[0])
			doc_set_text(t, PLATFORMS - skip, f->platforms);
		if (basis)
			basis(t, f, arg);
	}
	return t;
}
