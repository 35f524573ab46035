/* window: see window.h. */
#include "window.h"

#include "../common/err.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double column_or_nan(sqlite3_stmt *stmt, int col)
{
	return sqlite3_column_type(stmt, col) == SQLITE_NULL ? NAN : sqlite3_column_double(stmt, col);
}

int trace_series_load(sqlite3 *db, int64_t run_id, const char *kind, struct trace_series *out)
{
	sqlite3_stmt *stmt = NULL;
	size_t alloc = 0;
	int step, rc = 0;
	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db,
			       "SELECT s.row_no, s.epoch, s.conn, s.cpu_total_j, s.cpu_idle_j,"
			       " s.app_j, s.pg_j, s.app_rss_kb, s.mem_avail_kb"
			       " FROM traces t JOIN trace_samples s USING (trace_id)"
			       " WHERE t.run_id = ?1 AND t.kind = ?2 ORDER BY s.row_no",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read a trace: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, kind, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct trace_row *r;
		if (out->n == alloc) {
			size_t want = alloc ? 2 * alloc : 256;
			struct trace_row *grown = realloc(out->rows, want * sizeof(*grown));
			if (!grown) {
				rc = err_set("out of memory");
				break;
			}
			out->rows = grown;
			alloc = want;
		}
		r = &out->rows[out->n++];
		r->row_no = sqlite3_column_int64(stmt, 0);
		r->epoch = sqlite3_column_double(stmt, 1);
		r->conn = column_or_nan(stmt, 2);
		r->cpu_total_j = column_or_nan(stmt, 3);
		r->cpu_idle_j = column_or_nan(stmt, 4);
		r->app_j = column_or_nan(stmt, 5);
		r->pg_j = column_or_nan(stmt, 6);
		r->app_rss_kb = column_or_nan(stmt, 7);
		r->mem_avail_kb = column_or_nan(stmt, 8);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = err_set("cannot read a trace: %s", sqlite3_errmsg(db));
	sqlite3_finalize(stmt);
	if (rc) {
		trace_series_release(out);
		return rc;
	}
	return out->n == 0 ? 1 : 0;
}

void trace_series_release(struct trace_series *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

void window_options_init(struct window_options *opts)
{
	opts->frac = WINDOW_FRAC;
	opts->trim = WINDOW_TRIM;
	opts->min_rows = WINDOW_MIN_ROWS;
}

static void add_warning(struct window *w, const char *text)
{
	size_t used = strlen(w->warnings);
	snprintf(w->warnings + used, sizeof(w->warnings) - used, "%s%s", used ? "; " : "", text);
}

/*
 * Leading window rows still on the ramp: connections rising and below the
 * window's median connection count (the plateau level; the maximum can be
 * a one-row spike, so it is not the reference).
 */
static size_t count_ramp_rows(const struct trace_series *t, size_t lo, size_t hi)
{
	size_t n = hi - lo + 1, ramp = 0;
	double *conn = malloc(n * sizeof(*conn));
	double plateau;
	if (!conn)
		return 0;
	for (size_t i = 0; i < n; i++)
		conn[i] = t->rows[lo + i].conn;
	if (stats_median(conn, n, &plateau) != 0)
		plateau = INFINITY;
	free(conn);
	for (size_t i = lo; i <= hi && t->rows[i].conn < plateau; i++) {
		if (i > lo && t->rows[i].conn <= t->rows[i - 1].conn)
			break;
		ramp++;
	}
	return ramp;
}

int window_select(const struct trace_series *t, const struct window_options *opts,
		  struct window *out)
{
	double mx = -INFINITY;
	size_t lo = SIZE_MAX, hi = 0;
	char text[96];
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->n; i++) {
		if (isnan(t->rows[i].conn))
			return err_set("the trace has no connection count (conn): the loaded "
				       "plateau cannot be found");
		mx = fmax(mx, t->rows[i].conn);
	}
	if (t->n == 0 || !(mx > 0))
		return err_set("the trace never has a connection: no loaded plateau");
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].conn >= opts->frac * mx) {
			if (lo == SIZE_MAX)
				lo = i;
			hi = i;
		}
	if (hi - lo + 1 > 2 * opts->trim + 3) {
		lo += opts->trim;
		hi -= opts->trim;
	}
	out->lo = lo;
	out->hi = hi;
	out->rows = hi - lo + 1;
	out->conn_max = mx;
	out->seconds = t->rows[hi].epoch - t->rows[lo].epoch;
	out->ramp_rows = count_ramp_rows(t, lo, hi);
	for (size_t i = lo; i <= hi; i++)
		out->idle_rows += t->rows[i].conn == 0;
	if (out->ramp_rows) {
		snprintf(text, sizeof(text), "%zu ramp row%s inside (connections rising)",
			 out->ramp_rows, out->ramp_rows == 1 ? "" : "s");
		add_warning(out, text);
	}
	if (out->idle_rows) {
		snprintf(text, sizeof(text), "%zu idle row%s inside (no connections)",
			 out->idle_rows, out->idle_rows == 1 ? "" : "s");
		add_warning(out, text);
	}
	if (out->rows < opts->min_rows || out->seconds < WINDOW_MIN_SECONDS) {
		snprintf(text, sizeof(text), "short window: %zu rows over %g s", out->rows,
			 out->seconds);
		add_warning(out, text);
	}
	return 0;
}

