/* common: see common.h. */
#include "common.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../reports/builders.h"
#include "../schema/db.h"
#include "../schema/queries.h"

#include <unistd.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int runner_option(struct cli_args *a, int code, const char *value)
{
	switch (code) {
	case CLI_OPT_METRIC:
		if (!*value)
			return err_usage("--metric needs a field name");
		a->metric = value;
		return 0;
	case CLI_OPT_CORPUS:
		free(a->filter.corpus);
		a->filter.corpus = strdup(value);
		return a->filter.corpus ? 0 : err_set("out of memory");
	case CLI_OPT_WHERE:
		return run_filter_add_where(&a->filter, value);
	case CLI_OPT_INCLUDE_EXCLUDED:
		a->filter.include_excluded = true;
		return 0;
	case CLI_OPT_FORMAT:
		if (doc_format_parse(value, &a->format))
			return err_usage("unknown format '%s' (text, md, tsv, csv, json or html)", value);
		return 0;
	case CLI_OPT_VIEW:
		a->view = value;
		return 0;
	case CLI_OPT_POOL:
		return run_filter_add_pool(&a->filter, value);
	}
	return 0;
}

/* A --view must be one the command declares (or "facts"). */
static int check_view(const struct opt_cmd *cmd, const char *view)
{
	struct strbuf names = STRBUF_INIT;
	int rc;
	if (!view || !strcmp(view, "facts"))
		return 0;
	for (size_t i = 0; cmd->views && cmd->views[i]; i++)
		if (!strcmp(cmd->views[i], view))
			return 0;
	for (size_t i = 0; cmd->views && cmd->views[i]; i++)
		strbuf_addf(&names, "%s, ", cmd->views[i]);
	strbuf_adds(&names, "facts");
	rc = err_usage("unknown view '%s' (views of %s: %s)", view, cmd->name, strbuf_str(&names));
	strbuf_release(&names);
	return rc;
}

static int parse(const struct cli_def *def, void *req, struct cli_args *a, int argc, char **argv,
		 struct opt_parser *p)
{
	const char *value;
	int which, rc;
	rc = opt_parser_init(p, &def->cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(p, &which, &value)) == OPT_FOUND) {
		int code = def->cmd.specs[which].common;
		rc = code ? runner_option(a, code, value)
			  : def->option ? def->option(req, which, value) : 0;
	}
	if (rc != OPT_DONE)
		return rc;
	a->operands = p->operands;
	a->noperands = p->noperands;
	if (!def->cmd.operands && a->noperands > 0)
		return err_usage("unexpected argument '%s'", a->operands[0]);
	for (int i = 0; def->cmd.specs[i].name; i++)
		if (def->cmd.specs[i].required && opt_count(p, i) == 0)
			return err_usage("--%s %s is required", def->cmd.specs[i].name,
					 def->cmd.specs[i].arg ? def->cmd.specs[i].arg : "");
	rc = check_view(&def->cmd, a->view);
	if (rc == 0 && def->check)
		rc = def->check(req, a);
	return rc;
}

static int open_db(enum cli_db mode, const char *path, sqlite3 **db)
{
	switch (mode) {
	case CLI_DB_READ:
		return db_open(path, true, db);
	case CLI_DB_WRITE:
		return db_open(path, false, db);
	case CLI_DB_OPTIONAL:
		if (access(path, F_OK) == 0)
			return db_open(path, true, db);
		return db_open(":memory:", false, db);
	case CLI_DB_NONE:
		*db = NULL;
		return 0;
	}
	return 0;
}

/* Where the result came from: the database, the corpora it read, their content hash. */
static int add_provenance(sqlite3 *db, const struct cli_args *a, struct doc *d)
{
	struct strbuf names = STRBUF_INIT, filter = STRBUF_INIT;
	char hex[HASH_HEX_LEN + 1];
	int rc = 0;
	if (!db)
		return 0;
	rc = query_provenance(db, a->filter.corpus, &names, hex);
	if (rc == 0)
		rc = run_filter_describe(&a->filter, &filter);
	if (rc == 0)
		build_provenance(d, a->g->db_path, strbuf_str(&names), hex, strbuf_str(&filter));
	strbuf_release(&names);
	strbuf_release(&filter);
	return rc;
}

