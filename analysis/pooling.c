/* pooling: see pooling.h. */
#include "pooling.h"

#include "../common/err.h"
#include "../common/num.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The canonical candidates, in the order pooling.h gives. */
static const char *const canonical_candidates[] = {"corpus",     "subcorpus", "target",  "cfg",
						   "store",      "gogc",      "variant", "sessions",
						   "gomaxprocs", NULL};

/* Values the shown lists hold at most ("..." and the count beyond). */
#define SHOWN_VALUES 8

static bool missing(const char *v)
{
	return !v || (v[0] == 'N' && v[1] == 'A' && !v[2]);
}

static const char *shown(const char *v)
{
	return missing(v) ? "NA" : v;
}

static bool listed(const char *const *list, const char *name)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* ---- codebooks: each distinct value once, numbered in order of first appearance ---- */

/*
 * The codes of the values seen so far: open addressing over the codes
 * (FNV-1a of a text, a mix of an integer); the missing value (NULL, "NA")
 * has a code of its own and no slot. A book holds texts or integers, never
 * both.
 */
struct codebook {
	size_t *slots;  /* code + 1; 0: empty */
	size_t cap;     /* 0, or a power of two above twice n */
	uint64_t *keys; /* per code: its text's hash, or the integer */
	char **text;    /* per code: the value as text (owned); NULL: the missing value */
	size_t n, alloc;
	size_t missing; /* the missing value's code; SIZE_MAX until seen */
	bool integer;   /* keys are integers (else hashes of texts) */
	bool no_text;   /* an integer book that keeps no texts (pairs of codes) */
};

static void book_init(struct codebook *b, bool integer, bool no_text)
{
	memset(b, 0, sizeof(*b));
	b->missing = SIZE_MAX;
	b->integer = integer;
	b->no_text = no_text;
}

static void book_release(struct codebook *b)
{
	for (size_t c = 0; b->text && c < b->n; c++)
		free(b->text[c]);
	free(b->text);
	free(b->keys);
	free(b->slots);
	book_init(b, b->integer, b->no_text);
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

static int book_missing(struct codebook *b, size_t *code)
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

static int book_text(struct codebook *b, const char *text, size_t *code)
{
	uint64_t h;
	size_t i, mask;
	int rc;
	if (missing(text))
		return book_missing(b, code);
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
static int book_int(struct codebook *b, int64_t v, size_t *code)
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
static int code_texts(const char *const *v, size_t n, struct codebook *b, size_t *codes)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (i > 0 && (v[i] == v[i - 1] || (v[i] && v[i - 1] && !strcmp(v[i], v[i - 1]))))
			codes[i] = codes[i - 1];
		else
			rc = book_text(b, v[i], &codes[i]);
	}
	return rc;
}

/* ---- detection on codes ---- */

/* A candidate as codes: each run's value numbered in order of first appearance. */
struct coded {
	const char *name;
	bool factor_rule;   /* a results-table column: counts only when it is a factor */
	const size_t *code; /* per run; NULL when there is one value (every code 0) */
	size_t ndistinct;
	char *const *text; /* per code (NULL: missing) */
};

static size_t code_at(const struct coded *col, size_t i)
{
	return col->code ? col->code[i] : 0;
}

/* What detect() reads: pool_input with its columns, block and groups as codes. */
struct detect_input {
	size_t n;
	/* the block kinds' levels: as codes, or NULL and coded from the texts
	 * (pooling_load() gives the codes whenever the block has two values) */
	const char *const *level;
	const struct coded *level_codes;
	const struct coded *group;       /* NULL: no groups */
	const char *const *group_text;   /* per run, with group */
	const char *block_field;
	const struct coded *block; /* NULL: no block kinds */
	const struct coded *columns;
	size_t ncolumns;
	const char *const *pool;
};

/*
 * Renumber cell[i] (*ncells cells) as the pair (cell[i], code[i]), in order
 * of first appearance; *ncells gets the pairs' count.
 */
static int refine(size_t *cell, size_t *ncells, const struct coded *col, size_t n)
{
	struct codebook pairs;
	size_t prev_cell = SIZE_MAX, prev_code = SIZE_MAX, prev = 0;
	int rc = 0;
	/* cells and codes are numbered in order of first appearance: one value
	 * leaves the cells so, one cell makes them the codes */
	if (col->ndistinct <= 1)
		return 0;
	if (*ncells <= 1) {
		memcpy(cell, col->code, n * sizeof(*cell));
		*ncells = col->ndistinct;
		return 0;
	}
	book_init(&pairs, true, true);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (cell[i] != prev_cell || col->code[i] != prev_code) {
			prev_cell = cell[i];
			prev_code = col->code[i];
			rc = book_int(&pairs, (int64_t)(prev_cell * col->ndistinct + prev_code),
				      &prev);
		}
		cell[i] = prev;
	}
	*ncells = pairs.n;
	book_release(&pairs);
	return rc;
}

/* Do two runs of the same cell (of ncells) hold different codes? (seen: scratch, ncells) */
static bool varies(const size_t *cell, size_t ncells, const struct coded *col, size_t n,
		   size_t *seen)
{
	if (col->ndistinct <= 1)
		return false;
	if (ncells <= 1)
		return true;
	for (size_t i = 0; i < ncells; i++)
		seen[i] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (seen[cell[i]] == SIZE_MAX)
			seen[cell[i]] = col->code[i];
		else if (seen[cell[i]] != col->code[i])
			return true;
	}
	return false;
}

/*
 * The factor rule of pooling.h: a text value that is not a number (NA and
 * the empty string aside) held by two runs or more.
 */
static bool is_factor(const struct coded *col, size_t n)
{
	bool repeats = false;
	size_t *count = calloc(col->ndistinct ? col->ndistinct : 1, sizeof(*count));
	double d;
	if (!count)
		return true; /* out of memory: count it rather than pool silently */
	for (size_t i = 0; i < n; i++)
		count[code_at(col, i)]++;
	for (size_t c = 0; c < col->ndistinct && !repeats; c++) {
		const char *v = col->text[c];
		repeats = count[c] >= 2 && !missing(v) && *v && num_parse_real(v, &d) != 0;
	}
	free(count);
	return repeats;
}

/* ---- the result ---- */

static int push_text(char ***list, size_t *n, const char *text)
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

/* The distinct values of a column, in order of first appearance. */
static int distinct_values(const struct coded *col, struct pool_field *f)
{
	int rc = 0;
	for (size_t c = 0; rc == 0 && c < col->ndistinct; c++)
		rc = push_text(&f->values, &f->nvalues, shown(col->text[c]));
	return rc;
}

