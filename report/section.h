/*
 * section: what a report section written in its own file may use of the
 * report being written (report.c implements these over its context), and
 * the sections that live in their own files.
 *
 * A section writes its heading, embeds the documents of the commands it
 * runs (report_embed: their Markdown under the report's heading level,
 * and a "measured" row in the summary), says "Not measured" and why when
 * the runs cannot support it, and adds its findings to the report's list
 * (report_findings). The report's plan (report/plan.h) says which groups
 * and level field it works on.
 */
#ifndef COREPLAN_REPORT_SECTION_H
#define COREPLAN_REPORT_SECTION_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../doc/doc.h"
#include "findings.h"
#include "plan.h"
#include "report.h"

struct report_ctx;

sqlite3 *report_db(const struct report_ctx *c);
const struct report_plan *report_plan(const struct report_ctx *c);
const struct report_request *report_request(const struct report_ctx *c);
/* The report's findings, in section order (findings_order sorts them). */
struct findings *report_findings(struct report_ctx *c);
/* The plan group index of the sweep group with the most runs, or SIZE_MAX before the sweep. */
size_t report_primary_group(const struct report_ctx *c);

/* "## TITLE" at `level`, a paragraph, both Markdown-escaped. */
void report_heading(struct report_ctx *c, int level, const char *text);
void report_paragraph(struct report_ctx *c, const char *text);
/* A command's document under the report's heading at `level`: 0 or a write error. */
int report_embed(struct report_ctx *c, const char *section, const struct doc *d, int level);
/* "**Not measured**: WHY", and the summary's row. */
void report_not_measured(struct report_ctx *c, const char *section, const char *why);
/* The last error's message as the section's reason (the analysis failed; the report goes on). */
void report_failed(struct report_ctx *c, const char *section);
/*
 * A group's heading ("### Group LABEL" or "### All runs"; none with
 * `bare` when the one group is all runs) and its name in the summary
 * ("WHAT LABEL") into section; returns the level its document embeds at.
 */
int report_group_heading(struct report_ctx *c, const struct report_group *g, char *section,
			 size_t size, const char *what, bool bare);
/* The GitHub anchor of a "## TITLE" heading. */
void report_anchor(const char *title, char *out, size_t size);

/* ---- the sections in their own files ---- */

#define REPORT_BINDERS_TITLE "What binds"
#define REPORT_LEVERS_TITLE "Levers"

/* What binds each sweep group (report/section_binders.c): binders, knees, Little's law. */
int section_binders(struct report_ctx *c);
/* What each lever is worth (report/section_levers.c): one table per lever. */
int section_levers(struct report_ctx *c);

#endif
