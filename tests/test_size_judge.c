/*
 * Unit tests for analysis/size: the measured cells beside the predictions
 * (size_judge: the worst deciding cell, the calibration of each group and
 * the leave-one-out check), the sessions factor, fleets, and --sessions.
 * The catalog and inputs are tests/size_fixture.h's (tests/test_size.c's
 * header works them out); every expected number is worked out by hand in
 * the comment beside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "size_fixture.h"

static struct size_cell cell(size_t row, double sessions, char *group, bool at_target, size_t n,
			     double median, double min, double max)
{
	struct size_cell c;
	memset(&c, 0, sizeof(c));
	c.row = row;
	c.sessions = sessions;
	c.group = group;
	c.at_target = at_target;
	c.eligible = at_target; /* the rules of size_cells.c are tested on the corpora */
	c.n = n;
	c.s.n = n;
	c.s.median = median;
	c.s.min = min;
	c.s.max = max;
	return c;
}

static void judge_measured(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	struct size_calibration calib[SIZE_NGROUPS];
	/*
	 * shared (predicted 150, bounds 141-159.25): two stores at 500, one
	 * at 300 not asked for; two (1080, 958.8-1210.3): one cell within;
	 * four-1t (1555.2, 1358.3-1768.9): measured 1200 (min 1100) at the
	 * target; eight: a listed count without runs
	 */
	struct size_cell cells[] = {
		cell(I_SHARED, 300, (char *)"cfg=mem", false, 3, 40, 30, 50),
		cell(I_SHARED, 500, (char *)"cfg=mem", true, 3, 170, 160, 180),
		cell(I_SHARED, 500, (char *)"cfg=pg", true, 3, 100, 90, 110),
		cell(I_TWO, 500, (char *)"", true, 3, 1050, 990, 1100),
		cell(I_FOUR_1T, 500, (char *)"", true, 3, 1200, 1100, 1300),
		cell(I_EIGHT, 500, (char *)"", true, 0, 0, 0, 0),
	};
	(void)state;
	rows = compute(&in);
	assert_true(rows[I_FOUR_1T].cheapest); /* predicted: four-1t meets, the cheapest */
	assert_int_equal(size_judge(&in, rows, NINST, cells, ARRAY_LEN(cells), calib), 0);

	/* shared: cfg=mem 170 > 159.25: above, 170 / 159.25 */
	assert_string_equal(cells[1].check, "above");
	check_close(cells[1].check_ratio, 170 / 159.25, REL, "above ratio");
	/* cfg=pg 100 < 141: below, 100 / 141; shortfall 1000 / 100 = 10 */
	assert_string_equal(cells[2].check, "below");
	check_close(cells[2].check_ratio, 100.0 / 141, REL, "below ratio");
	check_close(cells[2].shortfall, 10, REL, "measured shortfall");
	/* the worst at the target is cfg=pg (both short, lower median); 300 is not asked for */
	assert_true(cells[2].worst);
	assert_false(cells[0].worst);
	assert_false(cells[1].worst);
	assert_int_equal(rows[I_SHARED].worst, 2);
	assert_int_equal(rows[I_SHARED].first_cell, 0);
	assert_int_equal(rows[I_SHARED].ncells, 3);
	assert_string_equal(rows[I_SHARED].verdict, "short");
	assert_string_equal(rows[I_SHARED].basis, "measured");
	assert_true(rows[I_SHARED].measured_below);
	assert_true(rows[I_SHARED].measured_above);

	/* two: 1050 within 958.8-1210.3; min 990 < 1000 <= 1050: marginal, on measurement */
	assert_string_equal(cells[3].check, "within");
	assert_true(isnan(cells[3].check_ratio));
	assert_string_equal(rows[I_TWO].verdict, "marginal");
	assert_string_equal(rows[I_TWO].basis, "measured");
	assert_false(rows[I_TWO].measured_below || rows[I_TWO].measured_above);

	/* four-1t: 1200 below its low bound 1358.3; min 1100 >= 1000: meets, measured */
	assert_string_equal(cells[4].check, "below");
	assert_string_equal(rows[I_FOUR_1T].verdict, "meets");
	assert_string_equal(rows[I_FOUR_1T].basis, "measured");
	assert_true(rows[I_FOUR_1T].cheapest);

	/* eight: a count without runs decides nothing: still predicted */
	assert_null(cells[5].verdict);
	assert_null(cells[5].check);
	assert_int_equal(rows[I_EIGHT].worst, SIZE_MAX);
	assert_string_equal(rows[I_EIGHT].basis, "predicted");
	assert_string_equal(rows[I_EIGHT].verdict, "meets");
	/* rows without cells keep their prediction */
	assert_string_equal(rows[I_ONE].basis, "predicted");
	assert_int_equal(rows[I_ONE].ncells, 0);
	assert_int_equal(count_cheapest(rows, NINST), 1);
	free(rows);
}

