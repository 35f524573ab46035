/* complete: see complete.h. */
#include "complete.h"

#include "man.h"
#include "opt.h"

#include "../common/err.h"
#include "../schema/fields.h"

#include <stdbool.h>
#include <string.h>

/* What an option's value (or an operand) completes to. */
enum value_kind {
	VALUE_NONE,   /* a number or a free name: nothing to offer */
	VALUE_WORDS,  /* the choices of the option */
	VALUE_FILE,   /* a file name */
	VALUE_DIR,    /* a folder */
	VALUE_FIELD,  /* one field name */
	VALUE_FIELDS, /* field names separated by commas */
	VALUE_WHERE,  /* FIELD= (the value is the user's) */
};

/*
 * Each kind as the bash script's _coreplan_value takes it and as a zsh
 * action; a list of words follows the bash spelling, and stands between
 * the zsh one's parentheses.
 */
static const struct {
	const char *bash, *zsh;
} value_spelling[] = {
	[VALUE_NONE] = {"none", " "},
	[VALUE_WORDS] = {"words:", "("},
	[VALUE_FILE] = {"file", "_files"},
	[VALUE_DIR] = {"dir", "_files -/"},
	[VALUE_FIELD] = {"field", "_coreplan_field"},
	[VALUE_FIELDS] = {"fields", "_coreplan_fieldlist"},
	[VALUE_WHERE] = {"where", "_coreplan_where"},
};

static enum value_kind value_kind(const struct opt_spec *s, const struct opt_cmd *cmd)
{
	const char *a = s->arg;
	if (s->type == OPT_T_CHOICE || (!strcmp(s->name, "view") && cmd && cmd->views))
		return VALUE_WORDS;
	if (!a)
		return VALUE_NONE;
	if (strstr(a, "FILE") || strstr(a, "PATH"))
		return VALUE_FILE;
	if (strstr(a, "DIR"))
		return VALUE_DIR;
	if (!strncmp(a, "FIELD=", 6) || !strcmp(a, "WHERE"))
		return VALUE_WHERE;
	if (!strcmp(a, "FIELD"))
		return VALUE_FIELD;
	if (!strncmp(a, "F1[", 3))
		return VALUE_FIELDS;
	return VALUE_NONE;
}

/* A choice's names without its aliases, or --view's views (and facts), separated by spaces. */
static void value_words(FILE *fp, const struct opt_spec *s, const struct opt_cmd *cmd)
{
	const struct opt_choice *c = s->choices;
	if (s->type != OPT_T_CHOICE) {
		for (size_t i = 0; cmd->views[i]; i++)
			fprintf(fp, "%s ", cmd->views[i]);
		fputs("facts", fp);
		return;
	}
	for (size_t i = 0; c[i].name; i++) {
		bool alias = false;
		for (size_t j = 0; j < i; j++)
			alias |= c[j].value == c[i].value;
		if (!alias)
			fprintf(fp, "%s%s", i ? " " : "", c[i].name);
	}
}

/* What the operands complete to: "files", "commands", "words" (operand_words) or none. */
static const char *operand_kind(const struct opt_cmd *cmd)
{
	if (!cmd->operands)
		return "";
	if (cmd->operand_words)
		return "words";
	if (strstr(cmd->operands, "COMMAND"))
		return "commands";
	if (strstr(cmd->operands, "PATH") || strstr(cmd->operands, "FILE"))
		return "files";
	return "";
}

static void field_names(FILE *fp, const char *sep)
{
	static const char *const pseudo[] = {"corpus", "subcorpus", "tag"};
	for (size_t i = 0; i < field_canonical_count; i++)
		fprintf(fp, "%s%s", i ? sep : "", field_canonical[i].name);
	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		fprintf(fp, "%s%s", sep, pseudo[i]);
}

/* ---- bash ---- */

