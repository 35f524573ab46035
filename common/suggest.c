/* suggest: see suggest.h. */
#include "suggest.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_WORD 64

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

static int folded(char c)
{
	return tolower((unsigned char)c);
}

/* The optimal-string-alignment form: three rows of the distance matrix. */
size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][MAX_WORD + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	if (la > MAX_WORD || lb > MAX_WORD)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = folded(a[i - 1]) != folded(b[j - 1]);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && folded(a[i - 1]) == folded(b[j - 2]) &&
			    folded(a[i - 2]) == folded(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best_distance = SIZE_MAX;
	s->best[0] = '\0';
}

void suggest_offer(struct suggest *s, const char *candidate)
{
	size_t d;
	if (!candidate || !*candidate || strlen(candidate) >= sizeof(s->best))
		return;
	d = suggest_distance(s->word, candidate);
	if (d < s->best_distance) {
		s->best_distance = d;
		snprintf(s->best, sizeof(s->best), "%s", candidate);
	}
}

const char *suggest_best(const struct suggest *s)
{
	size_t len = strlen(s->word);
	size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	if (!s->best[0] || s->best_distance > limit || s->best_distance >= len)
		return NULL;
	return s->best;
}
