/*
 * units: what a metric measures (its kind), which way is better, the
 * words a change of it is read in, and units: their families, the kind a
 * unit says, conversion between units and SI / binary prefixes for display.
 *
 * Kinds (schema/README.md, "Metric kinds"; docs/statistics.md):
 *   rate      work per second (interactions/s, ops/s, MB/s): higher is better
 *   time      a duration of work (ns/op, CPU seconds, wall time): lower
 *   latency   a response time (p50, p99, max): lower
 *   memory    bytes held (kB, MiB, B/op): lower
 *   cpu       CPU used (cores, CPU %): lower
 *   count     a number of things (sessions, allocs/op): no natural direction
 *   fraction  a share of a whole (error rate, 0..1 or %): no natural direction
 *   ratio     a dimensionless ratio (speedup, patches per interaction): none
 * plus label (not a quantity) and workers (a count of threads, cores or
 * processes that share the work: a level, never a metric).
 *
 * Change words (units_change_word), for b against a: a rate or any kind
 * without its own words reads `higher` / `lower`; a time or latency
 * `faster` (b lower) / `slower`; memory and CPU `uses more` / `uses less`.
 * `faster` and `slower` are never said of anything but a time.
 */
#ifndef COREPLAN_UNITS_H
#define COREPLAN_UNITS_H

#include <stdbool.h>
#include <stddef.h>

enum field_kind {
	FIELD_KIND_LABEL,    /* not a quantity: text, flag, block, time stamp, repeat number */
	FIELD_KIND_RATE,     /* work per second (interactions/s, qps, Gbps) */
	FIELD_KIND_TIME,     /* a duration of work (time per operation, seconds) */
	FIELD_KIND_FRACTION, /* a share of a whole, 0..1 or % (error rate) */
	FIELD_KIND_MEMORY,   /* kB, MB, bytes */
	FIELD_KIND_COUNT,    /* a number of things (sessions, interactions) */
	FIELD_KIND_CPU,      /* CPU used (cores, CPU seconds, % of a machine) */
	FIELD_KIND_WORKERS,  /* a count of threads, cores or processes that share the work */
	FIELD_KIND_LATENCY,  /* a response time (p50, p99, max latency) */
	FIELD_KIND_RATIO,    /* a dimensionless ratio (speedup, patches per interaction) */
};

/* Which way is better when the field is a metric. */
enum field_direction { FIELD_DIR_NONE, FIELD_DIR_HIGHER, FIELD_DIR_LOWER };

/* "rate", "time", ...; field_kind_parse: 0, or -1 for a word that is no metric kind. */
const char *field_kind_name(enum field_kind kind);
int field_kind_parse(const char *word, enum field_kind *kind);
/* The kinds --metric-kind accepts, "rate, time, latency, ...". */
extern const char field_metric_kinds[];

/* A time or a latency (the kinds whose smaller value is the faster one). */
bool units_kind_is_time(enum field_kind kind);
/* The kind's own direction: rate higher; time, latency, memory, cpu lower; else none. */
enum field_direction units_kind_direction(enum field_kind kind);

/*
 * The word for b against a when b's value is above a's (dir > 0) or below
 * (dir < 0): "higher"/"lower", "faster"/"slower" (a time: b below is
 * faster), "uses more"/"uses less" (memory, cpu); "no change" when dir is 0.
 */
const char *units_change_word(enum field_kind kind, int dir);

/*
 * The change of b against a in words with its interval, for a ratio
 * (b / a, with lo and hi; NaN bounds: none) or, when !ratio, a
 * difference in `unit`:
 *   ratio >= 1   "1.3444x [1.2865, 1.4049] higher", "uses 3.7049x [3.3700, 4.0731] more memory"
 *                (4 decimals below 10x, else 4 significant digits)
 *   ratio < 1    "15.20% [11.00%, 19.00%] lower" (the share b is below a);
 *                when hi > 1, "0.9106x [0.8047, 1.0305]: 8.94% lower"
 *   difference   "+0.002833 [-0.0051, +0.0108] higher" (4 significant digits)
 * Writes at most size bytes (always terminated).
 */
