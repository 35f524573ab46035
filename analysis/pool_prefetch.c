/* pool_prefetch: the pooling candidates the selection query reads (pool_prefetch.h). */
#include "pool_prefetch.h"

#include "../common/err.h"
#include "pool_codes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void coder_init(struct col_coder *cc, bool integer)
{
	memset(cc, 0, sizeof(*cc));
	pool_book_init(&cc->book, integer, false);
	cc->last = SIZE_MAX;
}

static void coder_release(struct col_coder *cc)
{
	pool_book_release(&cc->book);
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
	int rc = pool_missing(t) ? pool_book_missing(&cc->book, &code)
				 : pool_book_text(&cc->book, t, &code);
	if (rc)
		return rc;
	cc->last = code;
	cc->last_text = cc->book.text[code];
	return coder_keep(cc, code, i);
}

static int coder_new_int(struct col_coder *cc, int64_t v, bool null, size_t i)
{
	size_t code;
	int rc = null ? pool_book_missing(&cc->book, &code) : pool_book_int(&cc->book, v, &code);
	if (rc)
		return rc;
	cc->last = code;
	cc->last_text = cc->book.text[code];
	cc->last_int = v;
	return coder_keep(cc, code, i);
}

static inline int coder_text(struct col_coder *cc, const char *t, size_t i)
{
	bool same = pool_missing(t) ? cc->last != SIZE_MAX && !cc->last_text
				    : cc->last_text && !strcmp(t, cc->last_text);
	return same ? coder_keep(cc, cc->last, i) : coder_new_text(cc, t, i);
}

static inline int coder_int(struct col_coder *cc, int64_t v, bool null, size_t i)
{
	bool same =
		null ? cc->last != SIZE_MAX && !cc->last_text : cc->last_text && cc->last_int == v;
	return same ? coder_keep(cc, cc->last, i) : coder_new_int(cc, v, null, i);
}

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
		rc = pool_prepare(db, &sql, binds, nbinds, &stmt);
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
	for (size_t i = 0; rc == 0 && pool_canonical_candidates[i]; i++)
		if (!pool_excluded_name(spec, block, pool_canonical_candidates[i]))
			rc = prefetch_add(pf, pool_canonical_candidates[i]);
	if (rc == 0 && !spec->block)
		rc = prefetch_add(pf, block);
	for (size_t i = 0; rc == 0 && spec->filter && i < spec->filter->npool; i++)
		if (!pool_excluded_name(spec, block, spec->filter->pool[i]))
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