static const char bash_helpers[] =
	"# COMPREPLY: the words of $1 that start with $2, each as $3WORD$4\n"
	"_coreplan_words() {\n"
	"\tlocal IFS=$' \\t\\n' w\n"
	"\tCOMPREPLY=()\n"
	"\tfor w in $1; do\n"
	"\t\t[[ $w == \"$2\"* ]] && COMPREPLY+=(\"$3$w$4\")\n"
	"\tdone\n"
	"}\n"
	"\n"
	"# COMPREPLY: the files (or with -d the folders) whose names start with $1\n"
	"_coreplan_files() {\n"
	"\tlocal IFS=$'\\n'\n"
	"\tcompopt -o filenames 2>/dev/null\n"
	"\tCOMPREPLY=($(compgen \"${2:--f}\" -- \"$1\"))\n"
	"}\n"
	"\n"
	"# a value of kind $1 (words:LIST, file, dir, field, fields, where) for $2\n"
	"_coreplan_value() {\n"
	"\tcase $1 in\n"
	"\twords:*) _coreplan_words \"${1#words:}\" \"$2\" ;;\n"
	"\tfile) _coreplan_files \"$2\" ;;\n"
	"\tdir) _coreplan_files \"$2\" -d ;;\n"
	"\tfield) _coreplan_words \"$_coreplan_fields\" \"$2\" ;;\n"
	"\tfields)\n"
	"\t\tlocal pre=\n"
	"\t\t[[ $2 == *,* ]] && pre=${2%,*},\n"
	"\t\t_coreplan_words \"$_coreplan_fields\" \"${2##*,}\" \"$pre\"\n"
	"\t\tcompopt -o nospace 2>/dev/null ;;\n"
	"\twhere)\n"
	"\t\t_coreplan_words \"$_coreplan_fields\" \"$2\" '' =\n"
	"\t\tcompopt -o nospace 2>/dev/null ;;\n"
	"\tesac\n"
	"}\n"
	"\n";

static void bash_value(FILE *fp, const struct opt_spec *s, const struct opt_cmd *cmd)
{
	enum value_kind kind = value_kind(s, cmd);
	fputs(value_spelling[kind].bash, fp);
	if (kind == VALUE_WORDS)
		value_words(fp, s, cmd);
}

/* `case $prev in` arms: one per option that takes a value. */
static void bash_value_arms(FILE *fp, const struct opt_cmd *cmd, const char *indent)
{
	for (const struct opt_spec *s = cmd->specs; s->name; s++) {
		if (!s->arg || s->hidden)
			continue;
		fprintf(fp, "%s--%s", indent, s->name);
		if (s->short_name)
			fprintf(fp, "|-%c", s->short_name);
		fputs(") _coreplan_value '", fp);
		bash_value(fp, s, cmd);
		fputs("' \"$cur\"; return ;;\n", fp);
	}
}

static void bash_options(FILE *fp, const struct opt_spec *specs)
{
	for (const struct opt_spec *s = specs; s->name; s++)
		if (!s->hidden)
			fprintf(fp, "--%s ", s->name);
	fputs("--help", fp);
}

static void bash_command(const struct cli_command *c, const struct opt_cmd *cmd, void *arg)
{
	FILE *fp = arg;
	const char *operands = operand_kind(cmd);
	fprintf(fp, "\t%s)\n\t\topts='", c->name);
	bash_options(fp, cmd->specs);
	fputs("'\n\t\toperand='", fp);
	if (!strcmp(operands, "words")) {
		fputs("words:", fp);
		for (size_t i = 0; cmd->operand_words[i]; i++)
			fprintf(fp, "%s%s", i ? " " : "", cmd->operand_words[i]);
	} else {
		fputs(!strcmp(operands, "files") ? "file" : operands, fp);
	}
	fputs("'\n\t\tcase $prev in\n", fp);
	bash_value_arms(fp, cmd, "\t\t");
	fputs("\t\tesac\n\t\t;;\n", fp);
}

