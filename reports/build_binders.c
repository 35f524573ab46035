/* build_binders: the document of `coreplan binders` (builders.h). */
#include "builders.h"

#include "../analysis/binders.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>

static double level_at(const struct binder_group *g, size_t i)
{
	return i < g->nlevels ? g->levels[i].level : NAN;
}

/* The resources no run of g records, by name ("pg_cpu, connections"), or "none". */
static void set_absent(struct doc_table *t, int col, const struct binder_group *g)
{
	struct strbuf names = STRBUF_INIT;
	for (int r = 0; r < BINDER_NRES; r++)
		if (!binder_group_records(g, (enum binder_resource)r))
			strbuf_addf(&names, "%s%s", names.len ? ", " : "",
				    binder_resource_name((enum binder_resource)r));
	doc_set_text(t, col, names.len ? strbuf_str(&names) : "none");
	strbuf_release(&names);
}
static void groups_table(struct doc_section *s, const struct binders *b, const char *by)
{
	enum {
		GROUP,
		LEVELS,
		RUNS,
		VERDICT,
		BINDER,
		PLATEAU,
		RATIO_FROM,
		RATIO_TO,
		LATENCY_RISES,
		CPU_UNTRUSTED,
		KNEE_FROM,
		KNEE_AT,
		LITTLE_FAILS,
		ABSENT,
		WHY,
		NCOLS
	};
	const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_TEXT_SET_OF("group", struct binder_group, group),
		[LEVELS] = DOC_INT_OF("levels", NULL, struct binder_group, nlevels),
		[RUNS] = DOC_INT_OF("runs", NULL, struct binder_group, nruns),
		[VERDICT] = DOC_TEXT_OF("verdict", struct binder_group, verdict),
		[BINDER] = DOC_FIELD_NONE(DOC_COL_TEXT("binder")),
		[PLATEAU] =
			DOC_FIELD_NONE(DOC_COL_REAL("plateau_from", field_known_unit(by), 'g', 6)),
		[RATIO_FROM] = DOC_FIELD_NONE(DOC_COL_REAL("binder_ratio_first", NULL, 'f', 3)),
		[RATIO_TO] = DOC_FIELD_NONE(DOC_COL_REAL("binder_ratio_last", NULL, 'f', 3)),
		[LATENCY_RISES] = DOC_FIELD_NONE(DOC_COL_BOOL("latency_rises")),
		[CPU_UNTRUSTED] = DOC_FIELD_NONE(DOC_COL_TEXT("cpu_untrusted_runs")),
		[KNEE_FROM] =
			DOC_FIELD_NONE(DOC_COL_REAL("knee_after", field_known_unit(by), 'g', 6)),
		[KNEE_AT] = DOC_FIELD_NONE(DOC_COL_REAL("knee_at", field_known_unit(by), 'g', 6)),
		[LITTLE_FAILS] =
			DOC_INT_OF("little_fails", "runs", struct binder_group, little_fails),
		[ABSENT] = DOC_FIELD_NONE(DOC_COL_TEXT("absent")),
		[WHY] = DOC_TEXT_OF("why", struct binder_group, why),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	char text[64];
	doc_table_hide_empty(t);
	for (size_t i = 0; i < b->ngroups; i++) {
		const struct binder_group *g = &b->groups[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, g);
		if (g->binder >= 0) {
			doc_set_text(t, BINDER,
				     binder_resource_name((enum binder_resource)g->binder));
			doc_set_real(t, RATIO_FROM,
				     g->levels[g->plateau_from].res[g->binder].ratio);
			doc_set_real(t, RATIO_TO, g->levels[g->nlevels - 1].res[g->binder].ratio);
		}
		doc_set_real(t, PLATEAU, level_at(g, g->plateau_from));
		if (g->plateau_from < g->nlevels && g->latency_known)
			doc_set_bool(t, LATENCY_RISES, g->latency_rises);
		snprintf(text, sizeof(text), "%zu of %zu", g->cpu_untrusted_runs,
			 g->cpu_checked_runs);
		doc_set_text(t, CPU_UNTRUSTED, text);
		if (g->has_knee) {
			doc_set_real(t, KNEE_AT, level_at(g, g->knee));
			doc_set_real(t, KNEE_FROM, g->knee ? level_at(g, g->knee - 1) : NAN);
		}
		set_absent(t, ABSENT, g);
	}
}

