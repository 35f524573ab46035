/* num: see num.h. */
#include "num.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool num_is_missing(const char *text)
{
	return text == NULL || strcmp(text, "NA") == 0;
}

/* strtod also accepts hex floats, "nan", "inf" and leading spaces: refuse them. */
static bool plain_decimal(const char *s, size_t len)
{
	size_t i = 0;
	bool digits = false;
	if (len == 0)
		return false;
	if (s[i] == '-' || s[i] == '+')
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		digits = true;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits = true;
	if (!digits)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		bool exp_digits = false;
		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			exp_digits = true;
		if (!exp_digits)
			return false;
	}
	return i == len;
}

int num_parse_int_n(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool negative = false;
	uint64_t value = 0;
	if (len == 0)
		return -1;
	if (s[0] == '-' || s[0] == '+') {
		negative = s[0] == '-';
		i = 1;
		if (len == 1)
			return -1;
	}
	for (; i < len; i++) {
		unsigned digit = (unsigned char)s[i] - '0';
		if (digit > 9)
			return -1;
		/* 19 digits always fit in 64 bits: only a longer number is checked (no division) */
		if (i >= 19 && (__builtin_mul_overflow(value, 10, &value) ||
				__builtin_add_overflow(value, digit, &value)))
			return -1;
		if (i < 19)
			value = value * 10 + digit;
	}
	if (negative) {
		if (value > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = value == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)value;
	} else {
		if (value > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)value;
	}
	return 0;
}

int num_parse_real_n(const char *s, size_t len, double *out)
{
	char small[64];
	char *copy = small;
	char *end = NULL;
	double value;
	int rc = 0;
	if (!plain_decimal(s, len))
		return -1;
	if (len >= sizeof(small)) {
		copy = malloc(len + 1);
		if (!copy)
			return -1;
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	errno = 0;
	value = strtod(copy, &end);
	/* ERANGE on underflow is fine (a tiny number is still a number). */
	if (*end != '\0' || !isfinite(value) || (errno == ERANGE && fabs(value) > 1.0))
		rc = -1;
	if (copy != small)
		free(copy);
	if (rc == 0)
		*out = value == 0.0 ? 0.0 : value; /* -0 is stored as 0 */
	return rc;
}

int num_parse_int(const char *text, int64_t *out)
{
	return text ? num_parse_int_n(text, strlen(text), out) : -1;
}

int num_parse_real(const char *text, double *out)
{
	return text ? num_parse_real_n(text, strlen(text), out) : -1;
}

int num_parse_bool(const char *text, bool *out)
{
	static const char *const truths[] = {"true", "1", "yes"};
	static const char *const falsehoods[] = {"false", "0", "no"};
	if (!text)
		return -1;
	for (size_t i = 0; i < 3; i++) {
		if (strcasecmp(text, truths[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(text, falsehoods[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int num_parse_go_duration(const char *text, double *seconds)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6}, {"ms", 1e-3},
		     {"s", 1.0},   {"m", 60.0},  {"h", 3600.0}};
	const char *p = text;
	double total = 0.0;
	if (!text || !*text)
		return -1;
	if (strcmp(text, "0") == 0) {
		*seconds = 0.0;
		return 0;
	}
	while (*p) {
		const char *start = p;
		double value;
		size_t best = 0;
		double scale = 0.0;
		while ((*p >= '0' && *p <= '9') || *p == '.')
			p++;
		if (p == start || num_parse_real_n(start, (size_t)(p - start), &value) != 0)
			return -1;
		/* longest unit match, so "ms" wins over "m" */
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t n = strlen(units[i].unit);
			if (n > best && strncmp(p, units[i].unit, n) == 0) {
				best = n;
				scale = units[i].scale;
			}
		}
		if (best == 0)
			return -1;
		total += value * scale;
		p += best;
	}
	*seconds = total;
	return 0;
}

/* The digits of v, without a sign, ending at end (exclusive); the first digit. */
static char *digits_back(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* v as printf("%" PRId64) prints it, into buf; its length. */
size_t num_format_int(int64_t v, char buf[32])
{
	char tmp[24], *first;
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0;
	first = digits_back(mag, tmp + sizeof(tmp));
	if (v < 0)
		buf[n++] = '-';
	memcpy(buf + n, first, (size_t)(tmp + sizeof(tmp) - first));
	n += (size_t)(tmp + sizeof(tmp) - first);
	buf[n] = '\0';
	return n;
}

static const double pow10_exact[] = {1,   1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14};

/*
 * The %.15g text of value when that is m / 10^d for the fewest decimals d
 * (1 to 14) with |m| < 10^15, and %.15g writes it without an exponent
 * (1e-4 <= |value| < 1e15); else 0. Why it is %.15g's text: m and 10^d are
 * exact doubles, so m / 10^d is the correctly rounded quotient, as strtod
 * of the decimal is: the two are equal exactly when the decimal reads back
 * as value. Then the decimal, of at most 15 significant digits, is the
 * nearest 15-digit decimal to value (value is within half an ulp of it,
 * far inside the 15-digit spacing), which is what %.15g prints; its last
 * decimal is not 0 (else d - 1 decimals would do), as %g drops zeros.
 */
static size_t format_fixed(double value, char buf[32])
{
	double mag = fabs(value);
	if (!(mag >= 1e-4 && mag < 1e15))
		return 0;
	for (int d = 1; d <= 14; d++) {
		double scaled = mag * pow10_exact[d];
		uint64_t m, unit, whole, frac;
		char tmp[24], *p, *end = tmp + sizeof(tmp);
		size_t n = 0;
		if (scaled >= 1e15)
			return 0;
		m = (uint64_t)llround(scaled);
		if ((double)m / pow10_exact[d] != mag)
			continue;
		unit = (uint64_t)pow10_exact[d];
		whole = m / unit;
		frac = m % unit;
		if (value < 0)
			buf[n++] = '-';
		p = digits_back(whole, end);
		memcpy(buf + n, p, (size_t)(end - p));
		n += (size_t)(end - p);
		buf[n++] = '.';
		for (int i = d - 1; i >= 0; i--) { /* leading zeros of the fraction kept */
			buf[n + (size_t)i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		n += (size_t)d;
		buf[n] = '\0';
		return n;
	}
	return 0;
}

size_t num_format_real_len(double value, char buf[32])
{
	size_t n;
	int len = 0;
	/* whole numbers below 2^53 print exactly as integers: no search needed */
	if (value > -9007199254740992.0 && value < 9007199254740992.0 && value == floor(value) &&
	    !(value == 0 && signbit(value)))
		return num_format_int((int64_t)value, buf);
	/* a short decimal (a rate, a time in ms): exact integer arithmetic, no printf */
	if ((n = format_fixed(value, buf)) != 0)
		return n;
	for (int precision = 15; precision <= 17; precision++) {
		len = snprintf(buf, 32, "%.*g", precision, value);
		if (strtod(buf, NULL) == value)
			break;
	}
	return len > 0 ? (size_t)len : 0;
}

const char *num_format_real(double value, char buf[32])
{
	num_format_real_len(value, buf);
	return buf;
}
