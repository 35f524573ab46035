/*
 * Unit tests for importers/table: headed TSV/CSV read with libcsv.
 * Inputs are written into a mkdtemp directory; the real corpora come from
 * SHARED_CORPORA (set by tests/CMakeLists.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "importers/table.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SHARED_CORPORA
#define SHARED_CORPORA "../shared/corpora"
#endif

/* Read a file that must be refused, and check the whole message. */
static void expect_error(const char *path, const char *display, const char *message)
{
	struct table t;
	int rc = table_read(path, display, TABLE_SNIFF, &t);
	assert_int_equal(rc, ERR_DATA);
	assert_string_equal(err_msg(), message);
	/* refused: nothing is left to free, and release is still safe */
	assert_null(t.header);
	assert_null(t.cells);
	table_release(&t);
}

/* The literal text, written as NAME, reads (sniffed) into T; a refusal fails with its message. */
#define READ_OK(name, literal, t) read_ok(PUT(name, literal), name, t)
static void read_ok(const char *path, const char *display, struct table *t)
{
	if (table_read(path, display, TABLE_SNIFF, t) != 0)
		fail_msg("%s refused: %s", display, err_msg());
}

static void test_simple_tsv(void **state)
{
	struct table t;
	(void)state;
	READ_OK("simple.tsv",
		"run\ttput\n"
		"g1\t475.2\n"
		"g2\t853\n",
		&t);
	assert_int_equal(t.delimiter, '\t');
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.header[0], "run");
	assert_string_equal(t.header[1], "tput");
	assert_string_equal(t.cells[0][0], "g1");
	assert_string_equal(t.cells[0][1], "475.2");
	assert_string_equal(t.cells[1][1], "853");
	assert_int_equal(t.lines[0], 2);
	assert_int_equal(t.lines[1], 3);
	assert_string_equal(t.display_path, "simple.tsv");
	assert_int_equal(table_col(&t, "tput"), 1);
	assert_int_equal(table_col(&t, "run"), 0);
	assert_int_equal(table_col(&t, "nope"), -1);
	table_release(&t);
	table_release(&t); /* twice is harmless */
}

static void test_bom_crlf(void **state)
{
	struct table t;
	(void)state;
	READ_OK("bom.csv",
		"\xEF\xBB\xBF"
		"a,b\r\n"
		"1,2\r\n"
		"3,4\r\n",
		&t);
	assert_int_equal(t.delimiter, ',');
	assert_string_equal(t.header[0], "a"); /* BOM stripped */
	assert_string_equal(t.header[1], "b"); /* no CR left */
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.cells[1][1], "4");
	assert_int_equal(t.lines[1], 3);
	table_release(&t);
}

static void test_no_final_newline(void **state)
{
	struct table t;
	(void)state;
	READ_OK("nofinal.tsv", "a\tb\n1\t2\n3\t4", &t);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.cells[1][0], "3");
	assert_string_equal(t.cells[1][1], "4");
	table_release(&t);
}

static void test_quoted_csv(void **state)
{
	struct table t;
	(void)state;
	READ_OK("quoted.csv",
		"name,note,n\n"
		"\"tab\there\",\"two\nlines\",1\n"
		"\"say \"\"hi\"\"\",\"a,b\",2\n"
		"plain, spaced ,\"\"\n",
		&t);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.cells[0][0], "tab\there");
	assert_string_equal(t.cells[0][1], "two\nlines");
	assert_int_equal(t.lines[0], 2);
	assert_string_equal(t.cells[1][0], "say \"hi\"");
	assert_string_equal(t.cells[1][1], "a,b");
	assert_int_equal(t.lines[1], 4);                /* the quoted newline took a line */
	assert_string_equal(t.cells[2][1], " spaced "); /* never trimmed */
	assert_string_equal(t.cells[2][2], "");         /* empty, not NULL */
	table_release(&t);
}

static void test_tsv_spaces_and_empty_cells(void **state)
{
	struct table t;
	(void)state;
	READ_OK("spaces.tsv",
		"a\tb\tc\n"
		" x \t\t\n",
		&t);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(t.cells[0][0], " x ");
	assert_string_equal(t.cells[0][1], "");
	assert_string_equal(t.cells[0][2], "");
	table_release(&t);
}

static void test_sniff_by_content(void **state)
{
	struct table t;
	const char *comma = PUT("catalog", "a,b,c\n1,2,3\n");
	const char *tab = PUT("catalog2", "a\tb,c\n1\t2,3\n");
	(void)state;
	assert_int_equal(table_read(comma, "catalog", TABLE_SNIFF, &t), 0);
	assert_int_equal(t.delimiter, ',');
	assert_int_equal(t.ncols, 3);
	table_release(&t);
	assert_int_equal(table_read(tab, "catalog2", TABLE_SNIFF, &t), 0);
	assert_int_equal(t.delimiter, '\t');
	assert_int_equal(t.ncols, 2);
	assert_string_equal(t.cells[0][1], "2,3");
	table_release(&t);
	/* an explicit delimiter wins over the extension */
	assert_int_equal(table_read(comma, "catalog.tsv", TABLE_COMMA, &t), 0);
	assert_int_equal(t.ncols, 3);
	table_release(&t);
}

