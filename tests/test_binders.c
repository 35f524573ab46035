/*
 * Unit tests for analysis/binders (what binds a load sweep).
 *
 * Synthetic runs (built here, each case's numbers in its comment) check
 * each rule and its null: a saturated resource is named, nothing near a
 * ceiling is "no-binder", a throughput that still rises is "rising",
 * untrustworthy ticks name no CPU binder, a saturated generator binds
 * first, the knee is the first level with errors, Little's law flags a
 * run whose implied mean latency is below the Markov bound.
 *
 * The real capacity corpus (SHARED_CORPORA/sky/gcp-x86-capacity-20260816,
 * imported unmodified): expected values were read from system.tsv and
 * results.tsv with awk, e.g.
 *   awk -F'\t' '$2=="medium" && $3=="pg" && $4~/^[123]$/ {print $5, $9, $10, $15, $16}' system.tsv
 * (app_cores and pg_cores at 3 decimals: the trace recomputation must
 * agree to 0.0005), and max_connections 56 from results.tsv column 14.
 * Seed 001_1eadbe031a5fc235.txt, "What binds, in order": "app_cores is
 * flat at 1.62-1.65 (e2-medium, postgres) across n = 100, 300 and 500
 * while throughput falls and latency rises"; "backends_max is 7 ...
 * against max_connections = 56"; "At n = 500 on e2-medium the app holds
 * 364-374 MB with MemAvailable still above 3.0 GB"; and "The e2-small
 * accounting anomaly": CPU attribution on e2-small is indicative only.
 * "Where interactions start FAILING": "e2-small's failure knee ... sits
 * between 100 and 300 sessions".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/binders.h"
#include "common/err.h"
#include "importers/catalog.h"
#include "importers/corpus.h"
#include "schema/catalog.h"
#include "schema/db.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAPACITY SHARED_CORPORA "/sky/gcp-x86-capacity-20260816"
#define GCE_TSV FIXTURES_DIR "/catalogs/gce.tsv"

/* A run at `level` with throughput x, latency p50 and every resource missing. */
static struct binder_run run_at(const char *group, double level, double x, double p50)
{
	struct binder_run r;
	memset(&r, 0, sizeof(r));
	r.tag = "t";
	r.group = group;
	r.level = level;
	r.tput = x;
	r.latency = r.p50 = p50;
	r.p95 = r.p99 = r.max_ms = r.err = NAN;
	r.sessions = level;
	r.think_s = NAN;
	r.app_rss_kb = r.avail_kb = r.physical_cores = NAN;
	for (int k = 0; k < BINDER_NRES; k++)
		r.use[k] = r.cap[k] = NAN;
	r.cpu_trusted = true;
	return r;
}

static void set_use(struct binder_run *r, enum binder_resource k, double use, double cap)
{
	r->use[k] = use;
	r->cap[k] = cap;
}

/*
 * Three levels (100, 300, 500 sessions), three runs each; throughput
 * 300, 290, 280 (+-1 across the runs: every step a resolved fall),
 * latency 330, 1030, 1780 ms; app cores (app, +-0.005) of 2 vCPUs;
 * generator 3% of its machine.
 */
static size_t sweep(struct binder_run *runs, double app, double x100, double x300, double x500)
{
	const double level[3] = {100, 300, 500}, x[3] = {x100, x300, x500},
		     p50[3] = {330, 1030, 1780};
	size_t n = 0;
	for (int i = 0; i < 3; i++)
		for (int k = -1; k <= 1; k++) {
			struct binder_run r = run_at("g", level[i], x[i] + k, p50[i]);
			set_use(&r, BINDER_APP_CPU, app + 0.005 * k, 2);
			set_use(&r, BINDER_HOST_CPU, app + 0.1, 2);
			set_use(&r, BINDER_GENERATOR, 3, 100);
			runs[n++] = r;
		}
	return n;
}

/* binders_compute over the N RUNS with the default options, which must succeed. */
static void compute_default(struct binder_run *runs, size_t n, struct binders *b)
{
	struct binders_options o;
	binders_options_init(&o);
	assert_int_equal(binders_compute(runs, n, &o, b), 0);
}

