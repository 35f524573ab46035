/* plot_runs: see plot_runs.h. */
#include "plot_runs.h"

#include "pooling.h"

#include "../common/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- min/max per bucket ---- */

int plot_reduce_init(struct plot_reduce *r, size_t n, size_t max_points)
{
	size_t cap;
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->max_points = max_points < 2 ? 2 : max_points;
	r->buckets = n > r->max_points ? r->max_points / 2 : 0;
	r->bucket = SIZE_MAX;
	cap = n < r->max_points ? n : r->max_points;
	r->x = malloc((cap ? cap : 1) * sizeof(*r->x));
	r->y = malloc((cap ? cap : 1) * sizeof(*r->y));
	if (!r->x || !r->y) {
		plot_reduce_release(r);
		return err_set("out of memory");
	}
	return 0;
}

static void keep(struct plot_reduce *r, double x, double y)
{
	size_t cap = r->n < r->max_points ? r->n : r->max_points;
	if (r->out_points < cap) {
		r->x[r->out_points] = x;
		r->y[r->out_points++] = y;
	}
}

/* The bucket's lowest and highest points, in position order. */
static void flush_bucket(struct plot_reduce *r)
{
	if (!r->has_min)
		return;
	if (r->min_pos == r->max_pos) {
		keep(r, r->min_x, r->min_y);
	} else if (r->min_pos < r->max_pos) {
		keep(r, r->min_x, r->min_y);
		keep(r, r->max_x, r->max_y);
	} else {
		keep(r, r->max_x, r->max_y);
		keep(r, r->min_x, r->min_y);
	}
	r->has_min = false;
}

void plot_reduce_add(struct plot_reduce *r, size_t pos, double x, double y)
{
	size_t b;
	if (isnan(x) || isnan(y))
		return;
	r->in_points++;
	if (r->buckets == 0) {
		keep(r, x, y);
		return;
	}
	b = pos < r->n ? (size_t)((uint64_t)pos * r->buckets / r->n) : r->buckets - 1;
	if (b != r->bucket) {
		flush_bucket(r);
		r->bucket = b;
	}
	if (!r->has_min || y < r->min_y) {
		r->min_pos = pos;
		r->min_x = x;
		r->min_y = y;
	}
	if (!r->has_min || y > r->max_y) {
		r->max_pos = pos;
		r->max_x = x;
		r->max_y = y;
	}
	r->has_min = true;
}

void plot_reduce_finish(struct plot_reduce *r)
{
	flush_bucket(r);
}

bool plot_reduce_reduced(const struct plot_reduce *r)
{
	return r->in_points > r->out_points;
}

void plot_reduce_release(struct plot_reduce *r)
{
	free(r->x);
	free(r->y);
	r->x = r->y = NULL;
}

/* ---- the trace plot's series ---- */

double plots_interval_seconds(double d_epoch, double d_ticks, double tick_hz)
{
	double by_ticks;
	if (!(d_epoch > 0))
		return NAN;
	if (!(tick_hz > 0) || !(d_ticks > 0))
		return d_epoch;
	by_ticks = d_ticks / tick_hz;
	return fabs(by_ticks - d_epoch) <= 1.0 ? by_ticks : d_epoch;
}

int trace_plot_init(struct trace_plot *tp, size_t rows, size_t max_points,
		    const struct run_cores *c)
{
	int rc;
	memset(tp, 0, sizeof(*tp));
	tp->rows = rows;
	tp->clk_tck = c->clk_tck;
	tp->tick_hz = c->ok && c->cpu.tick_ok ? c->cpu.stat_tick_hz : NAN;
	tp->has_shade = c->ok;
	tp->lo = c->window.lo;
	tp->hi = c->window.hi;
	rc = plot_reduce_init(&tp->cores, rows, max_points);
	if (rc == 0)
		rc = plot_reduce_init(&tp->rss, rows, max_points);
	if (rc)
		trace_plot_release(tp);
	return rc;
}

