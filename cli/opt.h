/*
 * opt: the option parser every command uses, driven by one table per
 * command that also prints `coreplan COMMAND --help`, so parsing and help
 * cannot drift apart.
 *
 * A command declares its options as a static array of struct opt_spec,
 * ended by an entry whose name is NULL, usually indexed by an enum so the
 * parse loop can switch on the index:
 *
 *	enum { OPT_CORPUS, OPT_FORMAT };
 *	static const struct opt_spec specs[] = {
 *		[OPT_CORPUS] = {"corpus", 0, "NAME", "only runs of corpus NAME", false},
 *		[OPT_FORMAT] = {"format", 'f', "F", "md, tsv, csv or json (default md)", false},
 *		{NULL, 0, NULL, NULL, false},
 *	};
 *	static const struct opt_cmd cmd = {"runs", NULL, NULL, specs};
 *
 * and parses with
 *
 *	struct opt_parser p;
 *	opt_parser_init(&p, &cmd, argc, argv);    (argv[0] is the command name)
 *	while ((rc = opt_next(&p, &which, &value)) == OPT_FOUND)
 *		switch (which) { ... }
 *	if (rc == OPT_HELP_SHOWN) { rc = 0; goto done; }  (help went to stdout)
 *	if (rc < 0) goto done;                            (usage error recorded)
 *	... p.operands[0 .. p.noperands) are the non-option arguments ...
 *	opt_parser_release(&p);
 *
 * Accepted forms: --name, --name VALUE, --name=VALUE, -x, -x VALUE, -xVALUE;
 * `--` ends the options; `-` alone is an operand. Options and operands may
 * be mixed unless the command sets stop_at_operand (main.c does, so that
 * options after the command name belong to the command). --help and -h
 * are always understood. An unknown option, a missing value, a value given
 * to a flag, and a non-repeatable option given twice are usage errors
 * (ERR_USAGE, message recorded with err_usage()).
 */
#ifndef COREPLAN_OPT_H
#define COREPLAN_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct opt_spec {
	const char *name; /* long name without "--"; NULL ends the table */
	char short_name;  /* 0: none */
	const char *arg;  /* placeholder such as "NAME"; NULL: a flag */
	const char *help; /* one line, lowercase, no trailing period */
	bool repeatable;  /* may be given several times */
	int common;       /* 0: the command's own; else a CLI_OPT_* code the runner handles */
	bool required;    /* the runner refuses a command line without it */
};

struct opt_cmd {
	const char *name;     /* "runs"; used in help and in the hint of errors */
	const char *operands; /* after the options in the usage line ("PATH..."), or NULL */
	const char *details;  /* paragraphs printed after the options, or NULL */
	const struct opt_spec *specs;
	/* the document's table views, NULL-terminated, the default first; or NULL */
	const char *const *views;
};

enum {
	OPT_DONE = 0,       /* no more options */
	OPT_FOUND = 1,      /* *which and *value are set */
	OPT_HELP_SHOWN = 2, /* --help: help was printed to stdout; exit 0 */
};

#define OPT_MAX_SPECS 64

struct opt_parser {
	const struct opt_cmd *cmd;
	int argc;
	char **argv;
	int next;
	bool only_operands;
	bool stop_at_operand;
	unsigned int seen[OPT_MAX_SPECS];
	char **operands; /* points into argv */
	size_t noperands;
};

/* Returns 0, or ERR_DATA when out of memory. */
int opt_parser_init(struct opt_parser *p, const struct opt_cmd *cmd, int argc, char **argv);
/* OPT_FOUND, OPT_DONE, OPT_HELP_SHOWN, or ERR_USAGE. */
int opt_next(struct opt_parser *p, int *which, const char **value);
/* How many times option `which` was given so far. */
unsigned int opt_count(const struct opt_parser *p, int which);
void opt_parser_release(struct opt_parser *p);

/* The "usage: coreplan CMD [--x X]... OPERANDS" line. */
void opt_print_usage(FILE *fp, const struct opt_cmd *cmd);
/* The aligned option list (with -h, --help). */
void opt_print_options(FILE *fp, const struct opt_spec *specs);
/* Usage, the command's one-line description, options and details. */
void opt_print_help(FILE *fp, const struct opt_cmd *cmd);

/*
 * When set, --help hands the command's table to this function instead of
 * printing it (opt_next still returns OPT_HELP_SHOWN): cli/man.c collects
 * every command's table this way to write the man page from the same
 * specs, details and views that --help prints. NULL (the default): print.
 */
extern void (*opt_help_hook)(const struct opt_cmd *cmd);

#endif
