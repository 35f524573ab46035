/*
 * cmd: the coreplan commands. Each lives in its own cli/cmd_<name>.c and
 * is reached through the one command table in cli/main.c.
 *
 * To add a command `foo` (cli/cmd_sweep.c is the pattern to copy):
 *   1. The analysis: analysis/foo.[ch] with a struct foo_request, a struct
 *      foo_result and foo_run(db, req, &res) (selection and computation;
 *      no printing). SQL goes in schema/ or analysis/, never in cli/.
 *   2. The document: build_foo(req, res, &doc) in reports/build_foo.c,
 *      declared in reports/builders.h, following the rules at its top
 *      (numbers as facts or cells, every view a table section).
 *   3. The command: cli/cmd_foo.c with a static struct foo_request, a
 *      static opt_spec table bound to it (starting with a CLI_SPECS_*
 *      block from cli/common.h for the shared options; each entry an
 *      OPT_STRING/OPT_INT/OPT_DOUBLE/... of cli/opt.h naming its target,
 *      range and choices, so the parser fills and checks the request and
 *      --help, the man page and the completion state the rules), a views
 *      list (default first), a run callback (CLI_ANALYSIS_RUN when the
 *      command is foo_run and build_foo) and, where needed, defaults and
 *      check, in `const struct cli_def cli_foo` (declared below). The
 *      runner (cli_run) zeroes the request, applies the defaults, parses,
 *      prints --help, opens the database, hands the request the filter
 *      and metric it names in the cli_def, runs, writes the document in
 *      the chosen format and returns 0 or the negative code of the failure
 *      (ERR_DATA, ERR_USAGE) with its message recorded once. main.c prints
 *      it and chooses the exit code. Warnings go through warn_add();
 *      stdout carries only the document. A command the runner does not
 *      fit (help, completion; runs, whose help is built from the field
 *      list) is `int cmd_foo(int argc, char **argv, const struct
 *      global_opts *g)` instead.
 *   4. Declare cli_foo below and add {"foo", NULL, &cli_foo, "one-line
 *      description"} to commands[] in cli/main.c (the description is what
 *      both `coreplan --help` and `coreplan foo --help` show).
 *   5. Add the files to CMakeLists.txt and cover the command in the
 *      end-to-end tests, tests/e2e/formats.sh among them.
 */
#ifndef COREPLAN_CMD_H
#define COREPLAN_CMD_H

/* Options given before the command name. */
struct global_opts {
	const char *db_path; /* --db, else $COREPLAN_DB, else "coreplan.db" */
};

typedef int (*cmd_fn)(int argc, char **argv, const struct global_opts *g);

int cmd_runs(int argc, char **argv, const struct global_opts *g);

/* The commands cli_run() runs from their definition alone (cli/common.h). */
struct cli_def;
extern const struct cli_def cli_import, cli_plot, cli_report, cli_size, cli_translate, cli_corpora,
	cli_compare, cli_cores, cli_fit, cli_memory, cli_noise, cli_topology, cli_trace,
	cli_catalog, cli_smt, cli_sweep, cli_binders, cli_levers;

int cmd_help(int argc, char **argv, const struct global_opts *g);
int cmd_completion(int argc, char **argv, const struct global_opts *g);

/*
 * size's own options by their long names (cmd_size.c's table), so `report
 * --config` takes exactly what `coreplan size` takes. The request is size's
 * one static request: reset starts it afresh; set applies one option (0, a
 * usage error for a bad value, or 1 for a name size does not have); check
 * applies size's rules once a target is set; request is NULL until then;
 * release frees what the options stored and resets.
 */
struct opt_spec;
struct run_filter;
struct size_request;
void size_config_reset(void);
const struct opt_spec *size_config_specs(void); /* size's own options (OPT_END-terminated) */
int size_config_set(const char *name, const char *value);
int size_config_check(void);
const struct size_request *size_config_request(const struct run_filter *filter);
void size_config_release(void);

/* The one-line description of command `name` from main.c's table, or "". */
const char *cmd_description(const char *name);

#endif