/* Measurement moves the cheapest mark; memory-bound still wins; no prediction, measured. */
static void judge_cheapest_memory_unmeasured(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	struct size_calibration calib[SIZE_NGROUPS];
	struct size_cell cells[] = {
		/* four-1t predicted meets but measured short: loses the mark to three (0.2) */
		cell(I_FOUR_1T, 500, (char *)"", true, 2, 900, 800, 1000),
		/* other (aws-m7i, no factor): measured 1500 min 1200: meets on measurement */
		cell(I_OTHER, 500, (char *)"", true, 3, 1500, 1200, 1600),
		/* tiny-mem: measured well, but 0.334 GiB > 0.25 GiB */
		cell(I_TINY_MEM, 500, (char *)"", true, 3, 5000, 4000, 6000),
	};
	(void)state;
	rows = compute(&in);
	assert_string_equal(rows[I_OTHER].verdict, "unmeasured CPU");
	assert_int_equal(size_judge(&in, rows, NINST, cells, ARRAY_LEN(cells), calib), 0);
	assert_string_equal(rows[I_FOUR_1T].verdict, "short");
	assert_string_equal(rows[I_FOUR_1T].basis, "measured");
	assert_false(rows[I_FOUR_1T].cheapest);
	/* other: no prediction, so no check; the verdict rests on measurement: meets (0.1008) */
	assert_null(cells[1].check);
	assert_string_equal(rows[I_OTHER].verdict, "meets");
	assert_string_equal(rows[I_OTHER].basis, "measured");
	/* tiny-mem: memory-bound, the memory model's word */
	assert_string_equal(rows[I_TINY_MEM].verdict, "memory-bound");
	assert_string_equal(rows[I_TINY_MEM].basis, "predicted");
	/* meets now: other 0.1008, three 0.2, eight 0.53609: other is the cheapest */
	assert_true(rows[I_OTHER].cheapest);
	assert_int_equal(count_cheapest(rows, NINST), 1);
	free(rows);

	/* cells of one row apart from each other are refused */
	{
		struct size_cell apart[] = {cell(I_ONE, 500, (char *)"", true, 1, 1, 1, 1),
					    cell(I_TWO, 500, (char *)"", true, 1, 1, 1, 1),
					    cell(I_ONE, 300, (char *)"", true, 1, 1, 1, 1)};
		rows = compute(&in);
		assert_int_not_equal(size_judge(&in, rows, NINST, apart, ARRAY_LEN(apart), calib),
				     0);
		check_contains(err_msg(), "'one'", "cells apart");
		free(rows);
	}
}

