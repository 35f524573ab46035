/*
 * size_cells: the measured runs of each catalog instance, and which of them
 * count as its capacity (size.h: "Whole-instance cells"; size_internal.h).
 */
#include "size.h"
#include "size_internal.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "pooling.h"
#include "select.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The common filter, the instances named, --measured-where, and session counts (a list). */
static int measured_filter(const struct size_request *req, const char *const *instances,
			   size_t ninstances, struct run_filter *f)
{
	int rc = size_input_filter(req, NULL, NULL, f);
	if (rc == 0)
		rc = run_filter_add(f, "instance", instances, ninstances);
	if (rc == 0 && req->measured_where)
		rc = run_filter_add_conditions(f, req->measured_where, "--measured-where");
	return rc;
}

/* ---- what a cell's runs record ---- */

/*
 * The fields read beside the split ones, in this order in each run's extra
 * (a field no run of the database has is not asked for: NULL).
 */
enum fixed { FX_WORKERS, FX_PROCS, FX_THREADS, FX_CPUSET, FX_STORE, FX_PLATFORM, NFIXED };

struct cell_run {
	double sessions;
	char *group;
	double metric;
	const char *fixed[NFIXED]; /* NULL: not recorded */
	bool kind;                 /* its block is an arm of its own (pooling's block kind) */
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
	if (GROW(res->cells, *alloc, res->ncells + 1) != 0)
		return err_set("out of memory");
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

/* CPUs in a cpuset ("0,4,1,5", "0-3"); 0 when it is no CPU list. */
static size_t cpuset_cpus(const char *set)
{
	size_t n = 0;
	for (const char *p = set; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0)
			return 0;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return 0;
		}
		n += (size_t)(b - a + 1);
		if (*end != ',' && *end != '\0')
			return 0;
		p = *end ? end + 1 : end;
	}
	return n;
}

/* The value all the runs share for fixed field k, or NULL (*mixed: they differ). */
static const char *common_value(const struct cell_run *runs, size_t n, enum fixed k, bool *mixed)
{
	const char *v = runs[0].fixed[k];
	*mixed = false;
	for (size_t i = 1; i < n; i++)
		if (!v != !runs[i].fixed[k] || (v && strcmp(v, runs[i].fixed[k])))
			*mixed = true;
	return *mixed ? NULL : v;
}

/* ---- the target's configuration ---- */

/*
 * A configuration field's value the target is taken to have: the one the
 * model's own runs share (--scaling-from's, else --base-from's), or NULL.
 */
struct config_value {
	char *field;
	char *value;      /* NULL: the model's runs hold none, or several */
	const char *from; /* "--scaling-from", "--base-from" */
};

struct config_cache {
	struct config_value *v;
	size_t n;
};

static void config_cache_release(struct config_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].field);
		free(c->v[i].value);
	}
	free(c->v);
}

/* The value the runs of `where` share for `field`, or NULL (into *out, owned). */
int size_shared_value(sqlite3 *db, const struct size_request *req, const char *where,
		      const char *option, const char *field, char **out)
{
	const char *const extra[] = {field, NULL};
	struct selection sel = {0};
	struct run_filter f;
	int rc = size_input_filter(req, where, option, &f);
	*out = NULL;
	if (rc == 0) {
		struct select_spec spec = {.filter = &f, .extra = extra};
		rc = select_runs(db, &spec, &sel);
	}
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const char *v = sel.runs[i].extra[0];
		if (!v || (i > 0 && strcmp(v, sel.runs[0].extra[0]))) {
			sel.n = 0; /* not one value: none */
			break;
		}
	}
	if (rc == 0 && sel.n > 0 && !(*out = strdup(sel.runs[0].extra[0])))
		rc = err_set("out of memory");
	selection_release(&sel);
	run_filter_release(&f);
	return rc;
}

