/*
 * imported: what one corpus import wrote into the database, as counts.
 * Defined here, below importers/ and reports/, so the importer that
 * fills it and the builder that shows it share it without one depending
 * on the other.
 */
#ifndef COREPLAN_IMPORTED_H
#define COREPLAN_IMPORTED_H

#include <stdint.h>

enum import_status { IMPORT_NEW, IMPORT_REPLACED, IMPORT_UNCHANGED };

struct import_result {
	char name[256];
	char layout[64];
	enum import_status status;
	int64_t runs;
	int64_t listed;
	int64_t unlisted;
	int64_t excluded;
	int64_t trace_rows;
	int64_t files;
	int64_t missing_files;
	int64_t tied_runs; /* runs with a topology_host (corpus.h: which host they ran on) */
	char hosts[512];   /* those hosts, ", "-separated in name order ("" when none) */
	/* a single table named through a symbolic link: the target imported ("" otherwise) */
	char link_target[4096];
};

#endif
