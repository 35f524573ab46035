/*
 * Unit tests for analysis/memory's slopes on the e2-medium runs of the
 * capacity corpus (gcp-x86-capacity-20260816): the points are copied from
 * its system.tsv (and checked against it, read with plain stdio), the
 * slopes against python3 standard-library OLS, the endpoint slopes and the
 * ratio by hand (the snippet and the numbers are in the comment).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/memory.h"
#include "test_util.h"

#include <string.h>

#define CAPACITY SHARED_CORPORA "/sky/gcp-x86-capacity-20260816"

/*
 * load_app_kb of the e2-medium runs, blocks 1-3 (system.tsv column 13):
 *   awk -F'\t' '$2 == "medium" && $4 ~ /^[123]$/ {print $3, $4, $5, $13}' system.tsv
 *
 * OLS with python3's standard library (t(0.975, 7) = 2.364624 from a table):
 *   import math
 *   def ols(pts):
 *       n = len(pts); mx = sum(x for x, _ in pts) / n; my = sum(y for _, y in pts) / n
 *       sxx = sum((x - mx) ** 2 for x, _ in pts)
 *       sxy = sum((x - mx) * (y - my) for x, y in pts)
 *       syy = sum((y - my) ** 2 for _, y in pts)
 *       b = sxy / sxx; a = my - b * mx
 *       sse = sum((y - a - b * x) ** 2 for x, y in pts)
 *       s2 = sse / (n - 2); se = math.sqrt(s2 / sxx)
 *       return (b, se, b - 2.364624 * se, b + 2.364624 * se, a,
 *               math.sqrt(s2 * (1 / n + mx * mx / sxx)), 1 - sse / syy, math.sqrt(s2))
 * printed with repr():
 *   mem: 478.62333333333333 23.729225266452165 422.51263776687415 534.7340288997925
 *        43409.0 8105.0734339899955 0.983085134324983 11624.898778873201
 *   pg:  636.6066666666667 7.295336627458424 619.3559385892994 653.857394744034
 *        49855.33333333334 2491.8318414222736 0.9990815673922037 3573.9704478219664
 * The interval is compared to 1e-4 relative: the table's t has 7 digits.
 *
 * Endpoint slopes (n 100 -> 500 per block), by hand:
 *   mem b1 (273656 - 92160) / 400 = 453.74   pg b1 (363880 - 113796) / 400 = 625.21
 *   mem b2 (274540 - 94064) / 400 = 451.19   pg b2 (373928 - 114168) / 400 = 649.40
 *   mem b3 (307352 - 94976) / 400 = 530.94   pg b3 (370160 - 116076) / 400 = 635.21
 * Ratio at 100 (contrast): mem median(92160, 94064, 94976) / 100 = 940.64.
 */
static struct memory_point medium_points[] = {
	{"medium-mem-n100-b1r1", "mem", "1", 100, 92160, 0},
	{"medium-mem-n100-b2r1", "mem", "2", 100, 94064, 0},
	{"medium-mem-n100-b3r1", "mem", "3", 100, 94976, 0},
	{"medium-mem-n300-b1r1", "mem", "1", 300, 174932, 0},
	{"medium-mem-n300-b2r1", "mem", "2", 300, 182588, 0},
	{"medium-mem-n300-b3r1", "mem", "3", 300, 188696, 0},
	{"medium-mem-n500-b1r1", "mem", "1", 500, 273656, 0},
	{"medium-mem-n500-b2r1", "mem", "2", 500, 274540, 0},
	{"medium-mem-n500-b3r1", "mem", "3", 500, 307352, 0},
	{"medium-pg-n100-b1r1", "pg", "1", 100, 113796, 0},
	{"medium-pg-n100-b2r1", "pg", "2", 100, 114168, 0},
	{"medium-pg-n100-b3r1", "pg", "3", 100, 116076, 0},
	{"medium-pg-n300-b1r1", "pg", "1", 300, 236176, 0},
	{"medium-pg-n300-b2r1", "pg", "2", 300, 238596, 0},
	{"medium-pg-n300-b3r1", "pg", "3", 300, 240756, 0},
	{"medium-pg-n500-b1r1", "pg", "1", 500, 363880, 0},
	{"medium-pg-n500-b2r1", "pg", "2", 500, 373928, 0},
	{"medium-pg-n500-b3r1", "pg", "3", 500, 370160, 0},
};

/* The copied values are system.tsv's. */
static void test_memory_points_are_system_tsv(void **state)
{
	struct tsv sys;
	size_t found = 0;
	tsv_read(CAPACITY "/system.tsv", &sys);
	for (size_t i = 0; i < ARRAY_LEN(medium_points); i++)
		for (size_t row = 1; row < sys.n; row++)
			if (!strcmp(sys.fields[row][0], medium_points[i].tag)) {
				assert_true(tsv_num(sys.fields[row][tsv_col(&sys, "load_app_kb")]) ==
					    medium_points[i].value);
				assert_true(tsv_num(sys.fields[row][tsv_col(&sys, "level")]) ==
					    medium_points[i].level);
				found++;
			}
	assert_int_equal(found, ARRAY_LEN(medium_points));
	tsv_free(&sys);
}

