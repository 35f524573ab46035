/*
 * Unit tests for schema/fields_where.c (the quoting rule of --where values,
 * conditions, --where-file lines) and query_unmatched (schema/queries.h:
 * which condition left no run, and the values its field has). Expected
 * values are written out by hand from the rule in fields_where.c's header.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include "common/err.h"
#include "common/strbuf.h"
#include "schema/db.h"
#include "schema/fields.h"
#include "schema/queries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void expect_values(const struct field_where *w, const char *field,
			  const char *const *values, size_t n)
{
	assert_string_equal(w->field, field);
	assert_int_equal(w->nvalues, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(w->values[i], values[i]);
}

#define VALUES(...) ((const char *const[]){__VA_ARGS__}), (sizeof((const char *[]){__VA_ARGS__}) / sizeof(char *))

/* Quoted values hold spaces, ',' '=' and ';'; \" and \\ are a quote and a backslash. */
static void test_quoted_values(void **state)
{
	struct run_filter f = {0};
	(void)state;
	assert_int_equal(run_filter_add_where(&f, "command=\"sleep 0.01\""), 0);
	expect_values(&f.where[0], "command", VALUES("sleep 0.01"));
	assert_int_equal(run_filter_add_where(&f, "name=\"BenchmarkSort/size=16\",\"a,b;c\",plain"),
			 0);
	expect_values(&f.where[1], "name", VALUES("BenchmarkSort/size=16", "a,b;c", "plain"));
	assert_int_equal(run_filter_add_where(&f, "x=\"a\\\"b\\\\c\\n\""), 0);
	expect_values(&f.where[2], "x", VALUES("a\"b\\c\\n")); /* \n is not an escape */
	assert_int_equal(run_filter_add_where(&f, "x=\"\",\"\""), 0);
	expect_values(&f.where[3], "x", VALUES("", ""));
	/* a quote inside an unquoted value is an ordinary byte */
	assert_int_equal(run_filter_add_where(&f, "x=a\"b"), 0);
	expect_values(&f.where[4], "x", VALUES("a\"b"));
	assert_int_equal(f.nwhere, 5);
	run_filter_release(&f);
}

static void test_quote_errors(void **state)
{
	struct run_filter f = {0};
	(void)state;
	assert_int_equal(run_filter_add_where(&f, "command=\"sleep 0.01"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "a quoted value has no closing quote"));
	assert_int_equal(run_filter_add_where(&f, "command=\"sleep\"x"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "after a quoted value comes ',' or the end, not 'x'"));
	/* '=' outside quotes is still refused, and the message says how to quote it */
	assert_int_equal(run_filter_add_where(&f, "name=BenchmarkSort/size=16"), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "the value 'BenchmarkSort/size=16' holds '='"));
	assert_non_null(strstr(err_msg(), "quote a value that holds '=': name=\"...\""));
	assert_int_equal(f.nwhere, 0);
	run_filter_release(&f);
}

/* Conditions split on spaces and ';' outside quotes only. */
static void test_quoted_conditions(void **state)
{
	struct run_filter f = {0};
	(void)state;
	assert_int_equal(run_filter_add_conditions(
				 &f, "command=\"sleep 0.01\" gomaxprocs=2;name=\"a b;c\",\"d\\\" e\"",
				 "--a"),
			 0);
	assert_int_equal(f.nwhere, 3);
	expect_values(&f.where[0], "command", VALUES("sleep 0.01"));
	expect_values(&f.where[1], "gomaxprocs", VALUES("2"));
	expect_values(&f.where[2], "name", VALUES("a b;c", "d\" e"));
	run_filter_release(&f);
}

/* where_value_quote writes what run_filter_add_where reads back as the same value. */
static void test_quote_round_trip(void **state)
{
	static const char *const values[] = {"plain", "sleep 0.01", "a,b", "k=v", "a;b", "",
					     "q\"uote", "\"lead", "back\\slash", "tab\there"};
	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct strbuf text = STRBUF_INIT;
		struct run_filter f = {0};
		assert_int_equal(strbuf_adds(&text, "f="), 0);
		assert_int_equal(where_value_quote(values[i], &text), 0);
		assert_int_equal(run_filter_add_where(&f, text.buf), 0);
		expect_values(&f.where[0], "f", &values[i], 1);
		run_filter_release(&f);
		strbuf_release(&text);
	}
	{
		struct strbuf text = STRBUF_INIT;
		assert_int_equal(where_value_quote("sleep 0.01", &text), 0);
		assert_string_equal(text.buf, "\"sleep 0.01\"");
		strbuf_reset(&text);
		assert_int_equal(where_value_quote("4", &text), 0);
		assert_string_equal(text.buf, "4");
		strbuf_release(&text);
	}
}

/* --where-file: values literal to the line's end; one field's lines are one condition. */
static void test_where_lines(void **state)
{
	struct run_filter f = {0};
	(void)state;
	assert_int_equal(run_filter_add_where_lines(&f,
						    "# benchmarks\n"
						    "name=BenchmarkSort/size=16\r\n"
						    "\n"
						    "command=sleep 0.01, x=\"y\"\n"
						    "name=BenchmarkSort/size=1kB",
						    "w.txt"),
			 0);
	assert_int_equal(f.nwhere, 2);
	expect_values(&f.where[0], "name",
		      VALUES("BenchmarkSort/size=16", "BenchmarkSort/size=1kB"));
	expect_values(&f.where[1], "command", VALUES("sleep 0.01, x=\"y\""));
	run_filter_release(&f);
	assert_int_equal(run_filter_add_where_lines(&f, "name=a\n\nno condition here\n", "w.txt"),
			 ERR_DATA);
	assert_string_equal(err_msg(),
			    "w.txt:3:1: expected FIELD=VALUE (one condition a line, the value taken "
			    "as it is to the line's end; lines of one field are any of their values)");
	assert_int_equal(run_filter_add_where_lines(&f, "=x\n", "w.txt"), ERR_DATA);
	assert_non_null(strstr(err_msg(), "w.txt:1:1: expected FIELD=VALUE"));
	assert_int_equal(run_filter_add_where_lines(&f, "# nothing\n\n", "w.txt"), ERR_DATA);
	assert_non_null(strstr(err_msg(), "no FIELD=VALUE condition in the file"));
	assert_int_equal(f.nwhere, 0);
	run_filter_release(&f);
}

