/* Unit tests for common/num: what counts as a number in a corpus. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/num.h"
#include "test_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_missing(void **state)
{
	(void)state;
	assert_true(num_is_missing("NA"));
	assert_true(num_is_missing(NULL));
	assert_false(num_is_missing("na"));
	assert_false(num_is_missing("NaN"));
	assert_false(num_is_missing(""));
	assert_false(num_is_missing("0"));
}

static void test_int_accepts(void **state)
{
	int64_t v = 1;
	(void)state;
	assert_int_equal(num_parse_int("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(num_parse_int("-0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(num_parse_int("27680", &v), 0);
	assert_int_equal(v, 27680);
	assert_int_equal(num_parse_int("-1", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(num_parse_int("9223372036854775807", &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(num_parse_int("-9223372036854775808", &v), 0);
	assert_true(v == INT64_MIN);
}

static void test_int_refuses(void **state)
{
	static const char *const bad[] = {
		"",
		" 12",
		"12 ",
		"12abc",
		"abc",
		"12.0",
		"1e3",
		"0x10",
		"nan",
		"inf",
		"NA",
		"-",
		"+",
		"1 2",
		"\xd9\xa1\xd9\xa2",
		"--1",
		"9223372036854775808",  /* INT64_MAX + 1 */
		"-9223372036854775809", /* INT64_MIN - 1 */
		"18446744073709551616", /* 2^64 */
		"18446744073709551615", /* 2^64 - 1: fits 64 unsigned bits, not int64 */
		"99999999999999999999", /* 20 digits: 10^20 - 1 overflows 64 bits */
		"184467440737095516160", /* 2^64 * 10: 21 digits */
		"99999999999999999999999",
	};
	int64_t v = 42;
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (num_parse_int(bad[i], &v) != -1)
			fail_msg("num_parse_int accepted '%s'", bad[i]);
	}
	assert_int_equal(v, 42); /* untouched on failure */
	assert_int_equal(num_parse_int(NULL, &v), -1);
	/* leading zeros past 19 digits: the value, not the length, must fit */
	assert_int_equal(num_parse_int("0000000000000000000000042", &v), 0);
	assert_true(v == 42);
	assert_int_equal(num_parse_int("-00000000000000000009223372036854775808", &v), 0);
	assert_true(v == INT64_MIN);
}

static void test_int_n(void **state)
{
	const char *line = "1786868355\t27680\t32156956";
	int64_t v = 0;
	(void)state;
	/* not NUL-terminated: only the first len bytes count */
	assert_int_equal(num_parse_int_n(line, 10, &v), 0);
	assert_true(v == INT64_C(1786868355));
	assert_int_equal(num_parse_int_n(line + 11, 5, &v), 0);
	assert_int_equal(v, 27680);
	assert_int_equal(num_parse_int_n(line, 11, &v), -1); /* includes the TAB */
	assert_int_equal(num_parse_int_n(line, 0, &v), -1);
	assert_int_equal(num_parse_int_n("12\0"
					 "3",
					 4, &v),
			 -1); /* embedded NUL */
}

