/*
 * Unit tests for analysis/memory.c's grouping: which group, block and level
 * each figure comes from and in which order, and a cost budget that fails
 * on a grouping quadratic in runs. The slopes on real data are checked in
 * test_window.c (the capacity corpus's medium runs against system.tsv).
 *
 * Expected values are worked by hand in the comments (OLS sums written
 * out; medians of two or three values).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/memory.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Group B comes first (point 0), A second. In A the first block is b2
 * (point 1) though b1 appears first among all points (point 0, in B):
 * endpoints follow each group's own first appearance of a block.
 */
static struct memory_point interleaved[] = {
	{"t0", "B", "b1", 100, 5, 0},  {"t1", "A", "b2", 100, 10, 0}, {"t2", "A", "b1", 100, 20, 0},
	{"t3", "A", "b2", 300, 50, 0}, {"t4", "A", "b1", 300, 80, 0}, {"t5", "B", "b1", 300, 25, 0},
	{"t6", "A", "b2", 300, 54, 0},
};

static void test_memory_order_by_first_appearance(void **state)
{
	struct memory m;
	(void)state;
	assert_int_equal(memory_compute(interleaved, 7, &m), 0);

	/* fits: B (two points: no OLS with n = 2, a note), then A */
	assert_int_equal(m.nfits, 2);
	assert_string_equal(m.fits[0].group, "B");
	assert_false(m.fits[0].ok);
	assert_int_equal(m.fits[0].nlevels, 2);
	assert_string_equal(m.fits[1].group, "A");
	assert_true(m.fits[1].ok);
	assert_int_equal(m.fits[1].ols.n, 5);
	assert_int_equal(m.fits[1].nlevels, 2);
	/* A: x 100 100 300 300 300, y 10 20 50 80 54; mean x 220, mean y 42.8;
	 * Sxx = 2 * 120^2 + 3 * 80^2 = 48000; Sxy = 120 * 32.8 + 120 * 22.8 +
	 * 80 * (7.2 + 37.2 + 11.2) = 11120; slope 11120 / 48000, intercept
	 * 42.8 - slope * 220 */
	check_close(m.fits[1].ols.slope, 11120.0 / 48000.0, 1e-12, "A slope");
	check_close(m.fits[1].ols.intercept, 42.8 - 11120.0 / 48000.0 * 220, 1e-12, "A intercept");

	/* endpoints: B/b1, then A/b2 (A's first block), then A/b1 */
	assert_int_equal(m.nendpoints, 3);
	assert_string_equal(m.endpoints[0].group, "B");
	assert_string_equal(m.endpoints[0].block, "b1");
	check_close(m.endpoints[0].slope, (25.0 - 5.0) / 200.0, 1e-15, "B/b1 slope");
	assert_string_equal(m.endpoints[1].group, "A");
	assert_string_equal(m.endpoints[1].block, "b2");
	/* b2 at 300: median of 50 and 54 = 52 */
	check_close(m.endpoints[1].value_hi, 52, 1e-15, "A/b2 value at 300");
	check_close(m.endpoints[1].slope, (52.0 - 10.0) / 200.0, 1e-15, "A/b2 slope");
	assert_string_equal(m.endpoints[2].block, "b1");
	check_close(m.endpoints[2].slope, (80.0 - 20.0) / 200.0, 1e-15, "A/b1 slope");
	assert_true(m.endpoints[2].level_lo == 100 && m.endpoints[2].level_hi == 300);

	/* ratios: per group in group order, per level ascending */
	assert_int_equal(m.nratios, 4);
	assert_string_equal(m.ratios[0].group, "B");
	assert_true(m.ratios[0].level == 100 && m.ratios[0].n == 1);
	check_close(m.ratios[1].ratio, 25.0 / 300.0, 1e-15, "B ratio at 300");
	assert_string_equal(m.ratios[2].group, "A");
	/* A at 100: median(10, 20) = 15; at 300: median(50, 80, 54) = 54 */
	assert_true(m.ratios[2].level == 100 && m.ratios[2].n == 2);
	check_close(m.ratios[2].median, 15, 1e-15, "A median at 100");
	assert_true(m.ratios[3].level == 300 && m.ratios[3].n == 3);
	check_close(m.ratios[3].median, 54, 1e-15, "A median at 300");

	/* residuals: A's from its fit, B's NaN (no fit) */
	assert_true(isnan(interleaved[0].residual) && isnan(interleaved[5].residual));
	check_close(interleaved[4].residual,
		  80 - (m.fits[1].ols.intercept + m.fits[1].ols.slope * 300), 1e-12, "t4 residual");
	memory_release(&m);
}

/* A NULL group and NULL blocks are one group and one block (string equality, NULL equal to NULL).
 */
static void test_memory_null_group_and_block(void **state)
{
	struct memory_point p[] = {{"a", NULL, NULL, 1, 10, 0},
				   {"b", NULL, NULL, 2, 12, 0},
				   {"c", NULL, NULL, 3, 14, 0},
				   {"d", NULL, NULL, 3, 16, 0}};
	struct memory m;
	(void)state;
	assert_int_equal(memory_compute(p, 4, &m), 0);
	assert_int_equal(m.nfits, 1);
	assert_null(m.fits[0].group);
	assert_int_equal(m.fits[0].nlevels, 3);
	assert_int_equal(m.nendpoints, 1);
	assert_null(m.endpoints[0].block);
	/* (median(14, 16) - 10) / (3 - 1) = 2.5 */
	check_close(m.endpoints[0].slope, 2.5, 1e-15, "slope");
	memory_release(&m);
}

/*
 * Shape at scale: 200,000 runs in 20,000 blocks of 2 groups. The result
 * is checked, not the time (timings belong in bench/). The former scan of every
 * earlier run per run would take about 200 s here, past the test's ctest
 * timeout; the ordered pass takes well under a second.
 */
static void test_memory_at_scale(void **state)
{
	const size_t n = 200000;
	struct memory_point *p = calloc(n, sizeof(*p));
	char(*blocks)[24] = calloc(n / 10, sizeof(*blocks));
	struct memory m;
	(void)state;
	assert_non_null(p);
	assert_non_null(blocks);
	for (size_t b = 0; b < n / 10; b++)
		snprintf(blocks[b], sizeof(blocks[b]), "b%zu", b);
	for (size_t i = 0; i < n; i++) {
		p[i].tag = "t";
		p[i].group = i % 2 ? "odd" : "even";
		p[i].block = blocks[i / 10];
		p[i].level = (double)(50 * (1 + (i / 2) % 5));
		p[i].value = 1000 + 3 * p[i].level + (double)(i % 7);
	}
	assert_int_equal(memory_compute(p, n, &m), 0);
	assert_int_equal(m.nfits, 2);
	assert_int_equal(m.nendpoints, 2 * (n / 10));
	assert_int_equal(m.nratios, 10);
	memory_release(&m);
	free(p);
	free(blocks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_order_by_first_appearance),
		cmocka_unit_test(test_memory_null_group_and_block),
		cmocka_unit_test(test_memory_at_scale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
