/*
 * Unit tests for analysis/smt (what a second hardware thread is worth) and
 * analysis/translate (carrying a figure from one CPU to another, and
 * --apply's arithmetic over items).
 *
 * smt: the 30 runs of SHARED_CORPORA/writeups/gomaxprocs-affinity/runs.tsv
 * copied into C arrays (tag, threads = threads_per_proc, procs, cpuset,
 * tput), placed on that host's topology (lscpu.txt in the same folder:
 * 8 CPUs = 4 cores x 2 threads, siblings 0/4 1/5 2/6 3/7). Seed
 * 000_3717fea61227de3c.txt quotes the figures: four threads on two physical
 * cores deliver about 70% of four on four; the second SMT thread is worth
 * about 1.27x; the 4 -> 8 step about 1.17x; eight single-thread processes
 * about 4.92x one process against a ceiling of about 5x (4 x 1.27).
 *
 * translate: SHARED_CORPORA/sky/gcp-x86-capacity-20260816/m1/m1.tsv (tput,
 * cpu_s, ints, idle_rss, load_rss) against core/results.tsv (ips,
 * cpu_s_win, ints, rss_idle_kb, rss_load_med_kb), copied into C arrays.
 * Seed 001_1eadbe031a5fc235.txt: M1 : x86 per-core factor 2.96x; x86 uses
 * 15-19% less memory.
 *
 * Every expected value was computed outside this code with python3's
 * standard library (statistics.median / statistics.mean; the snippet is
 * in the comment) and is copied with repr(), compared to 1e-12 relative.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/smt.h"
#include "analysis/translate.h"
#include "common/err.h"
#include "importers/topology.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define REL 1e-12
#define LSCPU_TXT SHARED_CORPORA "/writeups/gomaxprocs-affinity/lscpu.txt"

static void check_close(double actual, double expected, double rel, const char *what)
{
	double tol = expected == 0 ? rel : rel * fabs(expected);
	if (!(fabs(actual - expected) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (rel %g)", what, actual, expected, rel);
}

static void check_contains(const char *text, const char *part, const char *what)
{
	if (strstr(text, part) == NULL)
		fail_msg("%s: '%s' does not contain '%s'", what, text, part);
}

static void check_msg(const char *message)
{
	check_contains(err_msg(), message, "error message");
}

/* round(x, places) == want, as a seed quotes it */
static void check_rounded(double x, int places, double want, const char *what)
{
	double scale = pow(10, places);
	if (round(x * scale) != round(want * scale))
		fail_msg("%s: %.17g rounds to %.*f, the seed says %.*f", what, x, places,
			 round(x * scale) / scale, places, want);
}

/* ------------------------------------------------------------------- smt */

/* runs.tsv, in file order: tag, tput, threads_per_proc, procs, cpuset */
static const struct smt_run affinity_runs[] = {
	{"sweep-g1-b1", 475.2284019761499, 1, 1, NULL},
	{"sweep-g1-b2", 485.26070274273076, 1, 1, NULL},
	{"sweep-g1-b3", 484.13466860190584, 1, 1, NULL},
	{"sweep-g2-b1", 853.212014958686, 2, 1, NULL},
	{"sweep-g2-b2", 881.2907259769522, 2, 1, NULL},
	{"sweep-g2-b3", 865.4682448787189, 2, 1, NULL},
	{"sweep-g4-b1", 1534.0434497238257, 4, 1, NULL},
	{"sweep-g4-b2", 1538.8011664466776, 4, 1, NULL},
	{"sweep-g4-b3", 1553.4903348492956, 4, 1, NULL},
	{"sweep-g8-b1", 1796.1987044774646, 8, 1, NULL},
	{"sweep-g8-b2", 1792.770784680148, 8, 1, NULL},
	{"sweep-g8-b3", 1808.6222662524697, 8, 1, NULL},
	{"pin-distinct-r1", 1556.5, 4, 1, "0,1,2,3"},
	{"pin-distinct-r2", 1568.5, 4, 1, "0,1,2,3"},
	{"pin-distinct-r3", 1582.5, 4, 1, "0,1,2,3"},
	{"pin-siblings-r1", 1084.7, 4, 1, "0,4,1,5"},
	{"pin-siblings-r2", 1102.0, 4, 1, "0,4,1,5"},
	{"pin-siblings-r3", 1097.0, 4, 1, "0,4,1,5"},
	{"shard-1x8-r1", 1796.2, 8, 1, NULL},
	{"shard-1x8-r2", 1785.1, 8, 1, NULL},
	{"shard-1x8-r3", 1819.7, 8, 1, NULL},
	{"shard-2x4-r1", 2093.1, 4, 2, NULL},
	{"shard-2x4-r2", 2077.0, 4, 2, NULL},
	{"shard-2x4-r3", 2092.1, 4, 2, NULL},
	{"shard-4x2-r1", 2250.7, 2, 4, NULL},
	{"shard-4x2-r2", 2198.3, 2, 4, NULL},
	{"shard-4x2-r3", 2270.7, 2, 4, NULL},
	{"shard-8x1-r1", 2415.3, 1, 8, NULL},
	{"shard-8x1-r2", 2384.0, 1, 8, NULL},
	{"shard-8x1-r3", 2383.2, 1, 8, NULL},
};

