/*
 * test_term: the terminal writer, "text" (doc/write_term.c, doc/term_table.c)
 * and its number scaling (common/units_display.c).
 *
 * Scaling is checked against Go benchstat's own expectations: the values
 * and strings of golang.org/x/perf benchunit/scale_test.go (TestScale,
 * Decimal and Binary classes; each value and the next double towards zero),
 * with our units attached (benchstat prints "100.0m" for a decimal value
 * where a time here prints "100.0 ms"). Layouts are written out by hand
 * from the rules in doc/term_table.c.
 */
/* cmocka needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "doc/term.h"
#include "test_util.h"

static char *text_of(const struct doc *d, const char *view, int width)
{
	struct memout m;
	assert_int_equal(doc_write_text(d, memout_open(&m), view, width), 0);
	return memout_text(&m);
}

/* One value on its own scale, as "number unit". */
static void scaled(double value, const char *unit, const char *want)
{
	struct units_prefix s;
	char buf[48], got[96];
	assert_true(units_prefix_for(fabs(value), unit, &s));
	snprintf(got, sizeof(got), "%s %s", units_prefix_format(&s, value, buf), s.unit);
	assert_string_equal(got, want);
}

/* benchunit TestScale, Decimal: a time in seconds steps s, ms, µs, ns. */
static void times_scale_as_benchstat(void **state)
{
	(void)state;
	scaled(0, "s", "0.000 s");
	scaled(1, "s", "1.000 s");
	scaled(-1, "s", "-1.000 s");
	scaled(99.995, "s", "100.0 s");
	scaled(nextafter(99.995, 0), "s", "99.99 s");
	scaled(9.9995, "s", "10.00 s");
	scaled(nextafter(9.9995, 0), "s", "9.999 s");
	scaled(.99995, "s", "1.000 s");
	scaled(nextafter(.99995, 0), "s", "999.9 ms");
	scaled(.099995, "s", "100.0 ms");
	scaled(.0099995, "s", "10.00 ms");
	scaled(.00099995, "s", "1.000 ms");
	scaled(nextafter(.00099995, 0), "s", "999.9 \xc2\xb5s");
	scaled(.000099995, "s", "100.0 \xc2\xb5s");
	scaled(.00000099995, "s", "1.000 \xc2\xb5s");
	scaled(nextafter(.00000099995, 0), "s", "999.9 ns");
	scaled(.0000000099995, "s", "10.00 ns");
	scaled(.00000000099995, "s", "1.000 ns");
	scaled(nextafter(.00000000099995, 0), "s",
	       "0.9999 ns"); /* benchunit's first not up-scaled */
	scaled(.0000000000099995, "s", "0.01000 ns");
	scaled(-.0000000099995, "s", "-10.00 ns");
	/* the example: 0.0124626 s; and the same time given in other units */
	scaled(0.0124626, "s", "12.46 ms");
	scaled(1881.7, "us", "1.882 ms");
	scaled(12462.6, "\xc2\xb5s", "12.46 ms");
	scaled(0.5, "ms", "500.0 \xc2\xb5s");
	scaled(1234.5, "ns/op", "1.234 \xc2\xb5s/op");
	scaled(0.25, "sec/op", "250.0 ms/op");
	/* no prefix above seconds: minutes are not base 10 (benchunit also stops at s) */
	scaled(4500, "s", "4500.0 s");
}

/* benchunit TestScale, Binary: bytes step B, KiB, MiB, GiB, TiB; kB is the corpora's KiB. */
static void bytes_scale_as_benchstat(void **state)
{
	(void)state;
	scaled(1, "B", "1.000 B");
	scaled(99.995 * (1 << 20), "B", "100.0 MiB");
	scaled(nextafter(99.995 * (1 << 20), 0), "B", "99.99 MiB");
	scaled(9.9995 * (1 << 20), "B", "10.00 MiB");
	scaled(.99995 * (1 << 20), "B", "1.000 MiB");
	scaled(nextafter(.99995 * (1 << 20), 0), "B", "1023.9 KiB"); /* [1000, 1024) stays below */
	scaled(99.995 * (1 << 10), "B", "100.0 KiB");
	scaled(.99995 * (1 << 10), "B", "1.000 KiB");
	scaled(nextafter(.99995 * (1 << 10), 0), "B", "1023.9 B");
	scaled(.99995 * 1099511627776.0, "B", "1.000 TiB");
	scaled(.099995, "B", "0.1000 B"); /* no fraction of a byte prefix */
	scaled(.00000009995, "B", "0.0000001000 B");
	/* 123456 kB (an RSS from /proc) = 120.5625 MiB */
	scaled(123456, "kB", "120.6 MiB");
	scaled(512, "MiB", "512.0 MiB");
	scaled(2048, "MiB", "2.000 GiB");
	scaled(3072, "B/op", "3.000 KiB/op");
	scaled(1.5, "GiB", "1.500 GiB");
}

