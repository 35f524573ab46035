/* smt: see smt.h. */
#include "smt.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../schema/fields.h"
#include "pooling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a run's threads sit, from its cpuset or the spreading assumption. */
struct placement {
	bool pinned;
	size_t threads;  /* total over processes */
	size_t cores;    /* physical cores used */
	size_t per_core; /* most threads on one core */
};

static int place(const struct smt_run *r, const struct topology *t, struct placement *p)
{
	memset(p, 0, sizeof(*p));
	p->threads = (size_t)r->threads * (size_t)r->procs;
	if (r->cpuset && *r->cpuset) {
		struct cpuset_use use;
		int rc = topology_cpuset(t, r->cpuset, &use);
		if (rc) {
			err_prefix("run '%s'", r->tag);
			return rc;
		}
		p->pinned = true;
		p->cores = use.cores;
		p->per_core = use.max_threads_per_core;
		return 0;
	}
	p->cores = p->threads < t->physical_cores ? p->threads : t->physical_cores;
	p->per_core = p->cores ? (p->threads + p->cores - 1) / p->cores : 0;
	return 0;
}

typedef bool (*run_filter_fn)(const struct smt_run *r, const struct placement *p, size_t k);

/* Fill an arm with the runs the predicate accepts. */
static int gather(const struct smt_run *runs, const struct placement *places, size_t n,
		  run_filter_fn accept, size_t k, const char *label, struct smt_arm *arm)
{
	double *values = malloc((n ? n : 1) * sizeof(*values));
	size_t m = 0;
	int rc = 0;
	memset(arm, 0, sizeof(*arm));
	snprintf(arm->label, sizeof(arm->label), "%s", label);
	if (!values)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(arm->tags);
		if (!accept(&runs[i], &places[i], k))
			continue;
		values[m++] = runs[i].tput;
		snprintf(arm->tags + used, sizeof(arm->tags) - used, "%s%s", used ? "," : "",
			 runs[i].tag);
	}
	if (m > 0)
		rc = stats_summary(values, m, &arm->s);
	free(values);
	return rc;
}

static bool pinned_shared(const struct smt_run *r, const struct placement *p, size_t k)
{
	return p->pinned && r->procs == 1 && p->threads == k && p->cores * 2 == k &&
	       p->per_core == 2;
}

static bool pinned_distinct(const struct smt_run *r, const struct placement *p, size_t k)
{
	return p->pinned && r->procs == 1 && p->threads == k && p->cores == k;
}

static bool unpinned_threads(const struct smt_run *r, const struct placement *p, size_t k)
{
	return !p->pinned && r->procs == 1 && p->threads == k;
}

static bool sharded(const struct smt_run *r, const struct placement *p, size_t key)
{
	/* key packs procs * 1000 + threads */
	return !p->pinned && r->procs > 1 && (size_t)r->procs * 1000 + (size_t)r->threads == key;
}

