/* translate: see translate.h. */
#include "translate.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/units.h"
#include "window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- kinds and units ---- */

static const char *const kind_names[TRANSLATE_NKINDS] = {
	"rate", "cpu_time", "idle_memory", "loaded_memory", "session_slope", "latency"};

const char *translate_kind_name(enum translate_kind kind)
{
	return kind < TRANSLATE_NKINDS ? kind_names[kind] : NULL;
}

int translate_kind_parse(const char *word, enum translate_kind *kind)
{
	for (int i = 0; i < TRANSLATE_NKINDS; i++)
		if (!strcasecmp(word, kind_names[i])) {
			*kind = (enum translate_kind)i;
			return 0;
		}
	return -1;
}

/* Does name hold one of words (ASCII, any case)? */
static bool name_says(const char *name, const char *const *words)
{
	for (size_t i = 0; name && words[i]; i++) {
		size_t len = strlen(words[i]);
		for (const char *p = name; *p; p++)
			if (!strncasecmp(p, words[i], len))
				return true;
	}
	return false;
}

static const char *const latency_words[] = {"latency", "p50", "p90", "p95", "p99", NULL};

/* The unit family a kind needs. */
static enum unit_family kind_unit(enum translate_kind kind)
{
	switch (kind) {
	case TRANSLATE_RATE:
		return UNIT_RATE;
	case TRANSLATE_CPU:
	case TRANSLATE_LATENCY:
		return UNIT_TIME;
	case TRANSLATE_IDLE:
	case TRANSLATE_LOADED:
		return UNIT_MEMORY;
	case TRANSLATE_SLOPE:
		return UNIT_PER_SESSION;
	case TRANSLATE_NKINDS:
		break;
	}
	return UNIT_UNKNOWN;
}

static const char *unit_family_words(enum unit_family u)
{
	static const char *const words[] = {"a rate (int/s, qps, MB/s, ...)",
					    "a time (ns, us, ms, s, ...)",
					    "a memory size (kB, MiB, ...)",
					    "a memory per session (kB/session, ...)", "no unit"};
	return words[u];
}

int translate_item_kind(const char *name, const char *unit, const char *kind_word,
			enum translate_kind *kind, const char **how)
{
	enum unit_family u = units_family(unit);
	if (u == UNIT_UNKNOWN)
		return err_set("unknown unit '%s' (known: %s)", unit ? unit : "", units_known);
	if (kind_word && *kind_word) {
		if (translate_kind_parse(kind_word, kind))
			return err_set("unknown kind '%s' (rate, cpu_time, idle_memory, loaded_memory, "
				       "session_slope, latency)",
				       kind_word);
		if (kind_unit(*kind) != u)
			return err_set("kind '%s' needs %s, not '%s'", kind_word,
				       unit_family_words(kind_unit(*kind)), unit);
		*how = "kind column";
		return 0;
	}
	*how = "unit";
	switch (u) {
	case UNIT_RATE:
		*kind = TRANSLATE_RATE;
		break;
	case UNIT_TIME:
		*kind = name_says(name, latency_words) ? TRANSLATE_LATENCY : TRANSLATE_CPU;
		if (*kind == TRANSLATE_LATENCY)
			*how = "unit and name";
		break;
	case UNIT_MEMORY: {
		static const char *const idle[] = {"idle", NULL};
		*kind = name_says(name, idle) ? TRANSLATE_IDLE : TRANSLATE_LOADED;
		if (*kind == TRANSLATE_IDLE)
			*how = "unit and name";
		break;
	}
	case UNIT_PER_SESSION:
		*kind = TRANSLATE_SLOPE;
		break;
	case UNIT_UNKNOWN:
		break;
	}
	return 0;
}

/* ---- factors ---- */

static double center(const struct summary *s, bool mean)
{
	return mean ? s->mean : s->median;
}

