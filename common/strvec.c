/* strvec: see strvec.h. */
#include "strvec.h"

#include "grow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Take ownership of s (NULL: out of memory upstream). */
static int push_owned(struct strvec *sv, char *s)
{
	if (!s)
		return -1;
	if (GROW(sv->v, sv->alloc, sv->n + 2) != 0) { /* the string and the NULL after it */
		free(s);
		return -1;
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

/* A name and its place in the list. */
struct name_at {
	const char *name;
	size_t index;
};

/* By name, then place: a group's entries stand in list order. */
static int cmp_name_at(const void *a, const void *b)
{
	const struct name_at *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return (x->index > y->index) - (x->index < y->index);
}

int str_first_repeat(const char *const *names, size_t n, size_t *repeat, size_t *first)
{
	struct name_at *refs;
	int found = 0;
	if (n < 2)
		return 0;
	refs = malloc(n * sizeof(*refs));
	if (!refs)
		return -1;
	for (size_t i = 0; i < n; i++)
		refs[i] = (struct name_at){names[i], i};
	qsort(refs, n, sizeof(*refs), cmp_name_at);
	/* each group's second entry is its first repetition */
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && strcmp(refs[b].name, refs[a].name) == 0; b++)
			;
		if (b > a + 1 && (!found || refs[a + 1].index < *repeat)) {
			*repeat = refs[a + 1].index;
			*first = refs[a].index;
			found = 1;
		}
	}
	free(refs);
	return found;
}
