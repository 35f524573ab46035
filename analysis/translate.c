/* translate: see translate.h. */
#include "translate_internal.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
				       units_family_words(kind_unit(*kind)), unit);
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

static const char *measure_of(enum translate_kind kind)
{
	static const char *const names[TRANSLATE_NKINDS] = {
		"the metric",  "CPU us per counted interaction", "idle_rss_kb",
		"load_rss_kb", "load_rss_kb on sessions",        "p50_ms"};
	return names[kind];
}

void translate_factor_begin(struct translate_factor *f, enum translate_kind kind,
			    const char *measure)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->to_over_from = kind != TRANSLATE_RATE;
	snprintf(f->statistic, sizeof(f->statistic), "%s",
		 kind == TRANSLATE_SLOPE ? "OLS slope" : "median");
	f->factor = f->ci_lo = f->ci_hi = f->end_lo = f->end_hi = NAN;
	f->mean_factor = f->range_lo = f->range_hi = NAN;
	f->from_lo = f->from_hi = f->to_lo = f->to_hi = NAN;
	snprintf(f->measure, sizeof(f->measure), "%s", measure ? measure : measure_of(kind));
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

double translate_min_of(const double *x, size_t n)
{
	double m = INFINITY;
	for (size_t i = 0; i < n; i++)
		m = fmin(m, x[i]);
	return m;
}

double translate_max_of(const double *x, size_t n)
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

/*
 * The factor num / den of the two sides (to / from, or from / to for a
 * rate): the ratio of the medians and of the means, of the ranges' ends,
 * and its bootstrap interval; with bounds (wide), the interval's low end
 * from num's low ends over den's high ends (and the high end the other way
 * round), and the ratio of those ends' medians.
 */
static int ratio(struct translate_factor *out, const struct side *num, const struct summary *snum,
		 const struct side *den, const struct summary *sden, bool wide, uint64_t seed)
{
	double unused;
	int rc;
	out->factor = center(snum, false) / center(sden, false);
	out->mean_factor = center(snum, true) / center(sden, true);
	out->range_lo = translate_min_of(num->lo, num->n) / translate_max_of(den->hi, den->n);
	out->range_hi = translate_max_of(num->hi, num->n) / translate_min_of(den->lo, den->n);
	if (!wide)
		return boot(den->v, den->n, num->v, num->n, seed, &out->ci_lo, &out->ci_hi);
	rc = boot(den->hi, den->n, num->lo, num->n, seed, &out->ci_lo, &unused);
	if (rc == 0)
		rc = boot(den->lo, den->n, num->hi, num->n, seed, &unused, &out->ci_hi);
	out->end_lo = median_of(num->lo, num->n) / median_of(den->hi, den->n);
	out->end_hi = median_of(num->hi, num->n) / median_of(den->lo, den->n);
	return rc;
}

int translate_factor_compute(const struct translate_input *in, uint64_t seed,
			     const char *from_name, const char *to_name,
			     struct translate_factor *out)
{
	struct side a = {0}, b = {0};
	bool wide;
	int rc;
	translate_factor_begin(out, in->kind, in->measure);
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
	if (translate_min_of(a.lo, a.n) <= 0 || translate_min_of(b.lo, b.n) <= 0) {
		bool from = translate_min_of(a.lo, a.n) <= 0;
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
	out->from_lo = translate_min_of(a.lo, a.n);
	out->from_hi = translate_max_of(a.hi, a.n);
	out->to_lo = translate_min_of(b.lo, b.n);
	out->to_hi = translate_max_of(b.hi, b.n);
	wide = bounded(&a) || bounded(&b);
	if (out->to_over_from)
		rc = ratio(out, &b, &out->to, &a, &out->from, wide, seed);
	else
		rc = ratio(out, &a, &out->from, &b, &out->to, wide, seed);
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
	translate_factor_begin(out, TRANSLATE_SLOPE, NULL);
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
