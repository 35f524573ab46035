/*
 * common: the command runner every command goes through (cli_run) and the
 * option blocks it parses for them (metric, run filter, output format and
 * view). A command is a static request, an option table bound to it, and
 * a run callback (struct cli_def); see cli/cmd_sweep.c for the shape and
 * cli/cmd.h for how to add one.
 */
#ifndef COREPLAN_CLI_COMMON_H
#define COREPLAN_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "../analysis/select.h"
#include "../common/strvec.h"
#include "../doc/doc.h"
#include "../schema/fields.h"
#include "cmd.h"
#include "opt.h"

enum cli_db {
	CLI_DB_READ,     /* open read-only; a missing database is an error */
	CLI_DB_WRITE,    /* open for writing (import, topology) */
	CLI_DB_OPTIONAL, /* read-only when the file exists, else an empty in-memory one */
	CLI_DB_NONE,
};

/*
 * What the runner parses for every command: the run filter, the metric and
 * the output. The shared blocks below bind their options here; cli_run()
 * resets it before parsing and releases it after the run, and hands it to
 * the command's check and run as `a`.
 */
struct cli_args {
	const struct global_opts *g;
	struct run_filter filter;
	/*
	 * NULL when not given: the command chooses its default. A command whose
	 * --metric defaults to tput (CLI_SPEC_METRIC) gets, on a tool's runs,
	 * the tool's primary metric instead (query_default_metric).
	 */
	const char *metric;
	bool metric_defaulted; /* metric is the tool's default, not given */
	enum doc_format format;
	const char *view;    /* NULL: the default */
	struct strvec group; /* --group (CLI_SPEC_GROUP) */
	char **operands;     /* the words that were not options (into argv) */
	size_t noperands;
	enum cli_db db_mode; /* from the cli_def; check() may change it (topology --show) */
};
extern struct cli_args cli_parsed;

/* text, md, tsv, csv, json, html (--format); the metric kinds (--metric-kind). */
extern const struct opt_choice cli_formats[];
extern const struct opt_choice cli_metric_kinds[];

/* OPT_CALL parsers: --corpus NAME, --where FIELD=V[,V], --pool F1[,F2] into a run_filter. */
int cli_set_corpus(const struct opt_spec *spec, const char *name);
int cli_add_where(const struct opt_spec *spec, const char *text);
/* --where-file FILE: its lines as conditions (run_filter_add_where_lines). */
int cli_add_where_file(const struct opt_spec *spec, const char *path);
int cli_add_pool(const struct opt_spec *spec, const char *list);

/*
 * --pool F1[,F2]: the analyses that pool runs into levels (sweep, noise,
 * fit, memory) list it after their own options; it goes to the filter
 * (run_filter.pool, analysis/pooling.h). CLI_POOLING_HELP is the rule, for
 * their --help.
 */
#define CLI_SPEC_POOL                                                                              \
	OPT_CALL("pool", "F1[,F2]", cli_add_pool, &cli_parsed.filter,                              \
		 "pool runs that differ in these fields on purpose (block: block kinds); see "     \
		 "'pooling' below",                                                                \
		 .repeatable = true)
#define CLI_POOLING_HELP                                                                           \
	"pooling: the runs pooled into a level must differ only in the level, the\n"               \
	"--group fields and the block. The command first looks at corpus, subcorpus,\n"            \
	"target, cfg, store, gogc, variant, sessions and gomaxprocs (the one that is not\n"        \
	"--by) and at the results-table columns that are factors (a text value, not a\n"           \
	"number, that two runs or more share; a column whose values all differ, such\n"            \
	"as a tag, is an identifier and does not count). When one of them varies\n"                \
	"within a group, or a block holds runs at only some of its group's levels (a\n"            \
	"gctrace, fsync or soak block: its own arm, not a replicate of the complete\n"             \
	"blocks), the command refuses (exit 2) naming the field and its values: narrow\n"          \
	"with --where FIELD=V, split with --group FIELD (noise, memory), or pool on\n"             \
	"purpose with --pool FIELD[,FIELD] (--pool block for block kinds); the output\n"           \
	"then says what was pooled (the fact pooled and a note). A field that varies\n"            \
	"only with another one (store with cfg) is covered by it. docs/analysis.md,\n"           \
	"\"No silent pooling\", has the rule.\n"

/* --group F1[,F2...]: the analyses that judge each combination of fields apart. */
#define CLI_SPEC_GROUP(help)                                                                       \
	OPT_LIST("group", "F1[,F2...]", &cli_parsed.group, help, .noun = "field names")

/*
 * --host NAME and --workers FIELD of the scaling analyses (sweep, fit):
 * which host's topology the levels are counted on, and which field counts
 * workers.
 */
#define CLI_SPECS_WORKERS(host, workers)                                                           \
	OPT_STRING("host", "NAME", host,                                                           \
		   "count levels on this recorded host (default: the runs' topology_host)"),       \
		OPT_STRING(                                                                        \
			"workers", "FIELD", workers,                                               \
			"FIELD counts workers (threads, cores, processes): speedup, efficiency "   \
			"and the SMT classification apply to it (fields known to count workers "   \
			"need no flag)")

/* The shared blocks a command's table starts with (its own options follow). */
#define CLI_SPEC_METRIC_HELP(help)                                                                 \
	OPT_STRING("metric", "FIELD", &cli_parsed.metric, help, .nonempty = true,                  \
		   .noun = "a field name")
#define CLI_SPEC_METRIC                                                                            \
	CLI_SPEC_METRIC_HELP("the measured value (default tput; a tool's runs: its primary metric, "  \
			     "e.g. Go's ns_per_op: docs/importing.md)")
