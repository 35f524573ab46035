/*
 * Unit tests for importers/manifest.c and importers/profiles.c: the
 * manifest format, template expansion and tag patterns.
 * Expected values are written by hand from the manifest text under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "importers/manifest.h"
#include "importers/profiles.h"

static void parses_both_builtin_profiles(void **state)
{
	struct manifest *m = NULL;
	(void)state;
	assert_int_equal(manifest_parse(profile_text("sky-gomaxprocs"), "t", &m), 0);
	assert_string_equal(m->layout, "sky-gomaxprocs");
	assert_int_equal(m->ntables, 1);
	assert_int_equal(m->tables[0].ntrace_columns, 8);
	assert_int_equal(m->tables[0].ntag_parse, 2);
	assert_string_equal(m->tables[0].tag_parse[1], "prof-g{gomaxprocs}-n{sessions}");
	assert_true(m->tables[0].require_trace);
	manifest_free(m);

	assert_int_equal(manifest_parse(profile_text("sky-capacity"), "t", &m), 0);
	assert_int_equal(m->ntables, 3);
	assert_string_equal(m->tables[1].section, "m1");
	assert_string_equal(m->tables[0].join_file, "system.tsv");
	assert_string_equal(m->tables[0].join_key, "run");
	assert_int_equal(m->tables[0].ntrace_columns, 13);
	assert_int_equal(m->tables[0].noverrides, 2);
	assert_string_equal(m->tables[0].overrides[0].field, "load_rss_kb");
	assert_string_equal(m->tables[0].overrides[0].source, "join");
	assert_string_equal(m->tables[0].overrides[0].name, "load_app_kb");
	/* FORMATS.md, results.tsv columns 15-17, 30, 31: the plain names read system.tsv */
	assert_int_equal(m->tables[0].nprefer, 5);
	for (size_t i = 0; i < m->tables[0].nprefer; i++)
		assert_string_equal(m->tables[0].prefer[i].value, "join");
	assert_string_equal(m->tables[0].prefer[0].key, "load_app_kb");
	assert_string_equal(m->tables[0].prefer[3].key, "xact_per_s");
	assert_string_equal(m->tables[0].prefer[4].key, "wal_rec_per_s");
	assert_int_equal(m->tables[1].nprefer, 0);
	assert_int_equal(m->tables[0].nset, 4);
	assert_string_equal(m->tables[0].set[1].key, "nproc");
	assert_string_equal(m->tables[0].set[1].value, "2");
	assert_int_equal(m->ncorpus_text, 2);
	manifest_free(m);
}

static void errors_name_the_line(void **state)
{
	struct manifest *m = NULL;
	(void)state;
	assert_int_equal(manifest_parse("layout = x\n\n[table main]\nfile = r.tsv\nbogus = 1\n",
					"my.manifest", &m),
			 ERR_DATA);
	assert_null(m);
	assert_string_equal(err_msg(), "my.manifest:5:1: unknown key 'bogus' in [table main]");
	assert_int_equal(manifest_parse("[table a]\nfile = r\ntag = {x}\n[table a]\n", "m", &m),
			 ERR_DATA);
	assert_string_equal(err_msg(), "m:4:1: duplicate section [table a]");
	assert_int_equal(manifest_parse("[table a]\nfile = r\n", "m", &m), ERR_DATA);
	assert_string_equal(err_msg(), "m: [table a] has no 'tag ='");
	assert_int_equal(manifest_parse("[table a]\nfile = r\ntag = t\ntrace = x\n"
					"trace-columns = a b\n",
					"m", &m),
			 ERR_DATA);
	assert_string_equal(err_msg(), "m: [table a] trace-columns must name an 'epoch' column");
	assert_int_equal(manifest_parse("[table a]\nfile = r\ntag = t\nfield.tput = nowhere:x\n",
					"m", &m),
			 ERR_DATA);
	assert_string_equal(err_msg(), "m:4:14: bad value for 'field.tput': 'nowhere:x'");
	/* prefer.NAME = SOURCE: a known source, a non-canonical name; a later line wins */
	assert_int_equal(manifest_parse("[table a]\nfile = r\ntag = t\nprefer.x = idle\n"
					"prefer.x = join\nprefer.y = set\n",
					"m", &m),
			 0);
	assert_int_equal(m->tables[0].nprefer, 2);
	assert_string_equal(m->tables[0].prefer[0].key, "x");
	assert_string_equal(m->tables[0].prefer[0].value, "join");
	manifest_free(m);
	m = NULL;
	assert_int_equal(
		manifest_parse("[table a]\nfile = r\ntag = t\nprefer.x = nowhere\n", "m", &m),
		ERR_DATA);
	assert_string_equal(err_msg(), "m:4:12: bad value for 'prefer.x': 'nowhere' (prefer.NAME = "
				       "SOURCE, one of results, join, generator, idle, acct, tag, "
				       "set)");
	assert_int_equal(
		manifest_parse("[table a]\nfile = r\ntag = t\nprefer.tput = join\n", "m", &m),
		ERR_DATA);
	assert_string_equal(err_msg(), "m:4:1: 'tput' is a canonical field: its source is chosen "
				       "with 'field.tput = SOURCE:NAME', not prefer");
	assert_int_equal(manifest_parse("# nothing\n", "m", &m), ERR_DATA);
	assert_string_equal(err_msg(), "m: no [table NAME] section");
}

