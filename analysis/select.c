/* select: see select.h. */
#include "select.h"

#include "pool_prefetch.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/queries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The column's text in the selection's pool; NULL for SQL NULL (and, with err_set, no memory). */
static char *pool_column(struct selection *sel, sqlite3_stmt *stmt, int col)
{
	const unsigned char *text = sqlite3_column_text(stmt, col);
	return text ? strpool_intern_n(&sel->strings, (const char *)text,
				       (size_t)sqlite3_column_bytes(stmt, col))
		    : NULL;
}

static int append_field(struct strbuf *sql, const char *name, bool numeric, char ***binds,
			size_t *nbinds)
{
	if (strbuf_adds(sql, ", "))
		return err_set("out of memory");
	if (!name)
		return strbuf_adds(sql, "NULL") ? err_set("out of memory") : 0;
	return field_sql(name, numeric, sql, binds, nbinds);
}

/* Columns: 0 run_id, 1 corpus, 2 subcorpus, 3 tag, 4 seq, 5 started_at, 6 app_cores,
 * 7 by text, 8 by num, 9 metric num, 10 metric text, 11 block text, 12.. group texts,
 * extra texts, then (the chosen runs' query) what the pooling check reads (prefetch). */
enum { COL_BY_TEXT = 7, COL_BY_NUM, COL_METRIC, COL_METRIC_TEXT, COL_BLOCK, COL_GROUPS };
/*
 * Query modes: the left-out runs, the chosen runs in runs_in_order order
 * (JOIN corpora, ORDER BY), or the chosen runs as the table holds them
 * (column 1 the corpus_id; struct scan_order checks that their order is
 * the same).
 */
enum query_mode { Q_LEFT_OUT, Q_ORDERED, Q_SCAN };
static int build_sql(const struct select_spec *spec, const struct pool_prefetch *prefetch,
		     enum query_mode mode, struct strbuf *sql, char ***binds, size_t *nbinds)
{
	bool left_out = mode == Q_LEFT_OUT;
	struct run_filter filter = *spec->filter;
	int rc;
	if (left_out) {
		filter.only_excluded = true;
		filter.include_excluded = false;
	} else if (!filter.only_excluded) {
		/* excluded runs are skipped by run_query (struct excluded_ids) */
		filter.include_excluded = true;
	}
	if (strbuf_addf(sql, "SELECT r.run_id, %s, r.subcorpus, r.tag, r.seq, r.started_at,"
			     " r.app_cores", mode == Q_SCAN ? "r.corpus_id" : "c.name"))
		return err_set("out of memory");
	rc = append_field(sql, spec->by, false, binds, nbinds);
	if (rc == 0)
		rc = append_field(sql, spec->by, true, binds, nbinds);
	if (rc == 0)
		rc = append_field(sql, spec->metric, true, binds, nbinds);
	if (rc == 0)
		rc = append_field(sql, spec->metric, false, binds, nbinds);
	if (rc == 0)
		rc = append_field(sql, spec->block, false, binds, nbinds);
	for (size_t i = 0; rc == 0 && spec->group && spec->group[i]; i++)
		rc = append_field(sql, spec->group[i], false, binds, nbinds);
	for (size_t i = 0; rc == 0 && spec->extra && spec->extra[i]; i++)
		rc = append_field(sql, spec->extra[i], false, binds, nbinds);
	if (rc == 0 && !left_out)
		rc = pool_prefetch_sql(prefetch, sql);
	if (rc)
		return rc;
	if (strbuf_adds(sql, mode == Q_SCAN ? " FROM runs r NOT INDEXED WHERE "
					    : " FROM runs r JOIN corpora c USING (corpus_id) WHERE "))
		return err_set("out of memory");
	rc = run_filter_sql(&filter, sql, binds, nbinds);
	if (rc || mode == Q_SCAN)
		return rc;
	return strbuf_adds(sql, " ORDER BY c.name, r.subcorpus, r.seq") ? err_set("out of memory")
								       : 0;
}

