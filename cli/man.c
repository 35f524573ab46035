/* man: see man.h. */
#include "man.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <stdbool.h>
#include <string.h>

/*
 * A UTF-8 sequence at s as \[uXXXX] (roff's Unicode escape, so the page
 * needs no input encoding); returns the bytes it used, a bad byte as \[uFFFD].
 */
static size_t utf8_escape(FILE *fp, const unsigned char *s)
{
	unsigned int cp;
	size_t n;
	if (s[0] >= 0xf0 && s[0] < 0xf5) {
		cp = s[0] & 0x07u;
		n = 4;
	} else if (s[0] >= 0xe0) {
		cp = s[0] & 0x0fu;
		n = 3;
	} else if (s[0] >= 0xc2 && s[0] < 0xe0) {
		cp = s[0] & 0x1fu;
		n = 2;
	} else {
		fputs("\\[uFFFD]", fp);
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0u) != 0x80u) {
			fputs("\\[uFFFD]", fp);
			return 1;
		}
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	fprintf(fp, "\\[u%04X]", cp);
	return n;
}

/*
 * Text for roff: a \ is \e, a - is \-, a . or ' that starts a line gets
 * \&, other characters than ASCII are \[uXXXX].
 */
static void esc(FILE *fp, const char *s, int line_start)
{
	for (; *s; s++) {
		if (line_start && (*s == '.' || *s == '\''))
			fputs("\\&", fp);
		line_start = *s == '\n';
		if ((unsigned char)*s >= 0x80)
			s += utf8_escape(fp, (const unsigned char *)s) - 1;
		else if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '-')
			fputs("\\-", fp);
		else
			putc(*s, fp);
	}
}

/* A name in bold. */
static void put_bold(FILE *fp, const char *name)
{
	fputs("\\fB", fp);
	esc(fp, name, 0);
	fputs("\\fR", fp);
}

/* \fB--name\fR \fIARG\fR (the synopsis and the option list). */
static void long_tag(FILE *fp, const struct opt_spec *s)
{
	fputs("\\fB\\-\\-", fp);
	esc(fp, s->name, 0);
	fputs("\\fR", fp);
	if (s->arg) {
		fputs(" \\fI", fp);
		esc(fp, s->arg, 0);
		fputs("\\fR", fp);
	}
}

/* The long tag, with the short form first when there is one. */
static void option_tag(FILE *fp, const struct opt_spec *s)
{
	if (s->short_name) {
		fputs("\\fB\\-", fp);
		esc(fp, (char[]){s->short_name, '\0'}, 0);
		fputs("\\fR, ", fp);
	}
	long_tag(fp, s);
}

/* Each option with its help, as --help words it (opt_describe: range, choices, notes). */
static void options(FILE *fp, const struct opt_spec *specs)
{
	static const struct opt_spec help = {"help", 'h', NULL, "show this help and exit"};
	struct strbuf text = STRBUF_INIT;
	for (const struct opt_spec *s = specs; s->name; s++) {
		if (s->hidden)
			continue;
		fputs(".TP\n", fp);
		option_tag(fp, s);
		putc('\n', fp);
		strbuf_reset(&text);
		opt_describe(s, &text);
		esc(fp, strbuf_str(&text), 1);
		putc('\n', fp);
	}
	strbuf_release(&text);
	fputs(".TP\n", fp);
	option_tag(fp, &help);
	putc('\n', fp);
	esc(fp, help.help, 1);
	putc('\n', fp);
}

/* The usage line, one bracketed option per input line (filled by roff). */
static void synopsis(FILE *fp, const char *name, const struct opt_cmd *cmd)
{
	fputs(".PP\n.B coreplan ", fp);
	esc(fp, name, 0);
	putc('\n', fp);
	for (const struct opt_spec *s = cmd->specs; s->name; s++) {
		if (s->hidden)
			continue;
		putc('[', fp);
		long_tag(fp, s);
		fputs(s->repeatable ? "]...\n" : "]\n", fp);
	}
	if (cmd->operands) {
		fputs("\\fI", fp);
		esc(fp, cmd->operands, 0);
		fputs("\\fR\n", fp);
	}
}

/* Preformatted text (a command's details), layout kept; blank lines as .sp. */
static void verbatim(FILE *fp, const char *text)
{
	const char *line = text;
	fputs(".PP\n.nf\n", fp);
	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[1024];
		if (len == 0) {
			fputs(".sp\n", fp);
		} else {
			snprintf(buf, sizeof(buf), "%.*s",
				 (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), line);
			esc(fp, buf, 1);
			putc('\n', fp);
		}
		line += len + (end ? 1 : 0);
	}
	fputs(".fi\n", fp);
}

/* "heading:\n  TERM  meaning\n  (continuation)\n": one tagged paragraph per TERM. */
static void tagged(FILE *fp, const char *text)
{
	const char *line = strchr(text, '\n');
	line = line ? line + 1 : text + strlen(text);
	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *p = line;
		char buf[1024];
		while (*p == ' ')
			p++;
		if ((size_t)(p - line) == 2) { /* a term: up to the first two spaces */
			const char *gap = strstr(p, "  ");
			size_t tlen = gap && gap < line + len ? (size_t)(gap - p) : len - 2;
			snprintf(buf, sizeof(buf), "%.*s", (int)tlen, p);
			fputs(".TP\n\\fB", fp);
			esc(fp, buf, 0);
			fputs("\\fR\n", fp);
			p += tlen;
			while (*p == ' ')
				p++;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)(line + len - p), p);
		if (*buf) {
			esc(fp, buf, 1);
			putc('\n', fp);
		}
		line += len + (end ? 1 : 0);
	}
}