#define CLI_SPEC_CORPUS_HELP(help)                                                                 \
	OPT_CALL("corpus", "NAME", cli_set_corpus, &cli_parsed.filter, help)
#define CLI_SPECS_FILTER                                                                           \
	CLI_SPEC_CORPUS_HELP("only runs of corpus NAME"),                                          \
		OPT_CALL("where", "FIELD=V[,V...]", cli_add_where, &cli_parsed.filter,             \
			 "only runs whose FIELD is one of the values (empty: the empty string; a " \
			 "value holding spaces, ',' or '=' in double quotes, \\\" and \\\\ inside: "  \
			 "--where 'command=\"sleep 0.01\"'); several --where all apply",            \
			 .repeatable = true),                                                      \
		OPT_CALL("where-file", "FILE", cli_add_where_file, &cli_parsed.filter,             \
			 "conditions from FILE, one FIELD=VALUE a line, the value taken as it is " \
			 "to the line's end (no quotes: long names); lines of one field are any "  \
			 "of their values, '#' lines skipped; with --where, all apply",            \
			 .repeatable = true),                                                      \
		OPT_FLAG("include-excluded", &cli_parsed.filter.include_excluded,                  \
			 "keep excluded runs (left out by default)")
#define CLI_SPEC_FORMAT                                                                            \
	OPT_CHOICE("format", "F", &cli_parsed.format, cli_formats, "output format (default: text on a terminal, else md)")
#define CLI_SPEC_VIEW                                                                              \
	OPT_STRING("view", "NAME", &cli_parsed.view,                                               \
		   "one section: the table tsv/csv print (see views below)")
#define CLI_SPECS_OUTPUT CLI_SPEC_FORMAT, CLI_SPEC_VIEW

/* metric, corpus, where, include-excluded, format, view: the analysis commands' block */
#define CLI_SPECS_ANALYSIS CLI_SPEC_METRIC, CLI_SPECS_FILTER, CLI_SPECS_OUTPUT
/* corpus, where, include-excluded, format, view */
#define CLI_SPECS_FILTERED CLI_SPECS_FILTER, CLI_SPECS_OUTPUT
/* How many entries CLI_SPECS_ANALYSIS has: a command's own options follow. */
#define CLI_ANALYSIS_COUNT 7

/*
 * One command: its option table and help (cmd), bound to the command's
 * static request, and these steps:
 *   defaults  NULL, or: the request's defaults, once the runner has
 *           zeroed it (request, request_size) and before parsing
 *   check   after parsing: operands, required and conflicting options;
 *           NULL when there is nothing to check (operands are then refused)
 *   run     the analysis and the document: *out gets a new doc the
 *           runner writes and frees (CLI_ANALYSIS_RUN for most commands)
 *   release NULL, or: what the command holds beyond its request and option
 *           targets (a file it read, names it made), freed after the run
 *   commit  NULL, or: run() left a transaction open (import), and the
 *           runner commits it with this only once the document is
 *           written and standard output flushed without error; a failed
 *           write rolls it back (exit 1, nothing stored), so that a
 *           failure is never reported for data that was stored
 * The runner resets cli_parsed and the request, parses (each option fills
 * its target, checked as its spec says), prints --help, refuses a missing
 * required option and an unknown --view (listing cmd.views), opens the
 * database as `db` says (or as check() set a->db_mode), hands the request
 * the run filter, the metric and the --group list where it has them
 * (filter, metric, group), runs, writes the document in the chosen format
 * and view (tsv and csv without --view: cmd.views[0]), and releases
 * everything, the table's lists among it.
 */
struct cli_def {
	struct opt_cmd cmd;
	enum cli_db db;
	void *request; /* the command's static request, or NULL */
	size_t request_size;
	void (*defaults)(void);
	int (*check)(struct cli_args *a);
	int (*run)(sqlite3 *db, struct cli_args *a, struct doc **out);
	int (*commit)(sqlite3 *db);
	void (*release)(void);
	/* --metric has a default of the command's own (memory: load_rss_kb), not a tool's */
	bool metric_own_default;
	/* the request's fields the runner fills before run (NULL: it has none) */
	const struct run_filter **filter;
	const char **metric;
	const char *const **group;
};

/*
 * The cli_def fields binding the command's static request r: the runner
 * zeroes it before parsing (CLI_REQUEST); an analysis command (CLI_ANALYSIS)
 * also reads the database, gets the run filter and the metric in r.filter
 * and r.metric, and makes its document with run_fn.
 */
#define CLI_REQUEST(r) .request = &(r), .request_size = sizeof(r)
#define CLI_ANALYSIS(r, run_fn)                                                                    \
	.db = CLI_DB_READ, CLI_REQUEST(r), .run = (run_fn), .filter = &(r).filter,                 \
	.metric = &(r).metric

/*
 * CLI_ANALYSIS_RUN(fn, req, result_type, analyse, build, release) defines
 * `static int fn(db, a, out)`, the run of a command that is one analysis
 * and its document: analyse(db, &req, &res) fills a result_type, then
 * build(&req, &res, out) makes the document, and release(&res) frees the
 * result whether or not either succeeded (the analyses leave a result that
 * is safe to release on failure).
 */
#define CLI_ANALYSIS_RUN(fn, req, result_type, analyse, build, release)                            \
	static int fn(sqlite3 *db, struct cli_args *a, struct doc **out)                           \
	{                                                                                          \
		result_type res;                                                                   \
		int rc = analyse(db, &(req), &res);                                                \
		(void)a;                                                                           \
		if (rc == 0)                                                                       \
			rc = build(&(req), &res, out);                                             \
		release(&res);                                                                     \
		return rc;                                                                         \
	}

int cli_run(const struct cli_def *def, int argc, char **argv, const struct global_opts *g);

#endif