static void levels_table(struct doc_section *s, const struct binders *b, const char *by,
			 const char *metric, const char *latency)
{
	enum {
		GROUP,
		LEVEL,
		N,
		TPUT,
		TPUT_MIN,
		TPUT_MAX,
		ELASTICITY,
		STEP,
		LATENCY,
		ERR,
		ERR_RUNS,
		VCPUS,
		PHYSICAL,
		UNTRUSTED,
		TRACE,
		GEN_FLAG,
		LITTLE,
		NCOLS
	};
	const char *u = field_known_unit(metric);
	const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_TEXT_SET_OF("group", struct binder_level, group),
		[LEVEL] = DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct binder_level,
				      level),
		[N] = DOC_INT_OF("n", "runs", struct binder_level, n),
		[TPUT] = DOC_REAL_OF("median", u, 'g', 6, struct binder_level, tput.median),
		[TPUT_MIN] = DOC_REAL_OF("min", u, 'g', 6, struct binder_level, tput.min),
		[TPUT_MAX] = DOC_REAL_OF("max", u, 'g', 6, struct binder_level, tput.max),
		[ELASTICITY] =
			DOC_REAL_OF("elasticity", NULL, 'f', 3, struct binder_level, elasticity),
		[STEP] = DOC_TEXT_OF("step", struct binder_level, step),
		[LATENCY] = DOC_REAL_OF("latency_median", field_known_unit(latency), 'g', 6,
					struct binder_level, latency.median),
		[ERR] = DOC_REAL_OF("err_median", "fraction", 'g', 4, struct binder_level,
				    err.median),
		[ERR_RUNS] = DOC_INT_OF("err_runs", "runs", struct binder_level, err_runs),
		[VCPUS] = DOC_REAL_OF("vcpus", NULL, 'g', 4, struct binder_level, vcpus),
		[PHYSICAL] = DOC_REAL_OF("physical_cores", NULL, 'g', 4, struct binder_level,
					 physical_cores),
		[UNTRUSTED] =
			DOC_INT_OF("cpu_untrusted", "runs", struct binder_level, cpu_untrusted),
		[TRACE] = DOC_INT_OF("from_trace", "runs", struct binder_level, from_trace),
		[GEN_FLAG] =
			DOC_INT_OF("generator_flagged", "runs", struct binder_level, gen_flagged),
		[LITTLE] = DOC_INT_OF("little_fails", "runs", struct binder_level, little_fails),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < b->nlevels; i++) {
		const struct binder_level *l = &b->levels[i];
		doc_row(t);
		/* the throughput, latency and error columns only where the level has them */
		doc_set_fields(t, cols, GROUP, TPUT, l);
		if (l->tput.n)
			doc_set_fields(t, cols, TPUT, ELASTICITY, l);
		doc_set_fields(t, cols, ELASTICITY, LATENCY, l);
		if (l->has_latency)
			doc_set_fields(t, cols, LATENCY, ERR, l);
		if (l->has_err)
			doc_set_fields(t, cols, ERR, VCPUS, l);
		doc_set_fields(t, cols, VCPUS, NCOLS, l);
	}
}

/* Did resource r bind in the group this level belongs to (a plateau level)? */
static const struct binder_group *group_of(const struct binders *b, const struct binder_level *l)
{
	for (size_t i = 0; i < b->ngroups; i++)
		if (l >= b->groups[i].levels && l < b->groups[i].levels + b->groups[i].nlevels)
			return &b->groups[i];
	return NULL;
}

