/* common: see common.h. */
#include "common.h"

#include "../common/err.h"
#include "../importers/runfiles.h"
#include "../reports/builders.h"
#include "../schema/db.h"
#include "../schema/queries.h"

#include <unistd.h>

#include <stdlib.h>
#include <string.h>

struct cli_args cli_parsed;

const struct opt_choice cli_formats[] = {
	{"text", DOC_TERM}, {"md", DOC_MD},     {"tsv", DOC_TSV},     {"csv", DOC_CSV},
	{"json", DOC_JSON}, {"html", DOC_HTML}, {"markdown", DOC_MD}, {NULL},
};

/* In field_metric_kinds' order (common/units.h); test_opt checks that they agree. */
const struct opt_choice cli_metric_kinds[] = {
	/* in field_metric_kinds' order (common/units.h) */
	{"rate", FIELD_KIND_RATE},
	{"time", FIELD_KIND_TIME},
	{"latency", FIELD_KIND_LATENCY},
	{"memory", FIELD_KIND_MEMORY},
	{"cpu", FIELD_KIND_CPU},
	{"count", FIELD_KIND_COUNT},
	{"fraction", FIELD_KIND_FRACTION},
	{"ratio", FIELD_KIND_RATIO},
	{NULL},
};

int cli_set_corpus(const struct opt_spec *spec, const char *name)
{
	struct run_filter *f = spec->value;
	free(f->corpus);
	f->corpus = strdup(name);
	return f->corpus ? 0 : err_set("out of memory");
}

int cli_add_where(const struct opt_spec *spec, const char *text)
{
	return run_filter_add_where(spec->value, text);
}

int cli_add_where_file(const struct opt_spec *spec, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, path, &text, &len);
	if (rc == 0)
		rc = run_filter_add_where_lines(spec->value, text, path);
	free(text);
	return rc;
}

int cli_add_pool(const struct opt_spec *spec, const char *list)
{
	return run_filter_add_pool(spec->value, list);
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

static int parse(const struct cli_def *def, struct cli_args *a, int argc, char **argv,
		 struct opt_parser *p)
{
	int rc = opt_parser_init(p, &def->cmd, argc, argv);
	if (rc == 0)
		rc = opt_parse(p);
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
		rc = def->check(a);
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
static int write_then_commit(const struct cli_def *def, sqlite3 *db, const struct doc *d,
			     const struct cli_args *a)
{
	char why[1024];
	int rc = doc_write(d, a->format, a->view, stdout);
	if (rc == 0)
		return def->commit(db);
	snprintf(why, sizeof(why), "%s", err_msg());
	db_rollback(db);
	err_set("%s: nothing was stored (the transaction was rolled back)", why);
	return rc; /* a usage error stays one */
}

/*
 * --metric not given on a command that takes it: a tool's runs read the
 * tool's primary metric (schema/queries.h), other runs the command's
 * default (tput).
 */
static int default_metric(const struct cli_def *def, sqlite3 *db, struct cli_args *a)
{
	bool takes = false;
	if (a->metric || !db || def->metric_own_default)
		return 0;
	for (const struct opt_spec *s = def->cmd.specs; s->name && !takes; s++)
		takes = s->value == &cli_parsed.metric;
	/* no filter check: a field no run has selects no run here, and the command says so */
	if (!takes)
		return 0;
	if (query_default_metric(db, &a->filter, &a->metric) != 0)
		return ERR_DATA;
	a->metric_defaulted = a->metric != NULL;
	return 0;
}

/* The runner's filter, metric and --group list into the request's fields, where it has them. */
static void fill_request(const struct cli_def *def, const struct cli_args *a)
{
	if (def->filter)
		*def->filter = &a->filter;
	if (def->metric)
		*def->metric = a->metric;
	if (def->group)
		*def->group = strvec_list(&a->group);
}

int cli_run(const struct cli_def *def, int argc, char **argv, const struct global_opts *g)
{
	struct cli_args *a = &cli_parsed;
	struct opt_parser p;
	struct doc *d = NULL;
	sqlite3 *db = NULL;
	int rc, closed;
	memset(a, 0, sizeof(*a));
	memset(&p, 0, sizeof(p));
	a->g = g;
	/* a person at a terminal reads text; a pipe or a file gets Markdown unless --format says */
	a->format = isatty(STDOUT_FILENO) ? DOC_TERM : DOC_MD;
	a->db_mode = def->db;
	if (def->request)
		memset(def->request, 0, def->request_size);
	if (def->defaults)
		def->defaults();
	rc = parse(def, a, argc, argv, &p);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc == 0 && !a->view && (a->format == DOC_TSV || a->format == DOC_CSV) && def->cmd.views)
		a->view = def->cmd.views[0];
	if (rc == 0)
		rc = open_db(a->db_mode, g->db_path, &db);
	if (rc == 0)
		rc = default_metric(def, db, a);
	if (rc == 0) {
		fill_request(def, a);
		rc = def->run(db, a, &d);
	}
	if (rc == 0 && !d)
		rc = err_set("%s produced no result", def->cmd.name);
	if (rc == 0 && a->metric_defaulted)
		doc_fact_text(d, "metric_default", "metric chosen", DOC_LISTED,
			      "the tool's own primary metric (--metric not given; --metric names "
			      "another)");
	if (rc == 0)
		rc = add_provenance(db, a, d);
	if (rc == 0 && def->commit && db)
		rc = write_then_commit(def, db, d, a);
	else if (rc == 0)
		rc = doc_write(d, a->format, a->view, stdout);
done:
	if (def->commit && db)
		db_rollback(db); /* nothing open after a commit; else nothing is stored */
	doc_free(d);
	closed = db_close(db); /* a file this command created is synced here */
	if (rc == 0)
		rc = closed;
	run_filter_release(&a->filter);
	opt_release_targets(def->cmd.specs);
	opt_parser_release(&p);
	if (def->release)
		def->release();
	return rc;
}
