/*
 * suggest: did-you-mean. Among the candidates offered, the one closest to
 * a misspelt word by Damerau-Levenshtein distance (insert, delete,
 * substitute, or swap two adjacent letters: one edit each), compared
 * without regard to case, and only when it is close: at most 1 edit for a
 * word of up to 4 letters, 2 up to 8 letters, 3 beyond, and always fewer
 * edits than the word has letters. Ties keep the first candidate offered.
 *
 *	struct suggest s;
 *	suggest_init(&s, "swep");
 *	for (...) suggest_offer(&s, name);
 *	if (suggest_best(&s)) ... "did you mean '%s'?" ...
 */
#ifndef COREPLAN_SUGGEST_H
#define COREPLAN_SUGGEST_H

#include <stddef.h>

struct suggest {
	const char *word;
	size_t best_distance;
	char best[128]; /* a copy: candidates may be transient (an SQLite row) */
};

void suggest_init(struct suggest *s, const char *word);
void suggest_offer(struct suggest *s, const char *candidate);
/* The closest candidate if it is close enough, else NULL. */
const char *suggest_best(const struct suggest *s);
/* The distance itself; words over 64 bytes are far from everything (SIZE_MAX). */
size_t suggest_distance(const char *a, const char *b);

#endif
