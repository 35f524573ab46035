/* cmd_runs: `coreplan runs`, the runs and their canonical fields, filtered. */
#include "cmd.h"
#include "opt.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../reports/table_out.h"
#include "../schema/db.h"
#include "../schema/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_CORPUS, OPT_WHERE, OPT_EXCLUDED, OPT_INCLUDE_EXCLUDED, OPT_FORMAT };

static const struct opt_spec specs[] = {
	[OPT_CORPUS] = {"corpus", 0, "NAME", "only runs of corpus NAME", false},
	[OPT_WHERE] = {"where", 0, "FIELD=V[,V...]",
		       "only runs whose FIELD is one of the values; several --where all apply",
		       true},
	[OPT_EXCLUDED] = {"excluded", 0, NULL,
			  "only the excluded runs, with a column giving the reasons", false},
	[OPT_INCLUDE_EXCLUDED] = {"include-excluded", 0, NULL,
				  "keep excluded runs (left out by default)", false},
	[OPT_FORMAT] = {"format", 0, "F", "output format: md, tsv, csv or json (default md)",
			false},
	{NULL, 0, NULL, NULL, false},
};

static const char details_text[] =
	"Columns: corpus, subcorpus, tag, listed, excluded (0/1), then every canonical\n"
	"field below; with --excluded, a last column `reasons`. md leaves out columns\n"
	"that are empty in every row; tsv, csv and json always print every column.\n"
	"\n"
	"FIELD in --where is a canonical field or any column a corpus had (a results\n"
	"column, a generator-record key such as outcomes.ok, an idle-banner key, a tag\n"
	"part). A value matches when the text is equal or when both are numbers and\n"
	"equal (gomaxprocs=8 matches 8.0); boolean fields also take true/false.\n"
	"\n"
	"examples:\n"
	"  coreplan runs --corpus sky --where gomaxprocs=2,4 --where block=1\n"
	"  coreplan runs --excluded --format tsv\n"
	"\n"
	"canonical fields:\n";

/* The help lists the canonical fields, so it is built from field_canonical. */
static int help_details(struct strbuf *sb)
{
	int bad = strbuf_adds(sb, details_text);
	for (size_t i = 0; i < field_canonical_count; i++) {
		const struct field_info *f = &field_canonical[i];
		bad |= strbuf_addf(sb, "  %-14s %s%s%s%s\n", f->name, f->doc, *f->unit ? " [" : "",
				   f->unit, *f->unit ? "]" : "");
	}
	return bad ? err_set("out of memory") : 0;
}

/* The fixed columns before the canonical fields. */
static const char *const lead_cols[] = {"corpus", "subcorpus", "tag", "listed", "excluded"};
#define NLEAD (sizeof(lead_cols) / sizeof(lead_cols[0]))