/* units_display: the same prefix as a multiplier and the unit to print. */
static void display_gives_the_multiplier(void **state)
{
	double mult;
	char unit[40];
	(void)state;
	units_display(123456, "kB", &mult, unit, sizeof(unit));
	assert_true(mult == 1.0 / 1024);
	assert_string_equal(unit, "MiB");
	units_display(0.0124626, "s", &mult, unit, sizeof(unit));
	assert_true(mult == 1000);
	assert_string_equal(unit, "ms");
	units_display(12.5, "x", &mult, unit, sizeof(unit));
	assert_true(mult == 1);
	assert_string_equal(unit, "x");
	units_display(0, "s", &mult, unit, sizeof(unit));
	assert_true(mult == 1);
	assert_string_equal(unit, "s");
}

/* benchunit TestScale, Decimal, for rates and counts per operation: k, M, G, T, never m. */
static void rates_scale_as_benchstat(void **state)
{
	(void)state;
	scaled(9999500000000000, "ops/s", "9999.5 T ops/s");
	scaled(999950000000000, "ops/s", "1000.0 T ops/s");
	scaled(nextafter(999950000000000, 0), "ops/s", "999.9 T ops/s");
	scaled(999950000000, "ops/s", "1.000 T ops/s");
	scaled(99995000000, "ops/s", "100.0 G ops/s");
	scaled(9999500, "ops/s", "10.00 M ops/s");
	scaled(999950, "ops/s", "1.000 M ops/s");
	scaled(nextafter(999950, 0), "ops/s", "999.9 k ops/s");
	scaled(9999.5, "ops/s", "10.00 k ops/s");
	scaled(999.95, "ops/s", "1.000 k ops/s");
	scaled(nextafter(999.95, 0), "ops/s", "999.9 ops/s");
	scaled(99.995, "ops/s", "100.0 ops/s");
	scaled(.99995, "ops/s", "1.000 ops/s");
	scaled(nextafter(.99995, 0), "ops/s", "0.9999 ops/s");
	scaled(1796.2, "interactions/s", "1.796 k int/s");
	scaled(3, "allocs/op", "3.000 allocs/op");
}

/* Units of other kinds are not scaled: the column keeps its builder's rounding. */
static void other_units_are_not_scaled(void **state)
{
	static const char *const units[] = {"x",     "%",  "cores",    "runs", "sessions", "Hz",
					    "USD/h", "MB", "fraction", "",     NULL};
	struct units_prefix s;
	(void)state;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		assert_false(units_prefix_for(12.5, units[i], &s));
}

/* A sweep-like doc: a rate, a time in µs, a ratio, a note column, one missing cell. */
static struct doc *sweep_doc(void)
{
	static const struct doc_col cols[] = {
		DOC_COL_INT("level", "threads"),
		DOC_COL_REAL("median", "interactions/s", 'g', 6),
		DOC_COL_REAL("cpu_us_per_op", "us", 'f', 1),
		DOC_COL_REAL("speedup", "x", 'f', 3),
		DOC_COL_TEXT("note"),
	};
	static const double median[] = {484.135, 865.468, 1538.8, 1796.2};
	static const double cpu[] = {1881.7, 2050.9, 2282.3, 3803.0};
	struct doc *d = doc_new("sweep", "Sweep of tput by gomaxprocs");
	struct doc_section *s = doc_section(d, "levels", "Levels");
	struct doc_table *t = doc_table(s, cols, 5);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, 12, NULL);
	doc_fact_real(d, "cpu", "CPU per interaction", DOC_LISTED, 0.0124626, "s", 'g', 6);
	doc_fact_real(d, "per_doubling", "per-doubling factor", DOC_LISTED, 1.7828, "x", 'f', 4);
	doc_fact_text(d, "db", "database", DOC_PROVENANCE, "a.db");
	for (size_t i = 0; i < 4; i++) {
		doc_row(t);
		doc_set_int(t, 0, (int64_t)1 << i);
		doc_set_real(t, 1, median[i]);
		doc_set_real(t, 2, cpu[i]);
		if (i)
			doc_set_real(t, 3, median[i] / median[0]);
		if (i == 3)
			doc_set_text(t, 4, "SMT siblings");
	}
	doc_note(s, "definitions: `coreplan sweep --help`; a <b> & c_d *e*");
	return d;
}