static void load_epyc(struct topology *t)
{
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", t), 0);
	assert_int_equal(t->n, 8);
	assert_int_equal(t->physical_cores, 4);
}

static const struct smt_figure *figure(const struct smt_figures *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->figures[i].name, name))
			return &r->figures[i];
	fail_msg("no figure '%s'", name);
	return NULL;
}

static void check_figure(const struct smt_figure *f, double value, double lo, double hi,
			 size_t num_n, size_t den_n)
{
	if (!f->measured)
		fail_msg("%s: not measured (%s)", f->name, f->note);
	check_close(f->value, value, REL, f->name);
	check_close(f->lo, lo, REL, f->name);
	check_close(f->hi, hi, REL, f->name);
	assert_int_equal(f->num.s.n, num_n);
	assert_int_equal(f->den.s.n, den_n);
	/* the bounds are the ratios of the ranges' ends */
	check_close(f->lo, f->num.s.min / f->den.s.max, REL, f->name);
	check_close(f->hi, f->num.s.max / f->den.s.min, REL, f->name);
	assert_true(f->lo <= f->value && f->value <= f->hi);
}

static void check_not_measured(const struct smt_figures *r, const char *name)
{
	const struct smt_figure *f = figure(r, name);
	if (f->measured)
		fail_msg("%s: measured as %g, expected not measured", name, f->value);
	check_contains(f->note, "not measured", name);
}

/*
 * python3:
 *   rows = [l.split("\t") for l in open("runs.tsv").read().split("\n")[1:] if l]
 *   g = lambda f: [float(r[7]) for r in rows if f(r)]
 *   sib = g(lambda r: r[5] == "0,4,1,5"); dis = g(lambda r: r[5] == "0,1,2,3")
 *   gT  = g(lambda r: r[5] == "" and r[2] == "1" and r[3] == "T")  # T = 1, 2, 4, 8
 *   sPxT = g(lambda r: r[2] == "P" and r[3] == "T")
 *   median(a) / median(b), min(a) / max(b), max(a) / min(b)
 */
