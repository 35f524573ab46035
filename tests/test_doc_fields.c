/*
 * test_doc_fields: tables whose columns are bound to struct members
 * (doc/doc.h, "A table whose rows are an array of structs").
 *
 * The expected cells are the members' values as written in the rows
 * below (by hand), read back through doc_cell_*: each C type's reading,
 * what counts as missing, and that doc_set_fields sets only the columns
 * from..to it is given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "doc/doc.h"

struct sample {
	const char *name;
	char note[16];
	const char *maybe;
	int count;
	long line;
	size_t runs;
	double value;
	bool ok;
	struct {
		double lo;
	} inner;
};

enum {
	NAME,
	NOTE,
	MAYBE,
	NOTE_SET,
	COUNT,
	LINE,
	RUNS,
	VALUE,
	OK,
	OK_INT,
	OK_WORD,
	LO,
	BUILT,
	NCOLS
};

static const struct doc_field cols[NCOLS] = {
	[NAME] = DOC_TEXT_OF("name", struct sample, name),
	[NOTE] = DOC_TEXT_OF("note", struct sample, note),
	[MAYBE] = DOC_TEXT_SET_OF("maybe", struct sample, maybe),
	[NOTE_SET] = DOC_TEXT_SET_OF("note_set", struct sample, note),
	[COUNT] = DOC_INT_OF("count", NULL, struct sample, count),
	[LINE] = DOC_INT_OF("line", NULL, struct sample, line),
	[RUNS] = DOC_INT_OF("runs", "runs", struct sample, runs),
	[VALUE] = DOC_REAL_OF("value", "s", 'g', 6, struct sample, value),
	[OK] = DOC_BOOL_OF("ok", struct sample, ok),
	[OK_INT] = DOC_INT_OF("ok_int", NULL, struct sample, ok),
	[OK_WORD] = DOC_YES_NO_OF("ok_word", struct sample, ok),
	[LO] = DOC_REAL_OF("lo", NULL, 'g', 6, struct sample, inner.lo),
	[BUILT] = DOC_FIELD_NONE(DOC_COL_TEXT("built")),
};

static const struct sample rows[] = {
	{"a", "first", "x", 3, 40L, 7, 1.5, true, {0.25}},
	{NULL, "", "", -1, 0L, 0, NAN, false, {-2}},
};

static struct doc_table *table_of_rows(struct doc **d)
{
	struct doc_section *s;
	struct doc_table *t;
	*d = doc_new("test", "bound columns");
	s = doc_section(*d, "rows", "Rows");
	t = doc_table_of(s, cols, NCOLS);
	doc_rows_of(t, cols, NCOLS, rows, 2, sizeof(rows[0]));
	return t;
}

static void columns_keep_their_specs(void **state)
{
	struct doc *d;
	struct doc_table *t = table_of_rows(&d);
	(void)state;
	assert_int_equal(doc_table_cols(t), NCOLS);
	assert_string_equal(doc_table_col(t, RUNS)->name, "runs");
	assert_string_equal(doc_table_col(t, RUNS)->unit, "runs");
	assert_int_equal(doc_table_col(t, VALUE)->type, DOC_REAL);
	assert_int_equal(doc_table_col(t, OK_WORD)->type, DOC_TEXT);
	assert_int_equal(doc_table_find(t, "lo"), LO);
	doc_free(d);
}

static void each_type_reads_its_member(void **state)
{
	struct doc *d;
	struct doc_table *t = table_of_rows(&d);
	(void)state;
	assert_int_equal(doc_table_rows(t), 2);
	assert_string_equal(doc_cell_text(t, 0, NAME), "a");
	assert_string_equal(doc_cell_text(t, 0, NOTE), "first");
	assert_string_equal(doc_cell_text(t, 0, MAYBE), "x");
	assert_string_equal(doc_cell_text(t, 0, NOTE_SET), "first");
	assert_true(doc_cell_number(t, 0, COUNT) == 3);
	assert_true(doc_cell_number(t, 0, LINE) == 40);
	assert_true(doc_cell_number(t, 0, RUNS) == 7);
	assert_true(doc_cell_number(t, 0, VALUE) == 1.5);
	assert_false(doc_cell_missing(t, 0, OK));
	assert_true(doc_cell_number(t, 0, OK_INT) == 1);
	assert_string_equal(doc_cell_text(t, 0, OK_WORD), "yes");
	assert_true(doc_cell_number(t, 0, LO) == 0.25);
	assert_true(doc_cell_missing(t, 0, BUILT));
	doc_free(d);
}

static void missing_as_documented(void **state)
{
	struct doc *d;
	struct doc_table *t = table_of_rows(&d);
	(void)state;
	/* NULL text and NaN are missing; "" is missing only where asked (TEXT_SET) */
	assert_true(doc_cell_missing(t, 1, NAME));
	assert_false(doc_cell_missing(t, 1, NOTE));
	assert_string_equal(doc_cell_text(t, 1, NOTE), "");
	assert_true(doc_cell_missing(t, 1, MAYBE));
	assert_true(doc_cell_missing(t, 1, NOTE_SET));
	assert_true(doc_cell_missing(t, 1, VALUE));
	/* zero and false are values */
	assert_true(doc_cell_number(t, 1, COUNT) == -1);
	assert_true(doc_cell_number(t, 1, RUNS) == 0);
	assert_true(doc_cell_number(t, 1, OK_INT) == 0);
	assert_string_equal(doc_cell_text(t, 1, OK_WORD), "no");
	assert_true(doc_cell_number(t, 1, LO) == -2);
	doc_free(d);
}

static void a_range_sets_only_its_columns(void **state)
{
	struct doc *d = doc_new("test", "ranges");
	struct doc_table *t = doc_table_of(doc_section(d, "rows", "Rows"), cols, NCOLS);
	(void)state;
	doc_row(t);
	doc_set_fields(t, cols, COUNT, VALUE, &rows[0]);
	doc_set_text(t, BUILT, "by hand");
	for (size_t c = 0; c < NCOLS; c++)
		assert_int_equal(doc_cell_missing(t, 0, c),
				 !(c == COUNT || c == LINE || c == RUNS || c == BUILT));
	assert_true(doc_cell_number(t, 0, LINE) == 40);
	assert_string_equal(doc_cell_text(t, 0, BUILT), "by hand");
	assert_int_equal(doc_error(d), 0);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(columns_keep_their_specs),
		cmocka_unit_test(each_type_reads_its_member),
		cmocka_unit_test(missing_as_documented),
		cmocka_unit_test(a_range_sets_only_its_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
