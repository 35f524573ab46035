/*
 * Unit tests for analysis/translate: one factor per kind of figure, the CPU
 * windows matched or bounded, the latency rule, --apply's kinds, units and
 * refusals, and --check.
 *
 * Real corpus: SHARED_CORPORA/sky/gcp-x86-capacity-20260816, its m1/ and
 * core/ reference sub-corpora (FORMATS.md: both 25 sessions, GOMAXPROCS=1,
 * memory store, closed loop; m1's cpu_s covers ramp 3 s + warm-up 3 s +
 * window 45 s = 51 s, core's cpu_s_win the 45 s window). The figures are
 * copied from m1/m1.tsv (tput, p50, cpu_s, ints, idle_rss, load_rss) and
 * core/results.tsv (ips, p50_ms, cpu_s_win, ints, rss_idle_kb,
 * rss_load_med_kb) into C arrays, and the corpus is also imported into an
 * in-memory database for translate_run. Every expected value was computed
 * outside this code with python3 (statistics.median / statistics.mean on
 * the files; /usr/bin/python3 with NumPy and SciPy 1.10.1 for the OLS:
 * scipy.stats.linregress and stats.t.ppf(0.975, n - 2)), the snippet or the
 * arithmetic in the comment beside it, copied with repr().
 *
 * Seed 001_1eadbe031a5fc235.txt ("the x86-vs-M1 factor"): M1 : x86 2.96x;
 * x86 idle 28,272 kB / loaded 53,956 kB against M1 34,752 / 63,328 (x86 uses
 * 15-19% less); its per-session slope is measured on x86 only (M1 ran one
 * session count), so the slope cannot be translated here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/translate.h"
#include "common/err.h"
#include "importers/corpus.h"
#include "schema/db.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-12
#define CAPACITY SHARED_CORPORA "/sky/gcp-x86-capacity-20260816"

static sqlite3 *db;

static void check_inside(double lo, double value, double hi, const char *what)
{
	if (!(lo <= value && value <= hi))
		fail_msg("%s: %.17g is outside [%.17g, %.17g]", what, value, lo, hi);
}

/* ------------------------------------------------------ the corpus figures */

/* m1/m1.tsv, reps 1-3 */
static const double m1_tput[] = {897.6512462962686, 858.8742965751081, 897.0796281892916};
static const double m1_p50[] = {29.908, 31.004, 30.021};
static const double m1_cpu_s[] = {48.41, 48.38, 48.43};
static const double m1_ints[] = {40418, 38673, 40392};
static const double m1_idle[] = {34752, 34640, 34592};
static const double m1_load[] = {63328, 63296, 63408};
/* core/results.tsv, reps 1-3 */
static const double x86_ips[] = {299.3, 288.9, 299.7};
static const double x86_p50[] = {103.254, 106.585, 102.676};
static const double x86_cpu_s[] = {45.16, 45.16, 45.16};
static const double x86_ints[] = {13493, 13026, 13513};
static const double x86_idle[] = {28596, 28272, 28008};
static const double x86_load[] = {53956, 57692, 53304};

static struct translate_input plain(enum translate_kind kind, const double *from,
				    const double *to)
{
	struct translate_input in = {kind, NULL, from, NULL, NULL, 3, to, NULL, NULL, 3};
	return in;
}

/*
 * python3: median(tput) / median(ips) = 897.0796281892916 / 299.3 =
 * 2.9972590317049503; mean / mean = 2.988630669062584; range 858.874 / 299.7
 * to 897.651 / 288.9.
 */
static void rate_factor(void **state)
{
	struct translate_input in = plain(TRANSLATE_RATE, m1_tput, x86_ips);
	struct translate_factor f;
	(void)state;
	assert_int_equal(translate_factor_compute(&in, 1, "m1", "x86", &f), 0);
	assert_true(f.measured);
	assert_false(f.to_over_from);
	assert_string_equal(f.statistic, "median");
	check_close(f.factor, 2.9972590317049503, REL, "rate factor");
	check_close(f.mean_factor, 2.988630669062584, REL, "rate mean factor");
	check_close(f.range_lo, 858.8742965751081 / 299.7, REL, "rate range_lo");
	check_close(f.range_hi, 897.6512462962686 / 288.9, REL, "rate range_hi");
	assert_true(f.has_ci);
	assert_true(f.ci_lo < f.factor && f.factor < f.ci_hi);
	/* bootstrap medians lie within the data: the interval within the range ratios */
	assert_true(f.range_lo <= f.ci_lo && f.ci_hi <= f.range_hi);
	assert_true(isnan(f.end_lo) && isnan(f.end_hi));
	check_contains(f.words, "m1 does 3.00x the work per second of x86", "rate words");
	check_contains(f.rule, "/ 2.997", "rate rule");
	/* the seed's 2.96 is ~3 */
	check_close(f.factor, 2.96, 0.02, "rate factor against the seed's 2.96");
}

static void rate_bootstrap_seeded(void **state)
{
	struct translate_input in = plain(TRANSLATE_RATE, m1_tput, x86_ips);
	struct translate_factor a, b, c;
	(void)state;
	assert_int_equal(translate_factor_compute(&in, 42, "m1", "x86", &a), 0);
	assert_int_equal(translate_factor_compute(&in, 42, "m1", "x86", &b), 0);
	assert_true(a.ci_lo == b.ci_lo && a.ci_hi == b.ci_hi);
	assert_int_equal(translate_factor_compute(&in, 7, "m1", "x86", &c), 0);
	assert_true(c.ci_lo < c.factor && c.factor < c.ci_hi);
	assert_true(c.factor == a.factor);
}

