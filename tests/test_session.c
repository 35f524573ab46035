/*
 * Unit tests for plot/session: many plots through one gnuplot.
 *
 * The reference is gnuplot itself: every image a session draws is compared
 * byte for byte with the same plot drawn by a gnuplot of its own
 * (plot_draw without a session, i.e. plot_render: the tested behaviour of
 * test_plot.c). The plots are ordered so that state left over from one
 * plot would show in the next: the first sets a log scale, a shaded range,
 * a vertical line with a label, a right-hand axis, offsets and a target
 * line; the second sets none of them. A script with an error fails with
 * gnuplot's own message ("undefined function") and the session goes on; a
 * PATH without gnuplot gives PLOT_NOT_INSTALLED. gnuplot must be on PATH.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "plot/plot.h"
#include "plot/session.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, fp) == (size_t)n)
		*len = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

static void same_file(const char *a, const char *b)
{
	size_t la = 0, lb = 0;
	char *x = read_all(a, &la), *y = read_all(b, &lb);
	if (!x || !y || la != lb || memcmp(x, y, la) != 0)
		fail_msg("'%s' (%zu bytes) and '%s' (%zu bytes) differ", a, la, b, lb);
	free(x);
	free(y);
}

static const double xs[] = {1, 2, 4, 8}, ys[] = {100, 190, 350, 600};
static const double lo[] = {90, 180, 330, 560}, hi[] = {110, 200, 370, 640};

/* Plot i (0: every decoration, 1: none, 2: boxes with tic labels) into dir. */
static int draw(const char *dir, int i, struct plot_session *s, enum plot_format format)
{
	static const char *const tics[] = {"a", "b'c", "d"};
	struct plot_series series[2] = {{"median", PLOT_LINESPOINTS, 4, xs, ys, NULL, NULL, false},
					{"range", PLOT_ERRORBARS, 4, xs, ys, lo, hi, i == 0}};
	struct plot_spec spec;
	char name[16], *image = NULL;
	int rc;
	memset(&spec, 0, sizeof(spec));
	snprintf(name, sizeof(name), "p%d", i);
	spec.dir = dir;
	spec.name = name;
	spec.format = format;
	spec.out.session = s;
	spec.title = "title";
	spec.xlabel = "x";
	spec.ylabel = "y";
	if (i == 0) {
		spec.y2label = "y2";
		spec.log2_x = spec.pad = true;
		spec.has_shade = true;
		spec.shade_from = 4;
		spec.shade_to = 8;
		spec.shade_label = "beyond";
		spec.has_vline = true;
		spec.vline = 4;
		spec.vline_label = "physical";
		spec.has_hline = true;
		spec.hline = 500;
		spec.hline_title = "target";
	} else if (i == 2) {
		series[0].style = PLOT_BOXES;
		series[0].n = 3;
		spec.xtic_labels = tics;
		spec.nxtic_labels = 3;
	}
	rc = plot_draw(&spec, series, 2, &image);
	free(image);
	return rc;
}

static void make_dir(char *tmpl)
{
	if (!mkdtemp(tmpl))
		fail_msg("mkdtemp failed");
}

static void remove_dir(const char *dir)
{
	assert_int_equal(remove_tree(dir), 0);
}

static void test_session_same_images(void **state)
{
	char alone[] = "/tmp/coreplan-session-a-XXXXXX",
	     shared[] = "/tmp/coreplan-session-s-XXXXXX";
	struct plot_session *s = NULL;
	(void)state;
	make_dir(alone);
	make_dir(shared);
	assert_int_equal(plot_session_open(shared, &s), 0);
	for (int f = 0; f < 2; f++)
		for (int i = 0; i < 3; i++) {
			char a[256], b[256], cmd[600];
			const char *ext = plot_extension(f ? PLOT_PNG : PLOT_SVG);
			/* a fresh name each round: plots are created, never replaced */
			snprintf(cmd, sizeof(cmd), "rm -f %s/p%d.* %s/p%d.*", alone, i, shared, i);
			assert_int_equal(system(cmd), 0);
			assert_int_equal(draw(alone, i, NULL, f ? PLOT_PNG : PLOT_SVG), 0);
			if (draw(shared, i, s, f ? PLOT_PNG : PLOT_SVG) != 0)
				fail_msg("plot %d in the session: %s", i, err_msg());
			snprintf(a, sizeof(a), "%s/p%d.%s", alone, i, ext);
			snprintf(b, sizeof(b), "%s/p%d.%s", shared, i, ext);
			same_file(a, b);
			snprintf(a, sizeof(a), "%s/p%d.%s.gp", alone, i, ext);
			snprintf(b, sizeof(b), "%s/p%d.%s.gp", shared, i, ext);
			same_file(a, b);
		}
	/* six plots, one gnuplot */
	assert_int_equal(plot_session_started(s), 1);
	plot_session_close(s);
	remove_dir(alone);
	remove_dir(shared);
}

