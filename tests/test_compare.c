/*
 * Unit tests for analysis/compare: the arms, --by and --pair-by designs
 * (the decision is analysis/verdict.h's) and the compare document.
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only), or
 * tests/stat_check.py (the t distribution in the standard library). Where
 * python printed a value with repr(), it is copied verbatim and compared
 * to 1e-12 relative.
 */
#include "analysis_rows.h"

#include "analysis/compare.h"
#include "reports/builders.h"

#include <gsl/gsl_errno.h>

/* The gomaxprocs tputs by level, blocks 1, 2, 3 (for compare). */
static const double g1_tput[] = {475.2284019761499, 485.26070274273076, 484.13466860190584};
static const double g2_tput[] = {853.212014958686, 881.2907259769522, 865.4682448787189};
/* arms copied from the real corpora (corpus_arms.h names each source) */
#include "corpus_arms.h"

/* ---------------------------------------------------------------------- */
/* compare                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * The verdict rule is verdict.h's (test_verdict.c); here: that compare
 * reads it, on real arms, with SciPy 1.10.1 numbers (/usr/bin/python3:
 * scipy.stats.ttest_ind(ln b, ln a, equal_var=False), ttest_rel,
 * mannwhitneyu(method='exact')) that tests/stat_check.py reproduces to
 * 1e-13; runs needed with python3's statistics.NormalDist: z =
 * inv_cdf(0.975) + inv_cdf(0.8) = 2.801585218112968, n = ceil(2 z^2 (sd /
 * ln(1 + effect))^2) with sd the pooled sd of ln values (numpy var
 * ddof=1) and the effect the bound, else the observed one from the ratio
 * of geometric means; never below 3.
 */
#define T_REL 1e-9

static void test_compare_defaults(void **state)
{
	struct compare_options o;
	(void)state;
	compare_options_init(&o);
	assert_true(VERDICT_ALPHA == 0.05);
	assert_true(o.v.alpha == 0.05);
	assert_true(o.v.power == 0.8);
	assert_false(o.v.has_effect_bound);
	assert_false(o.v.lower_is_better);
	assert_int_equal(o.v.kind, FIELD_KIND_RATE);
	assert_int_equal(o.resamples, COMPARE_RESAMPLES);
	assert_int_equal(o.seed, COMPARE_SEED);
}

/* The real GOMAXPROCS 1 vs 2 arms: the rank test cannot reach 0.05, Welch decides. */
static void test_compare_three_vs_three(void **state)
{
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c), 0);
	/* by hand: 2 / C(6, 3) = 2 / 20 = 0.1 */
	check_close(c.v.rank.min_p, 0.1, REL, "min_p 3 vs 3");
	assert_true(c.v.rank.exact);
	/* every b above every a: U_a = 0, the most extreme outcome: p = min_p = 0.1 */
	check_close(c.v.rank.u, 0, 0, "u");
	check_close(c.v.rank.p, 0.1, REL, "p");
	assert_true(c.log_scale);
	/* scipy: t = 51.24555917982209, df 3.5957788381471225, p 2.7863725359929637e-06 */
	assert_true(c.v.has_test);
	assert_string_equal(c.v.test, "welch");
	check_close(c.v.t.t, 51.24555917982209, T_REL, "welch t");
	check_close(c.v.t.df, 3.5957788381471225, T_REL, "welch df");
	check_close(c.v.p, 2.7863725359929637e-06, T_REL, "welch p");
	check_close(c.v.estimate, 1.799676871033238, T_REL, "gm ratio");
	check_close(c.v.lo, 1.7407371669544456, T_REL, "gm lo");
	check_close(c.v.hi, 1.8606122174082043, T_REL, "gm hi");
	/* Welch p < 0.05 decides: a rate, higher; the rank test's 0.1 is evidence only */
	assert_true(c.separated);
	assert_true(c.v.ranges_disjoint);
	assert_int_equal(c.v.call, VERDICT_REAL);
	assert_string_equal(c.v.word, "higher");
	check_contains(c.v.reason, "Welch t on ln values: p = 2.79e-06 < alpha 0.05", "reason");
	check_contains(c.v.reason, "Mann-Whitney p = 0.1", "reason");
	/* 865.4682448787189 / 484.13466860190584 */
	check_close(c.ratio.ratio, 1.7876601305542446, REL, "ratio");
	/* spread: python3 (max / min - 1) * 100 */
	check_close(c.a.spread_pct, 2.111048229622514, REL, "spread a");
	check_close(c.b.spread_pct, 3.2909418205539165, REL, "spread b");
	check_close(c.spread_a, c.a.spread_pct, 0, "spread a (log)");
	/* python3: effect of the medians (max(r, 1/r) - 1) * 100; effect / spread */
	check_close(c.observed_effect, 78.76601305542446, REL, "observed effect");
	check_close(c.effect_over_spread_a, 78.76601305542446 / 2.111048229622514, 1e-12,
		    "effect / spread a");
	/*
	 * python3: cv = sqrt((stdev(a)/mean(a))**2 + (stdev(b)/mean(b))**2) / 2)
	 *   = 0.014037410757344099; numpy pooled sd of ln values
	 *   0.014043535355627714; the effect runs_needed sizes: the ratio of
	 *   geometric means, (1.799676871033238 - 1) * 100 = 79.96768710332367;
	 *   2 z^2 (sd / ln 1.7997)^2 = 0.0045 -> 1, raised to 3
	 */
	check_close(c.cv, 0.014037410757344099, 1e-10, "cv");
	check_close(c.v.sd, 0.014043535355627714, 1e-10, "pooled sd of ln");
	check_close(c.v.effect_pct, 79.96768710332367, 1e-9, "effect_pct");
	check_close(c.v.runs_needed, 3, 0, "runs needed (the floor of 3)");
	assert_true(isnan(c.spread_over_bound_a));
	assert_true(isnan(c.spread_over_bound_b));
}

