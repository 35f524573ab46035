/* units: see units.h. */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- kinds ---- */

static const char *const kind_names[] = {
	[FIELD_KIND_LABEL] = "label",     [FIELD_KIND_RATE] = "rate",
	[FIELD_KIND_TIME] = "time",       [FIELD_KIND_FRACTION] = "fraction",
	[FIELD_KIND_MEMORY] = "memory",   [FIELD_KIND_COUNT] = "count",
	[FIELD_KIND_CPU] = "cpu",         [FIELD_KIND_WORKERS] = "workers",
	[FIELD_KIND_LATENCY] = "latency", [FIELD_KIND_RATIO] = "ratio",
};

const char field_metric_kinds[] = "rate, time, latency, memory, cpu, count, fraction, ratio";

const char *field_kind_name(enum field_kind kind)
{
	return (size_t)kind < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[kind] : "?";
}

/* Only the kinds a metric can have: a label or a worker count is not measured. */
int field_kind_parse(const char *word, enum field_kind *kind)
{
	static const enum field_kind metric[] = {
		FIELD_KIND_RATE, FIELD_KIND_TIME,  FIELD_KIND_LATENCY,  FIELD_KIND_MEMORY,
		FIELD_KIND_CPU,  FIELD_KIND_COUNT, FIELD_KIND_FRACTION, FIELD_KIND_RATIO};
	for (size_t i = 0; i < sizeof(metric) / sizeof(metric[0]); i++)
		if (!strcmp(word, kind_names[metric[i]])) {
			*kind = metric[i];
			return 0;
		}
	return -1;
}

bool units_kind_is_time(enum field_kind kind)
{
	return kind == FIELD_KIND_TIME || kind == FIELD_KIND_LATENCY;
}

enum field_direction units_kind_direction(enum field_kind kind)
{
	switch (kind) {
	case FIELD_KIND_RATE:
		return FIELD_DIR_HIGHER;
	case FIELD_KIND_TIME:
	case FIELD_KIND_LATENCY:
	case FIELD_KIND_MEMORY:
	case FIELD_KIND_CPU:
		return FIELD_DIR_LOWER;
	default:
		return FIELD_DIR_NONE;
	}
}

const char *units_change_word(enum field_kind kind, int dir)
{
	if (dir == 0)
		return "no change";
	if (units_kind_is_time(kind))
		return dir > 0 ? "slower" : "faster";
	if (kind == FIELD_KIND_MEMORY || kind == FIELD_KIND_CPU)
		return dir > 0 ? "uses more" : "uses less";
	return dir > 0 ? "higher" : "lower";
}

/* "uses more" -> "more": the part after "uses " (the phrase puts the number between). */
static const char *after_uses(const char *word)
{
	return !strncmp(word, "uses ", 5) ? word + 5 : word;
}

/* "uses 3.7x more memory": the noun after more / less. */
static const char *noun(enum field_kind kind, bool uses)
{
	if (!uses)
		return "";
	return kind == FIELD_KIND_MEMORY ? " memory" : kind == FIELD_KIND_CPU ? " CPU" : "";
}

static void ratio_text(char *buf, size_t size, double r)
{
	if (r < 10)
		snprintf(buf, size, "%.4f", r);
	else
		snprintf(buf, size, "%.4g", r);
}

