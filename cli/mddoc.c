/* mddoc: see mddoc.h. */
#include "mddoc.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Text for a table cell: | escaped, line breaks as blanks. */
static void cell(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", fp);
		else if (*s == '\n')
			putc(' ', fp);
		else
			putc(*s, fp);
	}
}

/* A name as Markdown code. */
static void put_code(FILE *fp, const char *name)
{
	fprintf(fp, "`%s`", name);
}

/* `--name ARG` (with `-x, ` first when there is a short form). */
static void option_name(FILE *fp, const struct opt_spec *s)
{
	putc('`', fp);
	if (s->short_name)
		fprintf(fp, "-%c, ", s->short_name);
	fprintf(fp, "--%s%s%s`", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
}

static void options(FILE *fp, const struct opt_spec *specs)
{
	static const struct opt_spec help = {"help", 'h', NULL, "show this help and exit"};
	struct strbuf text = STRBUF_INIT;
	fputs("| option | what it does |\n|:---|:---|\n", fp);
	for (const struct opt_spec *s = specs; s->name; s++) {
		if (s->hidden)
			continue;
		strbuf_reset(&text);
		opt_describe(s, &text);
		fputs("| ", fp);
		option_name(fp, s);
		fputs(" | ", fp);
		cell(fp, strbuf_str(&text));
		fputs(" |\n", fp);
	}
	fputs("| ", fp);
	option_name(fp, &help);
	fprintf(fp, " | %s |\n", help.help);
	strbuf_release(&text);
}

/* A block the reader sees as it is (``` fences; details are laid out for a terminal). */
static void preformatted(FILE *fp, const char *text)
{
	size_t len = strlen(text);
	fputs("\n```text\n", fp);
	fputs(text, fp);
	if (len && text[len - 1] != '\n')
		putc('\n', fp);
	fputs("```\n", fp);
}

static void command(const struct cli_command *c, const struct opt_cmd *cmd, void *arg)
{
	FILE *fp = arg;
	char *usage = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&usage, &len);
	fprintf(fp,
		"<!-- docs/commands/%s.md: written by 'coreplan --commands-md %s' from the option "
		"tables; do not edit: change the tables and run scripts/update-commands-md.sh -->\n",
		c->name, c->name);
	fprintf(fp, "# coreplan %s\n\n%s. [All commands](../commands.md).\n", c->name,
		c->description);
	if (mem) {
		opt_print_usage(mem, cmd);
		fclose(mem);
		preformatted(fp, usage ? usage : "");
	}
	free(usage);
	putc('\n', fp);
	options(fp, cmd->specs);
	if (cmd->views && cmd->views[0]) {
		fputs("\nViews (`--view NAME`: the one table tsv and csv print; the other formats "
		      "print every section unless one is named): ",
		      fp);
		opt_print_view_list(fp, cmd->views, put_code);
		fputs(".\n", fp);
	}
	if (cmd->details)
		preformatted(fp, cmd->details);
}

int mddoc_write(FILE *fp, const struct opt_cmd *global, const struct cli_command *cmds, size_t n,
		const char *version)
{
	fprintf(fp,
		"<!-- docs/commands.md: written by 'coreplan --commands-md' from the option "
		"tables (coreplan %s); do not edit: change the tables and run "
		"scripts/update-commands-md.sh -->\n",
		version);
	fputs("# Commands\n\n"
	      "Every command, as its `--help` states it (the same tables print both, and the man "
	      "page), one page a command in [commands/](commands/). Each writes one document to standard output: the terminal text on a "
	      "terminal, else Markdown, or the format `--format` names "
	      "([formats.md](formats.md)).\n\n"
	      "```text\ncoreplan [--db FILE] COMMAND [options]\n```\n\n",
	      fp);
	fputs("| command | what it does |\n|:---|:---|\n", fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "| [`%s`](commands/%s.md) | %s |\n", cmds[i].name, cmds[i].name,
			cmds[i].description);
	fputs("\n## Global options\n\nGiven before the command.\n\n", fp);
	options(fp, global->specs);
	if (global->details) {
		/* the exit status and environment; not the command list (the table above) */
		const char *rest = strstr(global->details, "\n\n");
		if (strncmp(global->details, "commands:", 9) != 0)
			rest = global->details;
		else if (rest)
			rest += 2;
		if (rest && *rest)
			preformatted(fp, rest);
	}
	return 0;
}

int mddoc_write_command(FILE *fp, const struct cli_command *cmds, size_t n, const char *name)
{
	struct strbuf names = STRBUF_INIT;
	int rc;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cmds[i].name, name))
			return cli_each_table(&cmds[i], 1, command, fp);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", cmds[i].name);
	rc = err_usage("--commands-md: no command '%s' (commands: %s)", name, strbuf_str(&names));
	strbuf_release(&names);
	return rc;
}
