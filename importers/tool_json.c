/* tool_json: the streaming JSON reader of the tool converters (tool_json.h). */
#include "tool_json.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bytes ---- */

/* The next byte, or -1 at the end (io_error set on a read error). */
static int next_byte(struct tj *j)
{
	struct tool_src *s = j->src;
	int c;
	if (s->pos == s->len) {
		if (tool_src_fill(s)) {
			j->io_error = true;
			return -1;
		}
		if (s->len == 0)
			return -1;
	}
	c = s->buf[s->pos++];
	if (c == '\n') {
		j->line++;
		j->col = 0;
	} else {
		j->col++;
	}
	return c;
}

static int peek_byte(struct tj *j)
{
	struct tool_src *s = j->src;
	if (s->pos == s->len) {
		if (tool_src_fill(s)) {
			j->io_error = true;
			return -1;
		}
		if (s->len == 0)
			return -1;
	}
	return s->buf[s->pos];
}

static int skip_blanks(struct tj *j)
{
	struct tool_src *s = j->src;
	for (;;) {
		/* a run of blanks inside the buffer at once (JSON tools indent every line) */
		while (s->pos < s->len) {
			unsigned char c = s->buf[s->pos];
			if (c == ' ' || c == '\t' || c == '\r')
				j->col++;
			else if (c == '\n')
				j->line++, j->col = 0;
			else
				return c;
			s->pos++;
		}
		if (peek_byte(j) < 0)
			return -1;
	}
}

/* An error at the byte just read (line, col): the path first. */
static int error_here(struct tj *j, const char *what)
{
	if (j->io_error)
		return -1;
	return err_at(j->display, j->line, j->col, "%s: %s", tj_path(j), what);
}

static int unexpected(struct tj *j, int c, const char *expected)
{
	char what[160];
	if (j->io_error)
		return -1;
	if (c < 0)
		snprintf(what, sizeof(what), "truncated: the file ends where %s should be",
			 expected);
	else if (c == 0)
		snprintf(what, sizeof(what),
			 "a NUL byte where %s should be (binary data, not JSON)", expected);
	else if (c < 0x20 || c >= 0x7f)
		snprintf(what, sizeof(what), "byte 0x%02x where %s should be (not JSON)", c,
			 expected);
	else
		snprintf(what, sizeof(what), "'%c' where %s should be (not JSON)", c, expected);
	if (c < 0)
		return err_at(j->display, j->line, j->col + 1, "%s: %s", tj_path(j), what);
	return error_here(j, what);
}

/* ---- text ---- */

static int text_put(struct tj *j, const char *s, size_t n)
{
	if (j->text_len + n + 1 > j->text_cap) {
		size_t cap = j->text_cap ? j->text_cap : 256;
		char *grown;
		if (j->text_len + n + 1 > TOOL_LINE_MAX)
			return error_here(j, "a string or number longer than 16 MiB");
		while (cap < j->text_len + n + 1)
			cap *= 2;
		if (!(grown = realloc(j->text, cap)))
			return err_set("out of memory reading '%s'", j->display);
		j->text = grown;
		j->text_cap = cap;
	}
	memcpy(j->text + j->text_len, s, n);
	j->text_len += n;
	j->text[j->text_len] = '\0';
	return 0;
}

static int hex4(struct tj *j, unsigned *out)
{
	*out = 0;
	for (int k = 0; k < 4; k++) {
		int c = next_byte(j);
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return unexpected(j, c, "a hex digit of a \\u escape");
		*out = *out * 16 + (unsigned)d;
	}
	return 0;
}

static int put_utf8(struct tj *j, unsigned cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80)
		b[0] = (char)cp, n = 1;
	else if (cp < 0x800)
		b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	else if (cp < 0x10000)
		b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 0x3f)),
		b[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	else
		b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 0x3f)),
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	return text_put(j, b, n);
}

static int escape(struct tj *j)
{
	int c = next_byte(j);
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit = c > 0 ? strchr(from, c) : NULL;
	unsigned cp, low;
	if (hit) {
		char out = to[hit - from];
		return text_put(j, &out, 1);
	}
	if (c != 'u')
		return unexpected(j, c, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
	if (hex4(j, &cp))
		return -1;
	if (cp == 0)
		return error_here(j, "an escaped NUL (\\u0000) in a string: it would cut the "
				     "text short");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return error_here(j, "a lone low surrogate \\u escape: not a character");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (next_byte(j) != '\\' || next_byte(j) != 'u')
			return error_here(j, "a high surrogate \\u escape without its low half");
		if (hex4(j, &low))
			return -1;
		if (low < 0xdc00 || low > 0xdfff)
			return error_here(j, "a high surrogate \\u escape without its low half");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
	}
	return put_utf8(j, cp);
}

