/* opt: see opt.h. */
#include "opt.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/strvec.h"
#include "../common/suggest.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void (*opt_help_hook)(const struct opt_cmd *cmd);
const char *(*opt_command_description)(const char *name);

int opt_parser_init(struct opt_parser *p, const struct opt_cmd *cmd, int argc, char **argv)
{
	size_t n = 0;
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	p->next = 1; /* argv[0] is the command (or program) name */
	while (cmd->specs[n].name)
		n++;
	if (n >= OPT_MAX_SPECS)
		return err_set("%s has %zu options, more than the parser counts (%d)",
			       cmd->name ? cmd->name : "coreplan", n, OPT_MAX_SPECS - 1);
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

const struct opt_spec *opt_find(const struct opt_spec *specs, const char *name)
{
	for (const struct opt_spec *s = specs; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* ---- what a value must be, in words (errors) and in symbols (help) ---- */

/* A bound as people write it: 100000, not 1e+05. */
static void number_text(double x, char *buf, size_t size)
{
	if (x == floor(x) && fabs(x) < 1e15)
		snprintf(buf, size, "%.0f", x);
	else
		snprintf(buf, size, "%g", x);
}

/* An unsigned target cannot hold a negative number: 0 is its floor. */
static enum opt_bound lo_kind(const struct opt_spec *s, double *lo)
{
	*lo = s->lo;
	if (s->type == OPT_T_INT && !s->is_signed && (s->lo_kind == OPT_NO_BOUND || s->lo < 0)) {
		*lo = 0;
		return OPT_INCL;
	}
	return s->lo_kind;
}

/* "from 0 to 1", "above 0 and at most 4", "at least 1", "" (no range). */
static void range_words(const struct opt_spec *s, char *buf, size_t size)
{
	char lo_text[32], hi_text[32];
	double lo;
	enum opt_bound lk = lo_kind(s, &lo), hk = s->hi_kind;
	number_text(lo, lo_text, sizeof(lo_text));
	number_text(s->hi, hi_text, sizeof(hi_text));
	if (lk == OPT_INCL && hk == OPT_INCL)
		snprintf(buf, size, " from %s to %s", lo_text, hi_text);
	else
		snprintf(buf, size, "%s%s%s%s%s",
			 lk == OPT_EXCL ? " above "
			 : lk           ? " at least "
					: "",
			 lk ? lo_text : "", lk && hk ? " and" : "",
			 hk == OPT_EXCL ? " below "
			 : hk           ? " at most "
					: "",
			 hk ? hi_text : "");
}

static bool is_alias(const struct opt_choice *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (c[j].value == c[i].value)
			return true;
	return false;
}

/* The names a choice takes, aliases left out: "md, tsv, csv" (sep ", ") or "md|tsv|csv". */
static void choice_list(const struct opt_choice *c, const char *sep, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; c[i].name && used < size; i++)
		if (!is_alias(c, i))
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? sep : "",
						 c[i].name);
}

void opt_constraint(const struct opt_spec *s, char *buf, size_t size)
{
	const char *x = s->arg ? s->arg : "X";
	char lo_text[32], hi_text[32];
	double lo;
	enum opt_bound lk, hk = s->hi_kind;
	buf[0] = '\0';
	if (s->type == OPT_T_CHOICE) {
		choice_list(s->choices, "|", buf, size);
		return;
	}
	if (s->type != OPT_T_INT && s->type != OPT_T_DOUBLE)
		return;
	lk = lo_kind(s, &lo);
	number_text(lo, lo_text, sizeof(lo_text));
	number_text(s->hi, hi_text, sizeof(hi_text));
	if (lk && hk)
		snprintf(buf, size, "%s %s %s %s %s", lo_text, lk == OPT_EXCL ? "<" : "<=", x,
			 hk == OPT_EXCL ? "<" : "<=", hi_text);
	else if (lk)
		snprintf(buf, size, "%s %s %s", x, lk == OPT_EXCL ? ">" : ">=", lo_text);
	else if (hk)
		snprintf(buf, size, "%s %s %s", x, hk == OPT_EXCL ? "<" : "<=", hi_text);
}

int opt_describe(const struct opt_spec *s, struct strbuf *sb)
{
	char constraint[256];
	int bad = strbuf_adds(sb, s->help ? s->help : "");
	opt_constraint(s, constraint, sizeof(constraint));
	if (*constraint)
		bad |= strbuf_addf(sb, " [%s]", constraint);
	if (s->required)
		bad |= strbuf_adds(sb, " (required)");
	if (s->repeatable)
		bad |= strbuf_adds(sb, " (repeatable)");
	return bad ? err_set("out of memory") : 0;
}

/* ---- applying a value to its target ---- */

static bool in_range(const struct opt_spec *s, double x)
{
	double lo;
	enum opt_bound lk = lo_kind(s, &lo);
	if ((lk == OPT_INCL && !(x >= lo)) || (lk == OPT_EXCL && !(x > lo)))
		return false;
	if ((s->hi_kind == OPT_INCL && !(x <= s->hi)) || (s->hi_kind == OPT_EXCL && !(x < s->hi)))
		return false;
	return true;
}

/* Does v fit a target of this width and signedness? */
static bool fits(const struct opt_spec *s, int64_t v)
{
	if (!s->is_signed && v < 0)
		return false;
	if (s->width == 4)
		return s->is_signed ? v >= INT32_MIN && v <= INT32_MAX : v <= (int64_t)UINT32_MAX;
	if (s->width == 2)
		return s->is_signed ? v >= INT16_MIN && v <= INT16_MAX : v <= (int64_t)UINT16_MAX;
	if (s->width == 1)
		return s->is_signed ? v >= INT8_MIN && v <= INT8_MAX : v <= (int64_t)UINT8_MAX;
	return true;
}

/* An integer (or enum) target of `width` bytes; int64_t and unsigned long alias. */
static void store_int(void *target, unsigned char width, int64_t v)
{
	switch (width) {
	case 1:
		*(int8_t *)target = (int8_t)v;
		break;
	case 2:
		*(int16_t *)target = (int16_t)v;
		break;
	case 4:
		*(int32_t *)target = (int32_t)v;
		break;
	default:
		*(int64_t *)target = v;
		break;
	}
}

static int bad_number(const struct opt_spec *s, const char *text, const char *noun)
{
	char range[128];
	range_words(s, range, sizeof(range));
	return err_usage("--%s needs %s%s, got '%s'", s->name, s->noun ? s->noun : noun, range,
			 text);
}

static int apply_choice(const struct opt_spec *s, const char *text)
{
	char names[512];
	struct suggest near;
	suggest_init(&near, text);
	for (size_t i = 0; s->choices[i].name; i++) {
		if (strcmp(s->choices[i].name, text) == 0) {
			store_int(s->value, s->width, s->choices[i].value);
			return 0;
		}
		if (!is_alias(s->choices, i))
			suggest_offer(&near, s->choices[i].name);
	}
	choice_list(s->choices, ", ", names, sizeof(names));
	if (suggest_best(&near))
		return err_usage("--%s needs one of %s, got '%s' (did you mean '%s'?)", s->name,
				 names, text, suggest_best(&near));
	return err_usage("--%s needs one of %s, got '%s'", s->name, names, text);
}

static int apply_value(const struct opt_spec *s, const char *text)
{
	double x;
	int64_t v;
	int n;
	switch (s->type) {
	case OPT_T_FLAG:
		*(bool *)s->value = true;
		return 0;
	case OPT_T_MODE:
		store_int(s->value, s->width, s->set);
		return 0;
	case OPT_T_STRING:
		if (s->nonempty && !*text)
			return err_usage("--%s needs %s", s->name,
					 s->noun ? s->noun : "a non-empty value");
		*(const char **)s->value = text;
		return 0;
	case OPT_T_INT:
		if (num_parse_int(text, &v) || !in_range(s, (double)v) || !fits(s, v))
			return bad_number(s, text, "a whole number");
		store_int(s->value, s->width, v);
		return 0;
	case OPT_T_DOUBLE:
		if (num_parse_real(text, &x) || !in_range(s, x))
			return bad_number(s, text, "a number");
		*(double *)s->value = x;
		return 0;
	case OPT_T_CHOICE:
		return apply_choice(s, text);
	case OPT_T_LIST:
		n = strvec_split(s->value, text, ",");
		if (n < 0)
			return err_set("out of memory");
		if (n == 0)
			return err_usage("--%s needs %s, got '%s'", s->name,
					 s->noun ? s->noun : "a comma-separated list", text);
		return 0;
	case OPT_T_CALL:
		return s->call(s, text);
	}
	return err_set("--%s: an option of no known type", s->name);
}

int opt_apply(const struct opt_spec *s, const char *text)
{
	int rc;
	if (s->arg && !text)
		return err_usage("--%s needs a value (%s)", s->name, s->arg);
	if (!s->arg && text)
		return err_usage("--%s takes no value", s->name);
	rc = apply_value(s, text);
	if (rc == 0 && s->given)
		*s->given = true;
	return rc;
}

int opt_apply_word(const struct opt_spec *s, const char *text)
{
	if (s->type != OPT_T_FLAG)
		return opt_apply(s, text);
	if (strcmp(text, "yes") && strcmp(text, "no"))
		return err_usage("'%s' takes yes or no, got '%s'", s->name, text);
	*(bool *)s->value = !strcmp(text, "yes");
	if (s->given)
		*s->given = true;
	return 0;
}

/* ---- the parser ---- */

/* Two options that must not be given together, as the table orders them. */
static int conflict(const struct opt_spec *specs, int i, int j, bool modes)
{
	const char *a = specs[i < j ? i : j].name, *b = specs[i < j ? j : i].name;
	if (modes)
		return err_usage("give --%s or --%s, not both", a, b);
	return err_usage("--%s and --%s cannot be combined", a, b);
}

static int check_conflicts(const struct opt_parser *p, int i)
{
	const struct opt_spec *specs = p->cmd->specs, *s = &specs[i];
	for (int j = 0; specs[j].name; j++) {
		const struct opt_spec *o = &specs[j];
		if (j == i || !p->seen[j])
			continue;
		if (s->type == OPT_T_MODE && o->type == OPT_T_MODE && o->value == s->value &&
		    o->set != s->set)
			return conflict(specs, i, j, true);
		if ((s->conflicts && strcmp(s->conflicts, o->name) == 0) ||
		    (o->conflicts && strcmp(o->conflicts, s->name) == 0))
			return conflict(specs, i, j, false);
	}
	return 0;
}

/* Option i was given (shown as typed) with text (NULL for a flag). */
static int found(struct opt_parser *p, int i, const char *shown, const char *text)
{
	const struct opt_spec *s = &p->cmd->specs[i];
	int rc;
	if (p->seen[i] && !s->repeatable)
		return err_usage("option '%s' given more than once", shown);
	rc = check_conflicts(p, i);
	if (rc == 0)
		rc = apply_value(s, text);
	if (rc)
		return rc;
	p->seen[i]++;
	if (s->given)
		*s->given = true;
	return 0;
}

static int unknown_long(const struct opt_parser *p, const char *shown)
{
	struct suggest near;
	suggest_init(&near, shown + 2);
	for (const struct opt_spec *s = p->cmd->specs; s->name; s++)
		if (!s->hidden)
			suggest_offer(&near, s->name);
	suggest_offer(&near, "help");
	if (suggest_best(&near))
		return err_usage("unknown option '%s' (did you mean '--%s'?)", shown,
				 suggest_best(&near));
	return err_usage("unknown option '%s'", shown);
}

static int long_option(struct opt_parser *p, const char *word)
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
			return found(p, i, shown, NULL);
		}
		if (eq)
			return found(p, i, shown, eq + 1);
		if (p->next >= p->argc)
			return err_usage("option '%s' needs a value (%s)", shown, specs[i].arg);
		return found(p, i, shown, p->argv[p->next++]);
	}
	if (len == 4 && strncmp(name, "help", 4) == 0 && !eq)
		return OPT_HELP_SHOWN;
	return unknown_long(p, shown);
}

