/*
 * findings (reports): the sentences of the report's "Findings" list and
 * its typed table, from analysis/findings.h's numbers.
 *
 * Each sentence carries the finding's number, its range or interval, n and
 * the method, and ends with a Markdown link to the section that supports
 * it; a finding the data cannot support says so and why. The table
 * (columns finding, subject, supported, value, lo, hi, efficiency, level,
 * n, unit, method, section: the figures, typed; the sentences are report.md's) goes into the summary document `coreplan report` prints,
 * so its JSON carries the same figures with types.
 */
#ifndef COREPLAN_REPORTS_FINDINGS_H
#define COREPLAN_REPORTS_FINDINGS_H

#include <stdio.h>

#include "../analysis/findings.h"
#include "../common/strbuf.h"
#include "doc.h"

/* "scaling", "smt", "noise", "cpu", "memory", "target", "predicted", "translate". */
const char *finding_kind_name(enum finding_kind kind);
/* The sentence, plain text (no link). */
void finding_sentence(const struct finding *x, struct strbuf *out);
/* "## Findings" and one bullet per finding, each linked to its section. */
int findings_write_md(FILE *md, const struct findings *f);
/* The findings as the section "findings" of d. */
void findings_to_doc(struct doc *d, const struct findings *f);

#endif
