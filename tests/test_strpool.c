/*
 * Unit tests for common/strpool: interned texts are one pointer per
 * distinct text, copies are exact, and every text outlives any number of
 * later ones (chunks are never moved). The expected values are the inputs
 * themselves, compared with strcmp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/strpool.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_intern_same_pointer(void **state)
{
	struct strpool pool = STRPOOL_INIT;
	char a[] = "gomaxprocs=4", b[] = "gomaxprocs=4";
	char *pa, *pb, *pc;
	(void)state;
	pa = strpool_intern(&pool, a);
	pb = strpool_intern(&pool, b);
	pc = strpool_intern(&pool, "gomaxprocs=8");
	assert_non_null(pa);
	assert_ptr_equal(pa, pb);
	assert_ptr_not_equal(pa, pc);
	assert_ptr_not_equal(pa, a); /* a copy, not the caller's buffer */
	assert_string_equal(pa, "gomaxprocs=4");
	assert_string_equal(pc, "gomaxprocs=8");
	assert_null(strpool_intern(&pool, NULL));
	strpool_release(&pool);
}

/* a prefix is a different text: "ab" interned after "abc" is not "abc" */
static void test_intern_n_prefix(void **state)
{
	struct strpool pool = STRPOOL_INIT;
	char *abc, *ab, *ab2, *empty;
	(void)state;
	abc = strpool_intern(&pool, "abc");
	ab = strpool_intern_n(&pool, "abcdef", 2);
	ab2 = strpool_intern(&pool, "ab");
	empty = strpool_intern_n(&pool, "x", 0);
	assert_string_equal(abc, "abc");
	assert_string_equal(ab, "ab");
	assert_ptr_equal(ab, ab2);
	assert_ptr_not_equal(ab, abc);
	assert_string_equal(empty, "");
	assert_ptr_equal(empty, strpool_intern(&pool, ""));
	strpool_release(&pool);
}

/* 20,000 distinct texts (the table grows, chunks fill) and one longer than a chunk */
static void test_many_and_long(void **state)
{
	enum { N = 20000 };
	struct strpool pool = STRPOOL_INIT;
	static char *kept[N];
	char text[32], *big = malloc(200000), *pbig;
	(void)state;
	assert_non_null(big);
	memset(big, 'x', 199999);
	big[199999] = '\0';
	for (int i = 0; i < N; i++) {
		snprintf(text, sizeof(text), "run-%d", i);
		kept[i] = i % 2 ? strpool_intern(&pool, text)
				: strpool_copy_n(&pool, text, strlen(text));
		assert_non_null(kept[i]);
	}
	pbig = strpool_intern(&pool, big);
	assert_string_equal(pbig, big);
	for (int i = 0; i < N; i++) {
		snprintf(text, sizeof(text), "run-%d", i);
		assert_string_equal(kept[i], text);
		if (i % 2)
			assert_ptr_equal(strpool_intern(&pool, text), kept[i]);
	}
	/* a copy is never interned: a second copy of the same text is another pointer */
	assert_ptr_not_equal(strpool_copy_n(&pool, "run-0", 5), kept[0]);
	strpool_release(&pool);
	assert_null(pool.chunks);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern_same_pointer),
		cmocka_unit_test(test_intern_n_prefix),
		cmocka_unit_test(test_many_and_long),
	};
	return cmocka_run_group_tests_name("strpool", tests, NULL, NULL);
}