/* The least favourable verdict decides before the lowest median. */
static void judge_worst_verdict_first(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	struct size_calibration calib[SIZE_NGROUPS];
	struct size_cell cells[] = {
		/* median 1100 but min 950: marginal */
		cell(I_EIGHT, 300, (char *)"", true, 3, 1100, 950, 1200),
		/* median 1050, min 1010: meets, with the lower median */
		cell(I_EIGHT, 500, (char *)"", true, 3, 1050, 1010, 1100),
	};
	(void)state;
	rows = compute(&in);
	assert_int_equal(size_judge(&in, rows, NINST, cells, ARRAY_LEN(cells), calib), 0);
	assert_true(cells[0].worst);
	assert_string_equal(rows[I_EIGHT].verdict, "marginal");
	free(rows);
}

/* ------------------------------------------------------------ --sessions */

static void sessions_parse(void **state)
{
	struct size_sessions s;
	(void)state;
	assert_int_equal(size_sessions_parse("500", &s), 0);
	assert_true(s.given);
	assert_false(s.range);
	assert_int_equal(s.n, 1);
	check_close(s.largest, 500, REL, "one count");
	assert_string_equal(s.text, "500");
	assert_true(size_sessions_has(&s, 500));
	assert_false(size_sessions_has(&s, 300));

	/* a list, sorted */
	assert_int_equal(size_sessions_parse("500,300", &s), 0);
	assert_int_equal(s.n, 2);
	check_close(s.counts[0], 300, REL, "sorted");
	check_close(s.largest, 500, REL, "list: largest");
	assert_string_equal(s.text, "300, 500");
	assert_true(size_sessions_has(&s, 300));
	assert_false(size_sessions_has(&s, 400));

	/* a range: every count from 300 to 500 */
	assert_int_equal(size_sessions_parse("300-500", &s), 0);
	assert_true(s.range);
	check_close(s.largest, 500, REL, "range: largest");
	assert_string_equal(s.text, "300-500");
	assert_true(size_sessions_has(&s, 300));
	assert_true(size_sessions_has(&s, 400));
	assert_true(size_sessions_has(&s, 500));
	assert_false(size_sessions_has(&s, 100));
	assert_false(size_sessions_has(&s, 501));

	/* not given: nothing is at the target */
	memset(&s, 0, sizeof(s));
	assert_false(size_sessions_has(&s, 500));

	{
		/* counts are whole, from 1 to 1e9: 1.5 sessions, a 25-digit count are refused */
		static const char *const bad[] = {"",
						  "0",
						  "x",
						  "500-300",
						  "300-300",
						  "300,300",
						  "-5",
						  "1,,2",
						  "300-",
						  "100-200-300",
						  "1,2-3",
						  "5,",
						  "1.5",
						  "100,2.5",
						  "1e3",
						  "1000000001",
						  "1234567890123456789012345"};
		for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
			err_clear();
			if (size_sessions_parse(bad[i], &s) != ERR_USAGE)
				fail_msg("--sessions '%s' accepted", bad[i]);
			check_contains(err_msg(), "--sessions", bad[i]);
		}
	}
}

/*
 * Calibration and leave-one-out. Cells (eligible, at the target):
 *   one    (dedicated) median 300: model 480 * 1 * 1.25 = 600, ratio 0.5;
 *          its bounds 470 * 1.2 = 564 .. 490 * 1.3 = 637
 *   two    (dedicated) median 1080: model 480 * 1.8 * 1.25 = 1080, ratio 1;
 *          bounds 470 * 1.7 * 1.2 = 958.8 .. 490 * 1.9 * 1.3 = 1210.3
 *   shared (shared-core) median 150: model 480 * 0.25 * 1.25 = 150, ratio 1;
 *          bounds 470 * 0.25 * 1.2 = 141 .. 490 * 0.25 * 1.3 = 159.25
 *   three  not eligible (a GOMAXPROCS=1 run, say): median 100, calibrates nothing
 * Dedicated: n 2 of 2 instances, ratios 0.5 and 1: median 0.75, min 0.5, max 1.
 * four-1t (unmeasured, dedicated): predicted 480 * 1.8^2 = 1555.2, bounds
 * 470 * 1.7^2 = 1358.3 .. 490 * 1.9^2 = 1768.9; calibrated low 1358.3 * 0.5
 * = 679.15 < 1000: marginal (it met on the uncalibrated bounds); high
 * 1768.9 * max(1, 1) = 1768.9.
 * Leave-one-out: one's bounds from two's ratio (1): 564..637, 300 below by
 * 300 / 564 - 1; two's from one's (0.5): 958.8 * 0.5 = 479.4 .. 1210.3,
 * 1080 within; shared alone in its group: its own bounds 141..159.25, within.
 */
