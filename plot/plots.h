/*
 * plots: the data, script and image of each plot kind, drawn with
 * plot/plot.h from an analysis result (analysis/plot_runs.h); nothing
 * here reads the database. Shared by `coreplan plot` and `coreplan
 * report`, so a report's plots are exactly what `plot` draws.
 *
 *   scaling  per-level medians with min-max bars, ideal linear from the
 *            base level, and the fitted power law (when there is one).
 *            With a known host the physical-core, SMT and beyond-the-CPUs
 *            levels are three series (distinct marks and colours), the
 *            physical-core boundary is a dashed vertical line with the
 *            levels beyond it shaded, and the power law (fitted over the
 *            physical-core levels' runs) is solid over those levels and
 *            dashed where it is extrapolated
 *   blocks   every run's value per level, one series per block
 *   trace    one run's app cores and RSS over time, plateau shaded; each
 *            interval's rate over its own length (analysis/plot_runs.h: plots_interval_seconds)
 *   memory   memory against the level, one colour per group of the
 *            memory analysis (its table's groups): the runs, the OLS line
 *            and its 95% confidence band (for the mean); a group without a
 *            fit (one level) has its points only
 * Titles carry the context (corpus and filter); axis labels carry units
 * ("unit not recorded" for a results-table column coreplan has no unit
 * for). Series a plot cannot draw (no point; a line or band with one
 * point: plot_series_drawable) are left out and the caption names them.
 * Each function writes the image DIR/NAME.svg (or .png) with its data
 * DIR/NAME.svg.tsv and script DIR/NAME.svg.gp, created as plot_draw()
 * creates them (never over a file coreplan did not write), and on success
 * sets *image to the image's file name (caller frees); it returns like
 * plot_draw() (0, PLOT_NOT_INSTALLED, or ERR_DATA with the message).
 */
#ifndef COREPLAN_PLOTS_H
#define COREPLAN_PLOTS_H

#include "../analysis/cores.h"
#include "../analysis/fit.h"
#include "../analysis/memory.h"
#include "../analysis/plot_runs.h"
#include "../analysis/select.h"
#include "../analysis/stats.h"
#include "../analysis/sweep.h"
#include "../analysis/window.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"
#include "plot.h"

/* Where a plot goes and what its title says. */
struct plot_target {
	const char *dir;  /* the image's folder */
	const char *name; /* the image is NAME.svg or NAME.png */
	enum plot_format format;
	const char *context; /* corpus and filter for the title; NULL: "all runs" */
	struct plot_output out; /* force, display_dir, data_without_image */
	/*
	 * When not NULL, the plot's caption is appended on success: one
	 * paragraph saying what the plot shows, which runs (n and the
	 * filter or group) and which series were not drawn and why.
	 */
	struct strbuf *caption;
};

/* power: the fitted power law over the runs, or NULL for none. */
int plots_scaling(const struct plot_target *t, const char *by, const char *metric,
		  const struct sweep_result *res, const struct fit_result *power, char **image);
/* sel: runs with numeric levels and their block values (NULL block: "NA"). */
int plots_blocks(const struct plot_target *t, const char *by, const char *metric,
		 const struct selection *sel, char **image);
/*
 * The run's trace series (reduced as plot_runs.h says: then the title
 * says "N rows reduced to M points per series by min/max per bucket"); cores
 * says whether the plateau is shaded.
 */
int plots_trace(const struct plot_target *t, const char *tag, const struct trace_plot *tp,
		const struct run_cores *cores, char **image);
/* mr: the memory analysis (memory.h): its points and one fit per group. */
int plots_memory(const struct plot_target *t, const char *by, const char *metric,
		 const struct memory_result *mr, char **image);


/* The plot of res's kind, as req asked for it. */
int plots_draw(const struct plot_target *t, const struct plot_request *req,
	       const struct plot_result *res, char **image);

/* Append the title context of a filter: "CORPUS" or "all corpora", then ", F=V,V G=V". */
int plots_context(const struct run_filter *filter, struct strbuf *sb);

/* The unit of a field for axis labels ("interactions/s"), or "". */
const char *plots_unit(const char *field);

#endif
