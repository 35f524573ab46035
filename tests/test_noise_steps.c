/*
 * Unit tests for analysis/noise: steps (the decision rule of
 * analysis/verdict.h), the order of every factor, zeros, and the document.
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only), or
 * tests/stat_check.py (the t distribution in the standard library). Where
 * python printed a value with repr(), it is copied verbatim and compared
 * to 1e-12 relative.
 */
#include "noise_lookups.h"

#include "reports/builders.h"
#include "test_util.h"

#include <gsl/gsl_errno.h>

/* ---------------------------------------------------------------------- */
/* noise: steps, the order of every factor, zeros                          */
/* ---------------------------------------------------------------------- */

static const char *const cap_factors[] = {"target", "cfg", NULL};

static void cap_options(struct noise_options *o, const char *metric)
{
	noise_options_init(o);
	field_metric_meaning(metric, NULL, false, &o->metric);
	o->by = "sessions";
	o->factors = cap_factors;
	o->duration_extra = 2;
}

/* noise over the 36 capacity rows (build_cap36, all blocks) of tput, by sessions. */
static void cap36_tput_noise(struct selection *sel, struct noise_options *o, struct noise *nz)
{
	build_cap36(sel, false, NULL, NULL);
	cap_options(o, "tput");
	assert_int_equal(noise_compute(sel, o, nz), 0);
}

/*
 * The step rule on the real sweeps: the verdict is Welch's t on ln values
 * (python3 tests/stat_check.py welch-ln over results.tsv's tput at blocks
 * 1-3, per target, cfg and level: the p in each comment); the range rule
 * (python3 over results.tsv: the medians, d = median_to - median_from, the
 * spreads from each median to its extreme facing the other level, the gap
 * between the ranges) is evidence beside it.
 */
