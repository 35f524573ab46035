/*
 * Unit tests for analysis/verdict: the one decision rule.
 *
 * Expected values are computed outside this code, by
 * tests/stat_check.py (Python standard library only: Student's t from the
 * regularized incomplete beta function, quantiles by bisection; it agrees
 * with SciPy 1.10.1's values quoted in test_stats.c to 1e-13), with the
 * command in each comment; the t quantiles also match the published
 * table (t_{0.975, 2} = 4.303, t_{0.975, 1} = 12.706); runs needed with
 * python3's statistics.NormalDist (z = inv_cdf(0.975) + inv_cdf(0.8) =
 * 2.801585218112968). Corpus values are copied from
 * sky/gcp-x86-capacity-20260816/results.tsv (tput, column 22) and
 * sky/gomaxprocs-scaling-20260816/results.tsv (tput, load_rss_kb).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/verdict.h"
#include "common/err.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define REL 1e-9

/* capacity corpus, e2-medium pg, blocks 1-3: sessions 300 and 500 */
static const double pg300[] = {269.0944551320535, 255.10822490597312, 261.4928259356003};
static const double pg500[] = {222.86757414622213, 245.18763090586353, 248.03975554183583};
/* GOMAXPROCS corpus, GOGC=100 and GOGC=800 at GOMAXPROCS 1, 4, 8 (the gg and gogc blocks) */
static const double gogc100_tput[] = {467.45002353466043, 1561.8288570658522, 1805.138577387964};
static const double gogc800_tput[] = {621.5753887789881, 2143.0991485167087, 2403.9683124863996};
static const double gogc100_rss[] = {85860, 102704, 105952};
static const double gogc800_rss[] = {331512, 377704, 379456};

/*
 * The step noise called resolved (ranges disjoint) and compare called
 * unresolvable: one rule, within-noise, the range rule only evidence.
 *   python3 tests/stat_check.py welch-ln 269.0944551320535,... 222.86757414622213,...
 *   p=0.092829518230842553 df=2.7934906380364013 t=-2.5142425331103504
 *   ratio=0.91059637385905967 [0.80467488630011719, 1.0304605875024284]
 * gap = min(300) - max(500) = 255.10822490597312 - 248.03975554183583.
 * Runs needed: pooled sd of ln 0.04562174834727742, observed effect
 * 1 / 0.9106 - 1 = 9.818139925382363%: 2 z^2 (sd / ln 1.0982)^2 = 3.72 -> 4.
 */
static void test_pg_step(void **state)
{
	struct verdict_options o;
	struct verdict v;
	(void)state;
	verdict_options_init(&o);
	o.name_a = "sessions=300";
	o.name_b = "sessions=500";
	assert_int_equal(verdict_two_samples(pg300, 3, pg500, 3, &o, &v), 0);
	assert_true(v.log_scale);
	assert_string_equal(v.test, "welch");
	check_close(v.p, 0.092829518230842553, REL, "p");
	check_close(v.t.df, 2.7934906380364013, REL, "df");
	check_close(v.t.t, -2.5142425331103504, REL, "t");
	check_close(v.estimate, 0.91059637385905967, REL, "ratio");
	check_close(v.lo, 0.80467488630011719, 1e-8, "lo");
	check_close(v.hi, 1.0304605875024284, 1e-8, "hi");
	assert_int_equal(v.call, VERDICT_WITHIN_NOISE);
	assert_string_equal(v.word, "within-noise");
	assert_string_equal(v.change, "lower");
	assert_string_equal(v.effect, "worse");
	/* the range rule: disjoint, shown, not deciding */
	assert_true(v.ranges_disjoint);
	check_close(v.gap, 255.10822490597312 - 248.03975554183583, 1e-12, "gap");
	check_close(v.rank.p, 0.1, 1e-12, "rank p");
	check_close(v.observed_pct, 9.818139925382363, 1e-9, "observed");
	check_close(v.sd, 0.04562174834727742, 1e-9, "sd");
	check_close(v.runs_needed, 4, 0, "runs needed");
	check_contains(v.reason, "Welch t on ln values: p = 0.0928 >= alpha 0.05", "reason");
	check_contains(v.reason, "ranges disjoint", "reason");
	check_contains(v.reason, "runs needed per side to resolve a 9.82% effect: 4", "reason");
	/* at alpha 0.1 the same runs are real: lower (a rate), worse */
	o.alpha = 0.1;
	assert_int_equal(verdict_two_samples(pg300, 3, pg500, 3, &o, &v), 0);
	assert_int_equal(v.call, VERDICT_REAL);
	assert_string_equal(v.word, "lower");
	assert_true(isnan(v.runs_needed) || v.runs_needed >= 3);
}

