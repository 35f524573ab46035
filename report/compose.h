/*
 * compose: what the report's sections share while one report is made
 * (report/ only; report.h is the public face).
 *
 * The report is one document (c->doc): a section per part of the
 * write-up, in the order of report.c's table, each holding the documents
 * of the commands it ran (doc_embed), their figures and why anything is
 * missing (doc_status). A section function makes its section with
 * report_section(), runs its analysis, builds the command's document and
 * embeds it; it adds findings to c->findings (c->primary: the sweep group
 * with the most runs). Every section's outcome (measured, not measured,
 * left out) is a row of the summary's "sections" table.
 *
 * An analysis that fails does not stop the report: its message becomes
 * the section's "not measured" reason (report_failed). A function returns
 * non-zero only for what must stop the report (out of memory, a write).
 */
#ifndef COREPLAN_REPORT_COMPOSE_H
#define COREPLAN_REPORT_COMPOSE_H

#include <sqlite3.h>
#include <stddef.h>

#include "../analysis/plot_runs.h"
#include "../doc/doc.h"
#include "findings.h"
#include "output.h"
#include "plan.h"
#include "report.h"

struct report_ctx {
	sqlite3 *db;
	const struct report_request *req;
	struct report_plan plan;
	struct doc *doc;                 /* the report */
	struct doc_section *findings_at; /* its first section, filled last */
	struct findings findings;
	struct findings primary; /* the findings of the sweep group with the most runs */
	size_t primary_runs, primary_index;
	struct report_output out;
	int plot_seq;
	struct doc *summary;        /* what `coreplan report` prints */
	struct doc_table *sections; /* the summary's table of sections */
	size_t measured, not_measured, plots;
};

/* Section titles that findings link to (their anchors: report_anchor). */
#define SWEEP_TITLE "Sweep"
#define NOISE_TITLE "Noise"
#define CPU_TITLE "CPU: recomputed cores and tick rate"
#define MEMORY_TITLE "Memory per session"
#define TRANSLATE_TITLE "Cross-CPU translation"
#define SIZING_TITLE "Sizing"
#define SMT_TITLE "SMT: what a second hardware thread is worth"
#define BINDERS_TITLE "What binds"
#define LEVERS_TITLE "Levers"

/* A new section of the report (NULL only when out of memory: the doc is marked). */
struct doc_section *report_section(struct report_ctx *c, const char *name, const char *title);
/* The anchor of a section's title (doc_anchor); out holds 96 bytes. */
void report_anchor(const char *title, char out[96]);

/* Outcomes: each a row of the summary's sections table; name is that row's. */
void report_not_measured(struct report_ctx *c, struct doc_section *s, const char *name,
			 const char *why);
void report_left_out(struct report_ctx *c, struct doc_section *s, const char *name,
		     const char *why);
/*
 * The runs cannot support the section: not measured (status_why), and the
 * finding `kind` unsupported (finding_why) pointing at the section's title.
 */
int report_unsupported(struct report_ctx *c, struct doc_section *s, const char *name,
		       const char *title, enum finding_kind kind, const char *finding_why,
		       const char *status_why);
/* The analysis failed: err_msg() is the reason (then cleared), under heading (NULL: none). */
void report_failed(struct report_ctx *c, struct doc_section *s, const char *name,
		   const char *heading);
/* d (owned from now on; NULL: nothing) under s with `heading` (NULL: none), measured. */
void report_embed(struct report_ctx *c, struct doc_section *s, const char *name,
		  const char *heading, struct doc *d);

/*
 * A group's part of a section: its name in the summary ("sweep gogc=...")
 * and the heading its document is embedded under ("Group gogc=default" or
 * "All runs"); head is that heading, or NULL (no heading) with `bare` when
 * a section of one group that is all the runs.
 */
struct report_part {
	char name[600], heading[600];
	const char *head;
};
void report_group_part(struct report_part *p, const struct report_group *g, const char *what,
		       bool bare);
/* "N groups; the first M are shown" when the plan capped them. */
void report_capped(struct doc_section *s, size_t found, size_t shown);

/* The image of a plot result under s, or why there is none. */
void report_plot(struct report_ctx *c, struct doc_section *s, const struct plot_request *preq,
		 const struct plot_result *pres);
/* Run a plot's analysis and draw it; when it has nothing to draw, say why. */
void report_plot_of(struct report_ctx *c, struct doc_section *s, const struct plot_request *preq);
#define REPORT_NO_GNUPLOT "gnuplot is not installed (apt-get install gnuplot-nox)."

/* The sections, in the report's order (report/sections.c). */
int report_corpus_section(struct report_ctx *c);
int report_sweep_section(struct report_ctx *c);
int report_noise_section(struct report_ctx *c);
/* What binds each sweep group; where errors start; Little's law (report/section_binders.c). */
int report_binders_section(struct report_ctx *c);
/* What each lever is worth, one table per lever (report/section_levers.c). */
int report_levers_section(struct report_ctx *c);
int report_cpu_section(struct report_ctx *c);
int report_memory_section(struct report_ctx *c);
int report_smt_section(struct report_ctx *c);
int report_translate_section(struct report_ctx *c);
int report_fit_section(struct report_ctx *c);
int report_sizing_section(struct report_ctx *c);

#endif