static void saturated_app_cpu_is_the_binder(void **state)
{
	struct binder_run runs[9];
	struct binders b;
	size_t n = sweep(runs, 1.64, 300, 290, 280);
	(void)state;
	compute_default(runs, n, &b);
	assert_int_equal(b.ngroups, 1);
	assert_string_equal(b.groups[0].verdict, BINDERS_BINDER);
	assert_int_equal(b.groups[0].binder, BINDER_APP_CPU);
	assert_int_equal(b.groups[0].plateau_from, 0);
	assert_true(b.groups[0].latency_rises);
	/* the ranking: host CPU (0.87), app (0.82), generator (0.03) */
	assert_int_equal(b.groups[0].nrank, 3);
	assert_int_equal(b.groups[0].rank[2].r, BINDER_GENERATOR);
	check_abs(b.groups[0].rank[2].headroom, 0.97, 1e-12, "generator headroom");
	assert_false(b.groups[0].has_knee);
	binders_release(&b);
}

/*
 * The resources a group records: sweep() gives every run app CPU, host CPU
 * and the generator, nothing else; PostgreSQL CPU at 0 in every run is
 * absent (binders.h: judged only where some run reads above 0), 0.1 in one
 * run is recorded.
 */
static void absent_resources_are_the_unrecorded(void **state)
{
	struct binder_run runs[9];
	struct binders b;
	size_t n = sweep(runs, 1.64, 300, 290, 280);
	(void)state;
	for (size_t i = 0; i < n; i++)
		set_use(&runs[i], BINDER_PG_CPU, 0, 2);
	compute_default(runs, n, &b);
	assert_true(binder_group_records(&b.groups[0], BINDER_APP_CPU));
	assert_true(binder_group_records(&b.groups[0], BINDER_HOST_CPU));
	assert_true(binder_group_records(&b.groups[0], BINDER_GENERATOR));
	assert_false(binder_group_records(&b.groups[0], BINDER_PG_CPU));
	assert_false(binder_group_records(&b.groups[0], BINDER_MEMORY));
	assert_false(binder_group_records(&b.groups[0], BINDER_CONNECTIONS));
	binders_release(&b);
	set_use(&runs[4], BINDER_PG_CPU, 0.1, 2);
	compute_default(runs, n, &b);
	assert_true(binder_group_records(&b.groups[0], BINDER_PG_CPU));
	binders_release(&b);
}

/* The null: the same flat throughput with the app at 0.4 of 2 cores: nothing binds. */
static void nothing_near_a_ceiling_is_no_binder(void **state)
{
	struct binder_run runs[9];
	struct binders b;
	size_t n = sweep(runs, 0.4, 300, 290, 280);
	(void)state;
	compute_default(runs, n, &b);
	assert_string_equal(b.groups[0].verdict, BINDERS_NONE);
	assert_int_equal(b.groups[0].binder, -1);
	binders_release(&b);
}

/* Throughput 100, 290, 480 (elasticity 0.97 then 0.98): rising, no binder. */
static void rising_throughput_names_no_binder(void **state)
{
	struct binder_run runs[9];
	struct binders b;
	size_t n = sweep(runs, 1.9, 100, 290, 480);
	(void)state;
	compute_default(runs, n, &b);
	assert_string_equal(b.groups[0].verdict, BINDERS_RISING);
	assert_int_equal(b.groups[0].plateau_from, 3);
	check_abs(b.levels[1].elasticity, log(290.0 / 100) / log(3.0), 1e-12, "elasticity");
	binders_release(&b);
}

