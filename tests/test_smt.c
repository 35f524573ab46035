/*
 * Unit tests for analysis/smt (what a second hardware thread is worth;
 * analysis/translate's tests are in test_translate.c).
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
#include "common/err.h"
#include "importers/topology.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-12
#define LSCPU_TXT SHARED_CORPORA "/writeups/gomaxprocs-affinity/lscpu.txt"

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

/* Per-test setup: *state is the EPYC host's topology (lscpu.txt); the teardown releases it. */
static int epyc_setup(void **state)
{
	static struct topology t;
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", &t), 0);
	assert_int_equal(t.n, 8);
	assert_int_equal(t.physical_cores, 4);
	*state = &t;
	return 0;
}

static int epyc_teardown(void **state)
{
	topology_release(*state);
	return 0;
}

static const struct smt_figure *figure(const struct smt_figures *r, const char *name)
{
	return FIND_NAMED(r->figures, r->n, name, name);
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

/* A sharded figure (3 runs over 3) that names no ceiling: none was measured. */
static void check_sharded_without_ceiling(const struct smt_figures *r, const char *name,
					  double value, double lo, double hi)
{
	const struct smt_figure *f = figure(r, name);
	check_figure(f, value, lo, hi, 3, 3);
	if (strstr(f->note, "ceiling"))
		fail_msg("%s refers to a ceiling that was not measured: %s", name, f->note);
}

static void check_not_measured(const struct smt_figures *r, const char *name)
{
	const struct smt_figure *f = figure(r, name);
	if (f->measured)
		fail_msg("%s: measured as %g, expected not measured", name, f->value);
	check_contains(f->note, "not measured", name);
}

/* F's value and bounds are python3's (the program above affinity_figures). */
static void check_python(const struct smt_figure *f, double value, double lo, double hi)
{
	char what[80];
	snprintf(what, sizeof(what), "%s (python)", f->name);
	check_close(f->value, value, REL, what);
	snprintf(what, sizeof(what), "%s lo (python)", f->name);
	check_close(f->lo, lo, REL, what);
	snprintf(what, sizeof(what), "%s hi (python)", f->name);
	check_close(f->hi, hi, REL, what);
}

/*
 * smt_compute over the affinity runs KEEP accepts, on T, into R (which
 * must succeed); the number of runs kept.
 */
static size_t compute_kept(bool (*keep)(const struct smt_run *), const struct topology *t,
			   struct smt_figures *r)
{
	struct smt_run runs[ARRAY_LEN(affinity_runs)];
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(affinity_runs); i++)
		if (keep(&affinity_runs[i]))
			runs[n++] = affinity_runs[i];
	assert_int_equal(smt_compute(runs, n, t, r), 0);
	return n;
}

/*
 * Without an SMT factor (no pinned sibling runs, or no SMT on the host)
 * none of the figures built on it is measured.
 */
static void check_no_smt_factor(const struct smt_figures *r)
{
	check_not_measured(r, "shared_vs_distinct");
	check_not_measured(r, "smt_factor");
	check_not_measured(r, "ceiling");
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
	const struct topology *t = *state;
	struct smt_figures r;
	const struct smt_figure *f;
	assert_int_equal(smt_compute(affinity_runs, ARRAY_LEN(affinity_runs), t, &r), 0);
	assert_int_equal(r.physical_cores, 4);
	assert_int_equal(r.logical_cpus, 8);
	assert_int_equal(r.n, 7);

	/* 4 threads on 0,4,1,5 (median 1097.0) / 4 threads on 0,1,2,3 (median 1568.5) */
	f = figure(&r, "shared_vs_distinct");
	check_figure(f, 1097.0 / 1568.5, 1084.7 / 1582.5, 1102.0 / 1556.5, 3, 3);
	check_python(f, 0.6993943257889703, 0.685434439178515, 0.7079987150658529);
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
	check_python(f, 1.2675219529905761, 1.2308083678034387, 1.2915898752941972);
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
	check_python(f, 1.167271894124194, 1.1490898655466517, 1.186211512019168);
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
}

/* The seed's rounded figures. */
static void affinity_seed_figures(void **state)
{
	const struct topology *t = *state;
	struct smt_figures r;
	assert_int_equal(smt_compute(affinity_runs, ARRAY_LEN(affinity_runs), t, &r), 0);
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
}

/* 1, 2, 4 threads unpinned, pinned on 0,1,2,3, and sharded 2x4: what fits on 4 cores */
static bool fits_4_cores(const struct smt_run *x)
{
	bool fits = !x->cpuset || !strcmp(x->cpuset, "0,1,2,3");
	bool small = x->procs == 1 ? x->threads <= 4 : x->procs == 2;
	return fits && small;
}

static bool unpinned(const struct smt_run *x)
{
	return !x->cpuset;
}