static int short_option(struct opt_parser *p, const char *word)
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
			return found(p, i, shown, NULL);
		}
		if (word[2])
			return found(p, i, shown, word + 2);
		if (p->next >= p->argc)
			return err_usage("option '%s' needs a value (%s)", shown, specs[i].arg);
		return found(p, i, shown, p->argv[p->next++]);
	}
	if (word[1] == 'h' && word[2] == '\0')
		return OPT_HELP_SHOWN;
	return err_usage("unknown option '%s'", word);
}

int opt_parse(struct opt_parser *p)
{
	int rc = 0;
	while (rc == 0 && p->next < p->argc) {
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
		rc = word[1] == '-' ? long_option(p, word) : short_option(p, word);
	}
	if (rc == OPT_HELP_SHOWN) {
		if (opt_help_hook)
			opt_help_hook(p->cmd);
		else
			opt_print_help(stdout, p->cmd);
	}
	return rc;
}

void opt_release_targets(const struct opt_spec *specs)
{
	for (const struct opt_spec *s = specs; s->name; s++)
		if (s->type == OPT_T_LIST)
			strvec_clear(s->value);
}

/* ---- help ---- */

static const char *cmd_label(const struct opt_cmd *cmd)
{
	return cmd->name && *cmd->name ? cmd->name : NULL;
}

