/*
 * tool_detect: what a file is, from its structure (tools.h, tool_classify).
 *
 * JSON (the first byte after blanks and a byte-order mark is '{' or '['):
 * walked with the streaming reader (tool_json.h) only as far as the top
 * level's keys and the first result need: hyperfine when `results` is an
 * array whose first element has `command`; Google Benchmark when the top
 * object has `benchmarks` (an array) and `context`, or a first row with
 * `name` and `real_time` or `run_type`. Anything else is named by its
 * top-level keys.
 *
 * Text, line by line until one line decides (a file of many lines that
 * decides nothing is read to its end, once):
 *   - line 1 is hyperfine's CSV header: hyperfine-csv; hyperfine's
 *     Markdown table header: refused (it holds rounded summaries);
 *   - "Running D test @ URL" then "T threads and C connections" (after
 *     whatever a Lua script printed first): wrk;
 *   - Google Benchmark's console table ("Benchmark  Time  CPU  Iterations"
 *     or "Run on (N X MHz CPU s)"): refused, with how to get its JSON;
 *   - benchstat's own output (its box-drawn header, "vs base", an
 *     "old time/op" header or "± N% (p=... n=...)" rows): refused;
 *   - a Go result line (BenchmarkX ITERS VALUE UNIT): gobench; Go's other
 *     lines (goos:, pkg:, PASS, ok, --- BENCH) only hint, and a file with
 *     hints but no result line is gobench too, so that its converter
 *     names what is missing instead of a table reader reading it;
 *   - line 1 holds a tab or a comma (and is none of the above): a table.
 * Lines are split at a lone CR as well as LF, so a file with CR-only line
 * ends is seen for what it is (its converter then refuses the CRs).
 */
#include "tool_json.h"
#include "tool_wrk.h"

#include "../common/err.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void say(struct tool_class *out, enum tool_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct tool_class *out, enum tool_kind kind, const char *fmt, ...)
{
	va_list ap;
	out->kind = kind;
	va_start(ap, fmt);
	vsnprintf(out->why, sizeof(out->why), fmt, ap);
	va_end(ap);
}

static void found(struct tool_class *out, const char *name)
{
	out->kind = TOOL_KIND_TOOL;
	out->format = tool_find(name);
}

/* ---- JSON ---- */

/* The keys of the object just opened, skipping values; note the first element's keys. */
struct json_look {
	char keys[200];
	size_t nkeys;
	bool results_array, results_command, benchmarks_array, context, row_name, row_time;
};

static void note_key(struct json_look *l, const char *key)
{
	size_t used = strlen(l->keys);
	if (l->nkeys < 8 && used + strlen(key) + 4 < sizeof(l->keys))
		snprintf(l->keys + used, sizeof(l->keys) - used, "%s%.40s", l->nkeys ? ", " : "",
			 key);
	else if (l->nkeys == 8 && used + 6 < sizeof(l->keys))
		strcat(l->keys, ", ...");
	l->nkeys++;
}

/* The first element of an array just opened: its keys, when it is an object. */
static int first_element(struct tj *j, bool hyperfine, struct json_look *l)
{
	enum tj_type t;
	const char *key;
	int more = tj_more(j);
	if (more <= 0)
		return more;
	if (tj_value(j, &t))
		return -1;
	if (t != TJ_OBJECT)
		return tj_skip(j, t);
	while ((more = tj_key(j, &key)) == 1) {
		if (hyperfine && !strcmp(key, "command"))
			l->results_command = true;
		if (!hyperfine && !strcmp(key, "name"))
			l->row_name = true;
		if (!hyperfine && (!strcmp(key, "real_time") || !strcmp(key, "run_type")))
			l->row_time = true;
		if (hyperfine && l->results_command)
			return 1; /* decided */
		if (tj_value(j, &t) || tj_skip(j, t))
			return -1;
	}
	return more;
}

