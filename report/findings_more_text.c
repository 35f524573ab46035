/*
 * findings_more_text: the sentences of the findings on what binds, the
 * levers, the ceiling, the costs and where it breaks (findings.h), from
 * the figures findings.c and findings_more.c recorded.
 */
#include "findings.h"

#include "../common/num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The k-th item's figure PREFIX k SUFFIX ("rest0_lo"). */
static double fig(const struct finding *x, const char *prefix, size_t k, const char *suffix)
{
	char name[48];
	snprintf(name, sizeof(name), "%s%zu%s", prefix, k, suffix);
	return finding_get(x, name);
}

static const char *txt(const struct finding *x, const char *prefix, size_t k, const char *suffix)
{
	char name[48];
	snprintf(name, sizeof(name), "%s%zu%s", prefix, k, suffix);
	return finding_text(x, name);
}

/* "a-b" with `decimals`, or "a" when they print the same. */
static void range(struct strbuf *out, double lo, double hi, int decimals)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	findings_number(&a, lo, decimals);
	findings_number(&b, hi, decimals);
	if (!strcmp(strbuf_str(&a), strbuf_str(&b)))
		strbuf_adds(out, strbuf_str(&a));
	else
		strbuf_addf(out, "%s-%s", strbuf_str(&a), strbuf_str(&b));
	strbuf_release(&a);
	strbuf_release(&b);
}

static void num(struct strbuf *out, double x, int decimals)
{
	findings_number(out, x, decimals);
}

/* Decimals that show a value of this size sensibly (throughput, latency). */
static int decimals_for(double x)
{
	double a = fabs(x);
	return a >= 10 ? 1 : a >= 1 ? 2 : 3;
}

static void pct_range(struct strbuf *out, double lo, double hi)
{
	range(out, lo, hi, hi < 9.95 ? 1 : 0);
	strbuf_adds(out, "%");
}

/* ---- binder ---- */

static const char *res_words(const char *name, bool untrusted)
{
	static const struct {
		const char *name, *words, *untrusted;
	} w[] = {
		{"app_cpu", "app CPU", "app CPU (indicative only)"},
		{"host_cpu", "the machine's CPU", "the machine's CPU (indicative only)"},
		{"pg_cpu", "PostgreSQL CPU", "PostgreSQL CPU (indicative only)"},
		{"memory", "memory", "memory"},
		{"connections", "connections", "connections"},
		{"generator", "the load generator", "the load generator"},
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(w[i].name, name))
			return untrusted ? w[i].untrusted : w[i].words;
	return name;
}

/*
 * One resource's use: "0.11-0.12 cores of 2 vCPUs (6%)", "7 of 56 backends (12%)",
 * "0.96-7.29 cores of the 1-8 threads it is given (88-98%)" (cap_lo: the capacity at the
 * first level, when it differs).
 */
static void use_words(struct strbuf *out, const struct finding *x, const char *name, double lo,
		      double hi, double cap_lo, double cap, double rlo, double rhi)
{
	if (!strcmp(name, "connections")) {
		range(out, lo, hi, 0);
		strbuf_adds(out, " of ");
		num(out, cap, 0);
		strbuf_adds(out, " backends (");
		pct_range(out, rlo, rhi);
		strbuf_adds(out, ")");
	} else if (!strcmp(name, "memory")) {
		pct_range(out, rlo, rhi);
		strbuf_adds(out, " of RSS + MemAvailable");
		if (isfinite(finding_get(x, "app_rss_lo"))) {
			strbuf_adds(out, " (app RSS ");
			range(out, finding_get(x, "app_rss_lo"), finding_get(x, "app_rss_hi"), 0);
			strbuf_adds(out, " kB at ");
			num(out, finding_get(x, "level_to"), 0);
			strbuf_addf(out, " %s", finding_text(x, "by"));
			if (isfinite(finding_get(x, "avail_min"))) {
				strbuf_adds(out, ", MemAvailable at least ");
				num(out, finding_get(x, "avail_min"), 0);
				strbuf_adds(out, " kB");
			}
			strbuf_adds(out, ")");
		}
	} else if (!strcmp(name, "generator")) {
		range(out, lo, hi, 1);
		strbuf_adds(out, "% of its machine (");
		if (finding_get(x, "gen_flagged") > 0) {
			num(out, finding_get(x, "gen_flagged"), 0);
			strbuf_adds(out, " runs flagged saturated)");
		} else {
			strbuf_adds(out, "never flagged saturated in ");
			num(out, finding_get(x, "gen_runs"), 0);
			strbuf_adds(out, " runs)");
		}
	} else {
		double vcpus = finding_get(x, "vcpus"), physical = finding_get(x, "physical");
		range(out, lo, hi, 2);
		if (isfinite(cap_lo) && cap_lo != cap) {
			strbuf_adds(out, " cores of the ");
			range(out, cap_lo, cap, 0);
			strbuf_adds(out, " threads it is given (");
			pct_range(out, rlo, rhi);
			strbuf_adds(out, ")");
			return;
		}
		strbuf_adds(out, " cores of ");
		num(out, cap, cap == floor(cap) ? 0 : 2);
		if (isfinite(vcpus) && cap < vcpus)
			strbuf_adds(out, " threads (gomaxprocs)");
		else
			strbuf_adds(out, " vCPUs");
		if (isfinite(physical) && !strcmp(name, "app_cpu") && cap >= vcpus) {
			strbuf_adds(out, ", ");
			num(out, physical, 0);
			strbuf_addf(out, " physical core%s", physical == 1 ? "" : "s");
		}
		strbuf_adds(out, " (");
		pct_range(out, rlo, rhi);
		strbuf_adds(out, ")");
	}
}

