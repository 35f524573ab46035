/*
 * Unit tests for analysis/benchstat: benchstat's median interval and U test.
 *
 * benchstat itself is not installable offline (it is a Go module,
 * golang.org/x/perf/cmd/benchstat, fetched from the network; Debian ships
 * no package), so its figures are copied from its published documentation:
 * the example in the doc comment of golang.org/x/perf cmd/benchstat/main.go
 * (old.txt / new.txt of BenchmarkEncode/format=json-48 and format=gob-48,
 * 10 runs each, values below), whose output is
 *   Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
 *   Encode/format=gob-48    3.066µ ± 0%   3.070µ ± 2%        ~ (p=0.446 n=10)
 * Other reference values: SciPy 1.10.1 on /usr/bin/python3 (named per
 * value), and an independent Python implementation of the same rules
 * (counting the rank sums of all subsets with a dict; scipy.stats.binom for
 * the intervals) where SciPy has no equivalent (the exact test with ties).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/benchstat.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "importers/table.h"
#include "importers/tools.h"
#include "reports/builders.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double json_old[] = {1726, 1723, 1707, 1707, 1713, 1729, 1736, 1707, 1705, 1774};
static const double json_new[] = {1423, 1416, 1411, 1413, 1412, 1426, 1422, 1424, 1447, 1425};
static const double gob_old[] = {3069, 3075, 3069, 3067, 3207, 3064, 3064, 3058, 3059, 3062};
static const double gob_new[] = {3075, 3065, 3059, 3065, 3060, 3081, 3186, 3135, 3087, 3062};

/* printf("%.4g") of ns as benchstat prints µs to 4 digits, "%.0f" of the ± */
static void expect_printed(double ns, const char *want, double pct, const char *want_pct)
{
	char got[32], got_pct[32];
	snprintf(got, sizeof(got), "%.4g", ns / 1000);
	snprintf(got_pct, sizeof(got_pct), "%.0f", pct);
	assert_string_equal(got, want);
	assert_string_equal(got_pct, want_pct);
}

static void test_benchstat_doc_example(void **state)
{
	struct benchstat_row r;
	char buf[32];
	(void)state;
	assert_int_equal(benchstat_compare(json_old, 10, json_new, 10, &r), 0);
	expect_printed(r.a.median, "1.718", r.a.ci_pct, "1");
	expect_printed(r.b.median, "1.423", r.b.ci_pct, "1");
	snprintf(buf, sizeof(buf), "%+.2f", r.delta_pct);
	assert_string_equal(buf, "-17.20");
	snprintf(buf, sizeof(buf), "%.3f", r.test.p);
	assert_string_equal(buf, "0.000");
	assert_true(r.significant);
	/* exact given the ties: the Python count gives 1.082508822446903e-05 (U = 0) */
	assert_float_equal(r.test.p, 1.082508822446903e-05, 1e-15);
	assert_true(r.test.ties); /* 1707 three times: the exact test given the ties */
	assert_true(r.test.exact);

	assert_int_equal(benchstat_compare(gob_old, 10, gob_new, 10, &r), 0);
	expect_printed(r.a.median, "3.066", r.a.ci_pct, "0");
	expect_printed(r.b.median, "3.07", r.b.ci_pct, "2"); /* benchstat: 3.070µ */
	snprintf(buf, sizeof(buf), "%.3f", r.test.p);
	assert_string_equal(buf, "0.446");
	assert_false(r.significant); /* benchstat's ~ */
	assert_true(r.test.ties);
	assert_true(r.test.exact);
	/* the Python count of all C(20, 10) assignments: 0.4461018857303687;
	 * SciPy's asymptotic p (0.4487) and its tie-blind exact p (0.4813) differ */
	assert_float_equal(r.test.p, 0.4461018857303687, 1e-12);
}

static void test_interval(void **state)
{
	struct benchstat_summary s;
	const double five[] = {5, 1, 4, 2, 3};
	const double six[] = {5, 1, 4, 2, 3, 6};
	double forty[40];
	(void)state;
	/* n = 5 at 95%: no finite interval (benchstat: ± ∞, "need >= 6 samples") */
	assert_int_equal(benchstat_summary(five, 5, 0.95, &s), 0);
	assert_float_equal(s.median, 3, 0);
	assert_true(isinf(s.lo) && s.lo < 0);
	assert_true(isnan(s.ci_pct));
	/* n = 6: orders 1 and 6, coverage 1 - 2/64 (Python: lo 1, hi 6, 71.43%) */
	assert_int_equal(benchstat_summary(six, 6, 0.95, &s), 0);
	assert_float_equal(s.lo, 1, 0);
	assert_float_equal(s.hi, 6, 0);
	assert_float_equal(s.ci_pct, 71.42857142857143, 1e-9);
	assert_float_equal(s.confidence, 62.0 / 64, 1e-12);
	/* n = 40 (normal approximation): 101..140 permuted; Python: orders 14 and 27 */
	for (int i = 1; i <= 40; i++)
		forty[i - 1] = (double)((i * 37) % 41) + 100;
	assert_int_equal(benchstat_summary(forty, 40, 0.95, &s), 0);
	assert_float_equal(s.median, 120.5, 0);
	assert_float_equal(s.lo, 114, 0);
	assert_float_equal(s.hi, 127, 0);
	assert_float_equal(s.ci_pct, 5.394190871369298, 1e-9);
}

