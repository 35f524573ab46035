/*
 * opt: the option parser every command uses, driven by one table per
 * command. Each entry names an option and binds it to the variable it
 * fills (libgit2's cli_opt_spec.value, git's OPT_STRING("name", &var)),
 * with the checks its value must pass, so parsing, validation, --help, the
 * man page and the shell completion all read the same table and cannot
 * drift apart.
 *
 * A command's table is static, bound to the command's static request:
 *
 *	static struct sweep_request req;
 *	static const struct opt_spec specs[] = {
 *		OPT_STRING("by", "FIELD", &req.by, "the level field", .required = true),
 *		OPT_DOUBLE("stop-below", "EFF", &req.stop, "efficiency floor",
 *			   OPT_GT(0), OPT_LE(1)),
 *		OPT_FLAG("lower-is-better", &req.lower, "a smaller metric is better"),
 *		OPT_END,
 *	};
 *	static const struct opt_cmd cmd = {"sweep", NULL, NULL, specs};
 *
 * and opt_parse() fills the targets:
 *
 *	struct opt_parser p;
 *	opt_parser_init(&p, &cmd, argc, argv);     (argv[0] is the command name)
 *	rc = opt_parse(&p);
 *	if (rc == OPT_HELP_SHOWN) ...              (help went to stdout: exit 0)
 *	if (rc < 0) ...                            (usage error recorded)
 *	... p.operands[0 .. p.noperands) are the non-option arguments ...
 *	opt_parser_release(&p);
 *
 * Accepted forms: --name, --name VALUE, --name=VALUE, -x, -x VALUE, -xVALUE;
 * `--` ends the options; `-` alone is an operand. Options and operands may
 * be mixed unless the parser has stop_at_operand (main.c sets it, so that
 * options after the command name belong to the command). --help and -h
 * are always understood. Usage errors (ERR_USAGE, message recorded with
 * err_usage()): an unknown option (with the closest name when one is
 * close: did you mean), a missing value, a value given to a flag, a
 * non-repeatable option given twice, a value outside the option's range or
 * choices, two modes of one target (OPT_MODE), and an option given with
 * the one it .conflicts with. Each message names the option as given.
 */
#ifndef COREPLAN_OPT_H
#define COREPLAN_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf;

enum opt_type {
	OPT_T_FLAG = 1, /* bool: set to true; takes no value */
	OPT_T_MODE,     /* an integer: set to .set; takes no value */
	OPT_T_STRING,   /* const char *: the value itself (it points into argv) */
	OPT_T_INT,      /* an integer of any width: a whole number within the range */
	OPT_T_DOUBLE,   /* double: a finite number within the range */
	OPT_T_CHOICE,   /* an integer (an enum): the value of the choice named */
	OPT_T_LIST,     /* struct strvec: the comma-separated items appended */
	OPT_T_CALL,     /* .call(spec, text): anything else, spec->value its context */
};

/* A range end: none, or the value itself allowed (>=, <=) or not (>, <). */
enum opt_bound { OPT_NO_BOUND = 0, OPT_INCL, OPT_EXCL };

/* One name of an OPT_T_CHOICE; a table of them ends with {NULL}. */
struct opt_choice {
	const char *name;
	int value; /* a later name with an earlier value is an alias: accepted, not listed */
};

struct opt_spec {
	const char *name; /* long name without "--"; NULL ends the table */
	char short_name;  /* 0: none */
	const char *arg;  /* placeholder such as "NAME"; NULL: a flag or mode */
	const char *help; /* one line, lowercase, no trailing period */
	bool repeatable;  /* may be given several times */
	bool required;    /* the runner refuses a command line without it */
	enum opt_type type;
	void *value;         /* the target, of the type's kind */
	unsigned char width; /* OPT_T_INT, OPT_T_MODE, OPT_T_CHOICE: sizeof the target */
	bool is_signed;      /* OPT_T_INT: the target's signedness */
	bool *given;         /* NULL, or set to true when the option is given */
	bool nonempty;       /* OPT_T_STRING: "" is refused */
	const char *noun;    /* in messages: "--x needs NOUN" ("a number", "a host name") */
	double lo, hi;       /* OPT_T_INT, OPT_T_DOUBLE: the range, with ... */
	enum opt_bound lo_kind, hi_kind;
	const struct opt_choice *choices; /* OPT_T_CHOICE */
	int set;                          /* OPT_T_MODE: the value it sets */
	int (*call)(const struct opt_spec *spec, const char *text); /* OPT_T_CALL: 0 or an error */
	const char *conflicts; /* NULL, or the long name of an option not to combine with */
	bool hidden;           /* parsed, but not in --help, the man page or completion */
};

/*
 * The table entries. target is the address of the variable; the variadic
 * part is the help text, optionally followed by designated initializers
 * (.required = true, .given = &has_x, .noun = "a factor", OPT_GT(0), ...).
 * OPT_CHECK makes a target of the wrong type a compile-time error.
 */
#define OPT_CHECK(type, target) ((void *)(1 ? (target) : (type *)0))
#define OPT_INT_SIGNED(target)                                                                     \
	_Generic((target), int *: true, long *: true, long long *: true, unsigned *: false,        \
		 unsigned long *: false, unsigned long long *: false)

#define OPT_FLAG(n, target, ...)                                                                   \
	{                                                                                          \
		.name = (n), .type = OPT_T_FLAG, .value = OPT_CHECK(bool, target),                 \
		.help = __VA_ARGS__                                                                \
	}
#define OPT_MODE(n, target, v, ...)                                                                \
	{                                                                                          \
		.name = (n), .type = OPT_T_MODE, .value = (target), .width = sizeof(*(target)),    \
		.set = (v), .help = __VA_ARGS__                                                    \
	}