static void test_noise_steps_capacity(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_step *s;
	(void)state;
	cap36_tput_noise(&sel, &o, &nz);
	assert_int_equal(nz.nverdicts, 4);
	assert_int_equal(nz.nsteps, 8);

	/*
	 * e2-medium pg: 100 -> 287.0 [285.4, 303.6], 300 -> 261.5 [255.1,
	 * 269.1], 500 -> 245.2 [222.9, 248.0]: a decline with disjoint ranges;
	 * Welch p 0.013870512569310605 (resolved) and 0.09282951823084255
	 * (within-noise: the step compare also calls within-noise)
	 */
	s = step_of(&nz, MPG, 100);
	check_close(s->to, 300, 0, "pg step 1 to");
	check_close(s->median_from, 287.01400172055423, 0, "pg median 100");
	check_close(s->median_to, 261.4928259356003, 0, "pg median 300");
	/* python3: 261.4928259356003 - 287.01400172055423 */
	check_close(s->difference, -25.521175784953925, REL, "pg diff 100->300");
	/* 287.014 - 285.446 (100's min) and 269.094 - 261.493 (300's max - median) */
	check_close(s->spread_from, 1.5682262690355628, 1e-10, "pg spread_from 100");
	check_close(s->spread_to, 7.601629196453189, 1e-10, "pg spread_to 300");
	/* min(100) - max(300) = 285.44577545151867 - 269.0944551320535 */
	check_close(s->gap, 16.351320319465174, REL, "pg gap 100->300");
	assert_true(s->ranges_disjoint);
	check_close(s->v.p, 0.013870512569310605, 1e-8, "pg p 100->300");
	assert_string_equal(s->verdict, "resolved");
	assert_string_equal(s->v.word, "lower");
	assert_string_equal(s->change, "fall");
	assert_string_equal(s->effect, "worse");
	s = step_of(&nz, MPG, 300);
	check_close(s->difference, -16.30519502973678, REL, "pg diff 300->500");
	check_close(s->gap, 7.068469364137286, REL, "pg gap 300->500");
	assert_true(s->ranges_disjoint); /* disjoint, and still within noise */
	check_close(s->v.p, 0.09282951823084255, 1e-8, "pg p 300->500");
	assert_string_equal(s->verdict, "within-noise");
	check_close(s->v.runs_needed, 4, 0, "pg runs needed 300->500 (test_verdict.c)");
	assert_string_equal(verdict_of(&nz, MPG)->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, MPG)->steps_resolved, "100→300");
	assert_string_equal(verdict_of(&nz, MPG)->steps_within_noise, "300→500");

	/*
	 * e2-medium mem: 100: 362.6, 322.5, 345.0; 300: 365.3, 326.0, 323.8;
	 * 500: 361.6, 305.0, 293.6: Welch p 0.786175516647771, 0.48899829341415735
	 */
	s = step_of(&nz, MMEM, 100);
	check_close(s->difference, -19.02151485381745, REL, "mem diff 100->300");
	/* min(100) - max(300) = 322.54272034273805 - 365.34613028146913 */
	check_close(s->gap, -42.80340993873108, REL, "mem gap 100->300");
	check_close(s->v.p, 0.786175516647771, 1e-8, "mem p 100->300");
	assert_string_equal(s->verdict, "within-noise");
	s = step_of(&nz, MMEM, 300);
	check_close(s->gap, -37.73899930383453, REL, "mem gap 300->500");
	check_close(s->v.p, 0.48899829341415735, 1e-8, "mem p 300->500");
	assert_string_equal(s->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, MMEM)->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, MMEM)->steps_within_noise, "100→300, 300→500");
	assert_string_equal(verdict_of(&nz, MMEM)->within_noise, "100,300,500");

	/* e2-small pg: 100 -> 300 resolved (Welch p 0.03729266417998968, gap 4.30),
	 * 300 -> 500 a rise within noise (p 0.6288853502823915) */
	s = step_of(&nz, SPG, 100);
	check_close(s->gap, 4.3048214394573705, REL, "small pg gap 100->300");
	check_close(s->v.p, 0.03729266417998968, 1e-8, "small pg p 100->300");
	assert_string_equal(s->verdict, "resolved");
	s = step_of(&nz, SPG, 300);
	assert_string_equal(s->change, "rise");
	assert_string_equal(s->effect, "better");
	check_close(s->gap, -5.585630639791425, REL, "small pg gap 300->500");
	check_close(s->v.p, 0.6288853502823915, 1e-8, "small pg p 300->500");
	assert_string_equal(s->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, SPG)->steps_text,
			    "resolved: 100→300; within-noise: 300→500");
	/* the level verdict is the worst of its steps: 100 resolved, 300 and 500 within noise */
	assert_string_equal(nlevel_of(&nz, SPG, 100)->verdict, "resolved");
	assert_string_equal(nlevel_of(&nz, SPG, 300)->verdict, "within-noise");
	assert_string_equal(nlevel_of(&nz, SPG, 500)->verdict, "within-noise");
	/* e2-small mem: 100 -> 300 within noise (p 0.29675326594452567; the ranges
	 * overlap by 0.36), 300 -> 500 resolved (p 0.02793388973875588) */
	check_close(step_of(&nz, SMEM, 100)->gap, -0.3619406069093287, 1e-10, "small mem gap");
	check_close(step_of(&nz, SMEM, 100)->v.p, 0.29675326594452567, 1e-8, "small mem p");
	assert_string_equal(step_of(&nz, SMEM, 300)->verdict, "resolved");
	check_close(step_of(&nz, SMEM, 300)->v.p, 0.02793388973875588, 1e-8, "small mem p 2");
	assert_string_equal(nz.verdict, "within-noise");
	assert_int_equal(nz.nresolved, 3);
	assert_int_equal(nz.nwithin, 5);
	assert_int_equal(nz.nunreplicated, 0);
	noise_release(&nz);
	selection_release(&sel);
}

/*
 * The step rule at the range rule's boundary: the range figures are the
 * evidence (by hand), the verdict Welch's (python3 tests/stat_check.py
 * welch-ln 1,2,3 3,4,5: p = 0.12404979194794039; 1,2,3 3.000001,4,5: p =
 * 0.12404976204130341): disjoint ranges by a hair are no resolved step.
 */
