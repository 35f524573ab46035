/*
 * translate_run: the arms of `coreplan translate` read from the database
 * (their runs, per-run values and CPU windows), the factors measured on
 * them, --check's measures and --apply-medians' own items (translate.h).
 */
#include "translate_internal.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- the arms ---- */

/* The extra fields each run is read with, in this order. */
enum {
	X_CPU_S,
	X_INTERACTIONS,
	X_IDLE,
	X_CPU_FAMILY,
	X_LOAD,
	X_P50,
	X_P95,
	X_P99,
	X_SESSIONS,
	X_THINK,
	X_GOMAXPROCS,
	X_DURATION,
	X_RAMP,
	X_WARMUP,
	X_SPAN,
	X_CLK_TCK,
	NX
};

/* Per-run columns of an arm. */
enum {
	V_RATE,
	V_CPU_LO,
	V_CPU_MID,
	V_CPU_HI,
	V_CPU_REC, /* cpu_s / interactions as recorded (the trace's figure without cpu_s) */
	V_CORES,
	V_IDLE,
	V_LOAD,
	V_P50,
	V_P95,
	V_P99,
	V_SESSIONS,
	V_THINK,
	V_GOMAXPROCS,
	NV
};

struct arm_values {
	double *v[NV];
	struct translate_cpu_run *cpu;
	enum translate_cpu_basis *basis;
	size_t n;
	bool all_trace;
};

static double field_number(const char *text)
{
	double v;
	return text && num_parse_real(text, &v) == 0 ? v : NAN;
}

static double think_seconds(const char *text)
{
	double v;
	if (!text)
		return NAN;
	if (num_parse_go_duration(text, &v) == 0 || num_parse_real(text, &v) == 0)
		return v;
	return NAN;
}

static void arm_values_release(struct arm_values *v)
{
	for (int i = 0; i < NV; i++)
		free(v->v[i]);
	free(v->cpu);
	free(v->basis);
	memset(v, 0, sizeof(*v));
}

/* The arm's name: its runs' common cpu_family, else its conditions. */
static void arm_name(struct translate_arm *arm, const char *where)
{
	const char *family = arm->sel.n ? arm->sel.runs[0].extra[X_CPU_FAMILY] : NULL;
	for (size_t i = 1; family && i < arm->sel.n; i++)
		if (!arm->sel.runs[i].extra[X_CPU_FAMILY] ||
		    strcmp(arm->sel.runs[i].extra[X_CPU_FAMILY], family))
			family = NULL;
	snprintf(arm->name, sizeof(arm->name), "%s", family ? family : where);
}

static double start_epoch(const char *started_at)
{
	struct tm tm;
	const char *end;
	if (!started_at)
		return NAN;
	memset(&tm, 0, sizeof(tm));
	end = strptime(started_at, "%Y-%m-%dT%H:%M:%S", &tm);
	return end ? (double)timegm(&tm) : NAN;
}

/* Stops a scan at the first row with connections. */
static int first_conn(size_t pos, const struct trace_row *row, void *arg)
{
	(void)pos;
	(void)arg;
	return isfinite(row->conn) && row->conn > 0;
}

/* The generator's window: the first and last rows whose epoch lies in [w0, w1]. */
struct epoch_window {
	double w0, w1;
	bool any;
	struct window *w;
	double epoch_lo, epoch_hi;
};

static int in_epochs(size_t pos, const struct trace_row *row, void *arg)
{
	struct epoch_window *e = arg;
	if (row->epoch < e->w0 || row->epoch > e->w1)
		return 0;
	if (!e->any) {
		e->w->lo = pos;
		e->w->lo_row_no = row->row_no;
		e->epoch_lo = row->epoch;
	}
	e->w->hi = pos;
	e->w->hi_row_no = row->row_no;
	e->epoch_hi = row->epoch;
	e->any = true;
	return 0;
}