/* Help is written for 80 columns: a word that would pass them starts a new line. */
#define HELP_WIDTH 80

/* Write word after *col columns (a blank before it), or on a new line indented. */
static void put_word(FILE *fp, const char *word, size_t indent, size_t *col)
{
	size_t len = strlen(word);
	if (*col > indent && *col + 1 + len > HELP_WIDTH) {
		fprintf(fp, "\n%*s", (int)indent, "");
		*col = indent;
	} else if (*col != indent) { /* a fresh line starts at indent */
		putc(' ', fp);
		(*col)++;
	}
	fputs(word, fp);
	*col += len;
}

/* text's words after *col columns, wrapped at HELP_WIDTH with indent blanks. */
static void put_wrapped(FILE *fp, const char *text, size_t indent, size_t *col)
{
	char word[256];
	while (*text) {
		size_t n = strcspn(text, " ");
		if (n) {
			snprintf(word, sizeof(word), "%.*s", (int)n, text);
			put_word(fp, word, indent, col);
		}
		text += n;
		text += strspn(text, " ");
	}
}

void opt_print_usage(FILE *fp, const struct opt_cmd *cmd)
{
	const char *label = cmd_label(cmd);
	char word[160];
	size_t col, indent;
	fprintf(fp, "usage: coreplan%s%s", label ? " " : "", label ? label : "");
	col = strlen("usage: coreplan") + (label ? 1 + strlen(label) : 0);
	indent = col < 40 ? col + 1 : 8;
	for (const struct opt_spec *s = cmd->specs; s->name; s++) {
		if (s->hidden)
			continue;
		snprintf(word, sizeof(word), "[--%s%s%s]%s", s->name, s->arg ? " " : "",
			 s->arg ? s->arg : "", s->repeatable ? "..." : "");
		put_word(fp, word, indent, &col);
	}
	if (cmd->operands)
		put_word(fp, cmd->operands, indent, &col);
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
	static const struct opt_spec help = {"help", 'h', NULL, "show this help and exit"};
	struct strbuf text = STRBUF_INIT;
	char label[128];
	size_t width = 0;
	fputs("options:\n", fp);
	option_label(label, sizeof(label), &help);
	width = strlen(label);
	for (const struct opt_spec *s = specs; s->name; s++) {
		option_label(label, sizeof(label), s);
		if (!s->hidden && strlen(label) > width)
			width = strlen(label);
	}
	for (const struct opt_spec *s = specs; s->name; s++) {
		if (s->hidden)
			continue;
		size_t col = 2 + width + 2;
		option_label(label, sizeof(label), s);
		strbuf_reset(&text);
		opt_describe(s, &text);
		fprintf(fp, "  %-*s  ", (int)width, label);
		put_wrapped(fp, strbuf_str(&text), col, &col);
		putc('\n', fp);
	}
	option_label(label, sizeof(label), &help);
	fprintf(fp, "  %-*s  %s\n", (int)width, label, help.help);
	strbuf_release(&text);
}

