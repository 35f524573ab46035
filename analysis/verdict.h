/*
 * verdict: coreplan's one answer to "is this difference real?"
 * (docs/statistics.md). noise (each step between neighbouring levels),
 * compare (every design), sweep (each step), the report and its findings
 * decide through here, so the same runs get the same verdict everywhere.
 *
 * The rule, for a baseline a and a change b of one metric:
 *   scale          log when every value of both sides is above 0: the test
 *                  is on ln values and the estimate a ratio b / a (of
 *                  geometric means); otherwise absolute: values, and the
 *                  estimate a difference b - a in the metric's units
 *   test           two-sided Welch t (verdict_two_samples: df by
 *                  Welch-Satterthwaite) or paired t (verdict_paired: the
 *                  pairs' differences, df = pairs - 1), p from Student's t;
 *                  the 95% interval of the estimate from the same t
 *   real           p < alpha (VERDICT_ALPHA = 0.05): the word says which
 *                  way in the metric's kind (units_change_word: higher /
 *                  lower; faster / slower for a time or latency; uses more
 *                  / uses less for memory and CPU)
 *   no-difference  not real, an effect bound is given and the interval lies
 *                  inside 1 -+ bound (absolute: -+ bound% of |median a|):
 *                  an effect of the bound's size is ruled out
 *   within-noise   tested, not real, not ruled out
 *   unreplicated   a side with one run (paired: one pair): no spread, no
 *                  interval, no test
 * No variation on either side (every run of a equal, every run of b
 * equal): the difference is exact, test "exact": real with p = 0 when the
 * sides differ, within-noise with p = 1 when they are equal.
 *
 * Supporting evidence, shown beside the verdict and never deciding it:
 * the two-sided Mann-Whitney rank test (stats_mann_whitney: p, and the
 * smallest p these sizes can reach: 0.1 at 3 runs a side), the range rule
 * (the sides' [min, max] ranges are disjoint, gap = the distance between
 * the facing ends, > 0 iff disjoint) and, paired, how many pairs move the
 * way the estimate does. Runs needed (per side; paired: pairs) to resolve
 * the effect bound, else the observed effect, at alpha with power 0.8:
 *   n = ceil(2 (z_{1-alpha/2} + z_power)^2 (s / delta)^2)  (paired: no 2)
 * s the pooled standard deviation of ln values over the sides with 2+
 * runs (absolute: of values; paired: the sd of the differences), delta =
 * ln(1 + effect) (absolute: in the metric's units); never below
 * VERDICT_MIN_RUNS; NaN when s or delta is unknown or 0.
 *
 * Several verdicts (compare --by's levels, a lever at each level) are
 * summed up by verdict_tally(): a count ("3 of 4 faster, 1 within-noise")
 * and the geometric mean of the ratios (absolute: the mean difference)
 * with its 95% interval; never one verdict over different conditions.
 *
 * Pure functions over arrays; nothing is allocated (a verdict owns no
 * memory). Errors (non-finite values, a log scale asked with a value <= 0,
 * no values) return a negative code with err_set().
 */
#ifndef COREPLAN_VERDICT_H
#define COREPLAN_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/units.h"
#include "stats.h"

#define VERDICT_ALPHA 0.05
#define VERDICT_POWER 0.8
#define VERDICT_CONF 0.95
#define VERDICT_MIN_RUNS 3
#define VERDICT_REASON_MAX 768

/* The verdict words that are not a direction (stable: facts and cells). */
#define VERDICT_NO_DIFFERENCE_WORD "no-difference"
#define VERDICT_WITHIN_NOISE_WORD "within-noise"
#define VERDICT_UNREPLICATED_WORD "unreplicated"

enum verdict_call {
	VERDICT_REAL,          /* p < alpha: word is the direction in the kind's words */
	VERDICT_NO_DIFFERENCE, /* the interval lies inside the effect bound */
	VERDICT_WITHIN_NOISE,  /* tested, not real, not ruled out */
	VERDICT_UNREPLICATED,  /* a side with one run: no test */
};

enum verdict_scale {
	VERDICT_SCALE_AUTO,     /* log when every value is > 0, else absolute */
	VERDICT_SCALE_LOG,      /* ratios on ln(values); a value <= 0 is an error */
	VERDICT_SCALE_ABSOLUTE, /* differences in the metric's units */
};

struct verdict_options {
	double alpha; /* VERDICT_ALPHA */
	double power; /* runs_needed: VERDICT_POWER */
	bool has_effect_bound;
	double effect_bound_pct; /* the largest effect the change could have, in % */
	enum field_kind kind;    /* the metric's kind: the words */
	bool lower_is_better;    /* effect: better or worse */
	enum verdict_scale scale;
	/* the sides in the reason, "a" and "b" when NULL ("arm a", "sessions=300") */
	const char *name_a, *name_b;
};

