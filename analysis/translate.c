/* translate: see translate.h. */
#include "translate.h"

#include "../common/err.h"

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