static void test_compare_separated(void **state)
{
	static const double a[] = {100, 101, 102, 103, 104};
	static const double b[] = {110, 111, 112, 113, 114};
	static const double mixed_a[] = {1, 3, 5, 7, 9};
	static const double mixed_b[] = {2, 4, 6, 8, 10};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	assert_true(c.v.rank.exact);
	/* by hand: C(10, 5) = 252; U_a = 0 is the most extreme of 252 splits: p = 2 / 252 */
	check_close(c.v.rank.p, 2.0 / 252.0, REL, "p 5 vs 5");
	check_close(c.v.rank.min_p, 2.0 / 252.0, REL, "min_p 5 vs 5");
	check_close(c.v.rank.u, 0, 0, "u 5 vs 5");
	/* scipy: Welch t 9.975143739315252, p 9.196632084492697e-06 */
	check_close(c.v.p, 9.196632084492697e-06, T_REL, "welch p");
	assert_string_equal(c.v.word, "higher");
	/* 112 / 102 */
	check_close(c.ratio.ratio, 112.0 / 102.0, REL, "ratio");
	/* b lower than a: lower (a rate) */
	assert_int_equal(compare_arms(b, 5, a, 5, &o, &c), 0);
	assert_string_equal(c.v.word, "lower");
	assert_string_equal(c.v.effect, "worse");
	/* a time: lower is faster, higher slower; the direction says better or worse */
	o.v.kind = FIELD_KIND_TIME;
	o.v.lower_is_better = true;
	assert_int_equal(compare_arms(b, 5, a, 5, &o, &c), 0);
	assert_string_equal(c.v.word, "faster");
	assert_string_equal(c.v.effect, "better");
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	assert_string_equal(c.v.word, "slower");
	o.v.kind = FIELD_KIND_RATE;
	o.v.lower_is_better = false;

	/*
	 * interleaved: R_a = 1 + 3 + 5 + 7 + 9 = 25, U_a = 25 - 15 = 10;
	 * python3: c = sum(1 for s in itertools.combinations(range(1, 11), 5)
	 *                  if sum(s) <= 25) = 87; p = 2 * 87 / 252 = 0.6904761904761905.
	 * Welch (scipy) p = 0.5779000077706322: within-noise
	 */
	assert_int_equal(compare_arms(mixed_a, 5, mixed_b, 5, &o, &c), 0);
	check_close(c.v.rank.u, 10, 0, "u interleaved");
	check_close(c.v.rank.p, 0.6904761904761905, REL, "p interleaved");
	check_close(c.v.p, 0.5779000077706322, T_REL, "welch p interleaved");
	assert_string_equal(c.v.word, "within-noise");
	check_contains(c.v.reason, "p = 0.578 >= alpha 0.05", "reason");
	/*
	 * runs needed from the observed effect: python3 ratio of geometric means
	 * 1.323670479012971, pooled sd of ln 0.7615234329157818,
	 * 2 z^2 (sd / ln 1.323670479012971)^2 = 115.77685015127251 -> 116
	 */
	check_close(c.v.runs_needed, 116, 0, "runs needed interleaved");
	check_contains(c.v.reason, "runs needed per side to resolve a 32.4% effect: 116", "reason");
}

/* The effect bound: spread / bound, the equivalence verdict; Welch decides the rest. */
static void test_compare_effect_bound(void **state)
{
	/* spreads by hand: 124 / 100 - 1 = 24%, 180 / 125 - 1 = 44% */
	static const double a[] = {100, 106, 112, 118, 124};
	static const double b[] = {125, 130, 140, 150, 180};
	/* a tight A/A: spreads 2.0%, 1.6% */
	static const double eq_a[] = {1000, 1010, 990, 1005, 995};
	static const double eq_b[] = {1002, 1008, 992, 1003, 997};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	/* scipy Welch p 0.013159417417012433 < 0.05: higher, though not separated */
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	assert_false(c.separated);
	check_close(c.v.p, 0.013159417417012433, T_REL, "welch p");
	assert_string_equal(c.v.word, "higher");

	o.v.has_effect_bound = true;
	o.v.effect_bound_pct = 4.7;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.a.spread_pct, 24.0, 1e-12, "spread a");
	check_close(c.b.spread_pct, 44.0, 1e-12, "spread b");
	/* by hand: 24 / 4.7 = 5.106382978723404, 44 / 4.7 = 9.361702127659575 (the
	 * seed's 5.1x, 9.4x) */
	check_close(c.spread_over_bound_a, 5.106382978723404, 1e-12, "spread / bound a");
	check_close(c.spread_over_bound_b, 9.361702127659575, 1e-12, "spread / bound b");
	/* the data resolve an effect far larger than the bound: still higher */
	assert_string_equal(c.v.word, "higher");
	check_close(c.v.effect_pct, 4.7, 0, "effect = bound");

	/*
	 * A/A inside the bound: scipy Welch p 0.9292836210024747, the interval
	 * of the ratio [0.9900411747447048, 1.0108875915253606] lies inside
	 * [0.953, 1.047]: no-difference (equivalence)
	 */
	assert_int_equal(compare_arms(eq_a, 5, eq_b, 5, &o, &c), 0);
	check_close(c.v.lo, 0.9900411747447048, T_REL, "equivalence lo");
	check_close(c.v.hi, 1.0108875915253606, T_REL, "equivalence hi");
	assert_string_equal(c.v.word, "no-difference");
	check_contains(c.v.reason, "lies inside 1 -+ 4.7%", "reason");
	/* a bound of 1% is inside the interval's reach (1.0109 > 1.01): within-noise */
	o.v.effect_bound_pct = 1.0;
	assert_int_equal(compare_arms(eq_a, 5, eq_b, 5, &o, &c), 0);
	assert_string_equal(c.v.word, "within-noise");
	check_contains(c.v.reason, "is not inside 1 -+ 1%", "reason");
	/* without a bound nothing is ruled out */
	o.v.has_effect_bound = false;
	assert_int_equal(compare_arms(eq_a, 5, eq_b, 5, &o, &c), 0);
	assert_string_equal(c.v.word, "within-noise");
}

/*
 * Issue 13's three clear differences on real data (SciPy 1.10.1, Welch on
 * ln values): each reads higher, decided by Welch.
 */
