/*
 * Unit tests for analysis/select: the "no runs to analyse" message.
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only), or
 * tests/stat_check.py (the t distribution in the standard library). Where
 * python printed a value with repr(), it is copied verbatim and compared
 * to 1e-12 relative.
 */
#include "analysis_rows.h"

#include "analysis/select.h"

#include <gsl/gsl_errno.h>

static void test_select_no_runs(void **state)
{
	struct selection sel;
	struct run_filter f;
	(void)state;
	memset(&f, 0, sizeof(f));
	memset(&sel, 0, sizeof(sel));
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	check_msg("no runs to analyse (the filter matched no run: check --corpus and --where)");

	/* one run left out by the analysis (not excluded): named, no --include-excluded hint */
	assert_int_equal(selection_leave_out(&sel, "m1-r1", "no trace"), 0);
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	assert_string_equal(
		err_msg(),
		"no runs to analyse (1 run matched but was left out: 'm1-r1': no trace)");

	/* three, the first excluded: a count, the first named, the hint */
	selection_release(&sel);
	assert_int_equal(selection_leave_out(&sel, "g1-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&sel, "g8-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&sel, "g4", "no numeric value for --metric x"), 0);
	sel.left_out[0].excluded = sel.left_out[1].excluded = true;
	assert_int_equal(sel.nleft_out, 3);
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	assert_string_equal(err_msg(),
			    "no runs to analyse (3 runs matched but were left out, e.g. "
			    "'g1-trial': unlisted; --include-excluded keeps excluded runs)");
	/* excluded runs already kept: no hint */
	f.include_excluded = true;
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	assert_null(strstr(err_msg(), "--include-excluded"));
	selection_release(&sel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_select_no_runs),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