static struct pool_field *new_field(struct pooling *p, const char *name)
{
	struct pool_field *grown = realloc(p->fields, (p->nfields + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	p->fields = grown;
	memset(&grown[p->nfields], 0, sizeof(grown[0]));
	if (!(grown[p->nfields].name = strdup(name)))
		return NULL;
	return &grown[p->nfields++];
}

/*
 * Which earlier varying fields a follower follows: the first one alone
 * that fixes it, else all of them.
 */
static int follows(const struct detect_input *in, const size_t *declared, size_t ndeclared,
		   const size_t *primary, size_t nprimary, const struct coded *col, size_t *seen,
		   struct strbuf *sb, bool *all_pooled, const struct pooling *p,
		   const size_t *field_of)
{
	size_t n = in->n;
	size_t *cell = malloc((n ? n : 1) * sizeof(*cell));
	int rc = cell ? 0 : err_set("out of memory");
	*all_pooled = true;
	for (size_t k = 0; rc == 0 && k < nprimary; k++) {
		size_t ncells = ndeclared;
		if (ndeclared > 1)
			memcpy(cell, declared, n * sizeof(*cell));
		rc = refine(cell, &ncells, &in->columns[primary[k]], n);
		if (rc == 0 && !varies(cell, ncells, col, n, seen)) {
			strbuf_adds(sb, in->columns[primary[k]].name);
			*all_pooled = p->fields[field_of[k]].pooled;
			free(cell);
			return 0;
		}
	}
	for (size_t k = 0; rc == 0 && k < nprimary; k++) {
		strbuf_addf(sb, "%s%s", k ? ", " : "", in->columns[primary[k]].name);
		*all_pooled &= p->fields[field_of[k]].pooled;
	}
	free(cell);
	return rc;
}

static int terminate(char ***list, size_t n);

/* Level texts in numeric order when they are numbers, else in text order. */
static int by_level(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	double da, db;
	if (num_parse_real(a, &da) == 0 && num_parse_real(b, &db) == 0 && da != db)
		return da < db ? -1 : 1;
	return strcmp(a, b);
}

/* "1, 8": the level texts names[0..n) (distinct), sorted; NULL when out of memory. */
static char *levels_text(const char **names, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	qsort(names, n, sizeof(*names), by_level);
	for (size_t k = 0; k < n; k++)
		strbuf_addf(&sb, "%s%s", k ? ", " : "", names[k]);
	return strbuf_detach(&sb);
}

static const char *text_of(const struct coded *col, size_t i)
{
	return shown(col->text[code_at(col, i)]);
}

/* "gogc=default, sessions=100": the declared group and the primaries of run i. */
static char *cell_text(const struct detect_input *in, size_t i, const size_t *primary,
		       size_t nprimary)
{
	struct strbuf sb = STRBUF_INIT;
	if (in->group && in->group_text[i] && *in->group_text[i])
		strbuf_adds(&sb, in->group_text[i]);
	for (size_t k = 0; k < nprimary; k++)
		strbuf_addf(&sb, "%s%s=%s", sb.len ? ", " : "", in->columns[primary[k]].name,
			    text_of(&in->columns[primary[k]], i));
	if (!sb.buf)
		strbuf_adds(&sb, "");
	return strbuf_detach(&sb);
}

static int add_kind(struct pooling *p, const char *block, char *cell, char *levels, char *all)
{
	struct pool_kind *grown = realloc(p->kinds, (p->nkinds + 1) * sizeof(*grown));
	if (!grown || !cell || !levels || !all) {
		if (grown)
			p->kinds = grown;
		free(cell);
		free(levels);
		free(all);
		return err_set("out of memory");
	}
	p->kinds = grown;
	grown[p->nkinds] = (struct pool_kind){strdup(block), cell, levels, all};
	p->nkinds++;
	return grown[p->nkinds - 1].block ? 0 : err_set("out of memory");
}

/* The distinct level texts of the runs idx[from..to) (sorted by level code within). */
static size_t distinct_levels(const struct coded *level, const size_t *idx, size_t from, size_t to,
			      size_t *stamp, size_t mark, const char **names)
{
	size_t n = 0;
	for (size_t k = from; k < to; k++) {
		size_t c = level->code[idx[k]];
		if (stamp[c] != mark) {
			stamp[c] = mark;
			names[n++] = shown(level->text[c]);
		}
	}
	return n;
}

/* Stable: idx ordered by key[idx[k]] (each < nkeys), ties kept in order. */
static int sort_by_key(size_t *idx, size_t *tmp, size_t n, const size_t *key, size_t nkeys)
{
	size_t *at = calloc(nkeys + 1, sizeof(*at));
	if (!at)
		return err_set("out of memory");
	for (size_t k = 0; k < n; k++)
		at[key[idx[k]] + 1]++;
	for (size_t c = 0; c < nkeys; c++)
		at[c + 1] += at[c];
	for (size_t k = 0; k < n; k++)
		tmp[at[key[idx[k]]]++] = idx[k];
	memcpy(idx, tmp, n * sizeof(*idx));
	free(at);
	return 0;
}

/*
 * Block kinds within each cell: the runs ordered by (cell, block, run); a
 * block's distinct levels against its cell's. With one block value,
 * or one level, every block holds every level of its cell: no kinds.
 */
static int block_kinds(const struct detect_input *in, const size_t *cell, size_t ncells,
		       const size_t *primary, size_t nprimary, struct pooling *p)
{
	const struct coded *blk = in->block, *lv = in->level_codes;
	size_t n = in->n, mark = 0;
	size_t *level_code = NULL, *idx = NULL, *tmp = NULL, *stamp = NULL, *key = NULL;
	const char **names = NULL;
	struct codebook levels;
	struct coded level = {0};
	int rc = 0;
	book_init(&levels, false, false);
	if (blk->ndistinct <= 1)
		return 0;
	idx = malloc((n ? n : 1) * sizeof(*idx));
	tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!idx || !tmp) {
		rc = err_set("out of memory");
		goto done;
	}
	if (!lv) {
		if (!(level_code = malloc((n ? n : 1) * sizeof(*level_code)))) {
			rc = err_set("out of memory");
			goto done;
		}
		if ((rc = code_texts(in->level, n, &levels, level_code)) != 0)
			goto done;
		level = (struct coded){"level", false, level_code, levels.n, levels.text};
		lv = &level;
	}
	if (lv->ndistinct <= 1)
		goto done;
	stamp = malloc(lv->ndistinct * sizeof(*stamp));
	names = malloc(lv->ndistinct * sizeof(*names));
	if (!stamp || !names) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t c = 0; c < lv->ndistinct; c++)
		stamp[c] = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/*
	 * Ordered by (cell, block, run): within a block the order of its runs
	 * does not matter (its levels are a set). One pass over the pairs when
	 * they are few, else by block and then by cell.
	 */
	if (ncells <= 1) {
		rc = sort_by_key(idx, tmp, n, blk->code, blk->ndistinct);
	} else if (ncells <= (4 * n + 4) / blk->ndistinct) {
		if (!(key = malloc(n * sizeof(*key)))) {
			rc = err_set("out of memory");
			goto done;
		}
		for (size_t i = 0; i < n; i++)
			key[i] = cell[i] * blk->ndistinct + blk->code[i];
		rc = sort_by_key(idx, tmp, n, key, ncells * blk->ndistinct);
	} else {
		rc = sort_by_key(idx, tmp, n, blk->code, blk->ndistinct);
		if (rc == 0)
			rc = sort_by_key(idx, tmp, n, cell, ncells);
	}
	for (size_t from = 0; rc == 0 && from < n;) {
		size_t to = from, ncell, ncomplete = 0, nkinds = 0;
		char *all = NULL;
		if (ncells <= 1) /* one cell: cell[] is not kept */
			to = n;
		while (to < n && cell[idx[to]] == cell[idx[from]])
			to++;
		ncell = distinct_levels(lv, idx, from, to, stamp, mark++, names);
		/* two passes over the cell's blocks: count the complete ones, then record */
		for (int pass = 0; rc == 0 && pass < 2; pass++)
			for (size_t b = from; rc == 0 && b < to;) {
				size_t e = b, nb;
				while (e < to && blk->code[idx[e]] == blk->code[idx[b]])
					e++;
				nb = distinct_levels(lv, idx, b, e, stamp, mark++, names);
				if (pass == 0) {
					ncomplete += nb == ncell;
					nkinds += nb != ncell;
				} else if (nb == ncell && nkinds > 0) {
					const char *name = text_of(blk, idx[b]);
					if (!listed((const char *const *)p->complete, name))
						rc = push_text(&p->complete, &p->ncomplete, name);
					if (rc == 0)
						rc = terminate(&p->complete, p->ncomplete);
				} else if (nb != ncell && ncomplete > 0) {
					char *held = levels_text(names, nb);
					if (!all) {
						size_t na = distinct_levels(lv, idx, from, to,
									    stamp, mark++, names);
						all = levels_text(names, na);
					}
					rc = add_kind(p, text_of(blk, idx[b]),
						      cell_text(in, idx[b], primary, nprimary),
						      held, all ? strdup(all) : NULL);
				}
				b = e;
			}
		free(all);
		from = to;
	}
done:
	book_release(&levels);
	free(level_code);
	free(key);
	free(idx);
	free(tmp);
	free(stamp);
	free(names);
	return rc;
}

