/*
 * Unit tests for analysis/noise: cells, drift, bursts, soaks and the
 * GOMAXPROCS and capacity sweeps' verdicts.
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
/* noise                                                                   */
/* ---------------------------------------------------------------------- */

static void test_noise_defaults(void **state)
{
	struct noise_options o;
	(void)state;
	/* fail if a default changes */
	assert_true(NOISE_BURST_FACTOR == 1.5);
	assert_true(NOISE_DRIFT_PCT == 1.0);
	noise_options_init(&o);
	assert_true(o.burst_factor == 1.5);
	assert_true(o.drift_pct == 1.0);
	/* tput's meaning: a rate, higher is better; no group fields, no durations */
	assert_int_equal(o.metric.kind, FIELD_KIND_RATE);
	assert_false(o.metric.lower_is_better);
	assert_null(o.factors);
	assert_int_equal(o.duration_extra, -1);
}

static void test_noise_gomaxprocs_cells(void **state)
{
	/* python3: (v / statistics.median(level) - 1) * 100, per block b1, b2, b3 */
	static const struct {
		double level;
		const char *block;
		double dev;
		size_t position;
	} want[] = {
		/* (475.2284019761499 / 484.13466860190584 - 1) * 100: the largest, 1.84% */
		{1, "1", -1.8396258734115545, 1},
		{1, "2", 0.232586966778614, 4},
		{1, "3", 0.0, 3},
		{2, "1", -1.4161386038779922, 2},
		{2, "2", 1.8281989191238912, 3},
		{2, "3", 0.0, 1},
		{4, "1", -0.3091833322324655, 3},
		{4, "2", 0.0, 2},
		{4, "3", 0.9545852136658706, 4},
		{8, "1", 0.0, 4},
		{8, "2", -0.19084301690963645, 1},
		{8, "3", 0.6916585422334531, 2},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	double max_dev = 0;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.ncells, 12);
	assert_int_equal(nz.nlevels, 4);
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		const struct noise_cell *c = cell_of(&nz, "", want[i].level, want[i].block);
		char what[64];
		snprintf(what, sizeof(what), "deviation g%g b%s", want[i].level, want[i].block);
		assert_int_equal(c->n, 1);
		check_close(c->deviation_pct, want[i].dev, want[i].dev == 0 ? 1e-13 : REL, what);
		if (c->position != want[i].position)
			fail_msg("position of g%g in block %s: got %zu, expected %zu",
				 want[i].level, want[i].block, c->position, want[i].position);
		assert_true(fabs(c->deviation_pct) < 2.0); /* the seed: blocks agree within 2% */
		max_dev = fmax(max_dev, fabs(c->deviation_pct));
	}
	check_close(max_dev, 1.8396258734115545, REL, "largest deviation");
	/* per level: the largest |deviation| */
	check_close(nlevel_of(&nz, "", 1)->max_abs_dev_pct, 1.8396258734115545, REL, "max dev g1");
	check_close(nlevel_of(&nz, "", 2)->max_abs_dev_pct, 1.8281989191238912, REL, "max dev g2");
	check_close(nlevel_of(&nz, "", 4)->max_abs_dev_pct, 0.9545852136658706, REL, "max dev g4");
	check_close(nlevel_of(&nz, "", 8)->max_abs_dev_pct, 0.6916585422334531, REL, "max dev g8");
	/* level statistics agree with the sweep's (python: see test_sweep_gomaxprocs) */
	check_close(nlevel_of(&nz, "", 2)->s.median, 865.4682448787189, 0, "noise median g2");
	check_close(nlevel_of(&nz, "", 2)->s.range_pct, 3.244337523001892, REL, "noise range g2");

	/*
	 * drift, python3: mean of each block's deviations over the 4 levels
	 *   b1: (-1.8396 - 1.4161 - 0.3092 + 0) / 4 = -0.89123698..., not all < 0 (a 0): none
	 *   b2: (0.2326 + 1.8282 + 0 - 0.1908) / 4, mixed signs: none
	 *   b3: (0 + 0 + 0.9546 + 0.6917) / 4, zeros: none
	 */
	assert_int_equal(nz.ndrifts, 3);
	check_close(drift_of(&nz, "1")->mean_dev_pct,
		    (-1.8396258734115545 - 1.4161386038779922 - 0.3091833322324655 + 0.0) / 4,
		    1e-12, "drift mean b1");
	check_close(drift_of(&nz, "1")->min_dev_pct, -1.8396258734115545, REL, "drift min b1");
	check_close(drift_of(&nz, "1")->max_dev_pct, 0.0, 1e-13, "drift max b1");
	assert_int_equal(drift_of(&nz, "1")->nlevels, 4);
	for (size_t i = 0; i < nz.ndrifts; i++)
		assert_string_equal(nz.drifts[i].drift, "none");
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_gomaxprocs_order(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_verdict *v;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.norders, 3);
	/* by start time (load.json started_at) */
	assert_string_equal(order_of(&nz, "", "1")->levels, "1,2,4,8");
	assert_string_equal(order_of(&nz, "", "2")->levels, "8,4,2,1");
	assert_string_equal(order_of(&nz, "", "3")->levels, "2,8,1,4");
	assert_true(order_of(&nz, "", "1")->timed);
	/*
	 * positions by hand: level 1 at 1, 4, 3; level 2 at 2, 3, 1; level 4 at
	 * 3, 2, 4; level 8 at 4, 1, 2: no level repeats a position
	 */
	v = verdict_of(&nz, "");
	assert_true(v->counterbalanced);
	check_contains(v->counterbalance_note, "start time", "note");
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * Swap the start times of g2-n100-b3 (08:34:39) and g8-n100-b3 (08:36:31):
	 * block 3 becomes 8,2,1,4. Level 8 is first in blocks 2 and 3 and level
	 * 2 second in blocks 1 and 3, but no level holds one position in every
	 * block (8: 4, 1, 1; 2: 2, 3, 2; 1: 1, 4, 3; 4: 3, 2, 4): still yes.
	 */
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	assert_string_equal(sel.runs[8].tag, "g2-n100-b3");
	assert_string_equal(sel.runs[9].tag, "g8-n100-b3");
	{
		char *t = sel.runs[8].started_at;
		sel.runs[8].started_at = sel.runs[9].started_at;
		sel.runs[9].started_at = t;
	}
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(order_of(&nz, "", "3")->levels, "8,2,1,4");
	assert_int_equal(cell_of(&nz, "", 8, "3")->position, 1);
	assert_int_equal(cell_of(&nz, "", 2, "3")->position, 2);
	assert_true(verdict_of(&nz, "")->counterbalanced);
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * Blocks 1 and 3 only, with g1-n100-b3 (08:38:23) and g2-n100-b3
	 * (08:34:39) swapped: block 3 becomes 1,8,2,4, so level 1 is first in
	 * both blocks: not counterbalanced, and the note names it.
	 */
	{
		struct row two[8];
		memcpy(two, gmp_rows, 4 * sizeof(two[0]));
		memcpy(two + 4, gmp_rows + 8, 4 * sizeof(two[0]));
		two[4].started_at = gmp_rows[10].started_at; /* g2-b3 at g1-b3's time */
		two[6].started_at = gmp_rows[8].started_at;  /* g1-b3 at g2-b3's time */
		build(&sel, two, ARRAY_LEN(two));
	}
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(order_of(&nz, "", "3")->levels, "1,8,2,4");
	v = verdict_of(&nz, "");
	assert_false(v->counterbalanced);
	assert_string_equal(v->balance, "no");
	check_contains(v->counterbalance_note, "level=1 is at position 1 in every block (1, 3)",
		       "note");
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * No start times: results-table order (seq), which for this corpus is
	 * the execution order, so the same orders, and timed is false.
	 */
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	/* its texts are in sel.strings: dropped, not freed */
	sel.runs[3].started_at = NULL;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(order_of(&nz, "", "1")->timed);
	assert_string_equal(order_of(&nz, "", "1")->levels, "1,2,4,8");
	assert_string_equal(order_of(&nz, "", "2")->levels, "8,4,2,1");
	assert_string_equal(order_of(&nz, "", "3")->levels, "2,8,1,4");
	assert_true(verdict_of(&nz, "")->counterbalanced);
	check_contains(verdict_of(&nz, "")->counterbalance_note, "results-table", "untimed note");
	noise_release(&nz);
	selection_release(&sel);

	/* one block: cannot be counterbalanced */
	build(&sel, gmp_rows, 4); /* the block-1 rows */
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(verdict_of(&nz, "")->counterbalanced);
	check_contains(verdict_of(&nz, "")->counterbalance_note, "one block", "one-block note");
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_gomaxprocs_verdict(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_verdict *v;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nverdicts, 1);
	v = verdict_of(&nz, "");
	/*
	 * [min, max] by level: [475.2, 485.3] [853.2, 881.3] [1534.0, 1553.5]
	 * [1792.8, 1808.6]: disjoint at every step, so every step is resolved
	 */
	assert_true(v->resolved);
	assert_string_equal(v->verdict, "resolved");
	assert_string_equal(nz.verdict, "resolved");
	assert_string_equal(v->within_noise, "");
	assert_string_equal(v->steps_resolved, "1→2, 2→4, 4→8");
	assert_string_equal(v->steps_within_noise, "");
	assert_string_equal(v->steps_text, "resolved: 1→2, 2→4, 4→8");
	assert_int_equal(nz.nsteps, 3);
	assert_int_equal(nz.nresolved, 3);
	check_close(v->max_range_pct, 3.244337523001892, REL, "max range");
	check_close(v->max_abs_dev_pct, 1.8396258734115545, REL, "max dev");
	for (size_t i = 0; i < nz.nlevels; i++) {
		assert_false(nz.levels[i].within_noise);
		assert_string_equal(nz.levels[i].verdict, "resolved");
	}
	/*
	 * first runs in time vs the later runs' median, all < 1.5:
	 * g1 475.228 / median(485.261, 484.135) = 0.9805; g2 853.2 / 873.4; ...
	 */
	assert_int_equal(v->nbursts, 0);
	assert_int_equal(nz.nbursts, 4);
	/* python3: 475.2284019761499 / statistics.median([485.26070274273076, 484.13466860190584])
	 */
	check_close(burst_of(&nz, "", 1)->ratio,
		    475.2284019761499 / ((485.26070274273076 + 484.13466860190584) / 2), REL,
		    "g1 first-run ratio");
	assert_string_equal(burst_of(&nz, "", 1)->tag, "g1-n100-b1");
	assert_string_equal(burst_of(&nz, "", 8)->tag, "g8-n100-b1");
	/* one run per (level, block): no soaks */
	assert_int_equal(nz.nsoaks, 0);
	noise_release(&nz);
	selection_release(&sel);
}