/* The app at 1.64 of 2 but every run fails the tick check: no CPU binder. */
static void untrustworthy_ticks_name_no_cpu_binder(void **state)
{
	struct binder_run runs[9];
	struct binders b;
	size_t n = sweep(runs, 1.64, 300, 290, 280);
	(void)state;
	for (size_t i = 0; i < n; i++) {
		runs[i].cpu_checked = true;
		runs[i].cpu_trusted = false;
	}
	compute_default(runs, n, &b);
	assert_string_equal(b.groups[0].verdict, BINDERS_UNTRUSTED);
	assert_int_equal(b.groups[0].binder, -1);
	assert_int_equal(b.groups[0].cpu_untrusted_runs, 9);
	binders_release(&b);
}

/* A generator that flags itself saturated binds before the app. */
static void saturated_generator_binds_first(void **state)
{
	struct binder_run runs[9];
	struct binders b;
	size_t n = sweep(runs, 1.64, 300, 290, 280);
	(void)state;
	runs[8].gen_flag_known = runs[8].gen_saturated = true;
	compute_default(runs, n, &b);
	assert_string_equal(b.groups[0].verdict, BINDERS_BINDER);
	assert_int_equal(b.groups[0].binder, BINDER_GENERATOR);
	binders_release(&b);
}

/* err 0, 0, 0 at 100; 0.001, 0.002, 0 at 300 (median 0.001): the knee is 300, after 100. */
static void knee_is_the_first_level_with_errors(void **state)
{
	struct binder_run runs[9];
	struct binders_options o;
	struct binders b;
	size_t n = sweep(runs, 1.64, 300, 290, 280);
	(void)state;
	for (size_t i = 0; i < n; i++)
		runs[i].err = 0;
	runs[3].err = 0.001;
	runs[4].err = 0.002;
	runs[6].err = 0.01;
	binders_options_init(&o);
	assert_int_equal(binders_compute(runs, n, &o, &b), 0);
	assert_true(b.groups[0].has_knee);
	assert_int_equal(b.groups[0].knee, 1);
	check_abs(b.levels[1].err.median, 0.001, 1e-15, "median err at 300");
	assert_int_equal(b.levels[1].err_runs, 2);
	/* one erring run of three at 500 does not move the knee (median 0) */
	binders_release(&b);
	/* the null: no errors anywhere, no knee */
	for (size_t i = 0; i < n; i++)
		runs[i].err = 0;
	assert_int_equal(binders_compute(runs, n, &o, &b), 0);
	assert_false(b.groups[0].has_knee);
	binders_release(&b);
}

/*
 * Little's law, closed loop (think 0): 100 sessions at 300/s imply a mean
 * of 333.3 ms; with p50 330 and max 2000 it holds. 100 sessions at 1000/s
 * imply 100 ms against a p50 of 330 ms: below the Markov bound 165 ms, it
 * fails.
 */
static void littles_law_flags_an_impossible_run(void **state)
{
	struct binder_run runs[2] = {run_at("", 100, 300, 330), run_at("", 100, 1000, 330)};
	struct binders_options o;
	struct binders b;
	(void)state;
	for (int i = 0; i < 2; i++) {
		runs[i].think_s = 0;
		runs[i].max_ms = 2000;
	}
	binders_options_init(&o);
	assert_int_equal(binders_compute(runs, 2, &o, &b), 0);
	assert_true(runs[0].little_checked && !runs[0].little_fails);
	check_abs(runs[0].little_w_ms, 100000.0 / 300, 1e-9, "implied mean");
	assert_true(runs[1].little_checked && runs[1].little_fails);
	check_abs(runs[1].little_lo_ms, 165, 1e-12, "Markov bound");
	assert_int_equal(b.little_fails, 1);
	binders_release(&b);
	/* no think time known: not checked */
	runs[0].think_s = NAN;
	assert_int_equal(binders_compute(runs, 1, &o, &b), 0);
	assert_false(runs[0].little_checked);
	binders_release(&b);
}

/* ---- the real capacity corpus ---- */

static sqlite3 *cap_db;

