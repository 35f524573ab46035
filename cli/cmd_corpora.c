/* cmd_corpora: `coreplan corpora`, one row per imported corpus. */
#include "cmd.h"
#include "opt.h"

#include "../common/err.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <stdio.h>

enum { OPT_FORMAT };

static const struct opt_spec specs[] = {
	[OPT_FORMAT] = {"format", 0, "F", "output format: md, tsv, csv or json (default md)",
			false},
	{NULL, 0, NULL, NULL, false},
};

static const struct opt_cmd cmd = {
	"corpora",
	NULL,
	"columns:\n"
	"  name, layout         the corpus name and the layout it was read with\n"
	"  runs                 runs imported (listed + unlisted)\n"
	"  listed, unlisted     runs named in the results table / found only as run files\n"
	"  excluded             runs with at least one exclusion\n"
	"  trace_rows           trace samples stored\n"
	"  files, missing_files files read, run files expected but absent\n"
	"  imported_at          when the corpus was imported (UTC)\n"
	"  content_hash         first 12 hex digits of the corpus content hash\n"
	"  source_path          the path it was imported from\n",
	specs,
};

static const char corpora_sql[] =
	"SELECT c.name AS name, c.layout AS layout,\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id) AS runs,\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id AND r.listed = 1) AS "
	"listed,\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id AND r.listed = 0)\n"
	"    AS unlisted,\n"
	"  (SELECT count(*) FROM runs r WHERE r.corpus_id = c.corpus_id\n"
	"     AND EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id)) AS excluded,\n"
	"  (SELECT coalesce(sum(t.rows), 0) FROM traces t JOIN runs r ON r.run_id = t.run_id\n"
	"     WHERE r.corpus_id = c.corpus_id) AS trace_rows,\n"
	"  (SELECT count(*) FROM files f WHERE f.corpus_id = c.corpus_id) AS files,\n"
	"  (SELECT count(*) FROM missing_files m JOIN runs r ON r.run_id = m.run_id\n"
	"     WHERE r.corpus_id = c.corpus_id) AS missing_files,\n"
	"  c.imported_at AS imported_at,\n"
	"  substr(c.content_hash, 1, 12) AS content_hash,\n"
	"  c.source_path AS source_path\n"
	"FROM corpora c ORDER BY c.name";

int cmd_corpora(int argc, char **argv, const struct global_opts *g)
{
	static const size_t text_cols[] = {0, 1, 9, 10, 11};
	enum out_format format = OUT_MD;
	struct opt_parser p = {0};
	struct out_table *table = NULL;
	sqlite3_stmt *stmt = NULL;
	sqlite3 *db = NULL;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	if (rc)
		goto done;
	while ((rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		switch (which) {
		case OPT_FORMAT:
			if (out_format_parse(value, &format)) {
				rc = err_usage("unknown format '%s' (md, tsv, csv or json)", value);
				goto done;
			}
			break;
		}
	}
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	if (p.noperands > 0) {
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
		goto done;
	}
	rc = db_open(g->db_path, true, &db);
	if (rc)
		goto done;
	rc = db_prepare(db, corpora_sql, &stmt);
	if (rc)
		goto done;
	table = out_table_from_stmt(stmt, &rc);
	if (!table)
		goto done;
	/* Counts are numbers even when there is no row to show it. */
	for (size_t c = 0; c < 12; c++)
		out_table_set_kind(table, c, OUT_NUM);
	for (size_t i = 0; i < sizeof(text_cols) / sizeof(text_cols[0]); i++)
		out_table_set_kind(table, text_cols[i], OUT_TEXT);
	rc = out_table_write(table, format, stdout);
	if (rc == 0 && out_table_rows(table) == 0)
		warn_add("no corpora in '%s': run 'coreplan import PATH' first", g->db_path);
done:
	out_table_free(table);
	sqlite3_finalize(stmt);
	db_close(db);
	opt_parser_release(&p);
	return rc;
}
