/* build_cores: the document of `coreplan cores` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>

enum {
	C_TAG,
	C_WINDOW_ROWS,
	C_WINDOW_S,
	C_WALL,
	C_STAT,
	C_BUSY,
	C_PG,
	C_TICK_HZ,
	C_OWED_HZ,
	C_TICK_RATIO,
	C_TICK_OK,
	C_TRUST,
	C_DRIVER,
	C_DRIVER_MINUS_WALL,
	C_RSS_MEDIAN,
	C_RSS_MEAN,
	C_RSS_PEAK,
	C_MEM_AVAIL_MIN,
	C_DRIVER_WINDOW,
	C_NOTE,
	NCOLS
};

/* Every cores figure is shown to 3 decimals, every memory figure in whole kB. */
#define CORES_OF(name, member) DOC_REAL_OF(name, "cores", 'f', 3, struct run_cores, member)
#define KB_OF(name, member) DOC_REAL_OF(name, "kB", 'f', 0, struct run_cores, member)

static void runs_table(struct doc_section *s, const struct cores_result *res)
{
	static const struct doc_field cols[NCOLS] = {
		[C_TAG] = DOC_FIELD_NONE(DOC_COL_TEXT("tag")),
		[C_WINDOW_ROWS] = DOC_INT_OF("window_rows", "rows", struct run_cores, window.rows),
		[C_WINDOW_S] =
			DOC_REAL_OF("window_s", "s", 'g', 6, struct run_cores, window.seconds),
		[C_WALL] = CORES_OF("app_cores_wall", cpu.app_cores_wall),
		[C_STAT] = CORES_OF("app_cores_stat", cpu.app_cores_stat),
		[C_BUSY] = CORES_OF("machine_busy_cores", cpu.machine_busy_cores),
		[C_PG] = CORES_OF("pg_cores", cpu.pg_cores),
		[C_TICK_HZ] = DOC_REAL_OF("stat_tick_hz", "Hz", 'f', 1, struct run_cores,
					  cpu.stat_tick_hz),
		[C_OWED_HZ] = DOC_REAL_OF("owed_tick_hz", "Hz", 'f', 0, struct run_cores,
					  cpu.owed_tick_hz),
		[C_TICK_RATIO] =
			DOC_REAL_OF("tick_ratio", NULL, 'f', 3, struct run_cores, cpu.tick_ratio),
		[C_TICK_OK] = DOC_BOOL_OF("tick_ok", struct run_cores, cpu.tick_ok),
		[C_TRUST] = DOC_FIELD_NONE(DOC_COL_TEXT("cpu_trust")),
		[C_DRIVER] = CORES_OF("driver_app_cores", driver_app_cores),
		[C_DRIVER_MINUS_WALL] = CORES_OF("driver_minus_wall", driver_minus_wall),
		[C_RSS_MEDIAN] = KB_OF("rss_median_kb", cpu.rss_median_kb),
		[C_RSS_MEAN] = KB_OF("rss_mean_kb", cpu.rss_mean_kb),
		[C_RSS_PEAK] = KB_OF("rss_peak_kb", cpu.rss_peak_kb),
		[C_MEM_AVAIL_MIN] = KB_OF("mem_avail_min_kb", cpu.mem_avail_min_kb),
		[C_DRIVER_WINDOW] =
			DOC_TEXT_SET_OF("driver_window", struct run_cores, driver_window),
		[C_NOTE] = DOC_TEXT_SET_OF("note", struct run_cores, note),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_empty_text(t, "no runs (check --corpus and --where)");
	for (size_t i = 0; i < res->sel.n; i++) {
		const struct run_cores *c = &res->runs[i];
		doc_row(t);
		doc_set_text(t, C_TAG, res->sel.runs[i].tag);
		if (c->ok) {
			doc_set_fields(t, cols, 0, NCOLS, c);
			doc_set_text(t, C_TRUST, cpu_trust_name(c->cpu.trust));
		} else {
			/* a run without figures gets none, only the driver's own and the reason */
			doc_set_fields(t, cols, C_DRIVER, C_DRIVER + 1, c);
			doc_set_fields(t, cols, C_NOTE, NCOLS, c);
		}
	}
}

int build_cores(const struct cores_request *req, const struct cores_result *res, struct doc **out)
{
	const struct cores_options *o = &req->opts;
	struct doc *d = build_doc(out, "cores", "Cores recomputed from each run's trace plateau");
	struct doc_section *s;
	const char *frac, *trim, *tick_min, *untrusted;
	char verdict[64];
	if (!d)
		return ERR_DATA;
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->sel.n, NULL);
	untrusted =
		doc_fact_int(d, "untrustworthy_runs", "runs whose CPU attribution is untrustworthy",
			     DOC_QUIET, (int64_t)res->untrustworthy, "runs");
	doc_fact_int(d, "degraded_runs", "runs whose CPU accounting is degraded", DOC_QUIET,
		     (int64_t)res->degraded, "runs");
	doc_fact_int(d, "trusted_runs", "runs whose CPU accounting is trusted", DOC_QUIET,
		     (int64_t)res->trusted, "runs");
	if (res->untrustworthy == 0 && res->degraded == 0)
		snprintf(verdict, sizeof(verdict), "all trusted");
	else
		snprintf(verdict, sizeof(verdict), "%zu trusted, %zu degraded, %zu untrustworthy",
			 res->trusted, res->degraded, res->untrustworthy);
	doc_fact_text(d, "tick_check", "tick check", DOC_LISTED, verdict);
	doc_fact_real(d, "tick_trusted", "trusted: stat_tick_hz / owed at least", DOC_QUIET,
		      WINDOW_TICK_TRUSTED, NULL, 'f', 2);
	frac = doc_fact_real(d, "window_frac",
			     "plateau: conn at least this fraction of the maximum", DOC_QUIET,
			     o->window.frac, NULL, 'f', 2);
	trim = doc_fact_int(d, "trim", "rows dropped at each end of the plateau", DOC_QUIET,
			    (int64_t)o->window.trim, "rows");
	doc_fact_int(d, "min_rows", "shorter windows are warned about", DOC_QUIET,
		     (int64_t)o->window.min_rows, "rows");
	tick_min = doc_fact_real(d, "tick_min", "tick check: stat_tick_hz / owed at least",
				 DOC_QUIET, o->tick_min, NULL, 'f', 2);
	doc_fact_text(d, "clock_source", "clock source", DOC_QUIET, CORES_CLOCK_SOURCE);
	s = doc_section(d, "runs", "Runs");
	runs_table(s, res);
	doc_note(s,
		 "window: conn >= %s x max, trim %s, %s; tick check: stat_tick_hz / owed >= %s; "
		 "definitions: `coreplan cores --help`",
		 frac, trim,
		 o->window.keep_ramp ? "the ramp rows kept (--keep-ramp)"
				     : "the leading ramp rows left out",
		 tick_min);
	for (int k = 0; k < 3; k++) {
		static const char *const scale[] = {"tick ratio at least 0.95, no app-cores figure "
						    "above the guest's CPUs",
						    "tick ratio 0.75-0.95, or an app-cores figure "
						    "above the guest's CPUs",
						    "tick ratio below 0.75"};
		size_t n = k == 0 ? res->trusted : k == 1 ? res->degraded : res->untrustworthy;
		if (n)
			doc_note(s,
				 "CPU accounting %s (%s): %zu run%s, tick ratio %.3f-%.3f, app "
				 "cores "
				 "on the guest's clock up to %.3f",
				 cpu_trust_name((enum cpu_trust)k), scale[k], n, n == 1 ? "" : "s",
				 res->ratio_lo[k], res->ratio_hi[k], res->stat_max[k]);
	}
	if (res->untrustworthy)
		doc_note(s,
			 "%s run%s with tick_ok = no: their CPU attribution is UNTRUSTWORTHY (the "
			 "guest's /proc/stat under-ticks)",
			 untrusted, res->untrustworthy == 1 ? "" : "s");
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_cores_views[] = {"runs", NULL};
