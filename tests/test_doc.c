/*
 * test_doc: the result document and its writers (reports/doc.h).
 *
 * Expected outputs are written out by hand from the format rules in
 * doc.h: Markdown rounding per column, every digit in tsv/csv/json,
 * escaping of corpus text, the facts view, unknown views.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "reports/doc.h"

static char *render(const struct doc *d, enum doc_format f, const char *view, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	*rc = doc_write(d, f, view, fp);
	fclose(fp);
	return buf;
}

/* A small sweep-like doc: two levels, one missing cell, a note quoting a fact. */
static struct doc *sample(void)
{
	static const struct doc_col cols[] = {
		DOC_COL_REAL("level", NULL, 'g', 6),
		DOC_COL_INT("n", "runs"),
		DOC_COL_REAL("median", "int/s", 'g', 6),
		DOC_COL_REAL("range_pct", "%", 'f', 2),
		DOC_COL_TEXT("note"),
	};
	struct doc *d = doc_new("sweep", "Sweep of tput by gomaxprocs");
	struct doc_section *s;
	struct doc_table *t;
	const char *pd;
	assert_non_null(d);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, 6, NULL);
	pd = doc_fact_real(d, "per_doubling", "per-doubling factor", DOC_QUIET, 1.778123456,
			   "x", 'f', 4);
	doc_fact_text(d, "database", "database", DOC_PROVENANCE, "a.db");
	s = doc_section(d, "levels", "Levels");
	t = doc_table(s, cols, 5);
	doc_row(t);
	doc_set_real(t, 0, 1);
	doc_set_int(t, 1, 3);
	doc_set_real(t, 2, 481.44123);
	doc_set_real(t, 3, 2.0849);
	doc_row(t);
	doc_set_real(t, 0, 2);
	doc_set_int(t, 1, 3);
	doc_set_real(t, 2, 865.4682448787189);
	doc_set_real(t, 3, NAN);
	doc_set_text(t, 4, "a|b");
	doc_note(s, "per doubling %s", pd);
	doc_left_out(d, "g1-trial", "unlisted");
	return d;
}

static void md_rounds_and_lays_out(void **state)
{
	struct doc *d = sample();
	int rc;
	char *out = render(d, DOC_MD, NULL, &rc);
	/* hand-written: 'g' 6 digits, 'f' 2 decimals, the `|` escaped, the missing cell empty */
	const char *expected = "## Sweep of tput by gomaxprocs\n\n"
			       "- runs: 6\n\n"
			       "### Levels\n\n"
			       "| level | n   | median  | range_pct | note |\n"
			       "|------:|----:|--------:|----------:|:-----|\n"
			       "|     1 |   3 | 481.441 |      2.08 |      |\n"
			       "|     2 |   3 | 865.468 |           | a\\|b |\n"
			       "\n"
			       "- per doubling 1.7781\n"
			       "\n"
			       "### Runs left out (1)\n\n"
			       "- g1-trial: unlisted\n\n"
			       "---\n\ncoreplan " COREPLAN_VERSION "; database a.db\n";
	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(out, expected);
	free(out);
	doc_free(d);
}

static void tsv_has_every_digit(void **state)
{
	struct doc *d = sample();
	int rc;
	char *out = render(d, DOC_TSV, NULL, &rc);
	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(out, "level\tn\tmedian\trange_pct\tnote\n"
				 "1\t3\t481.44123\t2.0849\tNA\n"
				 "2\t3\t865.4682448787189\tNA\ta|b\n");
	free(out);
	out = render(d, DOC_CSV, "facts", &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "name,value,unit,label\n"
				 "runs,6,\"\",runs\n"
				 "per_doubling,1.778123456,x,per-doubling factor\n"
				 "database,a.db,\"\",database\n");
	free(out);
	doc_free(d);
}