static int write_bash(FILE *fp)
{
	size_t n;
	const struct cli_command *cmds = cli_commands(&n);
	const struct opt_cmd *global = cli_global();
	int rc;
	fputs("# bash completion for coreplan, written by `coreplan completion bash` from the\n"
	      "# option tables --help prints: do not edit, regenerate. Try it with\n"
	      "#   source <(coreplan completion bash)\n\n",
	      fp);
	fputs("_coreplan_fields='", fp);
	field_names(fp, " ");
	fputs("'\n_coreplan_commands='", fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s%s", i ? " " : "", cmds[i].name);
	fputs("'\n\n", fp);
	fputs(bash_helpers, fp);
	fputs("_coreplan() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= opts= operand= i\n"
	      "\tCOMPREPLY=()\n"
	      "\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\t# --opt=value: bash splits the word at '=' (COMP_WORDBREAKS)\n"
	      "\tif [[ $cur == = ]]; then\n"
	      "\t\tcur=\n"
	      "\telif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n"
	      "\tfi\n"
	      "\t# the command: the first word after the global options and their values\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n",
	      fp);
	for (const struct opt_spec *s = global->specs; s->name; s++)
		if (s->arg)
			fprintf(fp,
				"\t\t--%s) ((i++)); [[ ${COMP_WORDS[i]} == = ]] && ((i++)) ;;\n",
				s->name);
	fputs("\t\t-*) ;;\n"
	      "\t\t*) cmd=${COMP_WORDS[i]}; break ;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\tif [[ -z $cmd ]]; then\n"
	      "\t\tcase $prev in\n",
	      fp);
	bash_value_arms(fp, global, "\t\t");
	fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then\n\t\t\t_coreplan_words '", fp);
	bash_options(fp, global->specs);
	fputs("' \"$cur\"\n"
	      "\t\telse\n"
	      "\t\t\t_coreplan_words \"$_coreplan_commands\" \"$cur\"\n"
	      "\t\tfi\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase $cmd in\n",
	      fp);
	rc = cli_each_table(cmds, n, bash_command, fp);
	fputs("\t*) return ;;\n"
	      "\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\t_coreplan_words \"$opts\" \"$cur\"\n"
	      "\telif [[ $operand == commands ]]; then\n"
	      "\t\t_coreplan_words \"$_coreplan_commands\" \"$cur\"\n"
	      "\telif [[ -n $operand ]]; then\n"
	      "\t\t_coreplan_value \"$operand\" \"$cur\"\n"
	      "\tfi\n"
	      "}\n"
	      "\n"
	      "complete -F _coreplan coreplan\n",
	      fp);
	return rc;
}

/* ---- zsh ---- */

/*
 * Text inside a single-quoted _arguments spec: ' closes the quote; in a
 * description [ and ] (in a message, :) have a meaning, a backslash
 * escapes. Long help is cut at a word.
 */
static void zsh_text(FILE *fp, const char *s, size_t max, bool message)
{
	size_t len = strlen(s);
	if (len > max) {
		len = max;
		while (len > 0 && s[len] != ' ')
			len--;
	}
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\'')
			fputs("'\\''", fp);
		else if (c == '\\' || (message ? c == ':' : c == '[' || c == ']'))
			fprintf(fp, "\\%c", c);
		else
			putc(c, fp);
	}
	if (strlen(s) > len)
		fputs("...", fp);
}

static void zsh_action(FILE *fp, const struct opt_spec *s, const struct opt_cmd *cmd)
{
	enum value_kind kind = value_kind(s, cmd);
	fputs(value_spelling[kind].zsh, fp);
	if (kind == VALUE_WORDS) {
		value_words(fp, s, cmd);
		putc(')', fp);
	}
}

static void zsh_options(FILE *fp, const struct opt_cmd *cmd, const char *indent)
{
	for (const struct opt_spec *s = cmd->specs; s->name; s++) {
		if (s->hidden)
			continue;
		fputs(indent, fp);
		if (s->short_name)
			fprintf(fp, "'(-%c --%s)'{-%c,--%s}'", s->short_name, s->name,
				s->short_name, s->name);
		else
			fprintf(fp, "'%s--%s", s->repeatable ? "*" : "", s->name);
		putc('[', fp);
		zsh_text(fp, s->help ? s->help : "", 90, false);
		putc(']', fp);
		if (s->arg) {
			putc(':', fp);
			zsh_text(fp, s->arg, 40, true);
			putc(':', fp);
			zsh_action(fp, s, cmd);
		}
		fputs("' \\\n", fp);
	}
	fprintf(fp, "%s'(- *)'{-h,--help}'[show this help and exit]'", indent);
}