static void test_utest_against_scipy(void **state)
{
	const double a[] = {1.1, 2.5, 3.3, 4.8, 5.2};
	const double b[] = {2.0, 6.1, 7.7, 8.4, 9.9, 10.5};
	double x[60], y[60], t1[28], t2[28];
	double c[12], d[12];
	struct benchstat_utest u;
	(void)state;
	/* scipy.stats.mannwhitneyu(a, b, method='exact').pvalue = 0.05194805194805195 */
	assert_int_equal(benchstat_utest(a, 5, b, 6, &u), 0);
	assert_true(u.exact);
	assert_float_equal(u.p, 0.05194805194805195, 1e-12);
	/* 1..12 against 7.5..18.5: scipy exact p = 0.000495533541703955 */
	for (int i = 0; i < 12; i++) {
		c[i] = i + 1;
		d[i] = i + 7.5;
	}
	assert_int_equal(benchstat_utest(c, 12, d, 12, &u), 0);
	assert_float_equal(u.p, 0.000495533541703955, 1e-13);
	/* 60 each (beyond the exact limit): scipy asymptotic (continuity) p = 0.2926380449192698 */
	for (int i = 0; i < 60; i++) {
		x[i] = (double)((i * 7) % 61);
		y[i] = x[i] + 3.5;
	}
	assert_int_equal(benchstat_utest(x, 60, y, 60, &u), 0);
	assert_false(u.exact);
	assert_float_equal(u.p, 0.2926380449192698, 1e-9);
	/* ties, 28 each (> 25: normal with tie correction): scipy asymptotic 2.1878752752454573e-05
	 */
	for (int i = 0; i < 28; i++) {
		static const double p1[] = {1, 2, 2, 3}, p2[] = {2, 3, 3, 4};
		t1[i] = p1[i % 4];
		t2[i] = p2[i % 4];
	}
	assert_int_equal(benchstat_utest(t1, 28, t2, 28, &u), 0);
	assert_true(u.ties);
	assert_false(u.exact);
	assert_float_equal(u.p, 2.1878752752454573e-05, 1e-12);
	/* all equal: no test, p = 1; equal U: p = 1 */
	assert_int_equal(benchstat_utest(t1, 1, t1, 1, &u), 0);
	assert_float_equal(u.p, 1, 0);
	assert_int_equal(benchstat_utest(a, 5, a, 5, &u), 0);
	assert_float_equal(u.p, 1, 0);
}

static void test_errors(void **state)
{
	struct benchstat_summary s;
	struct benchstat_utest u;
	const double bad[] = {1, NAN};
	(void)state;
	assert_int_not_equal(benchstat_summary(bad, 0, 0.95, &s), 0);
	assert_int_not_equal(benchstat_summary(bad, 2, 0.95, &s), 0);
	assert_int_not_equal(benchstat_utest(bad, 1, bad, 2, &u), 0);
	err_clear();
}

/* ---- benchstat's tables against its own goldens (fixtures/tools/benchstat/README.md) ---- */

static const char *cell_of(const struct table *t, size_t row, const char *col)
{
	int c = table_col(t, col);
	return c < 0 ? "" : t->cells[row][c];
}

/*
 * The runs of a Go file, read by the gobench converter, as observations:
 * the column by the file (col_for_file >= 0) or by arm_field's value
 * (a_value: 0, b_value: 1; the field is then no part of the configuration,
 * as benchstat -col leaves it out of .config).
 */