static void test_noise_step_boundary(void **state)
{
	static const double a[] = {1, 2, 3}, touch[] = {3, 4, 5}, clear[] = {3.000001, 4, 5};
	static const double wide[] = {0, 2, 4}, one[] = {2}, zeros[] = {0, 0, 0};
	struct verdict_options o;
	struct noise_step st;
	(void)state;
	verdict_options_init(&o);
	/* touching ranges [1, 3] and [3, 5]: d = 2, spread = (3 - 2) + (4 - 3) = 2: not > */
	assert_int_equal(noise_step_judge(a, 3, touch, 3, &o, &st), 0);
	check_close(st.difference, 2, 0, "touch d");
	check_close(st.spread, 2, 0, "touch spread");
	check_close(st.gap, 0, 0, "touch gap");
	assert_false(st.ranges_disjoint);
	check_close(st.v.p, 0.12404979194794039, 1e-8, "touch p");
	assert_string_equal(st.verdict, "within-noise");
	assert_string_equal(st.change, "rise");
	assert_string_equal(st.effect, "better");
	/* by hand: 1e-6 apart: disjoint, gap 3.000001 - 3; Welch still within noise */
	assert_int_equal(noise_step_judge(a, 3, clear, 3, &o, &st), 0);
	assert_true(st.ranges_disjoint);
	check_close(st.gap, 3.000001 - 3, 1e-9, "clear gap");
	check_close(st.v.p, 0.12404976204130341, 1e-8, "clear p");
	assert_string_equal(st.verdict, "within-noise");
	/* the same step downwards, lower is better: a fall within noise, better */
	o.lower_is_better = true;
	o.kind = FIELD_KIND_TIME;
	assert_int_equal(noise_step_judge(touch, 3, a, 3, &o, &st), 0);
	check_close(st.difference, -2, 0, "fall d");
	/* by hand: spread_from = 4 - 3 (median to min), spread_to = 3 - 2 (max to median) */
	check_close(st.spread_from, 1, 0, "fall spread_from");
	check_close(st.spread_to, 1, 0, "fall spread_to");
	assert_string_equal(st.change, "fall");
	assert_string_equal(st.effect, "better");
	assert_string_equal(st.v.change, "faster"); /* a time, lower */
	assert_string_equal(st.verdict, "within-noise");
	o.lower_is_better = false;
	o.kind = FIELD_KIND_RATE;
	/* equal medians: never resolved (a 0 on the far side: the absolute scale, p = 1) */
	assert_int_equal(noise_step_judge(a, 3, wide, 3, &o, &st), 0);
	assert_string_equal(st.change, "none");
	assert_false(st.v.log_scale);
	check_close(st.v.p, 1, 1e-12, "equal means p");
	assert_string_equal(st.verdict, "within-noise");
	/* by hand: the larger orientation, (3 - 2) + (2 - 0) = 3 vs (2 - 1) + (4 - 2) = 3 */
	check_close(st.spread, 3, 0, "equal spread");
	/* one run: unreplicated, whatever the gap */
	assert_int_equal(noise_step_judge(one, 1, a, 3, &o, &st), 0);
	assert_string_equal(st.verdict, "unreplicated");
	/* all zero: within noise (exact, p = 1), no share (difference_pct NaN) */
	o.lower_is_better = true;
	assert_int_equal(noise_step_judge(zeros, 3, zeros, 3, &o, &st), 0);
	assert_string_equal(st.verdict, "within-noise");
	assert_string_equal(st.v.test, "exact");
	assert_true(isnan(st.difference_pct));
	check_close(st.gap, 0, 0, "zero gap");
}

