/* corpus_tree: see corpus_tree.h. */
#include "corpus_tree.h"

#include "../common/err.h"
#include "../common/outpath.h"
#include "queries.h"

#include <stdlib.h>
#include <string.h>

static int refuse_in(const struct corpus_listing *corpora, const char *out_dir,
		     const char *abs_out, const char *what)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < corpora->n; i++) {
		const struct corpus_row *c = &corpora->rows[i];
		char *root = NULL;
		/* a corpus of one file is that file, not its folder */
		if (!c->source_path || !*c->source_path || c->files <= 1)
			continue;
		rc = outpath_absolute(c->source_path, &root);
		if (rc == 0 && strcmp(abs_out, root) && outpath_within(abs_out, root))
			rc = err_set("cannot write %s into '%s': it is inside corpus '%s', "
				     "imported from '%s', whose files are never touched: choose a "
				     "folder outside it",
				     what, out_dir, c->name, c->source_path);
		free(root);
	}
	return rc;
}

int corpus_tree_refuse(sqlite3 *db, const char *out_dir, const char *what)
{
	struct corpus_listing corpora;
	char *abs_out = NULL;
	int rc = query_corpora(db, &corpora);
	if (rc == 0)
		rc = outpath_absolute(out_dir, &abs_out);
	if (rc == 0)
		rc = refuse_in(&corpora, out_dir, abs_out, what);
	free(abs_out);
	corpus_listing_release(&corpora);
	return rc;
}