static void test_compare_clear_cases(void **state)
{
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	/* e2-small vs e2-medium, pg, 300 sessions: 4.0655x, ranges disjoint,
	 * t = 21.662549178758397, df 2.2303988629556724, p 0.0012247050963697312 */
	assert_int_equal(compare_arms(cap_small300, 3, cap_medium300, 3, &o, &c), 0);
	check_close(c.ratio.ratio, 261.4928259356003 / 64.32009579045246, 1e-12, "ratio 1");
	check_close(c.v.p, 0.0012247050963697312, T_REL, "p 1");
	assert_true(c.a.max < c.b.min);
	assert_true(c.v.ranges_disjoint);
	assert_string_equal(c.v.word, "higher");
	check_contains(c.v.reason, "p = 0.00122 < alpha 0.05 (t = 21.66, df = 2.23)", "reason 1");
	/* affinity, 8 processes vs 1: 2384 / 1796.2 = 1.3272, t 39.76351262523003,
	 * df 3.7735188787072813, p 4.3250210080377405e-06 */
	assert_int_equal(compare_arms(affinity_procs1, 3, affinity_procs8, 3, &o, &c), 0);
	check_close(c.ratio.ratio, 2384.0 / 1796.2, 1e-12, "ratio 2");
	check_close(c.v.t.t, 39.76351262523003, T_REL, "t 2");
	assert_string_equal(c.v.word, "higher");
	/* x86 core vs e2-medium (memory, 100 sessions): b/a 344.97474664499254 / 299.3
	 * = 1.1526, bootstrap within the range-end ratios [1.0762, 1.2550], p 0.03700453729196605;
	 * effect 15.3% > spreads 3.74% and 12.4% */
	assert_int_equal(compare_arms(cap_core100, 3, cap_medium_mem100, 3, &o, &c), 0);
	check_close(c.ratio.ratio, 344.97474664499254 / 299.3, 1e-12, "ratio 3");
	assert_true(c.ratio.lo >= 322.54272034273805 / 299.7 - 1e-12);
	assert_true(c.ratio.hi <= 362.57432778567005 / 288.9 + 1e-12);
	check_close(c.v.p, 0.03700453729196605, T_REL, "p 3");
	assert_true(c.separated);
	assert_string_equal(c.v.word, "higher");
	/* at alpha 0.01 the same data are not enough: within-noise, with runs needed */
	o.v.alpha = 0.01;
	assert_int_equal(compare_arms(cap_core100, 3, cap_medium_mem100, 3, &o, &c), 0);
	assert_string_equal(c.v.word, "within-noise");
	check_contains(c.v.reason, "p = 0.037 >= alpha 0.01", "reason at 0.01");
}

/*
 * Welch resolves it and neither the separation nor the rank test would (3
 * vs 3, the case that used to stay unresolvable): the verdict is Welch's,
 * the rest is evidence beside it.
 */
static void test_compare_welch_decides(void **state)
{
	static const double a[] = {96, 104, 101};
	static const double b[] = {122, 114, 108};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	assert_int_equal(compare_arms(a, 3, b, 3, &o, &c), 0);
	/* scipy: t = 3.139491455101105, p = 0.04231270256186038 < 0.05 */
	check_close(c.v.p, 0.04231270256186038, T_REL, "p");
	/* by hand: effect 114 / 101 - 1 = 12.87%, b's spread 122 / 108 - 1 = 12.96% */
	check_close(c.observed_effect, (114.0 / 101.0 - 1) * 100, 1e-12, "effect");
	check_close(c.b.spread_pct, (122.0 / 108.0 - 1) * 100, 1e-12, "spread b");
	assert_false(c.separated);
	check_close(c.v.rank.p, 0.1, 1e-12, "rank p cannot reach 0.05");
	assert_string_equal(c.v.word, "higher");
	assert_true(isnan(c.v.runs_needed) || c.v.runs_needed >= 3);
	check_contains(c.v.reason, "p = 0.0423 < alpha 0.05", "reason");
}

/*
 * A synthetic table shaped like the lock-contention A/B of the seed ("the
 * within-arm spread is 24-44% against a prize the profile bounds at 4.7%";
 * the paired runs read 2,726 vs 2,733): 3 vs 3 runs, spreads 24% and 37%.
 */
static void test_compare_lock_contention_null(void **state)
{
	static const double control[] = {2500, 2726, 3100};
	static const double treatment[] = {2300, 2733, 3151};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	o.v.has_effect_bound = true;
	o.v.effect_bound_pct = 4.7;
	assert_int_equal(compare_arms(control, 3, treatment, 3, &o, &c), 0);
	/* by hand: 3100 / 2500 - 1 = 24%, 3151 / 2300 - 1 = 37% */
	check_close(c.a.spread_pct, 24, 1e-12, "spread a");
	check_close(c.b.spread_pct, 37, 1e-12, "spread b");
	/* by hand: 24 / 4.7 = 5.106..., 37 / 4.7 = 7.872... */
	check_close(c.spread_over_bound_a, 24 / 4.7, 1e-12, "a / bound");
	check_close(c.spread_over_bound_b, 37 / 4.7, 1e-12, "b / bound");
	/* scipy: t = -0.19473567053133983, df 3.54276936372557, p 0.8562470641772728 */
	check_close(c.v.t.t, -0.19473567053133983, T_REL, "t");
	check_close(c.v.t.df, 3.54276936372557, T_REL, "df");
	check_close(c.v.p, 0.8562470641772728, T_REL, "p");
	assert_string_equal(c.v.word, "within-noise");
	/*
	 * runs needed by hand: numpy pooled sd of ln values 0.1352177664755961;
	 * 2 * 2.801585218112968^2 * (0.1352177664755961 / ln 1.047)^2
	 * = 136.06063542447905 -> 137 per arm
	 */
	check_close(c.v.sd, 0.1352177664755961, 1e-10, "sd of ln");
	check_close(c.v.runs_needed, 137, 0, "runs needed");
	check_contains(c.v.reason, "p = 0.856 >= alpha 0.05", "reason p");
	check_contains(c.v.reason, "runs needed per side to resolve a 4.7% effect: 137",
		       "reason runs");
}

