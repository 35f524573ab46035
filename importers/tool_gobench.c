/*
 * tool_gobench: the Go benchmark data format (what `go test -bench`
 * prints; golang.org/design/14313-benchmark-format) as runs, one line at
 * a time.
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
 * MB/s -> MB_per_s). The name, its parts and the configuration are the
 * run's shared cells (tools.h); iterations and the metrics its own. Other
 * lines (PASS, ok, test output) are skipped.
 * Errors: a line starting with "Benchmark" + a non-lower-case byte that
 * is not a result line, a value that is not a finite decimal number (as
 * in a results table: no hex floats, no infinities), a negative value of
 * a time, size or count unit, a unit given twice, a key colliding with a
 * column the format makes, a NUL byte, a carriage return inside a line
 * (CR-only line ends), no result line at all.
 */
#include "../common/err.h"
#include "../common/num.h"
#include "tools.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOBENCH_MAX_CONFIG 256

static const char *const reserved[] = {"name", "gomaxprocs", "iterations", "file", NULL};

static bool is_reserved(const char *key, size_t n)
{
	for (size_t i = 0; reserved[i]; i++)
		if (strlen(reserved[i]) == n && !memcmp(reserved[i], key, n))
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
	long line;
};

struct gb {
	const char *path;
	long line_no;
	struct cfg config[GOBENCH_MAX_CONFIG];
	size_t nconfig;
	struct tool_emit *out;
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
			if (vlen == 0) { /* unset: the others keep their order */
				free(g->config[i].key);
				free(g->config[i].value);
				memmove(&g->config[i], &g->config[i + 1],
					(g->nconfig - i - 1) * sizeof(g->config[0]));
				g->nconfig--;
				return 1;
			}
			free(g->config[i].value);
			g->config[i].value = strndup(value, vlen);
			g->config[i].line = g->line_no;
			return g->config[i].value ? 1 : err_set("out of memory");
		}
	if (vlen == 0)
		return 1;
	if (is_reserved(s, k))
		return err_at(g->path, g->line_no, 1,
			      "configuration key '%.*s' is a column the format makes itself",
			      (int)k, s);
	if (g->nconfig == GOBENCH_MAX_CONFIG)
		return err_at(g->path, g->line_no, 1, "more than %d configuration keys",
			      GOBENCH_MAX_CONFIG);
	g->config[g->nconfig].key = strndup(s, k);
	g->config[g->nconfig].value = strndup(value, vlen);
	g->config[g->nconfig].line = g->line_no;
	if (!g->config[g->nconfig].key || !g->config[g->nconfig].value) {
		free(g->config[g->nconfig].key);
		free(g->config[g->nconfig].value);
		return err_set("out of memory");
	}
	g->nconfig++;
	return 1;
}

/* The unit as a column name: '/' -> "_per_", others but [A-Za-z0-9_] -> '_'. */
static size_t unit_column(const char *unit, size_t len, char *out)
{
	size_t o = 0;
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
	return o;
}

/*
 * A unit whose values cannot be negative: a time, a size or a count per
 * something (ns/op, sec/op, B/op, allocs/op, MB/s, ms/frame). Custom
 * units of other kinds (delta/op) may be.
 */
static bool unsigned_unit(const char *unit, size_t len)
{
	static const char *const heads[] = {"ns",  "us",    "µs",     "ms", "s",   "sec",
					    "B",   "KB",    "MB",     "GB", "KiB", "MiB",
					    "GiB", "bytes", "allocs", NULL};
	const char *slash = memchr(unit, '/', len);
	size_t head = slash ? (size_t)(slash - unit) : len;
	if (!slash)
		return false;
	for (size_t i = 0; heads[i]; i++)
		if (strlen(heads[i]) == head && !memcmp(heads[i], unit, head))
			return true;
	return false;
}

static int set_shared(struct gb *g, const char *key, size_t klen, const char *value, size_t vlen,
		      long line, long col)
{
	int rc = tool_emit_shared_n(g->out, key, klen, value, vlen, line, col);
	if (rc == 1)
		return err_at(g->path, g->line_no, col, "'%.*s' is given twice on this line",
			      (int)klen, key);
	return rc;
}

