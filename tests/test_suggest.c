/*
 * Unit tests for common/suggest (did-you-mean) and common/strvec. The
 * distances are the textbook ones, counted by hand: kitten -> sitting is
 * 3 (k->s, e->i, +g), a swap of two adjacent letters is 1 (Damerau), and
 * "ca" -> "abc" is 3 in the optimal-string-alignment form this module
 * computes (a swapped pair is not edited again; unrestricted Damerau says 2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/strvec.h"
#include "common/suggest.h"

#include <string.h>

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("abc", ""), 3);
	assert_int_equal(suggest_distance("sweep", "sweep"), 0);
	assert_int_equal(suggest_distance("swep", "sweep"), 1);  /* one letter left out */
	assert_int_equal(suggest_distance("mdoe", "mode"), 1);   /* one swap */
	assert_int_equal(suggest_distance("ca", "abc"), 3);      /* OSA, not full Damerau */
	assert_int_equal(suggest_distance("SWEEP", "sweep"), 0); /* case does not count */
	assert_int_equal(suggest_distance("gomaxproc", "gomaxprocs"), 1);
	char long_word[80];
	memset(long_word, 'a', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	assert_true(suggest_distance(long_word, "a") == SIZE_MAX);
}

static const char *best_of(const char *word, const char *const *names)
{
	static struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; names[i]; i++)
		suggest_offer(&s, names[i]);
	return suggest_best(&s);
}

static void test_best(void **state)
{
	static const char *const commands[] = {"import", "runs",  "report", "sweep",  "size",
					       "smt",    "noise", "fit",    "memory", NULL};
	static const char *const fields[] = {"gomaxprocs", "sessions", "block", "tput", NULL};
	(void)state;
	assert_string_equal(best_of("swep", commands), "sweep");
	assert_string_equal(best_of("sweeep", commands), "sweep");
	assert_string_equal(best_of("improt", commands), "import");
	assert_string_equal(best_of("reprot", commands), "report");
	assert_string_equal(best_of("gomaxproc", fields), "gomaxprocs");
	assert_string_equal(best_of("sesions", fields), "sessions");
	/* ties keep the first offered: "sie" is 1 from size only (smt is 2) */
	assert_string_equal(best_of("sie", commands), "size");
	/* too far: 2 edits in a word of 4 letters, or as many edits as letters */
	assert_null(best_of("xyzw", commands));
	assert_null(best_of("zz", commands));
	assert_null(best_of("frobnicate", commands));
	assert_null(best_of("", commands));
}

static void test_strvec_push_split(void **state)
{
	struct strvec sv = STRVEC_INIT;
	(void)state;
	assert_null(sv.v);
	assert_null(strvec_list(&sv));
	assert_int_equal(strvec_push(&sv, "a"), 0);
	assert_int_equal(strvec_pushf(&sv, "%s-%d", "b", 2), 0);
	assert_int_equal(strvec_pushn(&sv, "cdef", 1), 0);
	assert_int_equal(sv.n, 3);
	assert_string_equal(sv.v[0], "a");
	assert_string_equal(sv.v[1], "b-2");
	assert_string_equal(sv.v[2], "c");
	assert_null(sv.v[3]);
	/* pieces trimmed, empty ones skipped */
	assert_int_equal(strvec_split(&sv, " target , ,cfg,", ","), 2);
	assert_int_equal(sv.n, 5);
	assert_string_equal(sv.v[3], "target");
	assert_string_equal(sv.v[4], "cfg");
	assert_null(sv.v[5]);
	assert_int_equal(strvec_split(&sv, ",, ,", ","), 0);
	assert_int_equal(sv.n, 5);
	/* several separators: words */
	assert_int_equal(strvec_split(&sv, "a\tb  c", " \t"), 3);
	assert_int_equal(sv.n, 8);
	assert_string_equal(sv.v[6], "b");
	assert_string_equal(sv.v[7], "c");
	assert_true(strvec_has(&sv, "cfg"));
	assert_false(strvec_has(&sv, "cf"));
	/* many pushes: the array grows and stays NULL-terminated */
	for (int i = 0; i < 100; i++)
		assert_int_equal(strvec_pushf(&sv, "x%d", i), 0);
	assert_int_equal(sv.n, 108);
	assert_string_equal(sv.v[107], "x99");
	assert_null(sv.v[108]);
	strvec_clear(&sv);
	assert_null(sv.v);
	assert_int_equal(sv.n, 0);
	strvec_clear(&sv); /* twice is fine */
}

static void test_trim(void **state)
{
	char a[] = "  key = value \t\r";
	char b[] = "\t\t";
	char c[] = "x";
	(void)state;
	assert_string_equal(str_trim(a), "key = value");
	assert_string_equal(str_trim(b), "");
	assert_string_equal(str_trim(c), "x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_best),
		cmocka_unit_test(test_strvec_push_split),
		cmocka_unit_test(test_trim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
