/*
 * Unit tests for analysis/median: the exact median in passes, against
 * stats_median (GSL: sort, then the middle value or the mean of the middle
 * two) to the bit, and against medians worked by hand (in the comments).
 * Every path is taken: values held (one pass), held then counted per whole
 * number, held then radix passes, radix passes only; medians inside and
 * outside the first pass's range; a buffer kept for the next median.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/median.h"
#include "analysis/stats.h"
#include "test_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static double median_in_passes_hold(const double *v, size_t n, size_t hold, size_t *passes)
{
	struct stream_median m;
	double value;
	assert_int_equal(stream_median_init_hold(&m, hold), 0);
	do {
		for (size_t i = 0; i < n; i++)
			stream_median_add(&m, v[i]);
	} while (!stream_median_next(&m));
	value = stream_median_value(&m);
	*passes = m.passes;
	assert_false(m.failed);
	stream_median_release(&m);
	return value;
}

/* Radix passes only (nothing held): the path of a window over STREAM_MEDIAN_HOLD rows. */
static double median_in_passes(const double *v, size_t n, size_t *passes)
{
	return median_in_passes_hold(v, n, 0, passes);
}

/*
 * By hand: {3, 1, 2} -> 2; {4, 1, 3, 2} -> (2 + 3) / 2 = 2.5; {7} -> 7;
 * {5, 5, 5, 5} -> 5; {-2, 10, -7, 3} -> (-2 + 3) / 2 = 0.5; {1e300, -1e-300}
 * -> (-1e-300 + 1e300) / 2 = 5e299; {0, 0, 9, 9} -> 4.5 (the middle pair
 * straddles two values); {2, 2, 2, 100} -> 2 (the pair is one value). Then
 * random sets against stats_median (GSL: sort, then the middle or the mean
 * of the middle two) to the bit: integers with many repeats (2 passes at
 * most), doubles over many magnitudes and both signs (5 at most), odd and
 * even counts.
 */