void trace_plot_add(struct trace_plot *tp, size_t pos, const struct trace_row *row)
{
	double dt = pos ? plots_interval_seconds(row->epoch - tp->prev.epoch,
						 row->cpu_total_j - tp->prev.cpu_total_j,
						 tp->tick_hz)
			: 0,
	       sec;
	if (pos == 0)
		tp->first_epoch = row->epoch;
	sec = row->epoch - tp->first_epoch;
	plot_reduce_add(&tp->cores, pos, sec,
			pos && dt > 0 ? (row->app_j - tp->prev.app_j) / (dt * tp->clk_tck) : NAN);
	plot_reduce_add(&tp->rss, pos, sec, row->app_rss_kb / 1024.0);
	if (tp->has_shade && pos == tp->lo)
		tp->shade_from = sec;
	if (tp->has_shade && pos == tp->hi)
		tp->shade_to = sec;
	tp->prev = *row;
}

void trace_plot_finish(struct trace_plot *tp)
{
	plot_reduce_finish(&tp->cores);
	plot_reduce_finish(&tp->rss);
}

void trace_plot_release(struct trace_plot *tp)
{
	plot_reduce_release(&tp->cores);
	plot_reduce_release(&tp->rss);
}

/* ---- the plots' analyses ---- */

const char *plot_kind_name(enum plot_kind kind)
{
	static const char *const names[] = {"scaling", "blocks", "trace", "memory"};
	return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

const char *plot_request_metric(const struct plot_request *req)
{
	if (req->metric)
		return req->metric;
	return req->kind == PLOT_KIND_MEMORY ? "load_rss_kb" : "tput";
}

static int select_for(sqlite3 *db, const struct plot_request *req, const char *block,
		      struct selection *sel)
{
	struct select_spec s = {.filter = req->filter,
				.by = req->by,
				.metric = plot_request_metric(req),
				.block = block};
	int rc = select_runs(db, &s, sel);
	if (rc == 0 && sel->n == 0)
		rc = err_set("no runs to plot (check --corpus and --where)");
	/* no silent pooling: a level's points are replicates of one condition (pooling.h) */
	if (rc == 0 && req->by)
		rc = pooling_check(db, &s, sel, "plot", NULL);
	return rc;
}

/* Is the run's level a physical-core (or assumed physical) level of the sweep? */
static bool physical_run(const struct sweep *sw, double level)
{
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].level == level)
			return sw->levels[i].kind == LEVEL_PHYSICAL ||
			       sw->levels[i].kind == LEVEL_ASSUMED;
	return false;
}

/* The power law over the physical-core levels' runs; a failure only means no fitted curve. */
static void fit_power(const struct selection *sel, const struct sweep *sw, struct plot_result *out)
{
	double *x = malloc((sel->n ? sel->n : 1) * sizeof(*x));
	double *y = malloc((sel->n ? sel->n : 1) * sizeof(*y));
	size_t n = 0;
	if (x && y && sw->nphysical + (sw->classified ? 0 : sw->nlevels) >= 2) {
		for (size_t i = 0; i < sel->n; i++) {
			if (!physical_run(sw, sel->runs[i].level))
				continue;
			x[n] = sel->runs[i].level;
			y[n++] = sel->runs[i].metric;
		}
		out->has_power = fit_scaling(FIT_POWER, x, y, n, &out->power) == 0;
		out->power_points = out->has_power ? n : 0;
	}
	err_clear();
	free(x);
	free(y);
}

static int scaling_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out)
{
	struct sweep_options opts;
	struct run_host host;
	int rc = select_for(db, req, NULL, &out->sweep.sel);
	memset(&host, 0, sizeof(host));
	sweep_options_init(&opts);
	opts.workers = req->workers;
	/* the sweep's figures that apply to this metric and level (sweep.h) */
	sweep_options_fields(&opts, plot_request_metric(req), req->by, NULL, false);
	if (rc == 0 && opts.level_counts_workers)
		rc = run_host_levels(db, &out->sweep.sel, req->host, &host);
	opts.host = &host;
	if (rc == 0)
		rc = sweep_compute(&out->sweep.sel, &opts, &out->sweep.sw);
	if (rc == 0)
		rc = sweep_smt_factor(db, &out->sweep.sw, out->sweep.sel.runs[0].corpus);
	/* a power law of workers only where scaling applies (not a session sweep) */
	if (rc == 0 && out->sweep.sw.scaling_applies)
		fit_power(&out->sweep.sel, &out->sweep.sw, out);
	return rc;
}