void units_change_phrase(char *buf, size_t size, enum field_kind kind, bool ratio, double value,
			 double lo, double hi, const char *unit)
{
	int dir;
	const char *word;
	bool uses;
	char interval[96] = "";
	if (!size)
		return;
	dir = ratio ? (value > 1) - (value < 1) : (value > 0) - (value < 0);
	word = units_change_word(kind, dir);
	uses = !strncmp(word, "uses ", 5);
	if (!isfinite(value)) {
		snprintf(buf, size, "no estimate");
		return;
	}
	if (ratio && value >= 1) {
		/* 4 decimals below 10x (the tables' precision), 4 significant digits above */
		char v[32], l[32], h[32];
		ratio_text(v, sizeof(v), value);
		if (isfinite(lo) && isfinite(hi)) {
			ratio_text(l, sizeof(l), lo);
			ratio_text(h, sizeof(h), hi);
			snprintf(interval, sizeof(interval), " [%s, %s]", l, h);
		}
		snprintf(buf, size, "%s%sx%s %s%s", uses ? "uses " : "", v, interval,
			 after_uses(word), noun(kind, uses));
	} else if (ratio && isfinite(hi) && hi > 1) {
		/* below 1, the interval reaching above it: the ratio, then the share */
		char v[32], l[32], h[32];
		ratio_text(v, sizeof(v), value);
		ratio_text(l, sizeof(l), lo);
		ratio_text(h, sizeof(h), hi);
		snprintf(buf, size, "%sx [%s, %s]: %s%.2f%% %s%s", v, l, h, uses ? "uses " : "",
			 (1 - value) * 100, after_uses(word), noun(kind, uses));
	} else if (ratio) {
		/* the share b is below a; the interval's ends swap (1 - hi is the smaller) */
		if (isfinite(lo) && isfinite(hi))
			snprintf(interval, sizeof(interval), " [%.2f%%, %.2f%%]", (1 - hi) * 100,
				 (1 - lo) * 100);
		snprintf(buf, size, "%s%.2f%%%s %s%s", uses ? "uses " : "", (1 - value) * 100,
			 interval, after_uses(word), noun(kind, uses));
	} else {
		if (isfinite(lo) && isfinite(hi))
			snprintf(interval, sizeof(interval), " [%+.4g, %+.4g]", lo, hi);
		snprintf(buf, size, "%s%+.4g%s%s%s %s%s", uses ? "uses " : "", value, interval,
			 unit && *unit ? " " : "", unit ? unit : "", after_uses(word),
			 noun(kind, uses));
	}
}

/* ---- unit families ---- */

static const char *const rate_units[] = {"int/s", "interactions/s",
					 "ops/s", "op/s",
					 "req/s", "rps",
					 "qps",   "tps",
					 "/s",    "per_s",
					 "B/s",   "kB/s",
					 "KiB/s", "MB/s",
					 "MiB/s", "GB/s",
					 "GiB/s", "bps",
					 "kbps",  "Mbps",
					 "Gbps",  NULL};
static const char *const time_units[] = {"ns", "us", "\xc2\xb5s", "\xce\xbcs",
					 "ms", "s",  "min",       NULL};
static const char *const memory_units[] = {"B", "kB", "KiB", "MB", "MiB", "GB", "GiB", NULL};

const char units_known[] =
	"rates int/s, interactions/s, ops/s, op/s, req/s, rps, qps, tps, /s, per_s, B/s, kB/s, "
	"KiB/s, MB/s, MiB/s, GB/s, GiB/s, bps, kbps, Mbps, Gbps or any unit ending in /s; "
	"times ns, us, \xc2\xb5s, ms, s, min; memory sizes B, kB, KiB, MB, MiB, GB, GiB; "
	"memory per session kB/session, MiB/session, ... (a memory size + /session)";

static bool in_list(const char *const *list, const char *unit, size_t len)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == len && !strncasecmp(unit, list[i], len))
			return true;
	return false;
}

enum unit_family units_family(const char *unit)
{
	size_t len = unit ? strlen(unit) : 0;
	static const char per_session[] = "/session";
	size_t ps = sizeof(per_session) - 1;
	if (len == 0)
		return UNIT_UNKNOWN;
	if (in_list(rate_units, unit, len))
		return UNIT_RATE;
	if (in_list(time_units, unit, len))
		return UNIT_TIME;
	if (in_list(memory_units, unit, len))
		return UNIT_MEMORY;
	if (len > ps && !strcasecmp(unit + len - ps, per_session) &&
	    in_list(memory_units, unit, len - ps))
		return UNIT_PER_SESSION;
	if (len > 2 && !strcmp(unit + len - 2, "/s") && unit[len - 3] != '/')
		return UNIT_RATE;
	return UNIT_UNKNOWN;
}