static void test_header_only(void **state)
{
	struct table t;
	(void)state;
	READ_OK("header.tsv", "a\tb\n", &t);
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.nrows, 0);
	table_release(&t);
}

static void test_trailing_blank_lines(void **state)
{
	struct table t;
	(void)state;
	READ_OK("trailing.tsv", "a\tb\n1\t2\n\n\r\n\n", &t);
	assert_int_equal(t.nrows, 1);
	table_release(&t);
}

static void test_blank_line_in_quoted_field(void **state)
{
	struct table t;
	(void)state;
	READ_OK("blankq.csv", "a,b\n1,\"x\n\ny\"\n2,3\n", &t);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.cells[0][1], "x\n\ny");
	assert_int_equal(t.lines[1], 5);
	table_release(&t);
}

/* Texts a table read refuses, each with its whole message (written by hand). */
struct refusal {
	const char *name; /* the file's name, also the display path */
	const char *text;
	size_t len;
	const char *message;
};
#define REFUSAL(name, literal, message)                                                            \
	{                                                                                          \
		name, literal, sizeof(literal) - 1, message                                        \
	}

static const struct refusal refusals[] = {
	REFUSAL("few.tsv", "a\tb\tc\n1\t2\t3\n4\t5\n",
		"few.tsv:3:3: row has 2 fields, header has 3"),
	REFUSAL("many.tsv", "a\tb\tc\n1\t2\t3\n4\t5\t6\t7\t8\n",
		"many.tsv:3:4: row has 5 fields, header has 3"),
	REFUSAL("one.tsv", "a\tb\tc\nx\n", "one.tsv:2:2: row has 1 field, header has 3"),
	/* the line named is where the record starts, not where it ends */
	REFUSAL("multi.csv", "a,b\n\"x\ny\",2,3\n",
		"multi.csv:2:3: row has 3 fields, header has 2"),
	REFUSAL("dup.tsv", "run\ttput\tp50\ttput\n",
		"dup.tsv:1:4: duplicate column 'tput' in header (also column 2)"),
	REFUSAL("dup3.tsv", "a\tb\ta\ta\n",
		"dup3.tsv:1:3: duplicate column 'a' in header (also column 1)"),
	REFUSAL("emptycol.tsv", "a\t\tc\n1\t2\t3\n",
		"emptycol.tsv:1:2: empty column name in header"),
	REFUSAL("emptycol2.csv", "a,b,\n", "emptycol2.csv:1:3: empty column name in header"),
	/* a NUL is found before parsing, so col is its byte column: x, TAB, y, NUL = 4 */
	REFUSAL("nul.tsv", "a\tb\n1\t2\nx\ty\0z\n",
		"nul.tsv:3:4: NUL byte: binary data, not a text table"),
	REFUSAL("empty.tsv", "", "empty.tsv: file is empty"),
	REFUSAL("bomonly.csv", "\xEF\xBB\xBF", "bomonly.csv: file is empty"),
	REFUSAL("blanks.tsv", "\n\n", "blanks.tsv: file is empty"),
	REFUSAL("blank.tsv", "a\tb\n1\t2\n\n3\t4\n",
		"blank.tsv:3: blank line in the middle of the table"),
	REFUSAL("blankcrlf.csv", "a,b\r\n1,2\r\n\r\n3,4\r\n",
		"blankcrlf.csv:3: blank line in the middle of the table"),
	REFUSAL("lead.tsv", "\na\tb\n", "lead.tsv:1: blank line before the header"),
	REFUSAL("unterm.csv", "a,b\n1,2\n3,\"open\nstill open\n",
		"unterm.csv:3:2: unterminated quoted field"),
	REFUSAL("badquote.csv", "a,b\n1,x\"y\n",
		"badquote.csv:2:2: malformed quoted field (a field with a quote must be "
		"quoted, and the quote doubled)"),
	REFUSAL("afterquote.csv", "a,b\n\"x\"y,2\n",
		"afterquote.csv:2:1: malformed quoted field (a field with a quote must be "
		"quoted, and the quote doubled)"),
};

static void test_refusals(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(refusals); i++) {
		const struct refusal *r = &refusals[i];
		expect_error(tmp_put(r->name, r->text, r->len), r->name, r->message);
	}
	expect_error(tmp_dir(), "folder.tsv",
		     "'folder.tsv' is a folder, not a regular file: not read");
}

static void test_missing_file(void **state)
{
	struct table t;
	char path[400];
	(void)state;
	snprintf(path, sizeof(path), "%s/does-not-exist.tsv", tmp_dir());
	assert_int_equal(table_read(path, "runs/x.tsv", TABLE_SNIFF, &t), ERR_DATA);
	assert_string_equal(err_msg(), "cannot open 'runs/x.tsv': No such file or directory");
	table_release(&t);
}

