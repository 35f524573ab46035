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

#include "../analysis/select.h"
#include "../analysis/sweep.h"
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

/*
 * size and catalog. build_size: views inputs and instances (the default);
 * plot is NULL without --plot. build_catalog: views catalogs, instances
 * and families.
 */
#include "../analysis/catalogs.h"
#include "../analysis/size.h"
#include "sizing_plot.h"

int build_size(const struct size_request *req, const struct size_result *res,
	       const struct sizing_plot *plot, struct doc **out);
int build_catalog(const struct catalog_request *req, const struct catalog_result *res,
		  struct doc **out);

#endif
