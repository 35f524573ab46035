/*
 * median: an exact median of values read again pass after pass, in
 * bounded memory (the window's medians over a trace of any length:
 * window.h).
 */
#ifndef COREPLAN_MEDIAN_H
#define COREPLAN_MEDIAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * An exact median in bounded memory, over values fed again on each pass
 * (the same values, in any order, each pass). Up to `hold` values
 * (STREAM_MEDIAN_HOLD by default) are held on the first pass in a buffer
 * grown on demand and the median is selected from them: one pass. The
 * buffer outlives the median (kept for the next one: a command computes
 * one median after another, run after run), so a process grows it once.
 * Beyond `hold` values: when every held value is a whole number and they
 * lie within 2^20 of each other (conn, an RSS in kB), the rest of the
 * first pass counts each whole number in that range, widened to three
 * times the held span (a histogram sized to the data), and the median is
 * known at the end of the pass. Otherwise, or when the median lies outside
 * that range or a fraction fell inside it, radix selection on the values'
 * order (64-bit keys, 2^16 buckets a pass, each pass narrowing to the
 * bucket that holds the lower middle rank, clearing only the buckets it
 * can reach; the first radix pass spans the held values' range and counts
 * the values below it; at most 7 passes), so a median of 10,000,000
 * values needs no array of them. The
 * result equals stats_median() bit for bit either way: the middle value,
 * or the two middle values' (a + b) / 2 (-0 counts as 0). Values must be
 * finite; the first pass fixes how many there are (none: the median is
 * NaN). Out of memory: failed is set and the median is NaN.
 *   stream_median_init(&m);
 *   do { for each value: stream_median_add(&m, v); } while (!stream_median_next(&m));
 *   stream_median_value(&m); stream_median_release(&m);
 */
#define STREAM_MEDIAN_HOLD ((size_t)1 << 20)

struct stream_median {
	size_t n;        /* values per pass, from the first */
	size_t seen;     /* values fed this pass */
	size_t rank;     /* the lower middle rank among the candidates */
	uint64_t lo, hi; /* candidate keys, inclusive */
	uint64_t above;  /* the smallest key above hi seen (UINT64_MAX: none) */
	unsigned int shift;
	size_t hold;  /* values held before the radix passes take over */
	double *held; /* the first pass's values while they fit */
	size_t nheld, held_cap;
	uint64_t held_lo, held_hi; /* the held values' least and largest keys */
	size_t below;              /* values below lo this pass */
	bool held_whole;  /* every held value a whole number */
	bool whole;       /* the first pass counts whole numbers in whole_lo.. */
	bool whole_broken; /* ... and a fraction fell inside the range */
	int64_t whole_lo;
	size_t whole_n;     /* whole numbers counted: whole_lo..whole_lo + whole_n - 1 */
	double whole_bottom, whole_top; /* the same, as doubles */
	size_t *whole_count; /* per whole number */
	bool radix;    /* more than hold values: the buckets below */
	size_t *count; /* per bucket */
	uint64_t *min, *max;
	bool failed; /* out of memory */
	bool done;
	double value;
	size_t passes;
};

/* Never fails (memory is taken as values come: see failed); returns 0. */
int stream_median_init(struct stream_median *m);
/* With `hold` values held at most (0: the radix passes from the first value). */
int stream_median_init_hold(struct stream_median *m, size_t hold);
void stream_median_add(struct stream_median *m, double v);
/* End a pass: true when the median is known (no more passes). */
bool stream_median_next(struct stream_median *m);
double stream_median_value(const struct stream_median *m);
void stream_median_release(struct stream_median *m);

#endif
