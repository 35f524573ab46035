/* Unit tests for reports/table_out: every format against hand-written output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "reports/table_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The sample: a `|`, a TAB, a newline, quotes, a comma, missing cells in a
 * text and a number column, and numbers.
 */
static struct out_table *sample(void)
{
	static const char *const names[] = {"name", "n", "note"};
	static const char *const rows[][3] = {
		{"a|b", "1", "x,y"},
		{"tab\there", NULL, "say \"hi\""},
		{"two\nlines", "2.5", NULL},
	};
	struct out_table *t = out_table_new(3, names);
	assert_non_null(t);
	out_table_set_kind(t, 1, OUT_NUM);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(out_table_add_row(t, rows[i]), 0);
	assert_int_equal(out_table_rows(t), 3);
	return t;
}

/* Write t in `format` to memory; the caller frees the text. */
static char *render(const struct out_table *t, enum out_format format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	assert_non_null(fp);
	assert_int_equal(out_table_write(t, format, fp), 0);
	assert_int_equal(fclose(fp), 0);
	return text;
}

static void check(const struct out_table *t, enum out_format format, const char *expected)
{
	char *got = render(t, format);
	assert_string_equal(got, expected);
	free(got);
}

static void test_format_parse(void **state)
{
	enum out_format f = OUT_JSON;
	(void)state;
	assert_int_equal(out_format_parse("md", &f), 0);
	assert_int_equal(f, OUT_MD);
	assert_int_equal(out_format_parse("markdown", &f), 0);
	assert_int_equal(f, OUT_MD);
	assert_int_equal(out_format_parse("tsv", &f), 0);
	assert_int_equal(f, OUT_TSV);
	assert_int_equal(out_format_parse("csv", &f), 0);
	assert_int_equal(f, OUT_CSV);
	assert_int_equal(out_format_parse("json", &f), 0);
	assert_int_equal(f, OUT_JSON);
	assert_int_equal(out_format_parse("JSON", &f), -1);
	assert_int_equal(out_format_parse("", &f), -1);
}

static void test_md(void **state)
{
	struct out_table *t = sample();
	(void)state;
	check(t, OUT_MD,
	      "| name      | n   | note     |\n"
	      "|:----------|----:|:---------|\n"
	      "| a\\|b      |   1 | x,y      |\n"
	      "| tab here  |     | say \"hi\" |\n"
	      "| two lines | 2.5 |          |\n");
	out_table_free(t);
}

static void test_tsv(void **state)
{
	struct out_table *t = sample();
	(void)state;
	check(t, OUT_TSV,
	      "name\tn\tnote\n"
	      "a|b\t1\tx,y\n"
	      "tab here\tNA\tsay \"hi\"\n"
	      "two lines\t2.5\tNA\n");
	out_table_free(t);
}

static void test_csv(void **state)
{
	struct out_table *t = sample();
	(void)state;
	check(t, OUT_CSV,
	      "name,n,note\n"
	      "a|b,1,\"x,y\"\n"
	      "tab\there,,\"say \"\"hi\"\"\"\n"
	      "\"two\nlines\",2.5,\n");
	out_table_free(t);
}

static void test_json(void **state)
{
	struct out_table *t = sample();
	(void)state;
	check(t, OUT_JSON,
	      "[\n"
	      "  {\"name\": \"a|b\", \"n\": 1, \"note\": \"x,y\"},\n"
	      "  {\"name\": \"tab\\there\", \"n\": null, \"note\": \"say \\\"hi\\\"\"},\n"
	      "  {\"name\": \"two\\nlines\", \"n\": 2.5, \"note\": null}\n"
	      "]\n");
	out_table_free(t);
}

/* An empty string is not a missing value in csv; blanks at the ends need quotes. */
static void test_csv_quoting_edges(void **state)
{
	static const char *const names[] = {"a", "b", "c"};
	static const char *const row[] = {"", " lead", "plain text"};
	struct out_table *t = out_table_new(3, names);
	(void)state;
	assert_int_equal(out_table_add_row(t, row), 0);
	check(t, OUT_CSV, "a,b,c\n\"\",\" lead\",plain text\n");
	out_table_free(t);
}

/* A number column holding text JSON cannot carry as a number gets a string. */
static void test_json_edges(void **state)
{
	static const char *const names[] = {"x", "s"};
	static const char *const row1[] = {"nan", "ctl\x01 \xff end"};
	static const char *const row2[] = {"1e+21", "caf\xc3\xa9 \\"};
	struct out_table *t = out_table_new(2, names);
	(void)state;
	out_table_set_kind(t, 0, OUT_NUM);
	assert_int_equal(out_table_add_row(t, row1), 0);
	assert_int_equal(out_table_add_row(t, row2), 0);
	check(t, OUT_JSON,
	      "[\n"
	      "  {\"x\": \"nan\", \"s\": \"ctl\\u0001 \\ufffd end\"},\n"
	      "  {\"x\": 1e+21, \"s\": \"caf\xc3\xa9 \\\\\"}\n"
	      "]\n");
	out_table_free(t);
}