static void resources_table(struct doc_section *s, const struct binders *b, const char *by)
{
	enum {
		GROUP,
		LEVEL,
		RESOURCE,
		N,
		USE,
		USE_MIN,
		USE_MAX,
		UNIT,
		CAP,
		RATIO,
		RATIO_MIN,
		RATIO_MAX,
		BINDS,
		NCOLS
	};
	const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_FIELD_NONE(DOC_COL_TEXT("group")),
		[LEVEL] = DOC_FIELD_NONE(DOC_COL_REAL("level", field_known_unit(by), 'g', 6)),
		[RESOURCE] = DOC_FIELD_NONE(DOC_COL_TEXT("resource")),
		[N] = DOC_INT_OF("n", "runs", struct binder_use, n),
		[USE] = DOC_REAL_OF("use", NULL, 'g', 6, struct binder_use, median),
		[USE_MIN] = DOC_REAL_OF("use_min", NULL, 'g', 6, struct binder_use, min),
		[USE_MAX] = DOC_REAL_OF("use_max", NULL, 'g', 6, struct binder_use, max),
		[UNIT] = DOC_FIELD_NONE(DOC_COL_TEXT("unit")),
		[CAP] = DOC_REAL_OF("capacity", NULL, 'g', 7, struct binder_use, cap),
		[RATIO] = DOC_REAL_OF("ratio", NULL, 'f', 3, struct binder_use, ratio),
		[RATIO_MIN] = DOC_REAL_OF("ratio_min", NULL, 'f', 3, struct binder_use, ratio_min),
		[RATIO_MAX] = DOC_REAL_OF("ratio_max", NULL, 'f', 3, struct binder_use, ratio_max),
		[BINDS] = DOC_FIELD_NONE(DOC_COL_BOOL("near_and_flat")),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < b->nlevels; i++) {
		const struct binder_level *l = &b->levels[i];
		const struct binder_group *g = group_of(b, l);
		bool plateau = g && (size_t)(l - g->levels) >= g->plateau_from;
		for (int r = 0; r < BINDER_NRES; r++) {
			const struct binder_use *u = &l->res[r];
			if (u->n == 0)
				continue;
			doc_row(t);
			if (*l->group)
				doc_set_text(t, GROUP, l->group);
			doc_set_real(t, LEVEL, l->level);
			doc_set_text(t, RESOURCE, binder_resource_name((enum binder_resource)r));
			doc_set_fields(t, cols, 0, NCOLS, u);
			doc_set_text(t, UNIT, binder_resource_unit((enum binder_resource)r));
			if (plateau)
				doc_set_bool(t, BINDS, g->binds[r]);
		}
	}
}