/* p->complete grows as a NULL-terminated list (listed() reads it). */
static int terminate(char ***list, size_t n)
{
	char **grown = realloc(*list, (n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	grown[n] = NULL;
	*list = grown;
	return 0;
}

static int detect(const struct detect_input *in, struct pooling *out)
{
	size_t n = in->n, nc = in->ncolumns ? in->ncolumns : 1;
	size_t *declared = malloc((n ? n : 1) * sizeof(*declared));
	size_t *acc = malloc((n ? n : 1) * sizeof(*acc));
	size_t *seen = malloc((n ? n : 1) * sizeof(*seen));
	size_t *primary = calloc(nc, sizeof(*primary));
	size_t *field_of = calloc(nc, sizeof(*field_of));
	size_t nprimary = 0, ndeclared = in->group ? in->group->ndistinct : 1, nacc;
	int rc = declared && acc && seen && primary && field_of ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	if (rc)
		goto done;
	/* one cell: its cell numbers are all 0, never read (refine, varies, block_kinds) */
	for (size_t i = 0; ndeclared > 1 && i < n; i++)
		declared[i] = acc[i] = in->group->code[i];
	nacc = ndeclared;
	for (size_t c = 0; rc == 0 && c < in->ncolumns; c++) {
		const struct coded *col = &in->columns[c];
		struct pool_field *f;
		if (col->factor_rule && !listed(in->pool, col->name) && !is_factor(col, n))
			continue;
		if (!varies(declared, ndeclared, col, n, seen))
			continue;
		if (!(f = new_field(out, col->name))) {
			rc = err_set("out of memory");
			break;
		}
		rc = distinct_values(col, f);
		f->pooled = listed(in->pool, col->name);
		if (rc == 0 && !varies(acc, nacc, col, n, seen)) {
			struct strbuf sb = STRBUF_INIT;
			bool all_pooled = false;
			rc = follows(in, declared, ndeclared, primary, nprimary, col, seen, &sb,
				     &all_pooled, out, field_of);
			f->follows = strbuf_detach(&sb);
			f->pooled |= all_pooled;
			if (rc == 0 && !f->follows)
				rc = err_set("out of memory");
		} else if (rc == 0) {
			field_of[nprimary] = out->nfields - 1;
			primary[nprimary++] = c;
			rc = refine(acc, &nacc, col, n);
		}
	}
	if (rc == 0 && in->block_field && in->block) {
		if (!(out->block_field = strdup(in->block_field)))
			rc = err_set("out of memory");
		out->kinds_pooled = listed(in->pool, in->block_field);
		if (rc == 0)
			rc = terminate(&out->complete, 0);
		if (rc == 0)
			rc = block_kinds(in, acc, nacc, primary, nprimary, out);
	}
done:
	free(primary);
	free(field_of);
	free(declared);
	free(acc);
	free(seen);
	if (rc)
		pooling_release(out);
	return rc;
}

/* A column coded here: its codebook and each run's code. */
struct coded_buf {
	struct codebook book;
	size_t *code;
};

static int code_column(const char *const *v, size_t n, struct coded_buf *buf)
{
	book_init(&buf->book, false, false);
	if (!(buf->code = malloc((n ? n : 1) * sizeof(*buf->code))))
		return err_set("out of memory");
	return code_texts(v, n, &buf->book, buf->code);
}

static void coded_buf_release(struct coded_buf *buf)
{
	book_release(&buf->book);
	free(buf->code);
	buf->code = NULL;
}

static struct coded coded_view(const char *name, bool factor_rule, const struct coded_buf *buf)
{
	return (struct coded){name, factor_rule, buf->code, buf->book.n, buf->book.text};
}

int pooling_detect(const struct pool_input *in, struct pooling *out)
{
	size_t nc = in->ncolumns;
	struct coded_buf *bufs = calloc(nc + 2, sizeof(*bufs));
	struct coded *cols = calloc(nc ? nc : 1, sizeof(*cols));
	struct coded block = {0}, group = {0};
	int rc = bufs && cols ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	for (size_t c = 0; rc == 0 && c < nc; c++) {
		rc = code_column(in->columns[c].values, in->n, &bufs[c]);
		cols[c] = coded_view(in->columns[c].name, in->columns[c].factor_rule, &bufs[c]);
	}
	if (rc == 0 && in->block_field && in->block) {
		rc = code_column(in->block, in->n, &bufs[nc]);
		block = coded_view(in->block_field, false, &bufs[nc]);
	}
	if (rc == 0 && in->group) {
		rc = code_column(in->group, in->n, &bufs[nc + 1]);
		group = coded_view("group", false, &bufs[nc + 1]);
	}
	if (rc == 0) {
		struct detect_input d = {.n = in->n,
					 .level = in->level,
					 .group = in->group ? &group : NULL,
					 .group_text = in->group,
					 .block_field = in->block_field,
					 .block = in->block_field && in->block ? &block : NULL,
					 .columns = cols,
					 .ncolumns = nc,
					 .pool = in->pool};
		rc = detect(&d, out);
	}
	for (size_t c = 0; bufs && c < nc + 2; c++)
		coded_buf_release(&bufs[c]);
	free(bufs);
	free(cols);
	return rc;
}

void pooling_release(struct pooling *p)
{
	for (size_t i = 0; i < p->nfields; i++) {
		free(p->fields[i].name);
		for (size_t v = 0; v < p->fields[i].nvalues; v++)
			free(p->fields[i].values[v]);
		free(p->fields[i].values);
		free(p->fields[i].follows);
	}
	free(p->fields);
	for (size_t i = 0; i < p->nkinds; i++) {
		free(p->kinds[i].block);
		free(p->kinds[i].cell);
		free(p->kinds[i].levels);
		free(p->kinds[i].all);
	}
	free(p->kinds);
	for (size_t i = 0; i < p->ncomplete; i++)
		free(p->complete[i]);
	free(p->complete);
	free(p->block_field);
	memset(p, 0, sizeof(*p));
}

bool pooling_refuses(const struct pooling *p)
{
	for (size_t i = 0; i < p->nfields; i++)
		if (!p->fields[i].pooled)
			return true;
	return p->nkinds > 0 && !p->kinds_pooled;
}

bool pooling_pooled(const struct pooling *p)
{
	for (size_t i = 0; i < p->nfields; i++)
		if (p->fields[i].pooled)
			return true;
	return p->nkinds > 0 && p->kinds_pooled;
}

/* ---- words ---- */

static void field_words(struct strbuf *sb, const struct pool_field *f)
{
	strbuf_addf(sb, "%s (", f->name);
	for (size_t v = 0; v < f->nvalues && v < SHOWN_VALUES; v++)
		strbuf_addf(sb, "%s%s", v ? ", " : "", *f->values[v] ? f->values[v] : "''");
	if (f->nvalues > SHOWN_VALUES)
		strbuf_addf(sb, ", ... %zu values", f->nvalues);
	if (f->follows)
		strbuf_addf(sb, "; varies with %s", f->follows);
	strbuf_adds(sb, ")");
}

static void kind_words(struct strbuf *sb, const struct pooling *p, const struct pool_kind *k,
		       bool named)
{
	if (named)
		strbuf_addf(sb, "%s ", p->block_field);
	strbuf_addf(sb, "%s (levels %s of %s", k->block, k->levels, k->all);
	if (*k->cell)
		strbuf_addf(sb, "; %s", k->cell);
	strbuf_adds(sb, ")");
}

/*
 * The blocks that hold every level of a cell with block kinds and are a
 * kind nowhere: "1,2,3" (a missing block value, NA, is left out: --where
 * cannot name it).
 */
static void complete_list(struct strbuf *sb, const struct pooling *p, const char *sep)
{
	size_t shown_n = 0;
	for (size_t i = 0; i < p->ncomplete; i++) {
		bool kind = !strcmp(p->complete[i], "NA");
		for (size_t k = 0; k < p->nkinds && !kind; k++)
			kind = !strcmp(p->kinds[k].block, p->complete[i]);
		if (!kind)
			strbuf_addf(sb, "%s%s", shown_n++ ? sep : "", p->complete[i]);
	}
}

int pooling_refusal(const struct pooling *p, const char *command, const char *level, bool can_group)
{
	struct strbuf sb = STRBUF_INIT, pool = STRBUF_INIT, group = STRBUF_INIT;
	struct strbuf blocks = STRBUF_INIT;
	const struct pool_field *example = NULL;
	size_t nf = 0;
	bool kinds = p->nkinds > 0 && !p->kinds_pooled;
	int rc;
	strbuf_addf(&sb, "%s would pool runs that differ in more than the level (%s)", command,
		    level);
	for (size_t i = 0; i < p->nfields; i++) {
		const struct pool_field *f = &p->fields[i];
		if (f->pooled)
			continue;
		strbuf_adds(&sb, nf++ ? ", " : ": ");
		field_words(&sb, f);
		if (!f->follows) {
			strbuf_addf(&pool, "%s%s", pool.len ? "," : "", f->name);
			strbuf_addf(&group, "%s%s", group.len ? "," : "", f->name);
			if (!example)
				example = f;
		}
	}
	if (kinds) {
		complete_list(&blocks, p, ",");
		strbuf_adds(&sb, nf ? "; and " : ": ");
		for (size_t k = 0; k < p->nkinds; k++) {
			strbuf_adds(&sb, k ? ", " : "");
			kind_words(&sb, p, &p->kinds[k], true);
		}
		strbuf_addf(&sb, " %s its own arm, not a replicate of the complete %ss (",
			    p->nkinds == 1 ? "is" : "are each", p->block_field);
		complete_list(&sb, p, ", ");
		strbuf_adds(&sb, ": runs at every level)");
		strbuf_addf(&pool, "%s%s", pool.len ? "," : "", p->block_field);
	}
	if (example) {
		strbuf_addf(&sb, ". Keep one condition with --where %s=%s", example->name,
			    example->values[0]);
		if (kinds && blocks.len)
			strbuf_addf(&sb, " (and --where %s=%s for the complete %ss)",
				    p->block_field, strbuf_str(&blocks), p->block_field);
	} else if (blocks.len) {
		strbuf_addf(&sb, ". Keep the complete %ss with --where %s=%s", p->block_field,
			    p->block_field, strbuf_str(&blocks));
	} else {
		strbuf_adds(&sb, ". Narrow the runs with --where");
	}
	if (can_group && group.len)
		strbuf_addf(&sb, ", split with --group %s", strbuf_str(&group));
	strbuf_addf(&sb, ", or pool on purpose with --pool %s", strbuf_str(&pool));
	rc = sb.buf ? err_usage("%s", strbuf_str(&sb)) : err_set("out of memory");
	strbuf_release(&sb);
	strbuf_release(&pool);
	strbuf_release(&group);
	strbuf_release(&blocks);
	return rc;
}

int pooling_describe(const struct pooling *p, struct strbuf *sb)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nfields; i++) {
		if (!p->fields[i].pooled)
			continue;
		strbuf_adds(sb, n++ ? "; " : "");
		field_words(sb, &p->fields[i]);
	}
	if (p->nkinds > 0 && p->kinds_pooled) {
		strbuf_adds(sb, n ? "; " : "");
		strbuf_addf(sb, "%s kinds ", p->block_field);
		for (size_t k = 0; k < p->nkinds; k++) {
			strbuf_adds(sb, k ? ", " : "");
			kind_words(sb, p, &p->kinds[k], false);
		}
		strbuf_addf(sb, " with the complete %ss ", p->block_field);
		complete_list(sb, p, ", ");
	}
	return 0;
}