/*
 * GOGC=800 against GOGC=100, paired by GOMAXPROCS (issue 25's figures):
 *   python3 tests/stat_check.py paired-ln 467.45002353466043,... 621.5753887789881,...
 *   ratio=1.3444001290698557 [1.2864906018080977, 1.4049163705532079]
 *   p=0.0011934755891122109 t=28.920394908548939 df=2
 *   python3 tests/stat_check.py paired-ln 85860,102704,105952 331512,377704,379456
 *   ratio=3.7048868896251244 [3.3699999042919306, 4.0730525978457353] p=0.00028255167773019952
 */
static void test_gogc_paired(void **state)
{
	struct verdict_options o;
	struct verdict v;
	char s[256];
	(void)state;
	verdict_options_init(&o);
	assert_int_equal(verdict_paired(gogc100_tput, gogc800_tput, 3, &o, &v), 0);
	check_close(v.estimate, 1.3444001290698557, REL, "tput ratio");
	check_close(v.lo, 1.2864906018080977, 1e-8, "tput lo");
	check_close(v.hi, 1.4049163705532079, 1e-8, "tput hi");
	check_close(v.p, 0.0011934755891122109, 1e-8, "tput p");
	check_close(v.t.df, 2, 0, "df");
	assert_int_equal(v.call, VERDICT_REAL);
	assert_string_equal(v.word, "higher"); /* a rate: higher, never "faster" */
	assert_string_equal(v.effect, "better");
	assert_int_equal(v.agree, 3);
	verdict_sentence(&v, "", s, sizeof(s));
	check_contains(s, "1.3444x [1.2865, 1.4049] higher", "tput sentence");

	o.kind = FIELD_KIND_MEMORY;
	o.lower_is_better = true;
	assert_int_equal(verdict_paired(gogc100_rss, gogc800_rss, 3, &o, &v), 0);
	check_close(v.estimate, 3.7048868896251244, REL, "rss ratio");
	check_close(v.lo, 3.3699999042919306, 1e-8, "rss lo");
	check_close(v.hi, 4.0730525978457353, 1e-8, "rss hi");
	check_close(v.p, 0.00028255167773019952, 1e-8, "rss p");
	assert_string_equal(v.word, "uses more");
	assert_string_equal(v.effect, "worse");
	verdict_sentence(&v, "kB", s, sizeof(s));
	check_contains(s, "uses 3.7049x [3.3700, 4.0731] more memory", "rss sentence");
}

/* The words follow the kind: a time lower is faster; a count or fraction higher/lower. */
static void test_words(void **state)
{
	static const double slow[] = {100, 101, 102, 103, 104};
	static const double quick[] = {80, 81, 82, 83, 84};
	struct verdict_options o;
	struct verdict v;
	char s[128];
	(void)state;
	verdict_options_init(&o);
	o.kind = FIELD_KIND_TIME;
	o.lower_is_better = true;
	assert_int_equal(verdict_two_samples(slow, 5, quick, 5, &o, &v), 0);
	assert_string_equal(v.word, "faster");
	assert_string_equal(v.effect, "better");
	assert_int_equal(verdict_two_samples(quick, 5, slow, 5, &o, &v), 0);
	assert_string_equal(v.word, "slower");
	o.kind = FIELD_KIND_LATENCY;
	assert_int_equal(verdict_two_samples(quick, 5, slow, 5, &o, &v), 0);
	assert_string_equal(v.word, "slower");
	o.kind = FIELD_KIND_COUNT;
	assert_int_equal(verdict_two_samples(quick, 5, slow, 5, &o, &v), 0);
	assert_string_equal(v.word, "higher");
	o.kind = FIELD_KIND_CPU;
	assert_int_equal(verdict_two_samples(slow, 5, quick, 5, &o, &v), 0);
	assert_string_equal(v.word, "uses less");
	/* by hand: gm(quick) / gm(slow) < 1: the share below */
	units_change_phrase(s, sizeof(s), FIELD_KIND_MEMORY, true, 0.85, 0.81, 0.89, "");
	assert_string_equal(s, "uses 15.00% [11.00%, 19.00%] less memory");
	units_change_phrase(s, sizeof(s), FIELD_KIND_TIME, true, 0.5, NAN, NAN, "");
	assert_string_equal(s, "50.00% faster");
	assert_string_equal(units_change_word(FIELD_KIND_RATE, 1), "higher");
	assert_string_equal(units_change_word(FIELD_KIND_RATE, -1), "lower");
	assert_string_equal(units_change_word(FIELD_KIND_MEMORY, 1), "uses more");
}

