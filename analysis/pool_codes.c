/* pool_codes: see pool_codes.h. */
#include "pool_codes.h"

#include "../common/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pool_canonical_candidates[] = {"corpus",     "subcorpus", "target",  "cfg",
						 "store",      "gogc",      "variant", "sessions",
						 "gomaxprocs", NULL};

bool pooling_is_candidate_field(const char *name)
{
	return pool_listed(pool_canonical_candidates, name);
}

bool pool_listed(const char *const *list, const char *name)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* ---- codebooks: each distinct value once, numbered in order of first appearance ---- */

void pool_book_init(struct codebook *b, bool integer, bool no_text)
{
	memset(b, 0, sizeof(*b));
	b->missing = SIZE_MAX;
	b->integer = integer;
	b->no_text = no_text;
}

void pool_book_release(struct codebook *b)
{
	for (size_t c = 0; b->text && c < b->n; c++)
		free(b->text[c]);
	free(b->text);
	free(b->keys);
	free(b->slots);
	pool_book_init(b, b->integer, b->no_text);
}

static uint64_t hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

static uint64_t hash_int(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* Room for one more code; the slots grow (and are rebuilt) at half load. */
static int book_room(struct codebook *b)
{
	if (b->n == b->alloc) {
		size_t want = b->alloc ? 2 * b->alloc : 16;
		uint64_t *keys = realloc(b->keys, want * sizeof(*keys));
		char **text;
		if (!keys)
			return err_set("out of memory");
		b->keys = keys;
		if (!(text = realloc(b->text, want * sizeof(*text))))
			return err_set("out of memory");
		b->text = text;
		b->alloc = want;
	}
	if (2 * (b->n + 1) > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32, mask = cap - 1;
		size_t *slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return err_set("out of memory");
		for (size_t c = 0; c < b->n; c++) {
			size_t i;
			if (c == b->missing)
				continue;
			i = (b->integer ? hash_int(b->keys[c]) : b->keys[c]) & mask;
			while (slots[i])
				i = (i + 1) & mask;
			slots[i] = c + 1;
		}
		free(b->slots);
		b->slots = slots;
		b->cap = cap;
	}
	return 0;
}

int pool_book_missing(struct codebook *b, size_t *code)
{
	int rc;
	if (b->missing != SIZE_MAX) {
		*code = b->missing;
		return 0;
	}
	if ((rc = book_room(b)) != 0)
		return rc;
	b->keys[b->n] = 0;
	b->text[b->n] = NULL;
	*code = b->missing = b->n++;
	return 0;
}

int pool_book_text(struct codebook *b, const char *text, size_t *code)
{
	uint64_t h;
	size_t i, mask;
	int rc;
	if (pool_missing(text))
		return pool_book_missing(b, code);
	h = hash_text(text);
	if ((rc = book_room(b)) != 0)
		return rc;
	mask = b->cap - 1;
	for (i = h & mask; b->slots[i]; i = (i + 1) & mask) {
		size_t c = b->slots[i] - 1;
		if (b->keys[c] == h && !strcmp(b->text[c], text)) {
			*code = c;
			return 0;
		}
	}
	if (!(b->text[b->n] = strdup(text)))
		return err_set("out of memory");
	b->keys[b->n] = h;
	b->slots[i] = b->n + 1;
	*code = b->n++;
	return 0;
}

/* An integer's code; its text is what CAST(v AS TEXT) gives ("%lld"). */
int pool_book_int(struct codebook *b, int64_t v, size_t *code)
{
	uint64_t key = (uint64_t)v;
	size_t i, mask;
	int rc = book_room(b);
	if (rc)
		return rc;
	mask = b->cap - 1;
	for (i = hash_int(key) & mask; b->slots[i]; i = (i + 1) & mask)
		if (b->keys[b->slots[i] - 1] == key) {
			*code = b->slots[i] - 1;
			return 0;
		}
	b->text[b->n] = NULL;
	if (!b->no_text) {
		char text[24];
		snprintf(text, sizeof(text), "%lld", (long long)v);
		if (!(b->text[b->n] = strdup(text)))
			return err_set("out of memory");
	}
	b->keys[b->n] = key;
	b->slots[i] = b->n + 1;
	*code = b->n++;
	return 0;
}

/* codes[i] = the code of v[i] (consecutive runs mostly share a value: no hash for them). */
int pool_code_texts(const char *const *v, size_t n, struct codebook *b, size_t *codes)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (i > 0 && (v[i] == v[i - 1] || (v[i] && v[i - 1] && !strcmp(v[i], v[i - 1]))))
			codes[i] = codes[i - 1];
		else
			rc = pool_book_text(b, v[i], &codes[i]);
	}
	return rc;
}

int pool_push_text(char ***list, size_t *n, const char *text)
{
	char **grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	*list = grown;
	if (!(grown[*n] = strdup(text)))
		return err_set("out of memory");
	(*n)++;
	return 0;
}

/* p->complete grows as a NULL-terminated list (pool_listed() reads it). */
int pool_terminate(char ***list, size_t n)
{
	char **grown = realloc(*list, (n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	grown[n] = NULL;
	*list = grown;
	return 0;
}

int pool_code_column(const char *const *v, size_t n, struct coded_buf *buf)
{
	pool_book_init(&buf->book, false, false);
	if (!(buf->code = malloc((n ? n : 1) * sizeof(*buf->code))))
		return err_set("out of memory");
	return pool_code_texts(v, n, &buf->book, buf->code);
}

void pool_coded_buf_release(struct coded_buf *buf)
{
	pool_book_release(&buf->book);
	free(buf->code);
	buf->code = NULL;
}

struct coded pool_coded_view(const char *name, bool factor_rule, const struct coded_buf *buf)
{
	return (struct coded){name, factor_rule, buf->code, buf->book.n, buf->book.text};
}

/* The base name of FIELD@SOURCE, for comparing with candidates. */
bool pool_same_field(const char *a, const char *b)
{
	size_t la, lb;
	field_source_of(a, &la);
	field_source_of(b, &lb);
	return la == lb && !strncmp(a, b, la);
}

bool pool_excluded_name(const struct select_spec *spec, const char *block, const char *name)
{
	if ((spec->by && pool_same_field(spec->by, name)) ||
	    (block && pool_same_field(block, name)))
		return true;
	for (size_t i = 0; spec->group && spec->group[i]; i++)
		if (pool_same_field(spec->group[i], name))
			return true;
	return false;
}

/* Prepare SQL text and bind binds to it; the statement is the caller's. */
int pool_prepare(sqlite3 *db, const struct strbuf *sql, char **binds, size_t nbinds,
		 sqlite3_stmt **stmt)
{
	*stmt = NULL;
	if (sqlite3_prepare_v2(db, strbuf_str(sql), -1, stmt, NULL) != SQLITE_OK)
		return err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	return field_bind_all(*stmt, 1, binds, nbinds);
}

const char *pool_intern_add(struct intern *t, const char *text)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return NULL;
		for (size_t k = 0; k < t->cap; k++) {
			uint64_t g = 1469598103934665603ULL;
			if (!t->slots[k])
				continue;
			for (const unsigned char *p = (const unsigned char *)t->slots[k]; *p; p++)
				g = (g ^ *p) * 1099511628211ULL;
			for (i = g & (cap - 1); slots[i]; i = (i + 1) & (cap - 1))
				;
			slots[i] = t->slots[k];
		}
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	for (i = h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->slots[i], text))
			return t->slots[i];
	if (!(t->slots[i] = strdup(text)))
		return NULL;
	t->n++;
	return t->slots[i];
}

void pool_intern_release(struct intern *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i]);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
