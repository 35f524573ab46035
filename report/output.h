/*
 * report output: the folder `coreplan report --out DIR` writes, and the
 * stage its files are written in before they replace an earlier report.
 *
 * DIR (common/outfile.h) is created when missing; one that holds a corpus
 * (a coreplan.manifest, a results table, runs/ or samples/), lies inside an
 * imported corpus's folder, lies inside a folder an earlier coreplan wrote
 * (OLD/plots of a report in OLD), or holds any file coreplan did not write
 * is refused, naming it, and left untouched. One holding an earlier report
 * has that report replaced whole: its files (recorded in
 * DIR/.coreplan-outputs as the report's and unchanged since) are removed
 * before the new ones move in, so no stale plot stays; what `coreplan plot`
 * or `size --plot` drew into DIR stays (one drawn into DIR/plots refuses
 * the report, naming it). Stages a killed report left in DIR are removed.
 *
 * Call order:
 *   report_output_open     lock DIR, check it, make the stage and its plots/
 *   report_output_create   a new file NAME in the stage (report.md, ...)
 *   report_output_close    close it (a failed write is an error naming it)
 *   report_output_install  the earlier report out, plots/ and every file
 *                          created in, the marker saved
 *   report_output_release  unstage what a failure left, unlock, free
 * Plots are drawn into plots_dir (the stage's plots/) and named to users
 * as plots_shown (DIR/plots), all by one gnuplot (gnuplot, a plot session
 * in plots_dir: pass it in each plot's struct plot_output). A failure
 * before install leaves DIR as it was.
 */
#ifndef COREPLAN_REPORT_OUTPUT_H
#define COREPLAN_REPORT_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include <sqlite3.h>

struct outdir;
struct plot_session;

struct report_output {
	const char *out_dir; /* as the user gave it (not owned) */
	struct outdir *od;   /* locked while the report is written */
	char *stage;         /* where the new report is written */
	char *plots_dir;     /* the stage's plots/, where the plots are drawn */
	char *plots_shown;   /* DIR/plots: what the report and its messages name */
	char **files;        /* names created in the stage, to install */
	size_t nfiles;
	/* one gnuplot for every plot of the report (plot/session.h), ended by install */
	struct plot_session *gnuplot;
};

/* db: the database whose imported corpora's folders are refused (schema/corpus_tree.h). */
int report_output_open(struct report_output *o, const char *out_dir, sqlite3 *db);
/* Create stage/NAME; *path_shown (optional, caller frees) is DIR/NAME. */
int report_output_create(struct report_output *o, const char *name, FILE **fp, char **path_shown);
int report_output_close(struct report_output *o, FILE *fp, const char *name);
int report_output_install(struct report_output *o);
void report_output_release(struct report_output *o);

#endif
