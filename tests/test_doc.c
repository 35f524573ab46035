/*
 * test_doc: the result document and its writers (doc/doc.h).
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "doc/doc.h"
#include "report/report_html.h"
#include "test_util.h"

static char *render(const struct doc *d, enum doc_format f, const char *view, int *rc)
{
	struct memout m;
	*rc = doc_write(d, f, view, memout_open(&m));
	return memout_text(&m);
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
	/* hand-written: 'g' 6 digits, 'f' 2 decimals, the `|` escaped, the missing cell NA */
	const char *expected = "## Sweep of tput by gomaxprocs\n\n"
			       "- runs: 6\n\n"
			       "### Levels\n\n"
			       "| level | n   | median  | range_pct | note |\n"
			       "|------:|----:|--------:|----------:|:-----|\n"
			       "|     1 |   3 | 481.441 |      2.08 | NA   |\n"
			       "|     2 |   3 | 865.468 |        NA | a\\|b |\n"
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
	check_contains_all(out, (const char *const[]){
				      "\"per_doubling\": {\"value\": 1.778123456, \"unit\": \"x\"",
				      "\"runs\": {\"value\": 6,",
				      "\"notes\": [\"per doubling 1.7781\"]",
				      NULL});
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
	check_contains_all(out, (const char *const[]){
				      "| \\x1B\\[31m&lt;b>\\*x\\*&lt;/b>&amp; |",
				      "- run \\x1B]0;pwn\\x07 &lt;script>\n",
				      NULL});
	free(out);
	out = render(d, DOC_JSON, NULL, &rc);
	assert_non_null(strstr(out, "\"\\u001b[31m<b>*x*</b>&\""));
	free(out);
	doc_free(d);
}

/*
 * Corpus text everywhere a document shows it: ESC never reaches a terminal
 * (md, tsv, csv), HTML and Markdown metacharacters in values (a heading, a
 * fact, a left-out run, a cell) read as themselves, prose opens no
 * emphasis or link; a C1 control (U+009B, CSI) and a byte that is not
 * UTF-8 are \xNN too. Expected strings written by hand from doc.h's rules.
 */
static void values_escaped_everywhere(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("v")};
	static const char hostile[] = "\x1b[31m<script>|`*_x_";
	struct doc *d = doc_new("x", "X of \x1b[31m<i>*b*</i>");
	struct doc_section *s = doc_section(d, "t", "T");
	struct doc_table *t = doc_table(s, cols, 1);
	struct strbuf sb = STRBUF_INIT;
	int rc;
	char *out;
	(void)state;
	doc_fact_text(d, "corpus", "corpus", DOC_LISTED, hostile);
	doc_row(t);
	doc_set_text(t, 0,
		     "a\xc2\x9b"
		     "2J b\xff caf\xc3\xa9");
	doc_note(s, "run '%s' said [x](javascript:y) \\*", hostile);
	doc_left_out(d, "# <b>1. x", "why: `*`");
	doc_left_out(d, "12. y", "z");
	out = render(d, DOC_MD, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_null(strchr(out, '\x1b'));
	assert_null(strstr(out, "\xc2\x9b"));
	check_contains_all(out, (const char *const[]){
				      "## X of \\x1B\\[31m&lt;i>\\*b\\*&lt;/i>\n",
				      "- corpus: \\x1B\\[31m&lt;script>\\|\\`\\*\\_x\\_\n",
				      "| a\\xC2\\x9B2J b\\xFF caf\xc3\xa9 |",
				      NULL});
	/* prose: backticks stay (its own code spans), `*`, `_`, `\\` and a link's `](` do not */
	assert_non_null(strstr(out, "- run '\\x1B[31m&lt;script>|`\\*\\_x\\_' said "
				    "[x\\](javascript:y) \\\\\\*\n"));
	check_contains_all(out, (const char *const[]){
				      "- \\# &lt;b>1. x: why: \\`\\*\\`\n",
				      "- 12\\. y: z\n",
				      NULL});
	free(out);
	out = render(d, DOC_TSV, NULL, &rc);
	assert_string_equal(out, "v\na\\xC2\\x9B2J b\\xFF caf\xc3\xa9\n");
	free(out);
	out = render(d, DOC_CSV, NULL, &rc);
	assert_string_equal(out, "v\na\\xC2\\x9B2J b\\xFF caf\xc3\xa9\n");
	free(out);
	out = render(d, DOC_JSON, NULL, &rc);
	assert_non_null(strstr(out, "\"a\\u009b2J b\\ufffd caf\xc3\xa9\""));
	free(out);
	/* the terminal escape keeps what it is told to keep, nothing else */
	assert_int_equal(doc_term_escape(&sb, "a\tb\x1b\nc\x7f", "\n"), 0);
	assert_string_equal(strbuf_str(&sb), "a\\x09b\\x1B\nc\\x7F");
	assert_true(doc_term_safe("caf\xc3\xa9 \xc2\xa0", NULL));
	assert_false(doc_term_safe("\xc2\x85", NULL));
	assert_false(doc_term_safe("\xe2\x82", NULL)); /* a cut sequence */
	strbuf_release(&sb);
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

/* An empty string is not a missing value (NA) in csv; blanks at the ends need quotes. */
static void csv_quoting_edges(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("a"), DOC_COL_TEXT("b"),
					      DOC_COL_TEXT("c"), DOC_COL_TEXT("d")};
	struct doc *d = doc_new("x", "X");
	struct doc_table *t = doc_table(doc_section(d, "t", "T"), cols, 4);
	int rc;
	char *out;
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "");
	doc_set_text(t, 1, " lead");
	doc_set_text(t, 2, "say \"hi\", then");
	out = render(d, DOC_CSV, NULL, &rc);
	assert_string_equal(out, "a,b,c,d\n\"\",\" lead\",\"say \"\"hi\"\", then\",NA\n");
	free(out);
	doc_free(d);
}