static void test_real_accepts(void **state)
{
	double d = 1.0;
	(void)state;
	assert_int_equal(num_parse_real("475.2284019761499", &d), 0);
	assert_true(d == 475.2284019761499);
	/* Go prints whole floats without a point: integer text is a real */
	assert_int_equal(num_parse_real("2759", &d), 0);
	assert_true(d == 2759.0);
	assert_int_equal(num_parse_real("1.5e3", &d), 0);
	assert_true(d == 1500.0);
	assert_int_equal(num_parse_real("-2.5", &d), 0);
	assert_true(d == -2.5);
	assert_int_equal(num_parse_real("1786851073.330280369", &d), 0);
	assert_true(d == 1786851073.330280369);
	assert_int_equal(num_parse_real(".5", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(num_parse_real("1.7976931348623157e308", &d), 0);
	assert_true(isfinite(d));
}

static void test_real_negative_zero(void **state)
{
	double d = 1.0;
	(void)state;
	assert_int_equal(num_parse_real("-0", &d), 0);
	assert_true(d == 0.0);
	assert_false(signbit(d)); /* "-0" is zero, not negative zero */
	assert_int_equal(num_parse_real("-0.0", &d), 0);
	assert_false(signbit(d));
}

static void test_real_refuses(void **state)
{
	static const char *const bad[] = {
		"1e999",    "-1e999", "1e309", "nan",   "NaN", "-nan",  "inf", "-inf",
		"Infinity", "0x10",   "0x1p3", " 12",   "12 ", "12abc", "",    ".",
		"e5",       "1e",     "1e+",   "1.2.3", "NA",  "+-1",   "1,5",
	};
	double d = 42.0;
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (num_parse_real(bad[i], &d) != -1)
			fail_msg("num_parse_real accepted '%s'", bad[i]);
	}
	assert_true(d == 42.0);
	assert_int_equal(num_parse_real(NULL, &d), -1);
}

static void test_real_n(void **state)
{
	const char *line = "0.911\t12.3";
	char longer[200];
	double d = 0;
	(void)state;
	assert_int_equal(num_parse_real_n(line, 5, &d), 0);
	assert_true(d == 0.911);
	assert_int_equal(num_parse_real_n(line + 6, 4, &d), 0);
	assert_true(d == 12.3);
	assert_int_equal(num_parse_real_n(line, 6, &d), -1);
	/* longer than any internal small buffer */
	memset(longer, '0', sizeof(longer));
	longer[sizeof(longer) - 2] = '7';
	assert_int_equal(num_parse_real_n(longer, sizeof(longer) - 1, &d), 0);
	assert_true(d == 7.0);
}

static void test_bool(void **state)
{
	static const struct {
		const char *text;
		bool value;
	} ok[] = {{"true", true}, {"FALSE", false}, {"1", true},
		  {"0", false},   {"Yes", true},    {"no", false}};
	bool b;
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
		b = !ok[i].value;
		assert_int_equal(num_parse_bool(ok[i].text, &b), 0);
		assert_int_equal(b, ok[i].value);
	}
	assert_int_equal(num_parse_bool("?", &b), -1);
	assert_int_equal(num_parse_bool("truee", &b), -1);
	assert_int_equal(num_parse_bool("", &b), -1);
	assert_int_equal(num_parse_bool(NULL, &b), -1);
}

static void test_go_duration(void **state)
{
	static const struct {
		const char *text;
		double seconds;
	} good[] = {
		{"45s", 45.0},     {"1m0s", 60.0}, {"1m30s", 90.0},      {"250ms", 0.25},
		{"0s", 0.0},       {"0", 0.0},     {"1h2m3.5s", 3723.5}, {"1.5s", 1.5},
		{"500us", 0.0005}, {"2h", 7200.0},
	};
	static const char *const bad[] = {"", "45", "s", "1x", "1m30", "m30s", "1.2.3s", " 45s"};
	double s = -1;
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (num_parse_go_duration(good[i].text, &s) != 0)
			fail_msg("refused '%s'", good[i].text);
		if (fabs(s - good[i].seconds) > 1e-12)
			fail_msg("'%s' gave %g, expected %g", good[i].text, s, good[i].seconds);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (num_parse_go_duration(bad[i], &s) != -1)
			fail_msg("accepted '%s'", bad[i]);
	assert_int_equal(num_parse_go_duration(NULL, &s), -1);
}

/* The shortest text that reads back as the same double; whole numbers below 2^53 as integers. */
static void test_format_real(void **state)
{
	char buf[32];
	(void)state;
	assert_string_equal(num_format_real(475.2284019761499, buf), "475.2284019761499");
	assert_string_equal(num_format_real(0.1 + 0.2, buf), "0.30000000000000004");
	assert_string_equal(num_format_real(100, buf), "100");
	assert_string_equal(num_format_real(-2, buf), "-2");
	assert_string_equal(num_format_real(1e15, buf), "1000000000000000");
	assert_string_equal(num_format_real(9007199254740991.0, buf), "9007199254740991");
	assert_string_equal(num_format_real(9007199254740992.0, buf), "9007199254740992");
	assert_string_equal(num_format_real(1e21, buf), "1e+21");
	assert_string_equal(num_format_real(-0.0, buf), "-0");
	assert_string_equal(num_format_real(2.5, buf), "2.5");
}