static struct smt_figure *next_figure(struct smt_figures *out, const char *name)
{
	struct smt_figure *f;
	if (out->n == SMT_MAX_FIGURES)
		return NULL;
	f = &out->figures[out->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

/* value = num / den of the medians; bounds from the ranges' ends. */
static void ratio(struct smt_figure *f, const char *missing)
{
	if (f->num.s.n == 0 || f->den.s.n == 0) {
		snprintf(f->note, sizeof(f->note), "not measured: no runs %s",
			 f->num.s.n == 0 ? f->num.label : f->den.label);
		if (missing)
			snprintf(f->note, sizeof(f->note), "not measured: %s", missing);
		return;
	}
	f->measured = true;
	f->value = f->num.s.median / f->den.s.median;
	f->lo = f->num.s.min / f->den.s.max;
	f->hi = f->num.s.max / f->den.s.min;
}

/* The largest even k with pinned runs both shared (k/2 cores) and distinct (k cores). */
static size_t pinned_k(const struct smt_run *runs, const struct placement *pl, size_t n)
{
	size_t best = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = pl[i].threads;
		if (!pinned_shared(&runs[i], &pl[i], k) || k <= best)
			continue;
		for (size_t j = 0; j < n; j++)
			if (pinned_distinct(&runs[j], &pl[j], k))
				best = k;
	}
	return best;
}

static int pinned_figures(struct smt_figures *out, const struct smt_run *runs,
			  const struct placement *pl, size_t n, struct smt_figure **smt)
{
	size_t k = pinned_k(runs, pl, n);
	char label[96];
	struct smt_figure *f = next_figure(out, "shared_vs_distinct");
	int rc;
	*smt = NULL;
	if (!f)
		return err_set("too many figures");
	if (k == 0) {
		snprintf(
			f->note, sizeof(f->note),
			"not measured: needs pinned runs of k threads on k/2 cores and on k cores");
		f = next_figure(out, "smt_factor");
		if (f)
			snprintf(f->note, sizeof(f->note),
				 "not measured: needs pinned runs of k threads on k/2 cores");
		return 0;
	}
	snprintf(label, sizeof(label), "%zu threads pinned on %zu cores (2 per core)", k, k / 2);
	rc = gather(runs, pl, n, pinned_shared, k, label, &f->num);
	snprintf(label, sizeof(label), "%zu threads pinned on %zu distinct cores", k, k);
	if (rc == 0)
		rc = gather(runs, pl, n, pinned_distinct, k, label, &f->den);
	if (rc)
		return rc;
	ratio(f, NULL);
	snprintf(f->note, sizeof(f->note), "same thread count, only the physical cores change");
	f = next_figure(out, "smt_factor");
	if (!f)
		return err_set("too many figures");
	f->num = out->figures[out->n - 2].num;
	snprintf(label, sizeof(label), "%zu threads pinned on %zu distinct cores", k / 2, k / 2);
	rc = gather(runs, pl, n, pinned_distinct, k / 2, label, &f->den);
	if (rc == 0 && f->den.s.n == 0) {
		snprintf(label, sizeof(label),
			 "%zu threads unpinned (assumed on %zu distinct cores)", k / 2, k / 2);
		rc = gather(runs, pl, n, unpinned_threads, k / 2, label, &f->den);
		snprintf(f->note, sizeof(f->note),
			 "the denominator is unpinned: the scheduler is assumed to spread %zu "
			 "threads "
			 "over %zu distinct cores",
			 k / 2, k / 2);
	}
	if (rc)
		return rc;
	ratio(f, NULL);
	*smt = f->measured ? f : NULL;
	return 0;
}

static int step_figure(struct smt_figures *out, const struct smt_run *runs,
		       const struct placement *pl, size_t n)
{
	struct smt_figure *f = next_figure(out, "smt_step");
	char label[96];
	int rc;
	if (!f)
		return err_set("too many figures");
	if (out->logical_cpus == out->physical_cores) {
		snprintf(f->note, sizeof(f->note), "not measured: the host has no SMT");
		return 0;
	}
	snprintf(label, sizeof(label), "%zu threads unpinned (all logical CPUs)",
		 out->logical_cpus);
	rc = gather(runs, pl, n, unpinned_threads, out->logical_cpus, label, &f->num);
	snprintf(label, sizeof(label), "%zu threads unpinned (one per physical core)",
		 out->physical_cores);
	if (rc == 0)
		rc = gather(runs, pl, n, unpinned_threads, out->physical_cores, label, &f->den);
	if (rc == 0)
		ratio(f, NULL);
	if (rc == 0 && f->measured)
		snprintf(f->note, sizeof(f->note),
			 "the step from the last all-physical level to the all-thread level");
	return rc;
}

static int ceiling_and_shards(struct smt_figures *out, const struct smt_run *runs,
			      const struct placement *pl, size_t n, const struct smt_figure *smt)
{
	struct smt_figure *ceiling = next_figure(out, "ceiling");
	struct smt_arm single;
	int rc;
	if (!ceiling)
		return err_set("too many figures");
	rc = gather(runs, pl, n, unpinned_threads, 1, "1 thread, 1 process", &single);
	if (rc)
		return rc;
	if (smt) {
		ceiling->measured = true;
		ceiling->value = (double)out->physical_cores * smt->value;
		ceiling->lo = (double)out->physical_cores * smt->lo;
		ceiling->hi = (double)out->physical_cores * smt->hi;
		ceiling->num = smt->num;
		ceiling->den = smt->den;
		snprintf(ceiling->note, sizeof(ceiling->note),
			 "%zu physical cores x smt_factor, in units of one single-thread run",
			 out->physical_cores);
	} else {
		snprintf(ceiling->note, sizeof(ceiling->note), "not measured: no smt_factor");
	}
	for (size_t i = 0; i < n; i++) {
		size_t key = (size_t)runs[i].procs * 1000 + (size_t)runs[i].threads;
		struct smt_figure *f;
		char name[32], label[96];
		bool seen = false;
		if (!sharded(&runs[i], &pl[i], key))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = sharded(&runs[j], &pl[j], key);
		if (seen)
			continue;
		snprintf(name, sizeof(name), "sharded %dx%d", runs[i].procs, runs[i].threads);
		if (!(f = next_figure(out, name)))
			return err_set("too many figures");
		snprintf(label, sizeof(label), "%d processes x %d thread%s", runs[i].procs,
			 runs[i].threads, runs[i].threads == 1 ? "" : "s");
		rc = gather(runs, pl, n, sharded, key, label, &f->num);
		if (rc)
			return rc;
		f->den = single;
		ratio(f, NULL);
		if (f->measured && ceiling->measured)
			snprintf(f->note, sizeof(f->note),
				 "in units of one single-thread run: %.0f%% of the ceiling %.2f",
				 100.0 * f->value / ceiling->value, ceiling->value);
	}
	return 0;
}

int smt_compute(const struct smt_run *runs, size_t n, const struct topology *topo,
		struct smt_figures *out)
{
	struct placement *pl = calloc(n ? n : 1, sizeof(*pl));
	struct smt_figure *smt = NULL;
	int rc = pl ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	out->physical_cores = topo->physical_cores;
	out->logical_cpus = topo->n;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = place(&runs[i], topo, &pl[i]);
	if (rc == 0)
		rc = pinned_figures(out, runs, pl, n, &smt);
	if (rc == 0)
		rc = step_figure(out, runs, pl, n);
	if (rc == 0)
		rc = ceiling_and_shards(out, runs, pl, n, smt);
	free(pl);
	return rc;
}

/* ---- measuring runs from the database ---- */

static bool field_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *stmt = NULL;
	bool found = false;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM run_fields WHERE name = ?1 LIMIT 1", -1, &stmt,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		found = sqlite3_step(stmt) == SQLITE_ROW;
	}
	sqlite3_finalize(stmt);
	return found;
}