/*
 * The document of a command that writes (import) reaches standard output
 * before its transaction commits (doc_write flushes): a full disk or a
 * closed pipe then rolls it back and says so, instead of a failure after
 * the data was stored.
 */
static int write_then_commit(const struct cli_def *def, void *req, sqlite3 *db, const struct doc *d,
			     const struct cli_args *a)
{
	char why[1024];
	int rc = doc_write(d, a->format, a->view, stdout);
	if (rc == 0)
		return def->commit(db, req);
	snprintf(why, sizeof(why), "%s", err_msg());
	db_rollback(db);
	err_set("%s: nothing was stored (the transaction was rolled back)", why);
	return rc; /* a usage error stays one */
}

int cli_run(const struct cli_def *def, void *req, int argc, char **argv,
	    const struct global_opts *g)
{
	struct cli_args a;
	struct opt_parser p;
	struct doc *d = NULL;
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	memset(&p, 0, sizeof(p));
	a.g = g;
	/* a person at a terminal reads text; a pipe or a file gets Markdown unless --format says */
	a.format = isatty(STDOUT_FILENO) ? DOC_TERM : DOC_MD;
	a.db_mode = def->db;
	rc = parse(def, req, &a, argc, argv, &p);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc == 0 && !a.view && (a.format == DOC_TSV || a.format == DOC_CSV) && def->cmd.views)
		a.view = def->cmd.views[0];
	if (rc == 0)
		rc = open_db(a.db_mode, g->db_path, &db);
	if (rc == 0)
		rc = def->run(db, req, &a, &d);
	if (rc == 0 && !d)
		rc = err_set("%s produced no result", def->cmd.name);
	if (rc == 0)
		rc = add_provenance(db, &a, d);
	if (rc == 0 && def->commit && db)
		rc = write_then_commit(def, req, db, d, &a);
	else if (rc == 0)
		rc = doc_write(d, a.format, a.view, stdout);
done:
	if (def->commit && db)
		db_rollback(db); /* nothing open after a commit; else nothing is stored */
	doc_free(d);
	db_close(db);
	run_filter_release(&a.filter);
	opt_parser_release(&p);
	return rc;
}

int cli_parse_number(const char *option, const char *value, double lo, double hi, double *out)
{
	if (num_parse_real(value, out) || !(*out >= lo && *out <= hi))
		return err_usage("--%s needs a number from %g to %g, got '%s'", option, lo, hi,
				 value);
	return 0;
}

int cli_parse_whole(const char *option, const char *value, int64_t lo, int64_t hi, int64_t *out)
{
	if (num_parse_int(value, out) || *out < lo || *out > hi)
		return err_usage("--%s needs a whole number from %lld to %lld, got '%s'", option,
				 (long long)lo, (long long)hi, value);
	return 0;
}

int cli_parse_list(const char *option, const char *value, char ***list)
{
	size_t n = 0, before;
	char *copy = strdup(value), *save = NULL;
	int rc = 0;
	if (!copy)
		return err_set("out of memory");
	while (*list && (*list)[n])
		n++;
	before = n;
	for (char *tok = strtok_r(copy, ",", &save); rc == 0 && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char **grown = realloc(*list, (n + 2) * sizeof(*grown));
		if (!grown) {
			rc = err_set("out of memory");
			break;
		}
		*list = grown;
		grown[n + 1] = NULL;
		grown[n] = strdup(tok);
		if (!grown[n])
			rc = err_set("out of memory");
		else
			n++;
	}
	free(copy);
	if (rc == 0 && n == before)
		rc = err_usage("--%s needs field names", option);
	return rc;
}

void cli_free_list(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}