#define OPT_STRING(n, a, target, ...)                                                              \
	{                                                                                          \
		.name = (n), .arg = (a), .type = OPT_T_STRING,                                     \
		.value = OPT_CHECK(const char *, target), .help = __VA_ARGS__                      \
	}
#define OPT_INT(n, a, target, ...)                                                                 \
	{                                                                                          \
		.name = (n), .arg = (a), .type = OPT_T_INT, .value = (target),                     \
		.width = sizeof(*(target)), .is_signed = OPT_INT_SIGNED(target),                   \
		.help = __VA_ARGS__                                                                \
	}
#define OPT_DOUBLE(n, a, target, ...)                                                              \
	{                                                                                          \
		.name = (n), .arg = (a), .type = OPT_T_DOUBLE, .value = OPT_CHECK(double, target), \
		.help = __VA_ARGS__                                                                \
	}
#define OPT_CHOICE(n, a, target, list, ...)                                                        \
	{                                                                                          \
		.name = (n), .arg = (a), .type = OPT_T_CHOICE, .value = (target),                  \
		.width = sizeof(*(target)), .choices = (list), .help = __VA_ARGS__                 \
	}
#define OPT_LIST(n, a, target, ...)                                                                \
	{                                                                                          \
		.name = (n), .arg = (a), .type = OPT_T_LIST,                                       \
		.value = OPT_CHECK(struct strvec, target), .help = __VA_ARGS__                     \
	}
#define OPT_CALL(n, a, fn, ctx, ...)                                                               \
	{                                                                                          \
		.name = (n), .arg = (a), .type = OPT_T_CALL, .call = (fn), .value = (ctx),         \
		.help = __VA_ARGS__                                                                \
	}
#define OPT_END                                                                                    \
	{                                                                                          \
		NULL                                                                               \
	}

/* Range ends, for OPT_INT and OPT_DOUBLE: OPT_GT(0), OPT_LE(1) is 0 < x <= 1. */
#define OPT_GT(x) .lo = (x), .lo_kind = OPT_EXCL
#define OPT_GE(x) .lo = (x), .lo_kind = OPT_INCL
#define OPT_LT(x) .hi = (x), .hi_kind = OPT_EXCL
#define OPT_LE(x) .hi = (x), .hi_kind = OPT_INCL

struct opt_cmd {
	const char *name;     /* "runs"; used in help and in the hint of errors */
	const char *operands; /* after the options in the usage line ("PATH..."), or NULL */
	const char *details;  /* paragraphs printed after the options, or NULL */
	const struct opt_spec *specs;
	/* the document's table views, NULL-terminated, the default first; or NULL */
	const char *const *views;
	/* the words an operand may be (plot's kinds), NULL-terminated, for completion; or NULL */
	const char *const *operand_words;
};

enum {
	OPT_DONE = 0,       /* no more options */
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
/*
 * Parse the options up to the end (or, with stop_at_operand, the first
 * operand: p->next), filling each target: OPT_DONE, OPT_HELP_SHOWN or
 * ERR_USAGE. Required options are the caller's to check (opt_count).
 */
int opt_parse(struct opt_parser *p);
/* How many times the option at index `which` of the table was given. */
unsigned int opt_count(const struct opt_parser *p, int which);
void opt_parser_release(struct opt_parser *p);

/*
 * Apply one value to one option, as if it were given as --name=text
 * (report --config applies size's table this way): 0 or a usage error
 * naming --name. A flag or mode takes text NULL.
 */
int opt_apply(const struct opt_spec *spec, const char *text);
/*
 * A `key = value` line of a config file applied to the option `key`: as
 * opt_apply, except that a flag takes "yes" (set) or "no" (cleared).
 */
int opt_apply_word(const struct opt_spec *spec, const char *text);
/* The entry of long name `name`, or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *specs, const char *name);

/*
 * What the value must be, as --help and the man page state it:
 * "0 < F <= 1", "N >= 1", "md|tsv|csv|json|html"; "" for none.
 */
void opt_constraint(const struct opt_spec *s, char *buf, size_t size);
/* The help text with its constraint, required and repeatable notes. */
int opt_describe(const struct opt_spec *s, struct strbuf *sb);

/*
 * Release what the table's targets own (OPT_T_LIST vectors): a command
 * calls it once its run is over.
 */
void opt_release_targets(const struct opt_spec *specs);

/* The "usage: coreplan CMD [--x X]... OPERANDS" line. */
void opt_print_usage(FILE *fp, const struct opt_cmd *cmd);
/* The aligned option list (with -h, --help). */
void opt_print_options(FILE *fp, const struct opt_spec *specs);
/*
 * The views of --help, the man page and docs/commands.md: "a (default), b,
 * facts (every named value: ...)", each name written by put_name (plain,
 * in roff bold, in Markdown code).
 */
void opt_print_view_list(FILE *fp, const char *const *views,
			 void (*put_name)(FILE *fp, const char *name));
/* Usage, the command's one-line description, options and details. */
void opt_print_help(FILE *fp, const struct opt_cmd *cmd);

/*
 * When set, --help hands the command's table to this function instead of
 * printing it (opt_parse still returns OPT_HELP_SHOWN): cli/man.c and the
 * completion generator collect every command's table this way, so the man
 * page and the completion come from the same specs, details and views that
 * --help prints. NULL (the default): print.
 */
extern void (*opt_help_hook)(const struct opt_cmd *cmd);
/*
 * A command's one-line description for help, by its name ("" or NULL:
 * none). The command table is cli/main.c's, which sets this at start-up:
 * the parser knows no command table of its own.
 */
extern const char *(*opt_command_description)(const char *name);

#endif