/*
 * Hand-written: the median's smallest value 484.135 >= 99.995 takes 1
 * decimal (benchunit), cpu_us_per_op 1881.7 us = 1.8817 ms takes 3; the
 * unit line under the names; NA for the missing speedup; prose without
 * Markdown (no backticks, no &lt;, no \*); the time fact scaled.
 */
static void text_lays_out_a_sweep(void **state)
{
	struct doc *d = sweep_doc();
	char *out = text_of(d, NULL, 80);
	const char *want = "Sweep of tput by gomaxprocs\n"
			   "===========================\n\n"
			   "runs: 12\n"
			   "CPU per interaction: 12.46 ms\n"
			   "per-doubling factor: 1.7828 x\n\n"
			   "Levels\n"
			   "------\n\n"
			   "  level  median  cpu_us_per_op  speedup  note\n"
			   "threads   int/s             ms        x\n"
			   "-------  ------  -------------  -------  ------------\n"
			   "      1   484.1          1.882       NA  NA\n"
			   "      2   865.5          2.051    1.788  NA\n"
			   "      4  1538.8          2.282    3.178  NA\n"
			   "      8  1796.2          3.803    3.710  SMT siblings\n\n"
			   "- definitions: coreplan sweep --help; a <b> & c_d *e*\n\n"
			   "---\n"
			   "coreplan " COREPLAN_VERSION "; database a.db\n";
	(void)state;
	assert_string_equal(out, want);
	free(out);
	doc_free(d);
}

static size_t max_line_width(const char *text)
{
	size_t widest = 0;
	while (*text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char *line = strndup(text, len);
		assert_non_null(line);
		if (term_width_of(line) > widest)
			widest = term_width_of(line);
		free(line);
		text += len + (end != NULL);
	}
	return widest;
}

/*
 * D's text at WIDTH holds WANT (written by hand from the layout rules) and
 * no line wider than WIDTH; frees D.
 */
static void check_layout(struct doc *d, int width, const char *want)
{
	char *out = text_of(d, NULL, width);
	if (!strstr(out, want))
		fail_msg("at %d columns, the text lacks:\n%s\ngot:\n%s", width, want, out);
	assert_true(max_line_width(out) <= (size_t)width);
	free(out);
	doc_free(d);
}

/* A table of two text columns: a wide one wraps inside its column, on word boundaries. */
static void wide_text_wraps_in_its_column(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("tag"), DOC_COL_TEXT("reason")};
	struct doc *d = doc_new("runs", "Runs");
	struct doc_table *t = doc_table(doc_section(d, "why", "Why"), cols, 2);
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "g1-n100-b0-trial");
	doc_set_text(t, 1,
		     "unlisted: run found in the corpus folder but not listed in its "
		     "results table");
	/* 16 + 2 blanks leave 32 columns to the reason */
	check_layout(d, 50,
		     "tag               reason\n"
		     "----------------  --------------------------------\n"
		     "g1-n100-b0-trial  unlisted: run found in the\n"
		     "                  corpus folder but not listed in\n"
		     "                  its results table\n");
}

/* When the numbers leave a text column less than 24 columns, it moves under its row. */
static void narrow_room_moves_text_under_the_row(void **state)
{
	static const struct doc_col cols[] = {
		DOC_COL_TEXT("tag"),
		DOC_COL_REAL("window_s", "s", 'f', 2),
		DOC_COL_REAL("app_cores", "cores", 'f', 3),
		DOC_COL_REAL("pg_cores", "cores", 'f', 3),
		DOC_COL_TEXT("note"),
	};
	struct doc *d = doc_new("cores", "Cores");
	struct doc_table *t = doc_table(doc_section(d, "runs", "Runs"), cols, 5);
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "medium-mem-n100-b1r1");
	doc_set_real(t, 1, 102);
	doc_set_real(t, 2, 1.865);
	doc_set_real(t, 3, 0);
	doc_set_text(t, 4,
		     "4 ramp rows inside (connections rising); the reported app_cores "
		     "equals the recomputed one");
	check_layout(d, 60,
		     "tag                   window_s  app_cores  pg_cores\n"
		     "                             s      cores     cores\n"
		     "--------------------  --------  ---------  --------\n"
		     "medium-mem-n100-b1r1     102.0      1.865     0.000\n"
		     "    note: 4 ramp rows inside (connections rising); the\n"
		     "      reported app_cores equals the recomputed one\n");
}