static void affinity_figures(void **state)
{
	struct topology t;
	struct smt_figures r;
	const struct smt_figure *f;
	(void)state;
	load_epyc(&t);
	assert_int_equal(smt_compute(affinity_runs, ARRAY_LEN(affinity_runs), &t, &r), 0);
	assert_int_equal(r.physical_cores, 4);
	assert_int_equal(r.logical_cpus, 8);
	assert_int_equal(r.n, 7);

	/* 4 threads on 0,4,1,5 (median 1097.0) / 4 threads on 0,1,2,3 (median 1568.5) */
	f = figure(&r, "shared_vs_distinct");
	check_figure(f, 1097.0 / 1568.5, 1084.7 / 1582.5, 1102.0 / 1556.5, 3, 3);
	check_close(f->value, 0.6993943257889703, REL, "shared_vs_distinct (python)");
	check_close(f->lo, 0.685434439178515, REL, "shared_vs_distinct lo (python)");
	check_close(f->hi, 0.7079987150658529, REL, "shared_vs_distinct hi (python)");
	check_contains(f->num.tags, "pin-siblings-r1", "shared_vs_distinct num");
	check_contains(f->den.tags, "pin-distinct-r3", "shared_vs_distinct den");

	/*
	 * 4 threads on 2 cores / 2 threads unpinned (sweep-g2, median
	 * 865.4682448787189; no pinned 2-thread runs, so the assumption that
	 * Linux spreads them over 2 cores is used and said)
	 */
	f = figure(&r, "smt_factor");
	check_figure(f, 1097.0 / 865.4682448787189, 1084.7 / 881.2907259769522,
		     1102.0 / 853.212014958686, 3, 3);
	check_close(f->value, 1.2675219529905761, REL, "smt_factor (python)");
	check_close(f->lo, 1.2308083678034387, REL, "smt_factor lo (python)");
	check_close(f->hi, 1.2915898752941972, REL, "smt_factor hi (python)");
	check_contains(f->den.tags, "sweep-g2-b1", "smt_factor den");
	check_contains(f->note, "assumed", "smt_factor note");

	/*
	 * 8 threads unpinned / 4 threads unpinned. The 8-thread arm is every
	 * unpinned single-process run of 8 threads: the sweep's g8 runs AND the
	 * shard-1x8 control runs (6 runs; median of 1785.1, 1792.770784680148,
	 * 1796.1987044774646, 1796.2, 1808.6222662524697, 1819.7 =
	 * (1796.1987044774646 + 1796.2) / 2 = 1796.1993522387324). The 4-thread
	 * arm is the sweep's g4 runs only (the pinned 4-thread runs are not
	 * unpinned): median 1538.8011664466776.
	 */
	f = figure(&r, "smt_step");
	check_figure(f, 1796.1993522387324 / 1538.8011664466776, 1785.1 / 1553.4903348492956,
		     1819.7 / 1534.0434497238257, 6, 3);
	check_close(f->value, 1.167271894124194, REL, "smt_step (python)");
	check_close(f->lo, 1.1490898655466517, REL, "smt_step lo (python)");
	check_close(f->hi, 1.186211512019168, REL, "smt_step hi (python)");
	check_contains(f->num.tags, "sweep-g8-b2", "smt_step num");
	check_contains(f->num.tags, "shard-1x8-r3", "smt_step num");
	check_contains(f->den.tags, "sweep-g4-b3", "smt_step den");
	if (strstr(f->den.tags, "pin-"))
		fail_msg("smt_step den takes pinned runs: %s", f->den.tags);

	/* 4 physical cores x smt_factor, bounds 4 x smt_factor's */
	f = figure(&r, "ceiling");
	assert_true(f->measured);
	check_close(f->value, 4 * 1097.0 / 865.4682448787189, REL, "ceiling");
	check_close(f->value, 5.0700878119623045, REL, "ceiling (python)");
	check_close(f->lo, 4 * 1084.7 / 881.2907259769522, REL, "ceiling lo");
	check_close(f->hi, 4 * 1102.0 / 853.212014958686, REL, "ceiling hi");

	/* 8 processes x 1 thread / 1 thread 1 process (sweep-g1, median 484.13466860190584) */
	f = figure(&r, "sharded 8x1");
	check_figure(f, 2384.0 / 484.13466860190584, 2383.2 / 485.26070274273076,
		     2415.3 / 475.2284019761499, 3, 3);
	check_close(f->value, 4.924249706976294, REL, "sharded 8x1 (python)");
	/* 100 x 4.924249706976294 / 5.0700878119623045 = 97.12 */
	check_contains(f->note, "97%", "sharded 8x1 note");
	check_contains(f->note, "5.07", "sharded 8x1 note");

	f = figure(&r, "sharded 2x4");
	check_figure(f, 2092.1 / 484.13466860190584, 2077.0 / 485.26070274273076,
		     2093.1 / 475.2284019761499, 3, 3);
	check_close(f->value, 4.321318293609523, REL, "sharded 2x4 (python)");
	f = figure(&r, "sharded 4x2");
	check_figure(f, 2250.7 / 484.13466860190584, 2198.3 / 485.26070274273076,
		     2270.7 / 475.2284019761499, 3, 3);
	check_close(f->value, 4.648913093746453, REL, "sharded 4x2 (python)");
	topology_release(&t);
}

/* The seed's rounded figures. */
static void affinity_seed_figures(void **state)
{
	struct topology t;
	struct smt_figures r;
	(void)state;
	load_epyc(&t);
	assert_int_equal(smt_compute(affinity_runs, ARRAY_LEN(affinity_runs), &t, &r), 0);
	/* "four threads on two physical cores deliver 70% of four threads on four" */
	check_rounded(figure(&r, "shared_vs_distinct")->value, 2, 0.70, "shared_vs_distinct");
	/* "the second SMT thread on each core is worth 1.27x" */
	check_rounded(figure(&r, "smt_factor")->value, 2, 1.27, "smt_factor");
	/* "the measured 4 -> 8 step is 1.17x" */
	check_rounded(figure(&r, "smt_step")->value, 2, 1.17, "smt_step");
	/* "a hardware ceiling of about 5x (4 physical cores x the measured 1.27)" */
	check_rounded(figure(&r, "ceiling")->value, 0, 5, "ceiling");
	check_close(figure(&r, "ceiling")->value, 4 * 1.27, 0.01, "ceiling against 4 x 1.27");
	/* "eight independent single-threaded processes reach 4.92x" */
	check_rounded(figure(&r, "sharded 8x1")->value, 2, 4.92, "sharded 8x1");
	topology_release(&t);
}

