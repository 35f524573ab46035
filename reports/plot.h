/*
 * plot: drawing with gnuplot through a pipe, safely.
 *
 * A plot is a gnuplot script plus the data file it reads; both are written
 * beside the image (NAME.gp, NAME.tsv, NAME.svg or NAME.png), so anyone can
 * re-plot with `gnuplot NAME.gp`. The script is fed to gnuplot on a pipe
 * (fork and execvp, no shell); gnuplot's standard output goes to
 * /dev/null (it writes the image there when it cannot open the output
 * file), its standard error is kept for the message. Success means exit
 * status 0 AND a non-empty output file.
 *
 * Every string that comes from a corpus (tags, column names, file names,
 * corpus names) reaches gnuplot only through plot_quote(): single quotes,
 * control characters removed, and each single quote of the text made by
 * sprintf('%c',39) and concatenated ('it'.sprintf('%c',39).'s': gnuplot
 * 5.4 misreads doubled quotes right after an opening quote, and a "'"
 * piece would let its macro scanner expand @names). gnuplot runs
 * backquoted text inside double quotes and ends a command at a raw
 * newline; single quotes stop both.
 * Terminals use `noenhanced` so ^ _ @ { } are literal.
 */
#ifndef COREPLAN_PLOT_H
#define COREPLAN_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/strbuf.h"

enum plot_format { PLOT_SVG, PLOT_PNG };

/* Returned by plot_render when there is no gnuplot to run. */
#define PLOT_NOT_INSTALLED 3

/* Append text as a gnuplot string expression made of single-quoted pieces. */
int plot_quote(struct strbuf *sb, const char *text);
/* A data-file field: tabs, newlines and other control characters become spaces. */
void plot_data_text(FILE *fp, const char *text);

/*
 * Start a script for `image` (its terminal chosen by format): terminal,
 * output, title, axis labels. Callers append `plot ...` lines.
 */
int plot_begin(struct strbuf *script, enum plot_format format, const char *image,
	       const char *title, const char *xlabel, const char *ylabel);

/*
 * Write the script to DIR/SCRIPT_NAME, run gnuplot on it in DIR (the
 * script names its files relative to DIR, so `cd DIR; gnuplot NAME.gp`
 * re-plots) and check DIR/IMAGE_NAME. 0, PLOT_NOT_INSTALLED, or ERR_DATA
 * with gnuplot's message.
 */
int plot_render(const char *script, const char *dir, const char *script_name,
		const char *image_name);

/* "svg" or "png". */
const char *plot_extension(enum plot_format format);

/*
 * A plot of several series, each a block of the data file (gnuplot
 * `index i`). Columns: x, y, and for `yerrorbars` y_low, y_high, for
 * `filledcurves` y_low, y_high (a band). Numbers only: NaN rows are left
 * out.
 */
enum plot_style { PLOT_POINTS, PLOT_LINES, PLOT_LINESPOINTS, PLOT_ERRORBARS, PLOT_BAND,
		  PLOT_BOXES };

struct plot_series {
	const char *title;
	enum plot_style style;
	size_t n;
	const double *x, *y, *y_low, *y_high;
	bool y2; /* on the right-hand axis */
};

struct plot_spec {
	const char *dir;  /* folder for NAME.gp, NAME.tsv and the image */
	const char *name; /* file stem, made of [a-z0-9_-] only */
	enum plot_format format;
	const char *title, *xlabel, *ylabel, *y2label;
	bool log2_x;
	bool has_shade; /* an x range shaded behind the data */
	double shade_from, shade_to;
	const char *shade_label;
	bool has_hline; /* a horizontal line, e.g. a target */
	double hline;
	const char *hline_title;
	const char *const *xtic_labels; /* labels at x = 0, 1, ..., n-1 (boxes), or NULL */
	size_t nxtic_labels;
};

/*
 * Write DIR/NAME.tsv, DIR/NAME.gp and render DIR/NAME.<ext>. On success
 * *image gets the image's file name (caller frees). Returns like
 * plot_render().
 */
int plot_draw(const struct plot_spec *spec, const struct plot_series *series, size_t nseries,
	      char **image);

#endif