int sel_left_out_add(struct sel_left_out **list, size_t *n, const char *tag, const char *reason,
		     bool excluded)
{
	struct sel_left_out *grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	*list = grown;
	grown[*n].tag = strdup(tag ? tag : "");
	grown[*n].reason = strdup(reason ? reason : "");
	grown[*n].excluded = excluded;
	(*n)++;
	if (!grown[*n - 1].tag || !grown[*n - 1].reason)
		return err_set("out of memory");
	return 0;
}

void sel_left_out_free(struct sel_left_out *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].tag);
		free(list[i].reason);
	}
	free(list);
}

static int add_left_out(struct selection *sel, const char *tag, const char *reason, bool excluded)
{
	return sel_left_out_add(&sel->left_out, &sel->nleft_out, tag, reason, excluded);
}

static size_t count_list(const char *const *list)
{
	size_t n = 0;
	while (list && list[n])
		n++;
	return n;
}

/*
 * What one query's rows share: scratch space, and the last row's level
 * text and group text with the integers they were made from. Most runs
 * repeat the previous run's level and group, and an integer column read
 * as text is converted by SQLite and interned again on every row.
 */
#define MEMO_GROUPS 4
struct int_memo {
	bool valid;
	int64_t value;
};
struct row_scratch {
	struct strbuf sb;
	struct int_memo level, groups[MEMO_GROUPS];
	char *level_text, *group; /* for the memos' values (NULL: none yet) */
};
#define ROW_SCRATCH_INIT {STRBUF_INIT, {false, 0}, {{false, 0}}, NULL, NULL}

/* Is col an integer equal to the memo's? The memo takes the column's value either way. */
static bool memo_same(struct int_memo *m, sqlite3_stmt *stmt, int col)
{
	int64_t v;
	bool same;
	if (sqlite3_column_type(stmt, col) != SQLITE_INTEGER) {
		m->valid = false;
		return false;
	}
	v = sqlite3_column_int64(stmt, col);
	same = m->valid && m->value == v;
	m->valid = true;
	m->value = v;
	return same;
}

/* The level text: the last row's when its integer is the same. */
static char *level_text(struct selection *sel, sqlite3_stmt *stmt, struct row_scratch *rs)
{
	if (memo_same(&rs->level, stmt, COL_BY_TEXT) && rs->level_text)
		return rs->level_text;
	return rs->level_text = pool_column(sel, stmt, COL_BY_TEXT);
}

/* "F1=v1, F2=v2" (NA for a missing value), or "", interned; the last row's when the same. */
static char *group_text(struct selection *sel, sqlite3_stmt *stmt, const struct select_spec *spec,
			struct row_scratch *rs)
{
	struct strbuf *sb = &rs->sb;
	size_t ngroups = count_list(spec->group);
	bool same = rs->group != NULL && ngroups <= MEMO_GROUPS;
	int rc = 0;
	for (size_t i = 0; same && i < ngroups; i++)
		same = memo_same(&rs->groups[i], stmt, COL_GROUPS + (int)i);
	if (same)
		return rs->group;
	for (size_t i = 0; i < ngroups && i < MEMO_GROUPS; i++)
		memo_same(&rs->groups[i], stmt, COL_GROUPS + (int)i); /* every memo takes its value */
	rs->group = NULL;
	strbuf_reset(sb);
	for (size_t i = 0; rc == 0 && spec->group && spec->group[i]; i++) {
		const unsigned char *v = sqlite3_column_text(stmt, COL_GROUPS + (int)i);
		if (i)
			rc |= strbuf_adds(sb, ", ");
		rc |= strbuf_adds(sb, spec->group[i]);
		rc |= strbuf_adds(sb, "=");
		rc |= strbuf_adds(sb, v ? (const char *)v : "NA");
	}
	if (rc) {
		err_set("out of memory");
		return NULL;
	}
	return rs->group = strpool_intern(&sel->strings, strbuf_str(sb));
}