static int config_target(sqlite3 *db, const struct size_request *req, struct config_cache *c,
			 const char *field, const struct config_value **out)
{
	struct config_value *grown, *v;
	int rc = 0;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].field, field)) {
			*out = &c->v[i];
			return 0;
		}
	if (!(grown = realloc(c->v, (c->n + 1) * sizeof(*grown))))
		return err_set("out of memory");
	c->v = grown;
	v = &c->v[c->n];
	memset(v, 0, sizeof(*v));
	if (!(v->field = strdup(field)))
		return err_set("out of memory");
	c->n++;
	if (req->scaling_from) {
		v->from = "--scaling-from";
		rc = size_shared_value(db, req, req->scaling_from, v->from, field, &v->value);
	}
	if (rc == 0 && !v->value && req->base_from) {
		v->from = "--base-from";
		rc = size_shared_value(db, req, req->base_from, v->from, field, &v->value);
	}
	*out = v;
	return rc;
}

/* ---- eligibility ---- */

/* What one instance's cells are judged against. */
struct eligibility {
	sqlite3 *db;
	const struct size_request *req;
	const struct size_result *res;
	const struct instance *inst;
	const struct pooling *pool;
	char *const *split; /* the split fields (the cells' group) */
	size_t nsplit;
	const char *workers_field;
	struct config_cache *config;
};

/* Is split field `name` the store, or a field the store follows or that follows it? */
static bool store_linked(const struct pooling *pool, const char *name)
{
	if (!strcmp(name, "store"))
		return true;
	for (size_t i = 0; i < pool->nfields; i++) {
		const struct pool_field *f = &pool->fields[i];
		if (f->follows && ((!strcmp(f->name, "store") && strstr(f->follows, name)) ||
				   (!strcmp(f->name, name) && strstr(f->follows, "store"))))
			return true;
	}
	return false;
}

