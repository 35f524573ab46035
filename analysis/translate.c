/* translate: see translate.h. */
#include "translate.h"

#include "../common/err.h"
#include "../common/num.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t finite_copy(const double *in, size_t n, double *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(in[i]))
			out[m++] = in[i];
	return m;
}

static double center(const struct summary *s, bool mean)
{
	return mean ? s->mean : s->median;
}

static void describe(struct translate_figure *f, const struct translate_input *in,
		     const char *from_name, const char *to_name)
{
	double pct = (f->factor - 1.0) * 100.0;
	if (!in->to_over_from) {
		snprintf(f->rule, sizeof(f->rule),
			 "to-rate = from-rate / %.3f; to-time = from-time x %.3f", f->factor,
			 f->factor);
		snprintf(f->words, sizeof(f->words), "%s does %.2fx the work per core of %s",
			 from_name, f->factor, to_name);
		return;
	}
	snprintf(f->rule, sizeof(f->rule), "to = from x %.3f", f->factor);
	if (!strcmp(in->name, "cpu_us_per_op"))
		snprintf(f->words, sizeof(f->words), "%s needs %.2fx the CPU time per operation of %s",
			 to_name, f->factor, from_name);
	else
		snprintf(f->words, sizeof(f->words), "%s uses %.1f%% %s than %s", to_name,
			 fabs(pct), pct < 0 ? "less" : "more", from_name);
}

int translate_figure(const struct translate_input *in, const char *statistic, uint64_t seed,
		     const char *from_name, const char *to_name, struct translate_figure *out)
{
	double *a = malloc((in->nfrom ? in->nfrom : 1) * sizeof(double));
	double *b = malloc((in->nto ? in->nto : 1) * sizeof(double));
	bool mean = !strcmp(statistic, "mean");
	size_t na, nb;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", in->name);
	snprintf(out->statistic, sizeof(out->statistic), "%s", statistic);
	if (!a || !b) {
		free(a);
		free(b);
		return err_set("out of memory");
	}
	na = finite_copy(in->from, in->nfrom, a);
	nb = finite_copy(in->to, in->nto, b);
	if (na == 0 || nb == 0) {
		snprintf(out->words, sizeof(out->words), "not measured: no %s values on the %s side",
			 in->name, na == 0 ? "from" : "to");
		goto done;
	}
	rc = stats_summary(a, na, &out->from);
	if (rc == 0)
		rc = stats_summary(b, nb, &out->to);
	if (rc)
		goto done;
	out->measured = true;
	if (in->to_over_from) {
		out->factor = center(&out->to, mean) / center(&out->from, mean);
		out->range_lo = out->to.min / out->from.max;
		out->range_hi = out->to.max / out->from.min;
	} else {
		out->factor = center(&out->from, mean) / center(&out->to, mean);
		out->range_lo = out->from.min / out->to.max;
		out->range_hi = out->from.max / out->to.min;
	}
	if (!mean) {
		struct ratio_ci ci;
		/* median(second) / median(first) */
		rc = in->to_over_from
			     ? stats_bootstrap_median_ratio(a, na, b, nb, TRANSLATE_RESAMPLES, seed, &ci)
			     : stats_bootstrap_median_ratio(b, nb, a, na, TRANSLATE_RESAMPLES, seed, &ci);
		if (rc)
			goto done;
		out->has_ci = true;
		out->ci_lo = ci.lo;
		out->ci_hi = ci.hi;
	}
	describe(out, in, from_name, to_name);
done:
	free(a);
	free(b);
	return rc;
}