/* Paths and patterns leave the corpus folder neither by '/' nor by '..' (issue 16). */
static void paths_are_confined(void **state)
{
	static const char *const refused[][2] = {
		{"discover = ../*/\n", "m:4:12: 'discover = ../*/' leaves"},
		{"discover = runs/../../*/\n", "m:4:12: 'discover = runs/../../*/' leaves"},
		{"rejected = /etc/*.REJECTED\n", "m:4:12: 'rejected = /etc/*.REJECTED' leaves"},
		{"generator = {run-dir}/../../x.json\n", "m:4:13: 'generator = "},
		{"trace = /proc/self/{tag}\n", "m:4:9: 'trace = /proc/self/{tag}' leaves"},
		{"topology = ../lscpu.txt\n", "m:4:12: 'topology = ../lscpu.txt' leaves"},
		{"join = ../system.tsv run\n", "m:4:8: 'join = ../system.tsv run' leaves"},
		{"text = ok.txt ..\n", "m:4:8: 'text = ok.txt ..' leaves"},
		{"run-dir = runs/..\n", "m:4:11: 'run-dir = runs/..' leaves"},
	};
	struct manifest *m = NULL;
	char text[256];
	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(text, sizeof(text), "[table a]\nfile = r.tsv\ntag = t\n%s", refused[i][0]);
		assert_int_equal(manifest_parse(text, "m", &m), ERR_DATA);
		assert_null(m);
		if (strncmp(err_msg(), refused[i][1], strlen(refused[i][1])) ||
		    !strstr(err_msg(), "confined to the corpus folder"))
			fail_msg("%s: got '%s'", refused[i][0], err_msg());
	}
	assert_int_equal(manifest_parse("[table a]\nfile = /r.tsv\ntag = t\n", "m", &m), ERR_DATA);
	assert_string_equal(err_msg(), "m:2:8: 'file = /r.tsv' leaves the corpus folder (an absolute "
				       "path or a '..' component): paths and patterns are confined "
				       "to the corpus folder");
	assert_int_equal(manifest_parse("[table a]\nfile = r\ntag = t\n[files]\ntext = ../x\n",
					"m", &m),
			 ERR_DATA);
	assert_string_equal(err_msg(), "m:5:8: 'text = ../x' leaves the corpus folder (an absolute "
				       "path or a '..' component): paths and patterns are confined "
				       "to the corpus folder");
	/* dots inside a name, and a join column named '..', are not a way out */
	assert_int_equal(manifest_parse("[table a]\nfile = r..tsv\ntag = ..{x}..\n"
					"discover = runs/..*/\njoin = s.tsv ..\n"
					"generator = a/.../b.json\n",
					"m", &m),
			 0);
	manifest_free(m);
}