/*
 * The app's CPU seconds over the counted window from the run's trace: the
 * loaded plateau when the trace counts connections, else the generator's
 * window (started_at + warmup_s .. + duration_s); as cores x duration_s.
 * NaN when the run has no trace, no clk_tck or no such window. The trace
 * is streamed from the database (window.h), never held: a scan for a row
 * with connections (it stops there), then the window rule's passes or one
 * pass over the epochs, then the figures' passes over the window.
 */
static int trace_cpu(sqlite3 *db, const struct sel_run *run, double *out)
{
	char **x = run->extra;
	double clk_tck = field_number(x[X_CLK_TCK]), dur = field_number(x[X_DURATION]);
	struct trace_source src;
	struct window w;
	struct cpu_figures fig;
	int rc, conn;
	*out = NAN;
	if (!(clk_tck > 0) || !(dur > 0))
		return 0;
	rc = trace_source_open(db, run->run_id, "sample", &src);
	if (rc < 0)
		return rc;
	if (rc > 0 || src.n < 2)
		return 0;
	conn = trace_source_scan(&src, 0, 0, TRACE_COL_CONN, first_conn, NULL);
	if (conn < 0)
		return conn;
	memset(&w, 0, sizeof(w));
	if (conn) {
		struct window_options opts;
		window_options_init(&opts);
		opts.keep_ramp = true; /* system.tsv's window, as this factor was defined */
		if (window_select_source(&src, &opts, &w) != 0) {
			err_clear();
			return 0;
		}
	} else {
		struct epoch_window e = {start_epoch(run->started_at) + field_number(x[X_WARMUP]),
					 0, false, &w, NAN, NAN};
		e.w1 = e.w0 + dur;
		if (!isfinite(e.w0))
			return 0;
		rc = trace_source_scan(&src, 0, 0, TRACE_COL_EPOCH, in_epochs, &e);
		if (rc < 0)
			return rc;
		if (!e.any || w.hi <= w.lo)
			return 0;
		w.rows = w.hi - w.lo + 1;
		w.seconds = e.epoch_hi - e.epoch_lo;
	}
	if (cpu_compute_source(&src, &w, clk_tck, NAN, WINDOW_TICK_MIN, &fig) != 0) {
		err_clear();
		return 0;
	}
	if (isfinite(fig.app_cores_wall))
		*out = fig.app_cores_wall * dur;
	return 0;
}

static int select_arm(sqlite3 *db, const struct translate_request *req, const char *where,
		      const char *what, struct translate_arm *arm)
{
	static const char *const extra[NX + 1] = {
		[X_CPU_S] = "cpu_s",           [X_INTERACTIONS] = "interactions",
		[X_IDLE] = "idle_rss_kb",      [X_CPU_FAMILY] = "cpu_family",
		[X_LOAD] = "load_rss_kb",      [X_P50] = "p50_ms",
		[X_P95] = "p95_ms",            [X_P99] = "p99_ms",
		[X_SESSIONS] = "sessions",     [X_THINK] = "think_time",
		[X_GOMAXPROCS] = "gomaxprocs", [X_DURATION] = "duration_s",
		[X_RAMP] = "ramp_s",           [X_WARMUP] = "warmup_s",
		[X_SPAN] = "cpu_s_span",       [X_CLK_TCK] = "clk_tck",
		[NX] = NULL};
	struct select_spec spec = {.filter = &arm->filter,
				   .metric = req->metric ? req->metric : "tput",
				   .extra = extra};
	int rc = run_filter_copy(&arm->filter, req->filter);
	if (rc == 0)
		rc = run_filter_add_conditions(&arm->filter, where, what);
	if (rc == 0)
		rc = select_runs(db, &spec, &arm->sel);
	if (rc)
		return rc;
	if (arm->sel.n == 0)
		return err_set("no runs for '%s' (check the conditions and --corpus)", where);
	arm_name(arm, where);
	return 0;
}