/* Bytes that are not UTF-8 become U+FFFD, control characters \u escapes, so the JSON parses. */
static void json_text_edges(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("s"), DOC_COL_REAL("x", NULL, 'g', 6)};
	struct doc *d = doc_new("x", "X");
	struct doc_table *t = doc_table(doc_section(d, "t", "T"), cols, 2);
	int rc;
	char *out;
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "ctl\x01 \xff end caf\xc3\xa9 \\");
	doc_set_real(t, 1, 1e21);
	out = render(d, DOC_JSON, NULL, &rc);
	assert_non_null(strstr(out, "{\"s\": \"ctl\\u0001 \\ufffd end caf\xc3\xa9 \\\\\", \"x\": 1e+21}"));
	free(out);
	doc_free(d);
}

/* Hidden empty columns: Markdown only; widths count characters, not bytes. */
static void md_hides_empty_and_counts_characters(void **state)
{
	static const struct doc_col cols[] = {DOC_COL_TEXT("a"), DOC_COL_TEXT("gone"),
					      DOC_COL_INT("b", NULL)};
	struct doc *d = doc_new("x", "X");
	struct doc_table *t = doc_table(doc_section(d, "t", "T"), cols, 3);
	int rc;
	char *out;
	(void)state;
	doc_table_hide_empty(t);
	doc_row(t);
	doc_set_text(t, 0, "\xc2\xb5s"); /* "µs": 2 characters */
	doc_set_int(t, 2, 1);
	doc_row(t);
	doc_set_text(t, 0, "abcd");
	out = render(d, DOC_MD, NULL, &rc);
	assert_non_null(strstr(out, "| a    | b   |\n|:-----|----:|\n| \xc2\xb5s   |   1 |\n| abcd |  NA |\n"));
	free(out);
	out = render(d, DOC_TSV, NULL, &rc);
	assert_string_equal(out, "a\tgone\tb\n\xc2\xb5s\tNA\t1\nabcd\tNA\tNA\n");
	free(out);
	doc_free(d);
}