/*
 * Memory, to / from. python3: idle 28272 / 34640 = 0.8161662817551963 (means
 * 0.816240960147715), x86 uses 18.4% less; loaded 53956 / 63328 =
 * 0.8520085901970692 (means 0.8680222278353119), 14.8% less.
 */
static void memory_factors(void **state)
{
	struct translate_input idle = plain(TRANSLATE_IDLE, m1_idle, x86_idle);
	struct translate_input load = plain(TRANSLATE_LOADED, m1_load, x86_load);
	struct translate_factor f;
	(void)state;
	assert_int_equal(translate_factor_compute(&idle, 1, "m1", "x86", &f), 0);
	check_close(f.factor, 0.8161662817551963, REL, "idle factor");
	check_close(f.mean_factor, 0.816240960147715, REL, "idle mean factor");
	check_close(f.range_lo, 28008.0 / 34752.0, REL, "idle range_lo");
	check_close(f.range_hi, 28596.0 / 34592.0, REL, "idle range_hi");
	check_contains(f.words, "x86 uses 18.4% less than m1 at idle", "idle words");
	assert_true(f.ci_lo < f.factor && f.factor < f.ci_hi);
	assert_int_equal(translate_factor_compute(&load, 1, "m1", "x86", &f), 0);
	check_close(f.factor, 0.8520085901970692, REL, "load factor");
	check_close(f.mean_factor, 0.8680222278353119, REL, "load mean factor");
	check_contains(f.words, "x86 uses 14.8% less than m1 under load", "load words");
	check_contains(f.rule, "x 0.852", "load rule");
	/* the seed: 15-19% less */
	assert_true(round(100 * (1 - f.factor)) >= 15 && round(100 * (1 - f.factor)) <= 19);
}

/* python3: median(p50_ms) / median(p50) = 103.254 / 30.021 = 3.4393924253022883. */
static void latency_factor(void **state)
{
	struct translate_input in = plain(TRANSLATE_LATENCY, m1_p50, x86_p50);
	struct translate_factor f;
	(void)state;
	assert_int_equal(translate_factor_compute(&in, 1, "m1", "x86", &f), 0);
	check_close(f.factor, 3.4393924253022883, REL, "latency factor");
	check_close(f.mean_factor, 3.4367611318223306, REL, "latency mean factor");
	check_contains(f.words, "x86's p50 latency is 3.44x m1's", "latency words");
	assert_true(f.ci_lo < f.factor && f.factor < f.ci_hi);
}

/*
 * CPU per counted interaction, µs. m1 (span 51 s, window 45 s): hi = cpu_s x
 * 1e6 / ints = [1197.7336830125191, 1251.0019910531896, 1198.9998019409784],
 * lo = hi x 45 / 51 = [1056.823837952223, 1103.8252862234026,
 * 1057.941001712628], mid = (lo + hi) / 2; core (window): cpu_s_win x 1e6 /
 * ints = [3346.9206255095232, 3466.912329187778, 3341.9669947458005].
 */
static void cpu_bounds(void **state)
{
	static const double lo[] = {1056.823837952223, 1103.8252862234026, 1057.941001712628};
	static const double hi[] = {1197.7336830125191, 1251.0019910531896, 1198.9998019409784};
	static const double x86[] = {3346.9206255095232, 3466.912329187778, 3341.9669947458005};
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct translate_cpu_run m1 = {m1_cpu_s[i], m1_ints[i], 45, 3, 3, "run", NAN, false};
		struct translate_cpu_run core = {x86_cpu_s[i], x86_ints[i], 45, 3, 3, "window", NAN,
						 false};
		enum translate_cpu_basis basis;
		double l, m, h, cores;
		translate_cpu_bounds(&m1, &l, &m, &h, &cores, &basis);
		assert_int_equal(basis, TCPU_SPAN);
		check_close(l, lo[i], REL, "m1 lo");
		check_close(h, hi[i], REL, "m1 hi");
		check_close(m, (lo[i] + hi[i]) / 2, REL, "m1 mid");
		/* cpu_s / 51: 0.9492156862745097 (r1) ... */
		check_close(cores, m1_cpu_s[i] / 51, REL, "m1 cores (lower bound)");
		translate_cpu_bounds(&core, &l, &m, &h, &cores, &basis);
		assert_int_equal(basis, TCPU_WINDOW);
		check_close(l, x86[i], REL, "core lo");
		check_close(h, x86[i], REL, "core hi");
		check_close(cores, 45.16 / 45, REL, "core cores");
		/* a trace beside a declared window: the declaration, unless both arms have traces */
		core.trace_cpu_s = 45;
		translate_cpu_bounds(&core, &l, &m, &h, &cores, &basis);
		assert_int_equal(basis, TCPU_WINDOW);
		core.use_trace = true;
		translate_cpu_bounds(&core, &l, &m, &h, &cores, &basis);
		assert_int_equal(basis, TCPU_TRACE);
		check_close(m, 45 * 1e6 / x86_ints[i], REL, "core from its trace");
		/* undeclared cpu_s, no trace: unknown */
		m1.span = NULL;
		translate_cpu_bounds(&m1, &l, &m, &h, &cores, &basis);
		assert_int_equal(basis, TCPU_UNKNOWN);
		assert_true(isnan(m) && isnan(cores));
		/* a span without its ramp: unknown too */
		m1.span = "run";
		m1.ramp_s = NAN;
		translate_cpu_bounds(&m1, &l, &m, &h, &cores, &basis);
		assert_int_equal(basis, TCPU_UNKNOWN);
	}
}

