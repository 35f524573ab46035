/* size_cells: the measured runs of each catalog instance (size.h, size_internal.h). */
#include "size.h"
#include "size_internal.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "pooling.h"
#include "select.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the measured runs of each instance ---- */

/* Does any imported run have an `instance` field? (No: nothing is measured.) */
static bool runs_name_instances(sqlite3 *db)
{
	if (field_check(db, "instance") == 0)
		return true;
	err_clear();
	return false;
}

/* The common filter, the instances named, --measured-where, and session counts (a list). */
static int measured_filter(const struct size_request *req, const char *const *instances,
			   size_t ninstances, const double *sessions, size_t nsessions,
			   struct run_filter *f)
{
	char text[SIZE_MAX_SESSIONS][32];
	const char *values[SIZE_MAX_SESSIONS];
	int rc = 0;
	memset(f, 0, sizeof(*f));
	if (req->filter)
		rc = run_filter_copy(f, req->filter);
	if (rc == 0)
		rc = run_filter_add(f, "instance", instances, ninstances);
	for (size_t i = 0; i < nsessions && i < SIZE_MAX_SESSIONS; i++) {
		num_format_real(sessions[i], text[i]);
		values[i] = text[i];
	}
	if (rc == 0 && nsessions > 0)
		rc = run_filter_add(f, "sessions", values,
				    nsessions < SIZE_MAX_SESSIONS ? nsessions : SIZE_MAX_SESSIONS);
	if (rc == 0 && req->measured_where)
		rc = run_filter_add_conditions(f, req->measured_where, "--measured-where");
	return rc;
}

struct cell_run {
	double sessions;
	char *group;
	double metric;
};

static int cmp_cell_run(const void *a, const void *b)
{
	const struct cell_run *x = a, *y = b;
	if (x->sessions != y->sessions)
		return x->sessions < y->sessions ? -1 : 1;
	return strcmp(x->group, y->group);
}

static int push_cell(struct size_result *res, size_t *alloc, const struct size_cell *c)
{
	if (res->ncells == *alloc) {
		size_t want = *alloc ? 2 * *alloc : 16;
		struct size_cell *grown = realloc(res->cells, want * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		res->cells = grown;
		*alloc = want;
	}
	res->cells[res->ncells++] = *c;
	return 0;
}

/* Is `block` one of the block kinds pooling found (a block at only some session counts)? */
static bool kind_block(const struct pooling *pool, const char *block)
{
	for (size_t i = 0; i < pool->nkinds; i++)
		if (!strcmp(pool->kinds[i].block, block ? block : "NA"))
			return true;
	return false;
}

/* "cfg=pg, block=soak": the run's values of the split fields (extra[0..nsplit)) and its kind. */
static char *group_label(const struct sel_run *r, char *const *split, size_t nsplit,
			 const struct pooling *pool)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; k < nsplit; k++)
		strbuf_addf(&sb, "%s%s=%s", k ? ", " : "", split[k],
			    r->extra[k] ? r->extra[k] : "NA");
	if (kind_block(pool, r->block))
		strbuf_addf(&sb, "%s%s=%s", nsplit ? ", " : "", pool->block_field,
			    r->block ? r->block : "NA");
	return sb.buf ? strbuf_detach(&sb) : strdup("");
}

/*
 * The cells of one instance (row): its runs at the session counts asked
 * for, split as pooling.h would over all its runs (every session count,
 * so a soak or fsync block at one count is its own arm): by the fields
 * that vary among them and by block kind.
 */