enum unit_kind translate_unit_kind(const char *unit)
{
	static const char *const rates[] = {"/s", "per_s", "int/s", "ops/s", "op/s", "qps", "rps",
					    "tps", "interactions/s", "req/s", "hz", NULL};
	static const char *const times[] = {"ns", "us", "µs", "ms", "s", "min", NULL};
	static const char *const memory[] = {"b", "kb", "kib", "mb", "mib", "gb", "gib", NULL};
	for (size_t i = 0; rates[i]; i++)
		if (!strcasecmp(unit, rates[i]))
			return UNIT_RATE;
	for (size_t i = 0; times[i]; i++)
		if (!strcasecmp(unit, times[i]))
			return UNIT_TIME;
	for (size_t i = 0; memory[i]; i++)
		if (!strcasecmp(unit, memory[i]))
			return UNIT_MEMORY;
	if (strlen(unit) > 2 && !strcmp(unit + strlen(unit) - 2, "/s"))
		return UNIT_RATE;
	return UNIT_UNKNOWN;
}

const char *translate_kind_name(enum unit_kind kind)
{
	static const char *const names[] = {"rate", "time", "memory"};
	return kind < UNIT_UNKNOWN ? names[kind] : NULL;
}

int translate_apply(const struct translate_figure *figs, const struct translate_item *items,
		    size_t n, const char *display, struct translate_applied *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct translate_item *it = &items[i];
		struct translate_applied *a = &out[i];
		const struct translate_figure *fig;
		double lo, hi;
		memset(a, 0, sizeof(*a));
		a->name = it->name;
		a->unit = it->unit;
		a->kind = translate_unit_kind(it->unit);
		if (num_parse_real(it->value, &a->value))
			return err_at(display, it->line, it->value_col, "'%s' is not a number",
				      it->value);
		if (a->kind == UNIT_UNKNOWN)
			return err_at(display, it->line, it->unit_col,
				      "unknown unit '%s' (a rate such as int/s, a time such as ms, "
				      "or a memory size such as kB)",
				      it->unit);
		/* memory scales with the loaded RSS; rates and times with the median rate */
		fig = a->kind == UNIT_MEMORY ? &figs[TRANSLATE_LOAD] : &figs[TRANSLATE_RATE];
		if (!fig->measured || !fig->has_ci)
			return err_set("no %s factor to translate '%s' with",
				       translate_kind_name(a->kind), it->unit);
		a->factor = fig->factor;
		if (a->kind == UNIT_RATE) {
			a->translated = a->value / fig->factor;
			lo = a->value / fig->ci_hi;
			hi = a->value / fig->ci_lo;
		} else {
			a->translated = a->value * fig->factor;
			lo = a->value * fig->ci_lo;
			hi = a->value * fig->ci_hi;
		}
		a->lo = fmin(lo, hi);
		a->hi = fmax(lo, hi);
	}
	return 0;
}

/* Per run of an arm: the metric, CPU time per operation, idle and loaded RSS. */
struct arm_values {
	double *rate, *cpu, *idle, *load;
};

static double field_number(const char *text)
{
	double v;
	return text && num_parse_real(text, &v) == 0 ? v : NAN;
}

static void arm_values_release(struct arm_values *v)
{
	free(v->rate);
	free(v->cpu);
	free(v->idle);
	free(v->load);
}

/* The arm's name: its runs' common cpu_family, else its conditions. */
static void arm_name(struct translate_arm *arm, const char *where)
{
	const char *family = arm->sel.n ? arm->sel.runs[0].extra[3] : NULL;
	for (size_t i = 1; family && i < arm->sel.n; i++)
		if (!arm->sel.runs[i].extra[3] || strcmp(arm->sel.runs[i].extra[3], family))
			family = NULL;
	snprintf(arm->name, sizeof(arm->name), "%s", family ? family : where);
}

