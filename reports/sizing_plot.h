/*
 * sizing_plot: the picture of `coreplan size --plot FILE`: the predicted
 * capacity of every instance that has a prediction (boxes, with the
 * bounds as error bars), the measured cells of the instances the corpus
 * ran on beside them (median with min-max bars, one mark per cell spread
 * across the box: the cells at the session counts asked for, or every
 * cell without --sessions), against the target (a horizontal line).
 *
 * FILE's extension chooses the format (.png: PNG, anything else SVG); its
 * base name without the extension is the stem of the data and the script
 * written beside it (DIR/STEM.tsv, DIR/STEM.gp; reports/plot.h), so
 * `cd DIR; gnuplot STEM.gp` re-plots. Without gnuplot the data and script
 * are still written, a warning says the picture was not drawn, and image
 * is NULL: the sizing stands without its picture.
 *
 * Kept apart from the other plots (reports/plots.h) until they merge.
 */
#ifndef COREPLAN_SIZING_PLOT_H
#define COREPLAN_SIZING_PLOT_H

#include "../analysis/size.h"

struct sizing_plot {
	char *image;  /* the image's path (FILE as given), or NULL when not drawn */
	char *data;   /* the data file's path */
	char *script; /* the gnuplot script's path */
};

/*
 * Draw res to path. 0 (image NULL without gnuplot), or an error: no
 * instance has a prediction, a file cannot be written, gnuplot failed.
 * Release out either way.
 */
int sizing_plot_draw(const struct size_result *res, const char *path, struct sizing_plot *out);
void sizing_plot_release(struct sizing_plot *p);

#endif