static void reason(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reason(struct strbuf *sb, const char *fmt, ...)
{
	char text[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	strbuf_addf(sb, "%s%s", sb->len ? "; " : "", text);
}

/* The worker level and pinning: did the runs use every vCPU of the instance? */
static void check_whole(const struct eligibility *e, const struct cell_run *runs, size_t n,
			struct size_cell *c, struct strbuf *why)
{
	bool mixed;
	const char *workers = common_value(runs, n, FX_WORKERS, &mixed), *procs, *cpuset;
	double w = NAN, p = 1;
	int vcpus = e->inst->vcpus;
	if (mixed) {
		reason(why, "its runs differ in %s", e->workers_field);
		return;
	}
	if (!workers)
		workers = common_value(runs, n, FX_THREADS, &mixed);
	procs = common_value(runs, n, FX_PROCS, &mixed);
	if (workers && num_parse_real(workers, &w) != 0)
		w = NAN;
	if (procs && (num_parse_real(procs, &p) != 0 || !(p >= 1)))
		p = 1;
	c->workers = isnan(w) ? NAN : w * p;
	if (!isnan(c->workers) && c->workers < vcpus)
		reason(why, "%s %s%s: %g of its %d vCPUs", e->workers_field, workers,
		       p > 1 ? " per process" : "", c->workers, vcpus);
	cpuset = common_value(runs, n, FX_CPUSET, &mixed);
	c->cpus = cpuset ? cpuset_cpus(cpuset) : 0;
	if (mixed)
		reason(why, "its runs were pinned to different CPU sets");
	else if (c->cpus > 0 && c->cpus < (size_t)vcpus)
		reason(why, "pinned to %zu of its %d vCPUs (cpuset %s)", c->cpus, vcpus, cpuset);
}

/* The store and platform against the target's; a record missing is an assumption. */
static void check_condition(const struct cell_run *runs, size_t n, enum fixed k, const char *what,
			    const char *target, enum size_basis basis, char **value,
			    struct strbuf *why, struct strbuf *assumed)
{
	bool mixed;
	const char *v = common_value(runs, n, k, &mixed);
	if (mixed) {
		reason(why, "its runs differ in %s", what);
		return;
	}
	if (v && !(*value = strdup(v)))
		return; /* out of memory: the caller's strbuf_error catches the rest */
	if (!v && target[0])
		reason(assumed, "%s not recorded: taken as the target's (%s)", what, target);
	else if (!v)
		reason(assumed, "%s not recorded", what);
	else if (!target[0])
		reason(assumed, "the target's %s is not known: taken as this cell's (%s)", what, v);
	else if (strcmp(v, target))
		reason(why, "%s %s, the target's %s (%s%s)", what, v, target,
		       size_basis_name(basis), basis == SIZE_ASSUMED ? ": the base runs'" : "");
}

/* The other fields the instance's runs vary in: each must be the target's. */
static int check_config(const struct eligibility *e, const struct sel_run *first,
			struct strbuf *why)
{
	for (size_t k = 0; k < e->nsplit; k++) {
		const char *field = e->split[k], *v = first->extra[k] ? first->extra[k] : "NA";
		const struct config_value *t = NULL;
		const struct pool_field *pf = NULL;
		int rc;
		/* the fields the whole-instance rule reads are not a configuration */
		if (!strcmp(field, e->workers_field) || !strcmp(field, "cpuset") ||
		    !strcmp(field, "procs") || !strcmp(field, "threads_per_proc") ||
		    !strcmp(field, "cpu_model") || store_linked(e->pool, field))
			continue;
		rc = config_target(e->db, e->req, e->config, field, &t);
		if (rc)
			return rc;
		for (size_t i = 0; i < e->pool->nfields && !pf; i++)
			if (!strcmp(e->pool->fields[i].name, field))
				pf = &e->pool->fields[i];
		if (!t->value) {
			struct strbuf values = STRBUF_INIT;
			for (size_t i = 0; pf && i < pf->nvalues; i++)
				strbuf_addf(&values, "%s%s", i ? ", " : "", pf->values[i]);
			reason(why,
			       "%s varies among its runs (%s) and the target names none: give "
			       "--measured-where %s=V",
			       field, values.buf ? strbuf_str(&values) : v, field);
			strbuf_release(&values);
		} else if (strcmp(v, t->value)) {
			reason(why, "%s %s, the target's %s (the %s runs')", field, v, t->value,
			       t->from);
		}
	}
	return 0;
}

/* Every rule for one cell: why_not (NULL when eligible) and what was assumed. */
static int judge_eligible(const struct eligibility *e, const struct cell_run *runs, size_t n,
			  const struct sel_run *first, struct size_cell *c)
{
	const struct size_inputs *in = &e->res->in;
	struct strbuf why = STRBUF_INIT, assumed = STRBUF_INIT;
	int rc = 0;
	c->workers = NAN;
	check_whole(e, runs, n, c, &why);
	check_condition(runs, n, FX_STORE, "store", in->store, in->store_basis, &c->store, &why,
			&assumed);
	if (!strcmp(e->inst->cpu_family, in->base_family))
		check_condition(runs, n, FX_PLATFORM, "platform", in->platform, in->platform_basis,
				&c->platform, &why, &assumed);
	rc = check_config(e, first, &why);
	if (runs[0].kind)
		reason(&why,
		       "block %s holds only some of its session counts: an arm of its own (a "
		       "soak, a trace or contrast arm), not a replicate; --measured-where "
		       "block=%s takes it",
		       first->block ? first->block : "NA", first->block ? first->block : "NA");
	if (e->res->sessions.given && !c->at_target)
		reason(&why, "%g sessions: not asked (%s)", c->sessions, e->res->sessions.text);
	c->eligible = rc == 0 && why.len == 0;
	if (rc == 0 && why.len && !(c->why_not = strbuf_detach(&why)))
		rc = err_set("out of memory");
	if (rc == 0 && assumed.len && !(c->assumed = strbuf_detach(&assumed)))
		rc = err_set("out of memory");
	strbuf_release(&why);
	strbuf_release(&assumed);
	return rc;
}

/* ---- one instance's cells ---- */

/*
 * The fixed fields that some run of the database has, appended to extra
 * (from extra[*n] on); at[k] is field k's index in extra, or -1.
 */
static void fixed_fields(sqlite3 *db, const char *workers, const char **extra, size_t *n,
			 int at[NFIXED])
{
	static const char *const fixed[NFIXED] = {[FX_PROCS] = "procs",
						  [FX_THREADS] = "threads_per_proc",
						  [FX_CPUSET] = "cpuset",
						  [FX_STORE] = "store",
						  [FX_PLATFORM] = "cpu_model"};
	for (int k = 0; k < NFIXED; k++) {
		const char *name = k == FX_WORKERS ? workers : fixed[k];
		at[k] = -1;
		if (size_field_exists(db, name)) {
			at[k] = (int)*n;
			extra[(*n)++] = name;
		}
	}
}

/* The cells of runs[0..nruns) (sorted), each judged for eligibility. */
static int make_cells(const struct eligibility *e, struct cell_run *runs, size_t nruns,
		      const struct sel_run *const *firsts, size_t row, struct size_result *res,
		      size_t *alloc)
{
	int rc = 0;
	for (size_t i = 0, j; rc == 0 && i < nruns; i = j) {
		struct size_cell c = {.row = row, .sessions = runs[i].sessions};
		double *v;
		for (j = i; j < nruns && !cmp_cell_run(&runs[i], &runs[j]); j++)
			;
		if (!(v = malloc((j - i) * sizeof(double))))
			return err_set("out of memory");
		for (size_t k = i; k < j; k++)
			v[k - i] = runs[k].metric;
		c.n = j - i;
		c.at_target = size_sessions_has(&res->sessions, c.sessions);
		rc = stats_summary_abs(v, c.n, &c.s);
		free(v);
		if (rc == 0 && !(c.group = strdup(runs[i].group)))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = judge_eligible(e, &runs[i], c.n, firsts[i], &c);
		if (rc == 0)
			rc = push_cell(res, alloc, &c);
		if (rc)
			size_cell_release(&c);
	}
	return rc;
}

/* A listed session count this instance has no run at: a cell of none, which decides nothing. */
static int missing_counts(const struct cell_run *runs, size_t nruns, size_t row,
			  struct size_result *res, size_t *alloc)
{
	int rc = 0;
	for (size_t k = 0; rc == 0 && nruns && !res->sessions.range && k < res->sessions.n; k++) {
		bool found = false;
		struct size_cell c = {.row = row,
				      .sessions = res->sessions.counts[k],
				      .at_target = true,
				      .workers = NAN};
		for (size_t i = 0; i < nruns && !found; i++)
			found = runs[i].sessions == c.sessions;
		if (found)
			continue;
		if (!(c.group = strdup("")) || !(c.why_not = strdup("no run at this count")))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = push_cell(res, alloc, &c);
		if (rc)
			size_cell_release(&c);
	}
	return rc;
}

/* The order runs[] is sorted into, so each cell's first run can be found. */
struct run_ref {
	struct cell_run run;
	const struct sel_run *sel;
};

static int cmp_run_ref(const void *a, const void *b)
{
	return cmp_cell_run(&((const struct run_ref *)a)->run, &((const struct run_ref *)b)->run);
}

/*
 * The cells of one instance (row): its runs at every session count, split
 * as pooling.h would over all of them (so a soak or fsync block at one count
 * is its own arm): by the fields that vary among them and by block kind;
 * each judged for eligibility.
 */
static int instance_cells(sqlite3 *db, const struct size_request *req, struct size_result *res,
			  size_t row, struct config_cache *config, size_t *alloc)
{
	const char *name = res->cat.items[row].instance;
	const char *workers = req->scaling_by ? req->scaling_by : "gomaxprocs";
	const char **extra = NULL;
	int at[NFIXED];
	struct selection sel = {0}, split_sel = {0};
	struct pooling pool = {0};
	struct run_filter f;
	struct run_ref *refs = NULL;
	struct cell_run *runs = NULL;
	const struct sel_run **firsts = NULL;
	char **split = NULL;
	size_t nsplit = 0, nruns = 0, nextra = 0;
	int rc = measured_filter(req, &name, 1, &f);
	struct select_spec spec = {
		.filter = &f, .by = "sessions", .metric = res->metric, .block = "block"};
	if (rc == 0)
		rc = select_runs(db, &spec, &sel);
	if (rc == 0 && sel.n > 1)
		rc = pooling_load(db, &spec, &sel, &pool);
	if (rc == 0 && !(split = calloc(pool.nfields + 1, sizeof(char *))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < pool.nfields; i++)
		if (!pool.fields[i].follows && !pool.fields[i].pooled)
			split[nsplit++] = pool.fields[i].name;
	if (rc == 0 && !(extra = calloc(nsplit + NFIXED + 1, sizeof(char *))))
		rc = err_set("out of memory");
	for (size_t k = 0; rc == 0 && k < nsplit; k++)
		extra[nextra++] = split[k];
	if (rc == 0)
		fixed_fields(db, workers, extra, &nextra, at);
	if (rc == 0) {
		spec.extra = extra;
		rc = select_runs(db, &spec, &split_sel);
	}
	if (rc == 0 && split_sel.n && !(refs = calloc(split_sel.n, sizeof(*refs))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < split_sel.n; i++) {
		const struct sel_run *r = &split_sel.runs[i];
		struct cell_run *cr = &refs[nruns].run;
		if (!r->level_numeric)
			continue;
		for (int k = 0; k < NFIXED; k++)
			cr->fixed[k] = at[k] >= 0 ? r->extra[at[k]] : NULL;
		cr->sessions = r->level;
		cr->metric = r->metric;
		cr->kind = kind_block(&pool, r->block);
		refs[nruns].sel = r;
		if (!(cr->group = group_label(r, split, nsplit, &pool)))
			rc = err_set("out of memory");
		nruns++;
	}
	if (rc == 0 && nruns)
		qsort(refs, nruns, sizeof(*refs), cmp_run_ref);
	if (rc == 0 && nruns &&
	    (!(runs = calloc(nruns, sizeof(*runs))) || !(firsts = calloc(nruns, sizeof(*firsts)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nruns; i++) {
		runs[i] = refs[i].run;
		firsts[i] = refs[i].sel;
	}
	if (rc == 0) {
		struct eligibility e = {db,     req,     res,   &res->cat.items[row], &pool, split,
					nsplit, workers, config};
		rc = make_cells(&e, runs, nruns, firsts, row, res, alloc);
	}
	if (rc == 0)
		rc = missing_counts(runs, nruns, row, res, alloc);
	for (size_t i = 0; refs && i < nruns; i++)
		free(refs[i].run.group);
	free(refs);
	free(runs);
	free(firsts);
	free(extra);
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

void size_cell_release(struct size_cell *c)
{
	free(c->group);
	free(c->platform);
	free(c->store);
	free(c->why_not);
	free(c->assumed);
	c->group = c->platform = c->store = c->why_not = c->assumed = NULL;
}

/* Every catalog instance's measured cells (none when no run names an instance). */
int size_read_cells(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"instance", NULL};
	const char **names = NULL;
	struct selection sel = {0};
	struct run_filter f = {0};
	struct config_cache config = {0};
	bool *has = NULL;
	size_t alloc = 0;
	int rc = 0;
	if (res->cat.n == 0 || !size_field_exists(db, "instance"))
		return 0;
	if (!(names = malloc(res->cat.n * sizeof(char *))) ||
	    !(has = calloc(res->cat.n, sizeof(bool))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < res->cat.n; i++)
		names[i] = res->cat.items[i].instance;
	if (rc == 0)
		rc = measured_filter(req, names, res->cat.n, &f);
	if (rc == 0) {
		struct select_spec spec = {
			.filter = &f, .by = "sessions", .metric = res->metric, .extra = extra};
		rc = select_runs(db, &spec, &sel);
	}
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const struct sel_run *r = &sel.runs[i];
		if (!r->extra[0] || !r->level_numeric)
			continue;
		for (size_t k = 0; k < res->cat.n; k++)
			if (!strcmp(res->cat.items[k].instance, r->extra[0]))
				has[k] = true;
	}
	for (size_t k = 0; rc == 0 && k < res->cat.n; k++)
		if (has[k])
			rc = instance_cells(db, req, res, k, &config, &alloc);
	if (rc == 0 && res->ncells)
		qsort(res->cells, res->ncells, sizeof(*res->cells), cmp_cell);
	config_cache_release(&config);
	free(names);
	free(has);
	selection_release(&sel);
	run_filter_release(&f);
	return rc;
}