struct vars {
	const char *names[4];
	const char *values[4];
};

static const char *lookup(const char *name, void *arg)
{
	struct vars *v = arg;
	for (int i = 0; i < 4 && v->names[i]; i++)
		if (!strcmp(v->names[i], name))
			return v->values[i];
	return NULL;
}

static void expands_templates(void **state)
{
	struct vars v = {{"target", "cfg", "level", NULL}, {"small", "pg", "300", NULL}};
	char *out = NULL;
	(void)state;
	assert_int_equal(manifest_expand("{target}-{cfg}-n{level}.tsv", lookup, &v, &out), 0);
	assert_string_equal(out, "small-pg-n300.tsv");
	free(out);
	assert_int_equal(manifest_expand("plain", lookup, &v, &out), 0);
	assert_string_equal(out, "plain");
	free(out);
	assert_int_equal(manifest_expand("{nope}", lookup, &v, &out), ERR_DATA);
	assert_null(out);
	assert_int_equal(manifest_expand("{unclosed", lookup, &v, &out), ERR_DATA);
}

/* tag matches pattern and its captures, joined by commas, are want. */
static void expect_captures(const char *pattern, const char *tag, const char *want)
{
	char **names = NULL, **values = NULL;
	size_t n = 0;
	char got[256] = "";
	assert_int_equal(manifest_match(pattern, tag, &names, &values, &n), 1);
	for (size_t i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? "," : "",
			 values[i]);
	assert_string_equal(got, want);
	manifest_free_captures(names, values, n);
}

static void matches_tag_patterns(void **state)
{
	char **names = NULL, **values = NULL;
	size_t n = 0;
	(void)state;
	/* the capacity corpus's rejected arm: cfg contains no "-n", block no "r" */
	expect_captures("{target}-{cfg}-n{level}-b{block}r{rep}", "medium-pgnofsync-n100-bfsr1",
			"medium,pgnofsync,100,fs,1");
	expect_captures("{target}-{cfg}-n{level}-b{block}r{rep}", "small-pg-n300-bsoakr7",
			"small,pg,300,soak,7");
	/* the last capture takes the rest */
	expect_captures("g{gomaxprocs}-n{sessions}-b{block}", "g8-n100-bgogc800-gogc800",
			"8,100,gogc800-gogc800");
	assert_int_equal(manifest_match("g{gomaxprocs}-n{sessions}-b{block}", "prof-g1-n100",
					&names, &values, &n),
			 0);
	assert_null(names);
}

static void hostile_tag_does_not_explode(void **state)
{
	char tag[5000];
	char **names = NULL, **values = NULL;
	size_t n = 0;
	(void)state;
	memset(tag, 'a', sizeof(tag) - 2);
	tag[sizeof(tag) - 2] = 'b';
	tag[sizeof(tag) - 1] = '\0';
	/* backtracking is bounded, and texts over 4096 bytes never match */
	assert_int_equal(manifest_match("{a}a{b}a{c}a{d}a{e}c", tag, &names, &values, &n), 0);
	tag[300] = '\0';
	assert_int_equal(manifest_match("{a}a{b}a{c}a{d}a{e}c", tag, &names, &values, &n), 0);
}

static void detects_layouts(void **state)
{
	const char *why = NULL;
	(void)state;
	assert_string_equal(profile_detect(SHARED_CORPORA "/sky/gomaxprocs-scaling-20260816", &why),
			    "sky-gomaxprocs");
	assert_string_equal(profile_detect(SHARED_CORPORA "/sky/gcp-x86-capacity-20260816", &why),
			    "sky-capacity");
	assert_null(profile_detect(SHARED_CORPORA "/writeups", &why));
	assert_non_null(strstr(why, "--manifest"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_both_builtin_profiles),
		cmocka_unit_test(errors_name_the_line),
		cmocka_unit_test(paths_are_confined),
		cmocka_unit_test(expands_templates),
		cmocka_unit_test(matches_tag_patterns),
		cmocka_unit_test(hostile_tag_does_not_explode),
		cmocka_unit_test(detects_layouts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