static void zsh_command(const struct cli_command *c, const struct opt_cmd *cmd, void *arg)
{
	FILE *fp = arg;
	const char *operands = operand_kind(cmd);
	bool many = cmd->operands && strstr(cmd->operands, "...");
	fprintf(fp, "\t\t%s)\n\t\t\t_arguments -s \\\n", c->name);
	zsh_options(fp, cmd, "\t\t\t\t");
	if (*operands) {
		fprintf(fp, " \\\n\t\t\t\t'%s:", many ? "*" : "1");
		zsh_text(fp, cmd->operands, 40, true);
		putc(':', fp);
		if (!strcmp(operands, "words")) {
			putc('(', fp);
			for (size_t i = 0; cmd->operand_words[i]; i++)
				fprintf(fp, "%s%s", i ? " " : "", cmd->operand_words[i]);
			putc(')', fp);
		} else {
			fputs(!strcmp(operands, "files") ? "_files" : "_coreplan_commands", fp);
		}
		putc('\'', fp);
	}
	fputs(" && ret=0\n\t\t\t;;\n", fp);
}

static int write_zsh(FILE *fp)
{
	size_t n;
	const struct cli_command *cmds = cli_commands(&n);
	int rc;
	fputs("#compdef coreplan\n"
	      "# zsh completion for coreplan, written by `coreplan completion zsh` from the\n"
	      "# option tables --help prints: do not edit, regenerate. Install it as\n"
	      "# _coreplan in a folder of $fpath, or try it with\n"
	      "#   source <(coreplan completion zsh)\n\n",
	      fp);
	fputs("_coreplan_fields=(", fp);
	field_names(fp, " ");
	fputs(")\n\n"
	      "_coreplan_field() { compadd -a _coreplan_fields }\n"
	      "_coreplan_fieldlist() { _values -s , field $_coreplan_fields }\n"
	      "_coreplan_where() { compadd -S = -a _coreplan_fields }\n"
	      "\n"
	      "_coreplan_commands() {\n"
	      "\tlocal -a commands=(\n",
	      fp);
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "\t\t'%s:", cmds[i].name);
		zsh_text(fp, cmds[i].description, 200, false);
		fputs("'\n", fp);
	}
	fputs("\t)\n"
	      "\t_describe -t commands command commands\n"
	      "}\n"
	      "\n"
	      "_coreplan() {\n"
	      "\tlocal curcontext=$curcontext state state_descr line ret=1\n"
	      "\ttypeset -A opt_args\n"
	      "\t_arguments -C \\\n",
	      fp);
	zsh_options(fp, cli_global(), "\t\t");
	fputs(" \\\n"
	      "\t\t'1:command:_coreplan_commands' \\\n"
	      "\t\t'*::argument:->command' && ret=0\n"
	      "\t[[ $state == command ]] || return ret\n"
	      "\tcurcontext=${curcontext%:*:*}:coreplan-$words[1]:\n"
	      "\tcase $words[1] in\n",
	      fp);
	rc = cli_each_table(cmds, n, zsh_command, fp);
	fputs("\tesac\n"
	      "\treturn ret\n"
	      "}\n"
	      "\n"
	      "if [[ $funcstack[1] == _coreplan ]]; then\n"
	      "\t_coreplan \"$@\"\n"
	      "else\n"
	      "\tcompdef _coreplan coreplan\n"
	      "fi\n",
	      fp);
	return rc;
}

int complete_write(FILE *fp, const char *shell)
{
	if (!strcmp(shell, "bash"))
		return write_bash(fp);
	if (!strcmp(shell, "zsh"))
		return write_zsh(fp);
	return err_usage("completion for '%s': the shells are bash and zsh", shell);
}