static void rest_words(struct strbuf *out, const struct finding *x, bool untrusted)
{
	size_t n = finding_count(x, "rest", BINDER_NRES);
	for (size_t k = 0; k < n; k++) {
		const char *name = txt(x, "rest", k, "");
		bool cpu = !strcmp(name, "app_cpu") || !strcmp(name, "host_cpu") ||
			   !strcmp(name, "pg_cpu");
		strbuf_addf(out, "%s%s ", k ? ", " : "", res_words(name, untrusted && cpu));
		use_words(out, x, name, fig(x, "rest", k, "_lo"), fig(x, "rest", k, "_hi"),
			  fig(x, "rest", k, "_cap_lo"), fig(x, "rest", k, "_cap"),
			  fig(x, "rest", k, "_ratio_lo"), fig(x, "rest", k, "_ratio_hi"));
	}
}

/* "from 287.0 to 245.2 while p50_ms rises from 254.5 to 1,376.6, from 100 to 500 sessions" */
static void trend_words(struct strbuf *out, const struct finding *x)
{
	double a = finding_get(x, "tput_from"), b = finding_get(x, "tput_to");
	double la = finding_get(x, "lat_from"), lb = finding_get(x, "lat_to");
	strbuf_addf(out, "throughput %s from ", b < a ? "falls" : "stays flat");
	num(out, a, decimals_for(a));
	strbuf_adds(out, " to ");
	num(out, b, decimals_for(b));
	if (isfinite(la) && isfinite(lb)) {
		strbuf_addf(out, " and %s %s from ", finding_text(x, "latency"),
			    lb > la ? "rises" : "stays");
		num(out, la, decimals_for(la));
		strbuf_adds(out, " to ");
		num(out, lb, decimals_for(lb));
	}
	strbuf_adds(out, " from ");
	num(out, finding_get(x, "level_from"), 0);
	strbuf_adds(out, " to ");
	num(out, finding_get(x, "level_to"), 0);
	strbuf_addf(out, " %s", finding_text(x, "by"));
}

/* The app's cores above the machine's busy cores: per-process and system counters disagree. */
static bool counters_disagree(const struct finding *x)
{
	double app = NAN, machine = NAN;
	size_t n = finding_count(x, "rest", BINDER_NRES);
	for (size_t k = 0; k < n; k++) {
		if (!strcmp(txt(x, "rest", k, ""), "app_cpu"))
			app = fig(x, "rest", k, "_lo");
		if (!strcmp(txt(x, "rest", k, ""), "host_cpu"))
			machine = fig(x, "rest", k, "_hi");
	}
	return app > machine;
}

/*
 * The driver's own app_cores, when they read otherwise at two decimals:
 * its window is the harness's (the capacity corpus's system.tsv keeps the
 * ramp's tail), the plateau leaves the ramp out (analysis/window.h).
 */
