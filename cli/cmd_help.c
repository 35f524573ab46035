/*
 * cmd_help: `coreplan help [COMMAND]` (what --help prints, for the program
 * or one command) and `coreplan completion SHELL` (cli/complete.h). Neither
 * opens the database.
 */
#include "cmd.h"
#include "complete.h"
#include "man.h"
#include "opt.h"

#include "../common/err.h"

#include <stdio.h>

static const struct opt_spec no_options[] = {OPT_END};

/* Parse argv against cmd: OPT_HELP_SHOWN, a usage error, or 0 with the operands in p. */
static int parse(const struct opt_cmd *cmd, int argc, char **argv, struct opt_parser *p)
{
	int rc = opt_parser_init(p, cmd, argc, argv);
	return rc ? rc : opt_parse(p);
}

int cmd_help(int argc, char **argv, const struct global_opts *g)
{
	static const struct opt_cmd cmd = {
		"help", "[COMMAND]",
		"Without COMMAND: the commands and the global options, as `coreplan --help`.\n"
		"With COMMAND: its usage, options, views and details, as `coreplan COMMAND\n"
		"--help`; a misspelt COMMAND is an error naming the closest one.\n",
		no_options};
	struct opt_parser p;
	const struct cli_command *c = NULL;
	char help[] = "--help";
	int rc = parse(&cmd, argc, argv, &p);
	if (rc == 0 && p.noperands > 1)
		rc = err_usage("help takes one COMMAND, got %zu words", p.noperands);
	if (rc == 0 && p.noperands == 1 && !(c = cli_find_command(p.operands[0])))
		rc = cli_unknown_command(p.operands[0]);
	if (rc == 0 && !c)
		opt_print_help(stdout, cli_global());
	if (rc == 0 && c) {
		char *words[] = {p.operands[0], help, NULL};
		rc = cli_command_run(c, 2, words, g);
	}
	opt_parser_release(&p);
	return rc == OPT_HELP_SHOWN ? 0 : rc;
}

int cmd_completion(int argc, char **argv, const struct global_opts *g)
{
	static const char *const shells[] = {"bash", "zsh", NULL};
	static const struct opt_cmd cmd = {
		"completion",
		"SHELL",
		"Writes the completion script for SHELL (bash or zsh) to standard output,\n"
		"generated from the option tables --help prints: commands, options, an\n"
		"option's choices (--format md ...), field names for --by, --metric, --group\n"
		"and FIELD= for --where, file names for FILE and DIR. `cmake --install` puts\n"
		"both where the shells look: share/bash-completion/completions/coreplan and\n"
		"share/zsh/site-functions/_coreplan.\n"
		"\n"
		"examples:\n"
		"  source <(coreplan completion bash)\n"
		"  coreplan completion zsh > ~/.zfunc/_coreplan   # a folder on $fpath\n",
		no_options,
		NULL,
		shells};
	struct opt_parser p;
	int rc = parse(&cmd, argc, argv, &p);
	(void)g;
	if (rc == 0 && p.noperands != 1)
		rc = err_usage("completion needs one SHELL: bash or zsh");
	if (rc == 0)
		rc = complete_write(stdout, p.operands[0]);
	opt_parser_release(&p);
	return rc == OPT_HELP_SHOWN ? 0 : rc;
}
