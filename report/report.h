/*
 * report: `coreplan report`, the whole write-up of a selection of runs as
 * DIR/report.md with its plots in DIR/plots/.
 *
 * The report is composed in process: its plan (report/plan.h)
 * says which sections the runs support; each section runs the analysis a
 * command runs (sweep_run, noise_run, ...) with a typed filter and writes
 * the same document that command's builder makes (reports/builders.h),
 * in Markdown with its headings moved under the report's. A section the
 * runs cannot support says "Not measured" and why. Plots are drawn from
 * the same results the tables show (plot/plots.h).
 *
 * report.md has no timestamps and no path of the database: the same
 * corpora and options give a byte-identical file. Its footer names the
 * tool version, the corpora and one SHA-256 over their content hashes and
 * the report's options.
 *
 * The output folder (common/outfile.h): out_dir is created when missing;
 * one that holds a corpus (a coreplan.manifest, a results table, runs/ or
 * samples/) or any file coreplan did not write is refused, naming it,
 * and left untouched. One holding an earlier report has that
 * report replaced: its files (recorded in
 * DIR/.coreplan-outputs and unchanged since) are removed before the new
 * ones move in, so no stale plot stays. The report is written into a
 * stage inside out_dir and moved into place only when complete: a
 * failure leaves the folder as it was. Plots are named
 * plots/NN-KIND.svg with NN-KIND.svg.tsv and NN-KIND.svg.gp beside them;
 * where an image is missing report.md says why (gnuplot not installed,
 * gnuplot's error, or why the runs give no such plot).
 *
 * With html, DIR/report.html too: report.md as one self-contained page,
 * its plots inlined (report/report_html.h), written from the finished
 * report.md and the stage's plots, so it has the same content and is as
 * byte-identical across runs as report.md.
 *
 * report_run() returns a document of what it wrote (the report's path,
 * each section and whether it was measured), which `coreplan report`
 * prints.
 */
#ifndef COREPLAN_REPORT_H
#define COREPLAN_REPORT_H

#include <sqlite3.h>
#include <stdbool.h>

#include "../analysis/size.h"
#include "../doc/doc.h"
#include "../plot/plot.h"
#include "../schema/fields.h"

struct report_request {
	const struct run_filter *filter; /* --corpus and --where */
	const char *by;                  /* NULL: chosen (report_plan.h) */
	const char *metric;              /* NULL: chosen (report_plan.h) */
	const char *const *group;        /* NULL-terminated, or NULL: chosen */
	const char *translate_from;      /* conditions, or NULL: chosen */
	const char *translate_to;
	const struct size_request *size; /* the sizing section's request, NULL: none */
	const char *host;    /* count levels on this host (sweep, fit, smt); NULL: the runs' own */
	bool models;         /* scaling models whatever the level (else only over workers) */
	const char *workers; /* --workers FIELD: declared to count workers (sweep, fit, SMT), or NULL */
	const char *out_dir; /* new, empty or an earlier report's (below) */
	enum plot_format plot_format;
	const char *options_text; /* the options in words, hashed into the footer */
	bool html;                /* also DIR/report.html (report/report_html.h) */
};

int report_run(sqlite3 *db, const struct report_request *req, struct doc **out);

/* The views of the summary report_run returns (its table sections, the default first). */
extern const char *const report_views[];

#endif
