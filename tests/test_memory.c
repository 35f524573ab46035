/*
 * Unit tests for the memory document (reports/build_memory.c).
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only), or
 * tests/stat_check.py (the t distribution in the standard library). Where
 * python printed a value with repr(), it is copied verbatim and compared
 * to 1e-12 relative.
 */
#include "analysis_rows.h"

#include "analysis/memory.h"
#include "reports/builders.h"

#include <gsl/gsl_errno.h>

/*
 * gcp-x86-capacity-20260816/system.tsv, target medium, cfg pg, blocks 1-3:
 * level, load_app_kb (= load_rss_kb). python3 OLS: slope
 * 636.6066666666667, intercept 49855.33333333334, slope SE
 * 7.295336627458424, r2 0.9990815673922037.
 */
static const struct {
	const char *tag, *block;
	double level, value;
} mem_pg[] = {
	{"medium-pg-n100-b1r1", "1", 100, 113796}, {"medium-pg-n300-b1r1", "1", 300, 236176},
	{"medium-pg-n500-b1r1", "1", 500, 363880}, {"medium-pg-n100-b2r1", "2", 100, 114168},
	{"medium-pg-n300-b2r1", "2", 300, 238596}, {"medium-pg-n500-b2r1", "2", 500, 373928},
	{"medium-pg-n100-b3r1", "3", 100, 116076}, {"medium-pg-n300-b3r1", "3", 300, 240756},
	{"medium-pg-n500-b3r1", "3", 500, 370160},
};

static void mem_points(struct memory_result *res, const char *group2)
{
	size_t n = ARRAY_LEN(mem_pg) + (group2 ? 1 : 0);
	memset(res, 0, sizeof(*res));
	res->points = calloc(n, sizeof(*res->points));
	assert_non_null(res->points);
	for (size_t i = 0; i < ARRAY_LEN(mem_pg); i++) {
		res->points[i].tag = mem_pg[i].tag;
		res->points[i].group = "cfg=pg";
		res->points[i].block = mem_pg[i].block;
		res->points[i].level = mem_pg[i].level;
		res->points[i].value = mem_pg[i].value;
	}
	if (group2) {
		/* a group with one run at one level: no slope */
		res->points[n - 1].tag = "lonely";
		res->points[n - 1].group = group2;
		res->points[n - 1].level = 100;
		res->points[n - 1].value = 90000;
	}
	res->npoints = n;
	assert_int_equal(memory_compute(res->points, res->npoints, &res->mem), 0);
}

/*
 * The residuals table is streamed (made when written): its rows as the
 * tsv writer prints them. Row `row`'s residual cell as text (NULL past the
 * last row); *nrows: the rows below the header.
 */
static char *residual_cell(const struct doc *d, size_t row, size_t *nrows)
{
	struct memout m;
	char *text, *line, *save = NULL, *found = NULL;
	size_t k = 0;
	assert_int_equal(doc_write(d, DOC_TSV, "residuals", memout_open(&m)), 0);
	text = memout_text(&m);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), k++) {
		const char *cell = strrchr(line, '\t'); /* residual: the last column */
		if (k == 0)
			assert_non_null(strstr(line, "\tresidual"));
		else if (k - 1 == row && cell)
			found = strdup(cell + 1);
	}
	*nrows = k ? k - 1 : 0;
	free(text);
	return found;
}

static void test_memory_document(void **state)
{
	struct memory_request req = {.by = "sessions"};
	struct memory_result res;
	struct doc *d = NULL;
	char *cell;
	size_t nrows;
	(void)state;
	mem_points(&res, NULL);
	assert_int_equal(build_memory(&req, &res, &d), 0);
	check_sections(d, "slopes,endpoints,ratios,residuals");
	check_fact_text(d, "metric", "load_rss_kb");
	check_fact_text(d, "by", "sessions");
	check_close(doc_fact_number(d, "runs"), 9, 0, "runs");
	/* one group: its figures are facts as well as cells */
	check_close(doc_fact_number(d, "slope"), 636.6066666666667, REL, "slope");
	check_close(doc_fact_number(d, "intercept"), 49855.33333333334, REL, "intercept");
	check_close(doc_fact_number(d, "slope_se"), 7.295336627458424, 1e-10, "slope se");
	check_close(doc_fact_number(d, "r2"), 0.9990815673922037, 1e-12, "r2");
	check_close(cell_of_doc(d, "slopes", 0, "slope"), doc_fact_number(d, "slope"), 0, "cell");
	assert_int_equal(rows_of(d, "endpoints"), 3);
	/* by hand: (363880 - 113796) / (500 - 100) = 625.21; 114168 / 100 = 1141.68 */
	check_close(cell_of_doc(d, "endpoints", 0, "slope"), 625.21, REL, "endpoint b1");
	assert_int_equal(rows_of(d, "ratios"), 3);
	check_close(cell_of_doc(d, "ratios", 0, "ratio"), 1141.68, REL, "ratio 100");
	cell = residual_cell(d, 0, &nrows);
	assert_int_equal(nrows, 9);
	assert_non_null(cell);
	check_close(strtod(cell, NULL), 113796 - (49855.33333333334 + 636.6066666666667 * 100),
		    1e-9, "residual");
	free(cell);
	doc_free(d);
	memory_result_release(&res);

	/* two groups: the slopes table carries them, no slope fact; no fit: NaN residual */
	mem_points(&res, "cfg=one");
	assert_int_equal(build_memory(&req, &res, &d), 0);
	assert_int_equal(rows_of(d, "slopes"), 2);
	assert_null(doc_fact_shown(d, "slope"));
	check_close(doc_fact_number(d, "groups"), 2, 0, "groups");
	assert_true(isnan(cell_of_doc(d, "slopes", 1, "slope")));
	cell = residual_cell(d, 9, &nrows);
	assert_int_equal(nrows, 10);
	assert_string_equal(cell, "NA"); /* no fit, no residual */
	free(cell);
	doc_free(d);
	memory_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_document),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
