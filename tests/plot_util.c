/*
 * plot_util (plot_util.h): the plot tests' scratch folders, hostile
 * strings and PATH changes.
 */
#include "plot_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/strbuf.h"
#include "plot/plot.h"
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of the test running now: removed by plot_teardown even when it fails. */
static struct tmp last_tmp;
static bool have_tmp;
static char *saved_path;

char *quoted(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(plot_quote(&sb, text), 0);
	return strbuf_detach(&sb);
}

/* SVG text with the five XML entities and numeric references decoded. */
char *xml_unescape(const char *s)
{
	static const struct {
		const char *entity;
		char c;
	} entities[] = {{"&apos;", '\''}, {"&quot;", '"'}, {"&amp;", '&'}, {"&lt;", '<'},
			{"&gt;", '>'},	  {"&#39;", '\''}, {"&#34;", '"'}, {"&#x27;", '\''},
			{"&#x22;", '"'}, {"&#96;", '`'},  {"&#x60;", '`'}, {"&#64;", '@'}};
	char *out = malloc(strlen(s) + 1), *o = out;
	assert_non_null(out);
	while (*s) {
		size_t i;
		for (i = 0; i < ARRAY_LEN(entities); i++) {
			size_t n = strlen(entities[i].entity);
			if (!strncmp(s, entities[i].entity, n)) {
				*o++ = entities[i].c;
				s += n;
				break;
			}
		}
		if (i == ARRAY_LEN(entities))
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

void tmp_make(struct tmp *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/coreplan-test-plot-XXXXXX");
	if (!mkdtemp(t->dir))
		fail_msg("mkdtemp failed");
	for (size_t i = 0; i < ARRAY_LEN(t->pwned); i++) {
		snprintf(t->pwned[i], sizeof(t->pwned[i]), "/tmp/coreplan-pwned-%ld-%zu",
			 (long)getpid(), i);
		snprintf(t->rel_pwned[i], sizeof(t->rel_pwned[i]), "X%zu", i);
		unlink(t->pwned[i]);
	}
	last_tmp = *t;
	have_tmp = true;
}

void tmp_remove(struct tmp *t)
{
	DIR *d = opendir(t->dir);
	struct dirent *e;
	char path[512];
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t->dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(t->dir);
	for (size_t i = 0; i < ARRAY_LEN(t->pwned); i++)
		unlink(t->pwned[i]);
	have_tmp = false;
}

int plot_teardown(void **state)
{
	(void)state;
	path_restore();
	if (have_tmp) {
		char sub[128];
		snprintf(sub, sizeof(sub), "%s/empty-bin", last_tmp.dir);
		rmdir(sub);
		tmp_remove(&last_tmp);
	}
	return 0;
}

void check_not_pwned(const struct tmp *t)
{
	struct stat st;
	char path[512];
	for (size_t i = 0; i < ARRAY_LEN(t->pwned); i++) {
		if (stat(t->pwned[i], &st) == 0)
			fail_msg("INJECTION: '%s' exists: a hostile string ran a command", t->pwned[i]);
		snprintf(path, sizeof(path), "%s/%s", t->dir, t->rel_pwned[i]);
		if (stat(path, &st) == 0)
			fail_msg("INJECTION: '%s' exists: a hostile string ran a command", path);
		if (stat(t->rel_pwned[i], &st) == 0)
			fail_msg("INJECTION: '%s' exists in the test's folder", t->rel_pwned[i]);
	}
	if (stat("X", &st) == 0 || stat("/tmp/X", &st) == 0)
		fail_msg("INJECTION: a file named X exists");
}

/* The folder holds exactly the files named (NULL-terminated). */

void check_dir_holds(const char *dir, const char *const *names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, want = 0;
	assert_non_null(d);
	while (names[want])
		want++;
	while ((e = readdir(d)) != NULL) {
		bool known = false;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		for (size_t i = 0; names[i]; i++)
			known |= !strcmp(e->d_name, names[i]);
		if (!known) {
			closedir(d);
			fail_msg("unexpected file '%s' in '%s'", e->d_name, dir);
		}
		n++;
	}
	closedir(d);
	if (n != want)
		fail_msg("'%s' holds %zu files, expected %zu", dir, n, want);
}

void hostile_strings(const struct tmp *t, char *out[NHOSTILE], bool quote_runs)
{
	static char b[NHOSTILE][512];
	const size_t n = sizeof(b[0]);
	snprintf(b[0], n, "it's `touch %s` and `touch %s`", t->pwned[0], t->rel_pwned[0]);
	snprintf(b[1], n, "system(\"touch %s\") . system(\"touch %s\")", t->pwned[1],
		 t->rel_pwned[1]);
	snprintf(b[2], n, "line one\nsystem \"touch %s\"\n!touch %s", t->pwned[2], t->rel_pwned[2]);
	snprintf(b[3], n, "cr\rsystem \"touch %s\"\r\n", t->pwned[3]);
	snprintf(b[4], n, "%s'; !touch %s", quote_runs ? "" : "x", t->pwned[4]);
	snprintf(b[5], n, "@macro @m '@m' \"; system(\"touch %s\"); \"", t->pwned[5]);
	snprintf(b[6], n, "ctl\x01\x02\t\x1b[1m\x7f' ; `touch %s`", t->pwned[6]);
	snprintf(b[7], n, "%s\\' \\` `touch %s` ^_{}&<>", quote_runs ? "''''" : "a'b'c",
		 t->pwned[7]);
	for (size_t i = 0; i < NHOSTILE; i++)
		out[i] = b[i];
}

/* What the string looks like once drawn: control bytes dropped. */
char *drawn(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	assert_non_null(out);
	for (; *s; s++)
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s != 0x7f)
			*o++ = *s;
	*o = '\0';
	return out;
}

bool gnuplot_on_path(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

char *slurp_in(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp(path, NULL);
}

void path_set(const char *path)
{
	if (!saved_path) {
		saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
		assert_non_null(saved_path);
	}
	assert_int_equal(setenv("PATH", path, 1), 0);
}

void path_restore(void)
{
	if (!saved_path)
		return;
	setenv("PATH", saved_path, 1);
	free(saved_path);
	saved_path = NULL;
}

void path_without_gnuplot(const struct tmp *t, char *bin, size_t size)
{
	snprintf(bin, size, "%s/empty-bin", t->dir);
	assert_int_equal(mkdir(bin, 0700), 0);
	path_set(bin);
}