/* A field over the 16 MiB cap is refused; one at the cap is read. */
static void test_field_cap(void **state)
{
	const size_t cap = (size_t)16 << 20;
	char *data = malloc(cap + 32);
	struct table t;
	const char *path;
	(void)state;
	assert_non_null(data);
	memcpy(data, "h\n", 2);
	memset(data + 2, 'x', cap);
	data[2 + cap] = '\n';
	path = tmp_put("atcap.tsv", data, cap + 3);
	assert_int_equal(table_read(path, "atcap.tsv", TABLE_SNIFF, &t), 0);
	assert_int_equal(strlen(t.cells[0][0]), cap);
	table_release(&t);

	memset(data + 2, 'x', cap + 1);
	data[3 + cap] = '\n';
	path = tmp_put("overcap.tsv", data, cap + 4);
	expect_error(path, "overcap.tsv", "overcap.tsv:2:1: field longer than 16 MiB");
	free(data);
}

static void test_column_cap(void **state)
{
	size_t n = 100001;
	char *data = malloc(n * 8 + 2);
	size_t len = 0;
	(void)state;
	assert_non_null(data);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(data + len, "%sc%zu", i ? "\t" : "", i);
	data[len++] = '\n';
	expect_error(tmp_put("wide.tsv", data, len), "wide.tsv",
		     "wide.tsv:1:100001: more than 100000 fields in a row");
	/* 100,000 distinct columns are fine (and checked for duplicates fast) */
	len = 0;
	for (size_t i = 0; i < n - 1; i++)
		len += (size_t)sprintf(data + len, "%sc%zu", i ? "\t" : "", i);
	data[len++] = '\n';
	{
		struct table t;
		const char *path = tmp_put("wide-ok.tsv", data, len);
		assert_int_equal(table_read(path, "wide-ok.tsv", TABLE_SNIFF, &t), 0);
		assert_int_equal(t.ncols, 100000);
		assert_string_equal(t.header[99999], "c99999");
		table_release(&t);
	}
	free(data);
}

/* A line longer than the reader's chunk is fed in pieces. */
static void test_long_line(void **state)
{
	size_t n = 300000;
	char *data = malloc(n + 16);
	struct table t;
	const char *path;
	(void)state;
	assert_non_null(data);
	memcpy(data, "a\tb\r\n", 5);
	memset(data + 5, 'y', n);
	memcpy(data + 5 + n, "\tz\r\n", 4);
	path = tmp_put("long.tsv", data, n + 9);
	assert_int_equal(table_read(path, "long.tsv", TABLE_SNIFF, &t), 0);
	assert_int_equal(t.nrows, 1);
	assert_int_equal(strlen(t.cells[0][0]), n);
	assert_string_equal(t.cells[0][1], "z");
	table_release(&t);
	free(data);
}

static void test_real_gomaxprocs_results(void **state)
{
	struct table t;
	(void)state;
	assert_int_equal(table_read(SHARED_CORPORA "/sky/gomaxprocs-scaling-20260816/results.tsv",
				    "results.tsv", TABLE_SNIFF, &t),
			 0);
	assert_int_equal(t.ncols, 25);
	assert_int_equal(t.nrows, 24);
	assert_int_equal(t.delimiter, '\t');
	assert_true(table_col(&t, "tput") >= 0);
	assert_true(table_col(&t, "window_rows") == 24);
	assert_string_equal(t.cells[0][table_col(&t, "tput")], "475.2284019761499");
	assert_int_equal(t.lines[0], 2);
	assert_int_equal(t.lines[23], 25);
	table_release(&t);
}

static void test_real_capacity_results(void **state)
{
	struct table t;
	(void)state;
	assert_int_equal(table_read(SHARED_CORPORA "/sky/gcp-x86-capacity-20260816/results.tsv",
				    "results.tsv", TABLE_SNIFF, &t),
			 0);
	assert_int_equal(t.ncols, 33);
	assert_int_equal(t.nrows, 47);
	assert_int_equal(table_col(&t, "target"), 0);
	assert_int_equal(table_col(&t, "interactions"), 32);
	assert_string_equal(t.cells[0][table_col(&t, "fsync")], "NA");
	table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_tsv),
		cmocka_unit_test(test_bom_crlf),
		cmocka_unit_test(test_no_final_newline),
		cmocka_unit_test(test_quoted_csv),
		cmocka_unit_test(test_tsv_spaces_and_empty_cells),
		cmocka_unit_test(test_sniff_by_content),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_trailing_blank_lines),
		cmocka_unit_test(test_blank_line_in_quoted_field),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_field_cap),
		cmocka_unit_test(test_column_cap),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_real_gomaxprocs_results),
		cmocka_unit_test(test_real_capacity_results),
	};
	return cmocka_run_group_tests_name("table", tests, tmp_dir_make, tmp_dir_remove);
}