/* The words and rule of a measured factor. */
static void describe(struct translate_factor *f, const char *from_name, const char *to_name,
		     bool bounded)
{
	double pct = (f->factor - 1.0) * 100.0;
	const char *more = pct < 0 ? "less" : "more";
	if (!f->to_over_from) {
		snprintf(f->rule, sizeof(f->rule), "to-rate = from-rate / %.3f", f->factor);
		snprintf(f->words, sizeof(f->words), "%s does %.2fx the work per second of %s",
			 from_name, f->factor, to_name);
		return;
	}
	snprintf(f->rule, sizeof(f->rule), "to = from x %.3f", f->factor);
	switch (f->kind) {
	case TRANSLATE_CPU:
		if (bounded)
			snprintf(f->words, sizeof(f->words),
				 "%s needs %.2fx the CPU time per operation of %s (%.2fx to %.2fx "
				 "as the windows are bounded)",
				 to_name, f->factor, from_name, f->end_lo, f->end_hi);
		else
			snprintf(f->words, sizeof(f->words),
				 "%s needs %.2fx the CPU time per operation of %s", to_name,
				 f->factor, from_name);
		break;
	case TRANSLATE_IDLE:
		snprintf(f->words, sizeof(f->words), "%s uses %.1f%% %s than %s at idle", to_name,
			 fabs(pct), more, from_name);
		break;
	case TRANSLATE_LOADED:
		snprintf(f->words, sizeof(f->words), "%s uses %.1f%% %s than %s under load",
			 to_name, fabs(pct), more, from_name);
		break;
	case TRANSLATE_SLOPE:
		snprintf(f->words, sizeof(f->words), "%s uses %.1f%% %s memory per session than %s",
			 to_name, fabs(pct), more, from_name);
		break;
	case TRANSLATE_LATENCY:
		snprintf(f->words, sizeof(f->words), "%s's p50 latency is %.2fx %s's", to_name,
			 f->factor, from_name);
		break;
	case TRANSLATE_RATE:
	case TRANSLATE_NKINDS:
		break;
	}
}

static void factor_init(struct translate_factor *f, enum translate_kind kind)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->to_over_from = kind != TRANSLATE_RATE;
	snprintf(f->statistic, sizeof(f->statistic), "%s",
		 kind == TRANSLATE_SLOPE ? "OLS slope" : "median");
	f->factor = f->ci_lo = f->ci_hi = f->end_lo = f->end_hi = NAN;
	f->mean_factor = f->range_lo = f->range_hi = NAN;
	f->from_lo = f->from_hi = f->to_lo = f->to_hi = NAN;
}

/* One side's values: run i kept when its value and bounds are finite. */
struct side {
	double *v, *lo, *hi;
	size_t n;
};

static void side_release(struct side *s)
{
	free(s->v);
	free(s->lo);
	free(s->hi);
}

static int side_copy(const double *v, const double *lo, const double *hi, size_t n,
		     struct side *out)
{
	size_t alloc = n ? n : 1;
	memset(out, 0, sizeof(*out));
	out->v = malloc(alloc * sizeof(double));
	out->lo = malloc(alloc * sizeof(double));
	out->hi = malloc(alloc * sizeof(double));
	if (!out->v || !out->lo || !out->hi)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++) {
		double l = lo ? lo[i] : v[i], h = hi ? hi[i] : v[i];
		if (!isfinite(v[i]) || !isfinite(l) || !isfinite(h))
			continue;
		out->v[out->n] = v[i];
		out->lo[out->n] = l;
		out->hi[out->n] = h;
		out->n++;
	}
	return 0;
}

static bool bounded(const struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->lo[i] != s->hi[i])
			return true;
	return false;
}

static double min_of(const double *x, size_t n)
{
	double m = INFINITY;
	for (size_t i = 0; i < n; i++)
		m = fmin(m, x[i]);
	return m;
}

static double max_of(const double *x, size_t n)
{
	double m = -INFINITY;
	for (size_t i = 0; i < n; i++)
		m = fmax(m, x[i]);
	return m;
}

static double median_of(const double *x, size_t n)
{
	double m = NAN;
	return stats_median(x, n, &m) == 0 ? m : NAN;
}

/* The bootstrap interval of num / den (medians): num and den as stats_bootstrap_median_ratio's b, a. */
static int boot(const double *den, size_t nden, const double *num, size_t nnum, uint64_t seed,
		double *lo, double *hi)
{
	struct ratio_ci ci;
	int rc = stats_bootstrap_median_ratio(den, nden, num, nnum, TRANSLATE_RESAMPLES, seed, &ci);
	if (rc == 0) {
		*lo = ci.lo;
		*hi = ci.hi;
	}
	return rc;
}

static const char *measure_of(enum translate_kind kind)
{
	static const char *const names[TRANSLATE_NKINDS] = {
		"the metric",  "CPU us per counted interaction", "idle_rss_kb",
		"load_rss_kb", "load_rss_kb on sessions",        "p50_ms"};
	return names[kind];
}

