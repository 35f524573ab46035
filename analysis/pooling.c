/* pooling: the detection and its result (pooling.h); the words are pool_words.c's. */
#include "pooling.h"

#include "../common/err.h"
#include "../common/num.h"
#include "pool_codes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- detection on codes ---- */

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
	pool_book_init(&pairs, true, true);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (cell[i] != prev_cell || col->code[i] != prev_code) {
			prev_cell = cell[i];
			prev_code = col->code[i];
			rc = pool_book_int(
				&pairs, (int64_t)(prev_cell * col->ndistinct + prev_code), &prev);
		}
		cell[i] = prev;
	}
	*ncells = pairs.n;
	pool_book_release(&pairs);
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
		count[pool_code_at(col, i)]++;
	for (size_t c = 0; c < col->ndistinct && !repeats; c++) {
		const char *v = col->text[c];
		repeats = count[c] >= 2 && !pool_missing(v) && *v && num_parse_real(v, &d) != 0;
	}
	free(count);
	return repeats;
}

/* The same value: equal texts, or texts of one number ("100" and "100.0"). */
static bool same_value(const char *a, const char *b)
{
	double x, y;
	if (!a || !b)
		return a == b;
	return !strcmp(a, b) ||
	       (num_parse_real(a, &x) == 0 && num_parse_real(b, &y) == 0 && x == y);
}

/*
 * Is col the level under another name: each level one value of col, each
 * value of col one level, and that value the level's own (sessions filled
 * from a table's `level` column)? Then it pools nothing. A field that maps
 * one to one onto the level with other values (gogc 100 at one level, 800
 * at the other) is no name of the level but a second factor moving with
 * it: not a mirror. seen: scratch of 2 n entries (both maps; k <= n).
 */
static bool mirrors_level(const struct coded *col, const struct coded *level, size_t n,
			  size_t *seen)
{
	size_t k = col->ndistinct;
	if (!level || level->ndistinct != k || k <= 1)
		return false;
	for (size_t i = 0; i < 2 * k; i++)
		seen[i] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t c = pool_code_at(col, i), l = pool_code_at(level, i);
		if (seen[l] == SIZE_MAX) {
			if (!same_value(col->text[c], level->text[l]))
				return false;
			seen[l] = c;
		} else if (seen[l] != c) {
			return false;
		}
		if (seen[k + c] == SIZE_MAX)
			seen[k + c] = l;
		else if (seen[k + c] != l)
			return false;
	}
	return true;
}

/* ---- the result ---- */

/* The distinct values of a column, in order of first appearance. */
static int distinct_values(const struct coded *col, struct pool_field *f)
{
	int rc = 0;
	for (size_t c = 0; rc == 0 && c < col->ndistinct; c++)
		rc = pool_push_text(&f->values, &f->nvalues, pool_shown(col->text[c]));
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
	return pool_shown(col->text[pool_code_at(col, i)]);
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
			names[n++] = pool_shown(level->text[c]);
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
	pool_book_init(&levels, false, false);
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
		if ((rc = pool_code_texts(in->level, n, &levels, level_code)) != 0)
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
					if (!pool_listed((const char *const *)p->complete, name))
						rc = pool_push_text(&p->complete, &p->ncomplete,
								    name);
					if (rc == 0)
						rc = pool_terminate(&p->complete, p->ncomplete);
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
	pool_book_release(&levels);
	free(level_code);
	free(key);
	free(idx);
	free(tmp);
	free(stamp);
	free(names);
	return rc;
}

int pool_detect(const struct detect_input *in, struct pooling *out)
{
	size_t n = in->n, nc = in->ncolumns ? in->ncolumns : 1;
	size_t *declared = malloc((n ? n : 1) * sizeof(*declared));
	size_t *acc = malloc((n ? n : 1) * sizeof(*acc));
	size_t *seen = malloc((n ? 2 * n : 1) * sizeof(*seen));
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
		if (col->factor_rule && !pool_listed(in->pool, col->name) && !is_factor(col, n))
			continue;
		if (!varies(declared, ndeclared, col, n, seen))
			continue;
		if (mirrors_level(col, in->level_codes, n, seen)) {
			rc = pool_push_text(&out->mirrors, &out->nmirrors, col->name);
			continue;
		}
		if (!(f = new_field(out, col->name))) {
			rc = err_set("out of memory");
			break;
		}
		rc = distinct_values(col, f);
		f->pooled = pool_listed(in->pool, col->name);
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
	/* block kinds need the levels: an analysis without a level (compare) has none */
	if (rc == 0 && in->block_field && in->block && (in->level_codes || in->level)) {
		if (!(out->block_field = strdup(in->block_field)))
			rc = err_set("out of memory");
		out->kinds_pooled = pool_listed(in->pool, in->block_field);
		if (rc == 0)
			rc = pool_terminate(&out->complete, 0);
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

int pooling_detect(const struct pool_input *in, struct pooling *out)
{
	size_t nc = in->ncolumns;
	struct coded_buf *bufs = calloc(nc + 3, sizeof(*bufs));
	struct coded *cols = calloc(nc ? nc : 1, sizeof(*cols));
	struct coded block = {0}, group = {0}, level = {0};
	int rc = bufs && cols ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	for (size_t c = 0; rc == 0 && c < nc; c++) {
		rc = pool_code_column(in->columns[c].values, in->n, &bufs[c]);
		cols[c] =
			pool_coded_view(in->columns[c].name, in->columns[c].factor_rule, &bufs[c]);
	}
	if (rc == 0 && in->block_field && in->block) {
		rc = pool_code_column(in->block, in->n, &bufs[nc]);
		block = pool_coded_view(in->block_field, false, &bufs[nc]);
	}
	if (rc == 0 && in->group) {
		rc = pool_code_column(in->group, in->n, &bufs[nc + 1]);
		group = pool_coded_view("group", false, &bufs[nc + 1]);
	}
	if (rc == 0 && in->level) {
		rc = pool_code_column(in->level, in->n, &bufs[nc + 2]);
		level = pool_coded_view("level", false, &bufs[nc + 2]);
	}
	if (rc == 0) {
		struct detect_input d = {.n = in->n,
					 .level = in->level,
					 .level_codes = in->level ? &level : NULL,
					 .group = in->group ? &group : NULL,
					 .group_text = in->group,
					 .block_field = in->block_field,
					 .block = in->block_field && in->block ? &block : NULL,
					 .columns = cols,
					 .ncolumns = nc,
					 .pool = in->pool};
		rc = pool_detect(&d, out);
	}
	for (size_t c = 0; bufs && c < nc + 3; c++)
		pool_coded_buf_release(&bufs[c]);
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
	for (size_t i = 0; i < p->nmirrors; i++)
		free(p->mirrors[i]);
	free(p->mirrors);
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
