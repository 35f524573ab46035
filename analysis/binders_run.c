/*
 * binders_run: the runs of `coreplan binders` read from the database
 * (binders.h): each run's fields, its trace's plateau figures and its
 * host's CPUs, then binders_compute().
 */
#include "binders.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../schema/topology.h"
#include "pooling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fields each run is read with (select_spec.extra), in this order. */
enum {
	X_LATENCY,
	X_P50,
	X_P95,
	X_P99,
	X_MAX,
	X_ERR,
	X_SESSIONS,
	X_ESTABLISHED,
	X_THINK,
	X_GEN_CPU,
	X_GEN_SAT,
	X_BACKENDS,
	X_MAX_CONN,
	X_PG_CORES,
	X_BUSY,
	X_AVAIL,
	X_RSS,
	X_PG_RSS,
	X_GOMAXPROCS,
	X_HOST,
	X_TICK,
	X_NPROC,
	X_CLK,
	X_COUNT
};

static double number(const struct sel_run *r, size_t k)
{
	double v;
	if (!r->extra || !r->extra[k] || num_parse_real(r->extra[k], &v) != 0)
		return NAN;
	return v;
}

/* One host's CPUs, looked up once. */
struct host_cpus {
	char *name;
	bool known;
	double logical, physical;
};

struct hosts {
	struct host_cpus *items;
	size_t n;
};

static int host_of(sqlite3 *db, struct hosts *h, const char *name, const struct host_cpus **out)
{
	struct host_cpus *grown, *x;
	struct topology t;
	*out = NULL;
	if (!name)
		return 0;
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->items[i].name, name)) {
			*out = &h->items[i];
			return 0;
		}
	grown = realloc(h->items, (h->n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	h->items = grown;
	x = &grown[h->n];
	memset(x, 0, sizeof(*x));
	if (!(x->name = strdup(name)))
		return err_set("out of memory");
	h->n++;
	memset(&t, 0, sizeof(t));
	if (topology_load(db, name, &t) == 0 && t.n > 0) {
		x->known = true;
		x->logical = (double)t.n;
		x->physical = (double)t.physical_cores;
	} else {
		err_clear(); /* a host name with no topology: its CPUs are unknown */
	}
	topology_release(&t);
	*out = x;
	return 0;
}

static void hosts_release(struct hosts *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->items[i].name);
	free(h->items);
}

static bool flag(const char *text, bool *value)
{
	return text && num_parse_bool(text, value) == 0;
}

/* The CPU resources from the trace (ok) or the run's fields. */
static void cpu_of(const struct sel_run *s, const struct run_cores *c, struct binder_run *r)
{
	double owed;
	if (c->ok) {
		r->from_trace = true;
		r->driver_app_cores = s->app_cores;
		r->use[BINDER_APP_CPU] = c->cpu.app_cores_wall;
		r->use[BINDER_HOST_CPU] = c->cpu.machine_busy_cores;
		r->use[BINDER_PG_CPU] = c->cpu.pg_cores;
		r->cpu_checked = true;
		r->cpu_trusted = c->cpu.tick_ok;
		return;
	}
	r->use[BINDER_APP_CPU] = s->app_cores;
	r->use[BINDER_HOST_CPU] = number(s, X_BUSY);
	r->use[BINDER_PG_CPU] = number(s, X_PG_CORES);
	owed = number(s, X_NPROC) * number(s, X_CLK);
	r->cpu_trusted = true;
	if (isfinite(number(s, X_TICK)) && owed > 0) {
		r->cpu_checked = true;
		r->cpu_trusted = number(s, X_TICK) / owed >= WINDOW_TICK_MIN;
	}
}

static void memory_of(const struct sel_run *s, const struct run_cores *c, struct binder_run *r)
{
	/* the corpus's own loaded RSS first (its median convention), else the plateau's */
	double rss = isfinite(number(s, X_RSS)) ? number(s, X_RSS)
		     : c->ok                    ? c->cpu.rss_median_kb
						: NAN;
	double avail = c->ok ? c->cpu.mem_avail_min_kb : number(s, X_AVAIL);
	double pg = number(s, X_PG_RSS);
	if (!isfinite(avail))
		avail = number(s, X_AVAIL);
	r->app_rss_kb = rss;
	r->avail_kb = avail;
	if (!isfinite(rss))
		return;
	if (isfinite(pg) && pg > 0)
		rss += pg;
	r->use[BINDER_MEMORY] = rss;
	if (isfinite(avail) && avail >= 0)
		r->cap[BINDER_MEMORY] = rss + avail;
}

