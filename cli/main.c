/*
 * main: global options, the one command table, and the only place that
 * prints errors and chooses the exit code (0 success, 1 data or runtime
 * error, 2 usage error).
 */
#include "cmd.h"
#include "common.h"
#include "man.h"
#include "mddoc.h"
#include "opt.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../common/suggest.h"
#include "../doc/doc.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

#define DEFAULT_DB CLI_DEFAULT_DB

/* The command table: --help, dispatch and the man page (cli/man.h) all read it. */
static const struct cli_command commands[] = {
	{"import", NULL, &cli_import, "import corpus folders or run tables into the database"},
	{"corpora", NULL, &cli_corpora, "list the imported corpora with their counts"},
	{"plot", NULL, &cli_plot, "draw one plot: scaling, blocks, trace or memory (gnuplot)"},
	{"report", NULL, &cli_report,
	 "the whole write-up: report.md with tables, verdicts and plots"},
	{"runs", cmd_runs, NULL, "list runs with their canonical fields, filtered"},
	{"compare", NULL, &cli_compare,
	 "two arms: ratio with interval, rank test, verdict, runs needed"},
	{"cores", NULL, &cli_cores,
	 "CPU cores recomputed from each run's trace plateau, tick-rate check"},
	{"fit", NULL, &cli_fit, "scaling models: USL, Amdahl and power law with standard errors"},
	{"memory", NULL, &cli_memory,
	 "memory per session: OLS slope across levels, endpoints, contrast"},
	{"noise", NULL, &cli_noise,
	 "block agreement, run order, first-run bursts and a noise verdict"},
	{"topology", NULL, &cli_topology,
	 "record and show hosts' CPU topology (cores, SMT siblings)"},
	{"translate", NULL, &cli_translate,
	 "carry figures between CPUs: per-core, CPU-time and memory factors"},
	{"trace", NULL, &cli_trace,
	 "one run's trace rows with the plateau and driver windows marked"},
	{"size", NULL, &cli_size, "which instance meets a target, counted in physical cores"},
	{"catalog", NULL, &cli_catalog,
	 "store instance catalogs in the database; list instances, families"},
	{"smt", NULL, &cli_smt,
	 "what a second hardware thread on a core is worth; the hardware ceiling"},
	{"sweep", NULL, &cli_sweep, "per-level medians, ranges, speedup and scaling of a sweep"},
	{"binders", NULL, &cli_binders,
	 "what binds a load sweep: each resource against its capacity"},
	{"levers", NULL, &cli_levers, "what each one-factor change is worth, level by level"},
	{"help", cmd_help, NULL, "the commands, or one command's options (as COMMAND --help)"},
	{"completion", cmd_completion, NULL,
	 "bash or zsh completion, generated from the option tables"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const char *cmd_description(const char *name)
{
	const struct cli_command *c = name ? cli_find_command(name) : NULL;
	return c ? c->description : "";
}

int cli_command_run(const struct cli_command *c, int argc, char **argv, const struct global_opts *g)
{
	return c->fn ? c->fn(argc, argv, g) : cli_run(c->def, argc, argv, g);
}

const struct cli_command *cli_commands(size_t *n)
{
	*n = NCOMMANDS;
	return commands;
}

const struct cli_command *cli_find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int cli_unknown_command(const char *name)
{
	struct suggest near;
	suggest_init(&near, name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		suggest_offer(&near, commands[i].name);
	if (suggest_best(&near))
		return err_usage("unknown command '%s' (did you mean '%s'?)", name,
				 suggest_best(&near));
	return err_usage("unknown command '%s' (coreplan help lists the commands)", name);
}

static struct global_opts g;
static bool show_version;

static const struct opt_spec global_specs[] = {
	OPT_STRING("db", "FILE", &g.db_path,
		   "the database (default: $COREPLAN_DB, else " DEFAULT_DB ")", .nonempty = true,
		   .noun = "a file name"),
	OPT_FLAG("version", &show_version, "print the version and exit"),
	OPT_END,
};

static struct strbuf global_text = STRBUF_INIT;
static struct opt_cmd global = {NULL, "COMMAND [ARGS...]", NULL, global_specs};

/* The global help names every command, so it is built from the table. */
static int global_details(struct strbuf *sb)
{
	size_t width = 0;
	int bad = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strlen(commands[i].name) > width)
			width = strlen(commands[i].name);
	bad |= strbuf_adds(sb, "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		bad |= strbuf_addf(sb, "  %-*s  %s\n", (int)width, commands[i].name,
				   commands[i].description);
	bad |= strbuf_adds(
		sb,
		"\nRun 'coreplan help COMMAND' (or 'coreplan COMMAND --help') for the options of "
		"a\n"
		"command.\n"
		"Data goes to standard output; progress, warnings and errors to standard error.\n"
		"\n" CLI_HELP_EXIT_STATUS "\n" CLI_HELP_ENVIRONMENT);
	return bad ? err_set("out of memory") : 0;
}

const struct opt_cmd *cli_global(void)
{
	if (!global.details && global_details(&global_text) == 0)
		global.details = strbuf_str(&global_text);
	return &global;
}

/*
 * Parse the global options and run the command. *cmd_name is set once the
 * command is known, for the hint after a usage error.
 */
static int run(int argc, char **argv, const char **cmd_name)
{
	struct opt_parser p;
	const struct cli_command *cmd;
	const char *env;
	int rc;
	memset(&p, 0, sizeof(p));
	if (!cli_global()->details)
		return err_set("out of memory");
	/* hidden: the man page, from the same tables (cli/man.h; CMake runs it) */
	if (argc == 2 && strcmp(argv[1], "--man") == 0)
		return man_write(stdout, &global, commands, NCOMMANDS, COREPLAN_VERSION);
	/* hidden: docs/commands.md and docs/commands/NAME.md, from the same tables (cli/mddoc.h; a test compares) */
	if (argc == 2 && strcmp(argv[1], "--commands-md") == 0)
		return mddoc_write(stdout, &global, commands, NCOMMANDS, COREPLAN_VERSION);
	if (argc == 3 && strcmp(argv[1], "--commands-md") == 0)
		return mddoc_write_command(stdout, commands, NCOMMANDS, argv[2]);
	rc = opt_parser_init(&p, &global, argc, argv);
	if (rc)
		goto done;
	p.stop_at_operand = true;
	rc = opt_parse(&p);
	if (rc == 0 && show_version) {
		printf("coreplan %s\n", COREPLAN_VERSION);
		goto done;
	}
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	if (p.next >= argc) {
		opt_print_usage(stderr, &global);
		rc = err_usage("no command given (see coreplan --help)");
		goto done;
	}
	cmd = cli_find_command(argv[p.next]);
	if (!cmd) {
		rc = cli_unknown_command(argv[p.next]);
		goto done;
	}
	*cmd_name = cmd->name;
	if (!g.db_path) {
		env = getenv("COREPLAN_DB");
		g.db_path = env && *env ? env : DEFAULT_DB;
	}
	rc = cli_command_run(cmd, argc - p.next, argv + p.next, &g);
	if (rc > 0) /* commands return 0 or a negative code; be safe */
		rc = 0;
done:
	opt_parser_release(&p);
	return rc;
}

/*
 * A message to stderr: it may quote corpus text (a tag, a value), so what
 * a terminal must not get (ESC, other controls, invalid UTF-8) is \xNN.
 */
static void put_message(const char *kind, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	if (doc_term_escape(&sb, text, NULL) == 0)
		text = strbuf_str(&sb);
	else
		text = "(message lost: out of memory)";
	fprintf(stderr, "coreplan: %s: %s\n", kind, text);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	const char *cmd_name = NULL;
	int out_failed;
	int out_errno = 0;
	int rc;

	/* A closed pipe must surface as a failed write (EPIPE), not kill us silently. */
	signal(SIGPIPE, SIG_IGN);
	/* GSL must report errors through return codes, never abort(). */
	gsl_set_error_handler_off();
	opt_command_description = cmd_description;

	rc = run(argc, argv, &cmd_name);
	strbuf_release(&global_text);

	errno = 0;
	out_failed = fflush(stdout) != 0 || ferror(stdout);
	if (out_failed)
		out_errno = errno ? errno : EIO;

	for (size_t i = 0; i < warn_count(); i++)
		put_message("warning", warn_get(i));
	warn_clear();

	if (rc < 0) {
		put_message("error", *err_msg() ? err_msg() : "failed");
		if (rc == ERR_USAGE)
			fprintf(stderr, "coreplan: see 'coreplan%s%s --help'\n",
				cmd_name ? " " : "", cmd_name ? cmd_name : "");
	}
	errno = 0;
	if (fclose(stdout) != 0 && !out_failed) {
		out_failed = 1;
		out_errno = errno ? errno : EIO;
	}
	/* a reader that stopped early (`| head`) is not worth a message */
	if (out_failed && rc >= 0 && out_errno != EPIPE)
		fprintf(stderr, "coreplan: error: cannot write to standard output: %s\n",
			strerror(out_errno));
	if (rc == ERR_USAGE)
		return 2;
	if (rc < 0 || out_failed)
		return 1;
	return 0;
}