/*
 * The CPU factor with m1's window bounded: python3 median(x86) / median(mid)
 * = 2.9658913694957563 (means 2.9581469153284385); the ends: median(x86) /
 * median(hi) = 2.791427171290123 (all of cpu_s), / median(lo) =
 * 3.1636174607954732 (the window's share); range min(x86) / max(hi) =
 * 2.6714321948698707 to max(x86) / min(lo) = 3.2805016358312984.
 */
static void cpu_factor_bounded(void **state)
{
	double lo[3], mid[3], hi[3], x86[3], cores;
	struct translate_factor f;
	struct translate_input in;
	enum translate_cpu_basis basis;
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct translate_cpu_run m1 = {m1_cpu_s[i], m1_ints[i], 45, 3, 3, "run", NAN, false};
		translate_cpu_bounds(&m1, &lo[i], &mid[i], &hi[i], &cores, &basis);
		x86[i] = x86_cpu_s[i] * 1e6 / x86_ints[i];
	}
	in = (struct translate_input){TRANSLATE_CPU, NULL, mid, lo, hi, 3, x86, NULL, NULL, 3};
	assert_int_equal(translate_factor_compute(&in, 1, "m1", "x86", &f), 0);
	assert_true(f.measured && f.to_over_from);
	check_close(f.factor, 2.9658913694957563, REL, "cpu factor on midpoints");
	check_close(f.mean_factor, 2.9581469153284385, REL, "cpu mean factor");
	check_close(f.end_lo, 2.791427171290123, REL, "cpu end: all of cpu_s");
	check_close(f.end_hi, 3.1636174607954732, REL, "cpu end: the window's share");
	check_close(f.range_lo, 2.6714321948698707, REL, "cpu range_lo");
	check_close(f.range_hi, 3.2805016358312984, REL, "cpu range_hi");
	check_close(f.from_lo, 1056.823837952223, REL, "from_lo: the lowest window share");
	check_close(f.from_hi, 1251.0019910531896, REL, "from_hi: the highest cpu_s");
	/* the mismatch widens the interval past both ends */
	assert_true(f.ci_lo <= f.end_lo && f.end_hi <= f.ci_hi);
	assert_true(f.range_lo <= f.ci_lo && f.ci_hi <= f.range_hi);
	check_contains(f.words, "2.79x to 3.16x as the windows are bounded", "cpu words");
	/* the same data unbounded (as recorded): today's 2.79 */
	in = (struct translate_input){TRANSLATE_CPU, NULL, hi, NULL, NULL, 3, x86, NULL, NULL, 3};
	assert_int_equal(translate_factor_compute(&in, 1, "m1", "x86", &f), 0);
	check_close(f.factor, 2.791427171290123, REL, "cpu factor as recorded");
	assert_true(isnan(f.end_lo));
}

static void not_measured(void **state)
{
	const double none[] = {NAN, NAN, NAN}, zero[] = {0, 0, 0};
	struct translate_input in = plain(TRANSLATE_IDLE, none, x86_idle);
	struct translate_factor f;
	(void)state;
	assert_int_equal(translate_factor_compute(&in, 1, "m1", "x86", &f), 0);
	assert_false(f.measured);
	check_contains(f.words, "not measured: no idle_rss_kb values on the from side (m1)", "none");
	in = plain(TRANSLATE_RATE, m1_tput, zero);
	assert_int_equal(translate_factor_compute(&in, 1, "m1", "x86", &f), 0);
	assert_false(f.measured);
	check_contains(f.words, "0 or below on the to side (x86)", "zero");
}

/*
 * Session slope: OLS of load_rss_kb on sessions on each side. Synthetic arms
 * (x86 10% steeper, as the seed reads x86 7-11% higher): sessions 100, 100,
 * 300, 300, 500, 500; from load 40000 41000 160500 159000 281000 279000, to
 * 45000 46500 178000 176000 311000 309500. scipy.stats.linregress: from
 * slope 598.75, SE 2.4869450804836513, 95% 591.8451335043954-605.6548664956046;
 * to 661.25, 653.0493952102523-669.4506047897477; factor 661.25 / 598.75 =
 * 1.104384133611691, interval 653.049 / 605.655 = 1.0782533606786295 to
 * 669.451 / 591.845 = 1.1311246251630722. A flat from-side (50000 60000
 * 52000 58000 57000 51000): slope -2.5, 95% -34.746928813259 to
 * 29.746928813258997: reaches 0, refused.
 */
static void slope_factor(void **state)
{
	const double x[] = {100, 100, 300, 300, 500, 500};
	const double fy[] = {40000, 41000, 160500, 159000, 281000, 279000};
	const double ty[] = {45000, 46500, 178000, 176000, 311000, 309500};
	const double gy[] = {50000, 60000, 52000, 58000, 57000, 51000};
	struct ols of, ot, og;
	struct translate_factor f;
	(void)state;
	assert_int_equal(stats_ols(x, fy, 6, &of), 0);
	assert_int_equal(stats_ols(x, ty, 6, &ot), 0);
	assert_int_equal(stats_ols(x, gy, 6, &og), 0);
	check_close(of.slope_lo, 591.8451335043954, 1e-9, "from slope low (scipy)");
	assert_int_equal(translate_slope_factor(&of, &ot, NULL, "m1", "x86", &f), 0);
	assert_true(f.measured);
	assert_string_equal(f.statistic, "OLS slope");
	check_close(f.factor, 1.104384133611691, REL, "slope factor");
	check_close(f.ci_lo, 1.0782533606786295, 1e-9, "slope factor low");
	check_close(f.ci_hi, 1.1311246251630722, 1e-9, "slope factor high");
	check_contains(f.words, "x86 uses 10.4% more memory per session than m1", "slope words");
	assert_int_equal(translate_slope_factor(&og, &ot, NULL, "m1", "x86", &f), 0);
	assert_false(f.measured);
	check_contains(f.words, "from side's (m1) slope's 95% interval", "flat from side");
	check_contains(f.words, "reaches 0", "flat from side");
	assert_int_equal(translate_slope_factor(NULL, NULL, "m1's runs have one session count (25)",
						"m1", "x86", &f),
			 0);
	assert_false(f.measured);
	check_contains(f.words, "not measured: m1's runs have one session count (25)", "no sweep");
}