/* The arm's per-run values, CPU windows not yet chosen (arm_cpu). */
static int load_values(sqlite3 *db, const struct translate_arm *arm, struct arm_values *v)
{
	size_t n = arm->sel.n;
	memset(v, 0, sizeof(*v));
	v->n = n;
	for (int i = 0; i < NV; i++)
		if (!(v->v[i] = calloc(n, sizeof(double))))
			return err_set("out of memory");
	if (!(v->cpu = calloc(n, sizeof(*v->cpu))) || !(v->basis = calloc(n, sizeof(*v->basis))))
		return err_set("out of memory");
	v->all_trace = true;
	for (size_t i = 0; i < n; i++) {
		const struct sel_run *run = &arm->sel.runs[i];
		char **x = run->extra;
		struct translate_cpu_run *c = &v->cpu[i];
		int rc;
		v->v[V_RATE][i] = run->metric;
		v->v[V_IDLE][i] = field_number(x[X_IDLE]);
		v->v[V_LOAD][i] = field_number(x[X_LOAD]);
		v->v[V_P50][i] = field_number(x[X_P50]);
		v->v[V_P95][i] = field_number(x[X_P95]);
		v->v[V_P99][i] = field_number(x[X_P99]);
		v->v[V_SESSIONS][i] = field_number(x[X_SESSIONS]);
		v->v[V_THINK][i] = think_seconds(x[X_THINK]);
		v->v[V_GOMAXPROCS][i] = field_number(x[X_GOMAXPROCS]);
		*c = (struct translate_cpu_run){field_number(x[X_CPU_S]),
						field_number(x[X_INTERACTIONS]),
						field_number(x[X_DURATION]),
						field_number(x[X_RAMP]),
						field_number(x[X_WARMUP]),
						x[X_SPAN],
						NAN,
						false};
		rc = trace_cpu(db, run, &c->trace_cpu_s);
		if (rc)
			return rc;
		if (!isfinite(c->trace_cpu_s))
			v->all_trace = false;
	}
	return 0;
}

/* Each run's CPU bounds, with or without the traces. */
static void arm_cpu(struct arm_values *v, bool use_trace)
{
	for (size_t i = 0; i < v->n; i++) {
		struct translate_cpu_run *c = &v->cpu[i];
		c->use_trace = use_trace;
		translate_cpu_bounds(c, &v->v[V_CPU_LO][i], &v->v[V_CPU_MID][i], &v->v[V_CPU_HI][i],
				     &v->v[V_CORES][i], &v->basis[i]);
		v->v[V_CPU_REC][i] = isfinite(c->cpu_s) && c->interactions > 0
					     ? c->cpu_s * 1e6 / c->interactions
					     : v->v[V_CPU_MID][i];
		if (v->basis[i] == TCPU_UNKNOWN)
			v->v[V_CPU_REC][i] = NAN;
	}
}

/* How many runs of the arm have each basis. */
static void basis_counts(const struct arm_values *v, size_t counts[4])
{
	memset(counts, 0, 4 * sizeof(size_t));
	for (size_t i = 0; i < v->n; i++)
		counts[v->basis[i]]++;
}

