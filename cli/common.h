/*
 * common: what the analysis commands (sweep, noise, compare, ...) share:
 * the options that choose runs and the output format, the number
 * formatting of their tables, and the "left out" list every analysis
 * prints.
 *
 * A command puts COMMON_SPECS first in its option table, so
 * option indices 0 .. COMMON_COUNT-1 are these, and passes every index
 * below COMMON_COUNT to common_opt(). Its own options follow.
 */
#ifndef COREPLAN_CLI_COMMON_H
#define COREPLAN_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "../analysis/select.h"
#include "../reports/doc.h"
#include "../reports/table_out.h"
#include "../schema/fields.h"
#include "cmd.h"
#include "opt.h"

/* ==== the command runner (every converted command) ==== */

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
};

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
	{"format", 0, "F", "output format: md, tsv, csv or json (default md)", false,          \
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

/* ==== legacy: commands not yet on the runner ==== */

enum {
	COMMON_METRIC,
	COMMON_CORPUS,
	COMMON_WHERE,
	COMMON_INCLUDE_EXCLUDED,
	COMMON_FORMAT,
	COMMON_COUNT
};

#define COMMON_SPECS                                                                          \
	{"metric", 0, "FIELD", "the measured value (default tput)", false},                   \
		{"corpus", 0, "NAME", "only runs of corpus NAME", false},                     \
		{"where", 0, "FIELD=V[,V...]",                                                \
		 "only runs whose FIELD is one of the values; several --where all apply",     \
		 true},                                                                       \
		{"include-excluded", 0, NULL, "keep excluded runs (left out by default)",     \
		 false},                                                                      \
		{"format", 0, "F", "output format: md, tsv, csv or json (default md)", false}

struct common_args {
	struct run_filter filter;
	enum out_format format;
	const char *metric;
};

void common_args_init(struct common_args *a);
void common_args_release(struct common_args *a);
/* Apply option `which` (< COMMON_COUNT); 0 or a usage error. */
int common_opt(struct common_args *a, int which, const char *value);

/*
 * A number as a table cell: NULL for NaN (missing); in md rounded for the
 * eye ("%.*f" with style 'f', "%.*g" with style 'g'), elsewhere every digit
 * (num_format_real), so machine formats lose nothing.
 */
const char *common_num(double value, enum out_format format, char style, int precision,
		       char buf[32]);

/*
 * The runs the filter matched but the analysis left out, with reasons:
 * in md a section on stdout, otherwise lines on stderr. The first
 * COMMON_LEFT_OUT_SHOWN are named, then a count.
 */
#define COMMON_LEFT_OUT_SHOWN 20
void common_print_left_out(const struct selection *sel, enum out_format format);

/*
 * Split "F1,F2" into a NULL-terminated list appended to *list (for
 * --group); common_free_list() frees it.
 */
int common_split_list(const char *option, const char *value, char ***list, size_t *n);
void common_free_list(char **list, size_t n);

/*
 * An arm (compare --a/--b, translate --from/--to): the common filter plus
 * the arm's own space-separated FIELD=V[,V] conditions, as a new filter
 * the caller releases.
 */
int common_arm_filter(const struct common_args *a, const char *text, struct run_filter *f);

/* Option values, each a usage error naming --option when malformed. */
int common_parse_choice(const char *option, const char *value, const char *const *names,
			size_t n, int *out);
/* A number in (0, 1]. */
int common_parse_fraction(const char *option, const char *value, double *out);
/* A whole number from 0 to 100000. */
int common_parse_count(const char *option, const char *value, size_t *out);

#endif
