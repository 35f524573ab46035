/*
 * man: the manual page coreplan.1, written in roff by `coreplan --man`
 * (a hidden global option; CMake runs it at build time and installs the
 * result) from the very tables --help prints: main.c's command table and
 * global options, and each command's opt_cmd (specs, views, details),
 * collected by running the command with --help under opt_help_hook. A
 * change to an option, a view or a help text changes both, so they cannot
 * drift.
 *
 * Sections: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (the global ones),
 * COMMANDS (one subsection per command: usage, description, options,
 * views, details), FILES, ENVIRONMENT, EXIT STATUS, SEE ALSO. Text is
 * escaped for roff: backslashes, hyphens (\-), and a '.' or '\'' that
 * would start a line; details keep their layout (no-fill).
 */
#ifndef COREPLAN_CLI_MAN_H
#define COREPLAN_CLI_MAN_H

#include "cmd.h"
#include "opt.h"

#include <stddef.h>
#include <stdio.h>

/* The database when neither --db nor $COREPLAN_DB names one. */
#define CLI_DEFAULT_DB "coreplan.db"

/* One entry of main.c's command table: a function, or a definition cli_run() runs. */
struct cli_command {
	const char *name;
	cmd_fn fn;                 /* NULL: def */
	const struct cli_def *def; /* cli/common.h */
	const char *description;
};

/* Run the command c names (its fn, else cli_run with its def). */
int cli_command_run(const struct cli_command *c, int argc, char **argv,
		    const struct global_opts *g);

/* main.c's command table, one command of it (NULL: none), and its global options. */
const struct cli_command *cli_commands(size_t *n);
const struct cli_command *cli_find_command(const char *name);
const struct opt_cmd *cli_global(void);
/* The usage error for a command that does not exist, with the closest name if one is close. */
int cli_unknown_command(const char *name);

/*
 * Call visit with each command's option table, collected by running the
 * command with "--help" under opt_help_hook (no database is opened; a
 * table on the command's stack is alive during the call). The man page
 * and the completion scripts are written this way. 0, or ERR_DATA when a
 * command shows no table.
 */
int cli_each_table(const struct cli_command *cmds, size_t n,
		   void (*visit)(const struct cli_command *c, const struct opt_cmd *cmd, void *arg),
		   void *arg);

/*
 * The text both `coreplan --help` and the man page show for the exit
 * status and the environment: a heading line, then "  TERM  meaning"
 * lines (the man page makes each a tagged paragraph).
 */
#define CLI_HELP_EXIT_STATUS                                                                       \
	"exit status:\n"                                                                           \
	"  0  success\n"                                                                           \
	"  1  data or runtime error (bad input, database or output failure)\n"                     \
	"  2  usage error (unknown command or option, malformed argument)\n"
#define CLI_HELP_ENVIRONMENT                                                                       \
	"environment:\n"                                                                           \
	"  COREPLAN_DB           the database when --db is not given (default: " CLI_DEFAULT_DB    \
	" in the current folder)\n"                                                                \
	"  COREPLAN_CATALOG_DIR  the folder of the shipped instance catalogs (default: beside\n"   \
	"                        the executable, ../share/coreplan/catalogs, else the source\n"    \
	"                        tree's fixtures/catalogs)\n"

/*
 * Write the page to fp. global is main.c's option table (its specs), cmds
 * the command table; each command is run with "--help" under
 * opt_help_hook to get its table (no database is opened). 0, or ERR_DATA
 * with a message when a command yields no table or the write fails.
 */
int man_write(FILE *fp, const struct opt_cmd *global, const struct cli_command *cmds, size_t n,
	      const char *version);

#endif
