/*
 * tool_gobench: the Go benchmark data format (what `go test -bench`
 * prints; golang.org/design/14313-benchmark-format) as runs.
 *
 * Configuration lines `key: value` (a key starting with a lower-case
 * letter, no spaces and no upper case, then ':' and a space or tab) set a
 * field of every result line that follows, until the key is set again
 * (an empty value unsets it). A result line is
 *   BenchmarkName[/part...][-N] <iterations> <value> <unit> [<value> <unit>]...
 * and is one run: name = the name without -N; gomaxprocs = N (go test
 * prints no suffix when GOMAXPROCS is 1, so none means 1); each part
 * key=value of the name is a field key = value; iterations; every
 * value/unit pair is a metric column named after its unit with '/' read
 * as "_per_" and any other byte but a letter, digit or '_' as '_'
 * (ns/op -> ns_per_op, B/op -> B_per_op, allocs/op -> allocs_per_op,
 * MB/s -> MB_per_s). Other lines (PASS, ok, test output) are skipped.
 * Errors: a line starting with "Benchmark" + a non-lower-case byte that
 * is not a result line, a value that is not a finite number, a unit given
 * twice, a key colliding with a column the format makes, a NUL byte, no
 * result line at all.
 */
#include "../common/err.h"
#include "table.h"
#include "tools.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOBENCH_MAX_CONFIG 256

static const char *const reserved[] = {"name", "gomaxprocs", "iterations", "file", NULL};

static bool is_reserved(const char *key)
{
	for (size_t i = 0; reserved[i]; i++)
		if (!strcmp(reserved[i], key))
			return true;
	return false;
}

/* A result line starts with "Benchmark" and then not a lower-case letter. */
static bool result_start(const char *s, size_t len)
{
	return len >= 9 && !memcmp(s, "Benchmark", 9) &&
	       (len == 9 || !islower((unsigned char)s[9]));
}

struct cfg {
	char *key, *value;
};

struct gb {
	const char *path;
	long line_no;
	struct cfg config[GOBENCH_MAX_CONFIG];
	size_t nconfig;
	struct tool_rows rows;
};

/* `key: value`: 1 when it is one (0 not, -1 an error set). */
static int config_line(struct gb *g, const char *s, size_t len)
{
	size_t k = 0;
	const char *value;
	size_t vlen;
	if (len == 0 || !islower((unsigned char)s[0]))
		return 0;
	while (k < len && s[k] != ':') {
		if (isspace((unsigned char)s[k]) || isupper((unsigned char)s[k]))
			return 0;
		k++;
	}
	if (k == len || (k + 1 < len && s[k + 1] != ' ' && s[k + 1] != '\t'))
		return 0;
	value = s + k + 1;
	vlen = len - k - 1;
	while (vlen && (*value == ' ' || *value == '\t'))
		value++, vlen--;
	while (vlen && (value[vlen - 1] == ' ' || value[vlen - 1] == '\t'))
		vlen--;
	for (size_t i = 0; i < g->nconfig; i++)
		if (strlen(g->config[i].key) == k && !memcmp(g->config[i].key, s, k)) {
			free(g->config[i].value);
			g->config[i].value = strndup(value, vlen);
			return g->config[i].value ? 1 : err_set("out of memory");
		}
	if (vlen == 0)
		return 1;
	if (g->nconfig == GOBENCH_MAX_CONFIG)
		return err_at(g->path, g->line_no, 1, "more than %d configuration keys",
			      GOBENCH_MAX_CONFIG);
	g->config[g->nconfig].key = strndup(s, k);
	g->config[g->nconfig].value = strndup(value, vlen);
	if (!g->config[g->nconfig].key || !g->config[g->nconfig].value)
		return err_set("out of memory");
	if (is_reserved(g->config[g->nconfig].key)) {
		int rc = err_at(g->path, g->line_no, 1,
				"configuration key '%s' is a column the format makes itself",
				g->config[g->nconfig].key);
		free(g->config[g->nconfig].key);
		free(g->config[g->nconfig].value);
		return rc;
	}
	g->nconfig++;
	return 1;
}

/* The unit as a column name: '/' -> "_per_", others but [A-Za-z0-9_] -> '_'. */
static char *unit_column(const char *unit, size_t len)
{
	char *out = malloc(len * 5 + 1);
	size_t o = 0;
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)unit[i];
		if (c == '/') {
			memcpy(out + o, "_per_", 5);
			o += 5;
		} else {
			out[o++] = (char)(isalnum(c) || c == '_' ? c : '_');
		}
	}
	out[o] = '\0';
	return out;
}

static int set_field(struct gb *g, const char *key, const char *value, long col)
{
	int rc = tool_rows_set(&g->rows, key, value);
	if (rc == 1)
		return err_at(g->path, g->line_no, col, "'%s' is given twice on this line", key);
	return rc;
}