/* A string, the opening quote read: decoded into j->text. */
static int read_string(struct tj *j)
{
	struct tool_src *s = j->src;
	j->text_len = 0;
	if (text_put(j, "", 0))
		return -1;
	for (;;) {
		size_t start, k;
		int c;
		if (peek_byte(j) < 0)
			return unexpected(j, -1, "the string's closing '\"'");
		/* a run of plain bytes at once */
		start = s->pos;
		for (k = start; k < s->len; k++) {
			unsigned char b = s->buf[k];
			if (b == '"' || b == '\\' || b < 0x20)
				break;
		}
		if (k > start) {
			j->col += (long)(k - start);
			s->pos = k;
			if (text_put(j, (const char *)s->buf + start, k - start))
				return -1;
			continue;
		}
		c = next_byte(j);
		if (c == '"')
			return 0;
		if (c == '\n') /* named where the string starts: the break's column is the next
				  line's 0 */
			return tj_error(
				j, "a line break inside the string that starts here (not JSON)");
		if (c == '\\') {
			if (escape(j))
				return -1;
			continue;
		}
		return error_here(j, c == '\n' ? "a line break inside a string (not JSON)"
				     : c == 0 ? "a NUL byte inside a string (binary data, not JSON)"
					      : "a control byte inside a string (not JSON)");
	}
}

/*
 * Append the run of digits that follows (a whole run inside the buffer at
 * once, as read_string does): *any says whether there was one.
 */
static int take_digits(struct tj *j, bool *any)
{
	struct tool_src *s = j->src;
	*any = false;
	for (;;) {
		size_t start, k;
		if (peek_byte(j) < 0)
			return j->io_error ? -1 : 0;
		start = s->pos;
		for (k = start; k < s->len && s->buf[k] >= '0' && s->buf[k] <= '9'; k++)
			;
		if (k == start)
			return 0;
		*any = true;
		j->col += (long)(k - start);
		s->pos = k;
		if (text_put(j, (const char *)s->buf + start, k - start))
			return -1;
		if (k < s->len)
			return 0;
	}
}

/* Append the byte that follows (peeked already). */
static int take(struct tj *j)
{
	char ch = (char)next_byte(j);
	return text_put(j, &ch, 1);
}

/* A number, its first byte read: the text, then the value (finite). */
static int read_number(struct tj *j, int first)
{
	char c0 = (char)first;
	int c;
	bool digits = false, integer = true;
	j->text_len = 0;
	if (text_put(j, &c0, 1))
		return -1;
	if (first == '-') {
		if ((c = peek_byte(j)) < '0' || c > '9')
			return next_byte(j), unexpected(j, c, "a digit after '-'");
		if (take(j))
			return -1;
	}
	if (j->text[j->text_len - 1] == '0') {
		if ((c = peek_byte(j)) >= '0' && c <= '9')
			return next_byte(j),
			       error_here(j, "a number with a leading zero (not JSON)");
	} else if (take_digits(j, &digits)) {
		return -1;
	}
	if (peek_byte(j) == '.') {
		integer = false;
		if (take(j) || take_digits(j, &digits))
			return -1;
		if (!digits)
			return c = peek_byte(j), next_byte(j), unexpected(j, c, "a digit after '.'");
	}
	if ((c = peek_byte(j)) == 'e' || c == 'E') {
		integer = false;
		if (take(j))
			return -1;
		if (((c = peek_byte(j)) == '+' || c == '-') && take(j))
			return -1;
		if (take_digits(j, &digits))
			return -1;
		if (!digits)
			return c = peek_byte(j), next_byte(j),
			       unexpected(j, c, "a digit of the exponent");
	}
	/* an integer that fits int64: its double is the one strtod gives (both round to
	 * nearest), without strtod */
	if (integer && num_parse_int(j->text, &j->i) == 0) {
		j->is_int = true;
		j->num = (double)j->i;
		return 0;
	}
	if (num_parse_real(j->text, &j->num) != 0) {
		errno = 0;
		double v = strtod(j->text, NULL);
		if (!isfinite(v) || errno == ERANGE)
			return tj_error(j,
					"a number beyond a double's range (%.40s would read as "
					"infinity)",
					j->text);
		return tj_error(j, "'%s' is not a number", j->text);
	}
	j->is_int = false; /* integer syntax beyond int64 (or a real) */
	return 0;
}

static int literal(struct tj *j, const char *rest, enum tj_type type)
{
	for (const char *p = rest; *p; p++) {
		int c = next_byte(j);
		if (c != *p)
			return unexpected(j, c, "a JSON value");
	}
	j->type = type;
	return 0;
}

/* ---- structure ---- */

