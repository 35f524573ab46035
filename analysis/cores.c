/* cores: see cores.h. */
#include "cores.h"

#include "../common/err.h"
#include "../schema/queries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cores_options_init(struct cores_options *opts)
{
	window_options_init(&opts->window);
	opts->tick_min = WINDOW_TICK_MIN;
}

static void note_add(struct run_cores *rc, const char *text)
{
	size_t used = strlen(rc->note);
	if (*text)
		snprintf(rc->note + used, sizeof(rc->note) - used, "%s%s", used ? "; " : "", text);
}

/* A run field (idle banner, results column, manifest constant) as a number, or NaN. */
static int run_number(sqlite3 *db, int64_t run_id, const char *name, double *out)
{
	sqlite3_stmt *stmt = NULL;
	*out = NAN;
	if (sqlite3_prepare_v2(db,
			       "SELECT num FROM run_fields WHERE run_id = ?1 AND name = ?2 AND"
			       " num IS NOT NULL ORDER BY CASE source WHEN 'results' THEN 0"
			       " WHEN 'join' THEN 1 WHEN 'generator' THEN 2 WHEN 'idle' THEN 3"
			       " WHEN 'acct' THEN 4 WHEN 'tag' THEN 5 ELSE 6 END LIMIT 1",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read run fields: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		*out = sqlite3_column_double(stmt, 0);
	sqlite3_finalize(stmt);
	return 0;
}

/* Looking for the trace row equal to `want` (epochs repeat, so counters must match too). */
struct find {
	const struct trace_row *want;
	size_t at;
	struct trace_row row;
};

static int match_row(size_t pos, const struct trace_row *row, void *arg)
{
	struct find *f = arg;
	if (row->epoch != f->want->epoch || row->app_j != f->want->app_j ||
	    row->cpu_total_j != f->want->cpu_total_j)
		return 0;
	f->at = pos;
	f->row = *row;
	return 1;
}

/* The first row at or after position `from` (row_no from_row_no) equal to want. */
static int find_row(const struct trace_source *t, const struct trace_row *want, size_t from,
		    int64_t from_row_no, struct find *f)
{
	f->want = want;
	return trace_source_scan(t, from, from_row_no,
				 TRACE_COL_EPOCH | TRACE_COL_APP_J | TRACE_COL_CPU_TOTAL |
					 TRACE_COL_CONN,
				 match_row, f);
}

/* The first and last rows of a trace. */
struct ends {
	struct trace_row first, last;
};

static int end_rows(size_t pos, const struct trace_row *row, void *arg)
{
	struct ends *e = arg;
	if (pos == 0)
		e->first = *row;
	e->last = *row;
	return 0;
}

/*
 * Locate the driver's window rows in the trace, recompute its figure the
 * way the gomaxprocs driver did (/proc/stat time base) and say how its
 * window differs from the plateau.
 */
static int driver_window(sqlite3 *db, int64_t run_id, const struct trace_source *t,
			 struct run_cores *out)
{
	struct trace_source w;
	struct ends e;
	struct find lo, hi;
	int rc = trace_source_open(db, run_id, "window", &w);
	if (rc < 0)
		return rc;
	if (rc == 1 || w.n < 2)
		return 0;
	rc = trace_source_scan(&w, 0, 0, TRACE_COL_EPOCH | TRACE_COL_APP_J | TRACE_COL_CPU_TOTAL,
			       end_rows, &e);
	if (rc == 0 && (rc = find_row(t, &e.first, 0, 0, &lo)) == 1)
		rc = find_row(t, &e.last, lo.at, lo.row.row_no, &hi);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		snprintf(out->driver_window, sizeof(out->driver_window),
			 "driver window file does not match the trace's rows");
		return 0;
	}
	out->has_driver_window = true;
	out->driver_lo = lo.at;
	out->driver_hi = hi.at;
	{
		double d_app = hi.row.app_j - lo.row.app_j;
		double d_total = hi.row.cpu_total_j - lo.row.cpu_total_j;
		out->driver_recomputed = d_total > 0 ? d_app / (d_total / out->nproc) : NAN;
	}
	snprintf(out->driver_window, sizeof(out->driver_window),
		 "rows %zu-%zu (%zu rows, conn %.0f at its start) vs plateau rows %zu-%zu",
		 lo.at + 1, hi.at + 1, hi.at - lo.at + 1, lo.row.conn, out->window.lo + 1,
		 out->window.hi + 1);
	return 0;
}

static void explain_driver(struct run_cores *out)
{
	char text[200];
	if (isnan(out->driver_app_cores))
		return;
	out->driver_minus_wall = out->driver_app_cores - out->cpu.app_cores_wall;
	if (fabs(out->driver_minus_wall) < 0.0005) {
		note_add(out, "the reported app_cores equals the recomputed one");
		return;
	}
	snprintf(text, sizeof(text), "driver %s by %.3f cores",
		 out->driver_minus_wall < 0 ? "lower" : "higher", fabs(out->driver_minus_wall));
	if (out->has_driver_window && out->driver_lo < out->window.lo &&
	    out->driver_recomputed == out->driver_recomputed) {
		size_t extra = out->window.lo - out->driver_lo;
		size_t used = strlen(text);
		snprintf(text + used, sizeof(text) - used,
			 ": its window starts %zu row%s earlier, inside the ramp (its figure "
			 "recomputed from those rows: %.3f)",
			 extra, extra == 1 ? "" : "s", out->driver_recomputed);
	}
	note_add(out, text);
}

/* The run's clock fields, or why its figures cannot be computed. */
static int cores_start(sqlite3 *db, int64_t run_id, double driver_app_cores, struct run_cores *out)
{
	int rc;
	memset(out, 0, sizeof(*out));
	out->driver_app_cores = driver_app_cores;
	out->driver_minus_wall = out->driver_recomputed = NAN;
	if ((rc = run_number(db, run_id, "clk_tck", &out->clk_tck)) != 0 ||
	    (rc = run_number(db, run_id, "nproc", &out->nproc)) != 0)
		return rc;
	return 0;
}

int cores_compute(sqlite3 *db, int64_t run_id, double driver_app_cores,
		  const struct cores_options *opts, struct run_cores *out)
{
	struct trace_source t;
	int rc = trace_source_open(db, run_id, "sample", &t);
	if (rc == 0)
		return cores_compute_source(db, run_id, &t, driver_app_cores, opts, out);
	if (rc < 0 || (rc = cores_start(db, run_id, driver_app_cores, out)) != 0)
		return rc;
	note_add(out, "no trace");
	return 0;
}

int cores_compute_source(sqlite3 *db, int64_t run_id, const struct trace_source *t,
			 double driver_app_cores, const struct cores_options *opts,
			 struct run_cores *out)
{
	int rc = cores_start(db, run_id, driver_app_cores, out);
	if (rc)
		return rc;
	if (isnan(out->clk_tck) || isnan(out->nproc)) {
		note_add(out, "clk_tck or nproc unknown (idle banner or manifest 'set')");
	} else if (window_select_source(t, &opts->window, &out->window) != 0 ||
		   cpu_compute_source(t, &out->window, out->clk_tck, out->nproc, opts->tick_min,
				      &out->cpu) != 0) {
		note_add(out, err_msg());
		err_clear();
	} else {
		out->ok = true;
		note_add(out, out->window.warnings);
		if (!out->cpu.tick_ok) {
			char text[160];
			snprintf(text, sizeof(text),
				 "UNTRUSTWORTHY CPU attribution: /proc/stat ticked at %.1f of %.0f "
				 "Hz "
				 "(%.0f%%)",
				 out->cpu.stat_tick_hz, out->cpu.owed_tick_hz,
				 out->cpu.tick_ratio * 100);
			note_add(out, text);
		} else if (out->cpu.trust == CPU_DEGRADED) {
			char text[200];
			snprintf(
				text, sizeof(text),
				"degraded CPU accounting: /proc/stat ticked at %.0f%% of %.0f Hz%s",
				out->cpu.tick_ratio * 100, out->cpu.owed_tick_hz,
				out->cpu.app_cores_stat > out->nproc ||
						out->cpu.app_cores_wall > out->nproc
					? " and an app-cores figure exceeds the guest's CPUs"
					: "");
			note_add(out, text);
		}
		rc = driver_window(db, run_id, t, out);
		if (rc == 0)
			explain_driver(out);
	}
	return rc < 0 ? rc : 0;
}

int cores_run(sqlite3 *db, const struct cores_request *req, struct cores_result *out)
{
	struct select_spec spec = {.filter = req->filter};
	int rc;
	memset(out, 0, sizeof(*out));
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && !(out->runs = calloc(out->sel.n ? out->sel.n : 1, sizeof(*out->runs))))
		rc = err_set("out of memory");
	for (int k = 0; k < 3; k++)
		out->ratio_lo[k] = out->ratio_hi[k] = out->stat_max[k] = NAN;
	for (size_t i = 0; rc == 0 && i < out->sel.n; i++) {
		const struct run_cores *c = &out->runs[i];
		int k;
		rc = cores_compute(db, out->sel.runs[i].run_id, out->sel.runs[i].app_cores,
				   &req->opts, &out->runs[i]);
		if (rc || !c->ok)
			continue;
		k = (int)c->cpu.trust;
		out->untrustworthy += c->cpu.trust == CPU_UNTRUSTWORTHY;
		out->degraded += c->cpu.trust == CPU_DEGRADED;
		out->trusted += c->cpu.trust == CPU_TRUSTED;
		out->ratio_lo[k] = fmin(out->ratio_lo[k], c->cpu.tick_ratio);
		out->ratio_hi[k] = fmax(out->ratio_hi[k], c->cpu.tick_ratio);
		out->stat_max[k] = fmax(out->stat_max[k], c->cpu.app_cores_stat);
	}
	if (rc)
		cores_result_release(out);
	return rc;
}