void units_change_phrase(char *buf, size_t size, enum field_kind kind, bool ratio, double value,
			 double lo, double hi, const char *unit);

/*
 * Unit families (case-insensitive):
 *   rate         int/s interactions/s ops/s op/s req/s rps qps tps /s per_s
 *                B/s kB/s KiB/s MB/s MiB/s GB/s GiB/s bps kbps Mbps Gbps,
 *                and any other unit ending in /s (commits/s)
 *   time         ns us µs μs ms s min
 *   memory       B kB KiB MB MiB GB GiB
 *   per_session  a memory unit followed by /session (kB/session, MiB/session)
 */
enum unit_family { UNIT_RATE, UNIT_TIME, UNIT_MEMORY, UNIT_PER_SESSION, UNIT_UNKNOWN };
enum unit_family units_family(const char *unit);
/* A family in words, for messages: "a rate (int/s, qps, MB/s, ...)", "no unit". */
const char *units_family_words(enum unit_family family);
/* The known units in words, for messages. */
extern const char units_known[];

/*
 * The kind a unit says, or FIELD_KIND_LABEL when it says none: a rate, a
 * time, memory from the families above; per-operation units by their
 * numerator (ns/op, sec/op: time; B/op: memory; allocs/op: count); "%" and
 * "fraction": fraction; "cores": cpu; "x": ratio.
 */
enum field_kind units_kind_of_unit(const char *unit);

/*
 * What a value in unit `from` is in unit `to`: the multiplier, or NaN when
 * they do not convert. Times convert among ns, us, µs, ms, s, min; memory
 * among B, kB, KiB (the corpora's kB is a KiB), MiB, GiB (and the same per
 * session); MB, GB and rates only to themselves (any case; int/s and
 * interactions/s are one unit).
 */
double units_scale(const char *from, const char *to);

/*
 * Display prefixes (common/units_display.c), as Go benchstat's benchunit
 * (golang.org/x/perf/benchunit, CommonScale) chooses them: values shown
 * together (a table column) share one prefix, chosen by their nonzero
 * value closest to zero, so that it shows at least four significant
 * digits (1 decimal from 99.995, 2 from 9.9995, 3 from 0.99995, more below
 * the smallest prefix, up to 10). Times step s, ms, µs, ns (SI; ns, us, µs,
 * ms, s, sec heads, also per operation: ns/op); bytes B, KiB, MiB, GiB, TiB
 * (binary; B, kB = KiB as the corpora and /proc count, KiB, MiB, GiB; also
 * B/s, B/op, kB/session); rates (a unit ending in /s) and counts per
 * operation (/op) k, M, G, T (SI, never a fraction of a unit). Other units
 * ("x", "%", "cores", MB) are not scaled.
 *
 * units_prefix_for: the prefix for values whose nonzero |value| closest to
 * zero is min_abs (0: all zero or none) in `unit`; false (p untouched) when
 * the unit is not one of the above. units_prefix_format: value on p ("12.46";
 * a rounded -0 as 0); buf holds 48 bytes. p->unit is the unit to print
 * ("ms", "MiB/session", "k int/s").
 */
struct units_prefix {
	int from, to; /* exponents (of 10, or of 2 when binary) of the unit and the prefix */
	bool binary;
	int prec; /* decimals */
	char unit[40];
};
bool units_prefix_for(double min_abs, const char *unit, struct units_prefix *p);
const char *units_prefix_format(const struct units_prefix *p, double value, char buf[48]);
/* The unit as a table prints it: "interactions/s" is "int/s" (the corpora's word). */
const char *units_shown(const char *unit);
/*
 * The prefix for values around `typical` in `unit` (units_prefix_for):
 * *mult is what a value is multiplied by, out gets the unit to print. A
 * unit it cannot scale, or a typical value of 0 or NaN, keeps the unit with
 * *mult 1.
 */
void units_display(double typical, const char *unit, double *mult, char *out, size_t size);

#endif
