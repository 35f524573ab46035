/* strpool: see strpool.h. */
#include "strpool.h"

#include "err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Large enough that 10,000 runs' texts take a few chunks. */
#define CHUNK_BYTES 65536

struct strpool_chunk {
	struct strpool_chunk *next;
	size_t used, size;
	char bytes[];
};

static uint64_t hash_of(const char *text, size_t len)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211u;
	return h;
}

static char *copy_in(struct strpool *pool, const char *text, size_t len)
{
	struct strpool_chunk *c = pool->chunks;
	char *out;
	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > CHUNK_BYTES ? len + 1 : CHUNK_BYTES;
		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = pool->chunks;
		c->used = 0;
		c->size = size;
		pool->chunks = c;
	}
	out = c->bytes + c->used;
	memcpy(out, text, len);
	out[len] = '\0';
	c->used += len + 1;
	return out;
}

/* The slot that holds text or the empty one where it goes. */
static char **slot_of(char **slots, size_t nslots, const char *text, size_t len)
{
	size_t i = (size_t)hash_of(text, len) & (nslots - 1);
	while (slots[i] && (strncmp(slots[i], text, len) != 0 || slots[i][len] != '\0'))
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

/* Keep the table at most half full. */
static int grow(struct strpool *pool)
{
	size_t nslots = pool->nslots ? 2 * pool->nslots : 256;
	char **slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -1;
	for (size_t i = 0; i < pool->nslots; i++)
		if (pool->slots[i])
			*slot_of(slots, nslots, pool->slots[i], strlen(pool->slots[i])) =
				pool->slots[i];
	free(pool->slots);
	pool->slots = slots;
	pool->nslots = nslots;
	return 0;
}

char *strpool_intern_n(struct strpool *pool, const char *text, size_t len)
{
	char **slot;
	if (!text)
		return NULL;
	if (2 * (pool->nused + 1) > pool->nslots && grow(pool) != 0) {
		err_set("out of memory");
		return NULL;
	}
	slot = slot_of(pool->slots, pool->nslots, text, len);
	if (!*slot) {
		*slot = copy_in(pool, text, len);
		if (!*slot) {
			err_set("out of memory");
			return NULL;
		}
		pool->nused++;
	}
	return *slot;
}

char *strpool_intern(struct strpool *pool, const char *text)
{
	return text ? strpool_intern_n(pool, text, strlen(text)) : NULL;
}

char *strpool_copy_n(struct strpool *pool, const char *text, size_t len)
{
	char *out;
	if (!text)
		return NULL;
	out = copy_in(pool, text, len);
	if (!out)
		err_set("out of memory");
	return out;
}

void strpool_release(struct strpool *pool)
{
	while (pool->chunks) {
		struct strpool_chunk *next = pool->chunks->next;
		free(pool->chunks);
		pool->chunks = next;
	}
	free(pool->slots);
	*pool = (struct strpool)STRPOOL_INIT;
}