/* A host without SMT: 4 cores x 1 thread; only runs that fit on it. */
static void host_without_smt(void **state)
{
	struct topology t;
	struct smt_figures r;
	struct smt_run runs[16];
	size_t n = 0;
	const struct smt_figure *f;
	static const char nosmt[] = "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0,0\n2,2,0,0\n3,3,0,0\n";
	(void)state;
	assert_int_equal(topology_parse(nosmt, strlen(nosmt), "nosmt", &t), 0);
	assert_int_equal(t.threads_per_core, 1);
	for (size_t i = 0; i < ARRAY_LEN(affinity_runs); i++) {
		const struct smt_run *x = &affinity_runs[i];
		/* 1, 2, 4 threads unpinned, pinned on 0,1,2,3, and sharded 2x4 */
		bool fits = !x->cpuset || !strcmp(x->cpuset, "0,1,2,3");
		bool small = x->procs == 1 ? x->threads <= 4 : x->procs == 2;
		if (fits && small)
			runs[n++] = *x;
	}
	assert_int_equal(n, 15);
	assert_int_equal(smt_compute(runs, n, &t, &r), 0);
	assert_int_equal(r.logical_cpus, 4);
	assert_int_equal(r.physical_cores, 4);
	check_not_measured(&r, "smt_step");
	check_contains(figure(&r, "smt_step")->note, "no SMT", "smt_step note");
	check_not_measured(&r, "shared_vs_distinct");
	check_not_measured(&r, "smt_factor");
	check_not_measured(&r, "ceiling");
	f = figure(&r, "sharded 2x4");
	check_figure(f, 2092.1 / 484.13466860190584, 2077.0 / 485.26070274273076,
		     2093.1 / 475.2284019761499, 3, 3);
	if (strstr(f->note, "ceiling"))
		fail_msg("sharded 2x4 refers to a ceiling that was not measured: %s", f->note);
	topology_release(&t);
}

/* Without the pinned runs there is no SMT factor and so no ceiling. */
static void no_pinned_runs(void **state)
{
	struct topology t;
	struct smt_figures r;
	struct smt_run runs[ARRAY_LEN(affinity_runs)];
	size_t n = 0;
	const struct smt_figure *f;
	(void)state;
	load_epyc(&t);
	for (size_t i = 0; i < ARRAY_LEN(affinity_runs); i++)
		if (!affinity_runs[i].cpuset)
			runs[n++] = affinity_runs[i];
	assert_int_equal(n, 24);
	assert_int_equal(smt_compute(runs, n, &t, &r), 0);
	check_not_measured(&r, "shared_vs_distinct");
	check_not_measured(&r, "smt_factor");
	check_not_measured(&r, "ceiling");
	/* the unpinned figures do not depend on the pinned runs */
	check_figure(figure(&r, "smt_step"), 1796.1993522387324 / 1538.8011664466776,
		     1785.1 / 1553.4903348492956, 1819.7 / 1534.0434497238257, 6, 3);
	f = figure(&r, "sharded 8x1");
	check_figure(f, 2384.0 / 484.13466860190584, 2383.2 / 485.26070274273076,
		     2415.3 / 475.2284019761499, 3, 3);
	if (strstr(f->note, "ceiling"))
		fail_msg("sharded 8x1 refers to a ceiling that was not measured: %s", f->note);
	topology_release(&t);
}

/*
 * Pinned 2-thread runs on 2 distinct cores are the smt_factor's
 * denominator when there are some (no assumption needed).
 */
