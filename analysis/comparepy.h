/*
 * comparepy: compare's two arms of Google Benchmark runs as Google
 * Benchmark's tools/compare.py compares two JSON outputs (`compare.py
 * benchmarks OLD NEW`, tools/gbench/report.py), for `compare --view
 * comparepy`.
 *
 * Benchmarks are paired by their full name (the JSON "name", threads part
 * included) in arm a's order, those arm b has too; a benchmark's time unit
 * is that of its first run in a. Each of the first min(n_a, n_b) runs of a
 * benchmark is compared with the run of b at the same place: Time and CPU
 * are (new - old) / |old| of real_time and cpu_time (0 when both are 0;
 * when old is 0, (new - old) / ((old + new) / 2)). With at least 2 runs
 * in every arm and column, the benchmark's U test: two-sided Mann-Whitney
 * on all its runs, with SciPy's choice of method (benchstat_utest_scipy);
 * fewer than 9 runs an arm is flagged "results unreliable". Aggregate rows
 * (mean, median, stddev) are not runs here (the importer counts them);
 * compare.py, given the raw JSON, would also pair the aggregates by name.
 */
#ifndef COREPLAN_COMPAREPY_H
#define COREPLAN_COMPAREPY_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "select.h"

#define COMPAREPY_UTEST_MIN 2
#define COMPAREPY_UTEST_OPTIMAL 9

struct run_filter;

struct comparepy_request {
	const struct run_filter *filter;
	const char *arm[2];
};

struct comparepy_measure {
	double real[2], cpu[2]; /* in the benchmark's time unit: old, new */
	double time_change, cpu_change;
};

struct comparepy_bench {
	char *name;
	char unit[8];
	struct comparepy_measure *m;
	size_t nm;
	size_t n[2]; /* runs of each arm */
	bool utest;  /* the U test ran */
	bool optimal;
	double p_time, p_cpu;
	bool exact_time, exact_cpu;
};

struct comparepy_result {
	char *label[2];
	struct comparepy_bench *benches;
	size_t nbenches;
	size_t runs[2];
	struct sel_left_out *left_out; /* error runs, left out */
	size_t nleft_out;
	/*
	 * comparepy_run met a run that is not a Google Benchmark run before
	 * any that is: the arms hold one metric per run, which compare's own
	 * compare.py rows cover (analysis/compare.h; cli/cmd_compare.c falls
	 * back to them).
	 */
	bool not_gbench;
};

/* compare.py's relative change. */
double comparepy_change(double old_value, double new_value);
/* Read the arms' Google Benchmark runs (other runs: a usage error) and compare them. */
int comparepy_run(sqlite3 *db, const struct comparepy_request *req, struct comparepy_result *out);
void comparepy_release(struct comparepy_result *r);

#endif
