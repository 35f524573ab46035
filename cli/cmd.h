/*
 * cmd: the coreplan commands. Each lives in its own cli/cmd_<name>.c and
 * is reached through the one command table in cli/main.c.
 *
 * To add a command `foo`:
 *   1. Write cli/cmd_foo.c with `int cmd_foo(int argc, char **argv, const
 *      struct global_opts *g)`. argv[0] is "foo"; the rest are the words
 *      after it. Declare a static struct opt_spec table and a struct
 *      opt_cmd (cli/opt.h) and parse with opt_next(): the same table prints
 *      `coreplan foo --help`. Tables take --format md|tsv|csv|json and go
 *      through reports/table_out.h.
 *   2. Return 0, or the negative code of the failure (ERR_DATA, ERR_USAGE)
 *      with its message recorded once by err_set()/err_usage(); never print
 *      the error or exit. main.c prints it and chooses the exit code.
 *      Non-fatal notices go through warn_add(). Data goes to stdout.
 *      Query commands open the database read-only: db_open(g->db_path, true).
 *   3. Declare cmd_foo below and add {"foo", cmd_foo, "one-line
 *      description"} to commands[] in cli/main.c (the description is what
 *      both `coreplan --help` and `coreplan foo --help` show).
 *   4. Add cli/cmd_foo.c to the coreplan executable in CMakeLists.txt and
 *      cover it in the end-to-end tests.
 */
#ifndef COREPLAN_CMD_H
#define COREPLAN_CMD_H

/* Options given before the command name. */
struct global_opts {
	const char *db_path; /* --db, else $COREPLAN_DB, else "coreplan.db" */
};

typedef int (*cmd_fn)(int argc, char **argv, const struct global_opts *g);

int cmd_import(int argc, char **argv, const struct global_opts *g);
int cmd_corpora(int argc, char **argv, const struct global_opts *g);
int cmd_plot(int argc, char **argv, const struct global_opts *g);
int cmd_report(int argc, char **argv, const struct global_opts *g);
int cmd_runs(int argc, char **argv, const struct global_opts *g);
int cmd_compare(int argc, char **argv, const struct global_opts *g);
int cmd_cores(int argc, char **argv, const struct global_opts *g);
int cmd_fit(int argc, char **argv, const struct global_opts *g);
int cmd_memory(int argc, char **argv, const struct global_opts *g);
int cmd_noise(int argc, char **argv, const struct global_opts *g);
int cmd_topology(int argc, char **argv, const struct global_opts *g);
int cmd_translate(int argc, char **argv, const struct global_opts *g);
int cmd_trace(int argc, char **argv, const struct global_opts *g);
int cmd_size(int argc, char **argv, const struct global_opts *g);
int cmd_catalog(int argc, char **argv, const struct global_opts *g);
int cmd_smt(int argc, char **argv, const struct global_opts *g);
int cmd_sweep(int argc, char **argv, const struct global_opts *g);

/* The one-line description of command `name` from main.c's table, or "". */
const char *cmd_description(const char *name);

#endif