static void pinned_denominator_preferred(void **state)
{
	struct topology t;
	struct smt_figures r;
	struct smt_run runs[ARRAY_LEN(affinity_runs) + 3];
	size_t n = ARRAY_LEN(affinity_runs);
	const struct smt_figure *f;
	(void)state;
	load_epyc(&t);
	memcpy(runs, affinity_runs, sizeof(affinity_runs));
	runs[n++] = (struct smt_run){"pin-two-r1", 800.0, 2, 1, "0,1"};
	runs[n++] = (struct smt_run){"pin-two-r2", 820.0, 2, 1, "2,3"};
	runs[n++] = (struct smt_run){"pin-two-r3", 810.0, 2, 1, "1-2"};
	assert_int_equal(smt_compute(runs, n, &t, &r), 0);
	f = figure(&r, "smt_factor");
	check_figure(f, 1097.0 / 810.0, 1084.7 / 820.0, 1102.0 / 800.0, 3, 3);
	check_contains(f->den.tags, "pin-two-r1", "smt_factor den");
	if (strstr(f->den.tags, "sweep-"))
		fail_msg("smt_factor den mixes in unpinned runs: %s", f->den.tags);
	check_close(figure(&r, "ceiling")->value, 4 * 1097.0 / 810.0, REL, "ceiling");
	topology_release(&t);
}

static void cpu_not_on_host(void **state)
{
	struct topology t;
	struct smt_figures r;
	struct smt_run runs[ARRAY_LEN(affinity_runs)];
	(void)state;
	load_epyc(&t);
	memcpy(runs, affinity_runs, sizeof(affinity_runs));
	runs[14].cpuset = "0,1,2,9"; /* pin-distinct-r3 */
	err_clear();
	assert_true(smt_compute(runs, ARRAY_LEN(runs), &t, &r) < 0);
	check_msg("CPU 9");
	check_msg("pin-distinct-r3");

	runs[14].cpuset = "0,,1";
	err_clear();
	assert_true(smt_compute(runs, ARRAY_LEN(runs), &t, &r) < 0);
	check_msg("pin-distinct-r3");
	topology_release(&t);
}

static void no_runs(void **state)
{
	struct topology t;
	struct smt_figures r;
	(void)state;
	load_epyc(&t);
	assert_int_equal(smt_compute(affinity_runs, 0, &t, &r), 0);
	for (size_t i = 0; i < r.n; i++)
		if (r.figures[i].measured)
			fail_msg("%s measured without runs", r.figures[i].name);
	check_not_measured(&r, "smt_step");
	topology_release(&t);
}

/* ------------------------------------------------------------- translate */

/* m1/m1.tsv: tput, cpu_s, ints, idle_rss, load_rss (reps 1-3) */
static const double m1_tput[] = {897.6512462962686, 858.8742965751081, 897.0796281892916};
static const double m1_cpu_s[] = {48.41, 48.38, 48.43};
static const double m1_ints[] = {40418, 38673, 40392};
static const double m1_idle[] = {34752, 34640, 34592};
static const double m1_load[] = {63328, 63296, 63408};
/* core/results.tsv: ips, cpu_s_win, ints, rss_idle_kb, rss_load_med_kb (reps 1-3) */
static const double x86_ips[] = {299.3, 288.9, 299.7};
static const double x86_cpu_s[] = {45.16, 45.16, 45.16};
static const double x86_ints[] = {13493, 13026, 13513};
static const double x86_idle[] = {28596, 28272, 28008};
static const double x86_load[] = {53956, 57692, 53304};

static struct translate_input input(const char *name, const double *from, const double *to,
				    size_t n, bool to_over_from)
{
	struct translate_input in = {name, from, n, to, n, to_over_from};
	return in;
}

static void rate_median(void **state)
{
	struct translate_input in = input("rate", m1_tput, x86_ips, 3, false);
	struct translate_figure f;
	(void)state;
	assert_int_equal(translate_figure(&in, "median", 1, "m1", "x86", &f), 0);
	assert_true(f.measured);
	assert_string_equal(f.name, "rate");
	assert_string_equal(f.statistic, "median");
	assert_int_equal(f.from.n, 3);
	assert_int_equal(f.to.n, 3);
	check_close(f.factor, 897.0796281892916 / 299.3, REL, "rate factor");
	check_close(f.factor, 2.9972590317049503, REL, "rate factor (python)");
	check_close(f.range_lo, 858.8742965751081 / 299.7, REL, "rate range_lo");
	check_close(f.range_hi, 897.6512462962686 / 288.9, REL, "rate range_hi");
	assert_true(f.has_ci);
	if (!(f.ci_lo < f.factor && f.factor < f.ci_hi))
		fail_msg("interval [%.17g, %.17g] does not contain %.17g", f.ci_lo, f.ci_hi,
			 f.factor);
	/* bootstrap medians lie within the data, so the interval within the range ratios */
	assert_true(f.range_lo <= f.ci_lo && f.ci_hi <= f.range_hi);
	check_contains(f.words, "3.00x", "rate words");
	check_contains(f.words, "m1", "rate words");
	check_contains(f.rule, "/ 2.997", "rate rule");
	check_contains(f.rule, "x 2.997", "rate rule");
	/* the seed's 2.96 is ~3 */
	check_close(f.factor, 2.96, 0.02, "rate factor against the seed's 2.96");
}