static int push(struct tj *j, bool object)
{
	struct tj_frame *f;
	if (j->depth == TJ_DEPTH_MAX)
		return error_here(j, "nested deeper than 2000 levels");
	if (j->depth == j->stack_cap) {
		size_t cap = j->stack_cap ? 2 * j->stack_cap : 16;
		struct tj_frame *grown = realloc(j->stack, cap * sizeof(*grown));
		if (!grown)
			return err_set("out of memory reading '%s'", j->display);
		memset(grown + j->stack_cap, 0, (cap - j->stack_cap) * sizeof(*grown));
		j->stack = grown;
		j->stack_cap = cap;
	}
	f = &j->stack[j->depth++];
	{ /* the frame's key slots stay allocated from object to object: emptied, not freed */
		size_t *slots = f->slots, nslots = f->nslots;
		if (nslots > 256) { /* a large object's: emptying it for every small one costs */
			free(slots);
			slots = NULL;
			nslots = 0;
		} else if (slots && f->nkeys) {
			memset(slots, 0, nslots * sizeof(*slots));
		}
		memset(f, 0, sizeof(*f));
		f->slots = slots;
		f->nslots = nslots;
	}
	f->object = object;
	f->first = true;
	f->keys_start = j->keys_len;
	f->key = SIZE_MAX;
	return 0;
}

static void pop(struct tj *j)
{
	struct tj_frame *f = &j->stack[--j->depth];
	j->keys_len = f->keys_start;
}

int tj_open(struct tj *j, struct tool_src *src)
{
	memset(j, 0, sizeof(*j));
	j->src = src;
	j->display = src->display;
	j->line = 1;
	/* a UTF-8 byte-order mark */
	if (peek_byte(j) == 0xef) {
		struct tool_src *s = j->src;
		if (s->len - s->pos >= 3 && !memcmp(s->buf + s->pos, "\xef\xbb\xbf", 3)) {
			s->pos += 3;
			return 0;
		}
	}
	return j->io_error ? -1 : 0;
}

void tj_close(struct tj *j)
{
	for (size_t d = 0; d < j->stack_cap; d++)
		free(j->stack[d].slots);
	free(j->stack);
	free(j->keys);
	free(j->text);
	memset(j, 0, sizeof(*j));
}

int tj_value(struct tj *j, enum tj_type *type)
{
	int c = skip_blanks(j);
	j->tok_line = j->line;
	j->tok_col = j->col + 1;
	c = next_byte(j);
	j->type = TJ_NONE;
	switch (c) {
	case '{':
		j->type = TJ_OBJECT;
		break;
	case '[':
		j->type = TJ_ARRAY;
		break;
	case '"':
		j->type = TJ_STRING;
		if (read_string(j))
			return -1;
		break;
	case 't':
		if (literal(j, "rue", TJ_TRUE))
			return -1;
		break;
	case 'f':
		if (literal(j, "alse", TJ_FALSE))
			return -1;
		break;
	case 'n':
		if (literal(j, "ull", TJ_NULL))
			return -1;
		break;
	default:
		if (c == '-' || (c >= '0' && c <= '9')) {
			j->type = TJ_NUMBER;
			if (read_number(j, c))
				return -1;
			break;
		}
		return unexpected(j, c, "a JSON value");
	}
	if ((j->type == TJ_OBJECT || j->type == TJ_ARRAY) && push(j, j->type == TJ_OBJECT))
		return -1;
	*type = j->type;
	return 0;
}

static size_t key_hash(const char *s)
{
	size_t h = 1469598103934665603ULL & SIZE_MAX;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ULL;
	return h;
}

/* Record key (at offset off in keys) in frame f: 1 when it was there already. */
static int remember_key(struct tj *j, struct tj_frame *f, size_t off)
{
	size_t mask, i;
	if (2 * (f->nkeys + 1) > f->nslots) {
		size_t n = f->nslots ? 2 * f->nslots : 16;
		size_t *slots = calloc(n, sizeof(*slots));
		if (!slots)
			return err_set("out of memory reading '%s'", j->display);
		for (size_t k = 0; k < f->nslots; k++)
			if (f->slots[k]) {
				size_t m = key_hash(j->keys + f->slots[k] - 1) & (n - 1);
				while (slots[m])
					m = (m + 1) & (n - 1);
				slots[m] = f->slots[k];
			}
		free(f->slots);
		f->slots = slots;
		f->nslots = n;
	}
	mask = f->nslots - 1;
	for (i = key_hash(j->keys + off) & mask; f->slots[i]; i = (i + 1) & mask)
		if (!strcmp(j->keys + f->slots[i] - 1, j->keys + off))
			return 1;
	f->slots[i] = off + 1;
	f->nkeys++;
	return 0;
}