static void driver_words(struct strbuf *out, const struct finding *x)
{
	double lo = finding_get(x, "driver_lo"), hi = finding_get(x, "driver_hi");
	char a[32], b[32], c[32], d[32];
	if (!isfinite(lo) || !isfinite(hi))
		return;
	snprintf(a, sizeof(a), "%.2f", lo);
	snprintf(b, sizeof(b), "%.2f", hi);
	snprintf(c, sizeof(c), "%.2f", finding_get(x, "use_lo"));
	snprintf(d, sizeof(d), "%.2f", finding_get(x, "use_hi"));
	if (!strcmp(a, c) && !strcmp(b, d))
		return;
	strbuf_adds(out, "; the driver's own app_cores read ");
	range(out, lo, hi, 3); /* as the driver states them */
	strbuf_adds(out, " over its own window (the plateau leaves the ramp out; "
			 "cores --keep-ramp keeps it)");
}

/* "; absent from these runs: PostgreSQL CPU, connections (...)" */
static void absent_words(struct strbuf *out, const struct finding *x)
{
	size_t n = finding_count(x, "absent", BINDER_NRES);
	bool database = false;
	if (n == 0)
		return;
	strbuf_adds(out, "; absent from these runs: ");
	for (size_t k = 0; k < n; k++) {
		const char *name = txt(x, "absent", k, "");
		database |= !strcmp(name, "pg_cpu") || !strcmp(name, "connections");
		strbuf_addf(out, "%s%s", k ? ", " : "", res_words(name, false));
	}
	if (database)
		strbuf_adds(out, " (nothing here says whether a database would bind)");
}

static void binder_sentence(const struct finding *x, struct strbuf *out)
{
	bool untrusted = !strcmp(x->word, BINDERS_UNTRUSTED);
	if (!strcmp(x->word, BINDERS_BINDER)) {
		const char *r = finding_text(x, "resource");
		strbuf_addf(out, "%s, flat at ", res_words(r, false));
		use_words(out, x, r, finding_get(x, "use_lo"), finding_get(x, "use_hi"), NAN,
			  finding_get(x, "cap"), finding_get(x, "ratio_lo"),
			  finding_get(x, "ratio_hi"));
		driver_words(out, x);
		strbuf_adds(out, " while ");
		trend_words(out, x);
		strbuf_adds(out, !strcmp(r, "generator")
					 ? ": the measurement is the generator's, not the system's"
					 : ": a saturated resource with a growing queue");
		if (finding_count(x, "rest", BINDER_NRES) > 0) {
			strbuf_adds(out, "; the others, ranked: ");
			rest_words(out, x, false);
		}
	} else if (untrusted) {
		strbuf_adds(out, "not named from the CPU figures: ");
		num(out, finding_get(x, "untrusted"), 0);
		strbuf_adds(out, " of ");
		num(out, finding_get(x, "checked"), 0);
		strbuf_adds(out, " runs fail the tick check, so the guest cannot say whether CPU "
				 "binds; ");
		trend_words(out, x);
		strbuf_adds(out, ", and nothing else is near its ceiling: ");
		rest_words(out, x, true);
		if (counters_disagree(x))
			strbuf_adds(out, " (the app reads more cores than the whole machine's busy "
					 "time: the counters cannot both be right)");
	} else if (!strcmp(x->word, BINDERS_RISING)) {
		strbuf_addf(out,
			    "none within the sweep: throughput still rises at its last step (to ");
		num(out, finding_get(x, "level_to"), 0);
		strbuf_addf(out, " %s, elasticity ", finding_text(x, "by"));
		num(out, finding_get(x, "elasticity"), 2);
		strbuf_adds(out, "); the resources, ranked: ");
		rest_words(out, x, false);
	} else {
		strbuf_adds(out, "none: ");
		trend_words(out, x);
		strbuf_adds(out, ", but nothing stays near its ceiling; the resources, ranked: ");
		rest_words(out, x, false);
	}
	absent_words(out, x);
	strbuf_adds(out, ".");
}

/* ---- levers ---- */

static bool is_sessions(const struct finding *x)
{
	return !strcmp(finding_text(x, "field"), "sessions");
}