/* ---- from the database ---- */

/* The base name of FIELD@SOURCE, for comparing with candidates. */
static bool same_field(const char *a, const char *b)
{
	size_t la, lb;
	field_source_of(a, &la);
	field_source_of(b, &lb);
	return la == lb && !strncmp(a, b, la);
}

static bool excluded_name(const struct select_spec *spec, const char *block, const char *name)
{
	if ((spec->by && same_field(spec->by, name)) || (block && same_field(block, name)))
		return true;
	for (size_t i = 0; spec->group && spec->group[i]; i++)
		if (same_field(spec->group[i], name))
			return true;
	return false;
}

/* Prepare SQL text and bind binds to it; the statement is the caller's. */
static int prepare(sqlite3 *db, const struct strbuf *sql, char **binds, size_t nbinds,
		   sqlite3_stmt **stmt)
{
	*stmt = NULL;
	if (sqlite3_prepare_v2(db, strbuf_str(sql), -1, stmt, NULL) != SQLITE_OK)
		return err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	return field_bind_all(*stmt, 1, binds, nbinds);
}

/*
 * The distinct texts of one column: every run's value points into it, so
 * a value is copied once, not once per run (open addressing, FNV-1a).
 */
struct intern {
	char **slots;
	size_t cap, n;
};

static const char *intern_add(struct intern *t, const char *text)
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

static void intern_release(struct intern *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i]);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* ---- read with the selection: select_runs() calls these ---- */

/*
 * A column coded as the runs come: a value like the previous run's is not
 * hashed, and the codes are kept only once a second value appears (most
 * candidates hold one value in every run).
 */
struct col_coder {
	struct codebook book;
	size_t *code;          /* per run taken; NULL while every code is 0 */
	size_t cap;            /* room in code */
	size_t last;           /* the previous run's code; SIZE_MAX before the first */
	const char *last_text; /* its text (NULL: missing) */
	int64_t last_int;      /* its integer (an integer book) */
};

static void coder_init(struct col_coder *cc, bool integer)
{
	memset(cc, 0, sizeof(*cc));
	book_init(&cc->book, integer, false);
	cc->last = SIZE_MAX;
}

static void coder_release(struct col_coder *cc)
{
	book_release(&cc->book);
	free(cc->code);
	cc->code = NULL;
}

