/* strbuf: see strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	char *grown;
	if (want <= sb->alloc)
		return 0;
	if (want < 2 * sb->alloc)
		want = 2 * sb->alloc;
	if (want < 64)
		want = 64;
	grown = realloc(sb->buf, want);
	if (!grown)
		return -1;
	sb->buf = grown;
	sb->alloc = want;
	return 0;
}

int strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	if (grow(sb, len))
		return -1;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_adds(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int needed;
	va_start(ap, fmt);
	needed = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (needed < 0 || grow(sb, (size_t)needed))
		return -1;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)needed + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)needed;
	return 0;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *out = sb->buf ? sb->buf : strdup("");
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return out;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}