/* One arm's CPU window in words ("apple-m1: cpu_s spans ramp 3 s + ..."). */
static void arm_cpu_words(struct strbuf *sb, const char *name, const struct arm_values *v)
{
	size_t c[4];
	basis_counts(v, c);
	if (c[TCPU_TRACE] == v->n) {
		strbuf_addf(sb, "%s: app CPU over each run's trace window (the loaded plateau, or "
				"started_at + warm-up for the counted window) / interactions",
			    name);
		return;
	}
	if (c[TCPU_WINDOW] == v->n) {
		strbuf_addf(sb, "%s: cpu_s covers the counted window (cpu_s_span=window) / "
				"interactions",
			    name);
		return;
	}
	if (c[TCPU_SPAN] == v->n) {
		const struct translate_cpu_run *r = &v->cpu[0];
		bool same = true;
		for (size_t i = 1; i < v->n; i++)
			same = same && v->cpu[i].ramp_s == r->ramp_s &&
			       v->cpu[i].warmup_s == r->warmup_s &&
			       v->cpu[i].duration_s == r->duration_s;
		if (same) {
			double span = r->ramp_s + r->warmup_s + r->duration_s;
			strbuf_addf(sb,
				    "%s: cpu_s spans ramp %g s + warm-up %g s + window %g s = %g s, "
				    "so its CPU per counted interaction lies between cpu_s x %g/%g "
				    "(the window's share) and all of cpu_s",
				    name, r->ramp_s, r->warmup_s, r->duration_s, span, r->duration_s,
				    span);
		} else
			strbuf_addf(sb,
				    "%s: cpu_s spans ramp + warm-up + window (per run), so its CPU "
				    "per counted interaction lies between the window's share of "
				    "cpu_s and all of it",
				    name);
		return;
	}
	strbuf_addf(sb, "%s: %zu runs over a trace window, %zu with cpu_s over the window, %zu "
			"with cpu_s over ramp + warm-up + window (bounded)",
		    name, c[TCPU_TRACE], c[TCPU_WINDOW], c[TCPU_SPAN]);
}