int translate_factor_compute(const struct translate_input *in, uint64_t seed,
			     const char *from_name, const char *to_name,
			     struct translate_factor *out)
{
	struct side a = {0}, b = {0};
	bool wide;
	int rc;
	factor_init(out, in->kind);
	snprintf(out->measure, sizeof(out->measure), "%s",
		 in->measure ? in->measure : measure_of(in->kind));
	rc = side_copy(in->from, in->from_lo, in->from_hi, in->nfrom, &a);
	if (rc == 0)
		rc = side_copy(in->to, in->to_lo, in->to_hi, in->nto, &b);
	if (rc)
		goto done;
	if (a.n == 0 || b.n == 0) {
		snprintf(out->words, sizeof(out->words), "not measured: no %s values on the %s side (%s)",
			 out->measure, a.n == 0 ? "from" : "to", a.n == 0 ? from_name : to_name);
		goto done;
	}
	if (min_of(a.lo, a.n) <= 0 || min_of(b.lo, b.n) <= 0) {
		bool from = min_of(a.lo, a.n) <= 0;
		snprintf(out->words, sizeof(out->words),
			 "not measured: a %s value of 0 or below on the %s side (%s): no ratio",
			 out->measure, from ? "from" : "to", from ? from_name : to_name);
		goto done;
	}
	rc = stats_summary(a.v, a.n, &out->from);
	if (rc == 0)
		rc = stats_summary(b.v, b.n, &out->to);
	if (rc)
		goto done;
	out->measured = true;
	out->from_lo = min_of(a.lo, a.n);
	out->from_hi = max_of(a.hi, a.n);
	out->to_lo = min_of(b.lo, b.n);
	out->to_hi = max_of(b.hi, b.n);
	wide = bounded(&a) || bounded(&b);
	if (out->to_over_from) {
		out->factor = center(&out->to, false) / center(&out->from, false);
		out->mean_factor = center(&out->to, true) / center(&out->from, true);
		out->range_lo = out->to_lo / out->from_hi;
		out->range_hi = out->to_hi / out->from_lo;
		if (!wide)
			rc = boot(a.v, a.n, b.v, b.n, seed, &out->ci_lo, &out->ci_hi);
		else {
			double unused;
			/* the low end: the to-side's low ends over the from-side's high ends */
			rc = boot(a.hi, a.n, b.lo, b.n, seed, &out->ci_lo, &unused);
			if (rc == 0)
				rc = boot(a.lo, a.n, b.hi, b.n, seed, &unused, &out->ci_hi);
			out->end_lo = median_of(b.lo, b.n) / median_of(a.hi, a.n);
			out->end_hi = median_of(b.hi, b.n) / median_of(a.lo, a.n);
		}
	} else {
		out->factor = center(&out->from, false) / center(&out->to, false);
		out->mean_factor = center(&out->from, true) / center(&out->to, true);
		out->range_lo = out->from_lo / out->to_hi;
		out->range_hi = out->from_hi / out->to_lo;
		if (!wide)
			rc = boot(b.v, b.n, a.v, a.n, seed, &out->ci_lo, &out->ci_hi);
		else {
			double unused;
			rc = boot(b.hi, b.n, a.lo, a.n, seed, &out->ci_lo, &unused);
			if (rc == 0)
				rc = boot(b.lo, b.n, a.hi, a.n, seed, &unused, &out->ci_hi);
			out->end_lo = median_of(a.lo, a.n) / median_of(b.hi, b.n);
			out->end_hi = median_of(a.hi, a.n) / median_of(b.lo, b.n);
		}
	}
	if (rc)
		goto done;
	out->has_ci = true;
	describe(out, from_name, to_name, wide);
done:
	side_release(&a);
	side_release(&b);
	return rc;
}

int translate_slope_factor(const struct ols *from, const struct ols *to, const char *why,
			   const char *from_name, const char *to_name, struct translate_factor *out)
{
	factor_init(out, TRANSLATE_SLOPE);
	snprintf(out->measure, sizeof(out->measure), "%s", measure_of(TRANSLATE_SLOPE));
	if (!from || !to) {
		snprintf(out->words, sizeof(out->words), "not measured: %s",
			 why && *why ? why : "no session sweep");
		return 0;
	}
	out->from.n = from->n;
	out->to.n = to->n;
	out->from.median = out->from.mean = from->slope;
	out->to.median = out->to.mean = to->slope;
	out->from_lo = from->slope_lo;
	out->from_hi = from->slope_hi;
	out->to_lo = to->slope_lo;
	out->to_hi = to->slope_hi;
	if (!(from->slope_lo > 0) || !(to->slope_lo > 0)) {
		bool f = !(from->slope_lo > 0);
		snprintf(out->words, sizeof(out->words),
			 "not measured: the %s side's (%s) slope's 95%% interval [%.4g, %.4g] kB per "
			 "session reaches 0: no ratio",
			 f ? "from" : "to", f ? from_name : to_name, f ? from->slope_lo : to->slope_lo,
			 f ? from->slope_hi : to->slope_hi);
		return 0;
	}
	out->measured = true;
	out->factor = to->slope / from->slope;
	out->has_ci = true;
	out->ci_lo = to->slope_lo / from->slope_hi;
	out->ci_hi = to->slope_hi / from->slope_lo;
	snprintf(out->method, sizeof(out->method),
		 "OLS of load_rss_kb on sessions on each side (%zu and %zu runs); interval: the "
		 "ratio of the slopes' 95%% intervals' ends",
		 from->n, to->n);
	describe(out, from_name, to_name, false);
	return 0;
}