/* Room for run i's code; the codes before the first kept one are 0. */
static int coder_grow(struct col_coder *cc, size_t code, size_t i)
{
	size_t want = i >= 256 ? 4 * i : 1024; /* few copies: each touches fresh pages */
	size_t *grown = realloc(cc->code, want * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	if (!cc->code)
		memset(grown, 0, i * sizeof(*grown));
	cc->code = grown;
	cc->cap = want;
	cc->code[i] = code;
	return 0;
}

/* Keep run i's code: nothing while every code is 0. */
static inline int coder_keep(struct col_coder *cc, size_t code, size_t i)
{
	if (cc->code && i < cc->cap) {
		cc->code[i] = code;
		return 0;
	}
	return cc->code || code ? coder_grow(cc, code, i) : 0;
}

/* Run i holds another value than the previous run: look it up (or add it). */
static int coder_new_text(struct col_coder *cc, const char *t, size_t i)
{
	size_t code;
	int rc = missing(t) ? book_missing(&cc->book, &code) : book_text(&cc->book, t, &code);
	if (rc)
		return rc;
	cc->last = code;
	cc->last_text = cc->book.text[code];
	return coder_keep(cc, code, i);
}

static int coder_new_int(struct col_coder *cc, int64_t v, bool null, size_t i)
{
	size_t code;
	int rc = null ? book_missing(&cc->book, &code) : book_int(&cc->book, v, &code);
	if (rc)
		return rc;
	cc->last = code;
	cc->last_text = cc->book.text[code];
	cc->last_int = v;
	return coder_keep(cc, code, i);
}

static inline int coder_text(struct col_coder *cc, const char *t, size_t i)
{
	bool same = missing(t) ? cc->last != SIZE_MAX && !cc->last_text
			       : cc->last_text && !strcmp(t, cc->last_text);
	return same ? coder_keep(cc, cc->last, i) : coder_new_text(cc, t, i);
}

static inline int coder_int(struct col_coder *cc, int64_t v, bool null, size_t i)
{
	bool same =
		null ? cc->last != SIZE_MAX && !cc->last_text : cc->last_text && cc->last_int == v;
	return same ? coder_keep(cc, cc->last, i) : coder_new_int(cc, v, null, i);
}

struct prefetch_col {
	const struct field_info *info;
	struct col_coder cc;
	bool grouped; /* read through the group's coalesce (and the lookup) */
};

/*
 * The columns of runs the query reads for pooling. A column is read as
 * itself, or, when the filter's first run has none of it (most candidates
 * of most corpora are missing throughout: no target, no variant), as one of
 * the group: the query reads coalesce() over the group, and a run that has
 * any of them is read again by run_id (the lookup).
 */
struct pool_prefetch {
	struct prefetch_col *cols; /* the grouped ones last */
	size_t ncols, ngrouped;
	bool quiet;           /* every grouped column missing so far */
	sqlite3_stmt *lookup; /* the grouped columns of one run, prepared when first needed */
	/* the selection's own strings: the --group text, the --block value */
	struct col_coder group, block;
	bool has_group, has_block;
	size_t n; /* runs taken */
};

/* A canonical field (a column of runs) once; any other name is read by pooling_load(). */
static int prefetch_add(struct pool_prefetch *pf, const char *name)
{
	const struct field_info *info = field_find(name);
	struct prefetch_col *grown;
	if (!info)
		return 0;
	for (size_t k = 0; k < pf->ncols; k++)
		if (pf->cols[k].info == info)
			return 0;
	if (!(grown = realloc(pf->cols, (pf->ncols + 1) * sizeof(*grown))))
		return err_set("out of memory");
	pf->cols = grown;
	grown[pf->ncols].info = info;
	/* runs is STRICT: an INTEGER column holds integers or NULL, a TEXT one text or NULL */
	coder_init(&grown[pf->ncols].cc, info->type == FIELD_INT || info->type == FIELD_BOOL);
	pf->ncols++;
	return 0;
}

/*
 * Which columns the filter's first run lacks: those are grouped (when two
 * or more are). Only a guess at what the runs hold: any run is read right.
 */
static int prefetch_group(sqlite3 *db, const struct select_spec *spec, struct pool_prefetch *pf)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0, nnull = 0;
	sqlite3_stmt *stmt = NULL;
	int rc = strbuf_adds(&sql, "SELECT NULL") ? err_set("out of memory") : 0;
	for (size_t k = 0; rc == 0 && k < pf->ncols; k++)
		if (strbuf_addf(&sql, ", r.%s", pf->cols[k].info->name))
			rc = err_set("out of memory");
	if (rc == 0 && strbuf_adds(&sql, " FROM runs r WHERE "))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = run_filter_sql(spec->filter, &sql, &binds, &nbinds);
	if (rc == 0 && strbuf_adds(&sql, " LIMIT 1"))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = prepare(db, &sql, binds, nbinds, &stmt);
	if (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW)
		for (size_t k = 0; k < pf->ncols; k++)
			nnull += pf->cols[k].grouped =
				sqlite3_column_type(stmt, 1 + (int)k) == SQLITE_NULL;
	if (nnull < 2) /* coalesce() takes two or more */
		for (size_t k = 0; k < pf->ncols; k++)
			pf->cols[k].grouped = false;
	pf->ngrouped = nnull < 2 ? 0 : nnull;
	pf->quiet = false;
	/* the grouped columns last (stable) */
	for (size_t k = 0, last = pf->ncols; pf->ngrouped && k < last;) {
		if (pf->cols[k].grouped) {
			struct prefetch_col moved = pf->cols[k];
			memmove(&pf->cols[k], &pf->cols[k + 1],
				(pf->ncols - k - 1) * sizeof(moved));
			pf->cols[pf->ncols - 1] = moved;
			last--;
		} else {
			k++;
		}
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

int pool_prefetch_new(sqlite3 *db, const struct select_spec *spec, struct pool_prefetch **out)
{
	const char *block = spec->block ? spec->block : "block";
	struct pool_prefetch *pf;
	int rc = 0;
	*out = NULL;
	if (!spec->by)
		return 0;
	if (!(pf = calloc(1, sizeof(*pf))))
		return err_set("out of memory");
	coder_init(&pf->group, false);
	coder_init(&pf->block, false);
	pf->has_group = spec->group != NULL;
	pf->has_block = spec->block != NULL;
	/* corpus and subcorpus are no canonical fields: the selection has them */
	for (size_t i = 0; rc == 0 && canonical_candidates[i]; i++)
		if (!excluded_name(spec, block, canonical_candidates[i]))
			rc = prefetch_add(pf, canonical_candidates[i]);
	if (rc == 0 && !spec->block)
		rc = prefetch_add(pf, block);
	for (size_t i = 0; rc == 0 && spec->filter && i < spec->filter->npool; i++)
		if (!excluded_name(spec, block, spec->filter->pool[i]))
			rc = prefetch_add(pf, spec->filter->pool[i]);
	if (rc == 0 && pf->ncols >= 2)
		rc = prefetch_group(db, spec, pf);
	if (rc == 0)
		*out = pf;
	else
		pool_prefetch_free(pf);
	return rc;
}

/* ", r.a, r.b" (our own names, safe to paste): the columns grouped or not. */
static int column_list(const struct pool_prefetch *pf, bool grouped, struct strbuf *sql)
{
	for (size_t k = 0; k < pf->ncols; k++)
		if (pf->cols[k].grouped == grouped &&
		    strbuf_addf(sql, ", r.%s", pf->cols[k].info->name))
			return err_set("out of memory");
	return 0;
}

int pool_prefetch_sql(const struct pool_prefetch *pf, struct strbuf *sql)
{
	struct strbuf group = STRBUF_INIT;
	int rc = pf ? column_list(pf, false, sql) : 0;
	if (rc == 0 && pf && pf->ngrouped > 0) {
		rc = column_list(pf, true, &group);
		/* ", coalesce(r.a, r.b)" */
		if (rc == 0 && strbuf_addf(sql, ", coalesce(%s)", strbuf_str(&group) + 2))
			rc = err_set("out of memory");
	}
	strbuf_release(&group);
	return rc;
}

/* One column's value for run i: col of stmt. */
static inline int prefetch_value(struct col_coder *cc, sqlite3_stmt *stmt, int col, size_t i)
{
	if (cc->book.integer) {
		int64_t v = sqlite3_column_int64(stmt, col);
		return coder_int(cc, v, v == 0 && sqlite3_column_type(stmt, col) == SQLITE_NULL, i);
	}
	return coder_text(cc, (const char *)sqlite3_column_text(stmt, col), i);
}

/* A run that holds one of the grouped columns: all of them, read by run_id. */
static int prefetch_lookup(struct pool_prefetch *pf, sqlite3 *db, int64_t run_id, size_t i)
{
	int rc = 0, col = 0;
	if (!pf->lookup) {
		struct strbuf sql = STRBUF_INIT;
		rc = strbuf_adds(&sql, "SELECT NULL") ? err_set("out of memory") : 0;
		if (rc == 0)
			rc = column_list(pf, true, &sql);
		if (rc == 0 && strbuf_adds(&sql, " FROM runs r WHERE r.run_id = ?1"))
			rc = err_set("out of memory");
		if (rc == 0 &&
		    sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &pf->lookup, NULL) != SQLITE_OK)
			rc = err_set("cannot select runs: %s", sqlite3_errmsg(db));
		strbuf_release(&sql);
		if (rc)
			return rc;
	}
	sqlite3_bind_int64(pf->lookup, 1, run_id);
	if (sqlite3_step(pf->lookup) != SQLITE_ROW)
		rc = err_set("cannot select runs: %s", sqlite3_errmsg(db));
	for (size_t k = pf->ncols - pf->ngrouped; rc == 0 && k < pf->ncols; k++)
		rc = prefetch_value(&pf->cols[k].cc, pf->lookup, 1 + col++, i);
	sqlite3_reset(pf->lookup);
	return rc;
}

int pool_prefetch_row(struct pool_prefetch *pf, sqlite3_stmt *stmt, int first,
		      const struct sel_run *run)
{
	size_t i = pf->n;
	int rc = 0;
	if (pf->has_group)
		rc = coder_text(&pf->group, run->group ? run->group : "", i);
	if (rc == 0 && pf->has_block)
		rc = coder_text(&pf->block, run->block, i);
	size_t nplain = pf->ncols - pf->ngrouped;
	for (size_t k = 0; rc == 0 && k < nplain; k++)
		rc = prefetch_value(&pf->cols[k].cc, stmt, first + (int)k, i);
	if (rc == 0 && pf->ngrouped > 0) {
		if (sqlite3_column_type(stmt, first + (int)nplain) != SQLITE_NULL) {
			rc = prefetch_lookup(pf, sqlite3_db_handle(stmt), run->run_id, i);
			pf->quiet = false;
		} else if (!pf->quiet) {
			/* missing again, and no codes kept: nothing to do until a value comes */
			pf->quiet = true;
			for (size_t k = nplain; rc == 0 && k < pf->ncols; k++) {
				rc = coder_text(&pf->cols[k].cc, NULL, i);
				pf->quiet &= !pf->cols[k].cc.code;
			}
		}
	}
	if (rc == 0)
		pf->n++;
	return rc;
}

void pool_prefetch_free(struct pool_prefetch *pf)
{
	if (!pf)
		return;
	for (size_t k = 0; k < pf->ncols; k++)
		coder_release(&pf->cols[k].cc);
	free(pf->cols);
	sqlite3_finalize(pf->lookup);
	coder_release(&pf->group);
	coder_release(&pf->block);
	free(pf);
}

/* The selection's prefetch, when it read every run of the selection. */
static const struct pool_prefetch *sel_prefetch(const struct selection *sel)
{
	return sel->prefetch && sel->prefetch->n == sel->n ? sel->prefetch : NULL;
}

/*
 * Are all the selected runs of one table (corpus and sub-corpus)? A
 * selection select_runs() read (it has a prefetch) is in (corpus,
 * subcorpus) order: its first and last run say.
 */
static bool one_table(const struct selection *sel)
{
	const struct sel_run *a = &sel->runs[0], *z = &sel->runs[sel->n ? sel->n - 1 : 0];
	return sel_prefetch(sel) && sel->n > 0 && !strcmp(a->corpus, z->corpus) &&
	       !strcmp(a->subcorpus, z->subcorpus);
}

static struct coded coder_view(const char *name, const struct col_coder *cc)
{
	return (struct coded){name, false, cc->code, cc->book.n, cc->book.text};
}

/* The prefetch's column of that name, or NULL (also when there is no prefetch). */
static const struct col_coder *prefetched(const struct pool_prefetch *pf, const char *name)
{
	if (!pf)
		return NULL;
	for (size_t k = 0; k < pf->ncols; k++)
		if (!strcmp(pf->cols[k].info->name, name))
			return &pf->cols[k].cc;
	return NULL;
}

/* Tries per (corpus, sub-corpus) to find a run with a results row (unlisted runs come last). */
#define COLUMN_TRIES 16

/*
 * The results-table columns of the selection's tables that no canonical
 * field was filled from: a headed table gives every row every column, so
 * the first run with a results row per (corpus, sub-corpus) names them.
 */
static int results_columns(sqlite3 *db, const struct selection *sel, char ***names, size_t *n)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT name FROM run_attrs WHERE run_id = ?1 AND source = 'results'"
			       " EXCEPT SELECT name FROM field_origins WHERE run_id = ?1 AND"
			       " source = 'results' ORDER BY 1",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	for (size_t i = 0; rc == 0 && i < sel->n;) {
		const struct sel_run *first = &sel->runs[i];
		size_t end = i, found = 0;
		if (one_table(sel)) {
			end = sel->n;
		} else {
			while (end < sel->n && !strcmp(sel->runs[end].corpus, first->corpus) &&
			       !strcmp(sel->runs[end].subcorpus, first->subcorpus))
				end++;
		}
		for (size_t k = i; rc == 0 && !found && k < end && k < i + COLUMN_TRIES; k++) {
			int step;
			sqlite3_bind_int64(stmt, 1, sel->runs[k].run_id);
			while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
				const char *name = (const char *)sqlite3_column_text(stmt, 0);
				found++;
				if (!listed((const char *const *)*names, name))
					rc = push_text(names, n, name) ? err_set("out of memory")
								       : terminate(names, *n);
			}
			if (rc == 0 && step != SQLITE_DONE)
				rc = err_set("cannot look for pooled fields: %s",
					     sqlite3_errmsg(db));
			sqlite3_reset(stmt);
		}
		i = end;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* The names of the candidates: canonical ones, results-table columns, --pool fields. */
static int candidate_names(sqlite3 *db, const struct select_spec *spec, const struct selection *sel,
			   const char *block, char ***names, size_t *n, size_t *nsource)
{
	char **columns = NULL;
	size_t ncolumns = 0, before;
	int rc = 0;
	for (size_t i = 0; rc == 0 && canonical_candidates[i]; i++)
		if (!excluded_name(spec, block, canonical_candidates[i]))
			rc = push_text(names, n, canonical_candidates[i]);
	before = *n;
	if (rc == 0)
		rc = results_columns(db, sel, &columns, &ncolumns);
	for (size_t k = 0; rc == 0 && k < ncolumns; k++) {
		const char *name = columns[k];
		struct strbuf at = STRBUF_INIT;
		if (field_find(name) || field_is_pseudo(name) || strchr(name, '@') ||
		    excluded_name(spec, block, name))
			continue;
		/* the results column itself (a preference elsewhere does not apply); the
		 * factor rule is pooling_detect's, over the selected runs */
		strbuf_addf(&at, "%s@results", name);
		rc = at.buf ? push_text(names, n, at.buf) : err_set("out of memory");
		strbuf_release(&at);
	}
	*nsource = *n - before;
	for (size_t i = 0; rc == 0 && spec->filter->pool && i < spec->filter->npool; i++) {
		const char *name = spec->filter->pool[i];
		bool have = excluded_name(spec, block, name);
		for (size_t k = 0; k < *n && !have; k++)
			have = same_field((*names)[k], name);
		if (!have)
			rc = push_text(names, n, name);
	}
	for (size_t k = 0; k < ncolumns; k++)
		free(columns[k]);
	free(columns);
	return rc;
}

struct run_index {
	int64_t run_id;
	size_t i;
};

static int by_run_id(const void *x, const void *y)
{
	const struct run_index *a = x, *b = y;
	return (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

/* A value into its column's intern table and the run's slot. */
static int keep(struct intern *t, const unsigned char *v, const char **slot)
{
	if (!v)
		return 0;
	*slot = intern_add(t, (const char *)v);
	return *slot ? 0 : err_set("out of memory");
}

/* ---- what the selection did not read ---- */

/* A results column by name, for the merge with a run's rows (which come by name). */
struct name_at {
	const char *name;
	size_t c;
};

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct name_at *)x)->name, ((const struct name_at *)y)->name);
}