/* The extra fields follow the group fields in the result columns. */
static int extra_values(struct selection *sel, sqlite3_stmt *stmt, const struct select_spec *spec,
			struct sel_run *run)
{
	size_t first = COL_GROUPS + count_list(spec->group), n = count_list(spec->extra);
	if (n == 0)
		return 0;
	run->extra = calloc(n, sizeof(*run->extra));
	if (!run->extra)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		run->extra[i] = pool_column(sel, stmt, (int)(first + i));
	return 0;
}

/* corpus: the row's corpus name, interned (column 1 holds it or the corpus_id) */
static int take_row(struct selection *sel, sqlite3_stmt *stmt, const struct select_spec *spec,
		    char *corpus, size_t *alloc, struct row_scratch *scratch)
{
	struct sel_run *run;
	char reason[256];
	const char *tag = (const char *)sqlite3_column_text(stmt, 3);
	const char *text;
	int rc;
	if (spec->by && sqlite3_column_type(stmt, COL_BY_TEXT) == SQLITE_NULL) {
		snprintf(reason, sizeof(reason), "no value for --by %s", spec->by);
		return add_left_out(sel, tag, reason, false);
	}
	if (spec->by && spec->numeric_by && sqlite3_column_type(stmt, COL_BY_NUM) == SQLITE_NULL)
		return select_not_number("--by", spec->by, tag,
					 (const char *)sqlite3_column_text(stmt, COL_BY_TEXT));
	if (spec->metric && sqlite3_column_type(stmt, COL_METRIC) == SQLITE_NULL) {
		/* text that is not a missing value (NA, empty) is an error, never a 0 */
		text = (const char *)sqlite3_column_text(stmt, COL_METRIC_TEXT);
		if (text && *text && !num_is_missing(text))
			return select_not_number("--metric", spec->metric, tag, text);
		snprintf(reason, sizeof(reason), "no numeric value for --metric %s", spec->metric);
		return add_left_out(sel, tag, reason, false);
	}
	if (GROW(sel->runs, *alloc, sel->n + 1) != 0)
		return err_set("out of memory");
	run = &sel->runs[sel->n++];
	memset(run, 0, sizeof(*run));
	run->run_id = sqlite3_column_int64(stmt, 0);
	run->corpus = corpus;
	run->subcorpus = pool_column(sel, stmt, 2);
	/* a tag is unique within its corpus: copied, not interned */
	run->tag = tag ? strpool_copy_n(&sel->strings, tag, (size_t)sqlite3_column_bytes(stmt, 3))
		       : NULL;
	run->seq = sqlite3_column_int64(stmt, 4);
	run->started_at = pool_column(sel, stmt, 5);
	run->app_cores = sqlite3_column_type(stmt, 6) == SQLITE_NULL ? NAN
								      : sqlite3_column_double(stmt, 6);
	run->level_text = level_text(sel, stmt, scratch);
	run->level_numeric = sqlite3_column_type(stmt, COL_BY_NUM) != SQLITE_NULL;
	run->level = run->level_numeric ? sqlite3_column_double(stmt, COL_BY_NUM) : NAN;
	run->metric = sqlite3_column_double(stmt, COL_METRIC);
	run->block = pool_column(sel, stmt, COL_BLOCK);
	run->group = group_text(sel, stmt, spec, scratch);
	rc = run->group ? extra_values(sel, stmt, spec, run) : ERR_DATA;
	/* the prefetch's columns follow the extra ones */
	if (rc == 0 && sel->prefetch)
		rc = pool_prefetch_row(
			sel->prefetch, stmt,
			COL_GROUPS + (int)(count_list(spec->group) + count_list(spec->extra)), run);
	return rc;
}

/*
 * The excluded runs' ids, ascending: the chosen runs' query reads every run
 * the filter matches and skips these, where a NOT EXISTS probe of
 * exclusions on each run was a quarter of `memory` on 10,000 runs.
 */
