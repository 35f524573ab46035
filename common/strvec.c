/* strvec: see strvec.h. */
#include "strvec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Take ownership of s (NULL: out of memory upstream). */
static int push_owned(struct strvec *sv, char *s)
{
	if (!s)
		return -1;
	if (sv->n + 2 > sv->alloc) {
		size_t want = sv->alloc ? 2 * sv->alloc : 8;
		char **grown = realloc(sv->v, want * sizeof(*grown));
		if (!grown) {
			free(s);
			return -1;
		}
		sv->v = grown;
		sv->alloc = want;
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
	return 0;
}

int strvec_push(struct strvec *sv, const char *s)
{
	return push_owned(sv, strdup(s));
}

int strvec_pushn(struct strvec *sv, const char *s, size_t len)
{
	return push_owned(sv, strndup(s, len));
}

int strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int needed;
	va_start(ap, fmt);
	needed = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (needed < 0 || !(s = malloc((size_t)needed + 1)))
		return -1;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)needed + 1, fmt, ap);
	va_end(ap);
	return push_owned(sv, s);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int strvec_split(struct strvec *sv, const char *text, const char *seps)
{
	size_t before = sv->n;
	const char *p = text;
	for (;;) {
		const char *stop = p + strcspn(p, seps);
		const char *end = *stop ? stop : NULL;
		const char *a = p, *b = stop;
		while (a < b && blank(*a))
			a++;
		while (b > a && blank(b[-1]))
			b--;
		if (b > a && strvec_pushn(sv, a, (size_t)(b - a)) != 0) {
			while (sv->n > before) /* as it was */
				free(sv->v[--sv->n]);
			if (sv->v)
				sv->v[sv->n] = NULL;
			return -1;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return (int)(sv->n - before);
}

bool strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

const char *const *strvec_list(const struct strvec *sv)
{
	return (const char *const *)sv->v;
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

char *str_trim(char *s)
{
	char *end;
	while (blank(*s))
		s++;
	end = s + strlen(s);
	while (end > s && (blank(end[-1]) || end[-1] == '\r'))
		*--end = '\0';
	return s;
}