static void calibration_and_loo(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_calibration calib[SIZE_NGROUPS];
	struct size_row *rows;
	struct size_cell cells[] = {
		cell(I_SHARED, 500, (char *)"", true, 3, 150, 140, 160),
		cell(I_ONE, 500, (char *)"", true, 3, 300, 290, 310),
		cell(I_TWO, 500, (char *)"", true, 3, 1080, 1070, 1090),
		cell(I_THREE, 500, (char *)"", true, 1, 100, 100, 100),
	};
	(void)state;
	cells[3].eligible = false;
	rows = compute(&in);
	assert_string_equal(rows[I_FOUR_1T].verdict, "meets"); /* before calibration */
	assert_int_equal(size_judge(&in, rows, NINST, cells, ARRAY_LEN(cells), calib), 0);
	assert_int_equal(calib[SIZE_DEDICATED].n, 2);
	assert_int_equal(calib[SIZE_DEDICATED].instances, 2);
	check_close(calib[SIZE_DEDICATED].median, 0.75, REL, "dedicated median ratio");
	check_close(calib[SIZE_DEDICATED].min, 0.5, REL, "dedicated min ratio");
	check_close(calib[SIZE_DEDICATED].max, 1.0, REL, "dedicated max ratio");
	assert_int_equal(calib[SIZE_SHARED].n, 1);
	check_close(calib[SIZE_SHARED].median, 1.0, REL, "shared ratio");
	check_close(cells[1].ratio, 0.5, REL, "one: measured / model");
	assert_true(isnan(cells[3].ratio));
	assert_false(cells[3].decides);
	assert_null(cells[3].loo_check);

	assert_true(rows[I_FOUR_1T].calibrated);
	check_close(rows[I_FOUR_1T].calibrated_lo, 1358.3 * 0.5, REL, "four-1t calibrated low");
	check_close(rows[I_FOUR_1T].calibrated_hi, 1768.9, REL, "four-1t calibrated high");
	assert_string_equal(rows[I_FOUR_1T].verdict, "marginal");
	assert_string_equal(rows[I_FOUR_1T].basis, "predicted");
	assert_false(rows[I_FOUR_1T].cheapest);

	assert_string_equal(cells[1].loo_check, "below");
	check_close(cells[1].loo_lo, 564, REL, "one: leave-one-out low");
	check_close(cells[1].loo_hi, 637, REL, "one: leave-one-out high");
	check_close(cells[1].loo_miss, 300.0 / 564 - 1, REL, "one: missed by");
	assert_int_equal(cells[1].loo_n, 1);
	assert_true(rows[I_ONE].loo_miss);
	assert_string_equal(cells[2].loo_check, "within");
	check_close(cells[2].loo_lo, 958.8 * 0.5, REL, "two: leave-one-out low");
	check_close(cells[2].loo_hi, 1210.3, REL, "two: leave-one-out high");
	assert_true(cells[2].loo_miss == 0);
	assert_false(rows[I_TWO].loo_miss);
	assert_string_equal(cells[0].loo_check, "within");
	assert_int_equal(cells[0].loo_n, 0);
	check_close(cells[0].loo_lo, 141, REL, "shared: its own bounds, low");
	check_close(cells[0].loo_hi, 159.25, REL, "shared: its own bounds, high");
	free(rows);

	/* no eligible cell: uncalibrated, the bounds as predicted, the verdict on them */
	cells[0].eligible = cells[1].eligible = cells[2].eligible = false;
	rows = compute(&in);
	assert_int_equal(size_judge(&in, rows, NINST, cells, ARRAY_LEN(cells), calib), 0);
	assert_int_equal(calib[SIZE_DEDICATED].n, 0);
	assert_int_equal(calib[SIZE_SHARED].n, 0);
	assert_false(rows[I_FOUR_1T].calibrated);
	check_close(rows[I_FOUR_1T].calibrated_lo, 1358.3, REL, "uncalibrated low");
	assert_string_equal(rows[I_FOUR_1T].verdict, "meets");
	assert_int_equal(rows[I_ONE].worst, SIZE_MAX); /* an ineligible cell decides nothing */
	assert_string_equal(rows[I_ONE].basis, "predicted");
	free(rows);
}

