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
	const char *p, *end;
	long line;
	const char *text; /* current line, without its end */
	size_t len;
	struct tok t[MAX_TOKENS];
	size_t ntok;
	char cells[NCOLS][CELL_MAX];
	const char *url; /* into the input */
	size_t url_len;
};

/* Next line into ps->text/len; false at the end of input. */
static bool next_line(struct parser *ps)
{
	const char *nl;
	if (ps->p >= ps->end)
		return false;
	nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
	ps->text = ps->p;
	ps->len = (size_t)((nl ? nl : ps->end) - ps->p);
	ps->p = nl ? nl + 1 : ps->end;
	ps->line++;
	if (ps->len && ps->text[ps->len - 1] == '\r')
		ps->len--;
	return true;
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
	if (!next_line(ps))
		return err_at(ps->path, ps->line + 1, 0, "wrk output ends before %s", what);
	return tokenize(ps);
}

static int parse_header(struct parser *ps)
{
	double v;
	/* Running 10s test @ http://host/ */
	if (line_of(ps, "the Running line") != 0)
		return ERR_DATA;
	if (want(ps, 0, "Running", "wrk's first line") || need_tokens(ps, 5, "the Running line"))
		return ERR_DATA;
	if (scaled(ps, &ps->t[1], 0, time_s, "a test duration", &v) != 0)
		return ERR_DATA;
	set_real(ps, C_DURATION, v);
	if (want(ps, 2, "test", "the Running line") || want(ps, 3, "@", "the Running line"))
		return ERR_DATA;
	ps->url = ps->t[4].s;
	ps->url_len = ps->t[4].len;
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
	/* Thread Stats   Avg      Stdev     Max   +/- Stdev */
	if (line_of(ps, "the Thread Stats line") != 0)
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
	while (next_line(ps)) {
		if (tokenize(ps) != 0)
			return ERR_DATA;
		if (ps->ntok)
			return err_at(ps->path, ps->line, ps->t[0].col,
				      "unexpected text after wrk's Transfer/sec line "
				      "(output of a Lua script is not read)");
	}
	return 0;
}

/* One packed block: ncols pointers, then the strings (table.c's layout). */
static char **pack(const char *const *strs, size_t n)
{
	size_t bytes = n * sizeof(char *);
	char **row, *p;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(strs[i]) + 1;
	row = malloc(bytes);
	if (!row)
		return NULL;
	p = (char *)(row + n);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(strs[i]) + 1;
		memcpy(p, strs[i], len);
		row[i] = p;
		p += len;
	}
	return row;
}

/* Whether `needle` occurs in the n bytes at `hay`. */
static bool contains(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(hay + i, needle, k))
			return true;
	return false;
}

bool tool_wrk_detect(const char *bytes, size_t n)
{
	static const char lead[] = "Running ";
	const char *nl, *second, *end2;
	if (n < sizeof(lead) - 1 || memcmp(bytes, lead, sizeof(lead) - 1) != 0)
		return false;
	nl = memchr(bytes, '\n', n);
	if (!nl || !contains(bytes, (size_t)(nl - bytes), " test @ "))
		return false;
	second = nl + 1;
	end2 = memchr(second, '\n', n - (size_t)(second - bytes));
	if (!end2)
		end2 = bytes + n;
	return contains(second, (size_t)(end2 - second), " threads and ");
}

int tool_wrk_convert(const char *bytes, size_t n, const char *display_path, struct table *out)
{
	struct parser ps;
	const char *row[NCOLS];
	char *url = NULL;
	bool dist;
	int rc = ERR_DATA;

	memset(out, 0, sizeof(*out));
	memset(&ps, 0, sizeof(ps));
	ps.path = display_path;
	ps.p = bytes;
	ps.end = bytes + n;
	if (memchr(bytes, '\0', n)) {
		const char *z = memchr(bytes, '\0', n);
		long line = 1, col = 1;
		for (const char *c = bytes; c < z; c++, col++)
			if (*c == '\n')
				line++, col = 0;
		return err_at(display_path, line, col, "NUL byte in wrk output (binary data)");
	}
	if (n == 0)
		return err_at(display_path, 0, 0, "empty file, not wrk output");
	strcpy(ps.cells[C_SE_CONNECT], "0");
	strcpy(ps.cells[C_SE_READ], "0");
	strcpy(ps.cells[C_SE_WRITE], "0");
	strcpy(ps.cells[C_SE_TIMEOUT], "0");
	strcpy(ps.cells[C_NON2XX], "0");
	if (parse_header(&ps) != 0 || parse_summary(&ps, &dist) != 0)
		return ERR_DATA;
	if (!strcmp(ps.cells[C_REQUESTS], "0")) {
		/* wrk prints zeros for statistics over no samples */
		static const enum col undefined[] = {
			C_LAT_AVG, C_LAT_STDEV,  C_LAT_MAX, C_LAT_WITHIN, C_REQ_AVG, C_REQ_STDEV,
			C_REQ_MAX, C_REQ_WITHIN, C_P50,     C_P75,        C_P90,     C_P99};
		for (size_t i = 0; i < sizeof(undefined) / sizeof(undefined[0]); i++)
			ps.cells[undefined[i]][0] = '\0';
	}
	url = strndup(ps.url, ps.url_len);
	if (!url)
		return err_set("out of memory reading '%s'", display_path);
	for (size_t i = 0; i < NCOLS; i++)
		row[i] = ps.cells[i];
	row[C_URL] = url;
	out->display_path = strdup(display_path);
	out->header = pack(col_names, NCOLS);
	out->cells = malloc(sizeof(*out->cells));
	out->lines = malloc(sizeof(*out->lines));
	if (out->cells)
		out->cells[0] = pack(row, NCOLS);
	if (!out->display_path || !out->header || !out->cells || !out->lines || !out->cells[0]) {
		if (out->cells && out->cells[0])
			free(out->cells[0]);
		free(out->cells);
		out->cells = NULL;
		table_release(out);
		err_set("out of memory reading '%s'", display_path);
		goto done;
	}
	out->delimiter = '\t';
	out->ncols = NCOLS;
	out->nrows = 1;
	out->lines[0] = 1;
	rc = 0;
done:
	free(url);
	return rc;
}
