/*
 * mddoc: the command reference in Markdown: docs/commands.md (the index of
 * commands and the global options), written by `coreplan --commands-md`
 * (a hidden global option, like --man), and docs/commands/NAME.md, one
 * page a command, by `coreplan --commands-md NAME` (no file over 1,000
 * lines; scripts/update-commands-md.sh writes them all), from the
 * very tables --help and the man page read: main.c's command table and
 * global options, and each command's opt_cmd collected by
 * cli_each_table(). A test compares them with the committed files, so the
 * reference cannot drift from --help.
 *
 * Per command: a title (coreplan NAME), its one-line
 * description, the usage line, a table of its options (as opt_describe
 * words them: defaults, ranges, choices), its views and its details as a
 * preformatted block (they are laid out for a terminal).
 */
#ifndef COREPLAN_CLI_MDDOC_H
#define COREPLAN_CLI_MDDOC_H

#include "man.h"

#include <stdio.h>

/* The index: 0 (the commands' pages are mddoc_write_command's). */
int mddoc_write(FILE *fp, const struct opt_cmd *global, const struct cli_command *cmds, size_t n,
		const char *version);
/* One command's page; ERR_USAGE listing the commands when none is `name`,
 * ERR_DATA when the command yields no table. */
int mddoc_write_command(FILE *fp, const struct cli_command *cmds, size_t n, const char *name);

#endif