/* Three runs of one corpus: commands with spaces, a numeric parameter. */
static const char fixture_sql[] =
	"INSERT INTO corpora (corpus_id, name, source_path, content_hash, imported_at, layout,"
	"  manifest, options) VALUES"
	"  (1, 'hf', '/x', 'aa', '2026-01-01T00:00:00Z', 'hyperfine', '', '');"
	"INSERT INTO runs (run_id, corpus_id, subcorpus, tag, seq, listed) VALUES"
	"  (1, 1, '', 'c1-r1', 1, 1), (2, 1, '', 'c1-r2', 2, 1), (3, 1, '', 'c2-r1', 3, 1);"
	"INSERT INTO run_attrs (run_id, source, name, value, num) VALUES"
	"  (1, 'results', 'command', 'sleep 0.01', NULL),"
	"  (2, 'results', 'command', 'sleep 0.01', NULL),"
	"  (3, 'results', 'command', 'sleep 0.02', NULL),"
	"  (1, 'results', 'run', '1', 1), (2, 'results', 'run', '2', 2),"
	"  (3, 'results', 'run', '1', 1),"
	"  (1, 'results', 'time_s', '0.011', 0.011), (2, 'results', 'time_s', '0.012', 0.012),"
	"  (3, 'results', 'time_s', '0.021', 0.021);";

static int setup(void **state)
{
	return db_state_open(state, fixture_sql);
}

/* The why of a filter given as conditions text. */
static char *unmatched(sqlite3 *db, const char *conditions)
{
	struct run_filter f = {0};
	struct strbuf why = STRBUF_INIT;
	f.corpus = strdup("hf");
	assert_int_equal(run_filter_add_conditions(&f, conditions, "test"), 0);
	assert_int_equal(query_unmatched(db, &f, &why), 0);
	run_filter_release(&f);
	return why.buf ? strbuf_detach(&why) : strdup("");
}

static void test_unmatched(void **state)
{
	char *why = unmatched(*state, "command=\"sleep 0.03\"");
	/* the values that exist, quoted as --where takes them */
	assert_string_equal(why, "no run has command=\"sleep 0.03\"; command takes \"sleep 0.01\", "
				 "\"sleep 0.02\"");
	free(why);
	why = unmatched(*state, "command=\"sleep 0.02\" run=2");
	assert_string_equal(why, "no run that the conditions before it keep has run=2; run takes 1 "
				 "there");
	free(why);
	why = unmatched(*state, "command=\"sleep 0.01\"");
	assert_string_equal(why, ""); /* it matches: nothing to say */
	free(why);
	why = unmatched(*state, "nosuch=1");
	assert_string_equal(why, "no run has nosuch=1; none has a value of nosuch");
	free(why);
}

/* The tool's primary metric by layout, and over a selection (one tool layout: its metric). */
static void test_default_metric(void **state)
{
	struct run_filter f = {0};
	const char *metric = NULL;
	assert_string_equal(tool_default_metric("gobench"), "ns_per_op");
	assert_string_equal(tool_default_metric("hyperfine"), "time_s");
	assert_string_equal(tool_default_metric("gbench"), "real_time_ns");
	assert_string_equal(tool_default_metric("wrk"), "requests_per_s");
	assert_null(tool_default_metric("sky-gomaxprocs"));
	assert_null(tool_default_metric(NULL));
	assert_int_equal(query_default_metric(*state, &f, &metric), 0);
	assert_string_equal(metric, "time_s");
	assert_int_equal(db_exec(*state, "INSERT INTO corpora (corpus_id, name, source_path,"
					 " content_hash, imported_at, layout, manifest, options)"
					 " VALUES (2, 'sky', '/y', 'bb', '2026-01-01T00:00:00Z',"
					 " 'sky-gomaxprocs', '', '');"
					 "INSERT INTO runs (run_id, corpus_id, subcorpus, tag, seq,"
					 " listed, tput) VALUES (4, 2, '', 'g1', 1, 1, 100)"),
			 0);
	/* a selection mixing a tool's runs and a harness's has no tool default */
	assert_int_equal(query_default_metric(*state, &f, &metric), 0);
	assert_null(metric);
	f.corpus = strdup("hf");
	assert_int_equal(query_default_metric(*state, &f, &metric), 0);
	assert_string_equal(metric, "time_s");
	run_filter_release(&f);
	assert_int_equal(db_exec(*state, "DELETE FROM corpora WHERE corpus_id = 2"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoted_values),
		cmocka_unit_test(test_quote_errors),
		cmocka_unit_test(test_quoted_conditions),
		cmocka_unit_test(test_quote_round_trip),
		cmocka_unit_test(test_where_lines),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_default_metric),
	};
	return cmocka_run_group_tests(tests, setup, db_state_close);
}
