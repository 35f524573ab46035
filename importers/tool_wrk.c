/* tool_wrk: wrk 4.1 text output to a one-row table (contract in tool_wrk.h). */
#include "importers/tool_wrk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/num.h"
#include "importers/table.h"

enum col {
	C_URL,
	C_DURATION,
	C_THREADS,
	C_CONNS,
	C_LAT_AVG,
	C_LAT_STDEV,
	C_LAT_MAX,
	C_LAT_WITHIN,
	C_REQ_AVG,
	C_REQ_STDEV,
	C_REQ_MAX,
	C_REQ_WITHIN,
	C_P50,
	C_P75,
	C_P90,
	C_P99,
	C_REQUESTS,
	C_ELAPSED,
	C_READ,
	C_SE_CONNECT,
	C_SE_READ,
	C_SE_WRITE,
	C_SE_TIMEOUT,
	C_NON2XX,
	C_RPS,
	C_TRANSFER,
	NCOLS
};

static const char *const col_names[NCOLS] = {
	"url",
	"test_duration_s",
	"wrk_threads",
	"connections",
	"latency_avg_ms",
	"latency_stdev_ms",
	"latency_max_ms",
	"latency_within_stdev_pct",
	"thread_requests_avg_per_s",
	"thread_requests_stdev_per_s",
	"thread_requests_max_per_s",
	"thread_requests_within_stdev_pct",
	"latency_p50_ms",
	"latency_p75_ms",
	"latency_p90_ms",
	"latency_p99_ms",
	"requests_total",
	"elapsed_s",
	"read_MB",
	"socket_connect_errors_count",
	"socket_read_errors_count",
	"socket_write_errors_count",
	"socket_timeout_errors_count",
	"non_2xx_errors_count",
	"requests_per_s",
	"transfer_MB_per_s",
};

#define MAX_TOKENS 12
#define CELL_MAX 32

struct tok {
	const char *s;
	size_t len;
	long col; /* 1-based byte column */
};

struct parser {
	const char *path;
	struct tool_src *src;
	long line;
	const char *text; /* current line, without its end (the source's buffer) */
	size_t len;
	struct tok t[MAX_TOKENS];
	size_t ntok;
	char cells[NCOLS][CELL_MAX];
	char *url; /* copied from the Running line */
	/* what a Lua script printed (before Running, during the run, after Transfer/sec) */
	size_t script_lines;
	char *script;
	size_t script_len;
	bool script_cut;
};

/* Next line into ps->text/len; 0 at the end of input, <0 on a read error. */
static int next_line(struct parser *ps)
{
	bool newline;
	int got = tool_src_line(ps->src, &ps->text, &ps->len, &newline);
	if (got <= 0)
		return got;
	ps->line = ps->src->line_no;
	if (memchr(ps->text, '\0', ps->len)) {
		const char *z = memchr(ps->text, '\0', ps->len);
		return err_at(ps->path, ps->line, (long)(z - ps->text) + 1,
			      "NUL byte in wrk output (binary data)");
	}
	if (ps->len && ps->text[ps->len - 1] == '\r')
		ps->len--;
	return 1;
}

#define SCRIPT_MAX ((size_t)64 << 10)

/* A line wrk does not print: the script's output, kept (the first 64 KiB of it). */
static int script_line(struct parser *ps)
{
	ps->script_lines++;
	if (ps->script_len + ps->len + 1 > SCRIPT_MAX) {
		ps->script_cut = true;
		return 0;
	}
	{
		char *grown = realloc(ps->script, ps->script_len + ps->len + 2);
		if (!grown)
			return err_set("out of memory reading '%s'", ps->path);
		ps->script = grown;
	}
	if (ps->script_len)
		ps->script[ps->script_len++] = '\n';
	memcpy(ps->script + ps->script_len, ps->text, ps->len);
	ps->script_len += ps->len;
	ps->script[ps->script_len] = '\0';
	return 0;
}