static int whole(const char *text, const char *what, const char *tag, int *out)
{
	int64_t v;
	if (!text)
		return err_set("run '%s' has no %s", tag, what);
	if (num_parse_int(text, &v) || v < 1 || v > 100000)
		return err_set("run '%s': %s '%s' is not a whole number of 1 or more", tag, what,
			       text);
	*out = (int)v;
	return 0;
}

/*
 * No silent pooling (pooling.h): the runs of one configuration (threads per
 * process, processes, CPU set) must not differ in a condition: a canonical
 * arm field or count (gogc, sessions, cfg, target, ...) that varies within
 * a configuration is refused with how to go on. A results-table column
 * that varies (an affinity table's `arm`, naming the experiment) is pooled
 * and said so (the fact pooled), not refused: such tables name their arms
 * by experiment, not by condition.
 */
static int smt_pooling(sqlite3 *db, const struct smt_request *q, struct selection *sel)
{
	const char *config[5] = {NULL};
	const char *names[3] = {q->threads ? q->threads : "threads_per_proc", q->procs, q->cpuset};
	struct select_spec spec = {.filter = q->filter, .metric = q->metric};
	struct selection grouped;
	struct pooling p;
	struct strbuf words = STRBUF_INIT;
	size_t n = 0;
	bool auto_pooled = false;
	int rc;
	for (int i = 0; i < 3; i++)
		if (field_find(names[i]) || field_exists(db, names[i]))
			config[n++] = names[i];
	/* without --threads a run's threads are threads_per_proc where it has it, else
	 * gomaxprocs (a database may hold both kinds of corpus): both are the configuration */
	if (!q->threads)
		config[n++] = "gomaxprocs";
	spec.group = config;
	memset(&grouped, 0, sizeof(grouped));
	rc = select_runs(db, &spec, &grouped);
	if (rc == 0)
		rc = pooling_load(db, &spec, &grouped, &p);
	selection_release(&grouped);
	if (rc)
		return rc;
	for (size_t i = 0; i < p.nfields; i++)
		if (!pooling_is_candidate_field(p.fields[i].name) && !p.fields[i].pooled) {
			p.fields[i].pooled = true;
			auto_pooled = true;
		}
	if (pooling_refuses(&p))
		rc = pooling_refusal(&p, "smt", NULL, NULL);
	else if (pooling_pooled(&p) &&
		 (rc = strbuf_adds(&words, auto_pooled ? "results-table columns smt pools (they "
							 "name experiments, not conditions) and "
							 "--pool fields: "
						       : "")) == 0 &&
		 pooling_describe(&p, &words) == 0 && words.buf) {
		free(sel->pooled);
		sel->pooled = strbuf_detach(&words);
	}
	if (rc > 0)
		rc = err_set("out of memory");
	strbuf_release(&words);
	pooling_release(&p);
	return rc;
}