static int load_arm(sqlite3 *db, const struct translate_request *req, const char *where,
		    const char *what, struct translate_arm *arm, struct arm_values *v)
{
	static const char *const extra[] = {"cpu_s", "interactions", "idle_rss_kb", "cpu_family",
					    "load_rss_kb", NULL};
	struct select_spec spec = {.filter = &arm->filter,
				   .metric = req->metric ? req->metric : "tput",
				   .extra = extra};
	size_t n;
	int rc = run_filter_copy(&arm->filter, req->filter);
	if (rc == 0)
		rc = run_filter_add_conditions(&arm->filter, where, what);
	if (rc == 0)
		rc = select_runs(db, &spec, &arm->sel);
	if (rc)
		return rc;
	n = arm->sel.n;
	if (n == 0)
		return err_set("no runs for '%s' (check the conditions and --corpus)", where);
	v->rate = calloc(n, sizeof(double));
	v->cpu = calloc(n, sizeof(double));
	v->idle = calloc(n, sizeof(double));
	v->load = calloc(n, sizeof(double));
	if (!v->rate || !v->cpu || !v->idle || !v->load)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++) {
		char **x = arm->sel.runs[i].extra;
		v->rate[i] = arm->sel.runs[i].metric;
		v->cpu[i] = field_number(x[0]) * 1e6 / field_number(x[1]);
		v->idle[i] = field_number(x[2]);
		v->load[i] = field_number(x[4]);
	}
	arm_name(arm, where);
	return 0;
}

static int compute(struct translate_result *r, const struct arm_values *f,
		   const struct arm_values *t, uint64_t seed)
{
	size_t nf = r->from.sel.n, nt = r->to.sel.n;
	const struct translate_input inputs[TRANSLATE_NFIGS] = {
		[TRANSLATE_RATE] = {"rate", f->rate, nf, t->rate, nt, false},
		[TRANSLATE_RATE_MEAN] = {"rate", f->rate, nf, t->rate, nt, false},
		[TRANSLATE_CPU] = {"cpu_us_per_op", f->cpu, nf, t->cpu, nt, true},
		[TRANSLATE_IDLE] = {"idle_rss_kb", f->idle, nf, t->idle, nt, true},
		[TRANSLATE_LOAD] = {"load_rss_kb", f->load, nf, t->load, nt, true},
	};
	const struct translate_figure *rate = &r->figs[TRANSLATE_RATE];
	int rc = 0;
	for (int i = 0; rc == 0 && i < TRANSLATE_NFIGS; i++)
		rc = translate_figure(&inputs[i], i == TRANSLATE_RATE_MEAN ? "mean" : "median",
				      seed, r->from.name, r->to.name, &r->figs[i]);
	if (rc == 0 && rate->measured) {
		double a = rate->from.mean / rate->to.median, b = rate->from.median / rate->to.mean;
		r->has_mixed = true;
		r->mixed_lo = fmin(a, b);
		r->mixed_hi = fmax(a, b);
		r->mixed_lo_mean_first = a <= b;
	}
	return rc;
}

int translate_run(sqlite3 *db, const struct translate_request *req, struct translate_result *out)
{
	struct arm_values from = {0}, to = {0};
	int rc;
	memset(out, 0, sizeof(*out));
	rc = load_arm(db, req, req->from, "--from", &out->from, &from);
	if (rc == 0)
		rc = load_arm(db, req, req->to, "--to", &out->to, &to);
	if (rc == 0)
		rc = compute(out, &from, &to, req->seed);
	if (rc == 0 && req->nitems &&
	    !(out->applied = calloc(req->nitems, sizeof(*out->applied))))
		rc = err_set("out of memory");
	if (rc == 0 && req->nitems) {
		out->napplied = req->nitems;
		rc = translate_apply(out->figs, req->items, req->nitems, req->items_path,
				     out->applied);
	}
	arm_values_release(&from);
	arm_values_release(&to);
	if (rc)
		translate_result_release(out);
	return rc;
}

void translate_result_release(struct translate_result *r)
{
	run_filter_release(&r->from.filter);
	run_filter_release(&r->to.filter);
	selection_release(&r->from.sel);
	selection_release(&r->to.sel);
	free(r->applied);
	memset(r, 0, sizeof(*r));
}