static void test_stream_median(void **state)
{
	static const struct {
		double v[4];
		size_t n;
		double median;
	} hand[] = {{{3, 1, 2}, 3, 2},      {{4, 1, 3, 2}, 4, 2.5},    {{7}, 1, 7},
		    {{5, 5, 5, 5}, 4, 5},   {{-2, 10, -7, 3}, 4, 0.5}, {{1e300, -1e-300}, 2, 5e299},
		    {{0, 0, 9, 9}, 4, 4.5}, {{2, 2, 2, 100}, 4, 2}};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t passes, most_int = 0, most_real = 0;
	double *v = malloc(20001 * sizeof(*v));
	struct stream_median m;
	(void)state;
	assert_non_null(rng);
	assert_non_null(v);
	for (size_t i = 0; i < ARRAY_LEN(hand); i++) {
		check_same_bits(median_in_passes(hand[i].v, hand[i].n, &passes), hand[i].median,
				"hand-worked median");
		check_same_bits(median_in_passes_hold(hand[i].v, hand[i].n, 2, &passes),
				hand[i].median, "hand-worked median, 2 held");
		check_same_bits(median_in_passes_hold(hand[i].v, hand[i].n, 4, &passes),
				hand[i].median, "hand-worked median, held");
	}
	/*
	 * The radix's first pass spans the held values' range: medians below it
	 * (descending values), above it (ascending), and a middle pair across
	 * its ends ({1, 2, 3, 4} with 1, 2 held: 2.5; {5, 6, 1, 2} with 5, 6
	 * held: (2 + 5) / 2 = 3.5), against stats_median, holding 1 to 7 values.
	 */
	{
		static const double across[2][4] = {{1, 2, 3, 4}, {5, 6, 1, 2}};
		double seq[1001], want;
		check_same_bits(median_in_passes_hold(across[0], 4, 2, &passes), 2.5, "{1,2,3,4}");
		check_same_bits(median_in_passes_hold(across[1], 4, 2, &passes), 3.5, "{5,6,1,2}");
		for (size_t shape = 0; shape < 3; shape++)
			for (size_t n = 1000; n <= 1001; n++) {
				for (size_t i = 0; i < n; i++)
					seq[i] = shape == 0   ? (double)i
						 : shape == 1 ? (double)(n - i) * 0.37
							      : (i < n / 3 ? -1e6 : 1.5) * (double)i;
				assert_int_equal(stats_median(seq, n, &want), 0);
				for (size_t hold = 1; hold <= 7; hold++)
					check_same_bits(median_in_passes_hold(seq, n, hold, &passes),
							want, "median outside the held range");
			}
	}
	/*
	 * Whole held values: the rest of the first pass counted per whole number.
	 * A fraction inside the range (the radix passes take over), medians far
	 * below and above the counted range, held values 2^21 apart (no counts),
	 * negative whole numbers, and an even count whose middle pair straddles
	 * the range's top, against stats_median.
	 */
	{
		double seq[3000], want;
		for (size_t shape = 0; shape < 6; shape++)
			for (size_t n = 2998; n <= 2999; n++) {
				for (size_t i = 0; i < n; i++) {
					double k = (double)i;
					seq[i] = shape == 0   ? (i == 2000 ? 40.5 : fmod(k * 7, 90))
						 : shape == 1 ? (i < 50 ? 1e6 + k : fmod(k, 13))
						 : shape == 2 ? (i < 50 ? fmod(k, 13) : 1e6 + k)
						 : shape == 3 ? (i % 2 ? 3e6 : 0) + fmod(k, 5)
						 : shape == 4 ? -fmod(k * 31, 1000) - 5
							      : (i < 50 ? fmod(k, 4) : 4 + k);
				}
				assert_int_equal(stats_median(seq, n, &want), 0);
				for (size_t hold = 10; hold <= 60; hold += 25)
					check_same_bits(median_in_passes_hold(seq, n, hold, &passes),
							want, "median of whole numbers");
			}
	}
	/* -0 counts as 0 held or not: median(-0, -0, 1) is +0 */
	{
		const double z[3] = {-0.0, -0.0, 1};
		check_same_bits(median_in_passes_hold(z, 3, 4, &passes), 0.0, "-0 held");
		check_same_bits(median_in_passes(z, 3, &passes), 0.0, "-0 radix");
	}
	for (int round = 0; round < 40; round++) {
		size_t n = 1 + gsl_rng_uniform_int(rng, 20001);
		double want;
		bool integers = round % 2 == 0;
		for (size_t i = 0; i < n; i++)
			v[i] = integers
				       ? (double)gsl_rng_uniform_int(rng, 401) + 20000
				       : (gsl_rng_uniform(rng) - 0.3) *
						 pow(10, (double)gsl_rng_uniform_int(rng, 40) - 20);
		assert_int_equal(stats_median(v, n, &want), 0);
		/* held (one pass), held then radix (past 100 values), radix only */
		check_same_bits(median_in_passes_hold(v, n, STREAM_MEDIAN_HOLD, &passes), want,
				"random median, held");
		assert_int_equal(passes, 1);
		check_same_bits(median_in_passes_hold(v, n, 100, &passes), want,
				"random median, held then radix");
		check_same_bits(median_in_passes(v, n, &passes), want, "random median");
		if (integers)
			most_int = passes > most_int ? passes : most_int;
		else
			most_real = passes > most_real ? passes : most_real;
	}
	assert_true(most_int <= 2);
	assert_true(most_real <= 5);
	/* no values: no median */
	assert_int_equal(stream_median_init(&m), 0);
	assert_true(stream_median_next(&m));
	assert_true(isnan(stream_median_value(&m)));
	stream_median_release(&m);
	/* a buffer released is the next median's: the second one starts with its capacity */
	{
		size_t cap;
		assert_int_equal(stream_median_init(&m), 0);
		for (size_t i = 0; i < 5000; i++)
			stream_median_add(&m, (double)i);
		assert_true(stream_median_next(&m));
		check_same_bits(stream_median_value(&m), 2499.5, "0..4999");
		cap = m.held_cap;
		assert_true(cap >= 5000);
		stream_median_release(&m);
		assert_int_equal(stream_median_init(&m), 0);
		assert_int_equal(m.held_cap, cap);
		stream_median_release(&m);
	}
	free(v);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