void opt_print_view_list(FILE *fp, const char *const *views,
			 void (*put_name)(FILE *fp, const char *name))
{
	for (size_t i = 0; views[i]; i++) {
		fputs(i ? ", " : "", fp);
		put_name(fp, views[i]);
		fputs(i ? "" : " (default)", fp);
	}
	fputs(", ", fp);
	put_name(fp, "facts");
	fputs(" (every named value: n, method, inputs, verdicts)", fp);
}

static void put_plain(FILE *fp, const char *name)
{
	fputs(name, fp);
}

void opt_print_help(FILE *fp, const struct opt_cmd *cmd)
{
	const char *label = cmd_label(cmd);
	const char *description =
		label && opt_command_description ? opt_command_description(label) : NULL;
	opt_print_usage(fp, cmd);
	if (description && *description)
		fprintf(fp, "\n%s\n", description);
	putc('\n', fp);
	opt_print_options(fp, cmd->specs);
	if (cmd->views && cmd->views[0]) {
		fputs("\nviews (--view NAME: the one table tsv and csv print; md and json print "
		      "every section unless one is named):\n  ",
		      fp);
		opt_print_view_list(fp, cmd->views, put_plain);
		putc('\n', fp);
	}
	if (cmd->details)
		fprintf(fp, "\n%s", cmd->details);
}
