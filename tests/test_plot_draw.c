/*
 * Unit tests for plot/plot's plot_draw and its files.
 *
 * plot_draw's files (plot/plot.h, common/outfile.h): the data and
 * script are NAME.svg.tsv and NAME.svg.gp, so a corpus's results.tsv beside
 * a plot named results.svg stays as it was; a file coreplan did not write
 * at any of the three names is refused with or without force, naming it,
 * and nothing is written; drawing again needs force; a failed drawing (a
 * fake gnuplot on PATH that scribbles on its output and exits 1, or no
 * gnuplot) leaves the earlier image, data and script byte for byte; names
 * starting with '|' or '<' are refused and run nothing, and names gnuplot
 * reads specially ('$x' a datablock, '-' standard input, '+', '~', '@m')
 * draw, because every name reaches gnuplot behind "./".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "plot/plot.h"
#include "plot_util.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const double xs[] = {1, 2, 4, 8};
static const double ys[] = {480, 860, 1540, 1800};

/* ---- plot_draw's files: created new, never over a file coreplan did not write ---- */

static int draw_simple(const char *dir, const char *name, bool force, bool data_without_image,
		       char **image)
{
	struct plot_series s = {"s", PLOT_POINTS, 4, xs, ys, NULL, NULL, false};
	struct plot_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.dir = dir;
	spec.name = name;
	spec.title = "t";
	spec.xlabel = "x";
	spec.ylabel = "y";
	spec.out.force = force;
	spec.out.data_without_image = data_without_image;
	return plot_draw(&spec, &s, 1, image);
}

/* A new folder t with p.svg drawn in it. */
static void draw_first(struct tmp *t)
{
	char *image = NULL;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(t);
	assert_int_equal(draw_simple(t->dir, "p", false, false, &image), 0);
	free(image);
}

static void put_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* The three files' bytes, to compare before and after. */
static char *plot_state(const char *dir, const char *name)
{
	static const char *const exts[] = {".svg", ".svg.tsv", ".svg.gp"};
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < ARRAY_LEN(exts); i++) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s%s", dir, name, exts[i]);
		if (stat(path, &st) != 0) {
			strbuf_addf(&sb, "%s: none\n", exts[i]);
			continue;
		}
		{
			char *text = slurp(path, NULL);
			strbuf_addf(&sb, "%s: %s\n", exts[i], text);
			free(text);
		}
	}
	return strbuf_detach(&sb);
}

/* The plot's data beside a corpus file: NAME.svg.tsv, never NAME.tsv (the corpus's results.tsv). */
static void test_draw_names_beside_corpus_files(void **state)
{
	struct tmp t;
	char *image = NULL, *kept;
	char path[512];
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	put_text(t.dir, "results.tsv", "tag\ttput\nr1\t5\n");
	put_text(t.dir, "results.gp", "user's script\n");
	assert_int_equal(draw_simple(t.dir, "results", false, false, &image), 0);
	assert_string_equal(image, "results.svg");
	snprintf(path, sizeof(path), "%s/results.tsv", t.dir);
	kept = slurp(path, NULL);
	assert_string_equal(kept, "tag\ttput\nr1\t5\n");
	free(kept);
	snprintf(path, sizeof(path), "%s/results.gp", t.dir);
	kept = slurp(path, NULL);
	assert_string_equal(kept, "user's script\n");
	free(kept);
	{
		const char *const names[] = {"results.tsv", "results.gp", "results.svg",
					     "results.svg.tsv", "results.svg.gp", ".coreplan-outputs",
					     NULL};
		check_dir_holds(t.dir, names);
	}
	free(image);
	tmp_remove(&t);
}

/* A file coreplan did not write at any of the three names: refused, nothing written. */
static void test_draw_refuses_foreign_files(void **state)
{
	static const char *const names[] = {"p.svg", "p.svg.tsv", "p.svg.gp"};
	struct tmp t;
	(void)state;
	tmp_make(&t);
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		char *image = NULL, *before, *after;
		put_text(t.dir, names[i], "mine\n");
		before = plot_state(t.dir, "p");
		for (int force = 0; force <= 1; force++) {
			err_clear();
			assert_int_equal(draw_simple(t.dir, "p", force, true, &image), ERR_DATA);
			if (!strstr(err_msg(), names[i]) || !strstr(err_msg(), "coreplan did not write it"))
				fail_msg("the refusal does not name '%s': [%s]", names[i], err_msg());
			assert_null(image);
		}
		after = plot_state(t.dir, "p");
		assert_string_equal(before, after);
		{
			const char *const only[] = {names[i], NULL};
			check_dir_holds(t.dir, only); /* no marker, no stage, no other file */
		}
		free(before);
		free(after);
		tmp_remove(&t);
		tmp_make(&t);
	}
	err_clear();
	tmp_remove(&t);
}