static void rate_bootstrap_reproducible(void **state)
{
	struct translate_input in = input("rate", m1_tput, x86_ips, 3, false);
	struct translate_figure a, b, c;
	(void)state;
	assert_int_equal(translate_figure(&in, "median", 42, "m1", "x86", &a), 0);
	assert_int_equal(translate_figure(&in, "median", 42, "m1", "x86", &b), 0);
	assert_true(a.ci_lo == b.ci_lo);
	assert_true(a.ci_hi == b.ci_hi);
	assert_int_equal(translate_figure(&in, "median", 7, "m1", "x86", &c), 0);
	assert_true(c.ci_lo < c.factor && c.factor < c.ci_hi);
	assert_true(c.factor == a.factor);
}

/* python3: mean(tput) / mean(ips) = 884.5350570202228 / 295.96666666666664 */
static void rate_mean(void **state)
{
	struct translate_input in = input("rate", m1_tput, x86_ips, 3, false);
	struct translate_figure f;
	(void)state;
	assert_int_equal(translate_figure(&in, "mean", 1, "m1", "x86", &f), 0);
	assert_true(f.measured);
	assert_string_equal(f.statistic, "mean");
	check_close(f.from.mean, 884.5350570202228, REL, "m1 mean");
	check_close(f.to.mean, 295.96666666666664, REL, "x86 mean");
	check_close(f.factor, 2.988630669062584, REL, "mean factor (python)");
	assert_false(f.has_ci);
	check_close(f.range_lo, 858.8742965751081 / 299.7, REL, "mean range_lo");
	check_close(f.range_hi, 897.6512462962686 / 288.9, REL, "mean range_hi");
	/*
	 * The seed's 2.96 is neither the median (2.997) nor the mean (2.989)
	 * factor; it lies between mean(m1)/median(x86) = 2.955345997394663 and
	 * median(m1)/mean(x86) = 3.0310157501609134 (mixed statistics).
	 */
	assert_true(f.from.mean / 299.3 < 2.96 && 2.96 < 897.0796281892916 / f.to.mean);
}

/*
 * CPU microseconds per operation, cpu_s x 1e6 / ints per run; factor =
 * to / from. python3: m1 [1197.7336830125191, 1251.0019910531896,
 * 1198.9998019409784], x86 [3346.9206255095232, 3466.912329187778,
 * 3341.9669947458005]; median(x86) / median(m1) = 2.791427171290123.
 */
static void cpu_per_op(void **state)
{
	double from[3], to[3];
	struct translate_input in;
	struct translate_figure f;
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		from[i] = m1_cpu_s[i] * 1e6 / m1_ints[i];
		to[i] = x86_cpu_s[i] * 1e6 / x86_ints[i];
	}
	in = input("cpu_us_per_op", from, to, 3, true);
	assert_int_equal(translate_figure(&in, "median", 1, "m1", "x86", &f), 0);
	assert_true(f.measured);
	check_close(f.from.median, 1198.9998019409784, REL, "m1 cpu/op");
	check_close(f.to.median, 3346.9206255095232, REL, "x86 cpu/op");
	check_close(f.factor, 2.791427171290123, REL, "cpu factor (python)");
	check_close(f.range_lo, 3341.9669947458005 / 1251.0019910531896, REL, "cpu range_lo");
	check_close(f.range_hi, 3466.912329187778 / 1197.7336830125191, REL, "cpu range_hi");
	assert_true(f.has_ci);
	assert_true(f.ci_lo < f.factor && f.factor < f.ci_hi);
	check_contains(f.words, "x86 needs 2.79x the CPU time per operation of m1", "cpu words");
	check_contains(f.rule, "x 2.791", "cpu rule");
}