/* ---- CPU windows ---- */

const char *translate_cpu_basis_name(enum translate_cpu_basis basis)
{
	static const char *const names[] = {"trace", "window", "span", "unknown"};
	return names[basis];
}

void translate_cpu_bounds(const struct translate_cpu_run *r, double *lo, double *mid,
			  double *hi, double *cores, enum translate_cpu_basis *basis)
{
	bool ints = isfinite(r->interactions) && r->interactions > 0;
	bool dur = isfinite(r->duration_s) && r->duration_s > 0;
	bool cpu = isfinite(r->cpu_s) && r->cpu_s >= 0;
	bool span_known = r->span && !strcmp(r->span, "run") && dur && isfinite(r->ramp_s) &&
			  r->ramp_s >= 0 && isfinite(r->warmup_s) && r->warmup_s >= 0;
	bool trace = isfinite(r->trace_cpu_s) && r->trace_cpu_s >= 0 && dur;
	*lo = *mid = *hi = *cores = NAN;
	*basis = TCPU_UNKNOWN;
	if (!ints)
		return;
	if (r->use_trace && trace) {
		*basis = TCPU_TRACE;
		*lo = *mid = *hi = r->trace_cpu_s * 1e6 / r->interactions;
		*cores = r->trace_cpu_s / r->duration_s;
	} else if (cpu && r->span && !strcmp(r->span, "window")) {
		*basis = TCPU_WINDOW;
		*lo = *mid = *hi = r->cpu_s * 1e6 / r->interactions;
		*cores = dur ? r->cpu_s / r->duration_s : NAN;
	} else if (trace) {
		*basis = TCPU_TRACE;
		*lo = *mid = *hi = r->trace_cpu_s * 1e6 / r->interactions;
		*cores = r->trace_cpu_s / r->duration_s;
	} else if (cpu && span_known) {
		double span = r->ramp_s + r->warmup_s + r->duration_s;
		*basis = TCPU_SPAN;
		*hi = r->cpu_s * 1e6 / r->interactions;
		*lo = *hi * r->duration_s / span;
		*mid = (*lo + *hi) / 2;
		*cores = r->cpu_s / span;
	}
}

/* ---- latency ---- */

static bool all_equal(const double *x, size_t n, double *value)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || x[i] != x[0])
			return false;
	*value = n ? x[0] : NAN;
	return n > 0;
}

