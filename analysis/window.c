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
	out->identity = sum.identity;
	return out->n == 0 ? 1 : 0;
}

void trace_source_series(const struct trace_series *t, struct trace_source *out)
{
	memset(out, 0, sizeof(*out));
	out->trace_id = -1;
	out->series = t;
	out->n = t->n;
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
 * The window's ends in one pass, with the largest conn not known before
 * it (the threshold is frac x the largest): the first row at or above the
 * threshold is a running maximum (every row before it is below the
 * threshold, so below it), and the last row at or above it is the latest
 * of the rows that were at or above frac x the running maximum when read.
 * So two short lists of candidates suffice: the running maxima not yet
 * below frac x the running maximum (`first`, in row order, rising), and
 * the rows at or above it with no later row at least as high (`last`, a
 * stack, falling). A new maximum drops the candidates below the new
 * threshold; at the end the first of `first` and the top of `last` are
 * the ends. Each candidate keeps its row and the row `trim` inside it (for
 * `first` the row trim after, filled in as it passes by; for `last` the
 * row trim before, from a ring of the last trim + 1 rows). With conn
 * counted in whole connections the lists hold at most (1 - frac) x the
 * maximum + 1 entries each; past ENDS_MAX_CANDIDATES the pass only
 * finishes the maximum and a second pass finds the ends.
 */
#define ENDS_MAX_CANDIDATES ((size_t)1 << 16)

struct end_cand {
	size_t pos;
	double conn;
	struct end_row row, trim; /* the candidate's row; the row trim inside the window */
	bool has_trim;
};

struct cands {
	struct end_cand *v;
	size_t head, n, cap; /* entries head..n-1 */
};

struct ends {
	double frac;
	size_t trim, nring;
	struct end_row *ring;
	size_t rows, conn_rows;
	double max; /* the largest conn so far (NaN: none yet) */
	struct cands first, last;
	bool overflow, oom;
	/* the answer */
	bool found;
	size_t lo, hi;
	struct end_row lo_row, hi_row, lo_trim, hi_trim;
};

static bool cand_push(struct ends *e, struct cands *c, struct end_cand cand)
{
	if (c->head > 0 && c->head == c->n)
		c->head = c->n = 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct end_cand *grown;
		if (c->n - c->head >= ENDS_MAX_CANDIDATES) {
			e->overflow = true;
			return false;
		}
		if (c->head > 0) { /* room at the front: move the live entries down */
			memmove(c->v, c->v + c->head, (c->n - c->head) * sizeof(*c->v));
			c->n -= c->head;
			c->head = 0;
		} else if (!(grown = realloc(c->v, cap * sizeof(*grown)))) {
			e->oom = true;
			return false;
		} else {
			c->v = grown;
			c->cap = cap;
		}
	}
	c->v[c->n++] = cand;
	return true;
}

/* Drop the candidates below the threshold: the front of `first`, the top of `last`. */
static void prune(struct ends *e, double threshold)
{
	while (e->first.head < e->first.n && e->first.v[e->first.head].conn < threshold)
		e->first.head++;
	while (e->last.n > 0 && e->last.v[e->last.n - 1].conn < threshold)
		e->last.n--;
}

static int find_ends(size_t pos, const struct trace_row *row, void *arg)
{
	struct ends *e = arg;
	struct end_row here = {row->row_no, row->epoch};
	double conn = row->conn;
	e->ring[pos % e->nring] = here;
	e->rows++;
	/* the row trim after each first-row candidate that is that far back */
	for (size_t i = e->first.n; i > e->first.head; i--) {
		struct end_cand *c = &e->first.v[i - 1];
		if (c->pos + e->trim < pos)
			break;
		if (c->pos + e->trim == pos) {
			c->trim = here;
			c->has_trim = true;
		}
	}
	if (isnan(conn))
		return 0;
	e->conn_rows++;
	if (isnan(e->max) || conn > e->max) {
		e->max = conn;
		if (e->overflow)
			return 0;
		prune(e, e->frac * e->max);
		if (!cand_push(e, &e->first,
			       (struct end_cand){pos, conn, here, here, e->trim == 0}))
			return e->oom ? err_set("out of memory") : 0;
	}
	if (!e->overflow && conn >= e->frac * e->max) {
		struct end_cand c = {pos, conn, here, here, false};
		while (e->last.n > e->last.head && e->last.v[e->last.n - 1].conn <= conn)
			e->last.n--;
		if (e->trim < e->nring && pos >= e->trim) {
			c.trim = e->ring[(pos - e->trim) % e->nring];
			c.has_trim = true;
		}
		if (!cand_push(e, &e->last, c))
			return e->oom ? err_set("out of memory") : 0;
	}
	return 0;
}

