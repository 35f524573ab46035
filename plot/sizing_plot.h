/*
 * sizing_plot: the picture of `coreplan size --plot FILE`: the predicted
 * capacity of every instance that has a prediction (boxes, with the
 * bounds as error bars), the measured cells of the instances the corpus
 * ran on beside them (median with min-max bars, one mark per cell spread
 * across the box: the cells at the session counts asked for, or every
 * cell without --sessions), against the target (a horizontal line).
 *
 * FILE must end in .svg or .png (the format); its data and script are
 * written beside it as FILE.tsv and FILE.gp (plot/plot.h: created new,
 * never over a file coreplan did not write; o->force replaces the ones an
 * earlier coreplan wrote), so `cd DIR; gnuplot NAME.svg.gp` re-plots.
 * Without gnuplot the data and script are still written, a warning says
 * the picture was not drawn, and image is NULL: the sizing stands without
 * its picture.
 *
 * Kept apart from the other plots (plot/plots.h) until they merge.
 */
#ifndef COREPLAN_SIZING_PLOT_H
#define COREPLAN_SIZING_PLOT_H

#include "../analysis/size.h"
#include "plot.h"

struct sizing_plot {
	char *image;  /* the image's path (FILE as given), or NULL when not drawn */
	char *data;   /* the data file's path */
	char *script; /* the gnuplot script's path */
	/*
	 * When drawn: what the picture shows (the instances, the measured
	 * cells, the target) and which runs, one paragraph (NULL otherwise).
	 */
	char *caption;
};

/*
 * Draw res to path; o: force and how messages spell the folder (NULL: no
 * force, the path as given). 0 (image NULL without gnuplot), or an error:
 * no instance has a prediction, a file exists or cannot be written,
 * gnuplot failed. Release out either way.
 */
int sizing_plot_draw(const struct size_result *res, const char *path, const struct plot_output *o,
		     struct sizing_plot *out);
void sizing_plot_release(struct sizing_plot *p);

#endif