/* The search num_format_real made before its integer paths: %.15g, %.16g, %.17g, first exact. */
static const char *reference_format(double value, char buf[32])
{
	if (value > -9007199254740992.0 && value < 9007199254740992.0 && value == floor(value) &&
	    !(value == 0 && signbit(value))) {
		snprintf(buf, 32, "%" PRId64, (int64_t)value);
		return buf;
	}
	for (int precision = 15; precision <= 17; precision++) {
		snprintf(buf, 32, "%.*g", precision, value);
		if (strtod(buf, NULL) == value)
			break;
	}
	return buf;
}

/*
 * The integer-arithmetic paths give printf's text exactly: against the
 * printf search above on a million values of the shapes traces and tables
 * hold (k / 10^d for d 1-6 over many magnitudes, ratios of counters,
 * random doubles of every exponent, both signs, the edges of the fixed
 * notation 1e-4 and 1e15, integers up to 2^63).
 */
static void test_format_real_is_printf(void **state)
{
	uint64_t x = 88172645463325252u;
	char a[32], b[32];
	(void)state;
	for (int i = 0; i < 1000000; i++) {
		double v;
		int shape = i % 6;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (shape == 0)
			v = (double)(int64_t)(x % 2000000001u - 1000000000) /
			    pow(10, (double)(x >> 40) / (double)(1u << 24) * 6 + 1);
		else if (shape == 1)
			v = (double)(x % 100000) / (double)(1 + (x >> 20) % 997);
		else if (shape == 2) {
			memcpy(&v, &x, sizeof(v));
			if (!isfinite(v))
				continue;
		} else if (shape == 3)
			v = (double)(x % 1000000) / 100.0 * ((x >> 30) & 1 ? -1 : 1);
		else if (shape == 4)
			v = (1e-4 + (double)(x % 1000) * 1e-7) * ((x >> 33) % 3 == 0 ? 1e19 : 1);
		else
			v = (double)(int64_t)x;
		if (strcmp(num_format_real(v, a), reference_format(v, b)) != 0)
			fail_msg("%.17g: '%s', printf '%s'", v, a, b);
	}
	for (double v = 9.9999e-5; v < 1.0001e-4; v += 1e-10)
		if (strcmp(num_format_real(v, a), reference_format(v, b)) != 0)
			fail_msg("%.17g: '%s', printf '%s'", v, a, b);
	{
		static const double edges[] = {1e-4, -1e-4, 999999999999999.9, 99999999999999.98,
					       0.1, 0.5, 123456789012345.6, 1.5e-4, 0.00015,
					       INT64_MIN, -9007199254740991.0};
		for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
			if (strcmp(num_format_real(edges[i], a), reference_format(edges[i], b)) != 0)
				fail_msg("%.17g: '%s', printf '%s'", edges[i], a, b);
	}
	assert_int_equal(num_format_int(INT64_MIN, a), 20);
	assert_string_equal(a, "-9223372036854775808");
	assert_int_equal(num_format_int(0, a), 1);
	assert_string_equal(a, "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_real),
		cmocka_unit_test(test_format_real_is_printf),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_int_accepts),
		cmocka_unit_test(test_int_refuses),
		cmocka_unit_test(test_int_n),
		cmocka_unit_test(test_real_accepts),
		cmocka_unit_test(test_real_negative_zero),
		cmocka_unit_test(test_real_refuses),
		cmocka_unit_test(test_real_n),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_go_duration),
	};
	return cmocka_run_group_tests_name("num", tests, NULL, NULL);
}
