/*
 * report_plan: what `coreplan report` writes about a selection of runs,
 * decided from the database before any section is computed.
 *
 *   by        the sweep's level field: the one given, else gomaxprocs when
 *             its runs have two or more values, else sessions, else none
 *   groups    the sweep is split by the group fields given, else by every
 *             field of REPORT_GROUP_CANDIDATES (except by) whose runs have
 *             two or more values; one group per combination of values
 *             present (a missing value is its own group), at most
 *             REPORT_MAX_GROUPS shown; each group's filter is the report's
 *             filter AND the group's values (typed: no text to parse)
 *   memory    the runs have two or more session counts
 *   smt       some run names a recorded topology (topology_host)
 *   translate a sub-corpus whose runs name one CPU family different from
 *             the main sub-corpus's, and one with the same family: from the
 *             first to the second (or the pair given)
 *   trace     the first listed run with a trace whose tag names one run
 * The plan owns every string and filter; report_plan_release frees them.
 */
#ifndef COREPLAN_REPORT_PLAN_H
#define COREPLAN_REPORT_PLAN_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../schema/fields.h"

#define REPORT_MAX_GROUPS 8

/* Fields the report splits a sweep by when they vary (in this order). */
extern const char *const REPORT_GROUP_CANDIDATES[];

struct report_plan_request {
	const struct run_filter *filter; /* --corpus and --where */
	const char *by;                  /* NULL: chosen */
	const char *const *group;        /* NULL-terminated, or NULL: chosen */
	const char *translate_from, *translate_to; /* conditions, or NULL: chosen */
};

struct report_group {
	char *label; /* "cfg=pg target=medium"; "" when the sweep is not split */
	struct run_filter filter;
};

struct report_plan {
	char *by;     /* NULL: no field has two or more levels */
	char **group; /* NULL-terminated group fields (empty list: not split) */
	size_t ngroup;
	struct report_group *groups; /* the groups shown */
	size_t ngroups;
	size_t ngroups_found; /* before the REPORT_MAX_GROUPS cap */
	bool memory;
	bool smt;
	char *translate_from, *translate_to; /* NULL: no pair */
	char *trace_tag;                     /* NULL: no run with a trace */
};

int report_plan_make(sqlite3 *db, const struct report_plan_request *req, struct report_plan *out);
void report_plan_release(struct report_plan *p);

#endif
