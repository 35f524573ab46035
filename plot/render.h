/*
 * render: one gnuplot process drawing one script (plot_draw's default,
 * and what a plot session falls back to: plot/session.h).
 */
#ifndef COREPLAN_PLOT_RENDER_H
#define COREPLAN_PLOT_RENDER_H

/* gnuplot's name on PATH, and the exit status of a child that could not run it. */
#define PLOT_GNUPLOT "gnuplot"
#define PLOT_EXIT_NO_GNUPLOT 127

/* Returned by plot_render when there is no gnuplot to run. */
#define PLOT_NOT_INSTALLED 3

/*
 * Run gnuplot on script (fed on its standard input) in folder DIR and
 * check that it drew DIR/IMAGE_NAME, which must not exist before (DIR is a
 * fresh stage: gnuplot never draws over a file). what: the name messages
 * give the plot. 0, PLOT_NOT_INSTALLED, or ERR_DATA with gnuplot's message
 * (a half-drawn image removed).
 */
int plot_render(const char *script, const char *dir, const char *what, const char *image_name);

#endif
