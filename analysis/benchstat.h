/*
 * benchstat: the summary and A/B test Go's benchstat prints
 * (golang.org/x/perf/cmd/benchstat, its default "assume nothing" method),
 * so that `coreplan compare --view benchstat` reads like it.
 *
 * Summary of one sample (benchstat_summary):
 *   median   the sample median (mean of the two middle values for an even n);
 *   lo, hi   the distribution-free confidence interval of the median from
 *            order statistics at `confidence` (benchstat: 0.95): the count of
 *            values below the population median is Binomial(n, 1/2); for
 *            n <= 30, starting at the lower mode ceil((n+1)/2) - 1, the
 *            interval [l, r) of counts is widened one step at a time to the
 *            side with the larger probability (the left on a tie) until its
 *            probability reaches the confidence; for n > 30, the normal
 *            approximation with continuity correction, rounded out to whole
 *            counts and narrowed by one on the right when that still holds
 *            the confidence; lo = x(l), hi = x(r) (1-based order statistics),
 *            -inf / +inf beyond the sample (n < 6 at 95%: benchstat's ±∞);
 *   ci_pct   max(hi / median - 1, 1 - lo / median) * 100, what benchstat
 *            prints as "± N%" (NaN when infinite or when lo or hi has another
 *            sign than the median; 0 when all three are 0).
 * Comparison (benchstat_utest): the two-sided Mann-Whitney U test, with
 * benchstat's rules: the exact null distribution of U when both samples
 * hold at most 50 values and no value ties, or at most 25 each when values
 * tie (the exact distribution conditional on the ties, counted over all
 * C(N, n_a) assignments of the mid-ranks); p = 2 P(U <= min(U_a, U_b)),
 * 1 when U_a = U_b; otherwise the normal approximation with tie-corrected
 * variance and a continuity correction of 0.5. All values equal: p = 1
 * (benchstat reports that as no difference).
 * The change is significant when p <= alpha (benchstat: 0.05); else
 * benchstat prints "~". delta_pct = (median_b / median_a - 1) * 100.
 */
#ifndef COREPLAN_BENCHSTAT_H
#define COREPLAN_BENCHSTAT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select.h"

#define BENCHSTAT_CONFIDENCE 0.95
#define BENCHSTAT_ALPHA 0.05
#define BENCHSTAT_EXACT_MAX 50
#define BENCHSTAT_TIES_EXACT_MAX 25

struct benchstat_summary {
	size_t n;
	double median, lo, hi;
	double ci_pct;     /* NaN: benchstat's ∞ or ? */
	double confidence; /* the interval's actual coverage (>= the one asked) */
};

struct benchstat_utest {
	double u; /* U of sample a: pairs (a, b) with a > b, ties counting 1/2 */
	double p;
	bool exact;
	bool ties;
};

struct benchstat_row {
	struct benchstat_summary a, b;
	struct benchstat_utest test;
	double delta_pct;
	bool significant; /* p <= alpha */
};

/* n >= 1 finite values (not modified). */
int benchstat_summary(const double *x, size_t n, double confidence, struct benchstat_summary *out);
/* na, nb >= 1 finite values. */
int benchstat_utest(const double *a, size_t na, const double *b, size_t nb,
		    struct benchstat_utest *out);
/*
 * The same test with SciPy's choice of method (scipy.stats.mannwhitneyu,
 * alternative "two-sided", method "auto", SciPy >= 1.7: what Google
 * Benchmark's compare.py calls): the exact distribution when no value ties
 * and an arm has at most 8 values, else the normal approximation (tie and
 * continuity corrected); p capped at 1.
 */
int benchstat_utest_scipy(const double *a, size_t na, const double *b, size_t nb,
			  struct benchstat_utest *out);
/* Both summaries at BENCHSTAT_CONFIDENCE, the test, the decision at BENCHSTAT_ALPHA. */
int benchstat_compare(const double *a, size_t na, const double *b, size_t nb,
		      struct benchstat_row *out);

/* The fewest values with a finite interval of the median at `confidence` (0: more than 50). */
size_t benchstat_ci_samples(double confidence);
/* The fewest values per arm with which the U test can reach p <= alpha (0: more than 9). */
size_t benchstat_utest_samples(double alpha);
/*
 * The geometric mean, as benchstat computes it (a running mean of the
 * logarithms); NaN when n is 0 or a value is not above 0.
 */
double benchstat_geomean(const double *x, size_t n);

/* ---- benchstat's tables (benchstat_tables.c) ---- */

/*
 * Go units as benchstat shows them (golang.org/x/perf/benchunit): "ns" in
 * the numerator becomes "sec" (x 1e-9) and "MB" becomes "B" (x 1e6); a
 * unit with B, MB or bytes in its numerator scales by powers of 1024 (Ki,
 * Mi, Gi, Ti), any other by powers of 1000 (n, µ, m, k, M, G, T).
 */
struct benchstat_unit {
	char name[128]; /* "sec/op" */
	double factor;  /* value in the Go unit times factor = value in name */
	bool binary;
};
void benchstat_tidy_unit(const char *go_unit, struct benchstat_unit *out);
/*
 * A Go run's row as benchstat names it (its .fullname): the name without
 * "Benchmark", with "-N" when GOMAXPROCS N is not 1 (go test prints none
 * for 1); gomaxprocs NULL or "" counts as 1.
 */
