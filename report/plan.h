/*
 * report_plan: what `coreplan report` writes about a selection of runs,
 * decided from the database before any section is computed.
 *
 *   filter    what every section but translation reads: the report's
 *             filter, and, when the translation pair was found among the
 *             sub-corpora (below) and the filter names no subcorpus, only
 *             the main sub-corpus (references_note says so): runs measured
 *             on another CPU are never swept, noise-checked or fitted
 *   by        the sweep's level field: the one given, else the first field
 *             counting workers with two or more values (gomaxprocs,
 *             threads, threads_per_proc, cores, ..., n, procs), else
 *             sessions, else none
 *   metric    what the sections measure: the one given, else tput when
 *             the runs have it, else a tool's primary metric when the runs
 *             are a tool's (query_default_metric: Go's ns_per_op,
 *             hyperfine's time_s, Google Benchmark's real_time_ns, wrk's
 *             requests_per_s), else the first results-table column whose
 *             name says it is a rate (qps, Gbps, ..._per_s:
 *             field_metric_meaning, not assumed), else tput (the sections
 *             then say the runs lack it)
 *   scaling   the level counts workers (or models were asked for): the
 *             core-scaling sections (scaling models, SMT) apply; a sweep
 *             over sessions gets none
 *   groups    the sweep is split by the group fields given and by every
 *             field the sweep would otherwise pool (analysis/pooling.h: the
 *             same detection the commands refuse on; a field that only
 *             varies with an earlier one adds no split); one group per
 *             combination of values present (a missing value is its own
 *             group). A group whose blocks include block kinds (blocks
 *             holding only some of its levels) is split again: its complete
 *             blocks ("block=1,2,3"), then each kind ("block=7"). At most
 *             REPORT_MAX_GROUPS are shown; each group's filter is the
 *             report's filter AND the group's values (typed: no text to
 *             parse). The noise and fit sections use the same groups.
 *   memory    the runs have two or more session counts; memory_groups are
 *             made the same way with sessions as the level (the sweep's
 *             level field, when it is not sessions, is a group field), and
 *             only the groups with two or more session counts are kept
 *             (memory_skipped counts the others)
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

struct report_plan_request {
	const struct run_filter *filter;           /* --corpus and --where */
	const char *by;                            /* NULL: chosen */
	const char *metric;                        /* NULL: chosen */
	const char *const *group;                  /* NULL-terminated, or NULL: chosen */
	const char *translate_from, *translate_to; /* conditions, or NULL: chosen */
	const char *host; /* count levels on this host (smt, sweep, fit); NULL: the runs' own */
	bool models;      /* fit scaling models whatever the level */
	const char *workers; /* declared to count workers: the level when none is given, scaling */
};

struct report_group {
	char *label; /* "cfg=pg target=medium"; "" when the sweep is not split */
	struct run_filter filter;
};

struct report_plan {
	struct run_filter filter; /* what the sections read (above) */
	char *references_note;    /* why the reference sub-corpora are left out, or NULL */
	char *by;                 /* NULL: no field has two or more levels */
	char *metric;             /* never NULL (above) */
	bool by_given;
	bool scaling; /* the level counts workers, or models were asked for */
	char **group; /* NULL-terminated group fields (empty list: not split) */
	size_t ngroup;
	struct report_group *groups; /* the groups shown */
	size_t ngroups;
	size_t ngroups_found; /* before the REPORT_MAX_GROUPS cap */
	bool memory;
	char **memory_group; /* NULL-terminated: the memory section's group fields */
	size_t nmemory_group;
	struct report_group *memory_groups; /* those with two or more session counts */
	size_t nmemory_groups;
	size_t nmemory_found;  /* before the cap */
	size_t memory_skipped; /* groups with one session count: no slope */
	bool smt;
	char *translate_from, *translate_to; /* NULL: no pair */
	char *trace_tag;                     /* NULL: no run with a trace */
};

int report_plan_make(sqlite3 *db, const struct report_plan_request *req, struct report_plan *out);
void report_plan_release(struct report_plan *p);

#endif