/* A plot whose script fails: gnuplot's message, no image; the session goes on. */
static void test_session_error_then_next(void **state)
{
	char dir[] = "/tmp/coreplan-session-e-XXXXXX", stage[300], image[320];
	struct plot_session *s = NULL;
	struct stat st;
	int rc;
	(void)state;
	make_dir(dir);
	snprintf(stage, sizeof(stage), "%s/.coreplan-tmp-test", dir);
	assert_int_equal(mkdir(stage, 0700), 0);
	assert_int_equal(plot_session_open(dir, &s), 0);
	rc = plot_session_render(s,
				 "set terminal svg\nset output './bad.svg'\nplot nosuch(x)\n"
				 "unset output\n",
				 stage, "bad plot", "bad.svg");
	assert_true(rc < 0);
	if (!strstr(err_msg(), "gnuplot failed on 'bad plot': ") ||
	    !strstr(err_msg(), "undefined function"))
		fail_msg("message: %s", err_msg());
	snprintf(image, sizeof(image), "%s/bad.svg", stage);
	assert_true(lstat(image, &st) != 0); /* no half-drawn image */
	err_clear();
	/* a script without a newline at its end, and a message from the last plot not carried */
	rc = plot_session_render(s,
				 "set terminal svg\nset output './good.svg'\nplot x\nunset output",
				 stage, "good plot", "good.svg");
	if (rc != 0)
		fail_msg("the next plot: %d %s", rc, err_msg());
	/* drawing nothing is an error, as in a gnuplot of its own */
	rc = plot_session_render(s, "print 1\n", stage, "empty plot", "none.svg");
	assert_true(rc < 0);
	if (!strstr(err_msg(), "gnuplot drew no image for 'empty plot'"))
		fail_msg("message: %s", err_msg());
	err_clear();
	assert_int_equal(plot_session_started(s), 1);
	/* a folder that is not a stage inside the session's: a gnuplot of its own */
	rc = plot_session_render(s,
				 "set terminal svg\nset output './own.svg'\nplot x\nunset output\n",
				 dir, "own plot", "own.svg");
	assert_int_equal(rc, 0);
	assert_int_equal(plot_session_started(s), 1);
	plot_session_close(s);
	remove_dir(dir);
}

static void test_session_not_installed(void **state)
{
	char dir[] = "/tmp/coreplan-session-n-XXXXXX", stage[300];
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	struct plot_session *s = NULL;
	(void)state;
	make_dir(dir);
	snprintf(stage, sizeof(stage), "%s/.coreplan-tmp-test", dir);
	assert_int_equal(mkdir(stage, 0700), 0);
	assert_int_equal(plot_session_open(dir, &s), 0);
	setenv("PATH", dir, 1);
	for (int i = 0; i < 2; i++)
		assert_int_equal(plot_session_render(s, "plot x\n", stage, "p", "p.svg"),
				 PLOT_NOT_INSTALLED);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	assert_int_equal(plot_session_started(s), 1); /* tried once */
	plot_session_close(s);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_same_images),
		cmocka_unit_test(test_session_error_then_next),
		cmocka_unit_test(test_session_not_installed),
	};
	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		fprintf(stderr, "gnuplot is not on PATH: the session tests need it\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