static int classify_json(struct tool_src *src, struct tool_class *out)
{
	struct json_look l = {{0}};
	struct tj j;
	enum tj_type t;
	const char *key;
	int rc = tj_open(&j, src), more = 0;
	if (rc == 0)
		rc = tj_value(&j, &t);
	if (rc == 0 && t != TJ_OBJECT) {
		say(out, TOOL_KIND_UNKNOWN,
		    "it is JSON holding %s, where hyperfine (--export-json) and Google Benchmark "
		    "(--benchmark_format=json) write an object",
		    tj_type_name(t));
		goto done;
	}
	while (rc == 0 && (more = tj_key(&j, &key)) == 1) {
		bool results = !strcmp(key, "results"), benchmarks = !strcmp(key, "benchmarks");
		note_key(&l, key);
		if (!strcmp(key, "context"))
			l.context = true;
		if ((rc = tj_value(&j, &t)))
			break;
		if ((results || benchmarks) && t == TJ_ARRAY) {
			if (results)
				l.results_array = true;
			else
				l.benchmarks_array = true;
			if ((rc = first_element(&j, results, &l)) < 0)
				break;
			rc = 0;
			if (l.results_command || (l.benchmarks_array && (l.context || l.row_name)))
				break;
			continue; /* the rest of the array is not needed: the file ends here */
		}
		if ((rc = tj_skip(&j, t)))
			break;
		if (l.context && l.benchmarks_array)
			break;
	}
	if (rc == 0 && more < 0)
		rc = -1;
	if (l.results_command || (l.results_array && !l.benchmarks_array && !l.nkeys))
		found(out, "hyperfine");
	else if (l.benchmarks_array && (l.context || (l.row_name && l.row_time)))
		found(out, "gbench");
	else if (l.results_array && rc == 0 && more >= 0)
		found(out, "hyperfine"); /* an empty or odd results array: its converter says */
	else if (rc)
		say(out, TOOL_KIND_UNKNOWN, "it is not valid JSON (%s)", err_msg());
	else
		say(out, TOOL_KIND_UNKNOWN,
		    "it is a JSON object with the keys %s: not hyperfine's (results[] with "
		    "command and times) nor Google Benchmark's (context, benchmarks[])",
		    l.nkeys ? l.keys : "(none)");
	err_clear();
	rc = 0;
done:
	tj_close(&j);
	return rc;
}

/* ---- text ---- */

static bool has(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(s + i, needle, k))
			return true;
	return false;
}

static size_t skip_blank(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static size_t word_end(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] != ' ' && s[i] != '\t')
		i++;
	return i;
}