/* The name: -N suffix, key=value parts. */
static int name_fields(struct gb *g, const char *name, size_t len)
{
	char procs[32] = "1";
	char *copy;
	size_t end = len;
	int rc;
	while (end > 0 && isdigit((unsigned char)name[end - 1]))
		end--;
	if (end < len && end > 9 && name[end - 1] == '-' && len - end < 10) {
		unsigned long n;
		memcpy(procs, name + end, len - end);
		procs[len - end] = '\0';
		n = strtoul(procs, NULL, 10);
		if (n == 0)
			return err_at(g->path, g->line_no, (long)end + 1,
				      "GOMAXPROCS suffix -%s is not a positive number", procs);
		snprintf(procs, sizeof(procs), "%lu", n);
		len = end - 1;
	}
	copy = strndup(name, len);
	if (!copy)
		return err_set("out of memory");
	rc = set_field(g, "name", copy, 1);
	if (rc == 0)
		rc = set_field(g, "gomaxprocs", procs, (long)len + 1);
	for (char *part = strchr(copy, '/'); rc == 0 && part; part = strchr(part, '/')) {
		char *eq, *next;
		*part++ = '\0';
		next = strchr(part, '/');
		if (next)
			*next = '\0';
		eq = strchr(part, '=');
		if (eq && eq != part) {
			*eq = '\0';
			if (is_reserved(part))
				rc = err_at(g->path, g->line_no, (long)(part - copy) + 1,
					    "sub-benchmark key '%s' is a column the format makes "
					    "itself",
					    part);
			else
				rc = set_field(g, part, eq + 1, (long)(part - copy) + 1);
		}
		if (next)
			*next = '/';
	}
	free(copy);
	return rc;
}

static size_t skip_space(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static size_t word_end(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] != ' ' && s[i] != '\t')
		i++;
	return i;
}

static int result_line(struct gb *g, const char *s, size_t len)
{
	size_t i = word_end(s, 0, len), w;
	char buf[64];
	char *end;
	int rc = tool_rows_new(&g->rows, g->line_no);
	size_t nmetrics = 0;
	if (rc == 0)
		rc = name_fields(g, s, i);
	for (size_t c = 0; rc == 0 && c < g->nconfig; c++)
		rc = set_field(g, g->config[c].key, g->config[c].value, 1);
	if (rc)
		return rc;
	i = skip_space(s, i, len);
	w = word_end(s, i, len);
	if (w == i || w - i >= sizeof(buf))
		return err_at(g->path, g->line_no, (long)i + 1,
			      "expected the iteration count after the benchmark name");
	memcpy(buf, s + i, w - i);
	buf[w - i] = '\0';
	errno = 0;
	if (!isdigit((unsigned char)buf[0]) || strtoull(buf, &end, 10) == 0 || *end || errno)
		return err_at(g->path, g->line_no, (long)i + 1,
			      "iteration count '%s' is not a positive whole number", buf);
	rc = set_field(g, "iterations", buf, (long)i + 1);
	for (i = skip_space(s, w, len); rc == 0 && i < len; i = skip_space(s, w, len)) {
		size_t vstart = i, ustart;
		char *column;
		double v;
		w = word_end(s, i, len);
		if (w - i >= sizeof(buf))
			return err_at(g->path, g->line_no, (long)i + 1, "value too long");
		memcpy(buf, s + i, w - i);
		buf[w - i] = '\0';
		errno = 0;
		v = strtod(buf, &end);
		if (end == buf || *end || errno == ERANGE || !isfinite(v))
			return err_at(g->path, g->line_no, (long)vstart + 1,
				      "value '%s' is not a finite number", buf);
		ustart = skip_space(s, w, len);
		w = word_end(s, ustart, len);
		if (w == ustart)
			return err_at(g->path, g->line_no, (long)ustart + 1,
				      "value '%s' has no unit after it", buf);
		column = unit_column(s + ustart, w - ustart);
		if (!column)
			return err_set("out of memory");
		if (is_reserved(column) || tool_rows_set(&g->rows, column, buf) == 1)
			rc = err_at(g->path, g->line_no, (long)ustart + 1,
				    "unit '%.*s' (column %s) is given twice or is a column the "
				    "format makes",
				    (int)(w - ustart), s + ustart, column);
		free(column);
		nmetrics++;
	}
	if (rc == 0 && nmetrics == 0)
		rc = err_at(g->path, g->line_no, (long)len + 1,
			    "a result line needs at least one value and unit after the iterations");
	return rc;
}

bool gobench_detect(const char *bytes, size_t n)
{
	size_t i = 0;
	if (memchr(bytes, '\0', n))
		return false;
	while (i < n) {
		const char *nl = memchr(bytes + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (bytes + i)) : n - i;
		const char *s = bytes + i;
		if (result_start(s, len)) {
			/* name, a whole number, a number and a unit */
			size_t a = word_end(s, 0, len), b;
			a = skip_space(s, a, len);
			b = word_end(s, a, len);
			/* then anything: a bad value is the converter's to name */
			if (b > a && isdigit((unsigned char)s[a]) && skip_space(s, b, len) < len)
				return true;
		}
		if (!nl)
			break;
		i += len + 1;
	}
	return false;
}

int gobench_convert(const char *bytes, size_t n, const char *display_path, struct table *out)
{
	struct gb g = {.path = display_path};
	size_t i = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	while (rc == 0 && i < n) {
		const char *nl = memchr(bytes + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (bytes + i)) : n - i;
		const char *s = bytes + i;
		const char *nul = memchr(s, '\0', len);
		g.line_no++;
		if (nul) {
			rc = err_at(display_path, g.line_no, (long)(nul - s) + 1,
				    "NUL byte: not benchmark text");
			break;
		}
		if (len && s[len - 1] == '\r')
			len--;
		if (result_start(s, len))
			rc = result_line(&g, s, len);
		else if (config_line(&g, s, len) < 0)
			rc = -1;
		i += len + (len < n - i && s[len] == '\r') + 1;
	}
	if (rc == 0 && g.rows.nrows == 0)
		rc = err_at(display_path, g.line_no ? g.line_no : 1, 0,
			    "no benchmark result lines (BenchmarkName iterations value unit ...)");
	if (rc == 0)
		rc = tool_rows_finish(&g.rows, display_path, out);
	tool_rows_release(&g.rows);
	for (size_t c = 0; c < g.nconfig; c++) {
		free(g.config[c].key);
		free(g.config[c].value);
	}
	return rc;
}