/* Memory: factor = to / from, with its sign in words. */
static void memory_factors(void **state)
{
	struct translate_input idle = input("idle_rss_kb", m1_idle, x86_idle, 3, true);
	struct translate_input load = input("load_rss_kb", m1_load, x86_load, 3, true);
	struct translate_figure f;
	double pct;
	(void)state;
	assert_int_equal(translate_figure(&idle, "median", 1, "m1", "x86", &f), 0);
	check_close(f.factor, 28272.0 / 34640.0, REL, "idle factor");
	check_close(f.range_lo, 28008.0 / 34752.0, REL, "idle range_lo");
	check_close(f.range_hi, 28596.0 / 34592.0, REL, "idle range_hi");
	/* 100 x (1 - 28272 / 34640) = 18.38 */
	check_contains(f.words, "x86 uses 18.4% less than m1", "idle words");
	pct = 100 * (1 - f.factor);
	if (round(pct) < 15 || round(pct) > 19)
		fail_msg("idle: %.2f%% less is outside the seed's 15-19%%", pct);
	assert_true(f.ci_lo < f.factor && f.factor < f.ci_hi);

	assert_int_equal(translate_figure(&load, "median", 1, "m1", "x86", &f), 0);
	check_close(f.factor, 53956.0 / 63328.0, REL, "load factor");
	check_close(f.range_lo, 53304.0 / 63408.0, REL, "load range_lo");
	check_close(f.range_hi, 57692.0 / 63296.0, REL, "load range_hi");
	/* 100 x (1 - 53956 / 63328) = 14.80: the seed's "15%" rounded */
	check_contains(f.words, "x86 uses 14.8% less than m1", "load words");
	pct = 100 * (1 - f.factor);
	if (round(pct) < 15 || round(pct) > 19)
		fail_msg("load: %.2f%% less is outside the seed's 15-19%%", pct);
	check_contains(f.rule, "x 0.852", "load rule");
}

static void memory_more(void **state)
{
	const double from[] = {100, 100, 100}, to[] = {130, 130, 130};
	struct translate_input in = input("idle_rss_kb", from, to, 3, true);
	struct translate_figure f;
	(void)state;
	assert_int_equal(translate_figure(&in, "median", 1, "a", "b", &f), 0);
	check_close(f.factor, 1.3, REL, "factor");
	check_contains(f.words, "b uses 30.0% more than a", "words");
}

static void nan_values_skipped(void **state)
{
	const double from[] = {NAN, 2, 4, NAN}, to[] = {1, NAN, 1};
	const double none[] = {NAN, NAN};
	struct translate_input in = {"rate", from, 4, to, 3, false};
	struct translate_input empty = {"idle_rss_kb", none, 2, to, 3, true};
	struct translate_figure f;
	(void)state;
	assert_int_equal(translate_figure(&in, "mean", 1, "a", "b", &f), 0);
	assert_true(f.measured);
	assert_int_equal(f.from.n, 2);
	assert_int_equal(f.to.n, 2);
	check_close(f.factor, 3.0, REL, "factor");

	assert_int_equal(translate_figure(&empty, "median", 1, "a", "b", &f), 0);
	assert_false(f.measured);
	check_contains(f.words, "not measured", "words");
	check_contains(f.words, "from", "words");
}

static void unit_kinds(void **state)
{
	(void)state;
	assert_int_equal(translate_unit_kind("int/s"), UNIT_RATE);
	assert_int_equal(translate_unit_kind("qps"), UNIT_RATE);
	assert_int_equal(translate_unit_kind("ops/s"), UNIT_RATE);
	assert_int_equal(translate_unit_kind("req/s"), UNIT_RATE);
	assert_int_equal(translate_unit_kind("interactions/s"), UNIT_RATE);
	assert_int_equal(translate_unit_kind("ms"), UNIT_TIME);
	assert_int_equal(translate_unit_kind("us"), UNIT_TIME);
	assert_int_equal(translate_unit_kind("s"), UNIT_TIME);
	assert_int_equal(translate_unit_kind("ns"), UNIT_TIME);
	assert_int_equal(translate_unit_kind("kB"), UNIT_MEMORY);
	assert_int_equal(translate_unit_kind("KB"), UNIT_MEMORY);
	assert_int_equal(translate_unit_kind("MiB"), UNIT_MEMORY);
	assert_int_equal(translate_unit_kind("GiB"), UNIT_MEMORY);
	assert_int_equal(translate_unit_kind("furlongs"), UNIT_UNKNOWN);
	assert_int_equal(translate_unit_kind(""), UNIT_UNKNOWN);
	assert_int_equal(translate_unit_kind("%"), UNIT_UNKNOWN);
	assert_int_equal(translate_unit_kind("/"), UNIT_UNKNOWN);
}