static void test_compare_runs_needed(void **state)
{
	static const double a[] = {100, 102, 98, 101, 99};
	static const double b[] = {110, 112, 108, 111, 109};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	o.v.has_effect_bound = true;
	/*
	 * numpy: the pooled sd of ln values = 0.015111613074689004
	 *   effect 1%:   2 z^2 (sd / ln 1.01)^2  = 36.206311006672664 -> 37
	 *   effect 0.5%: 2 z^2 (sd / ln 1.005)^2 = 144.10739710562012 -> 145
	 *   effect 4.7%: 1.73... -> 2, raised to 3
	 */
	o.v.effect_bound_pct = 1.0;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.v.sd, 0.015111613074689004, 1e-10, "pooled sd of ln");
	check_close(c.v.runs_needed, 37, 0, "runs needed at 1%");
	o.v.effect_bound_pct = 0.5;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.v.runs_needed, 145, 0, "runs needed at 0.5%");
	o.v.effect_bound_pct = 4.7;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.v.runs_needed, VERDICT_MIN_RUNS, 0, "runs needed at 4.7% (floor)");
	assert_true(VERDICT_MIN_RUNS == 3);

	o.v.has_effect_bound = false;
	o.v.alpha = 0.01;
	/* no bound: the observed effect, python3: gm(b) / gm(a) - 1 = 10.001909700458466% */
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.v.effect_pct, 10.001909700458466, 1e-9, "observed effect");
	check_close(c.v.runs_needed, 3, 0, "runs needed at 0.01 (floor: 0.587 -> 3)");
	o.v.has_effect_bound = true;
	o.v.effect_bound_pct = 1.0;
	/*
	 * python3 z = inv_cdf(0.995) + inv_cdf(0.8) = 3.4174505371218142:
	 * 2 z^2 (0.015111613074689004 / ln 1.01)^2 = 53.87... -> 54
	 */
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.v.runs_needed, 54, 0, "runs needed at 1%, alpha 0.01");

	/* one run per arm: no spread, no interval, no test; runs_needed not computable */
	o.v.alpha = 0.05;
	o.v.has_effect_bound = false;
	assert_int_equal(compare_arms(a, 1, b, 1, &o, &c), 0);
	assert_true(isnan(c.cv));
	assert_true(isnan(c.v.runs_needed));
	assert_true(isnan(c.ratio.lo) && isnan(c.ratio.hi));
	assert_false(c.v.has_test);
	assert_true(isnan(c.v.lo) && isnan(c.v.hi));
	check_close(c.v.estimate, 1.1, 1e-12, "1 vs 1: the ratio of the runs");
	assert_string_equal(c.v.word, "unreplicated");
	check_contains(c.v.reason, "one run in arm a and in arm b: no within-side spread",
		       "reason 1 vs 1");
	/* one run in arm a only: still no interval; the runs needed from b's spread */
	assert_int_equal(compare_arms(a, 1, b, 5, &o, &c), 0);
	assert_true(isnan(c.ratio.lo));
	assert_string_equal(c.v.word, "unreplicated");
	check_contains(c.v.reason, "one run in arm a:", "reason 1 vs 5");
	assert_false(isnan(c.v.runs_needed));

	/* an empty arm is an error naming it */
	assert_int_equal(compare_arms(a, 5, b, 0, &o, &c), ERR_DATA);
	check_msg("arm b");
}

/*
 * Metrics with zeros: capacity corpus err, cfg pg, 300 sessions, blocks
 * 1-3: small 0.0008007687379884689, 0.001199040767386091,
 * 0.006548918436197659; medium 0, 0, 0.
 */
static void test_compare_zeros(void **state)
{
	static const double small[] = {0.0008007687379884689, 0.001199040767386091,
				       0.006548918436197659};
	static const double medium[] = {0, 0, 0};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	o.v.kind = FIELD_KIND_FRACTION;
	o.v.lower_is_better = true;
	assert_int_equal(compare_arms(small, 3, medium, 3, &o, &c), 0);
	assert_false(c.log_scale);
	/* no ratio: missing */
	assert_true(isnan(c.ratio.ratio) && isnan(c.ratio.lo) && isnan(c.ratio.hi));
	check_close(c.b.median, 0, 0, "median 0");
	assert_true(isnan(c.b.range_pct));
	/* absolute spreads: max - min; the effect: |0 - 0.001199040767386091| */
	check_close(c.spread_a, 0.006548918436197659 - 0.0008007687379884689, 1e-12, "range a");
	check_close(c.spread_b, 0, 0, "range b");
	check_close(c.observed_effect, 0.001199040767386091, 1e-12, "effect");
	check_close(c.diff, -0.001199040767386091, 1e-12, "diff");
	/*
	 * scipy.stats.ttest_ind(medium, small, equal_var=False) on the values:
	 * t = -1.5376176388186742, p = 0.26397486377741436, df = 2 (b constant);
	 * mean diff -0.002849575980524073 [-0.01082342823231745, 0.005124276271269303]
	 */
	check_close(c.v.t.t, -1.5376176388186742, T_REL, "t");
	check_close(c.v.p, 0.26397486377741436, T_REL, "p");
	check_close(c.v.estimate, -0.002849575980524073, T_REL, "mean diff");
	check_close(c.v.lo, -0.01082342823231745, T_REL, "lo");
	check_close(c.v.hi, 0.005124276271269303, T_REL, "hi");
	assert_string_equal(c.v.word, "within-noise");
	assert_string_equal(c.v.change, "lower");
	assert_string_equal(c.v.effect, "better");
	check_contains(c.v.reason, "Welch t on values: p = 0.264 >= alpha 0.05", "reason");
	/*
	 * runs needed in the metric's units: numpy pooled sd 0.0022697473544000366,
	 * delta = |mean difference| 0.002849575980524073:
	 * 2 z^2 (sd / delta)^2 = 9.959378197020959 -> 10
	 */
	check_close(c.v.sd, 0.0022697473544000366, 1e-10, "sd");
	check_close(c.v.runs_needed, 10, 0, "runs needed");
	/* the log scale cannot be forced on zeros */
	o.v.scale = VERDICT_SCALE_LOG;
	assert_int_equal(compare_arms(small, 3, medium, 3, &o, &c), ERR_DATA);
	check_msg("log scale");
}