/* A --where field that is not canonical must exist in some run, or it is a typo. */
static int check_fields(sqlite3 *db, const struct run_filter *filter)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	for (size_t i = 0; i < filter->nwhere && rc == 0; i++) {
		const char *name = filter->where[i].field;
		int step;
		if (field_find(name) || field_is_pseudo(name))
			continue;
		if (!stmt) {
			rc = db_prepare(db, "SELECT 1 FROM run_fields WHERE name = ? LIMIT 1",
					&stmt);
			if (rc)
				break;
		}
		sqlite3_reset(stmt);
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
		step = sqlite3_step(stmt);
		if (step == SQLITE_DONE)
			rc = err_set("no field '%s': neither a canonical field (see 'coreplan "
				     "runs --help') nor a column of any imported run",
				     name);
		else if (step != SQLITE_ROW)
			rc = db_error(db, "cannot look up fields");
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int check_corpus(sqlite3 *db, const char *name)
{
	sqlite3_stmt *stmt = NULL;
	int step;
	int rc = db_prepare(db, "SELECT 1 FROM corpora WHERE name = ?", &stmt);
	if (rc)
		return rc;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
	step = sqlite3_step(stmt);
	if (step == SQLITE_DONE)
		rc = err_set("no corpus named '%s' (see 'coreplan corpora')", name);
	else if (step != SQLITE_ROW)
		rc = db_error(db, "cannot look up corpora");
	sqlite3_finalize(stmt);
	return rc;
}

/* Prepare `sql` and bind the filter's values from parameter 1. */
static int prepare_bound(sqlite3 *db, const char *sql, char **binds, size_t nbinds,
			 sqlite3_stmt **stmt)
{
	int rc = db_prepare(db, sql, stmt);
	if (rc == 0)
		rc = field_bind_all(*stmt, 1, binds, nbinds);
	return rc;
}

/* How many runs the filter would have shown but left out as excluded. */
static int count_left_out(sqlite3 *db, const struct run_filter *filter, long long *count)
{
	struct run_filter only = *filter;
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	int rc;
	only.only_excluded = true;
	*count = 0;
	rc = strbuf_adds(&sql, "SELECT count(*) FROM runs r WHERE ") ? err_set("out of memory") : 0;
	if (rc == 0)
		rc = run_filter_sql(&only, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = prepare_bound(db, sql.buf, binds, nbinds, &stmt);
	if (rc == 0) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			*count = sqlite3_column_int64(stmt, 0);
		else
			rc = db_error(db, "cannot count excluded runs");
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

static int build_query(const struct run_filter *filter, struct strbuf *sql, char ***binds,
		       size_t *nbinds)
{
	int bad =
		strbuf_adds(sql, "SELECT c.name AS corpus, r.subcorpus AS subcorpus, r.tag AS "
				 "tag, r.listed AS listed,\n"
				 "  EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id) "
				 "AS excluded");
	for (size_t i = 0; i < field_canonical_count; i++)
		bad |= strbuf_addf(sql, ",\n  r.%s AS %s", field_canonical[i].name,
				   field_canonical[i].name);
	if (filter->only_excluded)
		bad |= strbuf_adds(sql, ",\n  (SELECT group_concat(x, '; ') FROM\n"
					"     (SELECT e.reason || ': ' || e.detail AS x FROM "
					"exclusions e\n"
					"       WHERE e.run_id = r.run_id ORDER BY e.reason)) AS "
					"reasons");
	bad |= strbuf_adds(sql,
			   "\nFROM runs r JOIN corpora c ON c.corpus_id = r.corpus_id\nWHERE ");
	if (bad)
		return err_set("out of memory");
	if (run_filter_sql(filter, sql, binds, nbinds))
		return ERR_DATA;
	if (strbuf_adds(sql, "\nORDER BY c.name, r.subcorpus, r.seq"))
		return err_set("out of memory");
	return 0;
}

int cmd_runs(int argc, char **argv, const struct global_opts *g)
{
	enum out_format format = OUT_MD;
	struct run_filter filter = {NULL, NULL, 0, false, false};
	struct opt_parser p = {0};
	struct strbuf sql = STRBUF_INIT;
	struct out_table *table = NULL;
	sqlite3_stmt *stmt = NULL;
	sqlite3 *db = NULL;
	char **binds = NULL;
	size_t nbinds = 0;
	long long left_out = 0;
	struct strbuf details = STRBUF_INIT;
	struct opt_cmd cmd = {"runs", NULL, NULL, specs};
	const char *value;
	int which;
	int rc = help_details(&details);
	if (rc)
		goto done;
	cmd.details = details.buf;
	rc = opt_parser_init(&p, &cmd, argc, argv);
	if (rc)
		goto done;
	while ((rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		switch (which) {
		case OPT_CORPUS:
			free(filter.corpus);
			filter.corpus = strdup(value);
			if (!filter.corpus) {
				rc = err_set("out of memory");
				goto done;
			}
			break;
		case OPT_WHERE:
			rc = run_filter_add_where(&filter, value);
			if (rc)
				goto done;
			break;
		case OPT_EXCLUDED:
			filter.only_excluded = true;
			break;
		case OPT_INCLUDE_EXCLUDED:
			filter.include_excluded = true;
			break;
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
	if (filter.corpus) {
		rc = check_corpus(db, filter.corpus);
		if (rc)
			goto done;
	}
	rc = check_fields(db, &filter);
	if (rc)
		goto done;
	rc = build_query(&filter, &sql, &binds, &nbinds);
	if (rc)
		goto done;
	rc = prepare_bound(db, sql.buf, binds, nbinds, &stmt);
	if (rc)
		goto done;
	table = out_table_from_stmt(stmt, &rc);
	if (!table)
		goto done;
	/* Kinds from the field list, so an empty result still types its columns. */
	for (size_t i = 0; i < NLEAD; i++)
		out_table_set_kind(table, i, i >= 3 ? OUT_NUM : OUT_TEXT);
	for (size_t i = 0; i < field_canonical_count; i++)
		out_table_set_kind(table, NLEAD + i,
				   field_canonical[i].type == FIELD_TEXT ? OUT_TEXT : OUT_NUM);
	if (filter.only_excluded)
		out_table_set_kind(table, NLEAD + field_canonical_count, OUT_TEXT);
	out_table_hide_empty_md(table, true);

	if (!filter.only_excluded && !filter.include_excluded) {
		rc = count_left_out(db, &filter, &left_out);
		if (rc)
			goto done;
	}
	rc = out_table_write(table, format, stdout);
	if (rc)
		goto done;
	if (left_out > 0)
		fprintf(stderr,
			"%lld run%s left out: excluded (use --include-excluded or --excluded to "
			"see them)\n",
			left_out, left_out == 1 ? "" : "s");
done:
	out_table_free(table);
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	db_close(db);
	run_filter_release(&filter);
	opt_parser_release(&p);
	strbuf_release(&details);
	return rc;
}