void benchstat_row_name(const char *name, const char *gomaxprocs, char *buf, size_t size);
/* The Go unit of a metric column the gobench importer made: "_per_" read back as "/". */
void benchstat_go_unit(const char *column, char *buf, size_t size);

/*
 * One measurement: a benchmark (its row: benchstat's full name, "Encode/
 * format=json-48"), the arm it belongs to (column 0 or 1), its file-level
 * configuration (the table: keys and values, NULL-terminated pairs), the
 * Go unit and value, and its file (a cell whose values come from more
 * than one file is flagged, as benchstat flags a cell whose benchmarks
 * vary). Strings are copied by benchstat_tables_add().
 */
struct benchstat_obs {
	const char *row;
	int col;
	const char *const *config; /* key, value, key, value, ..., NULL */
	const char *unit;
	double value;
	const char *file;
};

/* A cell: one row's values in one column. */
struct benchstat_cell {
	size_t n;
	double *values; /* sorted ascending, in the tidied unit */
	struct benchstat_summary s;
	bool files_vary;
	bool ci_infinite;
};

/*
 * A row. delta is benchstat's delta text (FormatDelta: "~" when p >
 * alpha, "0.00%" when the medians are equal, "?" when a's is 0, else
 * "%+.2f%%"); delta_pct the number (NaN unless a percentage is shown).
 */
struct benchstat_trow {
	size_t row; /* index into the result's row names (observation order) */
	bool has[2];
	struct benchstat_cell c[2];
	bool compared; /* both cells: the U test ran */
	struct benchstat_utest test;
	bool all_equal; /* every value of both cells is equal: p = 1, no test */
	bool too_few;   /* p > alpha and both arms below benchstat_utest_samples */
	char delta[32];
	double delta_pct;
};

/* The geomean row of a table (benchstat prints it when a table has 2+ rows). */
struct benchstat_geomean {
	bool has[2]; /* a geometric mean of the column's medians */
	double value[2];
	bool nonpositive[2]; /* a median <= 0: no geomean ("summaries must be >0") */
	bool has_ratio;      /* the geometric mean of the rows' ratios b / a */
	double ratio;
	bool set_differs; /* b lacks rows a has: "geomeans may not be comparable" */
};

struct benchstat_table {
	size_t config;    /* index into the result's configurations */
	size_t unit_rank; /* the unit's first-seen order */
	struct benchstat_unit unit;
	char go_unit[128];
	struct benchstat_trow *rows;
	size_t nrows;
	struct benchstat_geomean gm;
};

struct benchstat_result {
	char *label[2];
	double confidence, alpha;
	char **keys; /* configuration keys in the order first seen */
	size_t nkeys;
	/* configurations: nkeys values each ("" when a key is missing) */
	char ***configs;
	size_t nconfigs;
	char **rows; /* row names in the order first seen */
	size_t nrows;
	struct benchstat_table *tables; /* benchstat's order: configuration, then unit */
	size_t ntables;
	size_t nobs[2];
	size_t runs[2]; /* runs read into each arm (benchstat_run) */
	/* runs an arm's filter matched but left out (excluded), with the reason */
	struct sel_left_out *left_out;
	size_t nleft_out;
	/*
	 * benchstat_run met a run that is not a Go benchmark run before any Go
	 * run: the arms hold one metric per run, which compare's own
	 * benchstat rows cover (analysis/compare.h; cli/cmd_compare.c falls
	 * back to them). A Go run beside others is an error either way.
	 */
	bool not_go;
	/* building */
	struct benchstat_build *build;
};

/*
 * Build a result: init (labels copied), add every measurement in input
 * order (arm a's before arm b's, each in its file order: first seen is
 * benchstat's order for rows, configurations and units), then finish
 * (tables, summaries at `confidence`, tests, deltas at `alpha`).
 * release frees everything (safe on a zeroed result).
 */
int benchstat_tables_init(struct benchstat_result *r, const char *label_a, const char *label_b,
			  double confidence, double alpha);
int benchstat_tables_add(struct benchstat_result *r, const struct benchstat_obs *obs);
int benchstat_tables_finish(struct benchstat_result *r);
void benchstat_tables_release(struct benchstat_result *r);
/* Record a run left out (tag, reason copied). */
int benchstat_leave_out(struct benchstat_result *r, const char *tag, const char *reason);

/* ---- compare --view benchstat on the database (benchstat_load.c) ---- */

struct run_filter;

/*
 * Compare's two arms as benchstat compares two files: the common filter
 * AND each arm's FIELD=V conditions; every unit of the Go runs (metric
 * NULL) or one metric column; labels NULL: the arm's value when it is one
 * FIELD=V ("file=old.txt": old.txt), else its text.
 */
struct benchstat_request {
	const struct run_filter *filter;
	const char *arm[2];
	const char *label[2];
	const char *metric;
	double confidence; /* BENCHSTAT_CONFIDENCE */
	double alpha;      /* BENCHSTAT_ALPHA */
};
void benchstat_request_init(struct benchstat_request *req);
/*
 * Read the arms' runs (benchstat_load.c: Go runs of gobench corpora only;
 * another run is a usage error saying so, with out->not_go set when no Go
 * run came before it) and build the tables. An arm
 * with no run is an error. out is released on failure.
 */
int benchstat_run(sqlite3 *db, const struct benchstat_request *req, struct benchstat_result *out);

#endif
