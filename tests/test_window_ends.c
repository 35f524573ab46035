/*
 * Unit tests for the window's ends (analysis/window.c, find_ends): the
 * largest conn and both ends of the loaded plateau in one pass, with
 * candidate lists instead of a known threshold.
 *
 * The reference is the window rule of window.h written out again here the
 * plain way, in two passes over an array: the maximum first, then the
 * first and last rows at or above frac x the maximum, then `trim` rows
 * dropped at each end when the window has more than 2 x trim + 3 rows.
 * Random traces (a ramp up, a wandering plateau with dips and spikes, a
 * ramp down, missing conn values) over many fractions and trims, integer
 * and fractional conn, and traces made to overflow the candidate lists
 * (a long falling run of distinct values inside the threshold band: the
 * second-pass path) must give the same rows, row numbers and seconds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/window.h"
#include "common/err.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expect {
	bool found;
	size_t lo, hi;
	double conn_max;
};

static struct expect reference(const struct trace_row *r, size_t n, double frac, size_t trim)
{
	struct expect e = {false, 0, 0, -INFINITY};
	double threshold;
	for (size_t i = 0; i < n; i++)
		if (!isnan(r[i].conn) && r[i].conn > e.conn_max)
			e.conn_max = r[i].conn;
	threshold = frac * e.conn_max;
	for (size_t i = 0; i < n; i++)
		if (r[i].conn >= threshold) {
			if (!e.found)
				e.lo = i;
			e.found = true;
			e.hi = i;
		}
	if (e.found && e.hi - e.lo + 1 > 2 * trim + 3) {
		e.lo += trim;
		e.hi -= trim;
	}
	return e;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A run's trace: ramp, plateau around `level` with dips and spikes, ramp down. */
static void make_trace(struct trace_row *r, size_t n, double level, bool whole, bool holes)
{
	double epoch = 1000;
	for (size_t i = 0; i < n; i++) {
		double c, at = (double)i / (double)n;
		if (at < 0.15)
			c = level * at / 0.15;
		else if (at > 0.85)
			c = level * (1 - at) / 0.15;
		else
			c = level * (0.9 + 0.2 * uniform()) * (uniform() < 0.03 ? 0.3 : 1) *
			    (uniform() < 0.01 ? 1.6 : 1);
		memset(&r[i], 0, sizeof(r[i]));
		r[i].row_no = (int64_t)(i + 1) * 3; /* row numbers need not be positions */
		epoch += uniform() < 0.1 ? 2 : 1;
		r[i].epoch = epoch;
		r[i].conn = whole ? floor(c) : c;
		if (holes && uniform() < 0.02)
			r[i].conn = NAN;
		r[i].app_rss_kb = 20000 + floor(1000 * uniform());
		r[i].mem_avail_kb = 1e6;
	}
}

static void check(struct trace_row *r, size_t n, double frac, size_t trim, const char *what)
{
	struct trace_series t = {r, n};
	struct window_options o;
	struct window w;
	struct expect e = reference(r, n, frac, trim);
	bool any_nan = false;
	int rc;
	window_options_init(&o);
	o.frac = frac;
	o.trim = trim;
	o.keep_ramp = true; /* the ends as found: leaving the ramp out is tested in test_window */
	for (size_t i = 0; i < n; i++)
		any_nan |= isnan(r[i].conn);
	rc = window_select(&t, &o, &w);
	if (any_nan) { /* the rule needs every row's conn */
		if (rc == 0 || !strstr(err_msg(), "no connection count"))
			fail_msg("%s: a trace with a missing conn gave %d (%s)", what, rc,
				 err_msg());
		err_clear();
		return;
	}
	if (!(e.conn_max > 0)) { /* no connection at all: no plateau */
		if (rc == 0 || !strstr(err_msg(), "never has a connection"))
			fail_msg("%s: a trace without connections gave %d (%s)", what, rc,
				 err_msg());
		err_clear();
		return;
	}
	if (!e.found) {
		if (rc == 0 || !strstr(err_msg(), "no row has conn >="))
			fail_msg("%s: no window expected, got %d (%s)", what, rc, err_msg());
		err_clear();
		return;
	}
	if (rc != 0)
		fail_msg("%s (frac %g, trim %zu): %s", what, frac, trim, err_msg());
	if (w.lo != e.lo || w.hi != e.hi || w.conn_max != e.conn_max ||
	    w.lo_row_no != r[e.lo].row_no || w.hi_row_no != r[e.hi].row_no ||
	    w.rows != e.hi - e.lo + 1 || w.seconds != r[e.hi].epoch - r[e.lo].epoch)
		fail_msg("%s (frac %g, trim %zu, %zu rows): window %zu-%zu (rows %" PRId64
			 "-%" PRId64 ", max %g), expected %zu-%zu (max %g)",
			 what, frac, trim, n, w.lo, w.hi, w.lo_row_no, w.hi_row_no, w.conn_max,
			 e.lo, e.hi, e.conn_max);
}

static void test_ends_random(void **state)
{
	static const double fracs[] = {0.8, 0.5, 1.0, 0.95, 0.1};
	static const size_t trims[] = {1, 0, 2, 7};
	static const size_t lengths[] = {1, 2, 3, 5, 9, 40, 700, 5000};
	struct trace_row *r = malloc(5000 * sizeof(*r));
	(void)state;
	assert_non_null(r);
	for (int round = 0; round < 30; round++)
		for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
			size_t n = lengths[l];
			make_trace(r, n, round % 3 == 0 ? 400 : 37.5 + round, round % 2 == 0,
				   round % 5 == 4);
			for (size_t f = 0; f < sizeof(fracs) / sizeof(fracs[0]); f++)
				for (size_t k = 0; k < sizeof(trims) / sizeof(trims[0]); k++)
					check(r, n, fracs[f], trims[k], "random trace");
		}
	free(r);
}

/* A plateau that falls slowly through 100,000 distinct values: more candidates than kept. */
static void test_ends_overflow(void **state)
{
	size_t n = 120000;
	struct trace_row *r = calloc(n, sizeof(*r));
	(void)state;
	assert_non_null(r);
	for (size_t i = 0; i < n; i++) {
		r[i].row_no = (int64_t)i + 1;
		r[i].epoch = (double)i;
		/* rising through distinct values, then falling: both lists overflow */
		r[i].conn = i < 10000    ? 1000 + (double)i * 1e-3
			    : i < 110000 ? 1010 - (double)(i - 10000) * 1e-4
					 : 5;
		r[i].app_rss_kb = 1000;
	}
	check(r, n, 0.95, 1, "overflowing candidates");
	check(r, n, 0.999, 3, "overflowing candidates");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ends_random),
		cmocka_unit_test(test_ends_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
