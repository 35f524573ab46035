/*
 * build_trace: the document of `coreplan trace TAG` (builders.h). The rows
 * table is streamed: the writer reads the trace row by row from the
 * result's database when it prints the table, so a trace of millions of
 * rows is never a table in memory.
 */
#include "builders.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum {
	C_ROW_NO,
	C_EPOCH,
	C_CONN,
	C_RSS,
	C_MEM_AVAIL,
	C_CPU_TOTAL,
	C_CPU_IDLE,
	C_APP_J,
	C_PG_J,
	C_APP_CORES,
	C_WINDOW,
	NCOLS
};

static const struct doc_field cols[NCOLS] = {
	[C_ROW_NO] = DOC_INT_OF("row_no", NULL, struct trace_row, row_no),
	[C_EPOCH] = DOC_REAL_OF("epoch", "s", 'f', 3, struct trace_row, epoch),
	[C_CONN] = DOC_REAL_OF("conn", NULL, 'f', 0, struct trace_row, conn),
	[C_RSS] = DOC_REAL_OF("app_rss_kb", "kB", 'f', 0, struct trace_row, app_rss_kb),
	[C_MEM_AVAIL] = DOC_REAL_OF("mem_avail_kb", "kB", 'f', 0, struct trace_row, mem_avail_kb),
	[C_CPU_TOTAL] =
		DOC_REAL_OF("cpu_total_j", "jiffies", 'f', 0, struct trace_row, cpu_total_j),
	[C_CPU_IDLE] = DOC_REAL_OF("cpu_idle_j", "jiffies", 'f', 0, struct trace_row, cpu_idle_j),
	[C_APP_J] = DOC_REAL_OF("app_j", "jiffies", 'f', 0, struct trace_row, app_j),
	[C_PG_J] = DOC_REAL_OF("pg_j", "jiffies", 'f', 0, struct trace_row, pg_j),
	/* from the trace point, not its row */
	[C_APP_CORES] = DOC_REAL_OF("app_cores", "cores", 'f', 3, struct trace_point, app_cores),
	[C_WINDOW] = DOC_FIELD_NONE(DOC_COL_TEXT("window")),
};

static int row_cells(size_t pos, const struct trace_point *p, void *arg)
{
	struct doc_table *t = arg;
	const char *mark = trace_mark_name(p->mark);
	(void)pos;
	doc_row(t);
	doc_set_fields(t, cols, C_ROW_NO, C_APP_CORES, p->row);
	doc_set_fields(t, cols, C_APP_CORES, C_WINDOW, p);
	if (mark)
		doc_set_text(t, C_WINDOW, mark);
	/* the writer failed (its output is gone): no need to read the rest */
	return doc_table_stopped(t) ? 1 : 0;
}

/* The rows, made when the table is written: the trace is read then, row by row. */
static int fill_rows(struct doc_table *t, void *arg)
{
	int rc = trace_each(arg, row_cells, t);
	return rc < 0 ? rc : 0;
}

static int rows_table(struct doc_section *s, const struct trace_result *res)
{
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	struct trace_result *copy = malloc(sizeof(*copy));
	doc_table_hide_empty(t);
	doc_table_empty_text(t, "no trace rows");
	if (!copy)
		return err_set("out of memory");
	*copy = *res; /* the result holds no memory: a copy reads the same trace */
	doc_table_stream(t, fill_rows, copy, free);
	return 0;
}

/* The plateau (or why there is none) and the driver's window, as facts and one note. */
static void plateau_facts(struct doc *d, struct doc_section *s, const struct run_cores *c)
{
	/* row numbers are 1-based, as row_no; NaN (null) when there is no such window */
	double none = NAN;
	const char *first, *last, *rows, *seconds, *wall;
	doc_fact_text(d, "note", "window warnings and remarks", DOC_QUIET, c->note);
	doc_fact_real(d, "driver_first", "first row of the driver's window", DOC_QUIET,
		      c->has_driver_window ? (double)c->driver_lo + 1 : none, NULL, 'f', 0);
	doc_fact_real(d, "driver_last", "last row of the driver's window", DOC_QUIET,
		      c->has_driver_window ? (double)c->driver_hi + 1 : none, NULL, 'f', 0);
	doc_fact_text(d, "plateau", "plateau", DOC_LISTED, c->ok ? "found" : "none");
	first = doc_fact_real(d, "plateau_first", "first plateau row", DOC_QUIET,
			      c->ok ? (double)c->window.lo + 1 : none, NULL, 'f', 0);
	last = doc_fact_real(d, "plateau_last", "last plateau row", DOC_QUIET,
			     c->ok ? (double)c->window.hi + 1 : none, NULL, 'f', 0);
	rows = doc_fact_real(d, "plateau_rows", "plateau rows", DOC_QUIET,
			     c->ok ? (double)c->window.rows : none, "rows", 'f', 0);
	seconds = doc_fact_real(d, "plateau_seconds", "plateau span", DOC_QUIET,
				c->ok ? c->window.seconds : none, "s", 'g', 6);
	wall = doc_fact_real(d, "app_cores_wall", "app cores over the plateau", DOC_QUIET,
			     c->ok ? c->cpu.app_cores_wall : none, "cores", 'f', 3);
	if (c->ok)
		doc_note(s, "plateau rows %s-%s (%s rows, %s s): app_cores_wall %s%s%s", first,
			 last, rows, seconds, wall, c->note[0] ? "; " : "", c->note);
	else
		doc_note(s, "no plateau: %s", c->note);
}

int build_trace(const struct trace_request *req, const struct trace_result *res, struct doc **out)
{
	struct doc *d = build_doc(out, "trace", "");
	struct doc_section *s;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "Trace of %s", req->tag);
	doc_fact_text(d, "tag", "run", DOC_LISTED, req->tag);
	doc_fact_int(d, "rows", "trace rows", DOC_LISTED, (int64_t)res->rows, NULL);
	doc_fact_real(d, "window_frac", "plateau: conn at least this fraction of the maximum",
		      DOC_QUIET, req->opts.window.frac, NULL, 'f', 2);
	doc_fact_int(d, "trim", "rows dropped at each end of the plateau", DOC_QUIET,
		     (int64_t)req->opts.window.trim, "rows");
	s = doc_section(d, "rows", "Rows");
	if (rows_table(s, res) != 0) {
		doc_free(d);
		return ERR_DATA;
	}
	plateau_facts(d, s, &res->cores);
	doc_note(s, "definitions: `coreplan trace --help`");
	return build_done(d, out);
}

const char *const build_trace_views[] = {"rows", NULL};
