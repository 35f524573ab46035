/*
 * common: the command runner every command goes through (cli_run), the
 * option blocks it handles for them (metric, run filter, output format and
 * view), and the option-value parsers they share. A command is an option
 * table, a request struct and three callbacks (struct cli_def); see
 * cli/cmd_sweep.c for the shape and cli/cmd.h for how to add one.
 */
#ifndef COREPLAN_CLI_COMMON_H
#define COREPLAN_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "../analysis/select.h"
#include "../doc/doc.h"
#include "../schema/fields.h"
#include "cmd.h"
#include "opt.h"


/*
 * Options the runner handles for every command that lists them (their
 * opt_spec.common code): the run filter, the metric and the output. A
 * command's table starts with one of the CLI_SPECS_* blocks and its own
 * options follow at index CLI_*_COUNT.
 */
enum {
	CLI_OPT_NONE = 0,
	CLI_OPT_METRIC,
	CLI_OPT_CORPUS,
	CLI_OPT_WHERE,
	CLI_OPT_INCLUDE_EXCLUDED,
	CLI_OPT_FORMAT,
	CLI_OPT_VIEW,
	CLI_OPT_POOL,
};

/*
 * --pool F1[,F2]: the analyses that pool runs into levels (sweep, noise,
 * fit, memory) list it after their own options; it goes to the filter
 * (run_filter.pool, analysis/pooling.h). CLI_POOLING_HELP is the rule, for
 * their --help.
 */
#define CLI_SPEC_POOL                                                                              \
	{                                                                                          \
		"pool", 0, "F1[,F2]",                                                              \
			"pool runs that differ in these fields on purpose (block: block kinds); "  \
			"see "                                                                     \
			"'pooling' below",                                                         \
			true, CLI_OPT_POOL                                                         \
	}
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
	"only with another one (store with cfg) is covered by it. README.md, \"No silent\n"        \
	"pooling\", has the rule.\n"

#define CLI_SPEC_METRIC                                                                        \
	{"metric", 0, "FIELD", "the measured value (default tput)", false, CLI_OPT_METRIC}
#define CLI_SPECS_FILTER                                                                       \
	{"corpus", 0, "NAME", "only runs of corpus NAME", false, CLI_OPT_CORPUS},              \
		{"where", 0, "FIELD=V[,V...]",                                                 \
		 "only runs whose FIELD is one of the values (empty: the empty string); "     \
		 "several --where all apply",                                                  \
		 true, CLI_OPT_WHERE},                                                         \
		{"include-excluded", 0, NULL, "keep excluded runs (left out by default)",      \
		 false, CLI_OPT_INCLUDE_EXCLUDED}
#define CLI_SPECS_OUTPUT                                                                       \
	{"format", 0, "F", "output format: md, tsv, csv, json or html (default md)", false,          \
	 CLI_OPT_FORMAT},                                                                      \
		{"view", 0, "NAME", "one section: the table tsv/csv print (see views below)",  \
		 false, CLI_OPT_VIEW}

/* metric, corpus, where, include-excluded, format, view: the analysis commands' block */
#define CLI_SPECS_ANALYSIS CLI_SPEC_METRIC, CLI_SPECS_FILTER, CLI_SPECS_OUTPUT
#define CLI_ANALYSIS_COUNT 6
/* corpus, where, include-excluded, format, view */
#define CLI_SPECS_FILTERED CLI_SPECS_FILTER, CLI_SPECS_OUTPUT
#define CLI_FILTERED_COUNT 5
/* format, view */
#define CLI_OUTPUT_COUNT 2

enum cli_db {
	CLI_DB_READ,     /* open read-only; a missing database is an error */
	CLI_DB_WRITE,    /* open for writing (import, topology) */
	CLI_DB_OPTIONAL, /* read-only when the file exists, else an empty in-memory one */
	CLI_DB_NONE,
};

/* What the runner parsed for the command. */
struct cli_args {
	const struct global_opts *g;
	struct run_filter filter;
	const char *metric; /* NULL when not given: the command chooses its default */
	enum doc_format format;
	const char *view; /* NULL: the default */
	char **operands;  /* the words that were not options (into argv) */
	size_t noperands;
	enum cli_db db_mode; /* from the cli_def; check() may change it (topology --show) */
};

/*
 * One command: its option table and help (cmd), and three steps.
 *   option  apply one of the command's own options (index into cmd.specs)
 *           to the request; 0 or a usage error
 *   check   after parsing: operands, required and conflicting options;
 *           NULL when there is nothing to check (operands are then refused)
 *   run     the analysis and the document: *out gets a new doc the
 *           runner writes and frees
 *   commit  NULL, or: run() left a transaction open (import), and the
 *           runner commits it with this only once the document is
 *           written and standard output flushed without error; a failed
 *           write rolls it back (exit 1, nothing stored), so that a
 *           failure is never reported for data that was stored
 * The runner parses, prints --help, refuses an unknown --view (listing
 * cmd.views), opens the database as `db` says (or as check() set
 * a->db_mode), runs, writes the document in the chosen format and view
 * (tsv and csv without --view: cmd.views[0]), and releases everything.
 */
struct cli_def {
	struct opt_cmd cmd;
	enum cli_db db;
	int (*option)(void *req, int which, const char *value);
	int (*check)(void *req, struct cli_args *a);
	int (*run)(sqlite3 *db, void *req, struct cli_args *a, struct doc **out);
	int (*commit)(sqlite3 *db, void *req);
};

int cli_run(const struct cli_def *def, void *req, int argc, char **argv,
	    const struct global_opts *g);

/* Option values, each a usage error naming --option when malformed. */
int cli_parse_number(const char *option, const char *value, double lo, double hi, double *out);
int cli_parse_whole(const char *option, const char *value, int64_t lo, int64_t hi, int64_t *out);
/*
 * Field names separated by commas ("target,cfg": --group) appended to
 * *list, which stays NULL-terminated; an empty list is a usage error.
 * cli_free_list() frees the list (NULL: nothing).
 */
int cli_parse_list(const char *option, const char *value, char ***list);
void cli_free_list(char **list);

#endif