/* One pair with an effect, from the better arm's side. */
static void effect_words(struct strbuf *out, const struct finding *x, size_t k)
{
	const char *value = txt(x, "value", k, ""), *base = txt(x, "base", k, "");
	/* a mixed direction ("") reads as the value against its base, as the figures do */
	bool better_is_value = !strcmp(txt(x, "better", k, ""), value) || !*txt(x, "better", k, "");
	double lo = fig(x, "bmin", k, ""), hi = fig(x, "bmax", k, ""), p = fig(x, "bpooled", k, "");
	double plo = fig(x, "blo", k, ""), phi = fig(x, "bhi", k, "");
	double app_lo = fig(x, "app_min", k, ""), app_hi = fig(x, "app_max", k, "");
	const char *by = finding_text(x, "by");
	strbuf_addf(out, "%s over %s: ", better_is_value ? value : base,
		    better_is_value ? base : value);
	range(out, lo, hi, 2);
	strbuf_adds(out, "x");
	if (*by)
		strbuf_addf(out, " at %s %s", by, txt(x, "levels", k, ""));
	if (fig(x, "ncells", k, "") > 1) {
		strbuf_adds(out, " (pooled ");
		num(out, p, 3);
		strbuf_adds(out, "x");
		if (isfinite(plo)) {
			strbuf_adds(out, ", 95% interval ");
			range(out, plo, phi, 3);
		}
		strbuf_adds(out, ")");
		if (fig(x, "independent", k, "") > 0)
			strbuf_adds(out, ", level-independent");
	}
	if (!better_is_value && lo > 1 && hi < 1.5) {
		strbuf_addf(out, "; %s is ", better_is_value ? base : value);
		range(out, fig(x, "cost_lo", k, ""), fig(x, "cost_hi", k, ""), 0);
		strbuf_adds(out, "% lower");
	}
	if (isfinite(app_lo)) {
		strbuf_adds(out, "; app_cores ");
		range(out, app_lo, app_hi, 2);
		strbuf_addf(out, "x of %s's", base);
		if (app_lo >= 0.97 && app_hi <= 1.03)
			strbuf_adds(out, " (unchanged: the same CPU does the work)");
	}
	if (fig(x, "unreplicated", k, "") > 0)
		strbuf_adds(out, "; one run per arm, tested against the replicated arms' spread");
	if (*txt(x, "confounded", k, ""))
		strbuf_addf(out, "; not one factor: %s also differs between the arms",
			    txt(x, "confounded", k, ""));
}

static void sessions_words(struct strbuf *out, const struct finding *x, size_t k)
{
	const char *value = txt(x, "value", k, ""), *base = txt(x, "base", k, "");
	double lo = fig(x, "min", k, ""), hi = fig(x, "max", k, ""), a, b;
	strbuf_addf(out, "%s against %s sessions: %s", value, base, lo >= 1 ? "+" : "");
	range(out, fig(x, "pct_lo", k, ""), fig(x, "pct_hi", k, ""), 1);
	strbuf_adds(out, "%");
	if (*finding_text(x, "by"))
		strbuf_addf(out, " at %s %s", finding_text(x, "by"), txt(x, "levels", k, ""));
	if (isfinite(fig(x, "from", k, ""))) {
		strbuf_adds(out, " (");
		num(out, fig(x, "from", k, ""), 1);
		strbuf_adds(out, " \u2192 ");
		num(out, fig(x, "to", k, ""), 1);
		strbuf_adds(out, ")");
	}
	if (num_parse_real(value, &b) == 0 && num_parse_real(base, &a) == 0 && a > 0 && b > a &&
	    lo > 0) {
		/* the throughput's elasticity to sessions */
		double e = fmax(fabs(log(lo)), fabs(log(hi))) / log(b / a);
		if (e < BINDERS_RISE_MIN)
			strbuf_adds(out, ", nearly flat");
	}
}

static void none_words(struct strbuf *out, const struct finding *x, size_t k)
{
	bool tested = fig(x, "tested", k, "") > 0;
	strbuf_addf(out, "%s against %s: %s (", txt(x, "value", k, ""), txt(x, "base", k, ""),
		    tested ? "no effect"
			   : "not tested, one run per arm and no replicated arm to measure the "
			     "noise");
	range(out, fig(x, "min", k, ""), fig(x, "max", k, ""), 2);
	strbuf_adds(out, "x");
	if (*finding_text(x, "by"))
		strbuf_addf(out, " at %s %s", finding_text(x, "by"), txt(x, "levels", k, ""));
	strbuf_adds(out, ")");
}

