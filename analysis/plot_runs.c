/* plot_runs: see plot_runs.h. */
#include "plot_runs.h"

#include "../common/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	/* the sweep's figures that apply to this metric and level (sweep.h) */
	sweep_options_fields(&opts, plot_request_metric(req), req->by, NULL, false);
	if (rc == 0 && opts.level_counts_workers)
		rc = run_host_levels(db, &out->sweep.sel, req->host, &host);
	opts.host = &host;
	if (rc == 0)
		rc = sweep_compute(&out->sweep.sel, &opts, &out->sweep.sw);
	if (rc == 0)
		rc = sweep_smt_factor(db, &out->sweep.sw, out->sweep.sel.runs[0].corpus);
	if (rc == 0)
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

static int plot_trace_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out)
{
	struct cores_options opts;
	int rc = find_run(db, req, &out->run_id);
	cores_options_init(&opts);
	if (rc == 0 && (rc = trace_series_load(db, out->run_id, "sample", &out->series)) == 1)
		rc = err_set("run '%s' has no trace", req->tag);
	if (rc == 0)
		rc = cores_compute(db, out->run_id, NAN, &opts, &out->cores);
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
	memory_result_release(&r->memory);
	trace_series_release(&r->series);
	memset(r, 0, sizeof(*r));
}
