/* units display: display prefixes and digits, benchunit's rules (see units.h). */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One prefix: what one of it is in the base unit, and its name. */
struct prefix {
	int exp; /* a power of 10 (SI) or of 2 (binary) */
	const char *name;
};

/* Largest first, as benchunit walks them. */
static const struct prefix time_prefixes[] = {{0, "s"}, {-3, "ms"}, {-6, "\xc2\xb5s"}, {-9, "ns"}};
static const struct prefix si_prefixes[] = {{12, "T"}, {9, "G"}, {6, "M"}, {3, "k"}, {0, ""}};
static const struct prefix byte_prefixes[] = {
	{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}, {0, "B"}};

enum family { FAMILY_NONE, FAMILY_TIME, FAMILY_BYTES, FAMILY_SI };

/*
 * The unit's family and the exponent of its head in the base unit (s, B,
 * 1): a power of 10, or of 2 for bytes (kB is 2^10: the corpora's kB).
 */
static enum family classify(const char *unit, int *base_exp, size_t *head_len)
{
	static const struct {
		const char *name;
		enum family family;
		int exp;
	} heads[] = {
		{"ns", FAMILY_TIME, -9},        {"us", FAMILY_TIME, -6},
		{"\xc2\xb5s", FAMILY_TIME, -6}, {"\xce\xbcs", FAMILY_TIME, -6},
		{"ms", FAMILY_TIME, -3},        {"s", FAMILY_TIME, 0},
		{"sec", FAMILY_TIME, 0},        {"B", FAMILY_BYTES, 0},
		{"kB", FAMILY_BYTES, 10},       {"KB", FAMILY_BYTES, 10},
		{"KiB", FAMILY_BYTES, 10},      {"MiB", FAMILY_BYTES, 20},
		{"GiB", FAMILY_BYTES, 30},
	};
	const char *slash;
	size_t len, ulen;
	if (!unit || !*unit)
		return FAMILY_NONE;
	ulen = strlen(unit);
	slash = strchr(unit, '/');
	len = slash ? (size_t)(slash - unit) : ulen;
	*head_len = len;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (strlen(heads[i].name) == len && !strncmp(unit, heads[i].name, len)) {
			/* "s/op" is a time per operation; "B/s" a byte rate; both scale */
			*base_exp = heads[i].exp;
			return heads[i].family;
		}
	/* a rate (int/s, requests/s) or a count per operation (allocs/op) */
	if (ulen > 2 && (!strcmp(unit + ulen - 2, "/s") || !strcmp(unit + ulen - 3, "/op"))) {
		*base_exp = 0;
		*head_len = 0;
		return FAMILY_SI;
	}
	return FAMILY_NONE;
}

const char *units_shown(const char *unit)
{
	/* the corpora's own abbreviation (results tables, write-ups) */
	if (unit && !strcmp(unit, "interactions/s"))
		return "int/s";
	return unit;
}

/* benchunit's thresholds: the value that prints as 100.0, 10.00 or 1.000 of a prefix. */
static double threshold(const char *digits, int exp, bool binary)
{
	char text[32];
	if (binary)
		return strtod(digits, NULL) * ldexp(1, exp);
	snprintf(text, sizeof(text), "%se%d", digits, exp);
	return strtod(text, NULL);
}

/* value in a unit of exponent `from` expressed in one of exponent `to`: exact powers */
static double convert(double value, int from, int to, bool binary)
{
	int diff = from - to;
	double step;
	if (binary)
		return ldexp(value, diff);
	step = pow(10, abs(diff)); /* an exact double up to 10^22 */
	return diff >= 0 ? value * step : value / step;
}

bool units_prefix_for(double min_abs, const char *unit, struct units_prefix *s)
{
	int base = 0;
	double v;
	size_t head = 0, n;
	const struct prefix *prefixes;
	const struct prefix *chosen;
	enum family family = classify(unit, &base, &head);
	bool binary = family == FAMILY_BYTES;
	int prec = -1;
	switch (family) {
	case FAMILY_TIME:
		prefixes = time_prefixes;
		n = sizeof(time_prefixes) / sizeof(time_prefixes[0]);
		break;
	case FAMILY_BYTES:
		prefixes = byte_prefixes;
		n = sizeof(byte_prefixes) / sizeof(byte_prefixes[0]);
		break;
	case FAMILY_SI:
		prefixes = si_prefixes;
		n = sizeof(si_prefixes) / sizeof(si_prefixes[0]);
		break;
	default:
		return false;
	}
	v = convert(fabs(min_abs), base, 0, binary);
	chosen = &prefixes[n - 1];
	if (!(v > 0) || !isfinite(v)) {
		/* all zero: benchunit's 3 decimals, no prefix (the base unit) */
		chosen = family == FAMILY_TIME ? &prefixes[0] : &prefixes[n - 1];
		prec = 3;
	}
	for (size_t i = 0; prec < 0 && i < n; i++) {
		if (v >= threshold("99.995", prefixes[i].exp, binary))
			prec = 1;
		else if (v >= threshold("9.9995", prefixes[i].exp, binary))
			prec = 2;
		else if (v >= threshold(".99995", prefixes[i].exp, binary))
			prec = 3;
		if (prec >= 0)
			chosen = &prefixes[i];
	}
	if (prec < 0) {
		/* below the smallest prefix: more decimals, up to 10 (benchunit's sigfigs) */
		double scaled = convert(v, 0, chosen->exp, binary);
		prec = 3;
		for (int exp = -1; exp > -8 && scaled < threshold("9.9995", exp, false); exp--)
			prec++;
	}
	s->from = base;
	s->to = chosen->exp;
	s->binary = binary;
	s->prec = prec;
	if (family == FAMILY_SI)
		snprintf(s->unit, sizeof(s->unit), "%s%s%s", chosen->name, *chosen->name ? " " : "",
			 units_shown(unit));
	else
		snprintf(s->unit, sizeof(s->unit), "%s%s", chosen->name, unit + head);
	return true;
}

const char *units_prefix_format(const struct units_prefix *s, double value, char buf[48])
{
	/* dividing by an exact power, as benchunit does: 999.95e12 / 1e12 is 999.95 */
	snprintf(buf, 48, "%.*f", s->prec, convert(value, s->from, s->to, s->binary));
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

void units_display(double typical, const char *unit, double *mult, char *out, size_t size)
{
	struct units_prefix p;
	*mult = 1;
	if (size)
		snprintf(out, size, "%s", unit ? unit : "");
	if (!isfinite(typical) || typical == 0 || !units_prefix_for(fabs(typical), unit, &p))
		return;
	*mult = convert(1, p.from, p.to, p.binary);
	if (size)
		snprintf(out, size, "%s", p.unit);
}