static void test_empty_table(void **state)
{
	static const char *const names[] = {"a", "n"};
	struct out_table *t = out_table_new(2, names);
	(void)state;
	out_table_set_kind(t, 1, OUT_NUM);
	out_table_hide_empty_md(t, true); /* no rows: nothing to hide */
	check(t, OUT_MD, "| a   | n   |\n|:----|----:|\n");
	check(t, OUT_TSV, "a\tn\n");
	check(t, OUT_CSV, "a,n\n");
	check(t, OUT_JSON, "[]\n");
	out_table_free(t);
}

static void test_hide_empty_md_only(void **state)
{
	static const char *const names[] = {"a", "gone", "b"};
	static const char *const row1[] = {"x", NULL, "1"};
	static const char *const row2[] = {"yy", NULL, NULL};
	struct out_table *t = out_table_new(3, names);
	(void)state;
	out_table_set_kind(t, 2, OUT_NUM);
	assert_int_equal(out_table_add_row(t, row1), 0);
	assert_int_equal(out_table_add_row(t, row2), 0);
	out_table_hide_empty_md(t, true);
	check(t, OUT_MD,
	      "| a   | b   |\n"
	      "|:----|----:|\n"
	      "| x   |   1 |\n"
	      "| yy  |     |\n");
	check(t, OUT_TSV, "a\tgone\tb\nx\tNA\t1\nyy\tNA\tNA\n");
	out_table_hide_empty_md(t, false);
	check(t, OUT_MD,
	      "| a   | gone | b   |\n"
	      "|:----|:-----|----:|\n"
	      "| x   |      |   1 |\n"
	      "| yy  |      |     |\n");
	out_table_free(t);
}

/* Width counts characters, not bytes. */
static void test_md_utf8_width(void **state)
{
	static const char *const names[] = {"w"};
	static const char *const row1[] = {"\xc2\xb5s"}; /* "µs": 2 characters */
	static const char *const row2[] = {"abcd"};
	struct out_table *t = out_table_new(1, names);
	(void)state;
	assert_int_equal(out_table_add_row(t, row1), 0);
	assert_int_equal(out_table_add_row(t, row2), 0);
	check(t, OUT_MD, "| w    |\n|:-----|\n| \xc2\xb5s   |\n| abcd |\n");
	out_table_free(t);
}

static void test_out_real(void **state)
{
	char buf[32];
	(void)state;
	assert_string_equal(out_real(475.2284019761499, buf), "475.2284019761499");
	assert_string_equal(out_real(0.1, buf), "0.1");
	assert_string_equal(out_real(1e21, buf), "1e+21");
	assert_string_equal(out_real(100, buf), "100");
	assert_string_equal(out_real(-2.5, buf), "-2.5");
	assert_string_equal(out_real(0.1 + 0.2, buf), "0.30000000000000004");
	assert_string_equal(out_real(1.0 / 3.0, buf), "0.3333333333333333");
}

static void test_from_stmt(void **state)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *stmt = NULL;
	struct out_table *t;
	int rc = -1;
	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT 'a' AS s, 7 AS i, 0.1 AS r, NULL AS z "
					    "UNION ALL SELECT 'b|c', NULL, 475.2284019761499, NULL",
					    -1, &stmt, NULL),
			 SQLITE_OK);
	t = out_table_from_stmt(stmt, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(t);
	assert_int_equal(out_table_rows(t), 2);
	check(t, OUT_JSON,
	      "[\n"
	      "  {\"s\": \"a\", \"i\": 7, \"r\": 0.1, \"z\": null},\n"
	      "  {\"s\": \"b|c\", \"i\": null, \"r\": 475.2284019761499, \"z\": null}\n"
	      "]\n");
	check(t, OUT_MD,
	      "| s    | i   | r                 | z   |\n"
	      "|:-----|----:|------------------:|:----|\n"
	      "| a    |   7 |               0.1 |     |\n"
	      "| b\\|c |     | 475.2284019761499 |     |\n");
	out_table_free(t);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
}

/* A failed write is reported, not ignored. */
static void test_write_error(void **state)
{
	struct out_table *t;
	FILE *fp;
	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	t = sample();
	fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	assert_int_equal(out_table_write(t, OUT_TSV, fp), ERR_DATA);
	assert_non_null(strstr(err_msg(), "cannot write output"));
	fclose(fp);
	out_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_md),
		cmocka_unit_test(test_tsv),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv_quoting_edges),
		cmocka_unit_test(test_json_edges),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_hide_empty_md_only),
		cmocka_unit_test(test_md_utf8_width),
		cmocka_unit_test(test_out_real),
		cmocka_unit_test(test_from_stmt),
		cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
