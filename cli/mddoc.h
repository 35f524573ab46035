/*
 * mddoc: docs/commands.md, the command reference in Markdown, written by
 * `coreplan --commands-md` (a hidden global option, like --man) from the
 * very tables --help and the man page read: main.c's command table and
 * global options, and each command's opt_cmd collected by
 * cli_each_table(). A test compares it with the committed
 * docs/commands.md, so the reference cannot drift from --help.
 *
 * Per command: a heading (its name: GitHub's anchor), its one-line
 * description, the usage line, a table of its options (as opt_describe
 * words them: defaults, ranges, choices), its views and its details as a
 * preformatted block (they are laid out for a terminal).
 */
#ifndef COREPLAN_CLI_MDDOC_H
#define COREPLAN_CLI_MDDOC_H

#include "man.h"

#include <stdio.h>

/* 0, or ERR_DATA with a message when a command yields no table. */
int mddoc_write(FILE *fp, const struct opt_cmd *global, const struct cli_command *cmds, size_t n,
		const char *version);

#endif