static void json_holds_everything(void **state)
{
	struct doc *d = sample();
	int rc;
	char *out = render(d, DOC_JSON, NULL, &rc);
	(void)state;
	assert_int_equal(rc, 0);
	/* every fact with its full value, the note, the rows keyed by column, null for NaN */
	assert_non_null(strstr(out, "\"per_doubling\": {\"value\": 1.778123456, \"unit\": \"x\""));
	assert_non_null(strstr(out, "\"runs\": {\"value\": 6,"));
	assert_non_null(strstr(out, "\"notes\": [\"per doubling 1.7781\"]"));
	assert_non_null(strstr(out, "{\"level\": 2, \"n\": 3, \"median\": 865.4682448787189, "
				    "\"range_pct\": null, \"note\": \"a|b\"}"));
	assert_non_null(strstr(out, "\"left_out\": [\n    {\"tag\": \"g1-trial\", \"reason\": "
				    "\"unlisted\"}\n  ]"));
	assert_non_null(strstr(out, "\"command\": \"sweep\""));
	free(out);
	doc_free(d);
}

static void unknown_view_is_a_usage_error(void **state)
{
	struct doc *d = sample();
	int rc;
	char *out = render(d, DOC_TSV, "nosuch", &rc);
	(void)state;
	assert_int_equal(rc, ERR_USAGE);
	assert_string_equal(err_msg(), "unknown view 'nosuch' (views of sweep: levels, facts)");
	free(out);
	doc_free(d);
}

static void corpus_text_is_escaped(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("tag")};
	struct doc *d = doc_new("runs", "Runs");
	struct doc_section *s = doc_section(d, "runs", "Runs");
	struct doc_table *t = doc_table(s, cols, 1);
	int rc;
	char *out;
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "\x1b[31m<b>*x*</b>&");
	doc_note(s, "run \x1b]0;pwn\x07 <script>");
	out = render(d, DOC_MD, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	assert_non_null(strstr(out, "| \\x1B\\[31m&lt;b>\\*x\\*&lt;/b>&amp; |"));
	assert_non_null(strstr(out, "- run \\x1B]0;pwn\\x07 &lt;script>\n"));
	free(out);
	out = render(d, DOC_JSON, NULL, &rc);
	assert_non_null(strstr(out, "\"\\u001b[31m<b>*x*</b>&\""));
	free(out);
	doc_free(d);
}

static void fact_replaces_and_reads_back(void **state)
{
	struct doc *d = doc_new("x", "X");
	(void)state;
	doc_fact_real(d, "f", NULL, DOC_QUIET, 1.0, NULL, 'f', 1);
	assert_string_equal(doc_fact_real(d, "f", NULL, DOC_QUIET, -0.0001, NULL, 'f', 2), "0.00");
	assert_true(doc_fact_number(d, "f") == -0.0001);
	assert_string_equal(doc_fact_real(d, "g", NULL, DOC_QUIET, NAN, NULL, 'f', 2), "NA");
	assert_true(isnan(doc_fact_number(d, "g")));
	doc_fact_text(d, "v", NULL, DOC_QUIET, "within-noise");
	assert_string_equal(doc_fact_string(d, "v"), "within-noise");
	assert_int_equal(doc_error(d), 0);
	doc_free(d);
}

static void empty_table_says_none(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("tag")};
	struct doc *d = doc_new("noise", "Noise");
	struct doc_section *s = doc_section(d, "soaks", "Soaks");
	struct doc_table *t = doc_table(s, cols, 1);
	int rc;
	char *out;
	(void)state;
	doc_table_empty_text(t, "none: no level has 3 or more runs in one block");
	out = render(d, DOC_MD, NULL, &rc);
	assert_non_null(strstr(out, "### Soaks\n\nnone: no level has 3 or more runs in one block\n"));
	free(out);
	out = render(d, DOC_TSV, "soaks", &rc);
	assert_string_equal(out, "tag\n");
	free(out);
	doc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(md_rounds_and_lays_out),
		cmocka_unit_test(tsv_has_every_digit),
		cmocka_unit_test(json_holds_everything),
		cmocka_unit_test(unknown_view_is_a_usage_error),
		cmocka_unit_test(corpus_text_is_escaped),
		cmocka_unit_test(fact_replaces_and_reads_back),
		cmocka_unit_test(empty_table_says_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
