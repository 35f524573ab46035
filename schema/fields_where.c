/*
 * fields_where: the text of run conditions (fields.h): --where
 * FIELD=V[,V...] with its quoting rule, a compare arm's conditions, and a
 * --where-file's lines. The rule, for --help and the messages:
 *
 *   FIELD is the text before the first '='. Values are separated by ','.
 *   A value in double quotes is taken as it is, spaces, ',' '=' and ';'
 *   included; inside the quotes \" is a quote and \\ a backslash. A value
 *   without quotes may not hold ',' nor '=' (a ',' separates values, and
 *   'cfg=mem,target=small' is two conditions, not one), and a '"' inside
 *   it is an ordinary byte. In conditions (--a, --b, ...), spaces and ';'
 *   outside quotes separate conditions.
 */
#include "fields.h"

#include "../common/err.h"

#include <stdlib.h>
#include <string.h>

/* The grammar, for every message about a malformed --where. */
#define WHERE_GRAMMAR                                                                              \
	"--where FIELD=V1,V2 keeps runs whose FIELD is any of the values (an empty value "        \
	"selects the empty string: --where subcorpus=); several --where are all required "      \
	"(--where cfg=mem --where target=small); a value holding spaces, ',' or '=' goes in "     \
	"double quotes: --where 'name=\"BenchmarkSort/size=16\"' (\\\" and \\\\ inside)"

/* Does a value need quotes to read back as itself? */
static bool needs_quotes(const char *value)
{
	return value[0] == '"' || strpbrk(value, " \t,=;\\") != NULL;
}

int where_value_quote(const char *value, struct strbuf *sb)
{
	int bad = 0;
	if (!needs_quotes(value))
		return strbuf_adds(sb, value);
	bad |= strbuf_adds(sb, "\"");
	for (const char *p = value; *p; p++)
		bad |= (*p == '"' || *p == '\\' ? strbuf_add(sb, "\\", 1) : 0) | strbuf_add(sb, p, 1);
	return bad | strbuf_adds(sb, "\"");
}

/*
 * One quoted value from *p (at its opening quote) into out: *p moves past
 * the closing quote. 0, or a usage error naming the condition.
 */
static int quoted_value(const char **p, const char *text, struct strbuf *out)
{
	const char *s = *p + 1;
	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		if (strbuf_add(out, s, 1))
			return err_set("out of memory");
	}
	if (*s != '"')
		return err_usage("malformed condition '%s': a quoted value has no closing quote; "
				 WHERE_GRAMMAR, text);
	*p = s + 1;
	return 0;
}

/* The values after FIELD= into values (each strdup'd); *n counts them. */
static int split_values(const char *text, const char *list, const char *field, char ***values,
			size_t *n)
{
	const char *p = list;
	int rc = 0;
	for (;;) {
		struct strbuf v = STRBUF_INIT;
		char **grown;
		if (*p == '"') {
			rc = quoted_value(&p, text, &v);
			if (rc == 0 && *p && *p != ',')
				rc = err_usage("malformed condition '%s': after a quoted value comes ',' "
					       "or the end, not '%c'; " WHERE_GRAMMAR,
					       text, *p);
		} else {
			size_t len = strcspn(p, ",");
			if (memchr(p, '=', len))
				rc = err_usage("malformed condition '%s': the value '%.*s' holds '=' (a "
					       "comma separates values of %s, not conditions; quote a "
					       "value that holds '=': %s=\"...\"); " WHERE_GRAMMAR,
					       text, (int)len, p, field, field);
			else if (strbuf_add(&v, p, len))
				rc = err_set("out of memory");
			p += len;
		}
		grown = rc ? NULL : realloc(*values, (*n + 1) * sizeof(*grown));
		if (rc == 0 && !grown)
			rc = err_set("out of memory");
		if (rc) {
			strbuf_release(&v);
			return rc;
		}
		*values = grown;
		grown[(*n)++] = v.buf ? strbuf_detach(&v) : strdup("");
		if (!grown[*n - 1])
			return err_set("out of memory");
		if (*p != ',')
			return 0;
		p++;
	}
}