/* --pair-by block: the capacity corpus, small vs medium, cfg pg, 300 sessions. */
static void test_compare_pairs(void **state)
{
	struct compare_pair pairs[] = {
		{"1", "small-pg-n300-b1r1", "medium-pg-n300-b1r1", 69.0378764094059,
		 269.0944551320535, 0},
		{"2", "small-pg-n300-b2r1", "medium-pg-n300-b2r1", 64.32009579045246,
		 255.10822490597312, 0},
		{"3", "small-pg-n300-b3r1", "medium-pg-n300-b3r1", 55.525064605616755,
		 261.4928259356003, 0},
	};
	struct compare_options o;
	struct verdict p;
	(void)state;
	compare_options_init(&o);
	assert_int_equal(compare_pairs(pairs, 3, true, &o, &p), 0);
	/* scipy.stats.ttest_rel(ln medium, ln small): t = 23.677765445309184,
	 * p = 0.001778928526777874; ratio 4.175629300385263
	 * [3.220521496256526, 5.413992756919357] */
	assert_true(p.has_test);
	assert_string_equal(p.test, "paired-t");
	check_close(p.t.t, 23.677765445309184, T_REL, "t");
	check_close(p.p, 0.001778928526777874, T_REL, "p");
	check_close(p.t.df, 2, 0, "df");
	check_close(p.estimate, 4.175629300385263, T_REL, "ratio");
	check_close(p.lo, 3.220521496256526, T_REL, "lo");
	check_close(p.hi, 5.413992756919357, T_REL, "hi");
	/* each pair's ratio: 269.0944551320535 / 69.0378764094059 */
	check_close(pairs[0].estimate, 269.0944551320535 / 69.0378764094059, 1e-12, "pair 1");
	assert_int_equal(p.agree, 3);
	assert_string_equal(p.word, "higher");
	/*
	 * pairs needed by hand: numpy sd of the ln differences 0.10455208442546364,
	 * effect 4.175629300385263 - 1 = 317.6%: z^2 (sd / ln 4.1756)^2 = 0.04 -> 3
	 */
	check_close(p.sd, 0.10455208442546364, 1e-10, "sd of differences");
	check_close(p.runs_needed, 3, 0, "pairs needed");
	/* with a 4.7% bound: 2.801585218112968^2 (0.10455208442546364 / ln 1.047)^2
	 * = 40.67... -> 41 pairs */
	o.v.has_effect_bound = true;
	o.v.effect_bound_pct = 4.7;
	assert_int_equal(compare_pairs(pairs, 3, true, &o, &p), 0);
	check_close(p.runs_needed, 41, 0, "pairs needed at 4.7%");
	/* one pair: no test */
	assert_int_equal(compare_pairs(pairs, 1, true, &o, &p), 0);
	assert_false(p.has_test);
	assert_string_equal(p.word, "unreplicated");
	check_contains(p.reason, "one pair", "one pair");
	/*
	 * a pair moving the other way: the paired t still decides; python3
	 * tests/stat_check.py paired-ln 69.0378764094059,64.32009579045246,55.525064605616755
	 * 269.0944551320535,255.10822490597312,50: p = 0.21592040081338104
	 */
	pairs[2].b = 50;
	o.v.has_effect_bound = false;
	assert_int_equal(compare_pairs(pairs, 3, true, &o, &p), 0);
	assert_int_equal(p.agree, 2);
	check_close(p.p, 0.21592040081338104, 1e-8, "p with a pair against");
	assert_string_equal(p.word, "within-noise");
}

/* A level of --by (copies of its values), its comparison computed as compare_run does. */
static void level_init(struct compare_level *l, const char *name, const double *a, size_t na,
		       const double *b, size_t nb, const struct compare_options *o)
{
	memset(l, 0, sizeof(*l));
	l->level = strdup(name);
	l->a = malloc(na * sizeof(*a));
	l->b = malloc(nb * sizeof(*b));
	assert_non_null(l->level);
	assert_non_null(l->a);
	assert_non_null(l->b);
	memcpy(l->a, a, na * sizeof(*a));
	memcpy(l->b, b, nb * sizeof(*b));
	assert_int_equal(compare_arms(a, na, b, nb, o, &l->c), 0);
}

static void levels_release(struct compare_level *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].level);
		free(l[i].a);
		free(l[i].b);
	}
}

/* The tally of the levels' verdicts, as compare_run sums them up. */
static void levels_tally(const struct compare_level *l, size_t n, const struct compare_options *o,
			 struct verdict_tally *t)
{
	const struct verdict *v[8];
	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++)
		v[i] = &l[i].c.v;
	assert_int_equal(verdict_tally(v, n, &o->v, t), 0);
}

/*
 * --by gomaxprocs on the GOGC arms: one run per arm per level, each level
 * unreplicated, the summary's interval from the spread across the levels
 * (python3 tests/stat_check.py paired-ln: 1.3444001290698557
 * [1.2864906018080977, 1.4049163705532079], issue 25's 1.344x [1.287,
 * 1.405] to its rounding).
 */
static void test_compare_by_gogc(void **state)
{
	/* gomaxprocs-scaling results.tsv: GOGC=100 and 800 at GOMAXPROCS 1, 4 (blocks
	 * gg100, gg800) and 8 (gogc100, gogc800) */
	static const double a1[] = {467.45002353466043}, b1[] = {621.5753887789881};
	static const double a4[] = {1561.8288570658522}, b4[] = {2143.0991485167087};
	static const double a8[] = {1805.138577387964}, b8[] = {2403.9683124863996};
	struct compare_level levels[3];
	struct compare_options o;
	struct verdict_tally t;
	(void)state;
	compare_options_init(&o);
	o.resamples = 200;
	level_init(&levels[0], "1", a1, 1, b1, 1, &o);
	level_init(&levels[1], "4", a4, 1, b4, 1, &o);
	level_init(&levels[2], "8", a8, 1, b8, 1, &o);
	/* python3: 621.5753887789881 / 467.45002353466043 = 1.3297151727127887, ... */
	check_close(levels[0].c.v.estimate, 1.3297151727127887, 1e-12, "gain at 1");
	check_close(levels[1].c.v.estimate, 1.3721728464813148, 1e-12, "gain at 4");
	check_close(levels[2].c.v.estimate, 1.331736157323136, 1e-12, "gain at 8");
	assert_true(isnan(levels[0].c.v.lo));
	assert_string_equal(levels[0].c.v.word, "unreplicated");
	levels_tally(levels, 3, &o, &t);
	assert_string_equal(t.text, "3 of 3 unreplicated");
	assert_string_equal(t.method, "across");
	/* scipy.stats.gmean(the three gains) = 1.3444001290698562 */
	check_close(t.estimate, 1.3444001290698562, 1e-12, "gm gain");
	check_close(t.lo, 1.2864906018080977, 1e-8, "lo");
	check_close(t.hi, 1.4049163705532079, 1e-8, "hi");
	levels_release(levels, 3);
}

