/*
 * plot: drawing with gnuplot through a pipe, safely.
 *
 * A plot is an image plus the data file and the gnuplot script that draw
 * it, named after the image so that they cannot collide with its
 * siblings: NAME.svg (or NAME.png), NAME.svg.tsv and NAME.svg.gp; anyone
 * can re-plot with `cd DIR && gnuplot NAME.svg.gp`. The script names its
 * files relative to its folder, each behind "./" so that no name reaches
 * gnuplot starting with a character it gives meaning to ('|' and '<' run
 * commands, '-', '+', '$', '~' and '' name other things).
 *
 * The files are created, never clobbered (common/outfile.h): plot_draw
 * writes them in a stage inside DIR (new files, O_EXCL|O_NOFOLLOW), has
 * gnuplot draw the image there, and only when it succeeded moves all
 * three to their names. A name that already holds something coreplan did
 * not write (or a symbolic link) is an error naming it, and the file stays
 * as it was; with out.force, the files coreplan wrote there before are
 * replaced. A failed drawing (gnuplot's error, or no gnuplot) leaves DIR as
 * it was, except that out.data_without_image keeps the data and script
 * when gnuplot is not installed. DIR's marker (.coreplan-outputs) records
 * what coreplan wrote.
 *
 * The script is fed to gnuplot on a pipe (fork and execvp, no shell);
 * gnuplot's standard output goes to /dev/null (it writes the image there
 * when it cannot open the output file), its standard error is kept for
 * the message. Success means exit status 0 AND a non-empty output file.
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
#include "render.h"

enum plot_format { PLOT_SVG, PLOT_PNG };


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
	/*
	 * What follows `with` (a constant of the caller: style, point type,
	 * colour, dash), or NULL for the style's own; never corpus text.
	 */
	const char *with;
};

/*
 * Is the series drawn? Lines and bands need two points (x and y numbers),
 * points, error bars and boxes one; the others are left out of the data
 * and the script (and callers say so in their captions).
 */
bool plot_series_drawable(const struct plot_series *ps);
/* The series' points with both x and y numbers. */
size_t plot_series_points(const struct plot_series *ps);

struct plot_session;

/* How a plot's files are written (plot_draw; plot/plots.h, plot/sizing_plot.h). */
struct plot_output {
	const char *display_dir; /* how messages spell the folder (NULL: dir) */
	bool force;              /* replace the image, data and script coreplan wrote there */
	bool data_without_image; /* without gnuplot, still write the data and the script */
	/* the gnuplot that draws it (plot/session.h: a report's), NULL: one of its own */
	struct plot_session *session;
};

struct plot_spec {
	const char *dir;  /* the image's folder (it must exist) */
	const char *name; /* the image is NAME.svg or NAME.png (outfile_name_check) */
	enum plot_format format;
	struct plot_output out;
	const char *title, *xlabel, *ylabel, *y2label;
	bool log2_x;
	bool pad; /* a margin left, right and above the data (points at the edges) */
	bool has_shade; /* an x range shaded behind the data */
	double shade_from, shade_to;
	const char *shade_label;
	bool has_vline; /* a vertical dashed line, e.g. the physical-core boundary */
	double vline;
	const char *vline_label;
	bool has_hline; /* a horizontal line, e.g. a target */
	double hline;
	const char *hline_title;
	const char *const *xtic_labels; /* labels at x = 0, 1, ..., n-1 (boxes), or NULL */
	size_t nxtic_labels;
};

/*
 * Draw DIR/NAME.<ext> with its DIR/NAME.<ext>.tsv and DIR/NAME.<ext>.gp,
 * created as above. On success *image gets the image's file name (caller
 * frees). Returns like plot_render(); an existing file at one of the three
 * names is an error before anything is drawn.
 */
int plot_draw(const struct plot_spec *spec, const struct plot_series *series, size_t nseries,
	      char **image);

#endif