/* A failed write is reported, not ignored. */
static void write_error(void **state)
{
	struct doc *d;
	FILE *fp;
	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	d = sample();
	fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	assert_int_equal(doc_write(d, DOC_JSON, NULL, fp), ERR_DATA);
	assert_non_null(strstr(err_msg(), "cannot write output"));
	fclose(fp);
	doc_free(d);
}

/*
 * A streamed table prints what the same rows stored print, in every format
 * and view: three rows with a text cell to escape, a missing cell, a
 * column empty in every row (hidden in Markdown), a real rounded in
 * Markdown and exact elsewhere. Its fill runs once per writing (twice for
 * Markdown), its argument is freed with the doc, and an empty stream
 * prints the empty text.
 */
struct stream_arg {
	size_t rows, calls, made;
};

static const struct doc_col stream_cols[] = {DOC_COL_INT("i", NULL), DOC_COL_TEXT("name"),
					     DOC_COL_REAL("x", "s", 'f', 1), DOC_COL_TEXT("gone")};

static void stream_row(struct doc_table *t, size_t i)
{
	static const char *const names[] = {"a|b", "plain", NULL};
	doc_row(t);
	doc_set_int(t, 0, (int64_t)i + 1);
	if (names[i % 3])
		doc_set_text(t, 1, names[i % 3]);
	doc_set_real(t, 2, i == 1 ? NAN : 0.25 * (double)(i + 1) + 1e-9);
}

static int stream_fill(struct doc_table *t, void *arg)
{
	struct stream_arg *a = arg;
	a->calls++;
	for (size_t i = 0; i < a->rows && !doc_table_stopped(t); i++) {
		stream_row(t, i);
		a->made++;
	}
	return 0;
}

static struct doc *stream_doc(size_t rows, bool streamed, struct stream_arg **arg)
{
	struct doc *d = doc_new("x", "X");
	struct doc_section *s = doc_section(d, "rows", "Rows");
	struct doc_table *t = doc_table(s, stream_cols, 4);
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "no rows");
	doc_note(s, "a note");
	if (streamed) {
		*arg = calloc(1, sizeof(**arg));
		assert_non_null(*arg);
		(*arg)->rows = rows;
		doc_table_stream(t, stream_fill, *arg, free);
	} else {
		for (size_t i = 0; i < rows; i++)
			stream_row(t, i);
	}
	return d;
}

static void streamed_table_prints_as_stored(void **state)
{
	static const enum doc_format formats[] = {DOC_MD, DOC_JSON, DOC_TSV, DOC_CSV, DOC_TERM};
	(void)state;
	for (size_t rows = 0; rows <= 3; rows += 3)
		for (size_t f = 0; f < 5; f++) {
			struct stream_arg *arg = NULL;
			struct doc *stored = stream_doc(rows, false, NULL);
			struct doc *streamed = stream_doc(rows, true, &arg);
			int rc1, rc2;
			char *a = render(stored, formats[f], NULL, &rc1);
			char *b = render(streamed, formats[f], NULL, &rc2);
			assert_int_equal(rc1, 0);
			assert_int_equal(rc2, 0);
			assert_string_equal(b, a);
			/*
			 * Markdown measures, then prints; text finds the scales, measures,
			 * then prints (an empty table: only the first reading)
			 */
			assert_int_equal(arg->calls, !rows		      ? 1
						     : formats[f] == DOC_MD   ? 2
						     : formats[f] == DOC_TERM ? 3
									      : 1);
			assert_int_equal(doc_table_rows(doc_section_table(
						 doc_find_section(streamed, "rows"))),
					 rows);
			if (rows && formats[f] == DOC_MD)
				assert_non_null(
					strstr(b, "| i   | name  | x   |\n|----:|:------|----:|\n"
						  "|   1 | a\\|b  | 0.3 |\n|   2 | plain |  NA |\n"
						  "|   3 | NA    | 0.8 |\n\n- a note\n"));
			if (!rows && formats[f] == DOC_MD)
				assert_non_null(strstr(b, "no rows\n"));
			if (rows && formats[f] == DOC_TSV)
				assert_string_equal(b,
						    "i\tname\tx\tgone\n1\ta|b\t0.250000001\tNA\n"
						    "2\tplain\tNA\tNA\n3\tNA\t0.750000001\tNA\n");
			free(a);
			free(b);
			doc_free(stored);
			doc_free(streamed); /* frees arg: the leak check would see it otherwise */
		}
}