static void feed(struct benchstat_result *r, const char *file, int col_for_file,
		 const char *arm_field, const char *a_value, const char *b_value)
{
	static const char *const keys[] = {"goos", "goarch", "pkg", "cpu", "note", NULL};
	char path[512], row[256];
	struct table t;
	size_t n;
	char *text;
	snprintf(path, sizeof(path), "%s/tools/benchstat/%s", FIXTURES_DIR, file);
	text = slurp(path, &n);
	assert_int_equal(tool_convert_table(tool_find("gobench"), text, n, file, file, &t), 0);
	for (size_t i = 0; i < t.nrows; i++) {
		const char *config[16];
		size_t k = 0;
		int col = col_for_file;
		struct benchstat_obs o;
		for (size_t j = 0; keys[j]; j++) {
			const char *v = cell_of(&t, i, keys[j]);
			if (arm_field && !strcmp(arm_field, keys[j])) {
				col = !strcmp(v, a_value) ? 0 : !strcmp(v, b_value) ? 1 : -1;
				continue;
			}
			if (*v) {
				config[k++] = keys[j];
				config[k++] = v;
			}
		}
		config[k] = NULL;
		if (col < 0)
			continue;
		benchstat_row_name(cell_of(&t, i, "name"), cell_of(&t, i, "gomaxprocs"), row,
				   sizeof(row));
		o = (struct benchstat_obs){
			row, col, config, "ns/op", strtod(cell_of(&t, i, "ns_per_op"), NULL), file};
		assert_int_equal(benchstat_tables_add(r, &o), 0);
	}
	table_release(&t);
	free(text);
}

static void expect_golden(struct benchstat_result *r, const char *golden)
{
	char path[512];
	struct strbuf out = STRBUF_INIT;
	size_t n;
	char *want;
	snprintf(path, sizeof(path), "%s/tools/benchstat/%s", FIXTURES_DIR, golden);
	want = slurp(path, &n);
	assert_int_equal(benchstat_tables_finish(r), 0);
	assert_int_equal(benchstat_text(r, &out), 0);
	if (strcmp(out.buf ? out.buf : "", want))
		fail_msg("%s differs:\n--- benchstat\n%s--- coreplan\n%s", golden, want, out.buf);
	strbuf_release(&out);
	free(want);
	benchstat_tables_release(r);
}

/* `benchstat old.txt new.txt` (main.go's doc comment, checked there by doc_test.go). */
static void test_golden_old_new(void **state)
{
	struct benchstat_result r;
	(void)state;
	assert_int_equal(benchstat_tables_init(&r, "old.txt", "new.txt", 0.95, 0.05), 0);
	feed(&r, "old.txt", 0, NULL, NULL, NULL);
	feed(&r, "new.txt", 1, NULL, NULL, NULL);
	expect_golden(&r, "oldnew.golden");
}

/* `benchstat -col note X.txt` (main_test.go: TestSmallSample, TestIssue19565, TestIssue19634). */
static void test_golden_col_note(void **state)
{
	static const char *const cases[] = {"smallSample", "issue19565", "issue19634"};
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct benchstat_result r;
		char in[64], out[64];
		snprintf(in, sizeof(in), "%s.txt", cases[i]);
		snprintf(out, sizeof(out), "%s.stdout", cases[i]);
		assert_int_equal(benchstat_tables_init(&r, "before", "after", 0.95, 0.05), 0);
		feed(&r, in, -1, "note", "before", "after");
		expect_golden(&r, out);
	}
}

static void test_units_and_names(void **state)
{
	struct benchstat_unit u;
	char buf[64];
	(void)state;
	benchstat_tidy_unit("ns/op", &u);
	assert_string_equal(u.name, "sec/op");
	assert_true(u.factor == 1e-9 && !u.binary);
	benchstat_tidy_unit("MB/s", &u);
	assert_string_equal(u.name, "B/s");
	assert_true(u.factor == 1e6 && u.binary);
	benchstat_tidy_unit("B/op", &u);
	assert_true(u.factor == 1 && u.binary);
	benchstat_tidy_unit("allocs/op", &u);
	assert_true(u.factor == 1 && !u.binary);
	benchstat_tidy_unit("ns/MB", &u); /* the denominator is left alone */
	assert_string_equal(u.name, "sec/MB");
	benchstat_row_name("BenchmarkEncode/format=json", "48", buf, sizeof(buf));
	assert_string_equal(buf, "Encode/format=json-48");
	benchstat_row_name("BenchmarkX", "1", buf, sizeof(buf));
	assert_string_equal(buf, "X");
	benchstat_go_unit("bytes_per_join", buf, sizeof(buf));
	assert_string_equal(buf, "bytes/join");
	assert_int_equal(benchstat_ci_samples(0.95), 6);
	assert_int_equal(benchstat_utest_samples(0.05), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_benchstat_doc_example),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_utest_against_scipy),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_golden_old_new),
		cmocka_unit_test(test_golden_col_note),
		cmocka_unit_test(test_units_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