/* The name: -N suffix, key=value parts. */
static int name_fields(struct gb *g, const char *name, size_t len)
{
	char procs[32] = "1";
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
	rc = set_shared(g, "name", 4, name, len, 0, 1);
	if (rc == 0)
		rc = set_shared(g, "gomaxprocs", 10, procs, strlen(procs), 0, (long)len + 1);
	/* each /key=value part */
	for (size_t i = 0; rc == 0 && i < len; i++) {
		size_t start, stop, eq;
		if (name[i] != '/')
			continue;
		start = i + 1;
		stop = start;
		while (stop < len && name[stop] != '/')
			stop++;
		for (eq = start; eq < stop && name[eq] != '='; eq++)
			;
		if (eq < stop && eq > start) {
			if (is_reserved(name + start, eq - start))
				rc = err_at(g->path, g->line_no, (long)start + 1,
					    "sub-benchmark key '%.*s' is a column the format makes "
					    "itself",
					    (int)(eq - start), name + start);
			else
				rc = set_shared(g, name + start, eq - start, name + eq + 1,
						stop - eq - 1, 0, (long)start + 1);
		}
		i = stop - 1;
	}
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

static int metric(struct gb *g, const char *s, size_t vstart, size_t vend, size_t len, size_t *next)
{
	char column[512];
	size_t ustart = skip_space(s, vend, len), uend = word_end(s, ustart, len);
	double v;
	int rc;
	if (num_parse_real_n(s + vstart, vend - vstart, &v) != 0) {
		const char *what = "a finite decimal number";
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)(vend - vstart > 40 ? 40 : vend - vstart),
			 s + vstart);
		if (strchr(word, 'x') || strchr(word, 'X'))
			what = "a finite decimal number (hex floats are refused, as in a results "
			       "table)";
		return err_at(g->path, g->line_no, (long)vstart + 1, "value '%s' is not %s", word,
			      what);
	}
	if (uend == ustart)
		return err_at(g->path, g->line_no, (long)ustart + 1,
			      "value '%.*s' has no unit after it", (int)(vend - vstart),
			      s + vstart);
	if (uend - ustart > 100)
		return err_at(g->path, g->line_no, (long)ustart + 1, "unit longer than 100 bytes");
	if (v < 0 && unsigned_unit(s + ustart, uend - ustart))
		return err_at(g->path, g->line_no, (long)vstart + 1,
			      "value '%.*s' is negative: a %.*s cannot be", (int)(vend - vstart),
			      s + vstart, (int)(uend - ustart), s + ustart);
	unit_column(s + ustart, uend - ustart, column);
	rc = is_reserved(column, strlen(column))
		     ? 1
		     : tool_emit_set_num(g->out, column, strlen(column), s + vstart, vend - vstart,
					 v, (long)vstart + 1);
	if (rc == 1)
		return err_at(g->path, g->line_no, (long)ustart + 1,
			      "unit '%.*s' (column %s) is given twice or is a column the "
			      "format makes",
			      (int)(uend - ustart), s + ustart, column);
	*next = uend;
	return rc;
}

static int result_line(struct gb *g, const char *s, size_t len)
{
	size_t i = word_end(s, 0, len), w;
	int64_t iterations;
	size_t nmetrics = 0;
	int rc = tool_emit_row(g->out, g->line_no);
	if (rc == 0)
		rc = name_fields(g, s, i);
	for (size_t c = 0; rc == 0 && c < g->nconfig; c++)
		rc = set_shared(g, g->config[c].key, strlen(g->config[c].key), g->config[c].value,
				strlen(g->config[c].value), g->config[c].line, 1);
	if (rc)
		return rc;
	i = skip_space(s, i, len);
	w = word_end(s, i, len);
	if (w == i)
		return err_at(g->path, g->line_no, (long)i + 1,
			      "expected the iteration count after the benchmark name");
	if (num_parse_int_n(s + i, w - i, &iterations) != 0 || iterations <= 0 ||
	    !isdigit((unsigned char)s[i]))
		return err_at(g->path, g->line_no, (long)i + 1,
			      "iteration count '%.*s' is not a positive whole number",
			      (int)(w - i > 40 ? 40 : w - i), s + i);
	rc = tool_emit_set_n(g->out, "iterations", 10, s + i, w - i, (long)i + 1);
	for (i = skip_space(s, w, len); rc == 0 && i < len; i = skip_space(s, w, len)) {
		rc = metric(g, s, i, word_end(s, i, len), len, &w);
		nmetrics++;
	}
	if (rc == 0 && nmetrics == 0)
		rc = err_at(g->path, g->line_no, (long)len + 1,
			    "a result line needs at least one value and unit after the iterations");
	return rc ? rc : tool_emit_done(g->out);
}

int gobench_convert(struct tool_src *src, struct tool_emit *out)
{
	struct gb g = {.path = src->display, .out = out};
	const char *s;
	size_t len;
	bool newline;
	int rc = 0, got;
	while (rc == 0 && (got = tool_src_line(src, &s, &len, &newline)) == 1) {
		const char *nul = memchr(s, '\0', len), *cr;
		g.line_no = src->line_no;
		if (nul) {
			rc = err_at(g.path, g.line_no, (long)(nul - s) + 1,
				    "NUL byte: not benchmark text");
			break;
		}
		if (len && s[len - 1] == '\r')
			len--;
		if ((cr = memchr(s, '\r', len)) != NULL) {
			rc = err_at(
				g.path, g.line_no, (long)(cr - s) + 1,
				"a carriage return inside the line: CR-only line ends are not Go "
				"benchmark text (go test ends lines with LF; convert them with "
				"tr '\\r' '\\n')");
			break;
		}
		if (result_start(s, len))
			rc = result_line(&g, s, len);
		else if (config_line(&g, s, len) < 0)
			rc = -1;
	}
	if (rc == 0 && got < 0)
		rc = -1;
	if (rc == 0 && out->rows == 0)
		rc = err_at(g.path, g.line_no ? g.line_no : 1, 0,
			    "no benchmark result lines (BenchmarkName iterations value unit ...)");
	for (size_t c = 0; c < g.nconfig; c++) {
		free(g.config[c].key);
		free(g.config[c].value);
	}
	return rc;
}