/* A streamed table whose writer fails stops early: fill sees doc_table_stopped. */
static void streamed_table_stops_on_a_failed_write(void **state)
{
	struct stream_arg *arg = NULL;
	struct doc *d;
	FILE *fp;
	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	d = stream_doc(100000, true, &arg);
	fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	setvbuf(fp, NULL, _IONBF, 0); /* every write fails at once */
	assert_int_equal(doc_write(d, DOC_TSV, "rows", fp), ERR_DATA);
	assert_non_null(strstr(err_msg(), "cannot write output"));
	assert_int_equal(arg->calls, 1);
	assert_true(arg->made < 10);
	err_clear();
	fclose(fp);
	doc_free(d);
}

/* The formats by name. */
static void format_names(void **state)
{
	enum doc_format f;
	(void)state;
	assert_int_equal(doc_format_parse("markdown", &f), 0);
	assert_int_equal(f, DOC_MD);
	assert_int_equal(doc_format_parse("csv", &f), 0);
	assert_int_equal(f, DOC_CSV);
	assert_int_equal(doc_format_parse("xml", &f), -1);
	assert_string_equal(doc_format_name(DOC_JSON), "json");
	assert_int_equal(doc_format_parse("html", &f), 0);
	assert_int_equal(f, DOC_HTML);
	assert_string_equal(doc_format_name(DOC_HTML), "html");
}

/* HTML: values escaped, numbers right-aligned, ids are GitHub's anchors, a repeat numbered. */
static void html_escapes_and_lays_out(void **state)
{
	static const struct doc_col cols[] = {
		DOC_COL_TEXT("tag"),
		DOC_COL_REAL("value", NULL, 'f', 2),
	};
	struct doc *d = doc_new("t", "A <b> & \"c\"");
	struct doc_section *s = doc_section(d, "one", "Levels");
	struct doc_section *s2 = doc_section(d, "two", "Levels");
	struct doc_table *t = doc_table(s, cols, 2);
	int rc;
	char *out;
	(void)state;
	doc_row(t);
	doc_set_text(t, 0, "<script>alert('x')</script> *x* `y`");
	doc_set_real(t, 1, 1.5);
	doc_note(s2, "see [it](javascript:alert(1)) and `a<b`");
	out = render(d, DOC_HTML, NULL, &rc);
	assert_int_equal(rc, 0);
	check_contains_all(out, (const char *const[]){
				      "<title>A &lt;b&gt; &amp; &quot;c&quot;</title>",
				      "<h1 id=\"a-b--c\">",
				      "<h2 id=\"levels\">Levels</h2>",
				      "<h2 id=\"levels-1\">Levels</h2>",
				      "<th class=\"num\">value</th>",
				      "<td class=\"num\">1.50</td>",
				      NULL});
	/* the cell's text as text: no element, no emphasis, no code span */
	assert_null(strstr(out, "<script"));
	assert_non_null(strstr(out, "<td>&lt;script&gt;alert(&#39;x&#39;)<wbr>&lt;/<wbr>script&gt; *x* `y`</td>"));
	/* a link to a scheme is not a link; a code span keeps its text escaped */
	assert_null(strstr(out, "href=\"javascript"));
	assert_non_null(strstr(out, "<code>a&lt;b</code>"));
	assert_null(strstr(out, "<img"));
	free(out);
	doc_free(d);
}