/* One run on a side: unreplicated, the same words everywhere; runs needed from the other. */
static void test_unreplicated(void **state)
{
	static const double one[] = {300};
	struct verdict_options o;
	struct verdict v;
	(void)state;
	verdict_options_init(&o);
	o.name_a = "arm a";
	assert_int_equal(verdict_two_samples(one, 1, pg300, 3, &o, &v), 0);
	assert_int_equal(v.call, VERDICT_UNREPLICATED);
	assert_string_equal(v.word, "unreplicated");
	assert_false(v.has_test);
	assert_true(isnan(v.p));
	assert_true(isnan(v.lo));
	check_contains(v.reason, "one run in arm a: no within-side spread, no interval and no test",
		       "reason");
	/* the sd from pg300 alone: its sd of ln values (n - 1) */
	assert_true(v.sd > 0);
	assert_true(v.runs_needed >= VERDICT_MIN_RUNS);
	assert_int_equal(verdict_paired(one, one, 1, &o, &v), 0);
	assert_int_equal(v.call, VERDICT_UNREPLICATED);
	check_contains(v.reason, "one pair", "paired reason");
}

/* No variation: exact. Zeros: the absolute scale (differences). */
static void test_exact_and_zeros(void **state)
{
	static const double five[] = {5, 5, 5}, six[] = {6, 6, 6};
	static const double zeros[] = {0, 0, 0};
	/* e2-small pg err at 100 and 300 sessions (results.tsv column 26) */
	static const double err100[] = {0, 0, 0};
	static const double err300[] = {0.0008, 0.0012, 0.0065};
	struct verdict_options o;
	struct verdict v;
	(void)state;
	verdict_options_init(&o);
	o.kind = FIELD_KIND_COUNT;
	assert_int_equal(verdict_two_samples(five, 3, six, 3, &o, &v), 0);
	assert_string_equal(v.test, "exact");
	assert_int_equal(v.call, VERDICT_REAL);
	check_close(v.p, 0, 0, "exact p");
	check_close(v.estimate, 1.2, 1e-12, "exact ratio");
	assert_string_equal(v.word, "higher");
	assert_int_equal(verdict_two_samples(five, 3, five, 3, &o, &v), 0);
	assert_int_equal(v.call, VERDICT_WITHIN_NOISE);
	check_close(v.p, 1, 0, "equal p");
	assert_int_equal(verdict_two_samples(zeros, 3, zeros, 3, &o, &v), 0);
	assert_false(v.log_scale);
	assert_int_equal(v.call, VERDICT_WITHIN_NOISE);
	/*
	 * python3 tests/stat_check.py welch 0,0,0 0.0008,0.0012,0.0065:
	 * diff=0.0028333333333333335 df=2 p=0.26292881594061429
	 */
	o.kind = FIELD_KIND_FRACTION;
	o.lower_is_better = true;
	assert_int_equal(verdict_two_samples(err100, 3, err300, 3, &o, &v), 0);
	assert_false(v.log_scale);
	check_close(v.estimate, 0.0028333333333333335, 1e-12, "err diff");
	check_close(v.p, 0.26292881594061429, 1e-8, "err p");
	assert_int_equal(v.call, VERDICT_WITHIN_NOISE);
	assert_true(v.ranges_disjoint);
	assert_string_equal(v.change, "higher");
	assert_string_equal(v.effect, "worse");
}

/*
 * The effect bound: an A/A inside it is no-difference (test_analysis.c's
 * SciPy interval [0.9900411747447048, 1.0108875915253606] inside 1 -+ 4.7%).
 */
