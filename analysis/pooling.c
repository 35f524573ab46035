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
	return !v || !strcmp(v, "NA");
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

/* ---- codes: each run's value as a small integer, numbered in run order ---- */

static const char *const *sort_text; /* qsort has no context argument */

static int by_text(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(shown(sort_text[i]), shown(sort_text[j]));
	return c ? c : (i > j) - (i < j);
}

/* Renumber ids[0..n) (each < nids) in order of first appearance; returns nids. */
static size_t first_appearance(size_t *ids, size_t n, size_t nids)
{
	size_t *rank = malloc((nids ? nids : 1) * sizeof(*rank));
	size_t next = 0;
	if (!rank)
		return 0;
	for (size_t id = 0; id < nids; id++)
		rank[id] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		if (rank[ids[i]] == SIZE_MAX)
			rank[ids[i]] = next++;
		ids[i] = rank[ids[i]];
	}
	free(rank);
	return next;
}

/*
 * codes[i] = the rank of run i's value among the distinct values, in order
 * of first appearance (a missing value and "NA" are one value); returns the
 * number of distinct values (0 when out of memory or n is 0).
 */
static size_t encode(const char *const *text, size_t n, size_t *codes)
{
	size_t *idx, ndistinct = 0, same = 0;
	/* most candidates hold one value in every run: no sort for them */
	while (same < n && !strcmp(shown(text[same]), shown(text[0])))
		same++;
	if (same == n) {
		for (size_t i = 0; i < n; i++)
			codes[i] = 0;
		return n ? 1 : 0;
	}
	if (!(idx = malloc(n * sizeof(*idx))))
		return 0;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_text = text;
	qsort(idx, n, sizeof(*idx), by_text);
	for (size_t k = 0; k < n; k++) {
		if (k == 0 || strcmp(shown(text[idx[k]]), shown(text[idx[k - 1]])))
			ndistinct++;
		codes[idx[k]] = ndistinct - 1;
	}
	free(idx);
	return first_appearance(codes, n, ndistinct);
}

static const size_t *pair_a, *pair_b, *pair_c;

static int by_pair(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	if (pair_a[i] != pair_a[j])
		return pair_a[i] < pair_a[j] ? -1 : 1;
	if (pair_b[i] != pair_b[j])
		return pair_b[i] < pair_b[j] ? -1 : 1;
	if (pair_c && pair_c[i] != pair_c[j])
		return pair_c[i] < pair_c[j] ? -1 : 1;
	return (i > j) - (i < j);
}

/* idx = 0..n sorted by (a, b[, c]). */
static void sort_by(size_t *idx, size_t n, const size_t *a, const size_t *b, const size_t *c)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	pair_a = a;
	pair_b = b;
	pair_c = c;
	qsort(idx, n, sizeof(*idx), by_pair);
}

/* cell[i] = the pair (cell[i], code[i]), numbered in order of first appearance. */
static int refine(size_t *cell, const size_t *code, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t *out = malloc((n ? n : 1) * sizeof(*out));
	size_t ids = 0;
	int rc = idx && out ? 0 : err_set("out of memory");
	if (rc == 0) {
		sort_by(idx, n, cell, code, NULL);
		for (size_t k = 0; k < n; k++) {
			if (k == 0 || cell[idx[k]] != cell[idx[k - 1]] ||
			    code[idx[k]] != code[idx[k - 1]])
				ids++;
			out[idx[k]] = ids - 1;
		}
		if (n && first_appearance(out, n, ids) == 0)
			rc = err_set("out of memory");
		else
			memcpy(cell, out, n * sizeof(*cell));
	}
	free(idx);
	free(out);
	return rc;
}

/* Do two runs of the same cell hold different codes? */
static bool varies(const size_t *cell, const size_t *code, size_t n)
{
	size_t *seen = malloc((n ? n : 1) * sizeof(*seen));
	bool found = false;
	if (!seen)
		return true; /* out of memory: refuse rather than pool silently */
	for (size_t i = 0; i < n; i++)
		seen[i] = SIZE_MAX;
	for (size_t i = 0; i < n && !found; i++) {
		if (seen[cell[i]] == SIZE_MAX)
			seen[cell[i]] = code[i];
		else
			found = seen[cell[i]] != code[i];
	}
	free(seen);
	return found;
}