static int cap_setup(void **state)
{
	static const char *const paths[] = {CAPACITY};
	struct catalog cat;
	bool replaced;
	if (db_open(":memory:", false, &cap_db) != 0)
		return -1;
	/* the shipped GCE catalog: e2-small and e2-medium are 2 vCPUs on 1 physical core */
	memset(&cat, 0, sizeof(cat));
	if (catalog_read(GCE_TSV, &cat) != 0 || db_begin(cap_db) != 0 ||
	    catalog_store(cap_db, &cat, &replaced) != 0 || db_commit(cap_db) != 0) {
		fprintf(stderr, "catalog: %s\n", err_msg());
		return -1;
	}
	catalog_release(&cat);
	return import_all(cap_db, paths, ARRAY_LEN(paths)) == 0 ? 0 : -1;
}

static int cap_teardown(void **state)
{
	(void)state;
	return db_release(&cap_db);
}

static const struct binder_group *group_named(const struct binders *b, const char *name)
{
	return FIND_NAMED(b->groups, b->ngroups, group, name);
}

/*
 * binders_run over the capacity corpus's main runs (subcorpus ""), blocks
 * 1-3, by target and cfg, the ramp kept or left out; the caller releases
 * res and the filter f.
 */
static void capacity_binders(bool keep_ramp, struct run_filter *f, struct binders_result *res)
{
	const char *blocks[3] = {"1", "2", "3"}, *main_sub[1] = {""};
	static const char *const group[] = {"target", "cfg", NULL};
	struct binders_request req;
	memset(f, 0, sizeof(*f));
	assert_int_equal(run_filter_add(f, "block", blocks, 3), 0);
	assert_int_equal(run_filter_add(f, "subcorpus", main_sub, 1), 0);
	memset(&req, 0, sizeof(req));
	req.filter = f;
	req.group = group;
	binders_options_init(&req.opts);
	cores_options_init(&req.cores);
	req.cores.window.keep_ramp = keep_ramp;
	if (binders_run(cap_db, &req, res) != 0)
		fail_msg("binders_run: %s", err_msg());
}

static void capacity_corpus_binders(void **state)
{
	struct binders_result res;
	struct run_filter f;
	const struct binder_group *g;
	double lo = INFINITY, hi = -INFINITY;
	(void)state;
	capacity_binders(false, &f, &res);
	assert_int_equal(res.b.ngroups, 4);
	/* e2-medium pg: app CPU binds, flat at 1.65-1.70 cores of 2 vCPUs (1 physical core) */
	g = group_named(&res.b, "target=medium, cfg=pg");
	assert_string_equal(g->verdict, BINDERS_BINDER);
	assert_int_equal(g->binder, BINDER_APP_CPU);
	assert_int_equal(g->plateau_from, 0);
	for (size_t i = 0; i < g->nlevels; i++) {
		const struct binder_use *u = &g->levels[i].res[BINDER_APP_CPU];
		lo = u->min < lo ? u->min : lo;
		hi = u->max > hi ? u->max : hi;
		check_abs(g->levels[i].vcpus, 2, 0, "vCPUs");
		check_abs(g->levels[i].physical_cores, 1, 0, "physical cores");
		/* backends_max 7 of max_connections 56 at every level */
		check_abs(g->levels[i].res[BINDER_CONNECTIONS].median, 7, 0, "backends_max");
		check_abs(g->levels[i].res[BINDER_CONNECTIONS].cap, 56, 0, "max_connections");
	}
	/* the plateau without the ramp (the default, issue 25.7), recomputed
	 * by tests/plateau_check.py from samples/: 1.652-1.700 */
	check_abs(lo, 1.652, 0.0005, "app cores min, plateau");
	check_abs(hi, 1.700, 0.0005, "app cores max, plateau");
	/* PostgreSQL 0.113-0.121 cores on the plateau (plateau_check.py; 0.110-0.118
	 * in system.tsv); MemAvailable at 500: 3015292 kB at least */
	check_abs(g->levels[2].res[BINDER_PG_CPU].min, 0.113, 0.0005, "pg cores at 500");
	check_abs(g->levels[0].res[BINDER_PG_CPU].max, 0.121, 0.0005, "pg cores at 100");
	check_abs(g->levels[2].avail_min, 3015292, 0, "MemAvailable at 500");
	check_abs(g->levels[2].app_rss.min, 363880, 0, "app RSS at 500, min");
	check_abs(g->levels[2].app_rss.max, 373928, 0, "app RSS at 500, max");
	assert_false(g->has_knee); /* no error up to 500 sessions: the knee is above */
	/* the pg groups record all six (system.tsv: pg_cores 0.110-0.126, backends_max 7);
	 * the memory store runs no PostgreSQL (pg_cores 0.000, backends_max 0, max_connections NA)
	 */
	for (int r = 0; r < BINDER_NRES; r++)
		assert_true(binder_group_records(g, (enum binder_resource)r));
	g = group_named(&res.b, "target=medium, cfg=mem");
	assert_false(binder_group_records(g, BINDER_PG_CPU));
	assert_false(binder_group_records(g, BINDER_CONNECTIONS));
	assert_true(binder_group_records(g, BINDER_MEMORY));
	/* e2-small: every run fails the tick check, so no CPU binder */
	g = group_named(&res.b, "target=small, cfg=pg");
	assert_string_equal(g->verdict, BINDERS_UNTRUSTED);
	assert_int_equal(g->cpu_untrusted_runs, 9);
	/* the knee: err 0 in 3 of 3 runs at 100, > 0 in 3 of 3 at 300 */
	assert_true(g->has_knee);
	check_abs(g->levels[g->knee].level, 300, 0, "small pg knee");
	assert_int_equal(g->levels[g->knee].err_runs, 3);
	g = group_named(&res.b, "target=small, cfg=mem");
	assert_true(g->has_knee);
	check_abs(g->levels[g->knee].level, 500, 0, "small mem knee (2 of 3 runs err)");
	assert_int_equal(res.b.little_fails, 0);
	assert_int_equal(res.b.little_checked, 36);
	binders_result_release(&res);
	run_filter_release(&f);
}

