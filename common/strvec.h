/*
 * strvec: a growable NULL-terminated array of owned strings (git's strvec),
 * for the lists options and configs build: --group a,b, repeated --catalog,
 * field lists.
 *
 * Initialise with STRVEC_INIT (or zero it); v is NULL while empty, else
 * v[0 .. n) are the strings and v[n] is NULL, so v can be handed to code
 * that takes "a NULL-terminated list, or NULL". Every string is a copy the
 * vector owns; strvec_clear() frees them and leaves an empty vector. On
 * allocation failure the functions return -1 and leave the vector as it was
 * (err is not touched: the caller words the message).
 *
 * A list kept as a malloc'd array of n malloc'd strings (char **v, size_t
 * n) can be grown in place: adopt it as {v, n, n}, push, and store sv.v,
 * sv.n back (the array stays one that free() and the list's owner accept).
 */
#ifndef COREPLAN_STRVEC_H
#define COREPLAN_STRVEC_H

#include <stdbool.h>
#include <stddef.h>

struct strvec {
	char **v;
	size_t n;
	size_t alloc;
};

#define STRVEC_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Append a copy of s (of its first len bytes). 0, or -1 when out of memory. */
int strvec_push(struct strvec *sv, const char *s);
int strvec_pushn(struct strvec *sv, const char *s, size_t len);
int strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Append the pieces of text between separators (any character of seps),
 * each trimmed of spaces and tabs; empty pieces are skipped ("a, ,b" split
 * at "," gives a and b; split at " \t", words). Returns how many were
 * appended, or -1 when out of memory (the vector is then as it was).
 */
int strvec_split(struct strvec *sv, const char *text, const char *seps);
/* Is s one of the strings? */
bool strvec_has(const struct strvec *sv, const char *s);
/* v as the read-only list the analysis requests take (NULL while empty). */
const char *const *strvec_list(const struct strvec *sv);
void strvec_clear(struct strvec *sv);

/*
 * Among the n names, the one listed again earliest: *repeat the index of
 * the first repetition (the smallest index that repeats an earlier name)
 * and *first that earlier name's first index. 1 when a name repeats, 0
 * when none does, -1 when out of memory. Sorting keeps it O(n log n) for
 * the 100,000-column header of a table.
 */
int str_first_repeat(const char *const *names, size_t n, size_t *repeat, size_t *first);

/*
 * s without the spaces and tabs (and a final \r) around it: the start
 * moves, the end is cut in place. Returns the new start.
 */
char *str_trim(char *s);

#endif