struct excluded_ids {
	int64_t *id;
	size_t n;
};

static int excluded_ids_load(sqlite3 *db, struct excluded_ids *out)
{
	sqlite3_stmt *stmt = NULL;
	size_t alloc = 0;
	int rc = 0, step;
	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT run_id FROM exclusions ORDER BY run_id", -1,
			       &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read exclusions: %s", sqlite3_errmsg(db));
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (out->n == alloc) {
			size_t want = alloc ? 2 * alloc : 64;
			int64_t *grown = realloc(out->id, want * sizeof(*grown));
			if (!grown) {
				rc = err_set("out of memory");
				break;
			}
			out->id = grown;
			alloc = want;
		}
		out->id[out->n++] = sqlite3_column_int64(stmt, 0);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot read exclusions: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	return rc;
}

static bool excluded_has(const struct excluded_ids *ex, int64_t run_id)
{
	size_t lo = 0, hi = ex->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ex->id[mid] < run_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ex->n && ex->id[lo] == run_id;
}

/*
 * A scan of runs in table order (Q_SCAN) gives the runs_in_order order when
 * each row's (corpus name, subcorpus, seq, run_id) is above the previous
 * row's (an import stores a corpus's runs in that order); the index order
 * breaks ties by run_id too. Reading the table directly saves the index's
 * lookup of each row (a fifth of the query on 10,000 runs). The first row
 * out of order (or any failure) sends select_runs back to Q_ORDERED.
 */
enum { OUT_OF_ORDER = 1 };
struct scan_order {
	int64_t *ids; /* corpus_id -> names[i], from corpora */
	char **names; /* interned in the selection's pool */
	size_t n;
	const char *corpus, *subcorpus; /* the previous row's (NULL: no row yet) */
	int64_t seq, run_id;
};