/* A host without SMT: 4 cores x 1 thread; only runs that fit on it. */
static void host_without_smt(void **state)
{
	struct topology t;
	struct smt_figures r;
	static const char nosmt[] = "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0,0\n2,2,0,0\n3,3,0,0\n";
	(void)state;
	assert_int_equal(topology_parse(nosmt, strlen(nosmt), "nosmt", &t), 0);
	assert_int_equal(t.threads_per_core, 1);
	assert_int_equal(compute_kept(fits_4_cores, &t, &r), 15);
	assert_int_equal(r.logical_cpus, 4);
	assert_int_equal(r.physical_cores, 4);
	check_not_measured(&r, "smt_step");
	check_contains(figure(&r, "smt_step")->note, "no SMT", "smt_step note");
	check_no_smt_factor(&r);
	check_sharded_without_ceiling(&r, "sharded 2x4", 2092.1 / 484.13466860190584,
				      2077.0 / 485.26070274273076, 2093.1 / 475.2284019761499);
	topology_release(&t);
}

/* Without the pinned runs there is no SMT factor and so no ceiling. */
static void no_pinned_runs(void **state)
{
	const struct topology *t = *state;
	struct smt_figures r;
	assert_int_equal(compute_kept(unpinned, t, &r), 24);
	check_no_smt_factor(&r);
	/* the unpinned figures do not depend on the pinned runs */
	check_figure(figure(&r, "smt_step"), 1796.1993522387324 / 1538.8011664466776,
		     1785.1 / 1553.4903348492956, 1819.7 / 1534.0434497238257, 6, 3);
	check_sharded_without_ceiling(&r, "sharded 8x1", 2384.0 / 484.13466860190584,
				      2383.2 / 485.26070274273076, 2415.3 / 475.2284019761499);
}

/*
 * Pinned 2-thread runs on 2 distinct cores are the smt_factor's
 * denominator when there are some (no assumption needed).
 */
static void pinned_denominator_preferred(void **state)
{
	const struct topology *t = *state;
	struct smt_figures r;
	struct smt_run runs[ARRAY_LEN(affinity_runs) + 3];
	size_t n = ARRAY_LEN(affinity_runs);
	const struct smt_figure *f;
	memcpy(runs, affinity_runs, sizeof(affinity_runs));
	runs[n++] = (struct smt_run){"pin-two-r1", 800.0, 2, 1, "0,1"};
	runs[n++] = (struct smt_run){"pin-two-r2", 820.0, 2, 1, "2,3"};
	runs[n++] = (struct smt_run){"pin-two-r3", 810.0, 2, 1, "1-2"};
	assert_int_equal(smt_compute(runs, n, t, &r), 0);
	f = figure(&r, "smt_factor");
	check_figure(f, 1097.0 / 810.0, 1084.7 / 820.0, 1102.0 / 800.0, 3, 3);
	check_contains(f->den.tags, "pin-two-r1", "smt_factor den");
	if (strstr(f->den.tags, "sweep-"))
		fail_msg("smt_factor den mixes in unpinned runs: %s", f->den.tags);
	check_close(figure(&r, "ceiling")->value, 4 * 1097.0 / 810.0, REL, "ceiling");
}

static void cpu_not_on_host(void **state)
{
	const struct topology *t = *state;
	struct smt_figures r;
	struct smt_run runs[ARRAY_LEN(affinity_runs)];
	memcpy(runs, affinity_runs, sizeof(affinity_runs));
	runs[14].cpuset = "0,1,2,9"; /* pin-distinct-r3 */
	err_clear();
	assert_true(smt_compute(runs, ARRAY_LEN(runs), t, &r) < 0);
	check_msg("CPU 9");
	check_msg("pin-distinct-r3");

	runs[14].cpuset = "0,,1";
	err_clear();
	assert_true(smt_compute(runs, ARRAY_LEN(runs), t, &r) < 0);
	check_msg("pin-distinct-r3");
}

static void no_runs(void **state)
{
	const struct topology *t = *state;
	struct smt_figures r;
	assert_int_equal(smt_compute(affinity_runs, 0, t, &r), 0);
	for (size_t i = 0; i < r.n; i++)
		if (r.figures[i].measured)
			fail_msg("%s measured without runs", r.figures[i].name);
	check_not_measured(&r, "smt_step");
}

/* A test on the EPYC host topology (epyc_setup) */
#define EPYC_TEST(f) cmocka_unit_test_setup_teardown(f, epyc_setup, epyc_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		EPYC_TEST(affinity_figures),
		EPYC_TEST(affinity_seed_figures),
		cmocka_unit_test(host_without_smt),
		EPYC_TEST(no_pinned_runs),
		EPYC_TEST(pinned_denominator_preferred),
		EPYC_TEST(cpu_not_on_host),
		EPYC_TEST(no_runs),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
