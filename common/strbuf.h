/*
 * strbuf: a growable NUL-terminated string.
 *
 * Initialise with STRBUF_INIT; buf is always a valid C string (possibly
 * ""); strbuf_release() frees it and leaves an empty strbuf. On allocation
 * failure the functions return -1 and leave the contents as they were.
 */
#ifndef COREPLAN_STRBUF_H
#define COREPLAN_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT {NULL, 0, 0}

int strbuf_add(struct strbuf *sb, const char *data, size_t len);
int strbuf_adds(struct strbuf *sb, const char *s);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_reset(struct strbuf *sb);
/* Give the buffer to the caller (never NULL unless out of memory). */
char *strbuf_detach(struct strbuf *sb);
const char *strbuf_str(const struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

#endif