static int scan_order_load(sqlite3 *db, struct selection *sel, struct scan_order *o)
{
	sqlite3_stmt *stmt = NULL;
	size_t alloc = 0;
	int rc = 0, step;
	memset(o, 0, sizeof(*o));
	if (sqlite3_prepare_v2(db, "SELECT corpus_id, name FROM corpora", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return err_set("cannot select runs: %s", sqlite3_errmsg(db));
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (o->n == alloc) {
			size_t want = alloc ? 2 * alloc : 8;
			int64_t *ids = realloc(o->ids, want * sizeof(*ids));
			char **names = ids ? realloc(o->names, want * sizeof(*names)) : NULL;
			if (ids)
				o->ids = ids;
			if (names)
				o->names = names;
			if (!ids || !names) {
				rc = err_set("out of memory");
				break;
			}
			alloc = want;
		}
		o->ids[o->n] = sqlite3_column_int64(stmt, 0);
		if (!(o->names[o->n++] = pool_column(sel, stmt, 1)))
			rc = err_set("out of memory");
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot select runs: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	return rc;
}

static int cmp_pooled(const char *a, const char *b)
{
	return a == b ? 0 : strcmp(a ? a : "", b ? b : "");
}

/* The row's corpus name (interned), or NULL when the row is out of order. */
static char *scan_order_next(struct scan_order *o, struct selection *sel, sqlite3_stmt *stmt)
{
	int64_t corpus_id = sqlite3_column_int64(stmt, 1), seq = sqlite3_column_int64(stmt, 4);
	int64_t run_id = sqlite3_column_int64(stmt, 0);
	char *corpus = NULL, *subcorpus = pool_column(sel, stmt, 2);
	int c;
	for (size_t i = 0; !corpus && i < o->n; i++)
		if (o->ids[i] == corpus_id)
			corpus = o->names[i];
	if (!corpus || !subcorpus)
		return NULL;
	if (o->corpus) {
		c = cmp_pooled(o->corpus, corpus);
		if (c == 0)
			c = cmp_pooled(o->subcorpus, subcorpus);
		if (c == 0)
			c = o->seq < seq ? -1 : o->seq > seq;
		if (c == 0)
			c = o->run_id < run_id ? -1 : 1;
		if (c > 0)
			return NULL;
	}
	o->corpus = corpus;
	o->subcorpus = subcorpus;
	o->seq = seq;
	o->run_id = run_id;
	return corpus;
}

static void scan_order_release(struct scan_order *o)
{
	free(o->ids);
	free(o->names);
}

/* One row of the chosen runs' query (mode Q_ORDERED or Q_SCAN). */
static int chosen_row(struct selection *sel, sqlite3_stmt *stmt, const struct select_spec *spec,
		      struct scan_order *order, const struct excluded_ids *excluded, size_t *alloc,
		      struct row_scratch *scratch)
{
	char *corpus = order ? scan_order_next(order, sel, stmt) : pool_column(sel, stmt, 1);
	int rc;
	if (!corpus)
		return order ? OUT_OF_ORDER : err_set("out of memory");
	if (excluded && excluded_has(excluded, sqlite3_column_int64(stmt, 0)))
		return 0;
	rc = take_row(sel, stmt, spec, corpus, alloc, scratch);
	if (rc && order) {
		/* which run's failure is reported is the ordered query's to say */
		err_clear();
		return OUT_OF_ORDER;
	}
	return rc;
}

static int run_query(sqlite3 *db, const struct select_spec *spec, enum query_mode mode,
		     struct selection *sel)
{
	bool left_out = mode == Q_LEFT_OUT;
	/* the chosen runs of a filter that leaves excluded runs out: skipped here */
	bool skip_excluded = !left_out && !spec->filter->include_excluded &&
			     !spec->filter->only_excluded;
	struct scan_order order = {0};
	struct excluded_ids excluded = {0};
	struct strbuf sql = STRBUF_INIT;
	struct row_scratch scratch = ROW_SCRATCH_INIT;
	char **binds = NULL;
	size_t nbinds = 0, alloc = 0;
	sqlite3_stmt *stmt = NULL, *why = NULL;
	int rc = build_sql(spec, sel->prefetch, mode, &sql, &binds, &nbinds);
	int step;
	if (rc == 0 && skip_excluded)
		rc = excluded_ids_load(db, &excluded);
	if (rc == 0 && mode == Q_SCAN)
		rc = scan_order_load(db, sel, &order);
	if (rc == 0 && left_out &&
	    sqlite3_prepare_v2(db,
			       "SELECT group_concat(reason || ': ' || detail, '; ')"
			       " FROM exclusions WHERE run_id = ?1",
			       -1, &why, NULL) != SQLITE_OK)
		rc = err_set("cannot read exclusions: %s", sqlite3_errmsg(db));
	if (rc == 0 && sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot select runs: %s", sqlite3_errmsg(db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, binds, nbinds);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (left_out) {
			const char *tag = (const char *)sqlite3_column_text(stmt, 3);
			sqlite3_bind_int64(why, 1, sqlite3_column_int64(stmt, 0));
			if (sqlite3_step(why) == SQLITE_ROW)
				rc = add_left_out(sel, tag,
						  (const char *)sqlite3_column_text(why, 0), true);
			sqlite3_reset(why);
		} else {
			rc = chosen_row(sel, stmt, spec, mode == Q_SCAN ? &order : NULL,
					skip_excluded ? &excluded : NULL, &alloc, &scratch);
		}
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot select runs: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	sqlite3_finalize(why);
	free(excluded.id);
	scan_order_release(&order);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	strbuf_release(&scratch.sb);
	return rc;
}

/* No run matched: the condition that left none, and the values its field has (schema/queries.h). */
static int explain_no_match(sqlite3 *db, const struct run_filter *filter, struct selection *out)
{
	struct strbuf why = STRBUF_INIT;
	int rc = query_unmatched(db, filter, &why);
	if (rc == 0 && why.len && !(out->no_match = strbuf_detach(&why)))
		rc = err_set("out of memory");
	strbuf_release(&why);
	return rc;
}

/*
 * The chosen runs into an empty selection. A filter naming a corpus reads
 * its runs by the index (Q_ORDERED); any other reads the table (Q_SCAN),
 * which may answer OUT_OF_ORDER.
 */
static int chosen_runs(sqlite3 *db, const struct select_spec *spec, enum query_mode mode,
		       struct selection *out)
{
	int rc;
	out->nextra = count_list(spec->extra);
	rc = pool_prefetch_new(db, spec, &out->prefetch);
	return rc ? rc : run_query(db, spec, mode, out);
}

int select_runs(sqlite3 *db, const struct select_spec *spec, struct selection *out)
{
	const char *names[3] = {spec->by, spec->metric, spec->block};
	int rc = 0;
	memset(out, 0, sizeof(*out));
	rc = run_filter_check(db, spec->filter);
	for (size_t i = 0; rc == 0 && i < 3; i++)
		if (names[i])
			rc = field_check(db, names[i]);
	for (size_t i = 0; rc == 0 && spec->group && spec->group[i]; i++)
		rc = field_check(db, spec->group[i]);
	if (rc == 0)
		rc = chosen_runs(db, spec, spec->filter->corpus ? Q_ORDERED : Q_SCAN, out);
	if (rc == OUT_OF_ORDER) {
		selection_release(out);
		rc = chosen_runs(db, spec, Q_ORDERED, out);
	}
	if (rc == 0 && !spec->filter->include_excluded)
		rc = run_query(db, spec, Q_LEFT_OUT, out);
	if (rc == 0 && out->n == 0 && out->nleft_out == 0)
		rc = explain_no_match(db, spec->filter, out);
	if (rc)
		selection_release(out);
	return rc;
}

void selection_release(struct selection *sel)
{
	/* its large arrays first: freed after the runs' strings they cost a heap consolidation */
	pool_prefetch_free(sel->prefetch);
	for (size_t i = 0; i < sel->n; i++) {
		free(sel->runs[i].extra); /* its texts are in sel->strings */
	}
	free(sel->runs);
	strpool_release(&sel->strings);
	sel_left_out_free(sel->left_out, sel->nleft_out);
	free(sel->pooled);
	free(sel->no_match);
	memset(sel, 0, sizeof(*sel));
}

int select_not_number(const char *option, const char *field, const char *tag, const char *value)
{
	return err_set(
		"%s %s: run '%s' has '%.80s%s', text, not a number (a level and a metric "
		"must be numbers: choose a numeric field, or leave such runs out with --where)",
		option, field, tag ? tag : "", value ? value : "",
		value && strlen(value) > 80 ? "..." : "");
}

int selection_leave_out(struct selection *sel, const char *tag, const char *reason)
{
	return add_left_out(sel, tag, reason, false);
}

int select_no_runs(const struct selection *sel, const struct run_filter *filter)
{
	const struct sel_left_out *first;
	bool excluded = false;
	if (sel->nleft_out == 0 && sel->no_match)
		return err_set("no runs to analyse (the filter matched no run: %s)", sel->no_match);
	if (sel->nleft_out == 0)
		return err_set("no runs to analyse (the filter matched no run: check --corpus and "
			       "--where)");
	first = &sel->left_out[0];
	for (size_t i = 0; i < sel->nleft_out; i++)
		excluded |= sel->left_out[i].excluded;
	return err_set("no runs to analyse (%zu run%s matched but %s left out%s'%s': %s%s)",
		       sel->nleft_out, sel->nleft_out == 1 ? "" : "s",
		       sel->nleft_out == 1 ? "was" : "were", sel->nleft_out == 1 ? ": " : ", e.g. ",
		       first->tag, first->reason,
		       excluded && !filter->include_excluded
			       ? "; --include-excluded keeps excluded runs"
			       : "");
}