static int to_runs(const struct selection *sel, const struct smt_request *a, struct smt_run *runs)
{
	for (size_t i = 0; i < sel->n; i++) {
		const struct sel_run *r = &sel->runs[i];
		bool fallback = !a->threads && !r->extra[0];
		int rc = whole(fallback ? r->extra[4] : r->extra[0],
			       fallback     ? "gomaxprocs"
			       : a->threads ? a->threads
					    : "threads_per_proc",
			       r->tag, &runs[i].threads);
		if (rc == 0)
			rc = r->extra[1] ? whole(r->extra[1], a->procs, r->tag, &runs[i].procs) : 0;
		if (rc)
			return rc;
		if (!r->extra[1])
			runs[i].procs = 1;
		runs[i].tag = r->tag;
		runs[i].tput = r->metric;
		runs[i].cpuset = r->extra[2] && *r->extra[2] ? r->extra[2] : NULL;
	}
	return 0;
}

/* The host named by --host, else the one every selected run names in its `topology_host` field. */
static int choose_host(const struct smt_request *a, const struct selection *sel, const char **host)
{
	*host = a->host;
	for (size_t i = 0; !*host && i < sel->n; i++)
		*host = sel->runs[i].extra[3];
	if (!*host)
		return err_usage("no topology for these runs: record it with 'coreplan topology "
				 "--from FILE --host NAME' and pass --host NAME");
	for (size_t i = 0; !a->host && i < sel->n; i++)
		if (!sel->runs[i].extra[3] || strcmp(sel->runs[i].extra[3], *host))
			return err_usage("the runs name several hosts, or some none: select one "
					 "host's runs (--corpus) or pass --host");
	return 0;
}

int smt_measure(sqlite3 *db, const struct smt_request *req, struct smt_result *m)
{
	struct smt_request query = *req;
	struct smt_run *runs = NULL;
	const char *host = NULL;
	int rc = 0;
	memset(m, 0, sizeof(*m));
	if (!query.metric)
		query.metric = "tput";
	if (!query.procs)
		query.procs = "procs";
	if (!query.cpuset)
		query.cpuset = "cpuset";
	if (query.threads && !field_find(query.threads) && !field_exists(db, query.threads))
		return err_usage("no field '%s' for the threads per process: pass --threads FIELD",
				 query.threads);
	{
		/* procs, cpuset and host may be absent from a corpus: they then read NULL */
		/* without --threads: threads_per_proc where a run has it, else gomaxprocs */
		const char *extra[] = {query.threads ? query.threads : "threads_per_proc",
				       query.procs,
				       query.cpuset,
				       "topology_host",
				       "gomaxprocs",
				       NULL};
		struct select_spec spec = {
			.filter = query.filter, .metric = query.metric, .extra = extra};
		rc = select_runs(db, &spec, &m->sel);
	}
	if (rc == 0 && m->sel.n == 0)
		rc = err_set("no runs to analyse (check --corpus and --where)");
	if (rc == 0)
		rc = smt_pooling(db, &query, &m->sel);
	if (rc == 0)
		rc = choose_host(&query, &m->sel, &host);
	if (rc == 0) {
		snprintf(m->host, sizeof(m->host), "%s", host);
		if ((rc = topology_load(db, m->host, &m->topo)) == 1)
			rc = err_set(
				"no topology for host '%s' (coreplan topology --show lists them)",
				m->host);
	}
	if (rc == 0 && !(runs = calloc(m->sel.n, sizeof(*runs))))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = to_runs(&m->sel, &query, runs);
	if (rc == 0)
		rc = smt_compute(runs, m->sel.n, &m->topo, &m->figs);
	free(runs);
	if (rc)
		smt_result_release(m);
	return rc;
}

void smt_result_release(struct smt_result *r)
{
	selection_release(&r->sel);
	topology_release(&r->topo);
	memset(r, 0, sizeof(*r));
}