/*
 * translate_apply with hand-set factors: rate 3 (interval 2.5-4), loaded
 * RSS 0.8 (0.75-0.9). By hand: 300 int/s / 3 = 100 (300 / 4 = 75 to
 * 300 / 2.5 = 120); 20 ms x 3 = 60 (50 to 80); 1000 kB x 0.8 = 800 (750
 * to 900).
 */
static void apply_items(void **state)
{
	struct translate_figure figs[TRANSLATE_NFIGS];
	const struct translate_item items[] = {
		{"peak", "300", "int/s", 2, 2, 3},
		{NULL, "20", "ms", 3, 2, 3},
		{"rss", "1000", "kB", 4, 2, 3},
	};
	struct translate_applied out[ARRAY_LEN(items)];
	(void)state;
	memset(figs, 0, sizeof(figs));
	figs[TRANSLATE_RATE] = (struct translate_figure){.measured = true, .factor = 3, .has_ci = true,
							 .ci_lo = 2.5, .ci_hi = 4};
	figs[TRANSLATE_LOAD] = (struct translate_figure){.measured = true, .factor = 0.8,
							 .has_ci = true, .ci_lo = 0.75, .ci_hi = 0.9};
	assert_int_equal(translate_apply(figs, items, ARRAY_LEN(items), "f.tsv", out), 0);
	assert_string_equal(out[0].name, "peak");
	assert_int_equal(out[0].kind, UNIT_RATE);
	check_close(out[0].factor, 3, REL, "rate factor");
	check_close(out[0].translated, 100, REL, "rate");
	check_close(out[0].lo, 75, REL, "rate lo");
	check_close(out[0].hi, 120, REL, "rate hi");
	assert_null(out[1].name);
	assert_int_equal(out[1].kind, UNIT_TIME);
	check_close(out[1].translated, 60, REL, "time");
	check_close(out[1].lo, 50, REL, "time lo");
	check_close(out[1].hi, 80, REL, "time hi");
	assert_int_equal(out[2].kind, UNIT_MEMORY);
	check_close(out[2].factor, 0.8, REL, "memory factor");
	check_close(out[2].translated, 800, REL, "memory");
	check_close(out[2].lo, 750, REL, "memory lo");
	check_close(out[2].hi, 900, REL, "memory hi");
	assert_string_equal(translate_kind_name(out[2].kind), "memory");
	assert_null(translate_kind_name(UNIT_UNKNOWN));
}

/* Errors name file:line:col of the value or the unit; a missing factor names the kind. */
static void apply_errors(void **state)
{
	struct translate_figure figs[TRANSLATE_NFIGS];
	const struct translate_item bad_value = {"x", "many", "ms", 7, 2, 3};
	const struct translate_item bad_unit = {"x", "3", "furlongs", 8, 4, 5};
	const struct translate_item memory = {"x", "3", "MiB", 9, 2, 3};
	struct translate_applied out;
	(void)state;
	memset(figs, 0, sizeof(figs));
	figs[TRANSLATE_RATE] = (struct translate_figure){.measured = true, .factor = 3, .has_ci = true,
							 .ci_lo = 2.5, .ci_hi = 4};
	err_clear();
	assert_true(translate_apply(figs, &bad_value, 1, "f.tsv", &out) < 0);
	check_msg("f.tsv:7:2: 'many' is not a number");
	assert_true(translate_apply(figs, &bad_unit, 1, "f.tsv", &out) < 0);
	check_msg("f.tsv:8:5: unknown unit 'furlongs'");
	/* the loaded-RSS factor was not measured */
	assert_true(translate_apply(figs, &memory, 1, "f.tsv", &out) < 0);
	check_msg("no memory factor to translate 'MiB' with");
	err_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(affinity_figures),
		cmocka_unit_test(affinity_seed_figures),
		cmocka_unit_test(host_without_smt),
		cmocka_unit_test(no_pinned_runs),
		cmocka_unit_test(pinned_denominator_preferred),
		cmocka_unit_test(cpu_not_on_host),
		cmocka_unit_test(no_runs),
		cmocka_unit_test(rate_median),
		cmocka_unit_test(rate_bootstrap_reproducible),
		cmocka_unit_test(rate_mean),
		cmocka_unit_test(cpu_per_op),
		cmocka_unit_test(memory_factors),
		cmocka_unit_test(memory_more),
		cmocka_unit_test(nan_values_skipped),
		cmocka_unit_test(unit_kinds),
		cmocka_unit_test(apply_items),
		cmocka_unit_test(apply_errors),
	};
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
