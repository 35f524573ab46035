/*
 * plots: the five plot kinds, built from the analyses and drawn with
 * reports/plot.h. Shared by `coreplan plot` and `coreplan report`, so a
 * report's plots are exactly what `plot` draws.
 *
 *   scaling  per-level medians with min-max bars, ideal linear from the
 *            base level, and the fitted power law
 *   blocks   every run's value per level, one series per block
 *   trace    one run's app cores and RSS over time, plateau shaded
 *   memory   memory against the level with the OLS line and its 95%
 *            confidence band (for the mean)
 *   sizing   predicted capacity per instance against the target line
 *            (drawn by `coreplan size --plot`)
 * Titles carry the corpus and filter; axis labels carry units.
 */
#ifndef COREPLAN_CLI_PLOTS_H
#define COREPLAN_CLI_PLOTS_H

#include <sqlite3.h>

#include "../reports/plot.h"
#include "common.h"

struct plot_job {
	const struct common_args *common;
	const char *by;      /* level field (scaling, blocks, memory) */
	const char *block;   /* block field (blocks) */
	const char *tag;     /* run (trace) */
	const char *context; /* corpus and filter, for titles */
	const char *dir, *name;
	enum plot_format format;
};

int plots_scaling(sqlite3 *db, const struct plot_job *job, char **image);
int plots_blocks(sqlite3 *db, const struct plot_job *job, char **image);
int plots_trace(sqlite3 *db, const struct plot_job *job, char **image);
int plots_memory(sqlite3 *db, const struct plot_job *job, char **image);

/* The unit of a field for axis labels ("interactions/s"), or "". */
const char *plots_unit(const char *field);

#endif