/* Constructed: neighbouring levels whose [min, max] overlap are within noise. */
static void test_noise_overlap(void **state)
{
	/*
	 * level 1: 100, 101, 102 (range 2/101 = 1.98%); level 2: 101.5, 103,
	 * 104 (range 2.5/103 = 2.43%); level 4: 200, 201, 202. 101.5 <= 102:
	 * levels 1 and 2 overlap; 4 is clear of 2. Welch on ln values (python3
	 * tests/stat_check.py welch-ln 100,101,102 101.5,103,104): p =
	 * 0.12244630314141672, within noise.
	 */
	static const struct row rows[] = {
		{"a-1", 1, "a", 100, "2026-01-01T00:00:00Z", 1, NAN, NULL, NULL},
		{"a-2", 2, "a", 101.5, "2026-01-01T00:01:00Z", 2, NAN, NULL, NULL},
		{"a-4", 4, "a", 200, "2026-01-01T00:02:00Z", 3, NAN, NULL, NULL},
		{"b-4", 4, "b", 201, "2026-01-01T00:03:00Z", 4, NAN, NULL, NULL},
		{"b-2", 2, "b", 103, "2026-01-01T00:04:00Z", 5, NAN, NULL, NULL},
		{"b-1", 1, "b", 101, "2026-01-01T00:05:00Z", 6, NAN, NULL, NULL},
		{"c-2", 2, "c", 104, "2026-01-01T00:06:00Z", 7, NAN, NULL, NULL},
		{"c-4", 4, "c", 202, "2026-01-01T00:07:00Z", 8, NAN, NULL, NULL},
		{"c-1", 1, "c", 102, "2026-01-01T00:08:00Z", 9, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_verdict *v;
	(void)state;
	build(&sel, rows, ARRAY_LEN(rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	v = verdict_of(&nz, "");
	assert_false(v->resolved);
	assert_string_equal(v->within_noise, "1,2");
	assert_true(nlevel_of(&nz, "", 1)->within_noise);
	assert_true(nlevel_of(&nz, "", 2)->within_noise);
	check_contains(nlevel_of(&nz, "", 1)->why, "within noise (Welch p >= alpha)", "why 1");
	check_contains(nlevel_of(&nz, "", 2)->why, "within noise (Welch p >= alpha)", "why 2");
	assert_false(nlevel_of(&nz, "", 4)->within_noise);
	check_close(step_of(&nz, "", 1)->v.p, 0.12244630314141672, 1e-8, "p 1->2");
	/* by hand: (102 - 100) / 101 * 100 = 1.9801980198019802 */
	check_close(nlevel_of(&nz, "", 1)->s.range_pct, 1.9801980198019802, REL, "range 1");
	/*
	 * orders a 1,2,4; b 4,2,1; c 2,4,1: level 2 is 2nd in a and b but 1st
	 * in c, 1 at 1, 3, 3, 4 at 3, 1, 2: no level holds one position in
	 * every block, counterbalanced
	 */
	assert_string_equal(order_of(&nz, "", "a")->levels, "1,2,4");
	assert_string_equal(order_of(&nz, "", "b")->levels, "4,2,1");
	assert_string_equal(order_of(&nz, "", "c")->levels, "2,4,1");
	assert_true(v->counterbalanced);
	/* the steps: 1 -> 2 within noise (101.5 <= 102), 2 -> 4 resolved (200 > 104) */
	assert_int_equal(nz.nsteps, 2);
	assert_string_equal(nz.steps[0].verdict, "within-noise");
	assert_string_equal(nz.steps[1].verdict, "resolved");
	/* by hand: gap = 101.5 - 102 = -0.5; 200 - 104 = 96 */
	check_close(nz.steps[0].gap, -0.5, REL, "gap 1->2");
	check_close(nz.steps[1].gap, 96, REL, "gap 2->4");
	assert_string_equal(v->steps_text, "resolved: 2→4; within-noise: 1→2");
	noise_release(&nz);
	selection_release(&sel);
}

/*
 * Constructed: blocks hi, mid and lo at the first NLEVELS of levels 1, 2, 4
 * with base 100, 200, 400: mid = base, hi = base + base * PERMILLE / 1000,
 * lo = base - base * PERMILLE / 1000 (exact in doubles for these values);
 * tags BLOCK-LEVEL in results-table order (seq 1, 2, ...), no start times.
 */
static void build_blocks(struct selection *sel, int permille, size_t nlevels)
{
	static const char *const blocks[] = {"hi", "mid", "lo"};
	static const int sign[] = {1, 0, -1};
	static const double levels[] = {1, 2, 4};
	struct row rows[9];
	char tags[9][16];
	size_t n = 0;
	for (size_t b = 0; b < 3; b++)
		for (size_t l = 0; l < nlevels; l++, n++) {
			double base = 100 * levels[l];
			snprintf(tags[n], sizeof(tags[n]), "%s-%g", blocks[b], levels[l]);
			rows[n] = (struct row){.tag = tags[n],
					       .level = levels[l],
					       .block = blocks[b],
					       .metric = base + sign[b] * base * permille / 1000,
					       .seq = (int64_t)n + 1,
					       .app_cores = NAN};
		}
	build(sel, rows, n);
}

/* Constructed: a block above (below) the level medians at every level drifts. */
static void test_noise_drift(void **state)
{
	/*
	 * levels 1, 2, 4 with base 100, 200, 400; block hi = base * 1.03,
	 * mid = base, lo = base * 0.97; the level median is the mid value, so
	 * deviations are +3, 0, -3 at every level (by hand). No start times:
	 * results-table order.
	 */
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	noise_options_init(&o);

	build_blocks(&sel, 30, 3);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.ndrifts, 3);
	assert_string_equal(drift_of(&nz, "hi")->drift, "high");
	assert_string_equal(drift_of(&nz, "lo")->drift, "low");
	assert_string_equal(drift_of(&nz, "mid")->drift, "none");
	/* by hand: (103 / 100 - 1) * 100 = 3 at each level */
	check_close(drift_of(&nz, "hi")->mean_dev_pct, 3.0, 1e-9, "hi mean");
	check_close(drift_of(&nz, "lo")->mean_dev_pct, -3.0, 1e-9, "lo mean");
	check_close(drift_of(&nz, "lo")->min_dev_pct, -3.0, 1e-9, "lo min");
	assert_int_equal(drift_of(&nz, "hi")->nlevels, 3);
	/* untimed order (results-table rows): every block 1,2,4, not counterbalanced */
	assert_false(order_of(&nz, "", "hi")->timed);
	assert_string_equal(order_of(&nz, "", "hi")->levels, "1,2,4");
	assert_false(verdict_of(&nz, "")->counterbalanced);
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * the same with +-0.5%: 100.5 / 201 / 402 and 99.5 / 199 / 398; one-signed
	 * but within the default 1%: none; with 0.4%: high / low
	 */
	build_blocks(&sel, 5, 3);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	check_close(drift_of(&nz, "hi")->mean_dev_pct, 0.5, 1e-9, "hi mean 0.5");
	assert_string_equal(drift_of(&nz, "hi")->drift, "none");
	assert_string_equal(drift_of(&nz, "lo")->drift, "none");
	noise_release(&nz);
	o.drift_pct = 0.4;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(drift_of(&nz, "hi")->drift, "high");
	assert_string_equal(drift_of(&nz, "lo")->drift, "low");
	noise_release(&nz);
	selection_release(&sel);
	noise_options_init(&o);

	/* one level only: +3 / 0 / -3 but fewer than 2 deviations */
	build_blocks(&sel, 30, 1);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(drift_of(&nz, "hi")->drift, "none");
	assert_string_equal(drift_of(&nz, "lo")->drift, "none");
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_capacity_bursts(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_burst *b;
	(void)state;
	build(&sel, cap_rows, ARRAY_LEN(cap_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	/* two groups, three levels each, every level with 2+ runs */
	assert_int_equal(nz.nverdicts, 2);
	assert_int_equal(nz.nbursts, 6);

	b = burst_of(&nz, SMEM, 100);
	assert_string_equal(b->tag, "small-mem-n100-b1r1");
	check_close(b->value, 226.60457539468104, 0, "mem100 first");
	assert_int_equal(b->later_n, 2);
	/* by hand: (108.61053410238733 + 120.22981199513485) / 2 = 114.42017304876109 */
	check_close(b->later_median, 114.42017304876109, REL, "mem100 later median");
	/* python3: 226.60457539468104 / 114.42017304876109 = 1.980459995442514 (>= 1.5) */
	check_close(b->ratio, 1.980459995442514, REL, "mem100 ratio");
	assert_true(b->burst);

	/* python3: the later runs' median and the ratio, per level */
	b = burst_of(&nz, SMEM, 300);
	/* 106.705468751967 / median(108.97247470929666, 97.15891127508982) */
	check_close(b->ratio, 1.035315104901584, REL, "mem300 ratio");
	assert_false(b->burst);
	b = burst_of(&nz, SMEM, 500);
	/* 75.38431446598604 / median(84.22853211074198, 90.08917684657376) */
	check_close(b->ratio, 0.8649071275305138, REL, "mem500 ratio");
	assert_false(b->burst);
	b = burst_of(&nz, SPG, 100);
	/* 84.20546493672084 / median(73.34269784886327, 90.16342653375783) */
	check_close(b->ratio, 1.029997686688132, REL, "pg100 ratio");
	b = burst_of(&nz, SPG, 300);
	/* the first of 11 (b1r1, 03:36:17) against the 10 later (b2r1, b3r1, soak r1..r8):
	 * statistics.median(later) = 67.81771644522122; 69.0378764094059 / it */
	assert_string_equal(b->tag, "small-pg-n300-b1r1");
	assert_int_equal(b->later_n, 10);
	check_close(b->later_median, 67.81771644522122, REL, "pg300 later median");
	check_close(b->ratio, 1.0179917583212972, REL, "pg300 ratio");
	assert_false(b->burst);
	b = burst_of(&nz, SPG, 500);
	/* 65.71880773694836 / median(65.97532637199109, 63.45224576961447) */
	check_close(b->ratio, 1.0155302560268378, REL, "pg500 ratio");
	assert_int_equal(verdict_of(&nz, SMEM)->nbursts, 1);
	assert_int_equal(verdict_of(&nz, SPG)->nbursts, 0);
	noise_release(&nz);

	/* the factor decides: 2.0 > 1.98 -> no burst; 1.98 <= 1.9805 -> burst */
	o.burst_factor = 2.0;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(burst_of(&nz, SMEM, 100)->burst);
	assert_int_equal(verdict_of(&nz, SMEM)->nbursts, 0);
	noise_release(&nz);
	o.burst_factor = 1.98;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_true(burst_of(&nz, SMEM, 100)->burst);
	noise_release(&nz);
	selection_release(&sel);
}

/* A first run at exactly the factor is a burst (`noise --help`: ratio >= --burst-factor). */
static void test_noise_burst_boundary(void **state)
{
	/* by hand: 150 / median(100, 100) = 1.5 exactly */
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	build_first_and_later(&sel, 150, 100, 100);
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nbursts, 1);
	assert_string_equal(nz.bursts[0].tag, "first");
	check_close(nz.bursts[0].ratio, 1.5, 0, "ratio");
	assert_true(nz.bursts[0].burst);
	assert_int_equal(verdict_of(&nz, "")->nbursts, 1);
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_capacity_soak(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_soak *s;
	(void)state;
	build(&sel, cap_rows, ARRAY_LEN(cap_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	/* only (pg, 300, soak) has 3+ runs in one block */
	assert_int_equal(nz.nsoaks, 1);
	s = &nz.soaks[0];
	assert_string_equal(s->group, SPG);
	assert_string_equal(s->block, "soak");
	check_close(s->level, 300, 0, "soak level");
	assert_int_equal(s->n, 8);
	assert_string_equal(s->first_tag, "small-pg-n300-bsoakr1");
	check_close(s->first, 183.50754720511367, 0, "soak first");
	assert_int_equal(s->sustained.n, 7);
	/*
	 * python3: rest = r2..r8; statistics.median(rest) = 68.65855879078818 (r8);
	 * ratio = 183.50754720511367 / 68.65855879078818 = 2.67275559576317;
	 * min 58.07684777864492 (r4), max 70.48826679674698 (r6);
	 * range_pct = (max - min) / median * 100 = 18.077016524511272
	 */
	check_close(s->sustained.median, 68.65855879078818, 0, "soak sustained median");
	check_close(s->ratio, 2.67275559576317, REL, "soak ratio");
	check_close(s->sustained.min, 58.07684777864492, 0, "soak sustained min");
	check_close(s->sustained.max, 70.48826679674698, 0, "soak sustained max");
	check_close(s->sustained.range_pct, 18.077016524511272, REL, "soak sustained range");
	/* the small/mem group at 100 is within noise: 108.61 (its min) <= 108.97 (300's max) */
	assert_true(nlevel_of(&nz, SMEM, 100)->within_noise);
	assert_false(verdict_of(&nz, SMEM)->resolved);
	/* blocks 1, 2, 3 of the mem group: orders by start time; 100,300,500 in each */
	assert_string_equal(order_of(&nz, SMEM, "1")->levels, "100,300,500");
	assert_false(verdict_of(&nz, SMEM)->counterbalanced);
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_refuses(void **state)
{
	static const struct row text_level[] = {
		{"t1", 0, "1", 100, NULL, 1, NAN, NULL, "1"},
		{"t-x", 0, "2", 200, NULL, 2, NAN, NULL, "x"},
	};
	/* a run without a block counts as block "NA" */
	static const struct row no_block[] = {
		{"nb1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"nb2", 2, NULL, 200, NULL, 2, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	noise_options_init(&o);
	build(&sel, text_level, ARRAY_LEN(text_level));
	assert_int_equal(noise_compute(&sel, &o, &nz), ERR_DATA);
	check_msg("'t-x'");
	selection_release(&sel);

	build(&sel, NULL, 0);
	assert_int_equal(noise_compute(&sel, &o, &nz), ERR_DATA);
	check_msg("no runs");
	selection_release(&sel);

	build(&sel, no_block, ARRAY_LEN(no_block));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.ncells, 2);
	assert_string_equal(nz.cells[0].block, "NA");
	noise_release(&nz);
	selection_release(&sel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_defaults),
		cmocka_unit_test(test_noise_gomaxprocs_cells),
		cmocka_unit_test(test_noise_gomaxprocs_order),
		cmocka_unit_test(test_noise_gomaxprocs_verdict),
		cmocka_unit_test(test_noise_overlap),
		cmocka_unit_test(test_noise_drift),
		cmocka_unit_test(test_noise_capacity_bursts),
		cmocka_unit_test(test_noise_burst_boundary),
		cmocka_unit_test(test_noise_capacity_soak),
		cmocka_unit_test(test_noise_refuses),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