/*
 * The factor rule of pooling.h: a text value that is not a number (NA and
 * the empty string aside) held by two runs or more.
 */
static bool is_factor(const char *const *v, const size_t *code, size_t n, size_t ndistinct)
{
	bool repeats = false;
	size_t *count = calloc(ndistinct ? ndistinct : 1, sizeof(*count));
	double d;
	if (!count)
		return true; /* out of memory: count it rather than pool silently */
	for (size_t i = 0; i < n && !repeats; i++) {
		if (missing(v[i]) || !*v[i] || num_parse_real(v[i], &d) == 0)
			continue;
		repeats = ++count[code[i]] == 2;
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
static int distinct_values(const char *const *v, const size_t *code, size_t n, struct pool_field *f)
{
	size_t next = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (code[i] == next) {
			rc = push_text(&f->values, &f->nvalues, shown(v[i]));
			next++;
		}
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
static int follows(const struct pool_input *in, const size_t *declared, size_t *const *codes,
		   const size_t *primary, size_t nprimary, const size_t *code, struct strbuf *sb,
		   bool *all_pooled, const struct pooling *p, const size_t *field_of)
{
	size_t n = in->n;
	size_t *cell = malloc((n ? n : 1) * sizeof(*cell));
	int rc = cell ? 0 : err_set("out of memory");
	*all_pooled = true;
	for (size_t k = 0; rc == 0 && k < nprimary; k++) {
		memcpy(cell, declared, n * sizeof(*cell));
		rc = refine(cell, codes[primary[k]], n);
		if (rc == 0 && !varies(cell, code, n)) {
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

/* "gogc=default, sessions=100": the declared group and the primaries of run i. */
static char *cell_text(const struct pool_input *in, size_t i, const size_t *primary,
		       size_t nprimary)
{
	struct strbuf sb = STRBUF_INIT;
	if (in->group && in->group[i] && *in->group[i])
		strbuf_adds(&sb, in->group[i]);
	for (size_t k = 0; k < nprimary; k++)
		strbuf_addf(&sb, "%s%s=%s", sb.len ? ", " : "", in->columns[primary[k]].name,
			    shown(in->columns[primary[k]].values[i]));
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
static size_t distinct_levels(const struct pool_input *in, const size_t *idx, size_t from,
			      size_t to, const size_t *level, size_t *stamp, size_t mark,
			      const char **names)
{
	size_t n = 0;
	for (size_t k = from; k < to; k++)
		if (stamp[level[idx[k]]] != mark) {
			stamp[level[idx[k]]] = mark;
			names[n++] = shown(in->level[idx[k]]);
		}
	return n;
}

/*
 * Block kinds within each cell: the runs sorted by (cell, block, level);
 * a block's distinct levels against its cell's.
 */
static int block_kinds(const struct pool_input *in, const size_t *cell, const size_t *primary,
		       size_t nprimary, struct pooling *p)
{
	size_t n = in->n, mark = 0;
	size_t *level = malloc((n ? n : 1) * sizeof(*level));
	size_t *block = malloc((n ? n : 1) * sizeof(*block));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t *stamp = malloc((n ? n : 1) * sizeof(*stamp));
	const char **names = malloc((n ? n : 1) * sizeof(*names));
	int rc = level && block && idx && stamp && names ? 0 : err_set("out of memory");
	if (rc)
		goto done;
	encode(in->level, n, level);
	encode(in->block, n, block);
	for (size_t i = 0; i < n; i++)
		stamp[i] = SIZE_MAX;
	sort_by(idx, n, cell, block, level);
	for (size_t from = 0; rc == 0 && from < n;) {
		size_t to = from, c = cell[idx[from]], ncell, ncomplete = 0, nkinds = 0;
		char *all = NULL;
		while (to < n && cell[idx[to]] == c)
			to++;
		ncell = distinct_levels(in, idx, from, to, level, stamp, mark++, names);
		/* two passes over the cell's blocks: count the complete ones, then record */
		for (int pass = 0; rc == 0 && pass < 2; pass++)
			for (size_t b = from; rc == 0 && b < to;) {
				size_t e = b, nb;
				while (e < to && block[idx[e]] == block[idx[b]])
					e++;
				nb = distinct_levels(in, idx, b, e, level, stamp, mark++, names);
				if (pass == 0) {
					ncomplete += nb == ncell;
					nkinds += nb != ncell;
				} else if (nb == ncell && nkinds > 0) {
					const char *name = shown(in->block[idx[b]]);
					if (!listed((const char *const *)p->complete, name))
						rc = push_text(&p->complete, &p->ncomplete, name);
					if (rc == 0)
						rc = terminate(&p->complete, p->ncomplete);
				} else if (nb != ncell && ncomplete > 0) {
					char *held = levels_text(names, nb);
					if (!all) {
						size_t na =
							distinct_levels(in, idx, from, to, level,
									stamp, mark++, names);
						all = levels_text(names, na);
					}
					rc = add_kind(p, shown(in->block[idx[b]]),
						      cell_text(in, idx[b], primary, nprimary),
						      held, all ? strdup(all) : NULL);
				}
				b = e;
			}
		free(all);
		from = to;
	}
done:
	free(level);
	free(block);
	free(idx);
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

int pooling_detect(const struct pool_input *in, struct pooling *out)
{
	size_t n = in->n;
	size_t *declared = malloc((n ? n : 1) * sizeof(*declared));
	size_t *acc = malloc((n ? n : 1) * sizeof(*acc));
	size_t **codes = calloc(in->ncolumns ? in->ncolumns : 1, sizeof(*codes));
	size_t *ndistinct = calloc(in->ncolumns ? in->ncolumns : 1, sizeof(*ndistinct));
	size_t *primary = calloc(in->ncolumns ? in->ncolumns : 1, sizeof(*primary));
	size_t *field_of = calloc(in->ncolumns ? in->ncolumns : 1, sizeof(*field_of));
	size_t nprimary = 0;
	int rc = declared && acc && codes && ndistinct && primary && field_of
			 ? 0
			 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	if (rc)
		goto done;
	if (in->group) {
		encode(in->group, n, declared);
	} else {
		for (size_t i = 0; i < n; i++)
			declared[i] = 0;
	}
	memcpy(acc, declared, n * sizeof(*acc));
	for (size_t c = 0; rc == 0 && c < in->ncolumns; c++) {
		const struct pool_column *col = &in->columns[c];
		struct pool_field *f;
		if (!(codes[c] = malloc((n ? n : 1) * sizeof(**codes)))) {
			rc = err_set("out of memory");
			break;
		}
		ndistinct[c] = encode(col->values, n, codes[c]);
		if (col->factor_rule && !listed(in->pool, col->name) &&
		    !is_factor(col->values, codes[c], n, ndistinct[c]))
			continue;
		if (!varies(declared, codes[c], n))
			continue;
		if (!(f = new_field(out, col->name))) {
			rc = err_set("out of memory");
			break;
		}
		rc = distinct_values(col->values, codes[c], n, f);
		f->pooled = listed(in->pool, col->name);
		if (rc == 0 && !varies(acc, codes[c], n)) {
			struct strbuf sb = STRBUF_INIT;
			bool all_pooled = false;
			rc = follows(in, declared, codes, primary, nprimary, codes[c], &sb,
				     &all_pooled, out, field_of);
			f->follows = strbuf_detach(&sb);
			f->pooled |= all_pooled;
			if (rc == 0 && !f->follows)
				rc = err_set("out of memory");
		} else if (rc == 0) {
			field_of[nprimary] = out->nfields - 1;
			primary[nprimary++] = c;
			rc = refine(acc, codes[c], n);
		}
	}
	if (rc == 0 && in->block_field && in->block) {
		if (!(out->block_field = strdup(in->block_field)))
			rc = err_set("out of memory");
		out->kinds_pooled = listed(in->pool, in->block_field);
		if (rc == 0)
			rc = terminate(&out->complete, 0);
		if (rc == 0)
			rc = block_kinds(in, acc, primary, nprimary, out);
	}
done:
	for (size_t c = 0; codes && c < in->ncolumns; c++)
		free(codes[c]);
	free(codes);
	free(ndistinct);
	free(primary);
	free(field_of);
	free(declared);
	free(acc);
	if (rc)
		pooling_release(out);
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
			       "SELECT a.name FROM run_attrs a WHERE a.run_id = ?1 AND a.source ="
			       " 'results' AND NOT EXISTS (SELECT 1 FROM field_origins o WHERE"
			       " o.run_id = a.run_id AND o.source = 'results' AND o.name = a.name)"
			       " ORDER BY a.name",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	for (size_t i = 0; rc == 0 && i < sel->n;) {
		const struct sel_run *first = &sel->runs[i];
		size_t end = i, found = 0;
		while (end < sel->n && !strcmp(sel->runs[end].corpus, first->corpus) &&
		       !strcmp(sel->runs[end].subcorpus, first->subcorpus))
			end++;
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

/*
 * One results column's values for the selected runs, straight from
 * run_attrs (the index on name): no subquery per run.
 */
static int read_column(sqlite3 *db, const char *name, const struct run_index *index, size_t n,
		       struct intern *t, const char **values)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0, step = SQLITE_DONE;
	if (sqlite3_prepare_v2(db,
			       "SELECT run_id, value FROM run_attrs WHERE name = ?1 AND source ="
			       " 'results'",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct run_index key = {sqlite3_column_int64(stmt, 0), 0};
		struct run_index *hit = bsearch(&key, index, n, sizeof(*index), by_run_id);
		if (hit)
			rc = keep(t, sqlite3_column_text(stmt, 1), &values[hit->i]);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	return rc;
}

/* What pooling_load() reads: per candidate (and the block) an intern table and each run's value. */
struct loaded {
	size_t n;               /* candidates */
	struct intern *interns; /* n + 1: the last is the block's */
	const char ***values;   /* n columns of sel->n values (NULL: missing) */
	const char **blocks;
};

static void loaded_release(struct loaded *l)
{
	for (size_t c = 0; l->interns && c <= l->n; c++)
		intern_release(&l->interns[c]);
	free(l->interns);
	for (size_t c = 0; l->values && c < l->n; c++)
		free(l->values[c]);
	free(l->values);
	free(l->blocks);
}

/*
 * Every candidate's text for each selected run. Columns [first, first +
 * nsource) are results columns, named NAME@results: read with
 * read_column().
 */
static int read_values(sqlite3 *db, const struct select_spec *spec, const struct selection *sel,
		       const char *block, char **names, size_t first, size_t nsource,
		       struct loaded *l)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0, n = l->n, len;
	sqlite3_stmt *stmt = NULL;
	struct run_index *index = malloc((sel->n ? sel->n : 1) * sizeof(*index));
	int rc = index ? 0 : err_set("out of memory"), step = SQLITE_DONE;
	for (size_t i = 0; index && i < sel->n; i++)
		index[i] = (struct run_index){sel->runs[i].run_id, i};
	if (index)
		qsort(index, sel->n, sizeof(*index), by_run_id);
	if (rc == 0 && strbuf_adds(&sql, "SELECT r.run_id, CAST("))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = field_sql(block, false, &sql, &binds, &nbinds);
	for (size_t c = 0; rc == 0 && c < n; c++) {
		if (strbuf_adds(&sql, " AS TEXT), CAST("))
			rc = err_set("out of memory");
		else if (c >= first && c < first + nsource)
			rc = strbuf_adds(&sql, "NULL") ? err_set("out of memory") : 0;
		else if (!strcmp(names[c], "corpus")) /* the join's, not a subquery per run */
			rc = strbuf_adds(&sql, "c.name") ? err_set("out of memory") : 0;
		else
			rc = field_sql(names[c], false, &sql, &binds, &nbinds);
	}
	if (rc == 0 && strbuf_adds(&sql, " AS TEXT) FROM runs r JOIN corpora c USING (corpus_id)"
					 " WHERE "))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = run_filter_sql(spec->filter, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = prepare(db, &sql, binds, nbinds, &stmt);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct run_index key = {sqlite3_column_int64(stmt, 0), 0};
		struct run_index *hit = bsearch(&key, index, sel->n, sizeof(*index), by_run_id);
		if (!hit) /* matched the filter, left out of the selection */
			continue;
		rc = keep(&l->interns[n], sqlite3_column_text(stmt, 1), &l->blocks[hit->i]);
		for (size_t c = 0; rc == 0 && c < n; c++)
			rc = keep(&l->interns[c], sqlite3_column_text(stmt, 2 + (int)c),
				  &l->values[c][hit->i]);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot look for pooled fields: %s", sqlite3_errmsg(db));
	for (size_t c = first; rc == 0 && c < first + nsource; c++) {
		char *name = strdup(names[c]);
		if (!name) {
			rc = err_set("out of memory");
			break;
		}
		field_source_of(name, &len);
		name[len] = '\0';
		rc = read_column(db, name, index, sel->n, &l->interns[c], l->values[c]);
		free(name);
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	free(index);
	return rc;
}

int pooling_load(sqlite3 *db, const struct select_spec *spec, const struct selection *sel,
		 struct pooling *out)
{
	const char *block = spec->block ? spec->block : "block";
	char **names = NULL, **pool = NULL;
	const char **level = NULL, **group = NULL;
	struct pool_column *columns = NULL;
	struct loaded l = {0};
	size_t n = 0, nsource = 0, ncanonical = 0, nsel = sel->n ? sel->n : 1;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; rc == 0 && i < spec->filter->npool; i++)
		rc = field_check(db, spec->filter->pool[i]);
	if (rc == 0)
		rc = candidate_names(db, spec, sel, block, &names, &n, &nsource);
	if (rc)
		goto done;
	while (ncanonical < n && listed(canonical_candidates, names[ncanonical]))
		ncanonical++;
	l.n = n;
	l.interns = calloc(n + 1, sizeof(*l.interns));
	l.values = calloc(n ? n : 1, sizeof(*l.values));
	l.blocks = calloc(nsel, sizeof(*l.blocks));
	columns = calloc(n ? n : 1, sizeof(*columns));
	level = calloc(nsel, sizeof(*level));
	group = calloc(nsel, sizeof(*group));
	/* pool_input.pool is NULL-terminated; the filter's list is counted */
	pool = calloc(spec->filter->npool + 1, sizeof(*pool));
	if (!l.interns || !l.values || !l.blocks || !columns || !level || !group || !pool) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t c = 0; c < n; c++)
		if (!(l.values[c] = calloc(nsel, sizeof(**l.values)))) {
			rc = err_set("out of memory");
			goto done;
		}
	rc = read_values(db, spec, sel, block, names, ncanonical, nsource, &l);
	if (rc)
		goto done;
	for (size_t i = 0; i < sel->n; i++) {
		level[i] = sel->runs[i].level_text;
		group[i] = sel->runs[i].group ? sel->runs[i].group : "";
	}
	for (size_t c = 0; c < n; c++) {
		size_t len;
		bool source = c >= ncanonical && c < ncanonical + nsource;
		/* a results column reads as NAME@results; its name is the plain one */
		if (source && field_source_of(names[c], &len))
			names[c][len] = '\0';
		columns[c] = (struct pool_column){names[c], source, l.values[c]};
	}
	for (size_t i = 0; i < spec->filter->npool; i++)
		pool[i] = spec->filter->pool[i];
	{
		struct pool_input in = {.n = sel->n,
					.level = level,
					.group = spec->group ? group : NULL,
					.block_field = block,
					.block = l.blocks,
					.columns = columns,
					.ncolumns = n,
					.pool = (const char *const *)pool};
		rc = pooling_detect(&in, out);
	}
done:
	loaded_release(&l);
	for (size_t c = 0; c < n; c++)
		free(names[c]);
	free(names);
	free(columns);
	free(level);
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