int run_filter_add_where(struct run_filter *filter, const char *text)
{
	const char *eq = strchr(text, '=');
	char *field = NULL, **values = NULL;
	size_t n = 0;
	int rc;
	if (!eq || eq == text)
		return err_usage("malformed condition '%s': " WHERE_GRAMMAR, text);
	field = strndup(text, (size_t)(eq - text));
	rc = field ? split_values(text, eq + 1, field, &values, &n) : err_set("out of memory");
	if (rc == 0)
		rc = run_filter_add(filter, field, (const char *const *)values, n);
	for (size_t i = 0; i < n; i++)
		free(values[i]);
	free(values);
	free(field);
	return rc;
}

/* The end of the condition starting at p: the first space, tab or ';' outside quotes. */
static const char *condition_end(const char *p)
{
	bool quoted = false;
	for (; *p; p++) {
		if (quoted && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
			p++;
		else if (*p == '"')
			quoted = !quoted;
		else if (!quoted && strchr(" \t;", *p))
			break;
	}
	return p;
}

int run_filter_add_conditions(struct run_filter *filter, const char *text, const char *what)
{
	size_t before = filter->nwhere;
	int rc = 0;
	for (const char *p = text; rc == 0 && *p;) {
		const char *end;
		char *one;
		p += strspn(p, " \t;");
		if (!*p)
			break;
		end = condition_end(p);
		if (!(one = strndup(p, (size_t)(end - p))))
			return err_set("out of memory");
		rc = run_filter_add_where(filter, one);
		free(one);
		p = end;
	}
	if (rc == 0 && filter->nwhere == before)
		rc = err_usage("%s needs at least one FIELD=VALUE condition, got '%s'", what, text);
	return rc;
}

/* ---- --where-file ---- */

struct where_line {
	const char *field, *value; /* into the copy of the text */
};

/* Lines of one field make one condition: its values in the order of the lines. */
static int add_grouped(struct run_filter *filter, struct where_line *lines, size_t n)
{
	const char **values = calloc(n ? n : 1, sizeof(*values));
	int rc = values ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		size_t k = 0;
		if (!lines[i].field)
			continue; /* taken by an earlier line's condition */
		for (size_t j = i; j < n; j++)
			if (lines[j].field && !strcmp(lines[j].field, lines[i].field)) {
				values[k++] = lines[j].value;
				if (j > i)
					lines[j].field = NULL;
			}
		rc = run_filter_add(filter, lines[i].field, values, k);
	}
	free(values);
	return rc;
}

int run_filter_add_where_lines(struct run_filter *filter, const char *text, const char *display)
{
	char *copy = strdup(text), *p = copy;
	struct where_line *lines = NULL;
	size_t n = 0;
	long line_no = 0;
	int rc = copy ? 0 : err_set("out of memory");
	while (rc == 0 && p && *p) {
		char *end = strchr(p, '\n'), *eq;
		struct where_line *grown;
		size_t len;
		line_no++;
		if (end)
			*end = '\0';
		len = strlen(p);
		if (len && p[len - 1] == '\r')
			p[--len] = '\0'; /* a CRLF file's line end */
		if (len == 0 || *p == '#') {
			p = end ? end + 1 : NULL;
			continue;
		}
		eq = strchr(p, '=');
		if (!eq || eq == p) {
			rc = err_at(display, line_no, 1,
				    "expected FIELD=VALUE (one condition a line, the value taken as it "
				    "is to the line's end; lines of one field are any of their values)");
			break;
		}
		*eq = '\0';
		if (!(grown = realloc(lines, (n + 1) * sizeof(*grown)))) {
			rc = err_set("out of memory");
			break;
		}
		lines = grown;
		lines[n++] = (struct where_line){p, eq + 1};
		p = end ? end + 1 : NULL;
	}
	if (rc == 0 && n == 0)
		rc = err_at(display, 0, 0, "no FIELD=VALUE condition in the file");
	if (rc == 0)
		rc = add_grouped(filter, lines, n);
	free(lines);
	free(copy);
	return rc;
}