static void ranking_table(struct doc_section *s, const struct binders *b)
{
	enum { GROUP, RANK, RESOURCE, RATIO, HEADROOM, BINDER, NCOLS };
	static const struct doc_field cols[NCOLS] = {
		[GROUP] = DOC_FIELD_NONE(DOC_COL_TEXT("group")),
		[RANK] = DOC_FIELD_NONE(DOC_COL_INT("rank", NULL)),
		[RESOURCE] = DOC_FIELD_NONE(DOC_COL_TEXT("resource")),
		[RATIO] = DOC_REAL_OF("ratio", NULL, 'f', 3, struct binder_rank, ratio),
		[HEADROOM] = DOC_REAL_OF("headroom", NULL, 'f', 3, struct binder_rank, headroom),
		[BINDER] = DOC_FIELD_NONE(DOC_COL_BOOL("binder")),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_hide_empty(t);
	for (size_t i = 0; i < b->ngroups; i++) {
		const struct binder_group *g = &b->groups[i];
		for (size_t k = 0; k < g->nrank; k++) {
			doc_row(t);
			if (*g->group)
				doc_set_text(t, GROUP, g->group);
			doc_set_int(t, RANK, (int64_t)k + 1);
			doc_set_text(t, RESOURCE, binder_resource_name(g->rank[k].r));
			doc_set_fields(t, cols, 0, NCOLS, &g->rank[k]);
			doc_set_bool(t, BINDER, (int)g->rank[k].r == g->binder);
		}
	}
}

static void little_table(struct doc_section *s, const struct binders_result *res, const char *by)
{
	enum { TAG, GROUP, LEVEL, SESSIONS, TPUT, THINK, W, LO, HI, VERDICT, NCOLS };
	const struct doc_field cols[NCOLS] = {
		[TAG] = DOC_TEXT_OF("tag", struct binder_run, tag),
		[GROUP] = DOC_TEXT_SET_OF("group", struct binder_run, group),
		[LEVEL] = DOC_REAL_OF("level", field_known_unit(by), 'g', 6, struct binder_run,
				      level),
		[SESSIONS] = DOC_REAL_OF("sessions", NULL, 'g', 6, struct binder_run, sessions),
		[TPUT] = DOC_REAL_OF("throughput", NULL, 'g', 6, struct binder_run, tput),
		[THINK] = DOC_REAL_OF("think_s", "s", 'g', 4, struct binder_run, think_s),
		[W] = DOC_REAL_OF("implied_mean_ms", "ms", 'g', 5, struct binder_run, little_w_ms),
		[LO] = DOC_REAL_OF("bound_lo_ms", "ms", 'g', 5, struct binder_run, little_lo_ms),
		[HI] = DOC_REAL_OF("bound_hi_ms", "ms", 'g', 5, struct binder_run, little_hi_ms),
		[VERDICT] = DOC_FIELD_NONE(DOC_COL_TEXT("verdict")),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_empty_text(t, "none: no run is a known closed loop (think_time) with a latency");
	doc_table_hide_empty(t);
	for (size_t i = 0; i < res->sel.n; i++) {
		const struct binder_run *r = &res->runs[i];
		if (!r->little_checked)
			continue;
		doc_row(t);
		doc_set_fields(t, cols, 0, NCOLS, r); /* an infinite bound is missing, as NaN */
		doc_set_text(t, VERDICT, r->little_fails ? "fails" : "holds");
	}
}

static void rule_facts(struct doc *d, const struct binders_options *o)
{
	doc_fact_real(d, "near", "near its ceiling at", DOC_QUIET, o->near, "of capacity", 'g', 3);
	doc_fact_real(d, "flat_pct", "flat within", DOC_QUIET, o->flat_pct, "%", 'g', 3);
	doc_fact_real(d, "rise_min", "a step rises at elasticity", DOC_QUIET, o->rise_min, NULL,
		      'g', 3);
	doc_fact_real(d, "latency_rise_pct", "latency rises by", DOC_QUIET, o->latency_rise_pct,
		      "%", 'g', 3);
	doc_fact_real(d, "generator_flag_pct", "the generator's saturation flag trips at",
		      DOC_QUIET, BINDERS_GENERATOR_FLAG, "%", 'g', 3);
	doc_fact_real(d, "tick_min", "tick check", DOC_QUIET, WINDOW_TICK_MIN, "of nproc x clk_tck",
		      'g', 3);
}

int build_binders(const struct binders_request *req, const struct binders_result *res,
		  struct doc **out)
{
	const struct binders *b = &res->b;
	const char *by = req->by ? req->by : "sessions";
	const char *metric = req->metric ? req->metric : "tput";
	const char *latency = req->latency ? req->latency : "p50_ms";
	struct doc *d = build_doc(out, "binders", "");
	struct doc_section *s;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "What binds %s by %s", metric, by);
	doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)res->sel.n, NULL);
	doc_fact_text(d, "by", "level field", DOC_LISTED, by);
	doc_fact_text(d, "metric", "metric", DOC_LISTED, metric);
	doc_fact_text(d, "latency", "latency field", DOC_QUIET, latency);
	doc_fact_int(d, "groups", "groups", DOC_LISTED, (int64_t)b->ngroups, NULL);
	doc_fact_int(d, "binders", "groups with a binder", DOC_LISTED, (int64_t)b->nbinders, NULL);
	doc_fact_int(d, "little_checked", "runs checked against Little's law", DOC_QUIET,
		     (int64_t)b->little_checked, "runs");
	doc_fact_int(d, "little_fails", "runs failing Little's law", DOC_LISTED,
		     (int64_t)b->little_fails, "runs");
	rule_facts(d, &b->opts);
	s = doc_section(d, "groups", "What binds, per group");
	groups_table(s, b, by);
	doc_note(s,
		 "a group's binder: throughput stops rising over its last levels (a step rises "
		 "at elasticity d ln X / d ln level >= %s and outside noise) while latency rises "
		 "and the resource stays at %s of its capacity or more and flat within %s%%; "
		 "definitions: `coreplan binders --help`",
		 doc_fact_shown(d, "rise_min"), doc_fact_shown(d, "near"),
		 doc_fact_shown(d, "flat_pct"));
	if (!res->any_trace)
		doc_note(s, "no run has a trace: CPU and memory are the corpus's own figures "
			    "(app_cores, pg_cores, machine_busy_cores, load_rss_kb, "
			    "mem_avail_min_kb)");
	levels_table(doc_section(d, "levels", "Levels"), b, by, metric, latency);
	s = doc_section(d, "resources", "Each resource against its capacity");
	resources_table(s, b, by);
	doc_note(s, "use: the level's median (use_min, use_max: its runs); ratio: use / capacity; "
		    "app_cpu against min(gomaxprocs, vCPUs), host_cpu and pg_cpu against the "
		    "vCPUs, memory against RSS + MemAvailable, connections against "
		    "max_connections, generator against the whole of its machine");
	ranking_table(doc_section(d, "ranking", "Resources ranked by use"), b);
	s = doc_section(d, "little", "Little's law on closed-loop runs");
	little_table(s, res, by);
	doc_note(s, "implied mean latency = sessions / throughput - think time; it must lie "
		    "between the Markov bound (a mean is at least t times the share of latencies "
		    "at or above t: half of p50, a twentieth of p95, a hundredth of p99) and the "
		    "maximum latency");
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_binders_views[] = {"groups",  "levels", "resources",
					   "ranking", "little", NULL};
