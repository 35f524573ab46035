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
	static const struct doc_field all[NCOLS] = {
		[FAMILY] = DOC_TEXT_OF("cpu_family", struct catalog_family, cpu_family),
		[SERIES] = DOC_TEXT_OF("series", struct catalog_family, series),
		[PROVIDER] = DOC_TEXT_OF("provider", struct catalog_family, provider),
		[N] = DOC_INT_OF("n", "instances", struct catalog_family, n),
		[VMIN] = DOC_INT_OF("vcpus_min", "vCPUs", struct catalog_family, vcpus_min),
		[VMAX] = DOC_INT_OF("vcpus_max", "vCPUs", struct catalog_family, vcpus_max),
		[BASIS] = DOC_FIELD_NONE(DOC_COL_TEXT("rate_basis")),
		[FACTOR] = DOC_FIELD_NONE(DOC_COL_REAL("translation_factor", "x", 'g', 6)),
		[INSTANCES] = DOC_TEXT_OF("instances", struct catalog_family, instances),
		[PLATFORMS] = DOC_TEXT_SET_OF("cpu_platforms", struct catalog_family, platforms),
	};
	_Static_assert((int)BASIS == (int)BUILD_FAMILY_BASIS && (int)FACTOR == (int)BUILD_FAMILY_FACTOR,
		       "the basis columns as builders.h numbers them");
	/* without a basis the two basis columns are not in the table: the later ones move up */
	struct doc_field cols[NCOLS];
	size_t ncols = 0;
	for (size_t c = 0; c < NCOLS; c++)
		if (basis || c < BASIS || c > FACTOR)
			cols[ncols++] = all[c];
	struct doc_table *t = doc_table_of(s, cols, ncols);
	doc_table_empty_text(t, empty);
	for (size_t i = 0; i < n; i++) {
		doc_row(t);
		doc_set_fields(t, cols, 0, ncols, &families[i]);
		if (basis)
			basis(t, &families[i], arg);
	}
	return t;
}

void build_set_interval(struct doc_table *t, size_t col, double value, double lo, double hi)
{
	doc_set_real(t, col, value);
	doc_set_real(t, col + 1, lo);
	doc_set_real(t, col + 2, hi);
}