static void command(FILE *fp, const struct cli_command *c, const struct opt_cmd *cmd)
{
	fputs(".SS ", fp);
	esc(fp, c->name, 0);
	putc('\n', fp);
	synopsis(fp, c->name, cmd);
	fputs(".PP\n", fp);
	esc(fp, c->description, 1);
	putc('\n', fp);
	options(fp, cmd->specs);
	if (cmd->views && cmd->views[0]) {
		fputs(".PP\nViews (\\fB\\-\\-view\\fR \\fINAME\\fR: the one table tsv and csv "
		      "print; "
		      "md and json print every section unless one is named):\n",
		      fp);
		opt_print_view_list(fp, cmd->views, put_bold);
		putc('\n', fp);
	}
	if (cmd->details)
		verbatim(fp, cmd->details);
}

/* The visit in progress: the hook has no argument of its own. */
static struct {
	void (*visit)(const struct cli_command *c, const struct opt_cmd *cmd, void *arg);
	void *arg;
	const struct cli_command *command;
	bool called;
} each;

static void hook(const struct opt_cmd *cmd)
{
	each.called = true;
	each.visit(each.command, cmd, each.arg);
}

int cli_each_table(const struct cli_command *cmds, size_t n,
		   void (*visit)(const struct cli_command *c, const struct opt_cmd *cmd, void *arg),
		   void *arg)
{
	char name[64], help[] = "--help";
	char *argv[] = {name, help, NULL};
	struct global_opts g = {CLI_DEFAULT_DB};
	int rc = 0;
	each.visit = visit;
	each.arg = arg;
	opt_help_hook = hook;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		snprintf(name, sizeof(name), "%s", cmds[i].name);
		each.command = &cmds[i];
		each.called = false;
		rc = cli_command_run(&cmds[i], 2, argv, &g);
		if (rc == 0 && !each.called)
			rc = err_set("command '%s' showed no option table", cmds[i].name);
	}
	opt_help_hook = NULL;
	return rc;
}

static void write_section(const struct cli_command *c, const struct opt_cmd *cmd, void *fp)
{
	command(fp, c, cmd);
}

int man_write(FILE *fp, const struct opt_cmd *global, const struct cli_command *cmds, size_t n,
	      const char *version)
{
	int rc = 0;
	fputs(".\\\" coreplan.1: generated by 'coreplan --man' from the option tables; "
	      "do not edit\n",
	      fp);
	fputs(".TH COREPLAN 1 \"\" \"coreplan ", fp);
	esc(fp, version, 0);
	fputs("\" \"User Commands\"\n", fp);
	fputs(".nh\n.ad l\n", fp); /* no hyphenation: option names stay whole */
	fputs(".SH NAME\ncoreplan \\- capacity planning over benchmark corpora\n", fp);
	fputs(".SH SYNOPSIS\n.B coreplan\n[\\fB\\-\\-db\\fR \\fIFILE\\fR]\n\\fICOMMAND\\fR "
	      "[\\fIOPTIONS\\fR] [\\fIARGS\\fR...]\n.br\n.B coreplan\n\\fB\\-\\-version\\fR\n"
	      ".br\n.B coreplan\n[\\fICOMMAND\\fR] \\fB\\-\\-help\\fR\n",
	      fp);
	fputs(".SH DESCRIPTION\n"
	      "coreplan imports benchmark corpora (sweeps of threads, cores or sessions, with\n"
	      "their traces) into an SQLite database and answers from it: how a workload\n"
	      "scales with physical cores, whether a difference is real or noise, what a\n"
	      "second hardware thread is worth, and which instance meets a target.\n"
	      "Each command writes one document to standard output in Markdown, TSV, CSV,\n"
	      "JSON or HTML; progress, warnings and errors go to standard error.\n"
	      "\\fBcoreplan\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints what this page says of\n"
	      "the command.\n",
	      fp);
	fputs(".SH OPTIONS\nGlobal options, given before the command:\n", fp);
	options(fp, global->specs);
	fputs(".SH COMMANDS\n", fp);
	for (size_t i = 0; i < n; i++) {
		fputs(".TP\n\\fB", fp);
		esc(fp, cmds[i].name, 0);
		fputs("\\fR\n", fp);
		esc(fp, cmds[i].description, 1);
		putc('\n', fp);
	}
	rc = cli_each_table(cmds, n, write_section, fp);
	if (rc)
		return rc;
	fputs(".SH FILES\n.TP\n", fp);
	esc(fp, CLI_DEFAULT_DB, 0);
	fputs("\nthe database when neither \\fB\\-\\-db\\fR nor \\fBCOREPLAN_DB\\fR names "
	      "one, in the current folder\n"
	      ".TP\n\\fIPREFIX\\fR/share/coreplan/catalogs/*.tsv\n"
	      "the shipped instance catalogs (GCE and AWS) that \\fBsize\\fR, \\fBcatalog\\fR "
	      "and \\fBimport\\fR use when the database stores none. They are found, first that "
	      "applies: \\fBCOREPLAN_CATALOG_DIR\\fR; ../share/coreplan/catalogs beside the "
	      "running executable (so a moved prefix still finds its own); the source tree's "
	      "fixtures/catalogs (a binary in the build tree).\n",
	      fp);
	fputs(".SH ENVIRONMENT\n", fp);
	tagged(fp, CLI_HELP_ENVIRONMENT);
	fputs(".SH EXIT STATUS\n", fp);
	tagged(fp, CLI_HELP_EXIT_STATUS);
	fputs(".SH SEE ALSO\n.BR gnuplot (1),\n.BR sqlite3 (1);\n"
	      "README.md and schema/README.md in the source tree.\n",
	      fp);
	if (fflush(fp) != 0 || ferror(fp))
		return err_set("cannot write the man page");
	return 0;
}
