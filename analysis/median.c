/* median: see median.h. */
#include "median.h"


#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MEDIAN_BUCKETS ((size_t)1 << 16)
/* whole numbers counted one by one: at most this many, below this magnitude */
#define WHOLE_SPAN ((size_t)1 << 20)
#define WHOLE_LIMIT 4503599627370496.0 /* 2^52 */
#define KEY_SIGN UINT64_C(0x8000000000000000)

/* Keys in the doubles' order: negative values bit-flipped, positive ones with the sign set. */
static uint64_t order_key(double v)
{
	uint64_t bits;
	if (v == 0)
		v = 0.0; /* -0 sorts as 0, as gsl_sort's comparisons have it */
	memcpy(&bits, &v, sizeof(bits));
	return bits & KEY_SIGN ? ~bits : bits | KEY_SIGN;
}

static double key_value(uint64_t key)
{
	uint64_t bits = key & KEY_SIGN ? key & ~KEY_SIGN : ~key;
	double v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

/*
 * The first pass holds the values (up to m->hold) in a buffer grown on
 * demand; a median's buffer is kept for the next median when it is
 * released (a command computes medians for many runs one after another),
 * so a process grows it once to its largest window. More values than that
 * go to the radix passes: the held ones are counted into the buckets and
 * the buffer is given back.
 */
static struct spare_buffer {
	double *v;
	size_t cap;
} spares[2];

static void spare_take(struct stream_median *m)
{
	for (size_t i = 0; i < sizeof(spares) / sizeof(spares[0]); i++)
		if (spares[i].v) {
			m->held = spares[i].v;
			m->held_cap = spares[i].cap;
			spares[i].v = NULL;
			return;
		}
}

static void spare_give(struct stream_median *m)
{
	for (size_t i = 0; m->held && i < sizeof(spares) / sizeof(spares[0]); i++)
		if (!spares[i].v) {
			spares[i].v = m->held;
			spares[i].cap = m->held_cap;
			m->held = NULL;
		}
	free(m->held);
	m->held = NULL;
	m->held_cap = m->nheld = 0;
}

/* The buckets the next pass can reach: from lo, hi - lo >> shift of them. */
static size_t buckets_in_use(const struct stream_median *m)
{
	return (size_t)((m->hi - m->lo) >> m->shift) + 1;
}

/* Candidates lo..hi, in buckets of 2^shift keys: the least shift that fits them. */
static void set_range(struct stream_median *m, uint64_t lo, uint64_t hi)
{
	m->lo = lo;
	m->hi = hi;
	m->shift = 0;
	while (((hi - lo) >> m->shift) >= MEDIAN_BUCKETS)
		m->shift++;
}

static void median_clear(struct stream_median *m)
{
	size_t used = buckets_in_use(m);
	m->below = 0;
	memset(m->count, 0, used * sizeof(*m->count));
	for (size_t b = 0; b < used; b++) {
		m->min[b] = UINT64_MAX;
		m->max[b] = 0;
	}
	m->seen = 0;
}

int stream_median_init_hold(struct stream_median *m, size_t hold)
{
	memset(m, 0, sizeof(*m));
	m->hi = UINT64_MAX;
	m->above = UINT64_MAX;
	m->shift = 48;
	m->value = NAN;
	m->hold = hold;
	m->held_whole = true;
	if (hold)
		spare_take(m);
	return 0;
}

int stream_median_init(struct stream_median *m)
{
	return stream_median_init_hold(m, STREAM_MEDIAN_HOLD);
}

static void radix_add(struct stream_median *m, double v)
{
	uint64_t key = order_key(v);
	size_t b;
	if (key < m->lo || key > m->hi) {
		if (key > m->hi && key < m->above)
			m->above = key;
		m->below += key < m->lo;
		return;
	}
	b = (size_t)((key - m->lo) >> m->shift);
	m->count[b]++;
	if (key < m->min[b])
		m->min[b] = key;
	if (key > m->max[b])
		m->max[b] = key;
}

/* The radix buckets (once). */
static bool buckets(struct stream_median *m)
{
	if (!m->count) {
		m->count = malloc(MEDIAN_BUCKETS * sizeof(*m->count));
		m->min = malloc(MEDIAN_BUCKETS * sizeof(*m->min));
		m->max = malloc(MEDIAN_BUCKETS * sizeof(*m->max));
	}
	return m->count && m->min && m->max;
}

/* Whole numbers of the first pass counted in whole_lo..whole_lo + whole_n - 1. */
static void whole_add(struct stream_median *m, double v)
{
	if (v < m->whole_bottom) {
		m->below++;
	} else if (v > m->whole_top) {
		uint64_t key = order_key(v);
		if (key < m->above)
			m->above = key;
	} else if (v == floor(v)) {
		m->whole_count[(size_t)((int64_t)v - m->whole_lo)]++;
	} else {
		m->whole_broken = true; /* a fraction inside: the radix passes take over */
	}
}

/*
 * Whole held values less than WHOLE_SPAN apart: a count per whole number
 * over three times their span (as far as WHOLE_SPAN allows), so values a
 * little outside the held ones still fall inside.
 */
static bool to_whole(struct stream_median *m)
{
	double lo = key_value(m->held_lo), hi = key_value(m->held_hi);
	double span = hi - lo + 1, want = 3 * span;
	if (!m->nheld || !m->held_whole || span > (double)WHOLE_SPAN)
		return false;
	if (want > (double)WHOLE_SPAN)
		want = (double)WHOLE_SPAN;
	m->whole_n = (size_t)want;
	m->whole_lo = (int64_t)lo - (int64_t)((want - span) / 2);
	m->whole_bottom = (double)m->whole_lo;
	m->whole_top = (double)m->whole_lo + (double)(m->whole_n - 1);
	if (!(m->whole_count = calloc(m->whole_n, sizeof(*m->whole_count))))
		return false;
	m->whole = true;
	m->radix = true;
	m->below = 0;
	for (size_t i = 0; i < m->nheld; i++)
		whole_add(m, m->held[i]);
	spare_give(m);
	return true;
}

/* From held values to buckets: the first pass goes on in the radix passes. */
static bool to_radix(struct stream_median *m)
{
	size_t seen;
	if (to_whole(m))
		return true;
	if (!buckets(m))
		return false;
	m->radix = true;
	seen = m->seen; /* this pass goes on */
	/*
	 * The buckets span the held values' range; values outside it are
	 * counted below or kept as the least above, and a median outside it
	 * takes another pass over that side.
	 */
	if (m->nheld)
		set_range(m, m->held_lo, m->held_hi);
	else
		set_range(m, 0, UINT64_MAX);
	median_clear(m);
	m->seen = seen;
	for (size_t i = 0; i < m->nheld; i++)
		radix_add(m, m->held[i]);
	spare_give(m);
	return true;
}

static bool hold_value(struct stream_median *m, double v)
{
	if (m->nheld >= m->hold) /* a spare buffer can be larger than this median holds */
		return false;
	if (m->nheld == m->held_cap) {
		size_t cap = m->held_cap ? 2 * m->held_cap : 1024;
		double *grown;
		if (cap > m->hold)
			cap = m->hold;
		if (m->nheld == cap || !(grown = realloc(m->held, cap * sizeof(*grown))))
			return false;
		m->held = grown;
		m->held_cap = cap;
	}
	m->held[m->nheld++] = v == 0 ? 0.0 : v; /* -0 counts as 0, as in the radix keys */
	m->held_whole &= fabs(v) < WHOLE_LIMIT && v == floor(v);
	{
		uint64_t key = order_key(v);
		if (m->nheld == 1 || key < m->held_lo)
			m->held_lo = key;
		if (m->nheld == 1 || key > m->held_hi)
			m->held_hi = key;
	}
	return true;
}

void stream_median_add(struct stream_median *m, double v)
{
	m->seen++;
	if (m->failed)
		return;
	if (!m->radix && m->passes == 0) {
		if (hold_value(m, v))
			return;
		if (!to_radix(m)) {
			m->failed = true;
			return;
		}
	}
	if (m->whole)
		whole_add(m, v);
	else
		radix_add(m, v);
}

/*
 * After a first pass over a range narrower than every key (the held
 * values'): true when the median lies below or above it (the next pass
 * spans that side), else the rank is made relative to the range.
 */
static bool outside_range(struct stream_median *m, size_t nb)
{
	size_t in = 0;
	for (size_t b = 0; b < nb; b++)
		in += m->count[b];
	if (m->rank < m->below) {
		/* the least key at or above the old lo is lo itself: a held value */
		m->above = m->lo;
		set_range(m, 0, m->lo - 1);
		return true;
	}
	m->rank -= m->below;
	if (m->rank >= in) {
		m->rank -= in;
		set_range(m, m->hi + 1, UINT64_MAX);
		m->above = UINT64_MAX;
		return true;
	}
	return false;
}

/*
 * The end of a first pass that counted whole numbers: true with the median
 * when it lies inside the counted range; else the radix passes go on over
 * the side that holds it (or over every key, when a fraction fell inside).
 */
static bool whole_median(struct stream_median *m)
{
	uint64_t lo_key = order_key((double)m->whole_lo);
	uint64_t hi_key = order_key((double)m->whole_lo + (double)(m->whole_n - 1));
	size_t in = 0, cum = 0, i, r;
	m->whole = false;
	if (!buckets(m)) {
		m->failed = true;
		return true;
	}
	for (i = 0; i < m->whole_n; i++)
		in += m->whole_count[i];
	if (m->whole_broken) {
		set_range(m, 0, UINT64_MAX);
		m->above = UINT64_MAX;
	} else if (m->rank < m->below) {
		set_range(m, 0, lo_key - 1);
		m->above = UINT64_MAX;
	} else if (m->rank >= m->below + in) {
		m->rank -= m->below + in;
		set_range(m, hi_key + 1, UINT64_MAX);
		m->above = UINT64_MAX;
	} else {
		double a, second;
		r = m->rank - m->below;
		for (i = 0; cum + m->whole_count[i] <= r; i++)
			cum += m->whole_count[i];
		a = second = (double)(m->whole_lo + (int64_t)i);
		if (m->n % 2 == 0 && r + 1 >= cum + m->whole_count[i]) {
			size_t next = i + 1;
			while (next < m->whole_n && !m->whole_count[next])
				next++;
			second = next < m->whole_n ? (double)(m->whole_lo + (int64_t)next)
						   : key_value(m->above);
		}
		/* gsl_stats_median_from_sorted_data: (data[lhs] + data[rhs]) / 2.0 for an even n */
		m->value = m->n % 2 ? a : (a + second) / 2.0;
		m->done = true;
	}
	free(m->whole_count);
	m->whole_count = NULL;
	if (!m->done)
		median_clear(m);
	return m->done;
}

/* The median of the held values: the middle one, or the mean of the middle two. */
static void held_median(struct stream_median *m)
{
	size_t n = m->nheld, lhs = (n - 1) / 2;
	double a = gsl_stats_select(m->held, 1, n, lhs), b = a;
	if (n % 2 == 0)
		b = gsl_stats_select(m->held, 1, n, n / 2);
	/* gsl_stats_median_from_sorted_data: (data[lhs] + data[rhs]) / 2.0 for an even n */
	m->value = n % 2 ? a : (a + b) / 2.0;
	m->done = true;
}

bool stream_median_next(struct stream_median *m)
{
	size_t cum = 0, b, nb;
	if (m->done)
		return true;
	m->passes++;
	if (m->passes == 1) {
		m->n = m->seen;
		m->rank = m->n ? (m->n - 1) / 2 : 0;
	}
	if (m->failed || m->n == 0 || m->seen != m->n) {
		/* out of memory, no values, or not the same values each pass: no median */
		m->done = true;
		m->value = NAN;
		return true;
	}
	if (!m->radix) {
		held_median(m);
		return true;
	}
	if (m->whole)
		return whole_median(m);
	nb = buckets_in_use(m);
	if (m->passes == 1 && outside_range(m, nb)) {
		median_clear(m);
		return false;
	}
	for (b = 0; b < nb && cum + m->count[b] <= m->rank; b++)
		cum += m->count[b];
	if (b == nb) {
		m->done = true;
		m->value = NAN;
		return true;
	}
	m->rank -= cum;
	/* the smallest candidate above bucket b: the next non-empty bucket's least */
	for (size_t next = b + 1; next < nb; next++)
		if (m->count[next]) {
			if (m->min[next] < m->above)
				m->above = m->min[next];
			break;
		}
	m->lo = m->min[b];
	m->hi = m->max[b];
	if (m->lo == m->hi) {
		double a = key_value(m->lo), second = a;
		/* gsl_stats_median_from_sorted_data: (data[lhs] + data[rhs]) / 2.0 for an even n */
		if (m->n % 2 == 0 && m->rank + 1 >= m->count[b])
			second = key_value(m->above);
		m->value = m->n % 2 ? a : (a + second) / 2.0;
		m->done = true;
		return true;
	}
	m->shift = 0;
	while (((m->hi - m->lo) >> m->shift) >= MEDIAN_BUCKETS)
		m->shift++;
	median_clear(m);
	return false;
}

double stream_median_value(const struct stream_median *m)
{
	return m->done ? m->value : NAN;
}

void stream_median_release(struct stream_median *m)
{
	spare_give(m);
	free(m->whole_count);
	m->whole_count = NULL;
	free(m->count);
	free(m->min);
	free(m->max);
	m->count = NULL;
	m->min = m->max = NULL;
}