struct verdict {
	enum verdict_call call;
	const char *word;   /* the direction word when real, else no-difference, within-noise,
			       unreplicated */
	const char *change; /* the direction word of the estimate, real or not ("no change") */
	int direction;      /* the estimate: +1 b above a, -1 below, 0 equal */
	const char
		*effect; /* "better", "worse" or "none" (the direction against lower_is_better) */
	enum field_kind kind; /* the options' (the words) */
	bool log_scale;
	bool paired;
	bool has_test;
	const char *test;       /* "welch", "paired-t", "exact" or "" (none) */
	const char *test_words; /* "Welch t on ln values", ... */
	struct t_test t;        /* on ln values or values: diff = b - a, its interval */
	double p;               /* the test's p (exact: 0 or 1); NaN without a test */
	double estimate;        /* log: ratio b / a (exp of t.diff); absolute: difference */
	double lo, hi;          /* its 95% interval; NaN without a test */
	double observed_pct;    /* log: (max(r, 1/r) - 1) * 100; absolute: |diff| / |median a| *
				   100 (NaN when median a is 0) */
	/* supporting evidence */
	struct summary a, b; /* each side (paired: the paired values) */
	bool has_rank;       /* unpaired, 1+ run a side */
	struct mann_whitney rank;
	bool ranges_disjoint; /* the sides' [min, max] ranges do not overlap */
	double gap;           /* between the facing ends, metric units; > 0 iff disjoint */
	size_t agree;         /* paired: pairs moving the way the estimate does */
	/* runs needed */
	double sd;          /* the sd runs_needed uses (ln or metric units); NaN when unknown */
	double effect_pct;  /* the effect it sizes for, in %: the bound, else observed */
	double delta;       /* the same on the test's scale */
	double runs_needed; /* per side (paired: pairs); NaN when not computable */
	char reason[VERDICT_REASON_MAX];
};

void verdict_options_init(struct verdict_options *o);

/* Unpaired: a[0..na) against b[0..nb), na, nb >= 1. */
int verdict_two_samples(const double *a, size_t na, const double *b, size_t nb,
			const struct verdict_options *o, struct verdict *out);
/* Paired: (a[i], b[i]) for i < n, n >= 1. */
int verdict_paired(const double *a, const double *b, size_t n, const struct verdict_options *o,
		   struct verdict *out);

/* "real", "no-difference", "within-noise", "unreplicated" (the call, without a direction). */
const char *verdict_call_name(enum verdict_call call);
static inline bool verdict_real(const struct verdict *v)
{
	return v->call == VERDICT_REAL;
}

/*
 * One sentence: "1.344x [1.287, 1.405] higher (paired t on ln
 * differences, p = 0.00119, 3 pairs)"; not real: "within-noise: 0.9376x
 * [0.84, 1.05] (Welch t on ln values, p = 0.093; runs needed per side: 5)".
 * unit: the metric's (absolute scale). Writes at most size bytes.
 */
void verdict_sentence(const struct verdict *v, const char *unit, char *buf, size_t size);

/*
 * Several verdicts on one scale summed up (compare --by, a lever's levels):
 *   counts     real ones each way, no-difference, within-noise, unreplicated;
 *              text "3 of 4 faster, 1 within-noise"
 *   estimate   the geometric mean of the ratios, exp(mean of t.diff or ln
 *              estimate) (absolute: the mean difference), with a 95% t
 *              interval: when every verdict has a test, from their
 *              standard errors, se = sqrt(sum se_i^2) / k with df by
 *              Welch-Satterthwaite, (sum se_i^2)^2 / sum(se_i^4 / df_i)
 *              (method "within"); otherwise, with 2+ verdicts, from their
 *              spread: the one-sample t of the k ln estimates, df = k - 1
 *              (method "across", as a paired t over the verdicts); one
 *              verdict without a test: no interval (method "none")
 * v[i] (pointers, so the verdicts can live in the callers' own structs)
 * must share one scale (log_scale); k >= 1. The text lists the nonzero
 * counts in that order, the first as "N of K".
 */
struct verdict_tally {
	size_t k;
	size_t up, down; /* real, b above a / below */
	size_t no_difference, within_noise, unreplicated;
	const char *up_word, *down_word; /* the kind's words */
	bool log_scale;
	double estimate, lo, hi; /* lo, hi NaN without an interval */
	double se, df;
	const char *method; /* "within", "across" or "none" */
	char text[256];     /* "3 of 4 faster, 1 within-noise" */
};
int verdict_tally(const struct verdict *const *v, size_t k, const struct verdict_options *o,
		  struct verdict_tally *out);

#endif