/* last - first of a counter; an error when it is missing (if required) or went backwards. */
static int delta(double first, double last, const char *name, bool required, double *out)
{
	*out = NAN;
	if (isnan(first) || isnan(last))
		return required ? err_set("the trace has no %s column", name) : 0;
	if (last < first)
		return err_set("%s went backwards across the window (%.0f to %.0f): a counter "
			       "reset, not a rate",
			       name, first, last);
	*out = last - first;
	return 0;
}

static int memory_figures(const struct trace_series *t, const struct window *w,
			  struct cpu_figures *out)
{
	double *rss = malloc(w->rows * sizeof(*rss));
	struct summary s;
	size_t n = 0;
	int rc = 0;
	if (!rss)
		return err_set("out of memory");
	out->mem_avail_min_kb = NAN;
	for (size_t i = w->lo; i <= w->hi; i++) {
		if (!isnan(t->rows[i].app_rss_kb))
			rss[n++] = t->rows[i].app_rss_kb;
		if (!isnan(t->rows[i].mem_avail_kb))
			out->mem_avail_min_kb = isnan(out->mem_avail_min_kb)
							? t->rows[i].mem_avail_kb
							: fmin(out->mem_avail_min_kb,
							       t->rows[i].mem_avail_kb);
	}
	out->rss_median_kb = out->rss_mean_kb = out->rss_peak_kb = NAN;
	if (n > 0 && (rc = stats_summary(rss, n, &s)) == 0) {
		out->rss_median_kb = s.median;
		out->rss_mean_kb = s.mean;
		out->rss_peak_kb = s.max;
	}
	free(rss);
	return rc;
}

int cpu_compute(const struct trace_series *t, const struct window *w, double clk_tck,
		double nproc, double tick_min, struct cpu_figures *out)
{
	double seconds = w->seconds;
	double d_app, d_total, d_idle, d_pg;
	int rc;
	memset(out, 0, sizeof(*out));
	if (w->rows == 0 || w->hi >= t->n)
		return err_set("empty window");
	if (!(seconds > 0))
		return err_set("the window spans no time (%zu rows, %g s)", w->rows, seconds);
	const struct trace_row *first = &t->rows[w->lo], *last = &t->rows[w->hi];
	rc = delta(first->app_j, last->app_j, "app_j", true, &d_app);
	if (rc == 0)
		rc = delta(first->cpu_total_j, last->cpu_total_j, "cpu_total_j", false, &d_total);
	if (rc == 0)
		rc = delta(first->cpu_idle_j, last->cpu_idle_j, "cpu_idle_j", false, &d_idle);
	if (rc == 0)
		rc = delta(first->pg_j, last->pg_j, "pg_j", false, &d_pg);
	if (rc)
		return rc;
	out->app_cores_wall = d_app / (seconds * clk_tck);
	out->app_cores_stat = d_total > 0 ? d_app / (d_total / nproc) : NAN;
	out->machine_busy_cores = (d_total - d_idle) / (seconds * clk_tck);
	out->pg_cores = d_pg / (seconds * clk_tck);
	out->stat_tick_hz = d_total / seconds;
	out->owed_tick_hz = nproc * clk_tck;
	out->tick_ratio = out->stat_tick_hz / out->owed_tick_hz;
	out->tick_ok = out->tick_ratio >= tick_min;
	return memory_figures(t, w, out);
}
