/*
 * levers: what each one-factor change is worth (coreplan levers).
 *
 * A lever is a field that takes two or more values while the runs agree
 * on everything else: the fields that vary among the selected runs
 * (pooling.h's candidates: corpus, subcorpus, the arm fields target, cfg,
 * store, gogc, variant, the counts sessions and gomaxprocs that are not
 * the level, the results-table factors). A field that only varies with an
 * earlier one (store with cfg) is not a lever of its own: it moves with
 * its leader, and the leader's pairs name it (follows).
 *
 * For a lever F, its context is the values of the other varying fields;
 * within a context, at each level (--by) where two values of F have runs:
 *   base   the smallest numeric value present at that level when F has
 *          numbers there (GOGC 100 before 400 and 800; sessions 25 before
 *          100); otherwise the value whose runs came first
 *   cell   each other value b against the base a: each arm's n, median,
 *          range and median app_cores; ratio = median(b) / median(a); the
 *          verdict of analysis/verdict.h (verdict_two_samples: Welch t on
 *          ln values, the geometric-mean ratio and its 95% interval, the
 *          word in the metric's kind: higher/lower, faster/slower, ...)
 * Block kinds: within a combination of the varying fields, a block that
 * holds only some of its levels while another holds them all is an arm of
 * its own (a soak, a gctrace or fsync block: pooling.h): an arm uses its
 * runs outside such blocks when it has any (kinds_left_out counts the
 * others).
 *
 * An arm with one run has no spread: its cell is unreplicated. It is
 * tested against the spread the replicated arms of the same context show
 * at that level (the pooled standard deviation of their ln values, with
 * its degrees of freedom): t = (mean ln b - mean ln a) / (sd sqrt(1/na +
 * 1/nb)), two-sided p from Student's t; beyond noise when p < 0.05, and
 * its interval then comes from the same t. No replicated arm at that
 * level: no test, it says nothing. noise_pct is those arms' largest
 * spread, (max / min - 1) x 100.
 *
 * Per pair (lever, context, b against a) over its levels: the smallest and
 * largest ratio; the pooled ratio (verdict_tally over the levels'
 * verdicts when every level has a test: their geometric mean with its
 * 95% interval; else the geometric mean of the ratios, no interval);
 * level-independent when it
 * has two or more levels, every ratio lies on the same side of 1 and the
 * largest is within LEVERS_INDEPENDENT_PCT % of the smallest; an effect
 * when some level's verdict is real or an unreplicated cell is beyond
 * noise.
 *
 * Confounders: a worker count among the results table's other columns
 * (field_counts_workers: procs, threads, ...) that differs between a
 * pair's arms at some level (its first run's value on each side) makes
 * the contrast not one factor; the pair names it (confounded).
 *
 * levers_compute() works on runs in memory (unit-tested); levers_run()
 * selects, finds the varying fields and computes. Results own their
 * strings; levers_result_release() frees them.
 */
#ifndef COREPLAN_LEVERS_H
#define COREPLAN_LEVERS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "select.h"
#include "stats.h"
#include "verdict.h"

#define LEVERS_INDEPENDENT_PCT 10.0

/* One run: its level, value and each varying field's value ("NA" when missing). */
struct lever_run {
	const char *tag;
	double level;
	double value;
	double app_cores; /* NaN when absent */
	const char *block;
	const char *const *values;   /* one per field of the input */
	const char *const *settings; /* one per setting of the input (NULL: missing) */
};

struct lever_input {
	const struct lever_run *runs;
	size_t n;
	const char *const *fields;  /* the varying fields, nfields */
	const char *const *follows; /* per field: the fields it follows, or NULL (a lever) */
	size_t nfields;
	bool lower_is_better;
	enum field_kind kind; /* the metric's (the verdicts' words) */
	bool has_level;       /* false: every run is one level */
	/*
	 * Worker counts among the results-table columns that are not a varying
	 * field (procs, threads): a pair whose arms differ in one is confounded
	 * by it (its `confounded` names it).
	 */
	const char *const *settings;
	size_t nsettings;
};

struct lever_arm {
	const char *value;
	size_t n;
	size_t kinds_left_out; /* runs of block kinds not used */
	struct summary s;
	double app_cores; /* median over the runs with it; NaN none */
	char tags[256];
};

struct lever_cell {
	double level;
	struct lever_arm a, b; /* a: the base */
	double ratio;          /* median(b) / median(a); NaN when median(a) is 0 */
	bool has_ci;
	double estimate, lo, hi; /* the t test's ratio of geometric means and its interval */
	double se, df;           /* of ln estimate (pooling) */
	double p;                /* the test's; NaN without one */
	struct verdict v;        /* verdict.h's (unreplicated: the borrowed-spread test's) */
	const char *verdict;     /* higher, lower, no-difference, within-noise, unreplicated */
	const char *method;
	bool real;         /* the verdict says higher or lower */
	bool unreplicated; /* an arm with one run */
	double noise_pct;  /* replicated arms' largest spread at this level; NaN none */
	bool beyond_noise; /* unreplicated and its borrowed-spread test has p < 0.05 */
	double effect_pct; /* (max(r, 1/r) - 1) * 100 */
	double app_ratio;  /* median app_cores of b / of a; NaN unknown */
	char reason[800];
};

struct lever_pair {
	char *field;
	char *context; /* "sessions=100" ("" when F is the only varying field) */
	char *value, *base;
	char *follows;    /* fields that move with F ("store"), or NULL */
	char *confounded; /* settings whose value differs between the arms ("procs"), or NULL */
	struct lever_cell *cells;
	size_t ncells;
	double min_ratio, max_ratio;
	double pooled, pooled_lo, pooled_hi; /* lo, hi NaN without an interval */
	bool pooled_ci;
	bool independent;
	bool effect;
	bool tested; /* some level has a test (both arms replicated, or a borrowed spread) */
	size_t nreal, nbeyond;
	int direction; /* +1: b above a at every level with an effect, -1 below, 0 mixed */
	bool better;   /* b is better than a (the metric's direction), when direction != 0 */
	double app_min, app_max; /* the cells' app_ratio range; NaN none */
};

struct levers {
	struct lever_pair *pairs;
	size_t npairs;
	size_t nlevers;  /* fields that are levers */
	size_t neffects; /* pairs with an effect */
	bool lower_is_better;
};

int levers_compute(const struct lever_input *in, struct levers *out);
void levers_release(struct levers *l);

struct levers_request {
	const struct run_filter *filter;
	const char *by;     /* NULL: none (one level) */
	const char *metric; /* NULL: tput */
};

struct levers_result {
	struct selection sel;
	char **fields; /* the varying fields */
	char **follows;
	size_t nfields;
	char **settings; /* the worker counts checked for confounding */
	size_t nsettings;
	struct levers lv;
};

/*
 * Select the runs (levels numeric when by is given), find the fields that
 * vary (pooling_load), read their values and compute. No run: the error
 * says what the filter matched.
 */
int levers_run(sqlite3 *db, const struct levers_request *req, struct levers_result *out);
void levers_result_release(struct levers_result *r);

#endif