/*
 * --by sessions with --metric err (capacity corpus, small vs medium, pg,
 * blocks 1-3): the absolute scale; at 100 sessions every run reads 0 (no
 * variation: exact, within-noise). python3 (tests/stat_check.py's welch):
 * mean of the levels' differences -0.007289997831668366, se from the
 * levels' own Welch se, df by Welch-Satterthwaite 3.456634965452745,
 * interval [-0.0094762964031906, -0.005103699260146132].
 */
static void test_compare_by_zeros(void **state)
{
	static const double zero[] = {0, 0, 0};
	static const double s300[] = {0.0008007687379884689, 0.001199040767386091,
				      0.006548918436197659};
	static const double s500[] = {0.019346230820547032, 0.016766268260292164,
				      0.02094875346260388};
	struct compare_level levels[3];
	struct compare_options o;
	struct verdict_tally t;
	(void)state;
	compare_options_init(&o);
	o.resamples = 200;
	o.v.kind = FIELD_KIND_FRACTION;
	o.v.lower_is_better = true;
	o.v.scale = VERDICT_SCALE_ABSOLUTE; /* as compare_run sets it for all levels */
	level_init(&levels[0], "100", zero, 3, zero, 3, &o);
	level_init(&levels[1], "300", s300, 3, zero, 3, &o);
	level_init(&levels[2], "500", s500, 3, zero, 3, &o);
	assert_string_equal(levels[0].c.v.test, "exact");
	assert_string_equal(levels[0].c.v.word, "within-noise");
	/* scipy.stats.ttest_ind([0, 0, 0], s500, equal_var=False): t = -15.612003811806307,
	 * p = 0.004077743958287371: lower (an error rate, better) */
	check_close(levels[2].c.v.t.t, -15.612003811806307, T_REL, "t 500");
	check_close(levels[2].c.v.p, 0.004077743958287371, T_REL, "p 500");
	assert_string_equal(levels[2].c.v.word, "lower");
	assert_string_equal(levels[2].c.v.effect, "better");
	levels_tally(levels, 3, &o, &t);
	assert_string_equal(t.text, "1 of 3 lower, 2 within-noise");
	assert_string_equal(t.method, "within");
	check_close(t.estimate, -0.007289997831668366, 1e-12, "mean difference");
	check_close(t.df, 3.456634965452745, 1e-9, "df");
	check_close(t.lo, -0.0094762964031906, 1e-8, "lo");
	check_close(t.hi, -0.005103699260146132, 1e-8, "hi");
	levels_release(levels, 3);
}

/*
 * --by sessions on the capacity corpus (small vs medium, pg, blocks 1-3):
 * every level higher, each with its own Welch; the summary from the
 * levels' own standard errors, equal weights. python3 (tests/
 * stat_check.py's welch on ln values): exp(mean of the 3 ln ratios) =
 * 3.7871099900934637, interval [3.493194764942776, 4.105755058664947],
 * df 5.905726635945513.
 */
static void test_compare_by_capacity(void **state)
{
	static const double s100[] = {84.20546493672084, 73.34269784886327, 90.16342653375783};
	static const double m100[] = {303.63917667903127, 287.01400172055423, 285.44577545151867};
	static const double s500[] = {65.71880773694836, 65.97532637199109, 63.45224576961447};
	static const double m500[] = {222.86757414622213, 245.18763090586353, 248.03975554183583};
	struct compare_level levels[3];
	struct compare_options o;
	struct verdict_tally t;
	char phrase[128];
	(void)state;
	compare_options_init(&o);
	o.resamples = 200;
	level_init(&levels[0], "100", s100, 3, m100, 3, &o);
	level_init(&levels[1], "300", cap_small300, 3, cap_medium300, 3, &o);
	level_init(&levels[2], "500", s500, 3, m500, 3, &o);
	/* each level's Welch (scipy p 0.0009777918890615622, 0.0012247050963697312,
	 * 0.00017221747494195705) */
	check_close(levels[0].c.v.p, 0.0009777918890615622, T_REL, "p 100");
	check_close(levels[2].c.v.p, 0.00017221747494195705, T_REL, "p 500");
	levels_tally(levels, 3, &o, &t);
	assert_string_equal(t.text, "3 of 3 higher");
	assert_string_equal(t.method, "within");
	check_close(t.estimate, 3.7871099900934637, 1e-9, "gm ratio");
	check_close(t.lo, 3.493194764942776, 1e-8, "lo");
	check_close(t.hi, 4.105755058664947, 1e-8, "hi");
	check_close(t.df, 5.905726635945513, 1e-9, "df");
	units_change_phrase(phrase, sizeof(phrase), FIELD_KIND_RATE, true, t.estimate, t.lo, t.hi,
			    "");
	assert_string_equal(phrase, "3.7871x [3.4932, 4.1058] higher");
	levels_release(levels, 3);
}

static void test_compare_bootstrap_seed(void **state)
{
	struct compare_options o;
	struct compare c1, c2, c3;
	(void)state;
	compare_options_init(&o);
	o.resamples = 5000;
	o.seed = 42;
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c1), 0);
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c2), 0);
	/* same seed, same interval, bit for bit */
	assert_memory_equal(&c1.ratio.lo, &c2.ratio.lo, sizeof(double));
	assert_memory_equal(&c1.ratio.hi, &c2.ratio.hi, sizeof(double));
	assert_int_equal(c1.ratio.seed, 42);
	assert_int_equal(c1.ratio.resamples, 5000);
	/*
	 * by hand: a resample median of 3 values lies in [min, max] of its arm,
	 * so every ratio lies in [853.21 / 485.26, 881.29 / 475.23]
	 * = [1.7582549..., 1.8544572...]
	 */
	assert_true(c1.ratio.lo >= 853.212014958686 / 485.26070274273076 - 1e-12);
	assert_true(c1.ratio.hi <= 881.2907259769522 / 475.2284019761499 + 1e-12);
	assert_true(c1.ratio.lo <= c1.ratio.ratio && c1.ratio.ratio <= c1.ratio.hi);
	/* another seed gives the same point ratio; the interval comes from other draws */
	o.seed = 7;
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c3), 0);
	check_close(c3.ratio.ratio, c1.ratio.ratio, 0, "ratio independent of seed");
	assert_int_equal(c3.ratio.seed, 7);
}

/* A request to compare arm A with arm B (default options) and its empty result. */
static void compare_request_of(struct compare_request *req, struct compare_result *res,
			       const char *a, const char *b)
{
	memset(req, 0, sizeof(*req));
	memset(res, 0, sizeof(*res));
	req->arm[0] = a;
	req->arm[1] = b;
	compare_options_init(&req->opts);
}