/*
 * The results columns' values for the selected runs: each run's results
 * row from run_attrs (its primary key: one range per run, by name), merged
 * with the columns sorted by name. names[c] NULL: column c is read
 * elsewhere.
 */
static int read_results(sqlite3 *db, const struct selection *sel, char *const *names, size_t n,
			struct intern *interns, const char ***values)
{
	struct name_at *list = malloc((n ? n : 1) * sizeof(*list));
	sqlite3_stmt *stmt = NULL;
	size_t nlist = 0;
	int rc = list ? 0 : err_set("out of memory"), step = SQLITE_DONE;
	for (size_t c = 0; list && c < n; c++)
		if (names[c])
			list[nlist++] = (struct name_at){names[c], c};
	if (list)
		qsort(list, nlist, sizeof(*list), by_name);
	if (rc == 0 && sqlite3_prepare_v2(db,
					  "SELECT name, value FROM run_attrs WHERE run_id = ?1 AND"
					  " source = 'results' ORDER BY name",
					  -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		size_t k = 0;
		sqlite3_bind_int64(stmt, 1, sel->runs[i].run_id);
		while (rc == 0 && k < nlist && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(stmt, 0);
			int cmp = -1;
			while (k < nlist && name && (cmp = strcmp(list[k].name, name)) < 0)
				k++;
			if (cmp == 0)
				rc = keep(&interns[list[k].c], sqlite3_column_text(stmt, 1),
					  &values[list[k].c][i]);
		}
		if (rc == 0 && step != SQLITE_DONE && step != SQLITE_ROW)
			rc = err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	free(list);
	return rc;
}

/*
 * The other candidates' values (a --pool field that is no column of runs;
 * every field when the selection read none): a second pass over the
 * filter's runs. names[c] NULL: column c is read elsewhere.
 */
static int read_rest(sqlite3 *db, const struct select_spec *spec, const struct run_index *index,
		     size_t nsel, char *const *names, size_t n, struct intern *interns,
		     const char ***values)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	int rc = strbuf_adds(&sql, "SELECT r.run_id") ? err_set("out of memory") : 0;
	int step = SQLITE_DONE;
	for (size_t c = 0; rc == 0 && c < n; c++) {
		if (!names[c])
			continue;
		if (strbuf_adds(&sql, ", CAST("))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = field_sql(names[c], false, &sql, &binds, &nbinds);
		if (rc == 0 && strbuf_adds(&sql, " AS TEXT)"))
			rc = err_set("out of memory");
	}
	if (rc == 0 && strbuf_adds(&sql, " FROM runs r JOIN corpora c USING (corpus_id) WHERE "))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = run_filter_sql(spec->filter, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = prepare(db, &sql, binds, nbinds, &stmt);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct run_index key = {sqlite3_column_int64(stmt, 0), 0};
		struct run_index *hit = bsearch(&key, index, nsel, sizeof(*index), by_run_id);
		int col = 1;
		if (!hit) /* matched the filter, left out of the selection */
			continue;
		for (size_t c = 0; rc == 0 && c < n; c++)
			if (names[c])
				rc = keep(&interns[c], sqlite3_column_text(stmt, col++),
					  &values[c][hit->i]);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

/* What pooling_load() gathers: per column (the block last) its codes and where they came from. */
struct gathered {
	size_t n;           /* columns, with the block */
	struct coded *cols; /* what detect() reads */
	struct coded_buf *bufs;
	const char ***values; /* texts per run of the columns coded here, else NULL */
	char **results;       /* plain names of the results columns, else NULL */
	char **rest;          /* names read by read_rest(), else NULL */
	struct intern *interns;
	char **one; /* the text of a column with one value (the selection's), else NULL */
};

static void gathered_release(struct gathered *g)
{
	for (size_t c = 0; c < g->n; c++) {
		if (g->bufs)
			coded_buf_release(&g->bufs[c]);
		if (g->values)
			free(g->values[c]);
		if (g->interns)
			intern_release(&g->interns[c]);
	}
	free(g->cols);
	free(g->bufs);
	free(g->values);
	free(g->results);
	free(g->rest);
	free(g->interns);
	free(g->one);
}

/* A column of the selection's own strings (corpus, subcorpus, the --block field). */
static const char **sel_texts(const struct selection *sel, size_t off)
{
	const char **v = malloc((sel->n ? sel->n : 1) * sizeof(*v));
	for (size_t i = 0; v && i < sel->n; i++)
		v[i] = *(const char *const *)((const char *)&sel->runs[i] + off);
	return v;
}

/*
 * Every column's codes: from the selection's prefetch when it read the
 * column, else its texts from the selection (corpus, subcorpus, the --block
 * field), run_attrs (results columns: [first, first + nsource)) or a second
 * pass, coded here. names[n] is the block field.
 */
static int gather(sqlite3 *db, const struct select_spec *spec, const struct selection *sel,
		  char *const *names, size_t n, size_t first, size_t nsource, struct gathered *g)
{
	const struct pool_prefetch *pf = sel_prefetch(sel);
	struct run_index *index = NULL;
	size_t nsel = sel->n ? sel->n : 1;
	bool need_results = false, need_rest = false;
	int rc = 0;
	g->n = n + 1;
	g->cols = calloc(g->n, sizeof(*g->cols));
	g->bufs = calloc(g->n, sizeof(*g->bufs));
	g->values = calloc(g->n, sizeof(*g->values));
	g->results = calloc(g->n, sizeof(*g->results));
	g->rest = calloc(g->n, sizeof(*g->rest));
	g->interns = calloc(g->n, sizeof(*g->interns));
	g->one = calloc(g->n, sizeof(*g->one));
	if (!g->cols || !g->bufs || !g->values || !g->results || !g->rest || !g->interns || !g->one)
		return err_set("out of memory");
	for (size_t c = 0; rc == 0 && c < g->n; c++) {
		const char *name = names[c];
		bool source = c >= first && c < first + nsource;
		const struct col_coder *cc = NULL;
		if (c == n && spec->block)
			cc = pf && pf->has_block ? &pf->block : NULL;
		else if (!source)
			cc = prefetched(pf, name);
		if (cc) {
			g->cols[c] = coder_view(name, cc);
			continue;
		}
		if (c < n && (!strcmp(name, "corpus") || !strcmp(name, "subcorpus")) &&
		    one_table(sel)) { /* one value: no codes */
			g->one[c] = name[0] == 'c' ? sel->runs[0].corpus : sel->runs[0].subcorpus;
			g->cols[c] = (struct coded){name, false, NULL, 1, &g->one[c]};
			continue;
		}
		if (c == n && spec->block) {
			g->values[c] = sel_texts(sel, offsetof(struct sel_run, block));
		} else if (c < n && !strcmp(name, "corpus")) {
			g->values[c] = sel_texts(sel, offsetof(struct sel_run, corpus));
		} else if (c < n && !strcmp(name, "subcorpus")) {
			g->values[c] = sel_texts(sel, offsetof(struct sel_run, subcorpus));
		} else if (source) {
			g->values[c] = calloc(nsel, sizeof(**g->values));
			g->results[c] = names[c];
			need_results = true;
		} else {
			g->values[c] = calloc(nsel, sizeof(**g->values));
			g->rest[c] = names[c];
			need_rest = true;
		}
		if (!g->values[c])
			rc = err_set("out of memory");
	}
	if (rc == 0 && need_rest) {
		if (!(index = malloc(nsel * sizeof(*index))))
			rc = err_set("out of memory");
		for (size_t i = 0; index && i < sel->n; i++)
			index[i] = (struct run_index){sel->runs[i].run_id, i};
		if (index)
			qsort(index, sel->n, sizeof(*index), by_run_id);
	}
	if (rc == 0 && need_results)
		rc = read_results(db, sel, g->results, g->n, g->interns, g->values);
	if (rc == 0 && need_rest)
		rc = read_rest(db, spec, index, sel->n, g->rest, g->n, g->interns, g->values);
	for (size_t c = 0; rc == 0 && c < g->n; c++)
		if (g->values[c]) {
			rc = code_column(g->values[c], sel->n, &g->bufs[c]);
			g->cols[c] = coded_view(names[c], g->results[c] != NULL, &g->bufs[c]);
		}
	free(index);
	return rc;
}

/*
 * The levels as codes: a canonical integer level (gomaxprocs, sessions)
 * from its numbers, whose texts are CAST(v AS TEXT); any other from its
 * texts.
 */
static int level_column(const struct select_spec *spec, const struct selection *sel,
			struct coded_buf *buf)
{
	const struct field_info *info = field_find(spec->by ? spec->by : "");
	bool numbers = info && (info->type == FIELD_INT || info->type == FIELD_BOOL);
	size_t prev = 0;
	int rc = 0;
	for (size_t i = 0; numbers && i < sel->n; i++)
		numbers = sel->runs[i].level_numeric;
	if (!numbers) {
		const char **text = sel_texts(sel, offsetof(struct sel_run, level_text));
		rc = text ? code_column(text, sel->n, buf) : err_set("out of memory");
		free(text);
		return rc;
	}
	book_init(&buf->book, true, false);
	if (!(buf->code = malloc((sel->n ? sel->n : 1) * sizeof(*buf->code))))
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		if (i == 0 || sel->runs[i].level != sel->runs[i - 1].level)
			rc = book_int(&buf->book, (int64_t)sel->runs[i].level, &prev);
		buf->code[i] = prev;
	}
	return rc;
}

int pooling_load(sqlite3 *db, const struct select_spec *spec, const struct selection *sel,
		 struct pooling *out)
{
	const char *block = spec->block ? spec->block : "block";
	char **names = NULL, **pool = NULL;
	const char **group = NULL;
	struct gathered g = {0};
	struct coded_buf groups = {0}, levels = {0};
	struct coded group_codes = {0}, level_codes = {0};
	size_t nnames = 0, n = 0, nsource = 0, ncanonical = 0, nsel = sel->n ? sel->n : 1;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; rc == 0 && i < spec->filter->npool; i++)
		rc = field_check(db, spec->filter->pool[i]);
	if (rc == 0)
		rc = candidate_names(db, spec, sel, block, &names, &nnames, &nsource);
	/* the block field last */
	if (rc == 0)
		rc = push_text(&names, &nnames, block);
	if (rc)
		goto done;
	n = nnames - 1;
	while (ncanonical < n && listed(canonical_candidates, names[ncanonical]))
		ncanonical++;
	/* a results column reads as NAME@results; its name is the plain one */
	for (size_t c = ncanonical, len; c < ncanonical + nsource; c++)
		if (field_source_of(names[c], &len))
			names[c][len] = '\0';
	if (spec->group)
		group = calloc(nsel, sizeof(*group));
	/* pool_input.pool is NULL-terminated; the filter's list is counted */
	pool = calloc(spec->filter->npool + 1, sizeof(*pool));
	if ((spec->group && !group) || !pool) {
		rc = err_set("out of memory");
		goto done;
	}
	rc = gather(db, spec, sel, names, n, ncanonical, nsource, &g);
	if (rc)
		goto done;
	for (size_t i = 0; spec->group && i < sel->n; i++)
		group[i] = sel->runs[i].group ? sel->runs[i].group : "";
	if (spec->group && sel_prefetch(sel) && sel->prefetch->has_group)
		group_codes = coder_view("group", &sel->prefetch->group);
	else if (spec->group && (rc = code_column(group, sel->n, &groups)) == 0)
		group_codes = coded_view("group", false, &groups);
	if (rc)
		goto done;
	/* the block kinds need the levels as codes */
	if (g.cols[n].ndistinct > 1 && (rc = level_column(spec, sel, &levels)) == 0)
		level_codes = coded_view("level", false, &levels);
	if (rc)
		goto done;
	for (size_t i = 0; i < spec->filter->npool; i++)
		pool[i] = spec->filter->pool[i];
	{
		struct detect_input in = {.n = sel->n,
					  /* the levels as codes when the block kinds need them */
					  .level_codes = levels.code ? &level_codes : NULL,
					  .group = spec->group ? &group_codes : NULL,
					  .group_text = group,
					  .block_field = block,
					  .block = &g.cols[n],
					  .columns = g.cols,
					  .ncolumns = n,
					  .pool = (const char *const *)pool};
		rc = detect(&in, out);
	}
done:
	gathered_release(&g);
	coded_buf_release(&groups);
	coded_buf_release(&levels);
	for (size_t c = 0; c < nnames; c++)
		free(names[c]);
	free(names);
	free(group);
	free(pool);
	return rc;
}

int pooling_check(sqlite3 *db, const struct select_spec *spec, struct selection *sel,
		  const char *command, bool can_group)
{
	struct pooling p;
	struct strbuf words = STRBUF_INIT;
	int rc = pooling_load(db, spec, sel, &p);
	if (rc)
		return rc;
	if (pooling_refuses(&p))
		rc = pooling_refusal(&p, command, spec->by ? spec->by : "none", can_group);
	else if (pooling_pooled(&p)) {
		pooling_describe(&p, &words);
		free(sel->pooled);
		sel->pooled = strbuf_detach(&words);
		if (!sel->pooled)
			rc = err_set("out of memory");
	}
	strbuf_release(&words);
	pooling_release(&p);
	return rc;
}
