/*
 * strpool: strings that live as long as one owner, allocated in large
 * chunks and freed all at once, equal strings stored once.
 *
 * A selection (analysis/select.h) holds tens of thousands of short texts
 * (corpus, tag, level, block, group) of which most repeat; one malloc and
 * one free per text were a third of `memory` on 10,000 runs. strpool_intern()
 * returns the same pointer for equal texts, so a caller may compare
 * interned texts by pointer first. Pointers stay valid until
 * strpool_release(); texts are never freed one by one.
 */
#ifndef COREPLAN_STRPOOL_H
#define COREPLAN_STRPOOL_H

#include <stddef.h>

struct strpool_chunk;

struct strpool {
	struct strpool_chunk *chunks; /* newest first */
	char **slots;                 /* open-addressing table of interned texts */
	size_t nslots, nused;
};

#define STRPOOL_INIT {NULL, NULL, 0, 0}

/* A copy of text (NULL for NULL) kept until strpool_release; NULL with err_set on no memory. */
char *strpool_intern(struct strpool *pool, const char *text);
/* The first len bytes of text, NUL-terminated, interned the same way. */
char *strpool_intern_n(struct strpool *pool, const char *text, size_t len);
/* A copy of the first len bytes, NUL-terminated, not interned (for texts that do not repeat). */
char *strpool_copy_n(struct strpool *pool, const char *text, size_t len);
void strpool_release(struct strpool *pool);

#endif
