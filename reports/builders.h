/*
 * builders: one function per command that turns its analysis result into
 * a result document (reports/doc.h). `coreplan COMMAND` and `coreplan
 * report` call the same builder, so a report section is the command's
 * document.
 *
 * Rules every builder follows (tests/e2e/formats.sh checks them on the
 * real corpora):
 *   - numbers go into table cells or facts, never only into prose: a note
 *     quotes a number through the string doc_fact_real()/doc_fact_int()
 *     return, so the JSON holds it as a number with the same digits;
 *   - the method, the thresholds and every input are facts;
 *   - every declared view of the command (its cli/cmd_*.c views list) is a
 *     section with a table, present even when it has no rows;
 *   - verdicts are text facts with stable words (`resolved`, `faster`, ...).
 *
 * Each build_* returns 0 with *out set to a new doc the caller frees, or
 * a negative code (out of memory) with *out NULL.
 */
#ifndef COREPLAN_BUILDERS_H
#define COREPLAN_BUILDERS_H

#include "../analysis/plot_runs.h"
#include "../analysis/select.h"
#include "../analysis/sweep.h"
#include "../importers/corpus.h"
#include "../schema/queries.h"
#include "doc.h"

/*
 * The footer every document carries: the database as the user named it,
 * the corpora read, their SHA-256 content hash (every file's hash and the
 * options, as imported) and the run filter in words.
 */
void build_provenance(struct doc *d, const char *db_path, const char *corpora,
		      const char *content_hash, const char *filter);

/* The selection's left-out runs into the doc's left-out list. */
void build_left_out(struct doc *d, const struct selection *sel);

int build_sweep(const struct sweep_request *req, const struct sweep_result *res,
		struct doc **out);

/* ---- runs, corpora, import, plot ---- */

/* runs: the listing's rows (view runs); excluded_not_shown as a fact and a note. */
int build_runs(const struct run_listing *listing, struct doc **out);

/* corpora: one row per corpus (view corpora); a note when there is none. */
int build_corpora(const struct corpus_listing *listing, struct doc **out);

/*
 * import: one row per PATH (view imported: status new, replaced or
 * unchanged; an unchanged corpus's counts are missing, nothing was read
 * into the database) and the summary sentence per corpus as a note.
 */
int build_import(const struct import_result *results, size_t n, struct doc **out);

/*
 * plot: the files one `coreplan plot KIND` wrote (facts kind, image, data,
 * script: DIR/IMAGE, DIR/NAME.tsv, DIR/NAME.gp), what it drew, and the runs
 * its selection left out.
 */
struct plot_written {
	const char *dir;   /* the folder of --out */
	const char *name;  /* the file stem */
	const char *image; /* the image's file name in dir */
};
int build_plot(const struct plot_request *req, const struct plot_result *res,
	       const struct plot_written *files, struct doc **out);

#endif
