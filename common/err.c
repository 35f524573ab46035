/* err: see err.h. One static buffer: coreplan is single-threaded. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char last_msg[4096];
static char **warnings;
static size_t nwarnings;

static void vrecord(const char *prefix, const char *fmt, va_list ap)
{
	size_t used = 0;
	if (prefix) {
		snprintf(last_msg, sizeof(last_msg), "%s", prefix);
		used = strlen(last_msg);
	}
	vsnprintf(last_msg + used, sizeof(last_msg) - used, fmt, ap);
}

int err_set(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrecord(NULL, fmt, ap);
	va_end(ap);
	return ERR_DATA;
}

int err_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vrecord(NULL, fmt, ap);
	va_end(ap);
	return ERR_USAGE;
}

int err_at(const char *path, long line, long col, const char *fmt, ...)
{
	char prefix[1200];
	va_list ap;
	if (line > 0 && col > 0)
		snprintf(prefix, sizeof(prefix), "%s:%ld:%ld: ", path, line, col);
	else if (line > 0)
		snprintf(prefix, sizeof(prefix), "%s:%ld: ", path, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", path);
	va_start(ap, fmt);
	vrecord(prefix, fmt, ap);
	va_end(ap);
	return ERR_DATA;
}

void err_prefix(const char *fmt, ...)
{
	char combined[sizeof(last_msg)];
	size_t used, keep;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(combined, sizeof(combined) / 2, fmt, ap);
	va_end(ap);
	used = strlen(combined);
	memcpy(combined + used, ": ", 3);
	used += 2;
	/* the old message is cut, not the prefix, if the two do not fit */
	keep = strlen(last_msg);
	if (keep > sizeof(combined) - used - 1)
		keep = sizeof(combined) - used - 1;
	memcpy(combined + used, last_msg, keep);
	combined[used + keep] = '\0';
	memcpy(last_msg, combined, used + keep + 1);
}

const char *err_msg(void)
{
	return last_msg;
}

void err_clear(void)
{
	last_msg[0] = '\0';
}

void warn_add(const char *fmt, ...)
{
	char buf[2048];
	char **grown;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	grown = realloc(warnings, (nwarnings + 1) * sizeof(*warnings));
	if (!grown)
		return; /* a lost warning is better than a crash */
	warnings = grown;
	warnings[nwarnings] = strdup(buf);
	if (warnings[nwarnings])
		nwarnings++;
}

size_t warn_count(void)
{
	return nwarnings;
}

const char *warn_get(size_t i)
{
	return i < nwarnings ? warnings[i] : "";
}

void warn_clear(void)
{
	for (size_t i = 0; i < nwarnings; i++)
		free(warnings[i]);
	free(warnings);
	warnings = NULL;
	nwarnings = 0;
}
