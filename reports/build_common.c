/* build_common: the parts of documents every builder shares (builders.h). */
#include "builders.h"

#include "../common/err.h"

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

void build_left_out(struct doc *d, const struct selection *sel)
{
	for (size_t i = 0; i < sel->nleft_out; i++)
		doc_left_out(d, sel->left_out[i].tag, sel->left_out[i].reason);
	build_left_out_count(d);
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

void build_left_out_count(struct doc *d)
{
	doc_fact_int(d, "runs_left_out", "runs left out", DOC_QUIET, (int64_t)doc_left_out_count(d),
		     "runs");
}