/* Drawn again: refused without force, replaced with it. */
static void test_draw_force_replaces_own(void **state)
{
	struct tmp t;
	char *image = NULL;
	(void)state;
	draw_first(&t);
	err_clear();
	assert_int_equal(draw_simple(t.dir, "p", false, false, &image), ERR_DATA);
	if (!strstr(err_msg(), "--force replaces it"))
		fail_msg("no --force hint: [%s]", err_msg());
	err_clear();
	assert_int_equal(draw_simple(t.dir, "p", true, false, &image), 0);
	assert_string_equal(image, "p.svg");
	free(image);
	tmp_remove(&t);
}

/* PATH = a folder with a fake gnuplot that scribbles on its output and fails. */
static void fake_failing_gnuplot(const struct tmp *t, char *bin, size_t size)
{
	char path[600];
	FILE *fp;
	snprintf(bin, size, "%s/empty-bin", t->dir);
	assert_int_equal(mkdir(bin, 0700), 0);
	snprintf(path, sizeof(path), "%s/gnuplot", bin);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("#!/bin/sh\n"
	      "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" | head -n 1)\n"
	      "[ -n \"$out\" ] && printf 'scribbled' >\"$out\"\n"
	      "echo 'fake gnuplot: failing on purpose' >&2\n"
	      "exit 1\n",
	      fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, 0755), 0);
	{
		char newpath[1200];
		snprintf(newpath, sizeof(newpath), "%s:/usr/bin:/bin", bin);
		path_set(newpath);
	}
}

static void restore_path(const char *bin)
{
	char path[600];
	path_restore();
	snprintf(path, sizeof(path), "%s/gnuplot", bin);
	unlink(path);
	rmdir(bin);
}

/* A failed drawing (gnuplot's error, or no gnuplot) leaves the earlier plot as it was. */
static void test_draw_failure_keeps_earlier_plot(void **state)
{
	struct tmp t;
	char *image = NULL, *before, *after, bin[512];
	(void)state;
	draw_first(&t);
	before = plot_state(t.dir, "p");
	/* gnuplot fails after writing to its output */
	fake_failing_gnuplot(&t, bin, sizeof(bin));
	err_clear();
	assert_int_equal(draw_simple(t.dir, "p", true, true, &image), ERR_DATA);
	restore_path(bin);
	if (!strstr(err_msg(), "gnuplot failed") || !strstr(err_msg(), "failing on purpose"))
		fail_msg("not gnuplot's failure: [%s]", err_msg());
	err_clear();
	after = plot_state(t.dir, "p");
	assert_string_equal(before, after);
	free(after);
	/* no gnuplot at all */
	path_without_gnuplot(&t, bin, sizeof(bin));
	assert_int_equal(draw_simple(t.dir, "p", true, false, &image), PLOT_NOT_INSTALLED);
	restore_path(bin);
	after = plot_state(t.dir, "p");
	assert_string_equal(before, after);
	free(after);
	{
		const char *const names[] = {"p.svg", "p.svg.tsv", "p.svg.gp", ".coreplan-outputs",
					     NULL};
		check_dir_holds(t.dir, names);
	}
	free(before);
	tmp_remove(&t);
}

/*
 * Names gnuplot gives meaning to: '|' and '<' (pipes) are refused and run
 * nothing; '$' (a datablock), '-' (standard input), '+' and '~' draw,
 * since every name reaches gnuplot behind "./".
 */
static void test_draw_special_names(void **state)
{
	static const char *const drawn_names[] = {"$x", "-", "+", "~", "@m"};
	static const char *const refused[] = {"|touch PWNED;x", "<touch PWNED;x"};
	struct tmp t;
	struct stat st;
	char path[512];
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	for (size_t i = 0; i < ARRAY_LEN(refused); i++) {
		char *image = NULL;
		err_clear();
		assert_int_equal(draw_simple(t.dir, refused[i], false, false, &image), ERR_DATA);
		if (!strstr(err_msg(), "gnuplot reads as a command"))
			fail_msg("refusal of [%s] does not say why: [%s]", refused[i], err_msg());
		snprintf(path, sizeof(path), "%s/PWNED", t.dir);
		if (stat(path, &st) == 0 || stat("PWNED", &st) == 0)
			fail_msg("INJECTION: the name [%s] ran a command", refused[i]);
	}
	err_clear();
	for (size_t i = 0; i < ARRAY_LEN(drawn_names); i++) {
		char *image = NULL;
		int rc = draw_simple(t.dir, drawn_names[i], false, false, &image);
		if (rc != 0)
			fail_msg("plot named [%s] not drawn: %d %s", drawn_names[i], rc, err_msg());
		snprintf(path, sizeof(path), "%s/%s.svg", t.dir, drawn_names[i]);
		if (stat(path, &st) != 0 || st.st_size == 0)
			fail_msg("no image '%s'", path);
		free(image);
	}
	tmp_remove(&t);
}


/* every test: its folder removed and PATH restored even when it fails */
#define TEST(f) cmocka_unit_test_teardown(f, plot_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_draw_names_beside_corpus_files),
		TEST(test_draw_refuses_foreign_files),
		TEST(test_draw_force_replaces_own),
		TEST(test_draw_failure_keeps_earlier_plot),
		TEST(test_draw_special_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