/* Levels with one run: unreplicated (the GOGC arms of the GOMAXPROCS corpus). */
static void test_noise_unreplicated(void **state)
{
	/*
	 * gomaxprocs-scaling-20260816: blocks gg100 and gg800, tput and
	 * started_at from runs/<tag>/load.json; grouped by gogc
	 */
	static const struct row gg[] = {
		{"g1-n100-bgg100-gogc100", 1, "gg100", 467.45002353466043, "2026-08-16T09:55:08Z",
		 21, NAN, "gogc=100", NULL},
		{"g1-n100-bgg800-gogc800", 1, "gg800", 621.5753887789881, "2026-08-16T09:57:00Z",
		 22, NAN, "gogc=800", NULL},
		{"g4-n100-bgg100-gogc100", 4, "gg100", 1561.8288570658522, "2026-08-16T09:58:53Z",
		 23, NAN, "gogc=100", NULL},
		{"g4-n100-bgg800-gogc800", 4, "gg800", 2143.0991485167087, "2026-08-16T10:00:44Z",
		 24, NAN, "gogc=800", NULL},
	};
	/* the GOGC sweep at GOMAXPROCS 8 by gogc: one run a level, one block each */
	static const struct row gogc8[] = {
		{"g8-n100-bgogc100-gogc100", 100, "gogc100", 1805.138577387964,
		 "2026-08-16T09:39:16Z", 13, NAN, NULL, NULL},
		{"g8-n100-bgogc400-gogc400", 400, "gogc400", 2280.1051957131544,
		 "2026-08-16T09:41:15Z", 14, NAN, NULL, NULL},
		{"g8-n100-bgogc800-gogc800", 800, "gogc800", 2403.9683124863996,
		 "2026-08-16T09:43:07Z", 15, NAN, NULL, NULL},
	};
	/* constructed: 3 runs at level 1, one at 2, one level only in group b */
	static const struct row mixed[] = {
		{"a1", 1, "1", 100, NULL, 1, NAN, "a", NULL},
		{"a2", 1, "2", 101, NULL, 2, NAN, "a", NULL},
		{"a3", 1, "3", 102, NULL, 3, NAN, "a", NULL},
		{"a4", 2, "1", 200, NULL, 4, NAN, "a", NULL},
		{"b1", 1, "1", 100, NULL, 5, NAN, "b", NULL},
		{"b2", 1, "2", 101, NULL, 6, NAN, "b", NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	noise_options_init(&o);
	build(&sel, gg, ARRAY_LEN(gg));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nsteps, 2);
	for (size_t i = 0; i < nz.nsteps; i++)
		assert_string_equal(nz.steps[i].verdict, "unreplicated");
	for (size_t i = 0; i < nz.nlevels; i++) {
		assert_string_equal(nz.levels[i].verdict, "unreplicated");
		assert_string_equal(nz.levels[i].why, "one run");
	}
	assert_string_equal(verdict_of(&nz, "gogc=100")->steps_unreplicated, "1→4");
	assert_string_equal(verdict_of(&nz, "gogc=800")->steps_text, "unreplicated: 1→4");
	assert_string_equal(nz.verdict, "unreplicated");
	assert_false(nz.resolved);
	/* each gogc group ran its two levels in one block: one-block */
	assert_string_equal(verdict_of(&nz, "gogc=100")->balance, "one-block");
	noise_release(&nz);
	selection_release(&sel);

	build(&sel, gogc8, ARRAY_LEN(gogc8));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(nz.verdict, "unreplicated");
	assert_string_equal(verdict_of(&nz, "")->steps_unreplicated, "100→400, 400→800");
	/* a level per block: the level never changes within a block */
	assert_string_equal(verdict_of(&nz, "")->balance, "not-rotated");
	assert_false(nz.counterbalanced);
	noise_release(&nz);
	selection_release(&sel);

	build(&sel, mixed, ARRAY_LEN(mixed));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(nlevel_of(&nz, "a", 1)->verdict, "unreplicated");
	assert_string_equal(nlevel_of(&nz, "a", 1)->why, "a neighbouring level has one run");
	assert_string_equal(verdict_of(&nz, "a")->verdict, "unreplicated");
	/* one level: no step to judge */
	assert_string_equal(verdict_of(&nz, "b")->verdict, "single-level");
	assert_string_equal(verdict_of(&nz, "b")->steps_text, "no steps: one level");
	assert_string_equal(nlevel_of(&nz, "b", 1)->verdict, "single-level");
	/* the worst: unreplicated before single-level */
	assert_string_equal(nz.verdict, "unreplicated");
	noise_release(&nz);
	selection_release(&sel);
}

/*
 * The order of every factor on the capacity corpus, from the start times of
 * json/<tag>.json: sessions 100,300,500 in every block (not
 * counterbalanced); cfg mem,pg / pg,mem / mem,pg (ABA: counterbalanced);
 * target small and medium started within 17 s of each other, inside each
 * other's 90 s window: simultaneous.
 */
static void test_noise_order_capacity(void **state)
{
	static const char *const blocks[] = {"1", "2", "3"};
	static const char *const cfg_order[] = {"mem,pg", "pg,mem", "mem,pg"};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_factor *f;
	(void)state;
	cap36_tput_noise(&sel, &o, &nz);
	assert_int_equal(nz.nfactors, 3);
	f = factor_of(&nz, "sessions");
	assert_true(f->is_level);
	assert_string_equal(f->balance, "no");
	check_contains(f->note, "sessions=100 is at position 1 in every block (1, 2, 3)",
		       "sessions note");
	for (size_t b = 0; b < 3; b++) {
		assert_string_equal(order_of(&nz, MPG, blocks[b])->levels, "100,300,500");
		assert_string_equal(field_order_of(&nz, "cfg", "target=medium", blocks[b])->levels,
				    cfg_order[b]);
		assert_string_equal(field_order_of(&nz, "cfg", "target=small", blocks[b])->levels,
				    cfg_order[b]);
		assert_string_equal(field_order_of(&nz, "target", "cfg=mem", blocks[b])->levels,
				    "medium+small");
		assert_string_equal(field_order_of(&nz, "target", "cfg=pg", blocks[b])->levels,
				    "medium+small");
	}
	f = factor_of(&nz, "cfg");
	assert_false(f->is_level);
	assert_string_equal(f->balance, "yes");
	f = factor_of(&nz, "target");
	assert_string_equal(f->balance, "simultaneous");
	check_contains(f->note, "same time", "target note");
	/* the level order is not counterbalanced, so the whole is not */
	assert_false(nz.counterbalanced);
	assert_false(verdict_of(&nz, MPG)->counterbalanced);
	noise_release(&nz);

	/*
	 * Without durations only equal start times are simultaneous: block 1
	 * (both at 03:24:28) still reads medium+small, blocks 2 and 3 (8 and 12
	 * s apart) medium,small, so medium is first in every block where the
	 * order is known: not counterbalanced. The 90 s window is what says two
	 * machines ran at once.
	 */
	o.duration_extra = -1;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(field_order_of(&nz, "target", "cfg=mem", "1")->levels, "medium+small");
	assert_string_equal(field_order_of(&nz, "target", "cfg=mem", "2")->levels, "medium,small");
	assert_string_equal(factor_of(&nz, "target")->balance, "no");
	check_contains(factor_of(&nz, "target")->note, "target=medium is at position 1", "note");
	/* cfg's blocks are minutes apart: the same without durations */
	assert_string_equal(factor_of(&nz, "cfg")->balance, "yes");
	noise_release(&nz);
	selection_release(&sel);
}

/* Constructed orders at the boundaries of the order rule (one group field, cfg). */
static void test_noise_order_boundary(void **state)
{
	/* start times: block 1 at 00:00, block 2 at 01:00; each run 60 s */
	static const struct {
		const char *cfg, *block, *start;
	} aba[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:02:00Z"},
		   {"B", "2", "2026-01-01T01:00:00Z"}, {"A", "2", "2026-01-01T01:02:00Z"},
		   {"A", "3", "2026-01-01T02:00:00Z"}, {"B", "3", "2026-01-01T02:02:00Z"}},
	  abab[] = {{"A", "1", "2026-01-01T00:00:00Z"},
		    {"B", "1", "2026-01-01T00:02:00Z"},
		    {"A", "2", "2026-01-01T01:00:00Z"},
		    {"B", "2", "2026-01-01T01:02:00Z"}},
	  /*
	   * B starts when A's 60 s end (block 1: after it, A,B) or A starts 1 s
	   * before B's end (block 2: simultaneous, B+A): A is first in both
	   */
		edge[] = {{"A", "1", "2026-01-01T00:00:00Z"},
			  {"B", "1", "2026-01-01T00:01:00Z"},
			  {"B", "2", "2026-01-01T01:00:00Z"},
			  {"A", "2", "2026-01-01T01:00:59Z"}},
	  /* two machines at once in both blocks */
		simul[] = {{"A", "1", "2026-01-01T00:00:00Z"},
			   {"B", "1", "2026-01-01T00:00:10Z"},
			   {"A", "2", "2026-01-01T01:00:00Z"},
			   {"B", "2", "2026-01-01T01:00:00Z"}},
	  single[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:02:00Z"}};
	static const char *const fields[] = {"cfg", NULL};
	const struct {
		const void *rows;
		size_t n;
		const char *balance, *order2;
	} cases[] = {
		{aba, ARRAY_LEN(aba), "yes", "B,A"},
		{abab, ARRAY_LEN(abab), "no", "A,B"},
		{edge, ARRAY_LEN(edge), "no", "B+A"},
		{simul, ARRAY_LEN(simul), "simultaneous", "A+B"},
		{single, ARRAY_LEN(single), "one-block", NULL},
	};
	(void)state;
	for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
		const struct {
			const char *cfg, *block, *start;
		} *in = cases[c].rows;
		struct row rows[8];
		char groups[8][16];
		struct selection sel;
		struct noise_options o;
		struct noise nz;
		for (size_t i = 0; i < cases[c].n; i++) {
			snprintf(groups[i], sizeof(groups[i]), "cfg=%s", in[i].cfg);
			rows[i] = (struct row){in[i].cfg,      1,   in[i].block, 100, in[i].start,
					       (int64_t)i + 1, NAN, groups[i],   NULL};
		}
		build(&sel, rows, cases[c].n);
		sel.nextra = 2;
		for (size_t i = 0; i < cases[c].n; i++) {
			sel.runs[i].extra = calloc(2, sizeof(char *));
			assert_non_null(sel.runs[i].extra);
			sel.runs[i].extra[0] = dup_or_null(&sel, in[i].cfg);
			sel.runs[i].extra[1] = dup_or_null(&sel, "60");
		}
		noise_options_init(&o);
		o.factors = fields;
		o.duration_extra = 1;
		assert_int_equal(noise_compute(&sel, &o, &nz), 0);
		if (strcmp(factor_of(&nz, "cfg")->balance, cases[c].balance))
			fail_msg("case %zu: cfg is '%s', expected '%s' (%s)", c,
				 factor_of(&nz, "cfg")->balance, cases[c].balance,
				 factor_of(&nz, "cfg")->note);
		if (cases[c].order2)
			assert_string_equal(field_order_of(&nz, "cfg", "", "2")->levels,
					    cases[c].order2);
		if (c == 2)
			assert_string_equal(field_order_of(&nz, "cfg", "", "1")->levels, "A,B");
		noise_release(&nz);
		selection_release(&sel);
	}
}

/*
 * `noise --metric err` on the capacity corpus: most medians are 0, so the
 * relative figures are NaN and the absolute ones carry the range; nothing
 * is refused. err is lower-is-better (canonical), which turns the bursts
 * around. Values: results.tsv err; python3 for the differences.
 */
static void test_noise_zero_median(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_level *lv;
	const struct noise_burst *b;
	(void)state;
	build_cap36(&sel, true, NULL, NULL);
	cap_options(&o, "err");
	assert_true(o.metric.lower_is_better);
	assert_int_equal(o.metric.kind, FIELD_KIND_FRACTION);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	/* medians 0: medium 3 + 3 levels, small mem 100 and 300, small pg 100 */
	assert_int_equal(nz.zero_median_levels, 9);
	lv = nlevel_of(&nz, MPG, 100);
	check_close(lv->s.median, 0, 0, "median 0");
	assert_true(isnan(lv->s.range_pct));
	check_close(lv->s.range_abs, 0, 0, "range_abs 0");
	assert_true(isnan(lv->max_abs_dev_pct));
	assert_true(isnan(cell_of(&nz, MPG, 100, "1")->deviation_pct));
	lv = nlevel_of(&nz, SPG, 300);
	/* python3: 0.006548918436197659 - 0.0008007687379884689 */
	check_close(lv->s.range_abs, 0.005748149698209189, REL, "small pg 300 range_abs");
	/* python3: (0.006548918436197659 - 0.0008007687379884689) / 0.001199040767386091 * 100 */
	check_close(lv->s.range_pct, 479.39568483064636, 1e-10, "small pg 300 range_pct");
	/* python3: 0.006548918436197659 - 0.001199040767386091 */
	check_close(cell_of(&nz, SPG, 300, "3")->deviation_abs, 0.005349877668811568, REL,
		    "deviation_abs");
	/*
	 * small pg: 0, 0, 0 -> 0.0008 .. 0.0065 -> 0.017 .. 0.021: the ranges
	 * are disjoint at both steps (the write-up's failure knee between 100
	 * and 300 sessions), but with 3 runs a level Welch does not resolve
	 * either: python3 tests/stat_check.py welch 0,0,0 (the 300 values):
	 * p = 0.2639748637774144 (a 0: values); welch-ln (the 300 and 500
	 * values): p = 0.06725210904066466. The knee is a finding of its own
	 * (errors appear), not a noise verdict; the range rule stays as evidence.
	 */
	check_close(step_of(&nz, SPG, 100)->gap, 0.0008007687379884689, REL, "err gap 100->300");
	assert_true(step_of(&nz, SPG, 100)->ranges_disjoint);
	check_close(step_of(&nz, SPG, 100)->v.p, 0.2639748637774144, 1e-8, "err p 100->300");
	assert_false(step_of(&nz, SPG, 100)->v.log_scale);
	assert_string_equal(step_of(&nz, SPG, 100)->verdict, "within-noise");
	assert_true(isnan(step_of(&nz, SPG, 100)->difference_pct));
	assert_string_equal(step_of(&nz, SPG, 100)->effect, "worse");
	check_close(step_of(&nz, SPG, 300)->v.p, 0.06725210904066466, 1e-8, "err p 300->500");
	assert_true(step_of(&nz, SPG, 300)->v.log_scale);
	assert_string_equal(step_of(&nz, SPG, 300)->verdict, "within-noise");
	check_close(step_of(&nz, SPG, 300)->gap, 0.010217349824094505, REL, "err gap 300->500");
	/* small mem 300 -> 500: 0, 0, 0 against 0, 0.0012, 0.0016: the ranges touch at 0 */
	check_close(step_of(&nz, SMEM, 300)->gap, 0, 0, "err touching gap");
	assert_string_equal(step_of(&nz, SMEM, 300)->verdict, "within-noise");
	/* medium: nothing changes */
	assert_string_equal(verdict_of(&nz, MPG)->verdict, "within-noise");
	assert_string_equal(step_of(&nz, MPG, 100)->change, "none");
	/*
	 * bursts, lower is better: small pg 300's first run (block 1, 0.00080)
	 * has fewer errors than the later median, python3:
	 * statistics.median([0.001199040767386091, 0.006548918436197659]) =
	 * 0.0038739796017918746 >= 1.5 * 0.00080: a burst, ratio 0.20670442808167613
	 */
	b = burst_of(&nz, SPG, 300);
	check_close(b->later_median, 0.0038739796017918746, REL, "err later median");
	check_close(b->ratio, 0.20670442808167613, REL, "err ratio");
	assert_true(b->burst);
	/* a later median of 0: no ratio, no burst */
	b = burst_of(&nz, MPG, 100);
	assert_true(isnan(b->ratio));
	assert_false(b->burst);
	/* the drift leaves the 0-median levels out: medium pg has no drift row */
	for (size_t i = 0; i < nz.ndrifts; i++)
		assert_string_not_equal(nz.drifts[i].group, MPG);
	noise_release(&nz);
	selection_release(&sel);
}

/* A latency burst reads low: the first run is better when lower is better. */
static void test_noise_burst_lower(void **state)
{
	/* by hand: later median 150 = 1.5 * 100 exactly: a burst; 149 is not */
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	build_first_and_later(&sel, 100, 150, 150);
	noise_options_init(&o);
	/* higher is better: 100 / 150 is no burst */
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(nz.bursts[0].burst);
	noise_release(&nz);
	field_metric_meaning("p50_ms", NULL, false, &o.metric);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_true(nz.bursts[0].burst);
	check_close(nz.bursts[0].ratio, 100.0 / 150.0, REL, "ratio");
	noise_release(&nz);
	sel.runs[1].metric = sel.runs[2].metric = 149;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(nz.bursts[0].burst);
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_document_gomaxprocs(void **state)
{
	struct noise_request req = {.by = "gomaxprocs"};
	struct noise_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	noise_options_init(&req.opts);
	req.opts.by = req.by; /* as noise_run sets it */
	build(&res.sel, gmp_rows, ARRAY_LEN(gmp_rows));
	assert_int_equal(noise_compute(&res.sel, &req.opts, &res.nz), 0);
	assert_true(res.nz.resolved);
	assert_true(res.nz.counterbalanced);
	assert_int_equal(res.nz.burst_count, 0);
	assert_int_equal(build_noise(&req, &res, &d), 0);
	assert_string_equal(doc_title(d), "Noise of tput by gomaxprocs");
	/* Markdown order: the verdict first; every view a table */
	check_sections(d, "verdict,steps,levels,cells,drift,order,bursts,soaks");
	check_fact_text(d, "verdict", "resolved");
	check_fact_shown(d, "counterbalanced", "yes");
	{
		static const char *const facts[] = {"by=gomaxprocs", "metric=tput", "block=block",
						    "group=", NULL};
		check_fact_texts(d, facts);
	}
	check_close(doc_fact_number(d, "runs"), 12, 0, "runs");
	check_close(doc_fact_number(d, "groups"), 1, 0, "groups");
	check_close(doc_fact_number(d, "bursts"), 0, 0, "bursts");
	check_fact_text(d, "step_rule", NOISE_STEP_RULE);
	{
		static const char *const facts[] = {"verdict_steps=resolved: 1→2, 2→4, 4→8",
						    "counterbalanced_gomaxprocs=yes", "metric_kind=rate",
						    "metric_direction=higher", NULL};
		check_fact_texts(d, facts);
	}
	check_close(doc_fact_number(d, "steps_resolved"), 3, 0, "steps resolved");
	assert_int_equal(rows_of(d, "steps"), 3);
	/* python3: 853.212014958686 - 485.26070274273076 (min of 2 - max of 1) */
	check_close(cell_of_doc(d, "steps", 0, "gap"), 367.9513122159553, REL, "gap 1->2");
	check_close(doc_fact_number(d, "threshold_burst_factor"), NOISE_BURST_FACTOR, 0, "burst");
	check_close(doc_fact_number(d, "threshold_drift_pct"), NOISE_DRIFT_PCT, 0, "drift");
	check_close(doc_fact_number(d, "runs_left_out"), 0, 0, "left out");
	assert_int_equal(rows_of(d, "levels"), 4);
	assert_int_equal(rows_of(d, "cells"), 12);
	assert_int_equal(rows_of(d, "verdict"), 1);
	assert_int_equal(rows_of(d, "bursts"), 4);
	assert_int_equal(rows_of(d, "soaks"), 0);
	/* python3: (881.2907259769522 - 853.212014958686) / 865.4682448787189 * 100 */
	check_close(cell_of_doc(d, "levels", 1, "range_pct"), 3.244337523001892, REL, "range g2");
	check_close(cell_of_doc(d, "verdict", 0, "max_range_pct"), 3.244337523001892, REL,
		    "max range");
	md = md_of(d);
	/* the empty soak table says why, quoting the soak_min_runs fact */
	check_contains(md,
		       "### Soaks (repeated runs of one cell)\n\nnone: no level has 3 or more "
		       "runs in one block\n",
		       "md soaks");
	check_close(doc_fact_number(d, "soak_min_runs"), NOISE_SOAK_MIN_RUNS, 0, "soak min");
	check_contains(md, "thresholds: burst factor 1.50x, drift 1.00%", "md");
	check_contains(md, "- verdict: resolved\n", "md verdict");
	assert_true(strstr(md, "### Verdict") < strstr(md, "### Levels"));
	free(md);
	doc_free(d);
	noise_result_release(&res);
}

static void test_noise_document_capacity(void **state)
{
	static const char *const group[] = {"target", "cfg", NULL};
	struct noise_request req = {.by = "sessions", .group = group};
	struct noise_result res;
	struct doc *d = NULL;
	(void)state;
	noise_options_init(&req.opts);
	build(&res.sel, cap_rows, ARRAY_LEN(cap_rows));
	assert_int_equal(noise_compute(&res.sel, &req.opts, &res.nz), 0);
	assert_int_equal(build_noise(&req, &res, &d), 0);
	/* one burst (small-mem-n100-b1r1, 1.98x): test_noise_capacity_bursts */
	check_close(doc_fact_number(d, "bursts"), 1, 0, "bursts");
	check_close(doc_fact_number(d, "groups"), 2, 0, "groups");
	check_fact_text(d, "group", "target,cfg");
	/* a group within noise makes the whole within noise */
	assert_false(verdict_of(&res.nz, SPG)->resolved);
	check_fact_text(d, "verdict", "within-noise");
	check_fact_shown(d, "counterbalanced",
			 verdict_of(&res.nz, SMEM)->counterbalanced &&
					 verdict_of(&res.nz, SPG)->counterbalanced
				 ? "yes"
				 : "no");
	assert_int_equal(rows_of(d, "verdict"), 2);
	assert_int_equal(rows_of(d, "soaks"), 1);
	/* python3: 183.50754720511367 / statistics.median(soak r2..r8) */
	check_close(cell_of_doc(d, "soaks", 0, "ratio"), 2.67275559576317, 1e-12, "soak ratio");
	doc_free(d);
	noise_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_steps_capacity),
		cmocka_unit_test(test_noise_step_boundary),
		cmocka_unit_test(test_noise_unreplicated),
		cmocka_unit_test(test_noise_order_capacity),
		cmocka_unit_test(test_noise_order_boundary),
		cmocka_unit_test(test_noise_zero_median),
		cmocka_unit_test(test_noise_burst_lower),
		cmocka_unit_test(test_noise_document_gomaxprocs),
		cmocka_unit_test(test_noise_document_capacity),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