const char *units_family_words(enum unit_family family)
{
	static const char *const words[] = {
		[UNIT_RATE] = "a rate (int/s, qps, MB/s, ...)",
		[UNIT_TIME] = "a time (ns, us, ms, s, ...)",
		[UNIT_MEMORY] = "a memory size (kB, MiB, ...)",
		[UNIT_PER_SESSION] = "a memory per session (kB/session, ...)",
		[UNIT_UNKNOWN] = "no unit",
	};
	return (unsigned)family <= UNIT_UNKNOWN ? words[family] : words[UNIT_UNKNOWN];
}

enum field_kind units_kind_of_unit(const char *unit)
{
	size_t len = unit ? strlen(unit) : 0;
	static const char per_op[] = "/op";
	size_t po = sizeof(per_op) - 1;
	switch (units_family(unit)) {
	case UNIT_RATE:
		return FIELD_KIND_RATE;
	case UNIT_TIME:
		return FIELD_KIND_TIME;
	case UNIT_MEMORY:
	case UNIT_PER_SESSION:
		return FIELD_KIND_MEMORY;
	case UNIT_UNKNOWN:
		break;
	}
	if (len > po && !strcasecmp(unit + len - po, per_op)) {
		if (in_list(time_units, unit, len - po) ||
		    (len - po == 3 && !strncmp(unit, "sec", 3)))
			return FIELD_KIND_TIME;
		if (in_list(memory_units, unit, len - po))
			return FIELD_KIND_MEMORY;
		return FIELD_KIND_COUNT; /* allocs/op, instructions/op */
	}
	if (len && (!strcmp(unit, "%") || !strcasecmp(unit, "fraction")))
		return FIELD_KIND_FRACTION;
	if (len && !strcasecmp(unit, "cores"))
		return FIELD_KIND_CPU;
	if (len && !strcmp(unit, "x"))
		return FIELD_KIND_RATIO;
	return FIELD_KIND_LABEL;
}

/* ---- conversion ---- */

static double time_seconds(const char *unit)
{
	static const char *const names[] = {"ns", "us", "\xc2\xb5s", "\xce\xbcs", "ms", "s", "min"};
	static const double seconds[] = {1e-9, 1e-6, 1e-6, 1e-6, 1e-3, 1, 60};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(unit, names[i]))
			return seconds[i];
	return NAN;
}

/* kB in one unit (binary multiples only; MB and GB are ambiguous: NaN). */
static double memory_kb(const char *unit, size_t len)
{
	static const char *const names[] = {"B", "kB", "KiB", "MiB", "GiB"};
	static const double kb[] = {1.0 / 1024, 1, 1, 1024, 1024.0 * 1024};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !strncasecmp(unit, names[i], len))
			return kb[i];
	return NAN;
}

static bool is_interactions(const char *unit)
{
	return !strcasecmp(unit, "int/s") || !strcasecmp(unit, "interactions/s");
}

double units_scale(const char *from, const char *to)
{
	enum unit_family a = units_family(from), b = units_family(to);
	size_t lf, lt, ps = strlen("/session");
	if (a != b || a == UNIT_UNKNOWN)
		return NAN;
	lf = strlen(from);
	lt = strlen(to);
	if (!strcasecmp(from, to) ||
	    (a == UNIT_RATE && is_interactions(from) && is_interactions(to)))
		return 1;
	switch (a) {
	case UNIT_TIME:
		return time_seconds(from) / time_seconds(to);
	case UNIT_MEMORY:
		return memory_kb(from, lf) / memory_kb(to, lt);
	case UNIT_PER_SESSION:
		return memory_kb(from, lf - ps) / memory_kb(to, lt - ps);
	case UNIT_RATE:
	case UNIT_UNKNOWN:
		break;
	}
	return NAN;
}