/* The e2-medium pg medians of the capacity corpus (blocks 1-3), by hand: 287.0, 261.5, 245.2. */
static struct size_sessions_curve pg_curve(void)
{
	struct size_sessions_curve c;
	memset(&c, 0, sizeof(c));
	c.n = 3;
	c.sessions[0] = 100, c.sessions[1] = 300, c.sessions[2] = 500;
	c.median[0] = 287.0, c.median[1] = 261.5, c.median[2] = 245.2;
	c.min[0] = 285.4, c.min[1] = 255.1, c.min[2] = 222.9;
	c.max[0] = 303.6, c.max[1] = 269.1, c.max[2] = 248.0;
	c.ref = 0;
	return c;
}

/*
 * The sessions factor: median(at) / median(ref), bounds min(at) / max(ref)
 * and max(at) / min(ref); between measured counts the lower median; beyond
 * them the nearest end with how far.
 */
static void sessions_factor(void **state)
{
	struct size_sessions_curve c = pg_curve(), up;
	struct size_sessions_at f;
	(void)state;
	size_sessions_factor(&c, 500, &f);
	check_close(f.factor, 245.2 / 287.0, REL, "at 500");
	check_close(f.lo, 222.9 / 303.6, REL, "at 500, low");
	check_close(f.hi, 248.0 / 285.4, REL, "at 500, high");
	assert_true(f.at == 500 && f.beyond == 0);
	size_sessions_factor(&c, 250, &f); /* between 100 (287.0) and 300 (261.5): 300 */
	assert_true(f.at == 300);
	check_close(f.factor, 261.5 / 287.0, REL, "at 250: the lower neighbour");
	size_sessions_factor(&c, 167, &f);
	assert_true(f.at == 300);
	size_sessions_factor(&c, 100, &f);
	assert_true(f.at == 100 && f.factor == 1.0);
	size_sessions_factor(&c, 50, &f); /* below: the smallest, and how far */
	assert_true(f.at == 100);
	check_close(f.beyond, 0.5, REL, "50 of 100");
	size_sessions_factor(&c, 2500, &f); /* the 5x past the measured range */
	assert_true(f.at == 500);
	check_close(f.beyond, 5.0, REL, "2500 of 500");
	check_close(f.factor, 245.2 / 287.0, REL, "at 2500: the largest count's");
	/* rising with sessions (the GOMAXPROCS=8 memory-store runs: 25, 100, 400) */
	memset(&up, 0, sizeof(up));
	up.n = 3;
	up.sessions[0] = 25, up.sessions[1] = 100, up.sessions[2] = 400;
	up.median[0] = up.min[0] = up.max[0] = 1704.9;
	up.median[1] = up.min[1] = up.max[1] = 1796.2;
	up.median[2] = up.min[2] = up.max[2] = 1898.0;
	up.ref = 1;
	size_sessions_factor(&up, 200, &f); /* between 100 and 400: 100's lower median */
	assert_true(f.at == 100 && f.factor == 1.0);
	size_sessions_factor(&up, 50, &f); /* between 25 and 100: 25's */
	check_close(f.factor, 1704.9 / 1796.2, REL, "at 50: the lower neighbour, 25");
	/* no curve: 1, at the count asked */
	memset(&c, 0, sizeof(c));
	size_sessions_factor(&c, 500, &f);
	assert_true(f.factor == 1 && f.lo == 1 && f.hi == 1 && f.at == 500 && f.beyond == 0);
}