/* A wide table: its long text column goes under each row; the md has it as a column. */
static void html_wide_table_fits(void **state)
{
	struct doc_col cols[12];
	char names[12][8];
	struct doc *d = doc_new("t", "Wide");
	struct doc_table *t;
	int rc;
	char *out, long_text[80];
	(void)state;
	for (int c = 0; c < 12; c++) {
		snprintf(names[c], sizeof(names[c]), "c%d", c);
		cols[c] = (struct doc_col)DOC_COL_INT(names[c], NULL);
	}
	cols[11] = (struct doc_col)DOC_COL_TEXT("words");
	t = doc_table(doc_section(d, "w", "W"), cols, 12);
	memset(long_text, 'a', 60);
	long_text[60] = '\0';
	doc_row(t);
	for (int c = 0; c < 11; c++)
		doc_set_int(t, (size_t)c, c);
	doc_set_text(t, 11, long_text);
	out = render(d, DOC_HTML, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "<table class=\"wide\">"));
	assert_null(strstr(out, "<th>words</th>"));
	assert_non_null(strstr(out, "<tr class=\"aside\"><td colspan=\"11\"><div><span class=\"col\">words:</span> "
				    "aaaaaaaaaaaaaaaaaa<wbr>aaaaaaaaaaaaaaaaaa<wbr>"));
	free(out);
	doc_free(d);
}

/* SVG inlining: ids and references prefixed, script and outside links refused. */
static void svg_inlined_safely(void **state)
{
	static const char good[] =
		"<?xml version=\"1.0\"?>\n<!-- c -->\n<svg width=\"10\" height=\"5\">"
		"<defs><path id='gpPt1' d='M0,0'/></defs><use xlink:href='#gpPt1' "
		"filter = 'url(#textbox)'/><text>a &lt; b</text></svg>\ntrailing";
	static const char *const bad[] = {
		"<svg><script>alert(1)</script></svg>",
		"<svg><rect onload='x()'/></svg>",
		"<svg><a xlink:href='http://example.com/'>x</a></svg>",
		"<svg><rect fill='url(http://example.com/x)'/></svg>",
		"<svg><foreignObject/></svg>",
		"<html></html>",
		"<svg><rect/>",
	};
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(report_html_inline_svg(good, strlen(good), 3, "alt", "x.svg", &sb), 0);
	assert_string_equal(strbuf_str(&sb),
			    "<svg role=\"img\" aria-label=\"alt\" width=\"10\" height=\"5\">"
			    "<defs><path id='f3-gpPt1' d='M0,0'/></defs><use xlink:href='#f3-gpPt1' "
			    "filter = 'url(#f3-textbox)'/><text>a &lt; b</text></svg>");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&sb);
		assert_int_not_equal(report_html_inline_svg(bad[i], strlen(bad[i]), 1, "a", "x.svg", &sb), 0);
		assert_non_null(strstr(err_msg(), "'x.svg'"));
		err_clear();
	}
	strbuf_release(&sb);
}

/*
 * Tables bound to struct members (doc.h, "A table whose rows are an array
 * of structs"): the expected cells are the members' values as written in
 * the rows below (by hand), read back through doc_cell_*: each C type's
 * reading, what counts as missing, and that doc_set_fields sets only the
 * columns from..to it is given.
 */
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
		cmocka_unit_test(md_rounds_and_lays_out),
		cmocka_unit_test(tsv_has_every_digit),
		cmocka_unit_test(json_holds_everything),
		cmocka_unit_test(unknown_view_is_a_usage_error),
		cmocka_unit_test(corpus_text_is_escaped),
		cmocka_unit_test(fact_replaces_and_reads_back),
		cmocka_unit_test(empty_table_says_none),
		cmocka_unit_test(csv_quoting_edges),
		cmocka_unit_test(json_text_edges),
		cmocka_unit_test(md_hides_empty_and_counts_characters),
		cmocka_unit_test(write_error),
		cmocka_unit_test(streamed_table_prints_as_stored),
		cmocka_unit_test(streamed_table_stops_on_a_failed_write),
		cmocka_unit_test(values_escaped_everywhere),
		cmocka_unit_test(format_names),
		cmocka_unit_test(html_escapes_and_lays_out),
		cmocka_unit_test(html_wide_table_fits),
		cmocka_unit_test(svg_inlined_safely),
		cmocka_unit_test(columns_keep_their_specs),
		cmocka_unit_test(each_type_reads_its_member),
		cmocka_unit_test(missing_as_documented),
		cmocka_unit_test(a_range_sets_only_its_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