static void test_compare_document(void **state)
{
	struct compare_request req;
	struct compare_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	compare_request_of(&req, &res, "gomaxprocs=1", "gomaxprocs=2");
	field_metric_meaning("tput", NULL, false, &res.metric);
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &req.opts, &res.c), 0);
	res.headline = &res.c.v;
	/* a run left out of both arms is listed once; one of arm b only is listed too */
	assert_int_equal(selection_leave_out(&res.sel[0], "g1-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&res.sel[1], "g1-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&res.sel[1], "prof-g2", "unlisted"), 0);
	assert_int_equal(build_compare(&req, &res, &d), 0);
	/* the comparison first (the tsv default), every view a table */
	check_sections(d, "comparison,arms,levels,pairs,benchstat,comparepy");
	{
		static const char *const facts[] = {
			"verdict=higher", "method=Welch t on ln values", "metric_kind=rate",
			"design=unpaired", "scale=log", "test=welch", "a_where=gomaxprocs=1",
			"b_where=gomaxprocs=2", "metric=tput", NULL};
		check_fact_texts(d, facts);
	}
	check_fact_shown(d, "lower_is_better", "no");
	check_fact_shown(d, "exact", "yes");
	check_fact_shown(d, "separated", "yes");
	/* by hand: 2 / C(6, 3) = 0.1; every b above every a: U_a = 0 */
	check_close(doc_fact_number(d, "min_p"), 0.1, REL, "min_p");
	check_close(doc_fact_number(d, "u"), 0, 0, "u");
	check_close(doc_fact_number(d, "p"), 0.1, REL, "p");
	check_close(doc_fact_number(d, "alpha"), VERDICT_ALPHA, 0, "alpha");
	check_fact_shown(d, "ranges_disjoint", "yes");
	check_close(doc_fact_number(d, "min_runs"), 3, 0, "min runs");
	check_close(doc_fact_number(d, "ratio_ci_pct"), 95, 0, "ci");
	check_close(doc_fact_number(d, "resamples"), COMPARE_RESAMPLES, 0, "resamples");
	/* scipy Welch on ln (test_compare_three_vs_three) */
	check_close(doc_fact_number(d, "welch_t"), 51.24555917982209, 1e-9, "welch t");
	check_close(doc_fact_number(d, "welch_df"), 3.5957788381471225, 1e-9, "welch df");
	check_close(doc_fact_number(d, "welch_p"), 2.7863725359929637e-06, 1e-9, "welch p");
	check_close(doc_fact_number(d, "gm_ratio"), 1.799676871033238, 1e-9, "gm ratio");
	check_close(doc_fact_number(d, "gm_ratio_lo"), 1.7407371669544456, 1e-9, "gm lo");
	check_close(doc_fact_number(d, "gm_ratio_hi"), 1.8606122174082043, 1e-9, "gm hi");
	/* python3: statistics.median(g2) / statistics.median(g1) = 865.4682... / 484.1346... */
	check_close(doc_fact_number(d, "ratio"), 865.4682448787189 / 484.13466860190584, REL,
		    "ratio");
	check_close(cell_of_doc(d, "arms", 1, "ratio"), doc_fact_number(d, "ratio"), 0,
		    "ratio cell");
	assert_true(isnan(cell_of_doc(d, "arms", 0, "ratio")));
	/* one comparison row, holding the same figures */
	assert_int_equal(rows_of(d, "comparison"), 1);
	check_close(cell_of_doc(d, "comparison", 0, "ratio"), doc_fact_number(d, "ratio"), 0,
		    "comparison ratio");
	check_close(cell_of_doc(d, "comparison", 0, "t_p"), doc_fact_number(d, "welch_p"), 0,
		    "comparison p");
	check_close(cell_of_doc(d, "comparison", 0, "a_n"), 3, 0, "a_n");
	check_close(cell_of_doc(d, "comparison", 0, "b_median"), 865.4682448787189, 0, "b median");
	check_close(cell_of_doc(d, "comparison", 0, "runs_needed"), 3, 0, "runs needed");
	assert_int_equal(rows_of(d, "levels"), 0);
	assert_int_equal(rows_of(d, "pairs"), 0);
	assert_null(doc_fact_shown(d, "effect_bound_pct"));
	assert_int_equal(doc_left_out_count(d), 2);
	check_close(doc_fact_number(d, "runs_left_out"), 2, 0, "left out");
	md = md_of(d);
	check_contains(md, "- verdict: higher (Welch t on ln values: p = 2.79e-06", "md verdict");
	check_contains(md, "- decided by: Welch t on ln values", "md method");
	check_contains(md, "1.7997x \\[1.7407, 1.8606\\] higher", "md change");
	check_contains(md, "### Runs left out (2)", "md left out");
	check_contains(md, "none: no --by FIELD", "md empty levels");
	free(md);
	doc_free(d);
	for (int arm = 0; arm < 2; arm++)
		selection_release(&res.sel[arm]);
}

/* One run per arm: no interval in the document (missing, not [x, x]). */
static void test_compare_document_one_run(void **state)
{
	struct compare_request req;
	struct compare_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	compare_request_of(&req, &res, "gomaxprocs=1 gogc=100", "gomaxprocs=1 gogc=800");
	req.opts.resamples = 200;
	/* gomaxprocs corpus: g1-n100-bgg100-gogc100, g1-n100-bgg800-gogc800 */
	{
		static const double a[] = {467.45002353466043}, b[] = {621.5753887789881};
		assert_int_equal(compare_arms(a, 1, b, 1, &req.opts, &res.c), 0);
		res.headline = &res.c.v;
	}
	assert_int_equal(build_compare(&req, &res, &d), 0);
	check_fact_text(d, "verdict", "unreplicated");
	assert_true(isnan(doc_fact_number(d, "ratio_lo")));
	assert_true(isnan(doc_fact_number(d, "ratio_hi")));
	assert_true(isnan(doc_fact_number(d, "gm_ratio_lo")));
	assert_true(isnan(cell_of_doc(d, "comparison", 0, "ratio_lo")));
	assert_true(isnan(cell_of_doc(d, "arms", 1, "ratio_lo")));
	check_close(doc_fact_number(d, "ratio"), 621.5753887789881 / 467.45002353466043, 1e-12,
		    "ratio");
	md = md_of(d);
	check_contains(md, "no interval: an arm has one run", "md no interval");
	check_contains(md, "one run in arm a and in arm b: no within-side spread", "md reason");
	assert_null(strstr(md, "[1.3297, 1.3297]"));
	free(md);
	doc_free(d);
}