/* Capacities from the host (or nproc) and the run's settings. */
static void caps_of(const struct sel_run *s, const struct host_cpus *h, struct binder_run *r)
{
	double vcpus = h && h->known ? h->logical : number(s, X_NPROC);
	double gmp = number(s, X_GOMAXPROCS);
	double maxc = number(s, X_MAX_CONN);
	r->physical_cores = h && h->known ? h->physical : NAN;
	if (vcpus > 0) {
		r->cap[BINDER_APP_CPU] = gmp > 0 && gmp < vcpus ? gmp : vcpus;
		r->cap[BINDER_HOST_CPU] = vcpus;
		r->cap[BINDER_PG_CPU] = vcpus;
	}
	r->use[BINDER_CONNECTIONS] = number(s, X_BACKENDS);
	if (maxc > 0 && isfinite(r->use[BINDER_CONNECTIONS]))
		r->cap[BINDER_CONNECTIONS] = maxc;
	else
		r->use[BINDER_CONNECTIONS] = NAN;
	r->use[BINDER_GENERATOR] = number(s, X_GEN_CPU);
	if (isfinite(r->use[BINDER_GENERATOR]))
		r->cap[BINDER_GENERATOR] = 100.0;
	r->gen_flag_known = flag(s->extra[X_GEN_SAT], &r->gen_saturated);
}

static int fill(sqlite3 *db, const struct binders_request *req, const struct sel_run *s,
		struct hosts *hosts, struct binder_run *r, bool *any_trace)
{
	const struct host_cpus *h = NULL;
	struct run_cores c;
	double est = number(s, X_ESTABLISHED), think;
	int rc;
	for (int k = 0; k < BINDER_NRES; k++)
		r->use[k] = r->cap[k] = NAN;
	r->app_rss_kb = r->avail_kb = r->driver_app_cores = NAN;
	r->tag = s->tag;
	r->group = s->group ? s->group : "";
	r->level = s->level;
	r->tput = s->metric;
	r->latency = number(s, X_LATENCY);
	r->p50 = number(s, X_P50);
	r->p95 = number(s, X_P95);
	r->p99 = number(s, X_P99);
	r->max_ms = number(s, X_MAX);
	r->err = number(s, X_ERR);
	r->sessions = est > 0 ? est : number(s, X_SESSIONS);
	r->think_s = s->extra[X_THINK] && num_parse_go_duration(s->extra[X_THINK], &think) == 0
			     ? think
			     : NAN;
	rc = cores_compute(db, s->run_id, s->app_cores, &req->cores, &c);
	if (rc)
		return rc;
	*any_trace |= c.ok;
	cpu_of(s, &c, r);
	memory_of(s, &c, r);
	rc = host_of(db, hosts, req->host ? req->host : s->extra[X_HOST], &h);
	if (rc == 0)
		caps_of(s, h, r);
	return rc;
}

int binders_run(sqlite3 *db, const struct binders_request *req, struct binders_result *out)
{
	const char *extra[X_COUNT + 1] = {
		[X_LATENCY] = req->latency ? req->latency : "p50_ms",
		[X_P50] = "p50_ms",
		[X_P95] = "p95_ms",
		[X_P99] = "p99_ms",
		[X_MAX] = "max_ms",
		[X_ERR] = "err",
		[X_SESSIONS] = "sessions",
		[X_ESTABLISHED] = "established",
		[X_THINK] = "think_time",
		[X_GEN_CPU] = "gen_cpu_pct",
		[X_GEN_SAT] = "gen_saturated",
		[X_BACKENDS] = "backends_max",
		[X_MAX_CONN] = "max_connections",
		[X_PG_CORES] = "pg_cores",
		[X_BUSY] = "machine_busy_cores",
		[X_AVAIL] = "mem_avail_min_kb",
		[X_RSS] = "load_rss_kb",
		[X_PG_RSS] = "load_pg_rss_kb",
		[X_GOMAXPROCS] = "gomaxprocs",
		[X_HOST] = "topology_host",
		[X_TICK] = "stat_tick_hz",
		[X_NPROC] = "nproc",
		[X_CLK] = "clk_tck",
		[X_COUNT] = NULL,
	};
	const char *metric = req->metric ? req->metric : "tput";
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by ? req->by : "sessions",
				   .numeric_by = true,
				   .metric = metric,
				   .block = "block",
				   .group = req->group,
				   .extra = extra};
	struct hosts hosts = {0};
	struct metric_meaning m;
	struct binders_options opts = req->opts;
	int rc;
	memset(out, 0, sizeof(*out));
	if (req->latency && (rc = field_check(db, req->latency)) != 0)
		return rc;
	if (req->host && (rc = topology_require(db, req->host, "--host")) != 0)
		return rc;
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "binders", "--group");
	if (rc == 0 && !(out->runs = calloc(out->sel.n, sizeof(*out->runs))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < out->sel.n; i++)
		rc = fill(db, req, &out->sel.runs[i], &hosts, &out->runs[i], &out->any_trace);
	field_metric_meaning(metric, NULL, false, &m);
	opts.lower_is_better = m.lower_is_better;
	opts.kind = m.kind;
	if (rc == 0)
		rc = binders_compute(out->runs, out->sel.n, &opts, &out->b);
	hosts_release(&hosts);
	if (rc)
		binders_result_release(out);
	return rc;
}

void binders_result_release(struct binders_result *r)
{
	binders_release(&r->b);
	free(r->runs);
	selection_release(&r->sel);
	memset(r, 0, sizeof(*r));
}