int tj_key(struct tj *j, const char **key)
{
	struct tj_frame *f = &j->stack[j->depth - 1];
	int c = skip_blanks(j);
	size_t off;
	if (!f->first) {
		c = next_byte(j);
		if (c == '}')
			goto end;
		if (c != ',')
			return unexpected(j, c, "',' or '}'");
		c = skip_blanks(j);
	} else if (c == '}') {
		next_byte(j);
		goto end;
	}
	f->first = false;
	j->tok_line = j->line;
	j->tok_col = j->col + 1;
	if ((c = next_byte(j)) != '"')
		return unexpected(j, c, f->index ? "the next key" : "a key or '}'");
	if (read_string(j))
		return -1;
	/* keys of this frame: they stay until it closes (duplicates are checked against them) */
	if (j->keys_len + j->text_len + 1 > j->keys_cap) {
		size_t cap = j->keys_cap ? j->keys_cap : 1024;
		char *grown;
		while (cap < j->keys_len + j->text_len + 1)
			cap *= 2;
		if (!(grown = realloc(j->keys, cap)))
			return err_set("out of memory reading '%s'", j->display);
		j->keys = grown;
		j->keys_cap = cap;
	}
	off = j->keys_len;
	memcpy(j->keys + off, j->text, j->text_len + 1);
	j->keys_len += j->text_len + 1;
	f->key = off;
	f->index++;
	switch (remember_key(j, f, off)) {
	case 0:
		break;
	case 1:
		return err_at(j->display, j->tok_line, j->tok_col,
			      "%s: key given twice in one object (which one counts is undefined)",
			      tj_path(j));
	default:
		return -1;
	}
	if ((c = skip_blanks(j), next_byte(j)) != ':')
		return unexpected(j, c, "':' after the key");
	*key = j->keys + off;
	return 1;
end:
	pop(j);
	return 0;
}

int tj_more(struct tj *j)
{
	struct tj_frame *f = &j->stack[j->depth - 1];
	int c = skip_blanks(j);
	if (!f->first) {
		c = next_byte(j);
		if (c == ']') {
			pop(j);
			return 0;
		}
		if (c != ',')
			return unexpected(j, c, "',' or ']'");
	} else if (c == ']') {
		next_byte(j);
		pop(j);
		return 0;
	}
	f->first = false;
	f->index++;
	return 1;
}

int tj_skip(struct tj *j, enum tj_type type)
{
	size_t depth = j->depth;
	if (type != TJ_OBJECT && type != TJ_ARRAY)
		return 0;
	/* walk until the frame this value opened is closed */
	while (j->depth >= depth) {
		struct tj_frame *f = &j->stack[j->depth - 1];
		enum tj_type t;
		const char *key;
		int more = f->object ? tj_key(j, &key) : tj_more(j);
		if (more < 0)
			return -1;
		if (more == 0)
			continue;
		if (tj_value(j, &t))
			return -1;
	}
	return 0;
}

int tj_finish(struct tj *j)
{
	int c = skip_blanks(j);
	if (c >= 0) {
		next_byte(j);
		return unexpected(j, c, "the end of the file (the top value is complete)");
	}
	return j->io_error ? -1 : 0;
}

/* ---- messages ---- */

static bool plain_key(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_'))
			return false;
	return true;
}

const char *tj_path(struct tj *j)
{
	size_t used = 0, size = sizeof(j->path);
	used += (size_t)snprintf(j->path, size, "$");
	for (size_t d = 0; d < j->depth && used < size - 40; d++) {
		const struct tj_frame *f = &j->stack[d];
		int w;
		if (!f->object) {
			if (f->first)
				break;
			w = snprintf(j->path + used, size - used, "[%zu]", f->index - 1);
		} else if (f->key == SIZE_MAX) {
			break;
		} else {
			const char *k = j->keys + f->key;
			w = plain_key(k) ? snprintf(j->path + used, size - used, ".%.200s", k)
					 : snprintf(j->path + used, size - used, ".\"%.200s\"", k);
		}
		if (w < 0)
			break;
		used += (size_t)w;
		if (used >= size)
			used = size - 1;
	}
	return j->path;
}

int tj_error(struct tj *j, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return err_at(j->display, j->tok_line, j->tok_col, "%s: %s", tj_path(j), what);
}

const char *tj_type_name(enum tj_type type)
{
	static const char *const names[] = {
		[TJ_NONE] = "nothing",    [TJ_OBJECT] = "an object", [TJ_ARRAY] = "an array",
		[TJ_STRING] = "a string", [TJ_NUMBER] = "a number",  [TJ_TRUE] = "true",
		[TJ_FALSE] = "false",     [TJ_NULL] = "null"};
	return names[type];
}

void tj_fmt(double x, char *buf, size_t size)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}