/* --by and --pair-by documents: the levels and pairs views, the pooled and paired facts. */
static void test_compare_document_designs(void **state)
{
	static const double a1[] = {467.45002353466043}, b1[] = {621.5753887789881};
	static const double a4[] = {1561.8288570658522}, b4[] = {2143.0991485167087};
	const double all_a[] = {467.45002353466043, 1561.8288570658522};
	const double all_b[] = {621.5753887789881, 2143.0991485167087};
	struct compare_pair pairs[2] = {
		{"1", "g1-n100-bgg100-gogc100", "g1-n100-bgg800-gogc800", 467.45002353466043,
		 621.5753887789881, 0},
		{"4", "g4-n100-bgg100-gogc100", "g4-n100-bgg800-gogc800", 1561.8288570658522,
		 2143.0991485167087, 0},
	};
	struct compare_request req;
	struct compare_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	compare_request_of(&req, &res, "gogc=100", "gogc=800");
	req.by = "gomaxprocs";
	req.opts.resamples = 200;
	res.levels = calloc(2, sizeof(*res.levels));
	assert_non_null(res.levels);
	level_init(&res.levels[0], "1", a1, 1, b1, 1, &req.opts);
	level_init(&res.levels[1], "4", a4, 1, b4, 1, &req.opts);
	res.nlevels = 2;
	res.design = COMPARE_BY;
	assert_int_equal(compare_arms(all_a, 2, all_b, 2, &req.opts, &res.c), 0);
	levels_tally(res.levels, 2, &req.opts, &res.tally);
	res.headline = NULL;
	res.verdict = res.tally.text;
	assert_int_equal(build_compare(&req, &res, &d), 0);
	check_sections(d, "comparison,arms,levels,pairs,benchstat,comparepy");
	check_fact_text(d, "design", "by");
	check_fact_text(d, "by", "gomaxprocs");
	check_fact_text(d, "summary_method", "across");
	check_fact_text(d, "verdict", "2 of 2 unreplicated");
	assert_int_equal(rows_of(d, "levels"), 2);
	/* python3: 621.5753887789881 / 467.45002353466043, 2143.0991485167087 / 1561.8288570658522
	 */
	check_close(cell_of_doc(d, "levels", 0, "gm_ratio"), 1.3297151727127887, 1e-12, "level 1");
	check_close(cell_of_doc(d, "levels", 1, "gm_ratio"), 1.3721728464813148, 1e-12, "level 4");
	assert_true(isnan(cell_of_doc(d, "levels", 0, "gm_ratio_lo")));
	/*
	 * python3: math.sqrt(1.3297151727127887 * 1.3721728464813148) = 1.3507772035205141;
	 * tests/stat_check.py paired-ln over the two levels: [1.1062737971641956,
	 * 1.6493195972171135] (t with 1 df)
	 */
	check_close(doc_fact_number(d, "summary_ratio"), 1.3507772035205141, 1e-12, "summary");
	check_close(cell_of_doc(d, "comparison", 0, "gm_ratio"), 1.3507772035205141, 1e-12,
		    "comparison row");
	check_close(doc_fact_number(d, "summary_ratio_lo"), 1.1062737971641956, 1e-8, "lo");
	check_close(doc_fact_number(d, "summary_ratio_hi"), 1.6493195972171135, 1e-8, "hi");
	assert_true(isnan(doc_fact_number(d, "summary_diff")));
	check_close(doc_fact_number(d, "levels"), 2, 0, "levels fact");
	check_close(doc_fact_number(d, "levels_unreplicated"), 2, 0, "levels unreplicated");
	md = md_of(d);
	check_contains(md, "each of 2 levels of gomaxprocs keeps its own verdict", "md note");
	check_contains(md, "1.3508x \\[1.1063, 1.6493\\] higher", "md change");
	free(md);
	doc_free(d);
	levels_release(res.levels, 2);
	free(res.levels);

	/* the same runs paired by gomaxprocs */
	memset(&res, 0, sizeof(res));
	req.by = NULL;
	req.pair_by = "gomaxprocs";
	res.design = COMPARE_PAIRED;
	res.pairs = pairs;
	res.npairs = 2;
	assert_int_equal(compare_arms(all_a, 2, all_b, 2, &req.opts, &res.c), 0);
	assert_int_equal(compare_pairs(pairs, 2, true, &req.opts, &res.paired), 0);
	res.headline = &res.paired;
	assert_int_equal(build_compare(&req, &res, &d), 0);
	check_fact_text(d, "design", "paired");
	check_fact_text(d, "pair_by", "gomaxprocs");
	check_fact_text(d, "test", "paired-t");
	assert_int_equal(rows_of(d, "pairs"), 2);
	check_close(cell_of_doc(d, "pairs", 1, "ratio"), 2143.0991485167087 / 1561.8288570658522,
		    1e-12, "pair ratio");
	check_close(doc_fact_number(d, "pairs"), 2, 0, "pairs fact");
	check_close(doc_fact_number(d, "paired_df"), 1, 0, "paired df");
	check_close(doc_fact_number(d, "paired_ratio"), 1.3507772035205141, 1e-12, "paired ratio");
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_defaults),
		cmocka_unit_test(test_compare_three_vs_three),
		cmocka_unit_test(test_compare_separated),
		cmocka_unit_test(test_compare_effect_bound),
		cmocka_unit_test(test_compare_clear_cases),
		cmocka_unit_test(test_compare_welch_decides),
		cmocka_unit_test(test_compare_lock_contention_null),
		cmocka_unit_test(test_compare_runs_needed),
		cmocka_unit_test(test_compare_zeros),
		cmocka_unit_test(test_compare_pairs),
		cmocka_unit_test(test_compare_by_gogc),
		cmocka_unit_test(test_compare_by_capacity),
		cmocka_unit_test(test_compare_by_zeros),
		cmocka_unit_test(test_compare_bootstrap_seed),
		cmocka_unit_test(test_compare_document),
		cmocka_unit_test(test_compare_document_one_run),
		cmocka_unit_test(test_compare_document_designs),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