/* The CPU factor: windows matched, or the mismatch carried into the interval. */
static int cpu_factor(struct translate_result *r, struct arm_values *f, struct arm_values *t,
		      uint64_t seed)
{
	struct translate_factor *x = &r->factors[TRANSLATE_CPU];
	struct translate_input in = {TRANSLATE_CPU,   NULL,           f->v[V_CPU_MID],
				     f->v[V_CPU_LO],  f->v[V_CPU_HI], f->n,
				     t->v[V_CPU_MID], t->v[V_CPU_LO], t->v[V_CPU_HI],
				     t->n};
	bool use_trace = f->all_trace && t->all_trace;
	size_t cf[4], ct[4];
	struct strbuf sb = STRBUF_INIT;
	int rc;
	arm_cpu(f, use_trace);
	arm_cpu(t, use_trace);
	basis_counts(f, cf);
	basis_counts(t, ct);
	if (cf[TCPU_UNKNOWN] || ct[TCPU_UNKNOWN]) {
		bool from = cf[TCPU_UNKNOWN] > 0;
		translate_factor_begin(x, TRANSLATE_CPU, NULL);
		snprintf(x->words, sizeof(x->words),
			 "not measured: %zu of %s's runs have CPU seconds over an unknown span (no "
			 "trace window, no cpu_s_span=window, or cpu_s_span=run with ramp_s, "
			 "warmup_s and duration_s): the windows cannot be matched",
			 from ? cf[TCPU_UNKNOWN] : ct[TCPU_UNKNOWN], from ? r->from.name : r->to.name);
		return 0;
	}
	rc = translate_factor_compute(&in, seed, r->from.name, r->to.name, x);
	if (rc || !x->measured)
		return rc;
	if (use_trace)
		strbuf_addf(&sb, "windows matched on both sides' traces: ");
	else if (cf[TCPU_SPAN] || ct[TCPU_SPAN])
		strbuf_addf(&sb, "windows mismatched, carried into the interval: ");
	else
		strbuf_addf(&sb, "windows matched: ");
	arm_cpu_words(&sb, r->from.name, f);
	strbuf_adds(&sb, "; ");
	arm_cpu_words(&sb, r->to.name, t);
	if (cf[TCPU_SPAN] || ct[TCPU_SPAN])
		strbuf_adds(&sb, "; factor on the midpoints, interval from the bootstrap of each "
				 "end");
	snprintf(x->method, sizeof(x->method), "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return 0;
}

/* OLS of load_rss_kb on sessions over an arm, or why there is none. */
static bool arm_slope(const struct arm_values *v, const char *name, struct ols *out, char *why,
		      size_t len)
{
	double *x = malloc((v->n ? v->n : 1) * sizeof(double));
	double *y = malloc((v->n ? v->n : 1) * sizeof(double));
	double first = NAN;
	size_t n = 0, levels = 0;
	bool ok = false;
	if (!x || !y) {
		snprintf(why, len, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < v->n; i++) {
		if (!isfinite(v->v[V_SESSIONS][i]) || !isfinite(v->v[V_LOAD][i]))
			continue;
		x[n] = v->v[V_SESSIONS][i];
		y[n] = v->v[V_LOAD][i];
		if (n == 0)
			first = x[0];
		else if (x[n] != first)
			levels = 2;
		n++;
	}
	if (n > 0 && levels == 0)
		levels = 1;
	if (levels < 2) {
		if (levels == 1)
			snprintf(why, len,
				 "%s's runs have one session count (%g): no per-session slope (it "
				 "needs a session sweep on both sides)",
				 name, first);
		else
			snprintf(why, len, "%s's runs have no sessions and load_rss_kb", name);
		goto done;
	}
	if (n < 3) {
		snprintf(why, len, "%s has %zu runs with sessions and load_rss_kb: an OLS needs 3",
			 name, n);
		goto done;
	}
	if (stats_ols(x, y, n, out) != 0) {
		snprintf(why, len, "%s: %s", name, err_msg());
		err_clear();
		goto done;
	}
	ok = true;
done:
	free(x);
	free(y);
	return ok;
}

static void shape_of(const struct arm_values *v, const char *name, struct translate_shape *s)
{
	*s = (struct translate_shape){name, v->n, v->v[V_THINK], v->v[V_SESSIONS], v->v[V_CORES],
				      v->v[V_GOMAXPROCS]};
}

static void latency_method(struct translate_factor *x, const struct translate_result *r,
			   const struct arm_values *f, const struct arm_values *t)
{
	snprintf(x->method, sizeof(x->method),
		 "both arms closed-loop (think time 0) at %g sessions, the app CPU-saturated "
		 "(cores >= %.1f x gomaxprocs: %s %.3f-%.3f, %s %.3f-%.3f)",
		 f->v[V_SESSIONS][0], TRANSLATE_SATURATED, r->from.name,
		 translate_min_of(f->v[V_CORES], f->n), translate_max_of(f->v[V_CORES], f->n), r->to.name,
		 translate_min_of(t->v[V_CORES], t->n), translate_max_of(t->v[V_CORES], t->n));
}

static int compute(struct translate_result *r, struct arm_values *f, struct arm_values *t,
		   const char *metric, uint64_t seed)
{
	const struct translate_input plain[] = {
		{TRANSLATE_RATE, metric, f->v[V_RATE], NULL, NULL, f->n, t->v[V_RATE], NULL, NULL,
		 t->n},
		{TRANSLATE_IDLE, NULL, f->v[V_IDLE], NULL, NULL, f->n, t->v[V_IDLE], NULL, NULL, t->n},
		{TRANSLATE_LOADED, NULL, f->v[V_LOAD], NULL, NULL, f->n, t->v[V_LOAD], NULL, NULL,
		 t->n},
	};
	const struct translate_factor *rate = &r->factors[TRANSLATE_RATE];
	struct translate_shape sf, st;
	struct ols of, ot;
	char why[512] = "", why_from[256] = "", why_to[256] = "";
	bool hf, ht;
	struct metric_meaning meaning;
	int rc = cpu_factor(r, f, t, seed);
	for (size_t i = 0; rc == 0 && i < sizeof(plain) / sizeof(plain[0]); i++)
		rc = translate_factor_compute(&plain[i], seed, r->from.name, r->to.name,
					      &r->factors[plain[i].kind]);
	if (rc)
		return rc;
	/* the rate factor needs a rate: a metric known to be something else gives none */
	field_metric_meaning(metric, NULL, false, &meaning);
	if (meaning.kind != FIELD_KIND_RATE && !meaning.kind_assumed) {
		struct translate_factor *x = &r->factors[TRANSLATE_RATE];
		translate_factor_begin(x, TRANSLATE_RATE, metric);
		snprintf(x->words, sizeof(x->words),
			 "not measured: the metric %s is a %s (%s), not a rate of work", metric,
			 field_kind_name(meaning.kind), meaning.kind_from);
	}
	/* the slope: an OLS on each side */
	hf = arm_slope(f, r->from.name, &of, why_from, sizeof(why_from));
	ht = arm_slope(t, r->to.name, &ot, why_to, sizeof(why_to));
	snprintf(why, sizeof(why), "%s%s%s", hf ? "" : why_from, !hf && !ht ? "; " : "",
		 ht ? "" : why_to);
	rc = translate_slope_factor(hf && ht ? &of : NULL, hf && ht ? &ot : NULL, why,
				    r->from.name, r->to.name, &r->factors[TRANSLATE_SLOPE]);
	/* latency: only between CPU-saturated closed-loop arms at the same sessions */
	shape_of(f, r->from.name, &sf);
	shape_of(t, r->to.name, &st);
	if (rc == 0 && translate_latency_comparable(&sf, &st, why, sizeof(why))) {
		const struct translate_input lat = {TRANSLATE_LATENCY, NULL, f->v[V_P50], NULL, NULL,
						    f->n, t->v[V_P50], NULL, NULL, t->n};
		rc = translate_factor_compute(&lat, seed, r->from.name, r->to.name,
					      &r->factors[TRANSLATE_LATENCY]);
		if (rc == 0 && r->factors[TRANSLATE_LATENCY].measured)
			latency_method(&r->factors[TRANSLATE_LATENCY], r, f, t);
	} else if (rc == 0) {
		struct translate_factor *x = &r->factors[TRANSLATE_LATENCY];
		translate_factor_begin(x, TRANSLATE_LATENCY, NULL);
		snprintf(x->words, sizeof(x->words), "not measured: %.490s", why);
	}
	if (rc == 0 && rate->measured) {
		double a = rate->from.mean / rate->to.median, b = rate->from.median / rate->to.mean;
		r->has_mixed = true;
		r->mixed_lo = fmin(a, b);
		r->mixed_hi = fmax(a, b);
		r->mixed_lo_mean_first = a <= b;
	}
	return rc;
}

/* ---- --check: the same figures measured on the target runs ---- */

static void measure_median(struct translate_measure *m, const double *x, size_t n,
			   const char *what, const char *unit)
{
	double *copy = malloc((n ? n : 1) * sizeof(double));
	size_t k = 0;
	memset(m, 0, sizeof(*m));
	m->value = NAN;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	for (size_t i = 0; copy && i < n; i++)
		if (isfinite(x[i]))
			copy[k++] = x[i];
	if (k > 0 && stats_median(copy, k, &m->value) == 0) {
		m->known = true;
		m->n = k;
		snprintf(m->what, sizeof(m->what), "median %s", what);
	} else
		snprintf(m->what, sizeof(m->what), "no %s on the check runs", what);
	free(copy);
}

static void check_measures(struct translate_result *r, struct arm_values *c, const char *metric)
{
	struct ols o;
	char why[512];
	struct translate_measure *m = r->measures;
	arm_cpu(c, c->all_trace);
	measure_median(&m[TM_RATE], c->v[V_RATE], c->n, metric, field_unit(metric));
	measure_median(&m[TM_CPU], c->v[V_CPU_MID], c->n, "CPU us per counted interaction", "us");
	measure_median(&m[TM_IDLE], c->v[V_IDLE], c->n, "idle_rss_kb", "kB");
	measure_median(&m[TM_LOADED], c->v[V_LOAD], c->n, "load_rss_kb", "kB");
	measure_median(&m[TM_P50], c->v[V_P50], c->n, "p50_ms", "ms");
	measure_median(&m[TM_P95], c->v[V_P95], c->n, "p95_ms", "ms");
	measure_median(&m[TM_P99], c->v[V_P99], c->n, "p99_ms", "ms");
	memset(&m[TM_SLOPE], 0, sizeof(m[TM_SLOPE]));
	m[TM_SLOPE].value = NAN;
	snprintf(m[TM_SLOPE].unit, sizeof(m[TM_SLOPE].unit), "kB/session");
	if (arm_slope(c, r->check.name, &o, why, sizeof(why))) {
		m[TM_SLOPE].known = true;
		m[TM_SLOPE].value = o.slope;
		m[TM_SLOPE].n = o.n;
		snprintf(m[TM_SLOPE].what, sizeof(m[TM_SLOPE].what),
			 "OLS slope of load_rss_kb on sessions");
	} else
		snprintf(m[TM_SLOPE].what, sizeof(m[TM_SLOPE].what), "no session sweep");
	for (size_t i = 0; i < r->check.sel.n && !r->check_is_to; i++)
		for (size_t j = 0; j < r->to.sel.n && !r->check_is_to; j++)
			r->check_is_to = r->check.sel.runs[i].run_id == r->to.sel.runs[j].run_id;
}

static void check_applied(struct translate_result *r)
{
	for (size_t i = 0; i < r->napplied; i++) {
		struct translate_applied *a = &r->applied[i];
		const struct translate_measure *m = &r->measures[a->measure];
		double scale = units_scale(m->unit, a->unit);
		if (!m->known) {
			snprintf(a->check, sizeof(a->check), "not checked: %s", m->what);
			continue;
		}
		if (isnan(scale)) {
			snprintf(a->check, sizeof(a->check),
				 "not checked: the check runs measure %s in %s, not %s", m->what,
				 m->unit[0] ? m->unit : "an unknown unit", a->unit);
			continue;
		}
		a->measured = m->value * scale;
		a->measured_n = m->n;
		if (!a->translated) {
			snprintf(a->check, sizeof(a->check), "not checked: not translated");
			continue;
		}
		a->checked = true;
		a->inside = a->lo <= a->measured && a->measured <= a->hi;
		snprintf(a->check, sizeof(a->check), "%s", a->inside ? "inside" : "outside");
	}
}

/* ---- --apply-medians: the from-arm's own medians as items ---- */

static int own_items(struct translate_result *r, const struct arm_values *f, const char *metric)
{
	struct own {
		enum translate_kind kind;
		const double *x;
		const char *name, *unit;
	};
	const struct field_info *info = field_find(metric);
	const char *rate_unit = info && units_family(info->unit) == UNIT_RATE ? info->unit
				: !strcmp(metric, "tput")                            ? "int/s"
										     : "/s";
	const struct own list[] = {
		{TRANSLATE_RATE, f->v[V_RATE], NULL, rate_unit},
		{TRANSLATE_CPU, f->v[V_CPU_REC], "median CPU per interaction (cpu_s / interactions "
						 "as recorded)",
		 "us"},
		{TRANSLATE_IDLE, f->v[V_IDLE], "median idle_rss_kb", "kB"},
		{TRANSLATE_LOADED, f->v[V_LOAD], "median load_rss_kb", "kB"},
		{TRANSLATE_SLOPE, NULL, "OLS slope of load_rss_kb on sessions", "kB/session"},
		{TRANSLATE_LATENCY, f->v[V_P50], "median p50_ms", "ms"},
	};
	size_t n = sizeof(list) / sizeof(list[0]);
	r->own_items = calloc(n, sizeof(*r->own_items));
	r->own_text = calloc(n, sizeof(*r->own_text));
	if (!r->own_items || !r->own_text)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct own *o = &list[i];
		const struct translate_factor *x = &r->factors[o->kind];
		struct translate_measure m;
		char buf[32];
		double value;
		if (o->x) {
			measure_median(&m, o->x, f->n, "", "");
			if (!m.known)
				continue;
			value = m.value;
		} else if (x->measured)
			value = x->from.median; /* the slope */
		else
			continue;
		if (o->kind == TRANSLATE_RATE)
			snprintf(r->own_text[r->nown][0], sizeof(r->own_text[0][0]), "median %s",
				 metric);
		else
			snprintf(r->own_text[r->nown][0], sizeof(r->own_text[0][0]), "%s", o->name);
		snprintf(r->own_text[r->nown][1], sizeof(r->own_text[0][1]), "%s",
			 num_format_real(value, buf));
		r->own_items[r->nown] = (struct translate_item){
			r->own_text[r->nown][0], r->own_text[r->nown][1], o->unit,
			translate_kind_name(o->kind), 0, 0, 0, 0};
		r->nown++;
	}
	return 0;
}

int translate_run(sqlite3 *db, const struct translate_request *req, struct translate_result *out)
{
	const char *metric = req->metric ? req->metric : "tput";
	struct arm_values from = {0}, to = {0}, check = {0};
	size_t n;
	int rc;
	memset(out, 0, sizeof(*out));
	rc = select_arm(db, req, req->from, "--from", &out->from);
	if (rc == 0)
		rc = select_arm(db, req, req->to, "--to", &out->to);
	if (rc == 0 && req->check) {
		out->has_check = true;
		rc = select_arm(db, req, req->check, "--check", &out->check);
	}
	if (rc == 0)
		rc = load_values(db, &out->from, &from);
	if (rc == 0)
		rc = load_values(db, &out->to, &to);
	if (rc == 0 && req->check)
		rc = load_values(db, &out->check, &check);
	if (rc == 0)
		rc = compute(out, &from, &to, metric, req->seed);
	if (rc == 0 && req->apply_medians)
		rc = own_items(out, &from, metric);
	n = req->nitems + out->nown;
	if (rc == 0 && n && !(out->applied = calloc(n, sizeof(*out->applied))))
		rc = err_set("out of memory");
	if (rc == 0 && req->nitems)
		rc = translate_apply(out->factors, req->items, req->nitems, req->items_path,
				     out->applied);
	if (rc == 0 && out->nown)
		rc = translate_apply(out->factors, out->own_items, out->nown, "--apply-medians",
				     out->applied + req->nitems);
	if (rc == 0)
		out->napplied = n;
	if (rc == 0 && req->check) {
		check_measures(out, &check, metric);
		check_applied(out);
	}
	arm_values_release(&from);
	arm_values_release(&to);
	arm_values_release(&check);
	if (rc)
		translate_result_release(out);
	return rc;
}

void translate_result_release(struct translate_result *r)
{
	struct translate_arm *arms[] = {&r->from, &r->to, &r->check};
	for (size_t i = 0; i < 3; i++) {
		run_filter_release(&arms[i]->filter);
		selection_release(&arms[i]->sel);
	}
	free(r->own_items);
	free(r->own_text);
	free(r->applied);
	memset(r, 0, sizeof(*r));
}

int translate_rate_factor(sqlite3 *db, const struct run_filter *filter, const char *from,
			  const char *to, const char *metric, uint64_t seed,
			  struct translate_rate *out)
{
	struct translate_request req;
	struct translate_result res;
	int rc;
	memset(&req, 0, sizeof(req));
	memset(out, 0, sizeof(*out));
	req.filter = filter;
	req.from = from;
	req.to = to;
	req.metric = metric;
	req.seed = seed;
	rc = translate_run(db, &req, &res);
	if (rc)
		return rc;
	out->factor = res.factors[TRANSLATE_RATE];
	snprintf(out->from_name, sizeof(out->from_name), "%s", res.from.name);
	snprintf(out->to_name, sizeof(out->to_name), "%s", res.to.name);
	out->from_runs = res.from.sel.n;
	out->to_runs = res.to.sel.n;
	translate_result_release(&res);
	return 0;
}
