/* opt: see opt.h. */
#include "opt.h"

#include "cmd.h"

#include "../common/err.h"

#include <stdlib.h>
#include <string.h>

void (*opt_help_hook)(const struct opt_cmd *cmd);

int opt_parser_init(struct opt_parser *p, const struct opt_cmd *cmd, int argc, char **argv)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	p->next = 1; /* argv[0] is the command (or program) name */
	p->operands = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*p->operands));
	if (!p->operands)
		return err_set("out of memory");
	return 0;
}

void opt_parser_release(struct opt_parser *p)
{
	if (!p)
		return;
	free(p->operands);
	p->operands = NULL;
	p->noperands = 0;
}

unsigned int opt_count(const struct opt_parser *p, int which)
{
	return which >= 0 && which < OPT_MAX_SPECS ? p->seen[which] : 0;
}

static const char *cmd_label(const struct opt_cmd *cmd)
{
	return cmd->name && *cmd->name ? cmd->name : NULL;
}

/* Record a usage error; main.c adds the "see 'coreplan CMD --help'" hint. */
static int found(struct opt_parser *p, int i, const char *shown, const char *value, int *which,
		 const char **out)
{
	if (i < OPT_MAX_SPECS) {
		if (p->seen[i] && !p->cmd->specs[i].repeatable)
			return err_usage("option '%s' given more than once", shown);
		p->seen[i]++;
	}
	*which = i;
	*out = value;
	return OPT_FOUND;
}

static int long_option(struct opt_parser *p, const char *word, int *which, const char **value)
{
	const char *name = word + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt_spec *specs = p->cmd->specs;
	char shown[128];
	snprintf(shown, sizeof(shown), "--%.*s", (int)(len < 100 ? len : 100), name);
	for (int i = 0; specs[i].name; i++) {
		if (strlen(specs[i].name) != len || strncmp(specs[i].name, name, len) != 0)
			continue;
		if (!specs[i].arg) {
			if (eq)
				return err_usage("option '%s' takes no value", shown);
			return found(p, i, shown, NULL, which, value);
		}
		if (eq)
			return found(p, i, shown, eq + 1, which, value);
		if (p->next >= p->argc)
			return err_usage("option '%s' needs a value (%s)", shown, specs[i].arg);
		return found(p, i, shown, p->argv[p->next++], which, value);
	}
	if (len == 4 && strncmp(name, "help", 4) == 0 && !eq)
		return OPT_HELP_SHOWN;
	return err_usage("unknown option '%s'", shown);
}

static int short_option(struct opt_parser *p, const char *word, int *which, const char **value)
{
	const struct opt_spec *specs = p->cmd->specs;
	char shown[3] = {'-', word[1], '\0'};
	for (int i = 0; specs[i].name; i++) {
		if (specs[i].short_name == 0 || specs[i].short_name != word[1])
			continue;
		if (!specs[i].arg) {
			if (word[2])
				return err_usage("unknown option '%s' (options cannot be combined)",
						 word);
			return found(p, i, shown, NULL, which, value);
		}
		if (word[2])
			return found(p, i, shown, word + 2, which, value);
		if (p->next >= p->argc)
			return err_usage("option '%s' needs a value (%s)", shown, specs[i].arg);
		return found(p, i, shown, p->argv[p->next++], which, value);
	}
	if (word[1] == 'h' && word[2] == '\0')
		return OPT_HELP_SHOWN;
	return err_usage("unknown option '%s'", word);
}

int opt_next(struct opt_parser *p, int *which, const char **value)
{
	int rc;
	*which = -1;
	*value = NULL;
	while (p->next < p->argc) {
		char *word = p->argv[p->next];
		if (p->only_operands || word[0] != '-' || word[1] == '\0') {
			if (p->stop_at_operand)
				return OPT_DONE; /* p->next is the operand */
			p->operands[p->noperands++] = word;
			p->next++;
			continue;
		}
		p->next++;
		if (strcmp(word, "--") == 0) {
			p->only_operands = true;
			continue;
		}
		rc = word[1] == '-' ? long_option(p, word, which, value)
				    : short_option(p, word, which, value);
		if (rc == OPT_HELP_SHOWN) {
			if (opt_help_hook)
				opt_help_hook(p->cmd);
			else
				opt_print_help(stdout, p->cmd);
			return OPT_HELP_SHOWN;
		}
		return rc;
	}
	return OPT_DONE;
}

void opt_print_usage(FILE *fp, const struct opt_cmd *cmd)
{
	const char *label = cmd_label(cmd);
	fprintf(fp, "usage: coreplan%s%s", label ? " " : "", label ? label : "");
	for (const struct opt_spec *s = cmd->specs; s->name; s++) {
		fprintf(fp, " [--%s%s%s]%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "",
			s->repeatable ? "..." : "");
	}
	if (cmd->operands)
		fprintf(fp, " %s", cmd->operands);
	putc('\n', fp);
}

static void option_label(char *buf, size_t size, const struct opt_spec *s)
{
	if (s->short_name)
		snprintf(buf, size, "-%c, --%s%s%s", s->short_name, s->name, s->arg ? " " : "",
			 s->arg ? s->arg : "");
	else
		snprintf(buf, size, "    --%s%s%s", s->name, s->arg ? " " : "",
			 s->arg ? s->arg : "");
}

void opt_print_options(FILE *fp, const struct opt_spec *specs)
{
	static const struct opt_spec help = {"help", 'h', NULL, "show this help and exit", false};
	char label[128];
	size_t width = 0;
	fputs("options:\n", fp);
	option_label(label, sizeof(label), &help);
	width = strlen(label);
	for (const struct opt_spec *s = specs; s->name; s++) {
		option_label(label, sizeof(label), s);
		if (strlen(label) > width)
			width = strlen(label);
	}
	for (const struct opt_spec *s = specs; s->name; s++) {
		option_label(label, sizeof(label), s);
		fprintf(fp, "  %-*s  %s%s%s\n", (int)width, label, s->help,
			s->required ? " (required)" : "", s->repeatable ? " (repeatable)" : "");
	}
	option_label(label, sizeof(label), &help);
	fprintf(fp, "  %-*s  %s\n", (int)width, label, help.help);
}

void opt_print_help(FILE *fp, const struct opt_cmd *cmd)
{
	const char *label = cmd_label(cmd);
	opt_print_usage(fp, cmd);
	if (label && *cmd_description(label))
		fprintf(fp, "\n%s\n", cmd_description(label));
	putc('\n', fp);
	opt_print_options(fp, cmd->specs);
	if (cmd->views && cmd->views[0]) {
		fputs("\nviews (--view NAME: the one table tsv and csv print; md and json print "
		      "every section unless one is named):\n  ",
		      fp);
		for (size_t i = 0; cmd->views[i]; i++)
			fprintf(fp, "%s%s%s", i ? ", " : "", cmd->views[i], i ? "" : " (default)");
		fputs(", facts (every named value: n, method, inputs, verdicts)\n", fp);
	}
	if (cmd->details)
		fprintf(fp, "\n%s", cmd->details);
}
