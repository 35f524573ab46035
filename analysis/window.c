/* window: see window.h. */
#include "window.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- traces in memory ---- */

static int load_row(size_t pos, const struct trace_row *row, void *arg)
{
	struct trace_series *out = arg;
	out->rows[pos] = *row; /* pos < the rows counted: the scan checks */
	out->n = pos + 1;
	return 0;
}

int trace_series_load(sqlite3 *db, int64_t run_id, const char *kind, struct trace_series *out)
{
	struct trace_source src;
	int rc;
	memset(out, 0, sizeof(*out));
	rc = trace_source_open(db, run_id, kind, &src);
	if (rc)
		return rc;
	if (!(out->rows = malloc(src.n * sizeof(*out->rows))))
		return err_set("out of memory");
	rc = trace_source_scan(&src, 0, 0, TRACE_COL_ALL, load_row, out);
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

/* ---- sources ---- */

int trace_source_open(sqlite3 *db, int64_t run_id, const char *kind, struct trace_source *out)
{
	struct trace_summary sum;
	int rc;
	memset(out, 0, sizeof(*out));
	out->db = db;
	rc = query_trace_find(db, run_id, kind, &out->trace_id, &sum);
	if (rc)
		return rc;
	out->n = sum.rows;
	out->conn_rows = sum.conn_rows;
	out->conn_max = sum.conn_max;
	return out->n == 0 ? 1 : 0;
}

void trace_source_series(const struct trace_series *t, struct trace_source *out)
{
	memset(out, 0, sizeof(*out));
	out->trace_id = -1;
	out->series = t;
	out->n = t->n;
	out->conn_max = -INFINITY;
	for (size_t i = 0; i < t->n; i++)
		if (!isnan(t->rows[i].conn)) {
			out->conn_rows++;
			out->conn_max = fmax(out->conn_max, t->rows[i].conn);
		}
}

static int changed(void)
{
	return err_set("the trace changed while it was read (imported again meanwhile?): run the "
		       "command again");
}

struct scan {
	const struct trace_source *src;
	size_t pos;
	trace_scan_fn fn;
	void *arg;
};

static int scan_row(const struct trace_row *row, void *arg)
{
	struct scan *s = arg;
	/* a trace that grew since it was counted is not the one the figures were found in */
	if (s->pos >= s->src->n)
		return changed();
	return s->fn(s->pos++, row, s->arg);
}

int trace_source_scan(const struct trace_source *src, size_t pos, int64_t row_no,
		      unsigned int columns, trace_scan_fn fn, void *arg)
{
	struct scan s = {src, pos, fn, arg};
	int rc;
	if (!src->db) {
		for (size_t i = pos; i < src->n; i++)
			if ((rc = fn(i, &src->series->rows[i], arg)) != 0)
				return rc;
		return 0;
	}
	rc = query_trace_rows(src->db, src->trace_id, pos == 0 ? INT64_MIN : row_no, columns,
			      scan_row, &s);
	if (rc == 0 && s.pos != src->n)
		rc = changed();
	return rc;
}

static int take_row(size_t pos, const struct trace_row *row, void *arg)
{
	(void)pos;
	*(struct trace_row *)arg = *row;
	return 1;
}

int trace_source_row(const struct trace_source *src, size_t pos, int64_t row_no,
		     struct trace_row *out)
{
	int rc;
	if (pos >= src->n)
		return changed();
	out->row_no = INT64_MIN;
	rc = trace_source_scan(src, pos, row_no, TRACE_COL_ALL, take_row, out);
	if (rc < 0)
		return rc;
	if (rc == 0 || (src->db && pos > 0 && out->row_no != row_no))
		return changed();
	return 0;
}

/* ---- the exact median in passes ---- */

#define MEDIAN_BUCKETS ((size_t)1 << 16)
#define KEY_SIGN UINT64_C(0x8000000000000000)

/* Keys in the doubles' order: negative values bit-flipped, positive ones with the sign set. */
static uint64_t order_key(double v)
{
	uint64_t bits;
	if (v == 0)
		v = 0.0; /* -0 sorts as 0, as gsl_sort's comparisons have it */
	memcpy(&bits, &v, sizeof(bits));
	return bits & KEY_SIGN ? ~bits : bits | KEY_SIGN;
}

static double key_value(uint64_t key)
{
	uint64_t bits = key & KEY_SIGN ? key & ~KEY_SIGN : ~key;
	double v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

static void median_clear(struct stream_median *m)
{
	memset(m->count, 0, MEDIAN_BUCKETS * sizeof(*m->count));
	for (size_t b = 0; b < MEDIAN_BUCKETS; b++) {
		m->min[b] = UINT64_MAX;
		m->max[b] = 0;
	}
	m->seen = 0;
}

int stream_median_init(struct stream_median *m)
{
	memset(m, 0, sizeof(*m));
	m->hi = UINT64_MAX;
	m->above = UINT64_MAX;
	m->shift = 48;
	m->value = NAN;
	m->count = malloc(MEDIAN_BUCKETS * sizeof(*m->count));
	m->min = malloc(MEDIAN_BUCKETS * sizeof(*m->min));
	m->max = malloc(MEDIAN_BUCKETS * sizeof(*m->max));
	if (!m->count || !m->min || !m->max) {
		stream_median_release(m);
		return err_set("out of memory");
	}
	median_clear(m);
	return 0;
}

void stream_median_add(struct stream_median *m, double v)
{
	uint64_t key = order_key(v);
	size_t b;
	m->seen++;
	if (key < m->lo || key > m->hi) {
		if (key > m->hi && key < m->above)
			m->above = key;
		return;
	}
	b = (size_t)((key - m->lo) >> m->shift);
	m->count[b]++;
	if (key < m->min[b])
		m->min[b] = key;
	if (key > m->max[b])
		m->max[b] = key;
}

bool stream_median_next(struct stream_median *m)
{
	size_t cum = 0, b;
	if (m->done)
		return true;
	m->passes++;
	if (m->passes == 1) {
		m->n = m->seen;
		m->rank = m->n ? (m->n - 1) / 2 : 0;
	}
	for (b = 0; b < MEDIAN_BUCKETS && cum + m->count[b] <= m->rank; b++)
		cum += m->count[b];
	if (m->n == 0 || b == MEDIAN_BUCKETS || m->seen != m->n) {
		/* no values, or not the same values each pass: no median */
		m->done = true;
		m->value = NAN;
		return true;
	}
	m->rank -= cum;
	/* the smallest candidate above bucket b: the next non-empty bucket's least */
	for (size_t nb = b + 1; nb < MEDIAN_BUCKETS; nb++)
		if (m->count[nb]) {
			if (m->min[nb] < m->above)
				m->above = m->min[nb];
			break;
		}
	m->lo = m->min[b];
	m->hi = m->max[b];
	if (m->lo == m->hi) {
		double a = key_value(m->lo), second = a;
		/* gsl_stats_median_from_sorted_data: (data[lhs] + data[rhs]) / 2.0 for an even n */
		if (m->n % 2 == 0 && m->rank + 1 >= m->count[b])
			second = key_value(m->above);
		m->value = m->n % 2 ? a : (a + second) / 2.0;
		m->done = true;
		return true;
	}
	m->shift = 0;
	while (((m->hi - m->lo) >> m->shift) >= MEDIAN_BUCKETS)
		m->shift++;
	median_clear(m);
	return false;
}

double stream_median_value(const struct stream_median *m)
{
	return m->done ? m->value : NAN;
}

void stream_median_release(struct stream_median *m)
{
	free(m->count);
	free(m->min);
	free(m->max);
	m->count = NULL;
	m->min = m->max = NULL;
}

/* ---- the window ---- */

void window_options_init(struct window_options *opts)
{
	opts->frac = WINDOW_FRAC;
	opts->trim = WINDOW_TRIM;
	opts->min_rows = WINDOW_MIN_ROWS;
	opts->keep_ramp = false;
}

static void add_warning(struct window *w, const char *text)
{
	size_t used = strlen(w->warnings);
	snprintf(w->warnings + used, sizeof(w->warnings) - used, "%s%s", used ? "; " : "", text);
}

/* A window end: its row_no (to scan from it) and epoch (for the span). */
struct end_row {
	int64_t row_no;
	double epoch;
};

/*
 * The first and last rows at or above the threshold, and the rows `trim`
 * inside each: the row trim after the first passes by later, and the row
 * trim before the last is in a ring of the last trim + 1 rows.
 */
struct ends {
	double threshold;
	size_t trim, nring;
	struct end_row *ring;
	bool found;
	size_t lo, hi;
	struct end_row lo_row, hi_row, lo_trim, hi_trim;
};

static int find_ends(size_t pos, const struct trace_row *row, void *arg)
{
	struct ends *e = arg;
	struct end_row here = {row->row_no, row->epoch};
	e->ring[pos % e->nring] = here;
	if (e->found && pos == e->lo + e->trim)
		e->lo_trim = here;
	if (row->conn >= e->threshold) {
		if (!e->found) {
			e->found = true;
			e->lo = pos;
			e->lo_row = e->lo_trim = here;
		}
		e->hi = pos;
		e->hi_row = here;
		if (e->trim < e->nring && pos >= e->trim)
			e->hi_trim = e->ring[(pos - e->trim) % e->nring];
	}
	return 0;
}

/*
 * Passes over the window's rows for what needs all of them: the median
 * conn and the idle rows (the window rule), and the RSS summary and median
 * and the least available memory (the figures), each median a
 * stream_median. The first pass reads every column wanted and does the
 * counting; later ones only the medians still open. The mean is
 * gsl_stats_mean's recurrence, in row order and in long double as GSL has
 * it, so it is the mean of the array of values to the bit.
 */
struct window_pass {
	size_t hi, rows;
	bool first;
	bool want_conn, want_memory;
	struct stream_median conn_m, rss_m;
	bool conn_open, rss_open;
	bool conn_finite;
	size_t idle;
	struct window_memory mem;
	long double mean;
};

static int window_row(size_t pos, const struct trace_row *row, void *arg)
{
	struct window_pass *p = arg;
	double v = row->app_rss_kb;
	if (pos > p->hi)
		return 1;
	p->rows++;
	if (p->conn_open) {
		if (isfinite(row->conn))
			stream_median_add(&p->conn_m, row->conn);
		else
			p->conn_finite = false;
	}
	if (p->rss_open && isfinite(v))
		stream_median_add(&p->rss_m, v);
	if (!p->first)
		return 0;
	p->idle += p->want_conn && row->conn == 0;
	if (!p->want_memory)
		return 0;
	if (!isnan(v)) {
		struct window_memory *m = &p->mem;
		m->n++;
		if (!isfinite(v) && !m->bad_at) {
			m->bad_at = m->n;
			m->bad = v;
		}
		p->mean += (v - p->mean) / m->n;
		m->min = m->n == 1 ? v : fmin(m->min, v);
		m->max = m->n == 1 ? v : fmax(m->max, v);
	}
	if (!isnan(row->mem_avail_kb))
		p->mem.avail_min = isnan(p->mem.avail_min)
					   ? row->mem_avail_kb
					   : fmin(p->mem.avail_min, row->mem_avail_kb);
	return 0;
}

static void window_pass_release(struct window_pass *p)
{
	stream_median_release(&p->conn_m);
	stream_median_release(&p->rss_m);
}

/* The window passes; on success p holds the idle rows, the medians and the memory summary. */
static int window_passes(const struct trace_source *src, const struct window *w,
			 struct window_pass *p)
{
	int rc = 0;
	p->hi = w->hi;
	p->first = true;
	p->conn_finite = true;
	p->mem.avail_min = NAN;
	if ((p->conn_open = p->want_conn))
		rc = stream_median_init(&p->conn_m);
	if (rc == 0 && (p->rss_open = p->want_memory))
		rc = stream_median_init(&p->rss_m);
	while (rc == 0 && (p->conn_open || p->rss_open)) {
		unsigned int cols = (p->conn_open ? TRACE_COL_CONN : 0) |
				    (p->rss_open ? TRACE_COL_APP_RSS : 0) |
				    (p->first && p->want_memory ? TRACE_COL_MEM_AVAIL : 0);
		p->rows = 0;
		rc = trace_source_scan(src, w->lo, w->lo_row_no, cols, window_row, p);
		if (rc >= 0)
			rc = p->rows != w->rows ? changed() : 0;
		if (rc)
			break;
		/* a conn that is not finite has no median; an RSS that is not finite is an error */
		if (p->conn_open)
			p->conn_open = p->conn_finite && !stream_median_next(&p->conn_m);
		if (p->rss_open)
			p->rss_open = p->mem.n && !p->mem.bad_at && !stream_median_next(&p->rss_m);
		p->first = false;
	}
	if (rc == 0 && p->want_memory) {
		p->mem.known = true;
		p->mem.mean = (double)p->mean;
		p->mem.median = stream_median_value(&p->rss_m);
	}
	return rc;
}

struct ramp {
	size_t lo, hi, rows;
	size_t trim; /* rows to drop after the ramp too: the new edge is trimmed like the old */
	double plateau, prev;
	bool ended; /* the ramp ended: rows after it are being trimmed */
	size_t trimmed;
	struct trace_row first; /* the first row kept after the ramp and the trim */
	bool has_first;
};

static int ramp_row(size_t pos, const struct trace_row *row, void *arg)
{
	struct ramp *r = arg;
	if (!r->ended &&
	    (pos > r->hi || !(row->conn < r->plateau) || (pos > r->lo && row->conn <= r->prev)))
		r->ended = true;
	if (!r->ended) {
		r->rows++;
		r->prev = row->conn;
		return 0;
	}
	if (pos > r->hi)
		return 1;
	if (r->rows && r->trimmed < r->trim) {
		r->trimmed++;
		return 0;
	}
	r->has_first = true;
	r->first = *row;
	return 1;
}

/*
 * Leading window rows still on the ramp: connections rising and below the
 * window's median connection count (the plateau level; the maximum can be
 * a one-row spike, so it is not the reference).
 */
static int count_ramp_rows(const struct trace_source *src, struct window *w, double plateau,
			   size_t trim, struct ramp *r)
{
	int rc;
	memset(r, 0, sizeof(*r));
	r->lo = w->lo;
	r->hi = w->hi;
	r->trim = trim;
	r->plateau = plateau;
	rc = trace_source_scan(src, w->lo, w->lo_row_no, TRACE_COL_CONN | TRACE_COL_EPOCH, ramp_row,
			       r);
	if (rc < 0)
		return rc;
	w->ramp_rows = r->rows;
	return 0;
}

/* The window without its leading ramp rows: lo moves to the first row after them. */
static int leave_out_ramp(const struct trace_source *src, struct window *w, const struct ramp *r,
			  double hi_epoch)
{
	struct window_pass p = {.want_conn = false, .want_memory = true};
	int rc;
	w->ramp_excluded = w->ramp_rows;
	w->ramp_rows = 0;
	w->lo += w->ramp_excluded + r->trimmed;
	w->lo_row_no = r->first.row_no;
	w->rows -= w->ramp_excluded + r->trimmed;
	w->seconds = hi_epoch - r->first.epoch;
	rc = window_passes(src, w, &p);
	window_pass_release(&p);
	if (rc)
		return rc;
	w->idle_rows = p.idle;
	w->memory = p.mem;
	return 0;
}

int window_select_source(const struct trace_source *src, const struct window_options *opts,
			 struct window *out)
{
	struct window_pass p = {.want_conn = true, .want_memory = true};
	struct ramp ramp;
	struct ends e = {0};
	double mx = src->conn_max, plateau;
	char text[96];
	int rc;
	memset(out, 0, sizeof(*out));
	if (src->conn_rows < src->n)
		return err_set("the trace has no connection count (conn): the loaded "
			       "plateau cannot be found");
	if (src->n == 0 || !(mx > 0))
		return err_set("the trace never has a connection: no loaded plateau");
	e.threshold = opts->frac * mx;
	e.trim = opts->trim;
	e.nring = opts->trim < src->n ? opts->trim + 1 : src->n;
	if (!(e.ring = malloc(e.nring * sizeof(*e.ring))))
		return err_set("out of memory");
	rc = trace_source_scan(src, 0, 0, TRACE_COL_CONN | TRACE_COL_EPOCH, find_ends, &e);
	free(e.ring);
	if (rc < 0)
		return rc;
	if (!e.found) /* only a fraction above 1 can miss the maximum's own row */
		return err_set("no row has conn >= %g (%g x the maximum %g)", e.threshold,
			       opts->frac, mx);
	if (e.hi - e.lo + 1 > 2 * opts->trim + 3) {
		e.lo += opts->trim;
		e.hi -= opts->trim;
		e.lo_row = e.lo_trim;
		e.hi_row = e.hi_trim;
	}
	out->lo = e.lo;
	out->hi = e.hi;
	out->lo_row_no = e.lo_row.row_no;
	out->hi_row_no = e.hi_row.row_no;
	out->rows = e.hi - e.lo + 1;
	out->conn_max = mx;
	out->seconds = e.hi_row.epoch - e.lo_row.epoch;
	/* the figures' memory columns in the same passes: cpu_compute_source reads them here */
	rc = window_passes(src, out, &p);
	plateau = p.conn_finite ? stream_median_value(&p.conn_m) : INFINITY;
	window_pass_release(&p);
	if (rc)
		return rc;
	out->idle_rows = p.idle;
	out->memory = p.mem;
	if ((rc = count_ramp_rows(src, out, isnan(plateau) ? INFINITY : plateau, opts->trim,
				  &ramp)) != 0)
		return rc;
	if (out->ramp_rows && !opts->keep_ramp && ramp.has_first &&
	    out->rows - out->ramp_rows - ramp.trimmed >= WINDOW_MIN_KEPT &&
	    (rc = leave_out_ramp(src, out, &ramp, e.hi_row.epoch)) != 0)
		return rc;
	if (out->ramp_excluded) {
		snprintf(text, sizeof(text), "%zu ramp row%s left out (connections rising)",
			 out->ramp_excluded, out->ramp_excluded == 1 ? "" : "s");
		add_warning(out, text);
	}
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

int window_select(const struct trace_series *t, const struct window_options *opts,
		  struct window *out)
{
	struct trace_source src;
	trace_source_series(t, &src);
	return window_select_source(&src, opts, out);
}

/* ---- the figures ---- */

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

/*
 * rss median, mean and peak and the least available memory over the
 * window (found with it, or read now for a window made by hand), with
 * stats_summary's checks and messages (finite values, a median that is
 * not 0, a positive least value unless all are equal).
 */
static int memory_figures(const struct trace_source *src, const struct window *w,
			  struct cpu_figures *out)
{
	struct window_memory m = w->memory;
	out->rss_median_kb = out->rss_mean_kb = out->rss_peak_kb = NAN;
	if (!m.known) {
		struct window_pass p = {.want_memory = true};
		int rc = window_passes(src, w, &p);
		window_pass_release(&p);
		if (rc)
			return rc;
		m = p.mem;
	}
	out->mem_avail_min_kb = m.avail_min;
	if (m.n == 0)
		return 0;
	if (m.bad_at)
		return err_set("values must be finite, value %zu is %g", m.bad_at, m.bad);
	if (m.median == 0)
		return err_set("median is 0: range_pct undefined");
	if (m.min != m.max && !(m.min > 0))
		return err_set("minimum is 0 or below: spread_pct undefined");
	out->rss_median_kb = m.median;
	out->rss_mean_kb = m.mean;
	out->rss_peak_kb = m.max;
	return 0;
}

int cpu_compute_source(const struct trace_source *src, const struct window *w, double clk_tck,
		       double nproc, double tick_min, struct cpu_figures *out)
{
	double seconds = w->seconds;
	double d_app, d_total, d_idle, d_pg;
	struct trace_row first, last;
	int rc;
	memset(out, 0, sizeof(*out));
	if (w->rows == 0 || w->hi >= src->n)
		return err_set("empty window");
	if (!(seconds > 0))
		return err_set("the window spans no time (%zu rows, %g s)", w->rows, seconds);
	rc = trace_source_row(src, w->lo, w->lo_row_no, &first);
	if (rc == 0)
		rc = trace_source_row(src, w->hi, w->hi_row_no, &last);
	if (rc == 0)
		rc = delta(first.app_j, last.app_j, "app_j", true, &d_app);
	if (rc == 0)
		rc = delta(first.cpu_total_j, last.cpu_total_j, "cpu_total_j", false, &d_total);
	if (rc == 0)
		rc = delta(first.cpu_idle_j, last.cpu_idle_j, "cpu_idle_j", false, &d_idle);
	if (rc == 0)
		rc = delta(first.pg_j, last.pg_j, "pg_j", false, &d_pg);
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
	if (!out->tick_ok)
		out->trust = CPU_UNTRUSTWORTHY;
	else if (out->tick_ratio < WINDOW_TICK_TRUSTED || out->app_cores_wall > nproc ||
		 out->app_cores_stat > nproc)
		out->trust = CPU_DEGRADED;
	else
		out->trust = CPU_TRUSTED;
	return memory_figures(src, w, out);
}

const char *cpu_trust_name(enum cpu_trust trust)
{
	switch (trust) {
	case CPU_TRUSTED:
		return "trusted";
	case CPU_DEGRADED:
		return "degraded";
	case CPU_UNTRUSTWORTHY:
		return "untrustworthy";
	}
	return "?";
}

int cpu_compute(const struct trace_series *t, const struct window *w, double clk_tck, double nproc,
		double tick_min, struct cpu_figures *out)
{
	struct trace_source src;
	trace_source_series(t, &src);
	return cpu_compute_source(&src, w, clk_tck, nproc, tick_min, out);
}
