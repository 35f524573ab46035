/* pool_load: the pooling candidates from the database, and the check (pooling.h). */
#include "pooling.h"

#include "../common/err.h"
#include "pool_codes.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
				if (!pool_listed((const char *const *)*names, name))
					rc = pool_push_text(names, n, name)
						     ? err_set("out of memory")
						     : pool_terminate(names, *n);
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
	for (size_t i = 0; rc == 0 && pool_canonical_candidates[i]; i++)
		if (!pool_excluded_name(spec, block, pool_canonical_candidates[i]))
			rc = pool_push_text(names, n, pool_canonical_candidates[i]);
	before = *n;
	if (rc == 0)
		rc = results_columns(db, sel, &columns, &ncolumns);
	for (size_t k = 0; rc == 0 && k < ncolumns; k++) {
		const char *name = columns[k];
		struct strbuf at = STRBUF_INIT;
		if (field_find(name) || field_is_pseudo(name) || strchr(name, '@') ||
		    pool_excluded_name(spec, block, name))
			continue;
		/* the results column itself (a preference elsewhere does not apply); the
		 * factor rule is pooling_detect's, over the selected runs */
		strbuf_addf(&at, "%s@results", name);
		rc = at.buf ? pool_push_text(names, n, at.buf) : err_set("out of memory");
		strbuf_release(&at);
	}
	*nsource = *n - before;
	for (size_t i = 0; rc == 0 && spec->filter->pool && i < spec->filter->npool; i++) {
		const char *name = spec->filter->pool[i];
		bool have = pool_excluded_name(spec, block, name);
		for (size_t k = 0; k < *n && !have; k++)
			have = pool_same_field((*names)[k], name);
		if (!have)
			rc = pool_push_text(names, n, name);
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
	*slot = pool_intern_add(t, (const char *)v);
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
		rc = pool_prepare(db, &sql, binds, nbinds, &stmt);
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
			pool_coded_buf_release(&g->bufs[c]);
		if (g->values)
			free(g->values[c]);
		if (g->interns)
			pool_intern_release(&g->interns[c]);
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
			rc = pool_code_column(g->values[c], sel->n, &g->bufs[c]);
			g->cols[c] = pool_coded_view(names[c], g->results[c] != NULL, &g->bufs[c]);
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
		rc = text ? pool_code_column(text, sel->n, buf) : err_set("out of memory");
		free(text);
		return rc;
	}
	pool_book_init(&buf->book, true, false);
	if (!(buf->code = malloc((sel->n ? sel->n : 1) * sizeof(*buf->code))))
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		if (i == 0 || sel->runs[i].level != sel->runs[i - 1].level)
			rc = pool_book_int(&buf->book, (int64_t)sel->runs[i].level, &prev);
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
		rc = pool_push_text(&names, &nnames, block);
	if (rc)
		goto done;
	n = nnames - 1;
	while (ncanonical < n && pool_listed(pool_canonical_candidates, names[ncanonical]))
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
	else if (spec->group && (rc = pool_code_column(group, sel->n, &groups)) == 0)
		group_codes = pool_coded_view("group", false, &groups);
	if (rc)
		goto done;
	/* the block kinds need the levels as codes */
	if (spec->by && (rc = level_column(spec, sel, &levels)) == 0)
		level_codes = pool_coded_view("level", false, &levels);
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
		rc = pool_detect(&in, out);
	}
done:
	gathered_release(&g);
	pool_coded_buf_release(&groups);
	pool_coded_buf_release(&levels);
	for (size_t c = 0; c < nnames; c++)
		free(names[c]);
	free(names);
	free(group);
	free(pool);
	return rc;
}

int pooling_check(sqlite3 *db, const struct select_spec *spec, struct selection *sel,
		  const char *command, const char *split)
{
	struct pooling p;
	struct strbuf words = STRBUF_INIT;
	int rc = pooling_load(db, spec, sel, &p);
	if (rc)
		return rc;
	if (pooling_refuses(&p))
		rc = pooling_refusal(&p, command, spec->by, split);
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