static void lever_sentence(const struct finding *x, struct strbuf *out)
{
	size_t n = finding_count(x, "pairs", FINDINGS_MAX_PAIRS);
	if (!strcmp(x->word, "none")) {
		size_t tested = 0;
		for (size_t k = 0; k < n; k++)
			tested += fig(x, "tested", k, "") > 0;
		if (tested == n)
			strbuf_addf(out, "none moves %s beyond noise in the %zu contrast%s compared: ",
				    finding_text(x, "metric"), n, n == 1 ? "" : "s");
		else if (tested == 0)
			strbuf_addf(out, "none can be judged: %s the runs to measure noise: ",
				    n == 1 ? "the one contrast lacks" : "the contrasts lack");
		else
			strbuf_addf(out, "none moves %s beyond noise where it can be tested: ",
				    finding_text(x, "metric"));
		for (size_t k = 0; k < n && k < 8; k++) {
			strbuf_addf(out, "%s%s ", k ? "; " : "", txt(x, "field", k, ""));
			none_words(out, x, k);
		}
		if (x->n > n)
			strbuf_addf(out, "; and %zu more (the Levers section)", x->n - n);
		strbuf_adds(out, ".");
		return;
	}
	if (*finding_text(x, "follows"))
		strbuf_addf(out, "with %s moving with it; ", finding_text(x, "follows"));
	for (size_t k = 0; k < n; k++) {
		strbuf_adds(out, k ? "; " : "");
		if (fig(x, "effect", k, "") > 0 && is_sessions(x))
			sessions_words(out, x, k);
		else if (fig(x, "effect", k, "") > 0)
			effect_words(out, x, k);
		else
			none_words(out, x, k);
	}
	if (x->n > n)
		strbuf_addf(out, "; and %zu more (the Levers section)", x->n - n);
	strbuf_adds(out, ".");
}

/* ---- ceiling, costs ---- */

static void ceiling_sentence(const struct finding *x, struct strbuf *out)
{
	bool any = false;
	strbuf_adds(out, "on ");
	num(out, finding_get(x, "physical"), 0);
	strbuf_adds(out, " physical cores and ");
	num(out, finding_get(x, "logical"), 0);
	strbuf_adds(out, " logical CPUs, ");
	if (isfinite(finding_get(x, "svd"))) {
		strbuf_addf(out, "%s deliver ", finding_text(x, "svd_num"));
		num(out, finding_get(x, "svd"), 2);
		strbuf_addf(out, " of %s (", finding_text(x, "svd_den"));
		range(out, finding_get(x, "svd_lo"), finding_get(x, "svd_hi"), 2);
		strbuf_adds(out, ")");
		any = true;
	}
	if (isfinite(finding_get(x, "smt"))) {
		strbuf_addf(out, "%sthe second thread on a core is worth ", any ? "; " : "");
		num(out, finding_get(x, "smt"), 2);
		strbuf_adds(out, "x (");
		range(out, finding_get(x, "smt_lo"), finding_get(x, "smt_hi"), 2);
		strbuf_adds(out, ")");
		if (isfinite(finding_get(x, "step"))) {
			strbuf_adds(out, " and the measured step to every thread ");
			num(out, finding_get(x, "step"), 2);
			strbuf_adds(out, "x: that is SMT, not a scaling defect");
		}
	}
	if (isfinite(finding_get(x, "ceiling"))) {
		strbuf_adds(out, "; the hardware ceiling is ");
		num(out, finding_get(x, "ceiling"), 2);
		strbuf_adds(out, "x one thread (");
		num(out, finding_get(x, "physical"), 0);
		strbuf_adds(out, " cores x ");
		num(out, finding_get(x, "smt"), 2);
		strbuf_adds(out, ")");
	}
	if (isfinite(finding_get(x, "sharded"))) {
		strbuf_addf(out, "; %s processes x threads reach ",
			    finding_text(x, "sharded_name"));
		num(out, finding_get(x, "sharded"), 2);
		strbuf_adds(out, "x (");
		range(out, finding_get(x, "sharded_lo"), finding_get(x, "sharded_hi"), 2);
		strbuf_adds(out, ")");
		if (isfinite(finding_get(x, "sharded_pct"))) {
			strbuf_adds(out, ", ");
			num(out, finding_get(x, "sharded_pct"), 0);
			strbuf_adds(out, "% of it");
		}
	}
	strbuf_addf(out, "; n = %zu runs.", x->n);
}

