/*
 * plot_runs: the analysis behind each kind of plot (`coreplan plot KIND`
 * and the report's plots): the runs or the trace a plot draws and the
 * figures drawn over them, read once. reports/plots.h turns a result into
 * the gnuplot script, data file and image; nothing here draws.
 *
 *   scaling  the sweep of the metric by --by (sweep.h, default options;
 *            its levels classified on the runs' host, or req->host, and
 *            the SMT factor looked for as sweep_run does) and the power
 *            law fitted to the runs at physical-core levels (every run when
 *            the host is unknown: assumed physical; fit.h; has_power false
 *            when the fit fails or there are fewer than two such levels)
 *   blocks   the runs with their --block value (default field `block`);
 *            every level must be a number
 *   trace    the one run --tag names among the selected runs: its sample
 *            trace and its plateau and CPU figures (cores.h)
 *   memory   the memory analysis (memory.h's memory_run: metric default
 *            load_rss_kb, groups by req->group, the same pooling check):
 *            the runs and one OLS line per group, as `coreplan memory`
 *            and the report's memory tables have them
 * A selection without runs is an error ("no runs to plot").
 */
#ifndef COREPLAN_PLOT_RUNS_H
#define COREPLAN_PLOT_RUNS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "cores.h"
#include "fit.h"
#include "memory.h"
#include "select.h"
#include "stats.h"
#include "sweep.h"
#include "window.h"

enum plot_kind { PLOT_KIND_SCALING, PLOT_KIND_BLOCKS, PLOT_KIND_TRACE, PLOT_KIND_MEMORY };

/* "scaling", "blocks", "trace" or "memory". */
const char *plot_kind_name(enum plot_kind kind);

struct plot_request {
	enum plot_kind kind;
	const struct run_filter *filter;
	const char *by;     /* the level field (scaling, blocks, memory) */
	const char *metric; /* NULL: the kind's default (plot_request_metric) */
	const char *block;  /* blocks: the block field; NULL: block */
	const char *tag;    /* trace: the run */
	const char *host;   /* scaling: count levels on this host; NULL: the runs' own */
	const char *const *group; /* memory: NULL-terminated grouping fields, or NULL */
};

/* The metric the request plots: its own, else load_rss_kb for memory, tput otherwise. */
const char *plot_request_metric(const struct plot_request *req);

/* What one kind's analysis found; only the kind's own members are set. */
struct plot_result {
	enum plot_kind kind;
	struct sweep_result sweep;  /* scaling: the runs and the sweep */
	bool has_power;             /* scaling: the power law was fitted */
	struct fit_result power;    /* scaling: over the physical-core levels' runs */
	size_t power_points;        /* scaling: the runs it was fitted to */
	struct selection sel;       /* blocks */
	struct memory_result memory; /* memory: the runs, points and fits per group */
	int64_t run_id;             /* trace: the run */
	struct trace_series series; /* trace: its sample trace */
	struct run_cores cores;     /* trace: its plateau and CPU figures */
};

/* Run the request's kind; release the result either way. */
int plot_run(sqlite3 *db, const struct plot_request *req, struct plot_result *out);
/* The runs the result drew (scaling, blocks, memory), or NULL (trace). */
const struct selection *plot_result_selection(const struct plot_result *r);
void plot_result_release(struct plot_result *r);

#endif
