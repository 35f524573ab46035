/* cmd_corpora: `coreplan corpora`, one row per imported corpus. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../common/err.h"
#include "../reports/builders.h"
#include "../schema/queries.h"

static const struct opt_spec specs[] = {
	CLI_SPECS_OUTPUT,
	OPT_END,
};

static const char details[] =
	"columns:\n"
	"  name, layout         the corpus name and the layout it was read with\n"
	"  runs                 runs imported (listed + unlisted)\n"
	"  listed, unlisted     runs named in the results table / found only as run files\n"
	"  excluded             runs with at least one exclusion\n"
	"  trace_rows           trace samples stored\n"
	"  files, missing_files files read, run files expected but absent\n"
	"  imported_at          when the corpus was imported (UTC)\n"
	"  content_hash         first 12 hex digits of the corpus content hash\n"
	"  source_path          the path it was imported from\n";

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct corpus_listing listing;
	int rc = query_corpora(db, &listing);
	if (rc == 0)
		rc = build_corpora(&listing, out);
	if (rc == 0 && listing.n == 0)
		warn_add("no corpora in '%s': run 'coreplan import PATH' first", a->g->db_path);
	corpus_listing_release(&listing);
	return rc;
}

const struct cli_def cli_corpora = {
	.cmd = {"corpora", NULL, details, specs, build_corpora_views},
	.db = CLI_DB_READ,
	.run = run,
};