static void test_effect_bound(void **state)
{
	static const double eq_a[] = {1000, 1010, 990, 1005, 995};
	static const double eq_b[] = {1002, 1008, 992, 1003, 997};
	struct verdict_options o;
	struct verdict v;
	(void)state;
	verdict_options_init(&o);
	o.has_effect_bound = true;
	o.effect_bound_pct = 4.7;
	assert_int_equal(verdict_two_samples(eq_a, 5, eq_b, 5, &o, &v), 0);
	check_close(v.lo, 0.9900411747447048, 1e-8, "lo");
	check_close(v.hi, 1.0108875915253606, 1e-8, "hi");
	assert_int_equal(v.call, VERDICT_NO_DIFFERENCE);
	assert_string_equal(v.word, "no-difference");
	check_contains(v.reason, "lies inside 1 -+ 4.7%", "reason");
	o.effect_bound_pct = 1.0; /* 1.0109 > 1.01 */
	assert_int_equal(verdict_two_samples(eq_a, 5, eq_b, 5, &o, &v), 0);
	assert_int_equal(v.call, VERDICT_WITHIN_NOISE);
	check_contains(v.reason, "is not inside 1 -+ 1%", "reason 1%");
}

/*
 * The tally: per-level verdicts of GOGC 800 against 100 at GOMAXPROCS 1,
 * 4, 8 with one run each are unreplicated; the summary's interval is the
 * across-levels t, the same as the paired one above
 * (python3 tests/stat_check.py paired-ln: 1.3444001290698557
 * [1.2864906018080977, 1.4049163705532079]).
 */
static void test_tally(void **state)
{
	struct verdict_options o;
	struct verdict lv[3], a, b;
	const struct verdict *p[3] = {&lv[0], &lv[1], &lv[2]};
	struct verdict_tally t;
	(void)state;
	verdict_options_init(&o);
	for (int i = 0; i < 3; i++)
		assert_int_equal(
			verdict_two_samples(&gogc100_tput[i], 1, &gogc800_tput[i], 1, &o, &lv[i]),
			0);
	assert_int_equal(verdict_tally(p, 3, &o, &t), 0);
	assert_string_equal(t.method, "across");
	assert_string_equal(t.text, "3 of 3 unreplicated");
	check_close(t.estimate, 1.3444001290698557, REL, "gm");
	check_close(t.lo, 1.2864906018080977, 1e-8, "lo");
	check_close(t.hi, 1.4049163705532079, 1e-8, "hi");
	check_close(t.df, 2, 0, "df");
	/*
	 * Within: two levels with their own Welch tests, equal weights:
	 * se = sqrt(se1^2 + se2^2) / 2, df by Welch-Satterthwaite; by hand
	 * from the two verdicts' own se and df (themselves checked above).
	 */
	assert_int_equal(verdict_two_samples(pg300, 3, pg500, 3, &o, &a), 0);
	assert_int_equal(verdict_two_samples(pg500, 3, pg300, 3, &o, &b), 0);
	p[0] = &a;
	p[1] = &b;
	assert_int_equal(verdict_tally(p, 2, &o, &t), 0);
	assert_string_equal(t.method, "within");
	assert_string_equal(t.text, "2 of 2 within-noise");
	check_close(t.estimate, 1, 1e-12, "opposite steps cancel");
	check_close(t.se, sqrt(2 * a.t.se * a.t.se) / 2, 1e-12, "se");
	check_close(t.df, 2 * a.t.df, 1e-9, "df: (2 s^2)^2 / (2 s^4 / df)");
	/* counts with real verdicts both ways */
	o.alpha = 0.1;
	assert_int_equal(verdict_two_samples(pg300, 3, pg500, 3, &o, &a), 0);
	assert_int_equal(verdict_two_samples(pg500, 3, pg300, 3, &o, &b), 0);
	p[2] = &lv[0];
	assert_int_equal(verdict_tally(p, 3, &o, &t), 0);
	assert_string_equal(t.text, "1 of 3 higher, 1 lower, 1 unreplicated");
	assert_string_equal(t.method, "across");
}

static void test_errors(void **state)
{
	static const double neg[] = {-1, 2, 3};
	struct verdict_options o;
	struct verdict v;
	(void)state;
	verdict_options_init(&o);
	assert_int_equal(verdict_two_samples(pg300, 0, pg500, 3, &o, &v), ERR_DATA);
	o.scale = VERDICT_SCALE_LOG;
	assert_int_equal(verdict_two_samples(neg, 3, pg500, 3, &o, &v), ERR_DATA);
	err_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pg_step),
		cmocka_unit_test(test_gogc_paired),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_unreplicated),
		cmocka_unit_test(test_exact_and_zeros),
		cmocka_unit_test(test_effect_bound),
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