/* BenchmarkX ITERS VALUE UNIT: the shape tool_gobench.c reads (its values it checks itself). */
static bool go_result(const char *s, size_t n)
{
	size_t a, b;
	if (n < 9 || memcmp(s, "Benchmark", 9) || (n > 9 && islower((unsigned char)s[9])))
		return false;
	a = skip_blank(s, word_end(s, 0, n), n);
	b = word_end(s, a, n);
	if (b == a || !isdigit((unsigned char)s[a]))
		return false;
	for (size_t i = a; i < b; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return skip_blank(s, b, n) < n;
}

static bool go_hint(const char *s, size_t n)
{
	static const char *const starts[] = {"goos: ", "goarch: ", "pkg: ", "cpu: ", "--- BENCH:",
					     "ok  \t", "PASS",     "FAIL",  NULL};
	for (size_t i = 0; starts[i]; i++)
		if (n >= strlen(starts[i]) && !memcmp(s, starts[i], strlen(starts[i])))
			return true;
	return false;
}

/* "Benchmark   Time   CPU   Iterations" (Google Benchmark's console table header). */
static bool gbench_console(const char *s, size_t n)
{
	static const char *const words[] = {"Benchmark", "Time", "CPU", "Iterations"};
	size_t i = 0;
	for (size_t w = 0; w < 4; w++) {
		size_t e;
		i = skip_blank(s, i, n);
		e = word_end(s, i, n);
		if (e - i != strlen(words[w]) || memcmp(s + i, words[w], e - i))
			return false;
		i = e;
	}
	return true;
}

static bool benchstat_output(const char *s, size_t n)
{
	/* "│" (U+2502) in its header, as the current benchstat draws it */
	if (has(s, n, "\xe2\x94\x82") &&
	    (has(s, n, "sec/op") || has(s, n, "vs base") || has(s, n, "B/op") || has(s, n, ".txt")))
		return true;
	if (n >= 4 && !memcmp(s, "name", 4) && (has(s, n, "old time/op") || has(s, n, " delta")))
		return true;
	return has(s, n, " \xc2\xb1 ") && has(s, n, "(p=") && has(s, n, " n=");
}

struct text_look {
	long lines;
	bool go_hints;
	char first[100];
	size_t first_len;
	bool first_delim;
	char prev[512]; /* the line before, for wrk's two-line start */
	size_t prev_len;
	bool prev_running;
};

/* One line (no CR or LF in it): 1 when it decided. */
static int look_at(struct text_look *l, const char *s, size_t n, struct tool_class *out)
{
	l->lines++;
	if (l->lines == 1) {
		l->first_len = n < sizeof(l->first) - 1 ? n : sizeof(l->first) - 1;
		memcpy(l->first, s, l->first_len);
		l->first[l->first_len] = '\0';
		if (n >= 46 && !memcmp(s, "command,mean,stddev,median,user,system,min,max", 46) &&
		    (n == 46 || s[46] == ','))
			return found(out, "hyperfine-csv"), 1;
		if (n >= 16 && !memcmp(s, "| Command | Mean", 16)) {
			say(out, TOOL_KIND_REFUSED,
			    "it is a hyperfine --export-markdown table: rounded summaries, not "
			    "timings; export JSON (hyperfine --export-json F) and import that, or "
			    "--export-csv for the summaries as numbers");
			return 1;
		}
	}
	if (l->prev_running && tool_wrk_detect_lines(l->prev, l->prev_len, s, n))
		return found(out, "wrk"), 1;
	l->prev_running = n >= 8 && !memcmp(s, "Running ", 8) && has(s, n, " test @ ");
	if (l->prev_running) {
		l->prev_len = n < sizeof(l->prev) ? n : sizeof(l->prev);
		memcpy(l->prev, s, l->prev_len);
	}
	if (gbench_console(s, n) || (n > 8 && !memcmp(s, "Run on (", 8) && has(s, n, " CPU s)"))) {
		say(out, TOOL_KIND_REFUSED,
		    "it is Google Benchmark's console output (the table it prints): run the "
		    "benchmark with --benchmark_format=json (or --benchmark_out=F "
		    "--benchmark_out_format=json) and import that");
		return 1;
	}
	if (benchstat_output(s, n)) {
		say(out, TOOL_KIND_REFUSED,
		    "it is benchstat's own output (a comparison, not measurements): import the "
		    "go test -bench outputs benchstat read, and compare them with coreplan "
		    "compare --view benchstat");
		return 1;
	}
	if (go_result(s, n))
		return found(out, "gobench"), 1;
	if (go_hint(s, n))
		l->go_hints = true;
	if (l->lines == 1 && (memchr(s, '\t', n) || memchr(s, ',', n)) && !l->go_hints) {
		l->first_delim = true;
		out->kind = TOOL_KIND_TABLE;
		return 1;
	}
	return 0;
}

static int classify_text(struct tool_src *src, struct tool_class *out)
{
	struct text_look l = {0};
	const char *s;
	size_t len;
	bool newline;
	int got;
	while ((got = tool_src_line(src, &s, &len, &newline)) == 1) {
		const char *nul = memchr(s, '\0', len);
		size_t start = 0;
		if (nul) {
			say(out, TOOL_KIND_UNKNOWN,
			    "it holds binary data (a NUL byte at line %ld, column %ld)",
			    src->line_no, (long)(nul - s) + 1);
			return 0;
		}
		if (src->line_no == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
			start = 3;
		/* each CR-separated piece is a line too (a CRLF's CR is the end of the piece) */
		while (start <= len) {
			const char *cr = memchr(s + start, '\r', len - start);
			size_t end = cr ? (size_t)(cr - s) : len;
			if (look_at(&l, s + start, end - start, out))
				return 0;
			if (!cr)
				break;
			start = end + 1;
			if (start == len)
				break;
		}
	}
	if (got < 0)
		return -1;
	if (l.go_hints) {
		found(out, "gobench"); /* its converter says what is missing */
		return 0;
	}
	if (l.lines == 0)
		say(out, TOOL_KIND_UNKNOWN, "it is empty");
	else
		say(out, TOOL_KIND_UNKNOWN,
		    "it is text of %ld line%s whose first line ('%.60s%s') has no tab or comma: "
		    "not a headed table, and no line of it is a tool's",
		    l.lines, l.lines == 1 ? "" : "s", l.first, l.first_len > 60 ? "..." : "");
	return 0;
}

int tool_classify(struct tool_src *src, struct tool_class *out)
{
	size_t i;
	memset(out, 0, sizeof(*out));
	for (;;) {
		if (tool_src_fill(src))
			return -1;
		if (src->len == 0) {
			say(out, TOOL_KIND_UNKNOWN, "it is empty");
			return 0;
		}
		i = src->pos;
		if (src->consumed == 0 && i == 0 && src->len >= 3 &&
		    !memcmp(src->buf, "\xef\xbb\xbf", 3))
			i = 3;
		while (i < src->len && strchr(" \t\r\n", src->buf[i]) && src->buf[i])
			i++;
		if (i < src->len)
			break;
		/* a buffer of blanks only: look further (classify_text counts these lines) */
		if (src->in == NULL)
			break;
		return classify_text(src, out);
	}
	if (i < src->len && (src->buf[i] == '{' || src->buf[i] == '['))
		return classify_json(src, out);
	return classify_text(src, out);
}