/* The second pass when the candidates overflowed: the threshold is known now. */
static int find_ends_at(size_t pos, const struct trace_row *row, void *arg)
{
	struct ends *e = arg;
	struct end_row here = {row->row_no, row->epoch};
	double threshold = e->frac * e->max;
	e->ring[pos % e->nring] = here;
	if (e->found && pos == e->lo + e->trim)
		e->lo_trim = here;
	if (row->conn >= threshold) {
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

/* The ends from the candidates (or the second pass) once the maximum is known. */
static int ends_found(const struct trace_source *src, struct ends *e)
{
	const struct end_cand *lo, *hi;
	if (e->overflow)
		return trace_source_scan(src, 0, 0, TRACE_COL_CONN | TRACE_COL_EPOCH, find_ends_at,
					 e);
	prune(e, e->frac * e->max); /* a fraction above 1 leaves none */
	if (e->first.head == e->first.n || e->last.n == 0)
		return 0;
	lo = &e->first.v[e->first.head];
	hi = &e->last.v[e->last.n - 1];
	e->found = true;
	e->lo = lo->pos;
	e->lo_row = lo->row;
	e->lo_trim = lo->has_trim ? lo->trim : lo->row;
	e->hi = hi->pos;
	e->hi_row = hi->row;
	if (hi->has_trim)
		e->hi_trim = hi->trim;
	return 0;
}

static void ends_release(struct ends *e)
{
	free(e->ring);
	free(e->first.v);
	free(e->last.v);
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
	if (rc == 0 && (p->conn_m.failed || p->rss_m.failed))
		rc = err_set("out of memory");
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

static int select_window(const struct trace_source *src, const struct window_options *opts,
			 struct window *out)
{
	struct window_pass p = {.want_conn = true, .want_memory = true};
	struct ramp ramp;
	struct ends e = {0};
	double mx, plateau;
	char text[96];
	int rc;
	memset(out, 0, sizeof(*out));
	if (src->n == 0)
		return err_set("the trace never has a connection: no loaded plateau");
	e.frac = opts->frac;
	e.trim = opts->trim;
	e.max = NAN;
	e.nring = opts->trim < src->n ? opts->trim + 1 : src->n;
	if (!(e.ring = malloc(e.nring * sizeof(*e.ring))))
		return err_set("out of memory");
	/* the rows with a conn, its maximum and the window's ends: one pass */
	rc = trace_source_scan(src, 0, 0, TRACE_COL_CONN | TRACE_COL_EPOCH, find_ends, &e);
	mx = isnan(e.max) ? -INFINITY : e.max;
	if (rc >= 0 && e.conn_rows < e.rows)
		rc = err_set("the trace has no connection count (conn): the loaded "
			     "plateau cannot be found");
	else if (rc >= 0 && !(mx > 0))
		rc = err_set("the trace never has a connection: no loaded plateau");
	if (rc >= 0)
		rc = ends_found(src, &e);
	ends_release(&e);
	if (rc < 0)
		return rc;
	if (!e.found) /* only a fraction above 1 can miss the maximum's own row */
		return err_set("no row has conn >= %g (%g x the maximum %g)", opts->frac * mx,
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

/*
 * The windows last found in database traces, by trace, identity and
 * options: a report asks for a run's window in its cores section and again
 * for the run's trace plot (and a re-imported trace has another identity).
 */
#define WINDOW_MEMO 8

static struct window_memo {
	bool used;
	sqlite3 *db;
	int64_t trace_id;
	uint64_t identity;
	size_t n;
	struct window_options opts;
	struct window w;
} memo[WINDOW_MEMO];
static size_t memo_next;

static bool memo_matches(const struct window_memo *m, const struct trace_source *src,
			 const struct window_options *opts)
{
	return m->used && m->db == src->db && m->trace_id == src->trace_id &&
	       m->identity == src->identity && m->n == src->n && m->opts.frac == opts->frac &&
	       m->opts.trim == opts->trim && m->opts.min_rows == opts->min_rows &&
	       m->opts.keep_ramp == opts->keep_ramp;
}

int window_select_source(const struct trace_source *src, const struct window_options *opts,
			 struct window *out)
{
	int rc;
	for (size_t i = 0; src->db && i < WINDOW_MEMO; i++)
		if (memo_matches(&memo[i], src, opts)) {
			*out = memo[i].w;
			return 0;
		}
	rc = select_window(src, opts, out);
	if (rc == 0 && src->db) {
		struct window_memo *m = &memo[memo_next++ % WINDOW_MEMO];
		*m = (struct window_memo){true,   src->db, src->trace_id, src->identity,
					  src->n, *opts,   *out};
	}
	return rc;
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