static int tokenize(struct parser *ps)
{
	size_t i = 0;
	ps->ntok = 0;
	while (i < ps->len) {
		unsigned char c = (unsigned char)ps->text[i];
		if (c == ' ' || c == '\t') {
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			return err_at(ps->path, ps->line, (long)i + 1,
				      "control byte 0x%02x in wrk output", c);
		if (ps->ntok == MAX_TOKENS)
			break; /* more words than any wrk line has: need_tokens() names the first
				  extra */
		ps->t[ps->ntok].s = ps->text + i;
		ps->t[ps->ntok].col = (long)i + 1;
		while (i < ps->len && ps->text[i] != ' ' && ps->text[i] != '\t' &&
		       (unsigned char)ps->text[i] >= 0x20 && ps->text[i] != 0x7f)
			i++;
		ps->t[ps->ntok].len = (size_t)(ps->text + i - ps->t[ps->ntok].s);
		ps->ntok++;
	}
	return 0;
}

static bool is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/* Line i-th token is `word`; else an error naming what was expected. */
static int want(struct parser *ps, size_t i, const char *word, const char *what)
{
	if (i < ps->ntok && is(&ps->t[i], word))
		return 0;
	return err_at(ps->path, ps->line, i < ps->ntok ? ps->t[i].col : (long)ps->len + 1,
		      "expected %s ('%s')", what, word);
}

/* Length of the unsigned decimal number at the start of a token. */
static size_t number_len(const struct tok *t)
{
	size_t i = 0;
	while (i < t->len && ((t->s[i] >= '0' && t->s[i] <= '9') || t->s[i] == '.'))
		i++;
	return i;
}

struct unit {
	const char *name;
	double scale;
};

/*
 * A number followed by one of `units` (the whole rest of the token, minus
 * `strip` trailing characters the caller checked, e.g. ','). *out is the
 * number times the unit's scale.
 */
static int scaled(struct parser *ps, const struct tok *t, size_t strip, const struct unit *units,
		  const char *what, double *out)
{
	size_t n = number_len(t), ulen;
	double v;
	if (t->len < strip || n == 0 || n > t->len - strip || num_parse_real_n(t->s, n, &v) != 0)
		return err_at(ps->path, ps->line, t->col, "expected %s, not '%.*s'", what,
			      (int)t->len, t->s);
	ulen = t->len - strip - n;
	for (const struct unit *u = units; u->name; u++)
		if (strlen(u->name) == ulen && !memcmp(t->s + n, u->name, ulen)) {
			*out = v * u->scale;
			return 0;
		}
	return err_at(ps->path, ps->line, t->col + (long)n, "unknown unit '%.*s' in %s", (int)ulen,
		      t->s + n, what);
}

static const struct unit time_ms[] = {{"us", 1e-3}, {"ms", 1},     {"s", 1e3},
				      {"m", 60e3},  {"h", 3600e3}, {NULL, 0}};
static const struct unit time_s[] = {{"s", 1}, {"m", 60}, {"h", 3600}, {NULL, 0}};
static const struct unit metric[] = {{"", 1},     {"k", 1e3},  {"M", 1e6}, {"G", 1e9},
				     {"T", 1e12}, {"P", 1e15}, {NULL, 0}};
#define MIB (1024.0 * 1024.0)
static const struct unit binary_mb[] = {
	{"B", 1 / MIB},        {"KB", 1 / 1024.0},           {"MB", 1}, {"GB", 1024},
	{"TB", 1024.0 * 1024}, {"PB", 1024.0 * 1024 * 1024}, {NULL, 0}};
static const struct unit none[] = {{"", 1}, {NULL, 0}};

static void set_real(struct parser *ps, enum col c, double v)
{
	char buf[32];
	num_format_real(v, buf);
	snprintf(ps->cells[c], CELL_MAX, "%s", buf);
}

/* A whole-token unsigned integer (at most `strip` trailing chars ignored). */
static int count(struct parser *ps, const struct tok *t, size_t strip, const char *what, enum col c)
{
	int64_t v;
	if (t->len <= strip || num_parse_int_n(t->s, t->len - strip, &v) != 0 || v < 0 ||
	    t->s[0] == '+' || t->s[0] == '-')
		return err_at(ps->path, ps->line, t->col, "expected %s, not '%.*s'", what,
			      (int)t->len, t->s);
	snprintf(ps->cells[c], CELL_MAX, "%lld", (long long)v);
	return 0;
}

/* "54.73%", or "nan%" / "-nan%" (no samples): a missing cell. */
static int percent(struct parser *ps, const struct tok *t, enum col c)
{
	double v;
	if (is(t, "nan%") || is(t, "-nan%")) {
		ps->cells[c][0] = '\0';
		return 0;
	}
	if (t->len < 2 || t->s[t->len - 1] != '%')
		return err_at(ps->path, ps->line, t->col, "expected a percentage, not '%.*s'",
			      (int)t->len, t->s);
	if (scaled(ps, t, 1, none, "a percentage", &v) != 0)
		return ERR_DATA;
	if (v > 100)
		return err_at(ps->path, ps->line, t->col, "percentage %.*s is over 100",
			      (int)t->len, t->s);
	set_real(ps, c, v);
	return 0;
}

static int value(struct parser *ps, const struct tok *t, size_t strip, const struct unit *u,
		 const char *what, enum col c)
{
	double v;
	if (scaled(ps, t, strip, u, what, &v) != 0)
		return ERR_DATA;
	set_real(ps, c, v);
	return 0;
}

static int need_tokens(struct parser *ps, size_t n, const char *what)
{
	if (ps->ntok == n)
		return 0;
	if (ps->ntok > n)
		return err_at(ps->path, ps->line, ps->t[n].col, "unexpected '%.*s' after %s",
			      (int)ps->t[n].len, ps->t[n].s, what);
	return err_at(ps->path, ps->line, (long)ps->len + 1, "%s: line ends early", what);
}

/* Read the next line, tokenized; an error names `what` if input ended. */
static int line_of(struct parser *ps, const char *what)
{
	int got = next_line(ps);
	if (got < 0)
		return ERR_DATA;
	if (got == 0)
		return err_at(ps->path, ps->line + 1, 0, "wrk output ends before %s", what);
	return tokenize(ps);
}

/* Does the line start, after blanks, with `word`? */
static bool starts(const struct parser *ps, const char *word)
{
	size_t i = 0, k = strlen(word);
	while (i < ps->len && (ps->text[i] == ' ' || ps->text[i] == '\t'))
		i++;
	return ps->len - i >= k && !memcmp(ps->text + i, word, k);
}

/* The next line that starts with `word`; the lines before it are the script's. */
static int line_after_script(struct parser *ps, const char *word, const char *what)
{
	long first = 0;
	char seen[64] = "";
	for (;;) {
		int got = next_line(ps);
		if (got < 0)
			return ERR_DATA;
		if (got == 0 && ps->line == 0)
			return err_at(ps->path, 1, 0, "empty file, not wrk output");
		if (got == 0 && first)
			return err_at(
				ps->path, first, 1,
				"'%s' is not wrk's, and %s never follows (the file ends at line "
				"%ld)",
				seen, what, ps->line);
		if (got == 0)
			return err_at(ps->path, ps->line + 1, 0, "wrk output ends before %s", what);
		if (starts(ps, word))
			return tokenize(ps);
		if (!first) { /* the first line that is not wrk's, for the message if nothing
				 follows */
			size_t k = 0;
			first = ps->line;
			for (size_t i = 0; i < ps->len && k + 5 < sizeof(seen); i++) {
				unsigned char c = (unsigned char)ps->text[i];
				k += (size_t)snprintf(seen + k, sizeof(seen) - k,
						      c < 0x20 || c == 0x7f ? "\\x%02x" : "%c", c);
			}
		}
		if (script_line(ps))
			return ERR_DATA;
	}
}

static int parse_header(struct parser *ps)
{
	double v;
	/* Running 10s test @ http://host/ (a script's setup may print before it) */
	if (line_after_script(ps, "Running ", "the Running line") != 0)
		return ERR_DATA;
	if (want(ps, 0, "Running", "wrk's first line") || need_tokens(ps, 5, "the Running line"))
		return ERR_DATA;
	if (scaled(ps, &ps->t[1], 0, time_s, "a test duration", &v) != 0)
		return ERR_DATA;
	set_real(ps, C_DURATION, v);
	if (want(ps, 2, "test", "the Running line") || want(ps, 3, "@", "the Running line"))
		return ERR_DATA;
	if (!(ps->url = strndup(ps->t[4].s, ps->t[4].len)))
		return err_set("out of memory reading '%s'", ps->path);
	/* 2 threads and 50 connections */
	if (line_of(ps, "the threads line") != 0)
		return ERR_DATA;
	if (need_tokens(ps, 5, "the threads and connections line") ||
	    count(ps, &ps->t[0], 0, "a thread count", C_THREADS) ||
	    want(ps, 1, "threads", "the threads line") || want(ps, 2, "and", "the threads line") ||
	    count(ps, &ps->t[3], 0, "a connection count", C_CONNS) ||
	    want(ps, 4, "connections", "the threads line"))
		return ERR_DATA;
	if (!strcmp(ps->cells[C_THREADS], "0") || !strcmp(ps->cells[C_CONNS], "0"))
		return err_at(ps->path, ps->line,
			      ps->t[strcmp(ps->cells[C_THREADS], "0") ? 3 : 0].col,
			      "wrk runs at least one thread and one connection");
	/* Thread Stats   Avg      Stdev     Max   +/- Stdev (a script may print during the run) */
	if (line_after_script(ps, "Thread Stats", "the Thread Stats line") != 0)
		return ERR_DATA;
	if (need_tokens(ps, 7, "the Thread Stats line") ||
	    want(ps, 0, "Thread", "the Thread Stats line") ||
	    want(ps, 1, "Stats", "the Thread Stats line") || want(ps, 2, "Avg", "the column") ||
	    want(ps, 3, "Stdev", "the column") || want(ps, 4, "Max", "the column") ||
	    want(ps, 5, "+/-", "the column") || want(ps, 6, "Stdev", "the column"))
		return ERR_DATA;
	/* Latency     1.75ms    1.46ms   5.71ms   54.73% */
	if (line_of(ps, "the Latency line") != 0)
		return ERR_DATA;
	if (need_tokens(ps, 5, "the Latency line") || want(ps, 0, "Latency", "the Latency row") ||
	    value(ps, &ps->t[1], 0, time_ms, "a latency", C_LAT_AVG) ||
	    value(ps, &ps->t[2], 0, time_ms, "a latency", C_LAT_STDEV) ||
	    value(ps, &ps->t[3], 0, time_ms, "a latency", C_LAT_MAX) ||
	    percent(ps, &ps->t[4], C_LAT_WITHIN))
		return ERR_DATA;
	/* Req/Sec   592.10    288.48     1.06k    60.00% */
	if (line_of(ps, "the Req/Sec line") != 0)
		return ERR_DATA;
	if (need_tokens(ps, 5, "the Req/Sec line") || want(ps, 0, "Req/Sec", "the Req/Sec row") ||
	    value(ps, &ps->t[1], 0, metric, "a request rate", C_REQ_AVG) ||
	    value(ps, &ps->t[2], 0, metric, "a request rate", C_REQ_STDEV) ||
	    value(ps, &ps->t[3], 0, metric, "a request rate", C_REQ_MAX) ||
	    percent(ps, &ps->t[4], C_REQ_WITHIN))
		return ERR_DATA;
	return 0;
}

static int parse_distribution(struct parser *ps)
{
	static const char *const pct[] = {"50%", "75%", "90%", "99%"};
	for (size_t i = 0; i < 4; i++) {
		if (line_of(ps, "a Latency Distribution line") != 0)
			return ERR_DATA;
		if (need_tokens(ps, 2, "a Latency Distribution line") ||
		    want(ps, 0, pct[i], "wrk's next latency percentile") ||
		    value(ps, &ps->t[1], 0, time_ms, "a latency", (enum col)(C_P50 + i)))
			return ERR_DATA;
	}
	return 0;
}

/* Socket errors: connect 0, read 18806, write 0, timeout 0 */
static int parse_socket_errors(struct parser *ps)
{
	static const char *const names[] = {"connect", "read", "write", "timeout"};
	if (need_tokens(ps, 10, "the Socket errors line"))
		return ERR_DATA;
	for (size_t i = 0; i < 4; i++) {
		const struct tok *n = &ps->t[2 + 2 * i];
		bool last = i == 3;
		if (want(ps, 2 + 2 * i, names[i], "a socket error kind"))
			return ERR_DATA;
		if (!last && (n[1].len < 2 || n[1].s[n[1].len - 1] != ','))
			return err_at(ps->path, ps->line, n[1].col + (long)n[1].len,
				      "expected ',' after the %s count", names[i]);
		if (count(ps, &n[1], last ? 0 : 1, "a socket error count",
			  (enum col)(C_SE_CONNECT + i)))
			return ERR_DATA;
	}
	return 0;
}

static int parse_summary(struct parser *ps, bool *seen_dist)
{
	bool socket = false, non2xx = false;
	*seen_dist = false;
	if (line_of(ps, "the requests line") != 0)
		return ERR_DATA;
	if (ps->ntok == 2 && is(&ps->t[0], "Latency") && is(&ps->t[1], "Distribution")) {
		*seen_dist = true;
		if (parse_distribution(ps) != 0 || line_of(ps, "the requests line") != 0)
			return ERR_DATA;
	}
	/* 589 requests in 1.00s, 109.29KB read */
	if (need_tokens(ps, 6, "the requests line") ||
	    count(ps, &ps->t[0], 0, "a request count", C_REQUESTS) ||
	    want(ps, 1, "requests", "the requests line") || want(ps, 2, "in", "the requests line"))
		return ERR_DATA;
	if (ps->t[3].len < 2 || ps->t[3].s[ps->t[3].len - 1] != ',')
		return err_at(ps->path, ps->line, ps->t[3].col + (long)ps->t[3].len,
			      "expected ',' after the elapsed time");
	if (value(ps, &ps->t[3], 1, time_ms, "an elapsed time", C_ELAPSED) ||
	    value(ps, &ps->t[4], 0, binary_mb, "a size read", C_READ) ||
	    want(ps, 5, "read", "the requests line"))
		return ERR_DATA;
	{
		double ms = strtod(ps->cells[C_ELAPSED], NULL);
		set_real(ps, C_ELAPSED, ms / 1000.0);
	}
	for (;;) {
		if (line_of(ps, "the Requests/sec line") != 0)
			return ERR_DATA;
		if (!socket && !non2xx && ps->ntok >= 2 && is(&ps->t[0], "Socket") &&
		    is(&ps->t[1], "errors:")) {
			socket = true;
			if (parse_socket_errors(ps) != 0)
				return ERR_DATA;
			continue;
		}
		if (!non2xx && ps->ntok >= 1 && is(&ps->t[0], "Non-2xx")) {
			non2xx = true;
			if (need_tokens(ps, 5, "the Non-2xx line") ||
			    want(ps, 1, "or", "the Non-2xx line") ||
			    want(ps, 2, "3xx", "the Non-2xx line") ||
			    want(ps, 3, "responses:", "the Non-2xx line") ||
			    count(ps, &ps->t[4], 0, "a response count", C_NON2XX))
				return ERR_DATA;
			continue;
		}
		break;
	}
	/* Requests/sec:    588.78 */
	if (want(ps, 0, "Requests/sec:", "the Requests/sec line") ||
	    need_tokens(ps, 2, "the Requests/sec line") ||
	    value(ps, &ps->t[1], 0, none, "a request rate", C_RPS))
		return ERR_DATA;
	/* Transfer/sec:    109.25KB */
	if (line_of(ps, "the Transfer/sec line") != 0)
		return ERR_DATA;
	if (want(ps, 0, "Transfer/sec:", "the Transfer/sec line") ||
	    need_tokens(ps, 2, "the Transfer/sec line") ||
	    value(ps, &ps->t[1], 0, binary_mb, "a transfer rate", C_TRANSFER))
		return ERR_DATA;
	/* what a script's done() prints (blank lines at the end are no one's) */
	for (int got; (got = next_line(ps)) != 0;) {
		size_t blank = 0;
		if (got < 0)
			return ERR_DATA;
		while (blank < ps->len && (ps->text[blank] == ' ' || ps->text[blank] == '\t'))
			blank++;
		if (blank < ps->len && script_line(ps))
			return ERR_DATA;
	}
	return 0;
}

bool tool_wrk_detect_lines(const char *first, size_t n1, const char *second, size_t n2)
{
	static const char lead[] = "Running ";
	size_t k = sizeof(lead) - 1;
	bool test = false, threads = false;
	if (n1 < k || memcmp(first, lead, k) != 0)
		return false;
	for (size_t i = 0; i + 8 <= n1 && !test; i++)
		test = !memcmp(first + i, " test @ ", 8);
	for (size_t i = 0; i + 13 <= n2 && !threads; i++)
		threads = !memcmp(second + i, " threads and ", 13);
	return test && threads;
}

static int emit(struct parser *ps, struct tool_emit *out)
{
	char count[32];
	int rc = tool_emit_row(out, 1);
	for (size_t i = 0; rc == 0 && i < NCOLS; i++)
		rc = tool_emit_set(out, col_names[i], i == C_URL ? ps->url : ps->cells[i], 0);
	snprintf(count, sizeof(count), "%zu", ps->script_lines);
	if (rc == 0 && ps->script_lines) {
		rc = tool_emit_set(out, "script_lines", count, 0);
		if (rc == 0 && ps->script_cut) {
			char *grown = realloc(ps->script, ps->script_len + 64);
			if (!grown)
				return err_set("out of memory reading '%s'", ps->path);
			ps->script = grown;
			snprintf(ps->script + ps->script_len, 64, "\n... (cut at 64 KiB)");
		}
		if (rc == 0)
			rc = tool_emit_set(out, "script_output", ps->script ? ps->script : "", 0);
	}
	if (rc > 0)
		rc = err_set("%s: a wrk column twice", ps->path);
	return rc ? rc : tool_emit_done(out);
}

int tool_wrk_convert(struct tool_src *src, struct tool_emit *out)
{
	struct parser ps;
	bool dist;
	int rc = ERR_DATA;

	memset(&ps, 0, sizeof(ps));
	ps.path = src->display;
	ps.src = src;
	strcpy(ps.cells[C_SE_CONNECT], "0");
	strcpy(ps.cells[C_SE_READ], "0");
	strcpy(ps.cells[C_SE_WRITE], "0");
	strcpy(ps.cells[C_SE_TIMEOUT], "0");
	strcpy(ps.cells[C_NON2XX], "0");
	if (parse_header(&ps) != 0 || parse_summary(&ps, &dist) != 0)
		goto done;
	if (!strcmp(ps.cells[C_REQUESTS], "0")) {
		/* wrk prints zeros for statistics over no samples */
		static const enum col undefined[] = {
			C_LAT_AVG, C_LAT_STDEV,  C_LAT_MAX, C_LAT_WITHIN, C_REQ_AVG, C_REQ_STDEV,
			C_REQ_MAX, C_REQ_WITHIN, C_P50,     C_P75,        C_P90,     C_P99};
		for (size_t i = 0; i < sizeof(undefined) / sizeof(undefined[0]); i++)
			ps.cells[undefined[i]][0] = '\0';
	}
	rc = emit(&ps, out);
done:
	free(ps.url);
	free(ps.script);
	return rc;
}