/* Every run closed-loop and saturated? The first failing condition into why. */
static bool shape_ok(const struct translate_shape *s, char *why, size_t len)
{
	for (size_t i = 0; i < s->n; i++) {
		if (!isfinite(s->think_s[i])) {
			snprintf(why, len, "%s's runs do not say their think time: closed loop unknown",
				 s->name);
			return false;
		}
		if (s->think_s[i] != 0) {
			snprintf(why, len, "%s's runs are not closed-loop (think time %g s)", s->name,
				 s->think_s[i]);
			return false;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		if (!isfinite(s->gomaxprocs[i]) || !(s->gomaxprocs[i] > 0)) {
			snprintf(why, len,
				 "%s's runs have no gomaxprocs: CPU saturation cannot be judged",
				 s->name);
			return false;
		}
		if (!isfinite(s->cores[i])) {
			snprintf(why, len,
				 "%s's runs have no app CPU over their window: CPU saturation cannot "
				 "be judged",
				 s->name);
			return false;
		}
		if (s->cores[i] < TRANSLATE_SATURATED * s->gomaxprocs[i]) {
			snprintf(why, len,
				 "%s's app is not CPU-saturated (%.3f cores at gomaxprocs %g, below "
				 "%.1f of it): its latency is not set by the CPU",
				 s->name, s->cores[i], s->gomaxprocs[i], TRANSLATE_SATURATED);
			return false;
		}
	}
	return true;
}

bool translate_latency_comparable(const struct translate_shape *from,
				  const struct translate_shape *to, char *why, size_t len)
{
	double sf, st;
	if (!shape_ok(from, why, len) || !shape_ok(to, why, len))
		return false;
	if (!all_equal(from->sessions, from->n, &sf) || !all_equal(to->sessions, to->n, &st)) {
		snprintf(why, len, "%s's runs are not all at one session count",
			 all_equal(from->sessions, from->n, &sf) ? to->name : from->name);
		return false;
	}
	if (sf != st) {
		snprintf(why, len, "the arms ran different session counts (%g and %g)", sf, st);
		return false;
	}
	return true;
}

/* ---- apply ---- */

enum translate_measure_id translate_measure_for(enum translate_kind kind, const char *name)
{
	static const char *const p95[] = {"p95", NULL}, *const p99[] = {"p99", NULL};
	switch (kind) {
	case TRANSLATE_RATE:
		return TM_RATE;
	case TRANSLATE_CPU:
		return TM_CPU;
	case TRANSLATE_IDLE:
		return TM_IDLE;
	case TRANSLATE_LOADED:
		return TM_LOADED;
	case TRANSLATE_SLOPE:
		return TM_SLOPE;
	case TRANSLATE_LATENCY:
	case TRANSLATE_NKINDS:
		break;
	}
	if (name_says(name, p95))
		return TM_P95;
	return name_says(name, p99) ? TM_P99 : TM_P50;
}

int translate_apply(const struct translate_factor *factors, const struct translate_item *items,
		    size_t n, const char *display, struct translate_applied *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct translate_item *it = &items[i];
		struct translate_applied *a = &out[i];
		const struct translate_factor *f;
		double lo, hi;
		memset(a, 0, sizeof(*a));
		a->name = it->name;
		a->unit = it->unit;
		a->translated_value = a->lo = a->hi = a->measured = NAN;
		a->factor = a->factor_lo = a->factor_hi = NAN;
		if (num_parse_real(it->value, &a->value))
			return err_at(display, it->line, it->value_col, "'%s' is not a finite number",
				      it->value);
		if (translate_item_kind(it->name, it->unit, it->kind, &a->kind, &a->kind_how)) {
			char msg[1024];
			snprintf(msg, sizeof(msg), "%s", err_msg());
			return err_at(display, it->line,
				      it->kind && *it->kind && units_family(it->unit) != UNIT_UNKNOWN
					      ? it->kind_col
					      : it->unit_col,
				      "%s", msg);
		}
		if (a->value < 0)
			return err_at(display, it->line, it->value_col,
				      "'%s' is negative: a %s figure cannot be below 0", it->value,
				      translate_kind_name(a->kind));
		a->measure = translate_measure_for(a->kind, it->name);
		f = &factors[a->kind];
		if (!f->measured || !f->has_ci)
			continue; /* not translated: the factor's words say why */
		a->factor = f->factor;
		a->factor_lo = f->ci_lo;
		a->factor_hi = f->ci_hi;
		if (!f->to_over_from) {
			a->translated_value = a->value / f->factor;
			lo = a->value / f->ci_hi;
			hi = a->value / f->ci_lo;
		} else {
			a->translated_value = a->value * f->factor;
			lo = a->value * f->ci_lo;
			hi = a->value * f->ci_hi;
		}
		a->lo = fmin(lo, hi);
		a->hi = fmax(lo, hi);
		if (!isfinite(a->translated_value) || !isfinite(a->lo) || !isfinite(a->hi))
			return err_at(display, it->line, it->value_col,
				      "'%s' %s translates to a value out of range", it->value,
				      it->unit);
		a->translated = true;
	}
	return 0;
}

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
		factor_init(x, TRANSLATE_CPU);
		snprintf(x->measure, sizeof(x->measure), "%s", measure_of(TRANSLATE_CPU));
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
		 min_of(f->v[V_CORES], f->n), max_of(f->v[V_CORES], f->n), r->to.name,
		 min_of(t->v[V_CORES], t->n), max_of(t->v[V_CORES], t->n));
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
		factor_init(x, TRANSLATE_RATE);
		snprintf(x->measure, sizeof(x->measure), "%s", metric);
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
		factor_init(x, TRANSLATE_LATENCY);
		snprintf(x->measure, sizeof(x->measure), "%s", measure_of(TRANSLATE_LATENCY));
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
	const struct field_info *info = field_find(metric);
	arm_cpu(c, c->all_trace);
	measure_median(&m[TM_RATE], c->v[V_RATE], c->n, metric, info ? info->unit : "");
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