/*
 * Fleets, with the pg curve and --sessions 500, target 2000, min == max
 * nowhere (the bounds come from the base, scaling and SMT ranges and the
 * curve's ends). two: core 1080 (958.8 .. 1210.3).
 *   n = 1: 500 each, factor 245.2 / 287 (lo 222.9 / 303.6, hi 248 / 285.4)
 *   n = 2: 250 each -> 300: 261.5 / 287 (lo 255.1 / 303.6, hi 269.1 / 285.4)
 *          central 2 * 1080 * 0.91115 = 1968.1 < 2000; high 2 * 1210.3 *
 *          0.94289 = 2282.3 >= 2000: n_optimistic 2
 *   n = 3: 167 -> 300: central 2952 >= 2000: n_central 3; low 3 * 958.8 *
 *          0.84025 = 2416.9 >= 2000: n 3; cost 3 * 0.13402
 * tiny-mem (0.25 GiB): at n = 1 its 500 sessions need 0.334 GiB: that share
 * is skipped, not counted as a fleet.
 */
static void fleets(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_sessions s;
	struct size_calibration calib[SIZE_NGROUPS];
	struct size_fleet f[3];
	struct size_row *rows;
	size_t n = 3, cheapest;
	(void)state;
	in.target = 2000;
	in.curve = pg_curve();
	assert_int_equal(size_sessions_parse("500", &s), 0);
	in.asked = &s;
	rows = compute(&in);
	assert_int_equal(size_judge(&in, rows, NINST, NULL, 0, calib), 0);
	memset(f, 0, sizeof(f));
	f[0].row = I_TWO;
	f[1].row = I_TINY_MEM;
	f[2].row = I_OTHER;
	assert_int_equal(size_fleets(&in, rows, NINST, calib, f, &n, &cheapest), 0);
	assert_int_equal(f[0].n, 3);
	assert_int_equal(f[0].n_central, 3);
	assert_int_equal(f[0].n_optimistic, 2);
	check_close(f[0].sessions_each, 167, REL, "ceil(500 / 3)");
	assert_true(f[0].sessions_at.at == 300);
	check_close(f[0].capacity, 1080 * 261.5 / 287.0, REL, "two at 167 each");
	check_close(f[0].capacity_lo, 958.8 * 255.1 / 303.6, REL, "two at 167 each, low");
	check_close(f[0].total_lo, 3 * 958.8 * 255.1 / 303.6, REL, "the fleet's low");
	check_close(f[0].cost_per_hour, 3 * 0.13402, REL, "3 x two's price");
	check_close(f[0].memory_each_gib, (50000 + 600 * 167.0) / 1048576, REL, "memory each");
	assert_null(f[0].why);
	/* tiny-mem: two physical cores like two, but 0.25 GiB; the n = 1 share is memory-bound */
	assert_true(f[1].n >= 2);
	assert_true(f[1].memory_each_gib <= 0.25);
	/* other: no prediction (unmeasured CPU) */
	assert_int_equal(f[2].n, 0);
	assert_string_equal(f[2].why, "no prediction (unmeasured CPU)");
	/* the cheapest: tiny-mem's price 0.01 a piece */
	assert_int_equal(cheapest, 1);
	assert_true(f[1].cheapest && !f[0].cheapest && !f[2].cheapest);
	free(rows);
}

/* every test starts with no messages */
#define TEST(f) cmocka_unit_test_setup(f, clear_messages)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(judge_measured),
		TEST(judge_cheapest_memory_unmeasured),
		TEST(judge_worst_verdict_first),
		TEST(sessions_parse),
		TEST(calibration_and_loo),
		TEST(sessions_factor),
		TEST(fleets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