void cores_result_release(struct cores_result *r)
{
	selection_release(&r->sel);
	free(r->runs);
	memset(r, 0, sizeof(*r));
}

static enum trace_mark mark_of(const struct run_cores *c, size_t i)
{
	bool plateau = c->ok && i >= c->window.lo && i <= c->window.hi;
	bool driver = c->has_driver_window && i >= c->driver_lo && i <= c->driver_hi;
	if (plateau && driver)
		return TRACE_MARK_BOTH;
	if (plateau)
		return TRACE_MARK_PLATEAU;
	return driver ? TRACE_MARK_DRIVER : TRACE_MARK_NONE;
}

int trace_run(sqlite3 *db, const struct trace_request *req, struct trace_result *out)
{
	int matches = 0;
	int rc;
	memset(out, 0, sizeof(*out));
	rc = query_find_run(db, req->tag, req->corpus, req->subcorpus, &out->run_id, &matches);
	if (rc == 0 && matches == 0)
		rc = err_set("no run '%s'%s%s", req->tag, req->corpus ? " in corpus " : "",
			     req->corpus ? req->corpus : "");
	else if (rc == 0 && matches > 1)
		rc = err_usage("run '%s' is in %d corpora or sub-corpora: pass --corpus (and "
			       "--subcorpus)",
			       req->tag, matches);
	if (rc == 0 && (rc = trace_source_open(db, out->run_id, "sample", &out->source)) == 1)
		rc = err_set("run '%s' has no trace", req->tag);
	if (rc == 0)
		rc = cores_compute_source(db, out->run_id, &out->source, NAN, &req->opts,
					  &out->cores);
	out->rows = out->source.n;
	if (rc)
		trace_result_release(out);
	return rc;
}