/* With the ramp kept (system.tsv's own rule) the binder reads the harness's
 * app_cores: 1.615-1.646 from system.tsv column 9 by the awk above, the
 * seed's "flat at 1.62-1.65". */
static void capacity_corpus_binders_keep_ramp(void **state)
{
	struct binders_result res;
	struct run_filter f;
	const struct binder_group *g;
	double lo = INFINITY, hi = -INFINITY;
	(void)state;
	capacity_binders(true, &f, &res);
	g = group_named(&res.b, "target=medium, cfg=pg");
	assert_int_equal(g->binder, BINDER_APP_CPU);
	for (size_t i = 0; i < g->nlevels; i++) {
		const struct binder_use *u = &g->levels[i].res[BINDER_APP_CPU];
		lo = u->min < lo ? u->min : lo;
		hi = u->max > hi ? u->max : hi;
	}
	check_abs(lo, 1.615, 0.0005, "app cores min, system.tsv");
	check_abs(hi, 1.646, 0.0005, "app cores max, system.tsv");
	binders_result_release(&res);
	run_filter_release(&f);
}

int main(void)
{
	const struct CMUnitTest synthetic[] = {
		cmocka_unit_test(saturated_app_cpu_is_the_binder),
		cmocka_unit_test(absent_resources_are_the_unrecorded),
		cmocka_unit_test(nothing_near_a_ceiling_is_no_binder),
		cmocka_unit_test(rising_throughput_names_no_binder),
		cmocka_unit_test(untrustworthy_ticks_name_no_cpu_binder),
		cmocka_unit_test(saturated_generator_binds_first),
		cmocka_unit_test(knee_is_the_first_level_with_errors),
		cmocka_unit_test(littles_law_flags_an_impossible_run),
	};
	const struct CMUnitTest real[] = {
		cmocka_unit_test(capacity_corpus_binders),
		cmocka_unit_test(capacity_corpus_binders_keep_ramp),
	};
	int failed = cmocka_run_group_tests_name("binders synthetic", synthetic, NULL, NULL);
	failed += cmocka_run_group_tests_name("binders capacity corpus", real, cap_setup,
					      cap_teardown);
	return failed;
}