/* The latency rule on the corpus's load shapes and on the cases it refuses. */
static void latency_rule(void **state)
{
	/* think_time 0s; sessions 25; cores: m1 cpu_s / 51, core cpu_s_win / 45 */
	double think[] = {0, 0, 0}, sess[] = {25, 25, 25}, one[] = {1, 1, 1};
	double m1_cores[] = {48.41 / 51, 48.38 / 51, 48.43 / 51};
	double x86_cores[] = {45.16 / 45, 45.16 / 45, 45.16 / 45};
	struct translate_shape m1 = {"apple-m1", 3, think, sess, m1_cores, one};
	struct translate_shape x86 = {"gce-e2", 3, think, sess, x86_cores, one};
	double think_half[] = {0, 0.5, 0}, sess100[] = {100, 100, 100}, mixed[] = {25, 100, 25};
	double idle_cores[] = {0.5, 0.95, 0.95}, none[] = {NAN, NAN, NAN};
	char why[256];
	(void)state;
	assert_true(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	x86.think_s = think_half;
	assert_false(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	check_contains(why, "gce-e2's runs are not closed-loop (think time 0.5 s)", "open loop");
	x86.think_s = none;
	assert_false(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	check_contains(why, "do not say their think time", "unknown loop");
	x86.think_s = think;
	x86.sessions = sess100;
	assert_false(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	check_contains(why, "different session counts (25 and 100)", "sessions");
	x86.sessions = mixed;
	assert_false(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	check_contains(why, "gce-e2's runs are not all at one session count", "mixed sessions");
	x86.sessions = sess;
	m1.cores = idle_cores;
	assert_false(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	check_contains(why, "apple-m1's app is not CPU-saturated (0.500 cores at gomaxprocs 1",
		       "unsaturated");
	m1.cores = m1_cores;
	m1.gomaxprocs = none;
	assert_false(translate_latency_comparable(&m1, &x86, why, sizeof(why)));
	check_contains(why, "no gomaxprocs", "no gomaxprocs");
}

/* The documented table of units and kinds. */
static void unit_table(void **state)
{
	static const char *const rates[] = {"int/s", "interactions/s", "ops/s", "op/s", "req/s",
					    "rps",   "qps",            "tps",   "/s",   "per_s",
					    "B/s",   "kB/s",           "KiB/s", "MB/s", "MiB/s",
					    "GB/s",  "GiB/s",          "bps",   "kbps", "Mbps",
					    "Gbps",  "commits/s",      "QPS",   "mb/s"};
	static const char *const times[] = {"ns", "us", "\xc2\xb5s", "\xce\xbcs", "ms", "s", "min",
					    "MS"};
	static const char *const memory[] = {"B", "kB", "KB", "KiB", "MB", "MiB", "GB", "GiB"};
	static const char *const per_session[] = {"kB/session", "KiB/session", "MB/session",
						  "MiB/session", "B/session"};
	static const char *const unknown[] = {"furlongs", "", "%", "/", "kB/sess", "cores",
					      "x/session", "ms/session"};
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(rates); i++)
		if (units_family(rates[i]) != UNIT_RATE)
			fail_msg("'%s' is not a rate", rates[i]);
	for (size_t i = 0; i < ARRAY_LEN(times); i++)
		if (units_family(times[i]) != UNIT_TIME)
			fail_msg("'%s' is not a time", times[i]);
	for (size_t i = 0; i < ARRAY_LEN(memory); i++)
		if (units_family(memory[i]) != UNIT_MEMORY)
			fail_msg("'%s' is not a memory size", memory[i]);
	for (size_t i = 0; i < ARRAY_LEN(per_session); i++)
		if (units_family(per_session[i]) != UNIT_PER_SESSION)
			fail_msg("'%s' is not a memory per session", per_session[i]);
	for (size_t i = 0; i < ARRAY_LEN(unknown); i++)
		if (units_family(unknown[i]) != UNIT_UNKNOWN)
			fail_msg("'%s' is not unknown", unknown[i]);
	/* the families in words, as the messages of --apply say them (written by hand) */
	assert_string_equal(units_family_words(UNIT_RATE), "a rate (int/s, qps, MB/s, ...)");
	assert_string_equal(units_family_words(UNIT_TIME), "a time (ns, us, ms, s, ...)");
	assert_string_equal(units_family_words(UNIT_MEMORY), "a memory size (kB, MiB, ...)");
	assert_string_equal(units_family_words(UNIT_PER_SESSION),
			    "a memory per session (kB/session, ...)");
	assert_string_equal(units_family_words(UNIT_UNKNOWN), "no unit");
}

static enum translate_kind kind_of(const char *name, const char *unit, const char *word,
				   const char *how)
{
	enum translate_kind k = TRANSLATE_NKINDS;
	const char *got = NULL;
	if (translate_item_kind(name, unit, word, &k, &got) != 0)
		fail_msg("'%s' '%s': %s", name ? name : "", unit, err_msg());
	assert_string_equal(got, how);
	return k;
}

/* Kinds from the unit and the name, or the kind column. */
static void item_kinds(void **state)
{
	enum translate_kind k;
	const char *how;
	(void)state;
	assert_int_equal(kind_of("throughput", "int/s", NULL, "unit"), TRANSLATE_RATE);
	assert_int_equal(kind_of("net", "Gbps", NULL, "unit"), TRANSLATE_RATE);
	assert_int_equal(kind_of("disk", "MB/s", NULL, "unit"), TRANSLATE_RATE);
	assert_int_equal(kind_of("cpu per interaction", "\xc2\xb5s", NULL, "unit"), TRANSLATE_CPU);
	assert_int_equal(kind_of(NULL, "ms", NULL, "unit"), TRANSLATE_CPU);
	assert_int_equal(kind_of("p50 latency", "ms", NULL, "unit and name"), TRANSLATE_LATENCY);
	assert_int_equal(kind_of("P99", "ms", NULL, "unit and name"), TRANSLATE_LATENCY);
	assert_int_equal(kind_of("response Latency", "s", NULL, "unit and name"),
			 TRANSLATE_LATENCY);
	assert_int_equal(kind_of("idle rss", "kB", NULL, "unit and name"), TRANSLATE_IDLE);
	assert_int_equal(kind_of("rss", "MiB", NULL, "unit"), TRANSLATE_LOADED);
	assert_int_equal(kind_of("slope", "kB/session", NULL, "unit"), TRANSLATE_SLOPE);
	/* the kind column wins over the name, within the unit's family */
	assert_int_equal(kind_of("p50", "ms", "cpu_time", "kind column"), TRANSLATE_CPU);
	assert_int_equal(kind_of("rss", "kB", "idle_memory", "kind column"), TRANSLATE_IDLE);
	assert_int_equal(kind_of("x", "kB", "", "unit"), TRANSLATE_LOADED);
	err_clear();
	assert_true(translate_item_kind("x", "kB", "latency", &k, &how) < 0);
	check_contains(err_msg(), "kind 'latency' needs a time", "kind against unit");
	assert_true(translate_item_kind("x", "kB", "speed", &k, &how) < 0);
	check_contains(err_msg(), "unknown kind 'speed'", "unknown kind");
	assert_true(translate_item_kind("x", "furlongs", NULL, &k, &how) < 0);
	check_contains(err_msg(), "unknown unit 'furlongs' (known: rates int/s", "unknown unit");
	check_contains(err_msg(), "kB/session", "the known units include kB/session");
	err_clear();
	for (int i = 0; i < TRANSLATE_NKINDS; i++) {
		assert_int_equal(translate_kind_parse(translate_kind_name((enum translate_kind)i), &k),
				 0);
		assert_int_equal(k, i);
	}
}

static void unit_scale(void **state)
{
	(void)state;
	check_close(units_scale("ms", "us"), 1000, REL, "ms in us");
	check_close(units_scale("us", "\xc2\xb5s"), 1, REL, "us is µs");
	check_close(units_scale("kB", "MiB"), 1.0 / 1024, REL, "kB in MiB");
	check_close(units_scale("kB", "KiB"), 1, REL, "kB is KiB");
	check_close(units_scale("kB/session", "MiB/session"), 1.0 / 1024, REL, "per session");
	check_close(units_scale("interactions/s", "int/s"), 1, REL, "interactions");
	assert_true(isnan(units_scale("kB", "MB")));
	assert_true(isnan(units_scale("interactions/s", "Gbps")));
	assert_true(isnan(units_scale("ms", "kB")));
}

/* ------------------------------------------------------------ --apply */

static void set_factor(struct translate_factor *f, enum translate_kind kind, double factor,
		       double lo, double hi)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->measured = f->has_ci = true;
	f->to_over_from = kind != TRANSLATE_RATE;
	f->factor = factor;
	f->ci_lo = lo;
	f->ci_hi = hi;
}

/*
 * Hand-set factors: rate 3 (2.5-4), cpu 2 (1.5-2.5), loaded 0.8 (0.75-0.9),
 * latency 3.5 (3.2-3.6); idle and slope unmeasured. By hand: 300 int/s / 3
 * = 100 (75-120); 20 ms CPU x 2 = 40 (30-50); 20 ms p95 x 3.5 = 70 (64-72);
 * 1000 kB x 0.8 = 800 (750-900).
 */
static void apply_kinds(void **state)
{
	struct translate_factor f[TRANSLATE_NKINDS];
	const struct translate_item items[] = {
		{"peak", "300", "int/s", NULL, 2, 2, 3, 0},
		{NULL, "20", "ms", NULL, 3, 2, 3, 0},
		{"p95", "20", "ms", NULL, 4, 2, 3, 0},
		{"rss", "1000", "kB", NULL, 5, 2, 3, 0},
		{"idle rss", "1000", "kB", NULL, 6, 2, 3, 0},
		{"slope", "585", "kB/session", NULL, 7, 2, 3, 0},
	};
	struct translate_applied out[ARRAY_LEN(items)];
	(void)state;
	memset(f, 0, sizeof(f));
	set_factor(&f[TRANSLATE_RATE], TRANSLATE_RATE, 3, 2.5, 4);
	set_factor(&f[TRANSLATE_CPU], TRANSLATE_CPU, 2, 1.5, 2.5);
	set_factor(&f[TRANSLATE_LOADED], TRANSLATE_LOADED, 0.8, 0.75, 0.9);
	set_factor(&f[TRANSLATE_LATENCY], TRANSLATE_LATENCY, 3.5, 3.2, 3.6);
	assert_int_equal(translate_apply(f, items, ARRAY_LEN(items), "f.tsv", out), 0);
	assert_true(out[0].translated);
	check_close(out[0].translated_value, 100, REL, "rate");
	check_close(out[0].lo, 75, REL, "rate lo");
	check_close(out[0].hi, 120, REL, "rate hi");
	assert_int_equal(out[1].kind, TRANSLATE_CPU);
	check_close(out[1].translated_value, 40, REL, "cpu time");
	check_close(out[1].lo, 30, REL, "cpu lo");
	check_close(out[1].hi, 50, REL, "cpu hi");
	assert_int_equal(out[2].kind, TRANSLATE_LATENCY);
	assert_int_equal(out[2].measure, TM_P95);
	check_close(out[2].translated_value, 70, REL, "latency");
	check_close(out[2].lo, 64, REL, "latency lo");
	check_close(out[2].hi, 72, REL, "latency hi");
	check_close(out[3].translated_value, 800, REL, "loaded");
	check_close(out[3].factor, 0.8, REL, "the loaded factor");
	/* a kind without a factor: not translated, no value, not an error */
	for (size_t i = 4; i < 6; i++) {
		assert_false(out[i].translated);
		assert_true(isnan(out[i].translated_value) && isnan(out[i].factor));
	}
	assert_int_equal(out[4].kind, TRANSLATE_IDLE);
	assert_int_equal(out[5].kind, TRANSLATE_SLOPE);
}

/* Refusals name file:line:col. */
static void apply_refusals(void **state)
{
	struct translate_factor f[TRANSLATE_NKINDS];
	static const struct {
		struct translate_item item;
		const char *message;
	} cases[] = {
		{{"x", "inf", "int/s", NULL, 2, 2, 3, 0}, "f.tsv:2:2: 'inf' is not a finite number"},
		{{"x", "nan", "ms", NULL, 3, 2, 3, 0}, "f.tsv:3:2: 'nan' is not a finite number"},
		{{"x", "1e999", "kB", NULL, 4, 2, 3, 0}, "f.tsv:4:2: '1e999' is not a finite number"},
		{{"x", "many", "kB", NULL, 5, 2, 3, 0}, "f.tsv:5:2: 'many' is not a finite number"},
		{{"x", "-3", "int/s", NULL, 6, 2, 3, 0},
		 "f.tsv:6:2: '-3' is negative: a rate figure cannot be below 0"},
		{{"x", "-1", "ms", NULL, 7, 2, 3, 0}, "f.tsv:7:2: '-1' is negative"},
		{{"x", "3", "furlongs", NULL, 8, 4, 5, 0}, "f.tsv:8:5: unknown unit 'furlongs' (known:"},
		{{"x", "3", "kB", "latency", 9, 2, 3, 4}, "f.tsv:9:4: kind 'latency' needs a time"},
		{{"x", "1e308", "ms", NULL, 10, 2, 3, 0},
		 "f.tsv:10:2: '1e308' ms translates to a value out of range"},
	};
	(void)state;
	memset(f, 0, sizeof(f));
	set_factor(&f[TRANSLATE_RATE], TRANSLATE_RATE, 3, 2.5, 4);
	set_factor(&f[TRANSLATE_CPU], TRANSLATE_CPU, 2.8, 2.6, 3.3);
	set_factor(&f[TRANSLATE_LOADED], TRANSLATE_LOADED, 0.85, 0.84, 0.91);
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct translate_applied out;
		err_clear();
		if (translate_apply(f, &cases[i].item, 1, "f.tsv", &out) >= 0)
			fail_msg("case %zu ('%s' %s) was accepted", i, cases[i].item.value,
				 cases[i].item.unit);
		check_contains(err_msg(), cases[i].message, "refusal");
	}
	err_clear();
}

/* ------------------------------------------------ on the real corpus */

CORPORA_FIXTURE(db, setup, teardown, CAPACITY)

static struct translate_request m1_to_core(const struct run_filter *filter)
{
	struct translate_request req;
	memset(&req, 0, sizeof(req));
	req.filter = filter;
	req.from = "subcorpus=m1";
	req.to = "subcorpus=core";
	req.seed = 1;
	return req;
}

/*
 * The acceptance: the M1 figures of the capacity write-up translate
 * to x86 values whose intervals hold the corpus's x86 figures (ips median
 * 299.3; cpu_ms_per_int median 3.3470 ms = 3347 µs; rss_idle_kb median
 * 28272; rss_load_med_kb median 53956), each with its own kind's factor;
 * the slope is refused with the reason; 30 ms of p50 latency goes through
 * the latency factor (103.254 / 30.021 = 3.4393924253022883: 30 x it =
 * 103.18177275906865 ms), never the rate's or the RSS's.
 */
static void corpus_m1_to_x86(void **state)
{
	struct run_filter filter = {0};
	struct translate_request req = m1_to_core(&filter);
	const struct translate_item items[] = {
		{"throughput", "897", "int/s", NULL, 2, 2, 3, 0},
		{"cpu per interaction", "1199", "\xc2\xb5s", NULL, 3, 2, 3, 0},
		{"idle rss", "34752", "kB", NULL, 4, 2, 3, 0},
		{"loaded rss", "63328", "kB", NULL, 5, 2, 3, 0},
		{"per-session slope", "585", "kB/session", NULL, 6, 2, 3, 0},
		{"p50 latency", "30", "ms", NULL, 7, 2, 3, 0},
	};
	static const double x86[] = {299.3, 3347, 28272, 53956};
	static const enum translate_kind kinds[] = {TRANSLATE_RATE, TRANSLATE_CPU, TRANSLATE_IDLE,
						    TRANSLATE_LOADED};
	struct translate_result res;
	const struct translate_factor *f = res.factors;
	(void)state;
	req.items = items;
	req.nitems = ARRAY_LEN(items);
	req.items_path = "m1.tsv";
	req.check = "subcorpus=core";
	assert_int_equal(translate_run(db, &req, &res), 0);
	assert_string_equal(res.from.name, "apple-m1");
	assert_string_equal(res.to.name, "gce-e2");
	assert_int_equal(res.from.sel.n, 3);
	assert_int_equal(res.to.sel.n, 3);
	/* every kind's factor against the files (values as in the tests above) */
	check_close(f[TRANSLATE_RATE].factor, 2.9972590317049503, REL, "rate");
	check_close(f[TRANSLATE_CPU].factor, 2.9658913694957563, REL, "cpu on midpoints");
	check_close(f[TRANSLATE_CPU].end_lo, 2.791427171290123, REL, "cpu, all of cpu_s");
	check_close(f[TRANSLATE_CPU].end_hi, 3.1636174607954732, REL, "cpu, the window's share");
	check_close(f[TRANSLATE_IDLE].factor, 0.8161662817551963, REL, "idle");
	check_close(f[TRANSLATE_LOADED].factor, 0.8520085901970692, REL, "loaded");
	check_close(f[TRANSLATE_LATENCY].factor, 3.4393924253022883, REL, "latency");
	assert_false(f[TRANSLATE_SLOPE].measured);
	check_contains(f[TRANSLATE_SLOPE].words, "apple-m1's runs have one session count (25)",
		       "the slope's reason");
	/* the CPU factor says how the windows were handled */
	check_contains(f[TRANSLATE_CPU].method, "windows mismatched, carried into the interval",
		       "cpu method");
	check_contains(f[TRANSLATE_CPU].method,
		       "cpu_s spans ramp 3 s + warm-up 3 s + window 45 s = 51 s", "cpu method");
	check_contains(f[TRANSLATE_CPU].method, "cpu_s x 45/51", "cpu method");
	check_contains(f[TRANSLATE_CPU].method, "gce-e2: cpu_s covers the counted window",
		       "cpu method");
	/* latency: why it may be translated */
	check_contains(f[TRANSLATE_LATENCY].method, "closed-loop (think time 0) at 25 sessions",
		       "latency method");
	check_contains(f[TRANSLATE_LATENCY].method, "apple-m1 0.949-0.950, gce-e2 1.004-1.004",
		       "latency method: the cores");

	assert_int_equal(res.napplied, ARRAY_LEN(items));
	for (size_t i = 0; i < 4; i++) {
		const struct translate_applied *a = &res.applied[i];
		assert_true(a->translated);
		assert_int_equal(a->kind, kinds[i]);
		check_close(a->factor, f[kinds[i]].factor, REL, "its own kind's factor");
		check_inside(a->lo, x86[i], a->hi, items[i].name);
		/* --check: measured on the core runs, inside */
		assert_true(a->checked && a->inside);
		assert_int_equal(a->measured_n, 3);
		assert_string_equal(a->check, "inside");
	}
	/* the measured figures: ips 299.3, idle 28272, loaded 53956 (medians); the CPU from
	 * core's traces over started_at + 3 s .. + 45 s: python3 median of (app_j[last] -
	 * app_j[first]) / 100 / (epoch span) x 45 x 1e6 / ints = 3347.0198643142885 */
	check_close(res.applied[0].measured, 299.3, REL, "measured ips");
	check_close(res.applied[1].measured, 3347.0198643142885, 1e-9, "measured cpu (trace)");
	check_close(res.applied[2].measured, 28272, REL, "measured idle");
	check_close(res.applied[3].measured, 53956, REL, "measured loaded");
	/* the slope: not translated, its row says why */
	assert_int_equal(res.applied[4].kind, TRANSLATE_SLOPE);
	assert_false(res.applied[4].translated);
	assert_true(isnan(res.applied[4].translated_value));
	check_contains(res.applied[4].check, "not checked", "slope check");
	/* the latency: its own factor, ~103 ms, checked against p50_ms 103.254 */
	assert_int_equal(res.applied[5].kind, TRANSLATE_LATENCY);
	check_close(res.applied[5].factor, 3.4393924253022883, REL, "latency factor used");
	assert_true(res.applied[5].factor != f[TRANSLATE_RATE].factor &&
		    res.applied[5].factor != f[TRANSLATE_LOADED].factor);
	check_close(res.applied[5].translated_value, 103.18177275906865, REL, "30 ms translated");
	check_inside(res.applied[5].lo, 103.254, res.applied[5].hi, "p50");
	assert_true(res.applied[5].inside);
	assert_true(res.check_is_to);
	translate_result_release(&res);
}

/*
 * --apply-medians: the M1 medians (python3: tput 897.0796281892916, cpu_s /
 * ints 1198.9998019409784, idle 34640, loaded 63328, p50 30.021); no slope.
 */
static void corpus_own_medians(void **state)
{
	struct run_filter filter = {0};
	struct translate_request req = m1_to_core(&filter);
	static const double want[] = {897.0796281892916, 1198.9998019409784, 34640, 63328, 30.021};
	static const enum translate_kind kinds[] = {TRANSLATE_RATE, TRANSLATE_CPU, TRANSLATE_IDLE,
						    TRANSLATE_LOADED, TRANSLATE_LATENCY};
	struct translate_result res;
	(void)state;
	req.apply_medians = true;
	assert_int_equal(translate_run(db, &req, &res), 0);
	assert_int_equal(res.napplied, ARRAY_LEN(want));
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		check_close(res.applied[i].value, want[i], REL, res.applied[i].name);
		assert_int_equal(res.applied[i].kind, kinds[i]);
		assert_true(res.applied[i].translated);
		assert_false(res.applied[i].checked); /* no --check */
	}
	/* a median factor takes the from-median onto the to-median */
	check_close(res.applied[0].translated_value, 299.3, REL, "rate onto ips");
	check_close(res.applied[4].translated_value, 103.254, REL, "p50 onto p50_ms");
	translate_result_release(&res);
}

/*
 * Both arms with traces (the capacity main corpus, memory store, blocks
 * 1-3, e2-medium against e2-small: both gce-e2, 9 runs each): the CPU from
 * each trace's plateau (system.tsv's window: conn >= 0.8 max, trim 1), cores
 * x 90 s x 1e6 / interactions; python3 on the samples folder: median 15442.164...
 * / 5506.598... = 2.804301680262966. The slope: scipy.stats.linregress of
 * system.tsv's load_app_kb on level: medium 478.62333333333333 (95%
 * 422.5126318105942-534.7340348560725), small 471.4433333333334
 * (407.5868830570657-535.299783609601): factor 0.9849986419383372, interval
 * 0.7622235662758414-1.2669438575497254. Latency: the runs have no gomaxprocs.
 */
static void corpus_traces_and_slope(void **state)
{
	struct run_filter filter = {0};
	struct translate_request req = m1_to_core(&filter);
	struct translate_result res;
	const struct translate_factor *f = res.factors;
	(void)state;
	req.from = "target=medium cfg=mem block=1,2,3";
	req.to = "target=small cfg=mem block=1,2,3";
	assert_int_equal(translate_run(db, &req, &res), 0);
	assert_int_equal(res.from.sel.n, 9);
	assert_int_equal(res.to.sel.n, 9);
	check_close(f[TRANSLATE_CPU].factor, 2.804301680262966, 1e-9, "cpu on both traces");
	check_close(f[TRANSLATE_CPU].mean_factor, 2.879103131931019, 1e-9, "cpu means");
	check_contains(f[TRANSLATE_CPU].method, "windows matched on both sides' traces",
		       "cpu method");
	assert_true(isnan(f[TRANSLATE_CPU].end_lo));
	assert_true(f[TRANSLATE_SLOPE].measured);
	check_close(f[TRANSLATE_SLOPE].factor, 0.9849986419383372, 1e-9, "slope factor");
	check_close(f[TRANSLATE_SLOPE].ci_lo, 0.7622235662758414, 1e-9, "slope low");
	check_close(f[TRANSLATE_SLOPE].ci_hi, 1.2669438575497254, 1e-9, "slope high");
	check_close(f[TRANSLATE_SLOPE].from.median, 478.62333333333333, 1e-9, "medium slope");
	assert_false(f[TRANSLATE_LATENCY].measured);
	check_contains(f[TRANSLATE_LATENCY].words, "no gomaxprocs", "latency refused");
	translate_result_release(&res);
}

static void corpus_errors(void **state)
{
	struct run_filter filter = {0};
	struct translate_request req = m1_to_core(&filter);
	struct translate_result res;
	(void)state;
	req.check = "subcorpus=nothing";
	assert_true(translate_run(db, &req, &res) < 0);
	check_contains(err_msg(), "no runs for 'subcorpus=nothing'", "an empty check");
	err_clear();
	/* a metric that is no rate gives no rate factor (the latency kind is p50's own) */
	req.check = NULL;
	req.metric = "p50_ms";
	assert_int_equal(translate_run(db, &req, &res), 0);
	assert_false(res.factors[TRANSLATE_RATE].measured);
	check_contains(res.factors[TRANSLATE_RATE].words, "the metric p50_ms is a latency", "p50 metric");
	assert_false(res.has_mixed);
	assert_true(res.factors[TRANSLATE_LATENCY].measured);
	translate_result_release(&res);
}

/* The rate factor alone, as size --translate measures it. */
static void corpus_rate_factor(void **state)
{
	struct run_filter filter = {0};
	struct translate_rate rate;
	(void)state;
	assert_int_equal(translate_rate_factor(db, &filter, "subcorpus=m1", "subcorpus=core", NULL, 1,
					       &rate),
			 0);
	check_close(rate.factor.factor, 2.9972590317049503, REL, "rate factor");
	assert_true(rate.factor.has_ci);
	assert_string_equal(rate.from_name, "apple-m1");
	assert_string_equal(rate.to_name, "gce-e2");
	assert_int_equal(rate.from_runs, 3);
	assert_int_equal(rate.to_runs, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rate_factor),
		cmocka_unit_test(rate_bootstrap_seeded),
		cmocka_unit_test(memory_factors),
		cmocka_unit_test(latency_factor),
		cmocka_unit_test(cpu_bounds),
		cmocka_unit_test(cpu_factor_bounded),
		cmocka_unit_test(not_measured),
		cmocka_unit_test(slope_factor),
		cmocka_unit_test(latency_rule),
		cmocka_unit_test(unit_table),
		cmocka_unit_test(item_kinds),
		cmocka_unit_test(unit_scale),
		cmocka_unit_test(apply_kinds),
		cmocka_unit_test(apply_refusals),
		cmocka_unit_test(corpus_m1_to_x86),
		cmocka_unit_test(corpus_own_medians),
		cmocka_unit_test(corpus_traces_and_slope),
		cmocka_unit_test(corpus_errors),
		cmocka_unit_test(corpus_rate_factor),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