static int blocks_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out)
{
	int rc = select_for(db, req, req->block ? req->block : "block", &out->sel);
	for (size_t i = 0; rc == 0 && i < out->sel.n; i++)
		if (!out->sel.runs[i].level_numeric)
			rc = err_set("--by %s: run '%s' has level '%s', not a number: the blocks "
				     "plot needs numeric levels",
				     req->by, out->sel.runs[i].tag, out->sel.runs[i].level_text);
	return rc;
}

/* The single run named by req->tag within the filter. */
static int find_run(sqlite3 *db, const struct plot_request *req, int64_t *run_id)
{
	struct selection sel = {0};
	struct select_spec s = {.filter = req->filter};
	size_t found = 0;
	int rc;
	if (!req->tag)
		return err_usage("the trace plot needs --tag TAG");
	rc = select_runs(db, &s, &sel);
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		if (!strcmp(sel.runs[i].tag, req->tag)) {
			*run_id = sel.runs[i].run_id;
			found++;
		}
	selection_release(&sel);
	if (rc == 0 && found != 1)
		rc = found ? err_usage("tag '%s' names %zu runs: add --corpus", req->tag, found)
			   : err_set("no run '%s' among the selected runs", req->tag);
	return rc;
}

static int plot_trace_row(size_t pos, const struct trace_row *row, void *arg)
{
	trace_plot_add(arg, pos, row);
	return 0;
}

static int plot_trace_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out)
{
	struct cores_options opts;
	struct trace_source src;
	int rc = find_run(db, req, &out->run_id);
	cores_options_init(&opts);
	if (rc == 0 && (rc = trace_source_open(db, out->run_id, "sample", &src)) == 1)
		rc = err_set("run '%s' has no trace", req->tag);
	if (rc == 0)
		rc = cores_compute_source(db, out->run_id, &src, NAN, &opts, &out->cores);
	if (rc == 0)
		rc = trace_plot_init(&out->trace, src.n, PLOT_TRACE_POINTS, &out->cores);
	if (rc == 0)
		rc = trace_source_scan(&src, 0, 0,
				       TRACE_COL_EPOCH | TRACE_COL_APP_J | TRACE_COL_APP_RSS |
					       TRACE_COL_CPU_TOTAL,
				       plot_trace_row, &out->trace);
	if (rc == 0)
		trace_plot_finish(&out->trace);
	return rc;
}

static int plot_memory_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out)
{
	struct memory_request mreq;
	memset(&mreq, 0, sizeof(mreq));
	mreq.filter = req->filter;
	mreq.by = req->by;
	mreq.metric = plot_request_metric(req);
	mreq.group = req->group;
	cores_options_init(&mreq.cores);
	return memory_run(db, &mreq, &out->memory);
}

int plot_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = req->kind;
	switch (req->kind) {
	case PLOT_KIND_SCALING:
		return scaling_run(db, req, out);
	case PLOT_KIND_BLOCKS:
		return blocks_run(db, req, out);
	case PLOT_KIND_TRACE:
		return plot_trace_run(db, req, out);
	case PLOT_KIND_MEMORY:
		return plot_memory_run(db, req, out);
	}
	return err_set("unknown plot kind %d", (int)req->kind);
}

const struct selection *plot_result_selection(const struct plot_result *r)
{
	switch (r->kind) {
	case PLOT_KIND_SCALING:
		return &r->sweep.sel;
	case PLOT_KIND_BLOCKS:
		return &r->sel;
	case PLOT_KIND_MEMORY:
		return &r->memory.sel;
	case PLOT_KIND_TRACE:
		break;
	}
	return NULL;
}

void plot_result_release(struct plot_result *r)
{
	sweep_result_release(&r->sweep);
	fit_release(&r->power);
	selection_release(&r->sel);
	trace_plot_release(&r->trace);
	memory_result_release(&r->memory);
	memset(r, 0, sizeof(*r));
}