static void cpu_per_op_sentence(const struct finding *x, struct strbuf *out)
{
	strbuf_addf(out, "%s ", x->value >= 1 ? "rises" : "falls");
	num(out, finding_get(x, "change"), 2);
	strbuf_adds(out, "x from ");
	num(out, finding_get(x, "from_level"), 0);
	strbuf_adds(out, " to ");
	num(out, finding_get(x, "to_level"), 0);
	strbuf_addf(out, " %s: ", finding_text(x, "by"));
	num(out, x->lo, 0);
	strbuf_adds(out, " \u2192 ");
	num(out, x->hi, 0);
	strbuf_adds(out, " \u00b5s per operation (app_cores ");
	num(out, finding_get(x, "from_app_cores"), 3);
	strbuf_adds(out, " and ");
	num(out, finding_get(x, "to_app_cores"), 3);
	strbuf_adds(out, ": app_cores x 10^6 / throughput).");
}

static void factor_words(struct strbuf *out, const struct finding *x, const char *name,
			 const char *where)
{
	char lo[48], hi[48], from[48], to[48];
	double f = finding_get(x, name);
	snprintf(lo, sizeof(lo), "%s_lo", name);
	snprintf(hi, sizeof(hi), "%s_hi", name);
	snprintf(from, sizeof(from), "%s_from", name);
	snprintf(to, sizeof(to), "%s_to", name);
	{
		char pct[48];
		snprintf(pct, sizeof(pct), "%s_pct", name);
		num(out, finding_get(x, pct), 1);
	}
	strbuf_addf(out, "%% %s %s (", f < 1 ? "less" : "more", where);
	num(out, f, 3);
	strbuf_adds(out, "x");
	if (isfinite(finding_get(x, lo))) {
		strbuf_adds(out, ", 95% interval ");
		range(out, finding_get(x, lo), finding_get(x, hi), 3);
	}
	strbuf_adds(out, "; ");
	num(out, finding_get(x, to), 0);
	strbuf_adds(out, " against ");
	num(out, finding_get(x, from), 0);
	strbuf_adds(out, " kB)");
}

static void memory_factors_sentence(const struct finding *x, struct strbuf *out)
{
	bool idle = isfinite(finding_get(x, "idle")), loaded = isfinite(finding_get(x, "loaded"));
	strbuf_addf(out, "%s against %s uses ", finding_text(x, "to"), finding_text(x, "from"));
	if (idle)
		factor_words(out, x, "idle", "at idle");
	if (idle && loaded)
		strbuf_adds(out, " and ");
	if (loaded)
		factor_words(out, x, "loaded", "under load");
	strbuf_addf(out, ": memory figures carried from %s %s; n = %zu runs.",
		    finding_text(x, "from"),
		    (loaded ? finding_get(x, "loaded") : finding_get(x, "idle")) < 1 ? "shrink"
										     : "grow",
		    x->n);
}

/* ---- where it breaks ---- */

static void knee_sentence(const struct finding *x, struct strbuf *out)
{
	const char *by = finding_text(x, "by");
	if (!strcmp(x->word, "none")) {
		size_t n = finding_count(x, "groups", 64);
		bool same = true;
		for (size_t k = 1; k < n; k++)
			same &= fig(x, "max_level", k, "") == fig(x, "max_level", 0, "");
		if (n > 3 && same) {
			strbuf_addf(out, "none in any of the %zu groups up to ", n);
			num(out, fig(x, "max_level", 0, ""), 0);
		} else if (n == 1 && !*txt(x, "group", 0, "")) {
			strbuf_adds(out, "none up to ");
			num(out, fig(x, "max_level", 0, ""), 0);
		} else {
			strbuf_adds(out, "none ");
			for (size_t k = 0; k < n; k++) {
				strbuf_addf(out, "%s%s up to ", k ? ", " : "in ",
					    txt(x, "group", k, ""));
				num(out, fig(x, "max_level", k, ""), 0);
			}
		}
		if (n == 0) {
			strbuf_adds(out, "up to ");
			num(out, x->level, 0);
		}
		strbuf_addf(out, " %s: the failure knee lies above the largest level measured.",
			    by);
		return;
	}
	if (isfinite(finding_get(x, "after"))) {
		strbuf_adds(out, "errors first appear between ");
		num(out, finding_get(x, "after"), 0);
		strbuf_adds(out, " and ");
		num(out, finding_get(x, "at"), 0);
		strbuf_addf(out, " %s: ", by);
		num(out, finding_get(x, "after_err_runs"), 0);
		strbuf_adds(out, " of ");
		num(out, finding_get(x, "after_n"), 0);
		strbuf_adds(out, " runs erred at ");
		num(out, finding_get(x, "after"), 0);
		strbuf_adds(out, ", ");
	} else if (finding_get(x, "levels") == 1) {
		strbuf_adds(out, "errors at its only level, ");
		num(out, finding_get(x, "at"), 0);
		strbuf_addf(out, " %s: ", by);
	} else {
		strbuf_adds(out, "errors from the first level, ");
		num(out, finding_get(x, "at"), 0);
		strbuf_addf(out, " %s: ", by);
	}
	num(out, finding_get(x, "at_err_runs"), 0);
	strbuf_adds(out, " of ");
	num(out, finding_get(x, "at_n"), 0);
	strbuf_adds(out, " at ");
	num(out, finding_get(x, "at"), 0);
	strbuf_adds(out, " (median error rate ");
	num(out, finding_get(x, "at_err"), 2);
	strbuf_adds(out, "%)");
	if (finding_get(x, "last") > finding_get(x, "at")) {
		strbuf_adds(out, ", ");
		num(out, finding_get(x, "last_err"), 2);
		strbuf_adds(out, "% at ");
		num(out, finding_get(x, "last"), 0);
	}
	strbuf_adds(out, ".");
}