static int instance_cells(sqlite3 *db, const struct size_request *req, struct size_result *res,
			  size_t row, size_t *alloc)
{
	const char *name = res->cat.items[row].instance;
	struct selection sel = {0}, split_sel = {0};
	struct pooling pool = {0};
	struct run_filter f;
	struct cell_run *runs = NULL;
	char **split = NULL;
	size_t nsplit = 0, nruns = 0;
	const struct selection *from = &sel;
	int rc = measured_filter(req, &name, 1, NULL, 0, &f);
	struct select_spec spec = {
		.filter = &f, .by = "sessions", .metric = res->metric, .block = "block"};
	if (rc == 0)
		rc = select_runs(db, &spec, &sel);
	if (rc == 0 && sel.n > 1)
		rc = pooling_load(db, &spec, &sel, &pool);
	if (rc == 0 && pool.nfields && !(split = calloc(pool.nfields + 1, sizeof(char *))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < pool.nfields; i++)
		if (!pool.fields[i].follows && !pool.fields[i].pooled)
			split[nsplit++] = pool.fields[i].name;
	if (rc == 0 && nsplit) {
		spec.extra = (const char *const *)split;
		rc = select_runs(db, &spec, &split_sel);
		from = &split_sel;
	}
	if (rc == 0 && from->n && !(runs = calloc(from->n, sizeof(*runs))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < from->n; i++) {
		const struct sel_run *r = &from->runs[i];
		if (!r->level_numeric ||
		    (res->sessions.given && !size_sessions_has(&res->sessions, r->level)))
			continue;
		runs[nruns].sessions = r->level;
		runs[nruns].metric = r->metric;
		if (!(runs[nruns++].group = group_label(r, split, nsplit, &pool)))
			rc = err_set("out of memory");
	}
	if (rc == 0)
		qsort(runs, nruns, sizeof(*runs), cmp_cell_run);
	for (size_t i = 0, j; rc == 0 && i < nruns; i = j) {
		struct size_cell c = {.row = row, .sessions = runs[i].sessions};
		double *v;
		for (j = i; j < nruns && !cmp_cell_run(&runs[i], &runs[j]); j++)
			;
		if (!(v = malloc((j - i) * sizeof(double)))) {
			rc = err_set("out of memory");
			break;
		}
		for (size_t k = i; k < j; k++)
			v[k - i] = runs[k].metric;
		c.n = j - i;
		c.at_target = size_sessions_has(&res->sessions, c.sessions);
		rc = stats_summary_abs(v, c.n, &c.s);
		free(v);
		if (rc == 0 && !(c.group = strdup(runs[i].group)))
			rc = err_set("out of memory");
		if (rc == 0 && (rc = push_cell(res, alloc, &c)) != 0)
			free(c.group);
	}
	/* a listed session count this instance has no run at */
	for (size_t k = 0; rc == 0 && nruns && !res->sessions.range && k < res->sessions.n; k++) {
		bool found = false;
		struct size_cell c = {
			.row = row, .sessions = res->sessions.counts[k], .at_target = true};
		for (size_t i = 0; i < nruns && !found; i++)
			found = runs[i].sessions == c.sessions;
		if (found)
			continue;
		if (!(c.group = strdup("")))
			rc = err_set("out of memory");
		if (rc == 0 && (rc = push_cell(res, alloc, &c)) != 0)
			free(c.group);
	}
	for (size_t i = 0; runs && i < nruns; i++)
		free(runs[i].group);
	free(runs);
	free(split);
	pooling_release(&pool);
	selection_release(&split_sel);
	selection_release(&sel);
	run_filter_release(&f);
	return rc;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct size_cell *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->sessions != y->sessions)
		return x->sessions < y->sessions ? -1 : 1;
	return strcmp(x->group, y->group);
}

/* Every catalog instance's measured cells (none when no run names an instance). */
int size_read_cells(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"instance", NULL};
	const struct size_sessions *s = &res->sessions;
	const char **names = NULL;
	struct selection sel = {0};
	struct run_filter f = {0};
	bool *has = NULL;
	size_t alloc = 0;
	int rc = 0;
	if (res->cat.n == 0 || !runs_name_instances(db))
		return 0;
	if (!(names = malloc(res->cat.n * sizeof(char *))) ||
	    !(has = calloc(res->cat.n, sizeof(bool))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < res->cat.n; i++)
		names[i] = res->cat.items[i].instance;
	if (rc == 0)
		rc = measured_filter(req, names, res->cat.n, s->range ? NULL : s->counts,
				     s->range ? 0 : s->n, &f);
	if (rc == 0) {
		struct select_spec spec = {
			.filter = &f, .by = "sessions", .metric = res->metric, .extra = extra};
		rc = select_runs(db, &spec, &sel);
	}
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const struct sel_run *r = &sel.runs[i];
		if (!r->extra[0] || !r->level_numeric ||
		    (s->given && !size_sessions_has(s, r->level)))
			continue;
		for (size_t k = 0; k < res->cat.n; k++)
			if (!strcmp(res->cat.items[k].instance, r->extra[0]))
				has[k] = true;
	}
	for (size_t k = 0; rc == 0 && k < res->cat.n; k++)
		if (has[k])
			rc = instance_cells(db, req, res, k, &alloc);
	if (rc == 0 && res->ncells)
		qsort(res->cells, res->ncells, sizeof(*res->cells), cmp_cell);
	free(names);
	free(has);
	selection_release(&sel);
	run_filter_release(&f);
	return rc;
}
