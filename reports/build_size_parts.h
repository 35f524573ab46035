/*
 * build_size_parts: the parts of `coreplan size`'s document that
 * reports/build_size.c and build_size_inputs.c share (not a public API).
 */
#ifndef COREPLAN_BUILD_SIZE_PARTS_H
#define COREPLAN_BUILD_SIZE_PARTS_H

#include "builders.h"

/* The families view: the CPU families and series of the catalogs sized. */
void size_doc_families(struct doc_section *s, const struct size_result *res);
/* The inputs view and each input's facts. */
void size_doc_inputs(struct doc *d, struct doc_section *s, const struct size_result *res);
/* The facts naming the catalogs used. */
void size_doc_catalogs(struct doc *d, const struct size_result *res);
/* The facts naming the plot's files (NULL: no plot). */
void size_doc_plot(struct doc *d, const struct sizing_plot *plot);

#endif
