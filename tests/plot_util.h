/*
 * plot_util: what the plot tests share (test_plot.c, test_plot_draw.c,
 * test_plots.c): a scratch folder per test with the names hostile strings
 * would create if they escaped their quotes, the checks that none of them
 * exists and that a folder holds only the files named, the hostile strings
 * themselves, and PATH changed for a test (a folder without gnuplot, a fake
 * gnuplot) and put back.
 *
 * Every test that makes a folder or changes PATH runs with plot_teardown,
 * which removes the folder and restores PATH even when the test fails.
 */
#ifndef COREPLAN_TESTS_PLOT_UTIL_H
#define COREPLAN_TESTS_PLOT_UTIL_H

#include <stdbool.h>
#include <stddef.h>

struct tmp {
	char dir[64];
	char pwned[8][128]; /* absolute files the hostile strings would create */
	char rel_pwned[8][16];
};

/* mkdtemp a folder for the running test (fails the test otherwise). */
void tmp_make(struct tmp *t);
/* Remove the folder's files, the folder and the pwned files. */
void tmp_remove(struct tmp *t);
/* Teardown: PATH restored, the running test's folder (and its empty-bin) removed. */
int plot_teardown(void **state);

/* No file any hostile string would create exists (fails the test naming it). */
void check_not_pwned(const struct tmp *t);
/* The folder holds exactly the files named (NULL-terminated). */
void check_dir_holds(const char *dir, const char *const *names);

/*
 * The hostile strings for a render: each would create t->pwned[i] or
 * t->rel_pwned[i] if it escaped its quotes. With quote_runs, one starts
 * with a quote (the brief's `'; !touch X`) and one with four quotes in a
 * row; without, the same payloads behind a letter and with single quotes
 * only. The strings are static: the next call overwrites them.
 */
enum { NHOSTILE = 8 };
void hostile_strings(const struct tmp *t, char *out[NHOSTILE], bool quote_runs);
/* What the string looks like once drawn: control bytes dropped (caller frees). */
char *drawn(const char *s);
/* plot_quote's output for text (caller frees). */
char *quoted(const char *text);
/* SVG text with the five XML entities and numeric references decoded (caller frees). */
char *xml_unescape(const char *s);
/* The whole file dir/name (caller frees). */
char *slurp_in(const char *dir, const char *name);

bool gnuplot_on_path(void);
/* PATH = path until path_restore (or plot_teardown); the old PATH is kept once. */
void path_set(const char *path);
void path_restore(void);
/* PATH = a new empty folder t->dir/empty-bin (its name in bin): no gnuplot. */
void path_without_gnuplot(const struct tmp *t, char *bin, size_t size);

#endif