/* Numbers that do not fit go into panels, each led by the first column. */
static void wide_numbers_go_into_panels(void **state)
{
	static const struct doc_col cols[] = {
		DOC_COL_INT("level", NULL),
		DOC_COL_REAL("aaaaaaaaaa", NULL, 'f', 1),
		DOC_COL_REAL("bbbbbbbbbb", NULL, 'f', 1),
		DOC_COL_REAL("cccccccccc", NULL, 'f', 1),
		DOC_COL_REAL("dddddddddd", NULL, 'f', 1),
	};
	struct doc *d = doc_new("x", "X");
	struct doc_table *t = doc_table(doc_section(d, "t", "T"), cols, 5);
	(void)state;
	doc_row(t);
	for (size_t c = 0; c < 5; c++)
		doc_set_real(t, c, (double)c);
	doc_set_int(t, 0, 7);
	/* 5 + 4 x 12 = 53 > 40: level + a + b (29), then level + c + d */
	check_layout(d, 40,
		     "level  aaaaaaaaaa  bbbbbbbbbb\n"
		     "-----  ----------  ----------\n"
		     "    7         1.0         2.0\n"
		     "\n"
		     "level  cccccccccc  dddddddddd\n"
		     "-----  ----------  ----------\n"
		     "    7         3.0         4.0\n");
}

/* Every line fits, whatever the width, for the sweep-like doc with a long note. */
static void every_width_fits(void **state)
{
	struct doc *d = sweep_doc();
	(void)state;
	doc_note(doc_find_section(d, "levels"),
		 "a long note that has to wrap at every width: "
		 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnop");
	for (int width = 40; width <= 200; width++) {
		char *out = text_of(d, NULL, width);
		assert_true(max_line_width(out) <= (size_t)width);
		free(out);
	}
	doc_free(d);
}

/* What a terminal must not get from a corpus: controls as \xNN, in cells and prose. */
static void controls_are_escaped(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("tag")};
	struct doc *d = doc_new("x", "T\x1b[31mitle");
	struct doc_section *s = doc_section(d, "t", "T");
	struct doc_table *t = doc_table(s, cols, 1);
	char *out;
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "a\x1b]0;x\x07z");
	doc_note(s, "bad \x9b byte \xff");
	doc_note(s, "a `code` span, a lone ` backtick");
	out = text_of(d, NULL, 80);
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	check_contains_all(out, (const char *const[]){"T\\x1B[31mitle\n", "a\\x1B]0;x\\x07z",
						      "- bad \\x9B byte \\xFF\n",
						      "- a code span, a lone ` backtick\n", NULL});
	free(out);
	doc_free(d);
}

static void format_name_and_width(void **state)
{
	enum doc_format f;
	FILE *fp = tmpfile();
	(void)state;
	assert_int_equal(doc_format_parse("text", &f), 0);
	assert_int_equal(f, DOC_TERM);
	assert_string_equal(doc_format_name(DOC_TERM), "text");
	assert_non_null(fp);
	/* a file is no terminal: $COLUMNS, else 80; at least 40 */
	setenv("COLUMNS", "132", 1);
	assert_int_equal(doc_term_width(fp), 132);
	setenv("COLUMNS", "20", 1);
	assert_int_equal(doc_term_width(fp), 40);
	setenv("COLUMNS", "wide", 1);
	assert_int_equal(doc_term_width(fp), 80);
	unsetenv("COLUMNS");
	assert_int_equal(doc_term_width(fp), 80);
	fclose(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(times_scale_as_benchstat),
		cmocka_unit_test(bytes_scale_as_benchstat),
		cmocka_unit_test(rates_scale_as_benchstat),
		cmocka_unit_test(display_gives_the_multiplier),
		cmocka_unit_test(other_units_are_not_scaled),
		cmocka_unit_test(text_lays_out_a_sweep),
		cmocka_unit_test(wide_text_wraps_in_its_column),
		cmocka_unit_test(narrow_room_moves_text_under_the_row),
		cmocka_unit_test(wide_numbers_go_into_panels),
		cmocka_unit_test(every_width_fits),
		cmocka_unit_test(controls_are_escaped),
		cmocka_unit_test(format_name_and_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