struct each {
	const struct trace_result *res;
	trace_point_fn fn;
	void *arg;
	struct trace_row prev;
};

static int each_row(size_t pos, const struct trace_row *r, void *arg)
{
	struct each *e = arg;
	struct trace_point p = {r, NAN, mark_of(&e->res->cores, pos)};
	int rc;
	if (pos > 0 && r->epoch > e->prev.epoch)
		p.app_cores = (r->app_j - e->prev.app_j) /
			      ((r->epoch - e->prev.epoch) * e->res->cores.clk_tck);
	rc = e->fn(pos, &p, e->arg);
	e->prev = *r;
	return rc;
}

int trace_each(const struct trace_result *res, trace_point_fn fn, void *arg)
{
	struct each e = {res, fn, arg, {0}};
	return trace_source_scan(&res->source, 0, 0, TRACE_COL_ALL, each_row, &e);
}

void trace_result_release(struct trace_result *r)
{
	memset(r, 0, sizeof(*r));
}

const char *trace_mark_name(enum trace_mark mark)
{
	switch (mark) {
	case TRACE_MARK_PLATEAU:
		return "plateau";
	case TRACE_MARK_DRIVER:
		return "driver";
	case TRACE_MARK_BOTH:
		return "both";
	case TRACE_MARK_NONE:
		break;
	}
	return NULL;
}