static const struct memory_fit *fit_of(const struct memory *m, const char *group)
{
	return FIND_NAMED(m->fits, m->nfits, group, group);
}

static void test_memory_medium_slopes(void **state)
{
	static const struct {
		const char *group, *block;
		double slope;
	} ends[] = {{"mem", "1", 453.74}, {"mem", "2", 451.19}, {"mem", "3", 530.94},
		    {"pg", "1", 625.21},  {"pg", "2", 649.40},  {"pg", "3", 635.21}};
	struct memory m;
	const struct memory_fit *mem, *pg;
	double sum_res[2] = {0, 0};
	assert_int_equal(memory_compute(medium_points, ARRAY_LEN(medium_points), &m), 0);
	assert_int_equal(m.nfits, 2);
	mem = fit_of(&m, "mem");
	pg = fit_of(&m, "pg");
	assert_true(mem->ok && pg->ok);
	assert_int_equal(mem->ols.n, 9);
	assert_int_equal(mem->nlevels, 3);

	check_close(mem->ols.slope, 478.62333333333333, 1e-12, "mem slope");
	check_close(mem->ols.slope_se, 23.729225266452165, 1e-9, "mem slope_se");
	check_close(mem->ols.slope_lo, 422.51263776687415, 1e-4, "mem slope_lo");
	check_close(mem->ols.slope_hi, 534.7340288997925, 1e-4, "mem slope_hi");
	check_close(mem->ols.intercept, 43409.0, 1e-12, "mem intercept");
	check_close(mem->ols.intercept_se, 8105.0734339899955, 1e-9, "mem intercept_se");
	check_close(mem->ols.r2, 0.983085134324983, 1e-12, "mem r2");
	check_close(mem->ols.residual_se, 11624.898778873201, 1e-9, "mem residual_se");

	check_close(pg->ols.slope, 636.6066666666667, 1e-12, "pg slope");
	check_close(pg->ols.slope_se, 7.295336627458424, 1e-9, "pg slope_se");
	check_close(pg->ols.slope_lo, 619.3559385892994, 1e-4, "pg slope_lo");
	check_close(pg->ols.slope_hi, 653.857394744034, 1e-4, "pg slope_hi");
	check_close(pg->ols.intercept, 49855.33333333334, 1e-12, "pg intercept");
	check_close(pg->ols.intercept_se, 2491.8318414222736, 1e-9, "pg intercept_se");
	check_close(pg->ols.r2, 0.9990815673922037, 1e-12, "pg r2");
	check_close(pg->ols.residual_se, 3573.9704478219664, 1e-9, "pg residual_se");

	/* postgres costs more per session than the memory store, beyond the intervals */
	assert_true(pg->ols.slope > mem->ols.slope);
	assert_true(pg->ols.slope_lo > mem->ols.slope_hi);

	/* endpoints */
	assert_int_equal(m.nendpoints, ARRAY_LEN(ends));
	for (size_t i = 0; i < ARRAY_LEN(ends); i++) {
		bool seen = false;
		for (size_t j = 0; j < m.nendpoints; j++)
			if (!strcmp(m.endpoints[j].group, ends[i].group) &&
			    !strcmp(m.endpoints[j].block, ends[i].block)) {
				check_close(m.endpoints[j].slope, ends[i].slope, 1e-12,
					  "endpoint slope");
				assert_true(m.endpoints[j].level_lo == 100);
				assert_true(m.endpoints[j].level_hi == 500);
				seen = true;
			}
		assert_true(seen);
	}

	/* ratios: the contrast, higher than the slope at every level */
	assert_int_equal(m.nratios, 6);
	for (size_t i = 0; i < m.nratios; i++) {
		const struct memory_fit *f = fit_of(&m, m.ratios[i].group);
		assert_int_equal(m.ratios[i].n, 3);
		assert_true(m.ratios[i].ratio > f->ols.slope);
		if (!strcmp(m.ratios[i].group, "mem") && m.ratios[i].level == 100)
			check_close(m.ratios[i].ratio, 940.64, 1e-12, "mem ratio at 100");
	}

	/* residuals of an OLS fit with an intercept sum to zero per group */
	for (size_t i = 0; i < ARRAY_LEN(medium_points); i++) {
		const struct memory_point *p = &medium_points[i];
		const struct memory_fit *f = fit_of(&m, p->group);
		check_close(p->residual + f->ols.intercept + f->ols.slope * p->level, p->value, 1e-12,
			  "residual");
		sum_res[strcmp(p->group, "mem") != 0] += p->residual;
	}
	check_abs(sum_res[0], 0, 1e-6, "sum of mem residuals");
	check_abs(sum_res[1], 0, 1e-6, "sum of pg residuals");
	memory_release(&m);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_points_are_system_tsv),
		cmocka_unit_test(test_memory_medium_slopes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
