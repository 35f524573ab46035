/*
 * err: the one place an error message is recorded.
 *
 * Library code (importers/, analysis/, reports/, schema/) never prints and
 * never exits: on failure it records one message with err_set() or
 * err_at() and returns a negative code. cli/ prints err_msg() once and
 * chooses the exit code. A later err_set() overwrites an earlier one, so
 * the innermost function that knows the cause records it and callers just
 * propagate the return code.
 *
 * Messages follow STYLE.md: lowercase, no trailing period, subject quoted.
 * err_at() prefixes "path:line:col: " (line and col are 1-based; 0 omits
 * them), which is how every input error names its place.
 */
#ifndef COREPLAN_ERR_H
#define COREPLAN_ERR_H

#include <stddef.h>

enum {
	ERR_DATA = -1,  /* bad input or runtime failure: exit 1 */
	ERR_USAGE = -2, /* bad command line: exit 2 */
};

#if defined(__GNUC__)
#define ERR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ERR_PRINTF(a, b)
#endif

/* Record a message; returns ERR_DATA so callers can `return err_set(...)`. */
int err_set(const char *fmt, ...) ERR_PRINTF(1, 2);
/* Record a message about a place in an input file; returns ERR_DATA. */
int err_at(const char *path, long line, long col, const char *fmt, ...) ERR_PRINTF(4, 5);
/* Record a usage message; returns ERR_USAGE. */
int err_usage(const char *fmt, ...) ERR_PRINTF(1, 2);
/* Prefix the current message with "context: " (e.g. the corpus name). */
void err_prefix(const char *fmt, ...) ERR_PRINTF(1, 2);
/* The last recorded message ("" if none). Valid until the next err_*(). */
const char *err_msg(void);
void err_clear(void);

/*
 * Non-fatal notices (for example "3 run files missing") collected during a
 * command; cli/ prints them to stderr after the command's data.
 */
void warn_add(const char *fmt, ...) ERR_PRINTF(1, 2);
size_t warn_count(void);
const char *warn_get(size_t i);
void warn_clear(void);

#endif
