/*
 * plot session: one gnuplot process for many plots (a report's), so that
 * a report starts gnuplot once, not once per plot (its start-up was half
 * of a report's time).
 *
 * A session draws the plots whose stage is a folder directly inside its
 * folder DIR (plot_draw's stage, named by coreplan: a safe name). gnuplot
 * runs in DIR; each plot is sent on its standard input as
 *   reset session                 every setting and variable as at start
 *   cd './STAGE'                  the script names its files relative to it
 *   SCRIPT                        exactly the NAME.gp written beside it
 *   cd '..'
 *   print 'coreplan-plot-N', GPVAL_ERRNO   (to gnuplot's standard error)
 *   reset errors
 * and its outcome is read back before the next plot: the marker line
 * ends the plot, GPVAL_ERRNO says whether any command of it failed, and
 * what gnuplot wrote to standard error before the marker is the plot's
 * message. So each plot succeeds or fails as it does in a gnuplot of its
 * own (plot_render): the same image bytes, the same checks (a non-empty
 * image file), the same messages; a gnuplot that exits (or is not
 * installed) ends the plot with that, and the next plot starts a new
 * gnuplot. Plots in another folder are drawn by plot_render.
 *
 * Writing the script and reading gnuplot's messages are interleaved
 * (poll), so neither pipe can fill and stall the other. The session ends
 * with plot_session_close: gnuplot's input closed, the process waited for.
 */
#ifndef COREPLAN_PLOT_SESSION_H
#define COREPLAN_PLOT_SESSION_H

#include <stddef.h>

struct plot_session;

/* A session drawing in DIR; gnuplot starts with the first plot. Out of memory is an error. */
int plot_session_open(const char *dir, struct plot_session **out);
/* plot_render() (plot.h) through the session: the same arguments and returns. */
int plot_session_render(struct plot_session *s, const char *script, const char *dir,
			const char *what, const char *image_name);
/* gnuplot processes the session started (1 for a report whose plots all drew). */
size_t plot_session_started(const struct plot_session *s);
/* End gnuplot and free the session (NULL: nothing). */
void plot_session_close(struct plot_session *s);

#endif