static void burst_sentence(const struct finding *x, struct strbuf *out)
{
	strbuf_addf(out, "%s, the first run at ", finding_text(x, "tag"));
	num(out, finding_get(x, "level"), 0);
	strbuf_addf(out, " %s, reads ", finding_text(x, "by"));
	num(out, finding_get(x, "first"), 1);
	strbuf_adds(out, ", ");
	num(out, x->value, 2);
	strbuf_adds(out, "x the median of the ");
	num(out, finding_get(x, "later_n"), 0);
	strbuf_adds(out, " later runs (");
	num(out, finding_get(x, "later_median"), 1);
	strbuf_adds(out, "): a rested instance's burst, not its sustained rate.");
}

static void soak_sentence(const struct finding *x, struct strbuf *out)
{
	strbuf_addf(out, "the rested first run of block %s (%s) reads ", finding_text(x, "block"),
		    finding_text(x, "first_tag"));
	num(out, finding_get(x, "first"), 1);
	strbuf_adds(out, ", ");
	num(out, x->value, 2);
	strbuf_adds(out, "x the sustained median ");
	num(out, finding_get(x, "sustained_median"), 1);
	strbuf_adds(out, " of the ");
	num(out, finding_get(x, "sustained_n"), 0);
	strbuf_adds(out, " runs after it (");
	range(out, finding_get(x, "sustained_min"), finding_get(x, "sustained_max"), 1);
	strbuf_adds(out, ") at ");
	num(out, finding_get(x, "level"), 0);
	strbuf_addf(out, " %s: a first-run figure is not what the instance sustains.",
		    finding_text(x, "by"));
}

static void little_sentence(const struct finding *x, struct strbuf *out)
{
	if (x->value == 0)
		strbuf_addf(out,
			    "holds on all %zu closed-loop runs checked (sessions / throughput, the "
			    "implied mean latency, within its bounds).",
			    x->n);
	else {
		num(out, x->value, 0);
		strbuf_addf(out,
			    " of %zu closed-loop runs fail it: their sessions were not all busy, "
			    "or their throughput and latency count different work.",
			    x->n);
	}
}

bool finding_sentence_more(const struct finding *x, struct strbuf *out)
{
	switch (x->kind) {
	case FINDING_BINDER:
		binder_sentence(x, out);
		return true;
	case FINDING_LEVER:
		lever_sentence(x, out);
		return true;
	case FINDING_CEILING:
		ceiling_sentence(x, out);
		return true;
	case FINDING_CPU_PER_OP:
		cpu_per_op_sentence(x, out);
		return true;
	case FINDING_MEMORY_FACTORS:
		memory_factors_sentence(x, out);
		return true;
	case FINDING_KNEE:
		knee_sentence(x, out);
		return true;
	case FINDING_BURST:
		burst_sentence(x, out);
		return true;
	case FINDING_SOAK:
		soak_sentence(x, out);
		return true;
	case FINDING_LITTLE:
		little_sentence(x, out);
		return true;
	default:
		return false;
	}
}
