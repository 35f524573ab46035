/*
 * Unit tests for analysis/hosts (the host a selection of runs ran on and
 * what a worker level is on it), the import's tie of a corpus to a host
 * (importers/corpus.h: --host, the stored tie, a catalog instance),
 * schema/topology's topology_shape and topology_require, and the sweep's
 * levels counted in physical cores (analysis/sweep.h, reports/build_sweep.c).
 *
 * Inputs, all real:
 *   SHARED_CORPORA/writeups/gomaxprocs-affinity/lscpu.txt  the AMD EPYC 7B12
 *       host (8 CPUs = 4 cores x 2 threads, siblings 0/4 1/5 2/6 3/7)
 *   SHARED_CORPORA/writeups/gomaxprocs-affinity/runs.tsv   the sweep, pin and
 *       shard arms on that host (seed 000: "the 4 -> 8 flattening is
 *       hyperthreading, not the application")
 *   SHARED_CORPORA/writeups/yip-sharding/level1.tsv        N = 1, 4, 6, 12 on
 *       a 6-core, 12-thread laptop (seed 003)
 *   FIXTURES_DIR/catalogs/gce.tsv                           the shipped GCE catalog
 * Expected values were computed from those files with NumPy/SciPy
 * (/usr/bin/python3, SciPy 1.10.1), each named where it is used, or worked
 * out by hand from the file's numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/hosts.h"
#include "analysis/sweep.h"
#include "common/err.h"
#include "importers/catalog.h"
#include "importers/corpus.h"
#include "importers/topology.h"
#include "reports/builders.h"
#include "schema/catalog.h"
#include "schema/db.h"
#include "schema/topology.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AFFINITY SHARED_CORPORA "/writeups/gomaxprocs-affinity"
#define LSCPU_TXT AFFINITY "/lscpu.txt"
#define RUNS_TSV AFFINITY "/runs.tsv"
#define YIP_TSV SHARED_CORPORA "/writeups/yip-sharding/level1.tsv"
#define GCE_TSV FIXTURES_DIR "/catalogs/gce.tsv"

/* A fresh in-memory database with the epyc host recorded from the real lscpu.txt. */
static int setup(void **state)
{
	struct topology t;
	int rc = db_state_open(state, NULL);
	memset(&t, 0, sizeof(t));
	if (rc == 0)
		rc = topology_read_file(LSCPU_TXT, "lscpu.txt", &t);
	if (rc == 0)
		rc = topology_record(*state, "epyc", &t);
	topology_release(&t);
	if (rc && *state) {
		fprintf(stderr, "setup: %s\n", err_msg());
		db_state_close(state);
	}
	return rc ? -1 : 0;
}

/* Import one file as corpus `name`, tied with host/instance (NULL: not given). */
static int import(sqlite3 *db, const char *path, const char *name, const char *host,
		  const char *instance, bool replace, struct import_result *res)
{
	struct import_options opts;
	char copy[1024];
	char *paths[1] = {copy};
	snprintf(copy, sizeof(copy), "%s", path);
	import_options_init(&opts);
	opts.name = name;
	opts.host = host;
	opts.instance = instance;
	opts.replace = replace;
	err_clear();
	return corpus_import_all(db, paths, 1, &opts, res, NULL, NULL);
}

/* The runs a filter on corpus (and optionally FIELD=VALUE) selects, by `by`. */
static void select_corpus(sqlite3 *db, struct run_filter *f, const char *corpus, const char *field,
			  const char *value, const char *by, struct selection *sel)
{
	struct select_spec spec;
	memset(f, 0, sizeof(*f));
	f->corpus = strdup(corpus);
	assert_non_null(f->corpus);
	if (field)
		assert_int_equal(run_filter_add(f, field, &value, 1), 0);
	memset(&spec, 0, sizeof(spec));
	spec.filter = f;
	spec.by = by;
	assert_int_equal(select_runs(db, &spec, sel), 0);
}

/* ---- level kinds on the real EPYC host ---- */

/*
 * lscpu.txt: 4 physical cores, 8 logical CPUs. A level of N workers is
 * physical for N <= 4, smt for 4 < N <= 8, beyond above 8; no host:
 * assumed physical.
 */
static void level_kinds_on_epyc(void **state)
{
	sqlite3 *db = *state;
	struct selection none = {0};
	struct run_host h;
	assert_int_equal(run_host_of(db, &none, "epyc", &h), 0);
	assert_true(h.known);
	assert_false(h.mixed);
	assert_string_equal(h.name, "epyc");
	assert_int_equal(h.logical_cpus, 8);
	assert_int_equal(h.physical_cores, 4);
	assert_int_equal(h.threads_per_core, 2);
	assert_string_equal(h.source, "lscpu -p");
	assert_int_equal(level_kind_on(&h, 1), LEVEL_PHYSICAL);
	assert_int_equal(level_kind_on(&h, 2), LEVEL_PHYSICAL);
	assert_int_equal(level_kind_on(&h, 4), LEVEL_PHYSICAL);
	assert_int_equal(level_kind_on(&h, 4.5), LEVEL_SMT);
	assert_int_equal(level_kind_on(&h, 6), LEVEL_SMT);
	assert_int_equal(level_kind_on(&h, 8), LEVEL_SMT);
	assert_int_equal(level_kind_on(&h, 9), LEVEL_BEYOND);
	assert_int_equal(level_kind_on(&h, 16), LEVEL_BEYOND);
	h.known = false;
	assert_int_equal(level_kind_on(&h, 8), LEVEL_ASSUMED);
	assert_int_equal(level_kind_on(NULL, 1), LEVEL_ASSUMED);
	assert_string_equal(level_kind_name(LEVEL_PHYSICAL), "physical");
	assert_string_equal(level_kind_name(LEVEL_SMT), "smt");
	assert_string_equal(level_kind_name(LEVEL_BEYOND), "beyond");
	assert_string_equal(level_kind_name(LEVEL_ASSUMED), "assumed physical");
	/* no runs and no name: no host, not an error */
	assert_int_equal(run_host_of(db, &none, NULL, &h), 0);
	assert_false(h.known);
}

/* A name that is not a recorded host is a usage error listing the recorded ones. */
static void unknown_host_name(void **state)
{
	sqlite3 *db = *state;
	struct selection none = {0};
	struct run_host h;
	sqlite3 *empty = NULL;
	assert_int_equal(run_host_of(db, &none, "epic", &h), ERR_USAGE);
	check_msg("--host 'epic' is not a recorded host (recorded: epyc)");
	assert_false(h.known);
	assert_int_equal(topology_require(db, "epyc", "--host"), 0);
	assert_int_equal(db_open(":memory:", false, &empty), 0);
	assert_int_equal(topology_require(empty, "epyc", "--host"), ERR_USAGE);
	check_msg("none is recorded (coreplan topology --from FILE --host NAME, or --cores N");
	db_close(empty);
}

/* ---- topology_shape: a host known by its shape ---- */

/* 6 cores x 2 threads (the yip write-up): CPU i on core i mod 6, siblings i and i+6. */
static void shape_six_by_two(void **state)
{
	struct topology t;
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(topology_shape(6, 2, "given", &t), 0);
	assert_int_equal(t.n, 12);
	assert_int_equal(t.physical_cores, 6);
	assert_int_equal(t.threads_per_core, 2);
	assert_int_equal(t.sockets, 0); /* unknown */
	assert_string_equal(t.source, "given");
	assert_int_equal(topology_cores_text(&t, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "0,6 1,7 2,8 3,9 4,10 5,11");
	strbuf_release(&sb);
	topology_release(&t);
	/* e2-small from the catalog: 2 vCPUs, 2 threads per core = 1 core */
	assert_int_equal(topology_shape(1, 2, "catalog", &t), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.physical_cores, 1);
	topology_release(&t);
	assert_int_equal(topology_shape(0, 2, "given", &t), ERR_USAGE);
	check_msg("1 or more cores");
	assert_int_equal(topology_shape(4, 0, "given", &t), ERR_USAGE);
	assert_int_equal(topology_shape(40000, 2, "given", &t), ERR_USAGE);
	assert_null(t.cpus);
}

/* ---- the import's tie ---- */

static const char *options_of(sqlite3 *db, const char *corpus, char *buf, size_t size)
{
	sqlite3_stmt *stmt = NULL;
	buf[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT options FROM corpora WHERE name = ?1", -1,
					    &stmt, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(stmt, 1, corpus, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return buf;
}

/* The host every run of the corpus names (run_host_of over all its runs). */
static void corpus_host(sqlite3 *db, const char *corpus, struct run_host *h)
{
	struct run_filter f;
	struct selection sel;
	select_corpus(db, &f, corpus, NULL, NULL, NULL, &sel);
	assert_true(sel.n > 0);
	assert_int_equal(run_host_of(db, &sel, NULL, h), 0);
	selection_release(&sel);
	run_filter_release(&f);
}

/* Every run of the corpus names the host NAME. */
static void check_host_name(sqlite3 *db, const char *corpus, const char *name)
{
	struct run_host h;
	corpus_host(db, corpus, &h);
	assert_string_equal(h.name, name);
}

/* Records the host yip, known by its shape: 6 cores x 2 threads (given). */
static void record_yip(sqlite3 *db)
{
	struct topology t;
	memset(&t, 0, sizeof(t));
	assert_int_equal(topology_shape(6, 2, "given", &t), 0);
	assert_int_equal(topology_record(db, "yip", &t), 0);
	topology_release(&t);
}

/*
 * import --host epyc ties all 30 runs of runs.tsv; the tie is stored in
 * corpora.options; importing again without --host keeps it (unchanged);
 * a different --host is a change that needs --replace; an unknown one is
 * a usage error listing the recorded hosts.
 */
static void import_host_tie(void **state)
{
	sqlite3 *db = *state;
	struct import_result res;
	struct run_host h;
	char options[256];
	assert_int_equal(import(db, RUNS_TSV, "affinity", "nope", NULL, false, &res), ERR_USAGE);
	check_msg("--host 'nope' is not a recorded host (recorded: epyc)");
	assert_int_equal(import(db, RUNS_TSV, "affinity", "epyc", NULL, false, &res), 0);
	assert_int_equal(res.runs, 30); /* runs.tsv: 30 rows */
	corpus_host(db, "affinity", &h);
	assert_true(h.known);
	assert_string_equal(h.name, "epyc");
	assert_int_equal(h.physical_cores, 4);
	check_contains(options_of(db, "affinity", options, sizeof(options)), "\"host\": \"epyc\"",
		       "options");
	/* again without --host: the stored tie makes it the same content */
	assert_int_equal(import(db, RUNS_TSV, "affinity", NULL, NULL, false, &res), 0);
	assert_int_equal(res.status, IMPORT_UNCHANGED);
	/* a different host changes the content */
	record_yip(db);
	assert_true(import(db, RUNS_TSV, "affinity", "yip", NULL, false, &res) < 0);
	check_msg("--host ties it to 'yip', it was tied to 'epyc'): pass --replace");
	assert_int_equal(import(db, RUNS_TSV, "affinity", "yip", NULL, true, &res), 0);
	assert_int_equal(res.status, IMPORT_REPLACED);
	check_host_name(db, "affinity", "yip");
	/* --replace without --host keeps it */
	assert_int_equal(import(db, RUNS_TSV, "affinity", NULL, NULL, true, &res), 0);
	check_host_name(db, "affinity", "yip");
}

/* Stores the shipped catalog gce.tsv in the database. */
static void store_gce_catalog(sqlite3 *db)
{
	struct catalog cat;
	bool replaced;
	memset(&cat, 0, sizeof(cat));
	assert_int_equal(catalog_read(GCE_TSV, &cat), 0);
	assert_int_equal(db_begin(db), 0);
	assert_int_equal(catalog_store(db, &cat, &replaced), 0);
	assert_int_equal(db_commit(db), 0);
	catalog_release(&cat);
}

/*
 * --instance e2-standard-8 (gce.tsv: 8 vCPUs, 2 threads per core): the
 * host e2-standard-8 is recorded from the catalog as 4 cores x 2 threads
 * (source catalog) and every run gets instance = e2-standard-8; an
 * instance no catalog lists is a usage error.
 */
static void import_instance_tie(void **state)
{
	sqlite3 *db = *state;
	struct import_result res;
	struct run_host h;
	store_gce_catalog(db);
	assert_int_equal(import(db, YIP_TSV, "yip", NULL, "e2-bogus-3", false, &res), ERR_USAGE);
	check_msg("--instance 'e2-bogus-3': no catalog lists that instance");
	assert_int_equal(import(db, YIP_TSV, "yip", NULL, "e2-standard-8", false, &res), 0);
	corpus_host(db, "yip", &h);
	assert_string_equal(h.name, "e2-standard-8");
	assert_string_equal(h.source, "catalog");
	assert_int_equal(h.logical_cpus, 8);
	assert_int_equal(h.physical_cores, 4);
	assert_int_equal(h.threads_per_core, 2);
	/* the runs' instance field */
	{
		struct run_filter f;
		struct selection sel;
		select_corpus(db, &f, "yip", "instance", "e2-standard-8", NULL, &sel);
		assert_int_equal(sel.n, 4); /* level1.tsv: 4 rows */
		selection_release(&sel);
		run_filter_release(&f);
	}
	/* --host wins over the instance */
	assert_int_equal(import(db, YIP_TSV, "yip", "epyc", NULL, true, &res), 0);
	check_host_name(db, "yip", "epyc");
}

/*
 * Runs of two corpora on different hosts: run_host_of refuses (naming
 * both), run_host_levels goes on with no host and the reason; a corpus
 * not tied beside a tied one is mixed too.
 */
static void mixed_hosts(void **state)
{
	sqlite3 *db = *state;
	struct import_result res;
	struct run_filter f;
	struct selection sel;
	struct select_spec spec;
	struct run_host h;
	record_yip(db);
	assert_int_equal(import(db, RUNS_TSV, "affinity", "epyc", NULL, false, &res), 0);
	assert_int_equal(import(db, YIP_TSV, "yip", "yip", NULL, false, &res), 0);
	memset(&f, 0, sizeof(f));
	memset(&spec, 0, sizeof(spec));
	spec.filter = &f;
	assert_int_equal(select_runs(db, &spec, &sel), 0);
	assert_int_equal(sel.n, 34);
	assert_int_equal(run_host_of(db, &sel, NULL, &h), ERR_USAGE);
	check_msg("the runs ran on different hosts ('epyc' on ");
	check_msg("select one host's runs or pass --host");
	assert_true(h.mixed);
	assert_int_equal(run_host_levels(db, &sel, NULL, &h), 0);
	assert_false(h.known);
	assert_true(h.mixed);
	check_contains(h.mixed_note, "'yip' on ", "mixed note");
	/* a name given wins over the runs' fields */
	assert_int_equal(run_host_levels(db, &sel, "yip", &h), 0);
	assert_true(h.known);
	assert_string_equal(h.name, "yip");
	selection_release(&sel);
	/* a corpus without a host first, then a tied one: mixed in either order */
	assert_int_equal(import(db, YIP_TSV, "bare", NULL, NULL, false, &res), 0);
	f.corpus = NULL;
	assert_int_equal(run_filter_add(&f, "corpus", (const char *[]){"bare", "affinity"}, 2), 0);
	assert_int_equal(select_runs(db, &spec, &sel), 0);
	assert_int_equal(run_host_of(db, &sel, NULL, &h), ERR_USAGE);
	check_msg("some runs have no host");
	selection_release(&sel);
	run_filter_release(&f);
}

/* ---- the SMT factor of a host, and the sweep in physical cores ---- */

/*
 * runs.tsv's pin arm: 4 threads on 2 cores (0,4,1,5: median 1097.0)
 * against 2 threads unpinned (sweep g2: median 865.4682448787189), as
 * `coreplan smt` measures it: 1097.0 / 865.4682448787189 =
 * 1.2675219529905761 (NumPy medians); bounds 1084.7 / 881.2907259769522 =
 * 1.2308083678034387 and 1102.0 / 853.212014958686.
 */
static void host_smt_factor_affinity(void **state)
{
	sqlite3 *db = *state;
	struct import_result res;
	struct host_smt smt;
	assert_int_equal(host_smt_factor(db, "epyc", NULL, &smt), 1); /* no runs yet */
	assert_int_equal(import(db, YIP_TSV, "a-first", "epyc", NULL, false, &res), 0);
	assert_int_equal(import(db, RUNS_TSV, "affinity", "epyc", NULL, false, &res), 0);
	/* a-first (by name, first) has no pinned runs: not measured, passed over */
	assert_int_equal(host_smt_factor(db, "epyc", NULL, &smt), 0);
	assert_string_equal(smt.corpus, "affinity");
	check_close(smt.factor, 1.2675219529905761, 1e-12, "smt factor");
	check_close(smt.lo, 1.2308083678034387, 1e-12, "smt lo");
	check_close(smt.hi, 1102.0 / 853.212014958686, 1e-12, "smt hi");
	assert_int_equal(smt.num_n, 3);
	assert_int_equal(smt.den_n, 3);
	check_contains(smt.num, "4 threads pinned on 2 cores", "numerator");
}

/* The affinity write-up's sweep arm, by threads_per_proc, on host h (NULL: none). */
static void affinity_sweep(sqlite3 *db, const struct run_host *h, struct sweep *sw,
			   struct selection *sel, struct run_filter *f)
{
	struct sweep_options opts;
	struct select_spec spec;
	const char *value = "sweep";
	memset(f, 0, sizeof(*f));
	assert_int_equal(run_filter_add(f, "arm", &value, 1), 0);
	memset(&spec, 0, sizeof(spec));
	spec.filter = f;
	spec.by = "threads_per_proc";
	spec.metric = "tput";
	assert_int_equal(select_runs(db, &spec, sel), 0);
	assert_int_equal(sel->n, 12);
	sweep_options_init(&opts);
	sweep_options_fields(&opts, "tput", "threads_per_proc", NULL, false);
	opts.host = h;
	assert_int_equal(sweep_compute(sel, &opts, sw), 0);
}

/*
 * On epyc: levels 1, 2, 4 physical, 8 smt. The 4 -> 8 step is 1796.1987044774646 /
 * 1538.8011664466776 = 1.1672714731722984 (NumPy medians), no "scaling
 * stops" there; the physical-core fit over the medians 484.13466860190584,
 * 865.4682448787189, 1538.8011664466776 at 1, 2, 4: exp(slope) of
 * scipy.stats.linregress(log2 N, ln median) = 1.7828227270947987, SE
 * exp(slope) * stderr = 0.0027890940187584915, R² 0.9999926792804322
 * (SciPy 1.10.1); efficiency at 4: 1538.80 / 484.135 / 4 = 0.7946142190614337.
 * The whole-sweep fit stays (1.5696744729671104, linregress over 4 levels).
 * Without a host the same runs stop at level 8, as before.
 */
static void sweep_in_physical_cores(void **state)
{
	sqlite3 *db = *state;
	struct import_result res;
	struct selection none = {0}, sel;
	struct run_filter f;
	struct run_host h;
	struct sweep sw;
	assert_int_equal(import(db, RUNS_TSV, "affinity", NULL, NULL, false, &res), 0);
	assert_int_equal(run_host_of(db, &none, "epyc", &h), 0);
	affinity_sweep(db, &h, &sw, &sel, &f);
	assert_true(sw.classified);
	assert_int_equal(sw.nlevels, 4);
	assert_int_equal(sw.levels[0].kind, LEVEL_PHYSICAL);
	assert_int_equal(sw.levels[1].kind, LEVEL_PHYSICAL);
	assert_int_equal(sw.levels[2].kind, LEVEL_PHYSICAL);
	assert_int_equal(sw.levels[3].kind, LEVEL_SMT);
	assert_int_equal(sw.nphysical, 3);
	assert_int_equal(sw.nsmt, 1);
	assert_int_equal(sw.nbeyond, 0);
	assert_int_equal(sw.last_physical, 2);
	check_close(sw.levels[3].smt_step, 1.1672714731722984, 1e-12, "smt step at 8");
	assert_int_equal(sw.levels[3].smt_over, 2);
	assert_true(isnan(sw.levels[2].smt_step));
	assert_false(sw.levels[3].scaling_stops);
	assert_int_equal(sw.stop_index, sw.nlevels);
	assert_true(sw.has_physical_fit);
	assert_int_equal(sw.physical_fit.n, 3);
	check_close(sw.physical_fit.factor, 1.7828227270947987, 1e-12, "physical per-doubling");
	check_close(sw.physical_fit.factor_se, 0.0027890940187584915, 1e-9, "its SE");
	check_close(sw.physical_fit.r2, 0.9999926792804322, 1e-12, "its R²");
	check_close(sw.physical_efficiency, 0.7946142190614337, 1e-12, "physical efficiency");
	assert_true(sw.has_fit);
	check_close(sw.fit.factor, 1.5696744729671104, 1e-12, "whole-sweep per-doubling");
	sweep_release(&sw);
	selection_release(&sel);
	run_filter_release(&f);
	/* no host: every level assumed physical, and scaling stops at 8 (1.167 < 1.2) */
	affinity_sweep(db, NULL, &sw, &sel, &f);
	assert_int_equal(sw.levels[3].kind, LEVEL_ASSUMED);
	assert_true(sw.levels[3].scaling_stops);
	assert_int_equal(sw.stop_index, 3);
	assert_int_equal(sw.nphysical, 4);
	check_close(sw.physical_fit.factor, sw.fit.factor, 0, "all levels physical");
	sweep_release(&sw);
	selection_release(&sel);
	run_filter_release(&f);
}

/*
 * A synthetic host of 2 cores x 2 threads and levels 1, 2, 4, 8 (medians
 * 100, 150, 160, 100): 1, 2 physical, 4 smt, 8 beyond. A physical level
 * that stops is still "scaling stops" (150 / 100 = 1.5 per doubling: no;
 * so a second case with 110 at level 2: 1.1 < 1.2 stops at 2); the drop at
 * 8 (beyond) is never a stop; the physical fit has 2 levels only: none.
 */
static void sweep_smt_and_beyond(void **state)
{
	static const double levels[] = {1, 2, 4, 8};
	double medians[] = {100, 150, 160, 100};
	struct sel_run runs[4];
	struct selection sel;
	struct sweep_options opts;
	struct run_host h;
	struct sweep sw;
	char tags[4][8];
	(void)state;
	host_known(&h, "two-by-two", 2, 4, 2);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			medians[1] = 110;
		memset(runs, 0, sizeof(runs));
		for (int i = 0; i < 4; i++) {
			snprintf(tags[i], sizeof(tags[i]), "r%d", i);
			runs[i].tag = tags[i];
			runs[i].level_text = tags[i];
			runs[i].level = levels[i];
			runs[i].level_numeric = true;
			runs[i].metric = medians[i];
			runs[i].app_cores = NAN;
		}
		memset(&sel, 0, sizeof(sel));
		sel.runs = runs;
		sel.n = 4;
		sweep_options_init(&opts);
		sweep_options_fields(&opts, "tput", "gomaxprocs", NULL, false);
		opts.host = &h;
		assert_int_equal(sweep_compute(&sel, &opts, &sw), 0);
		assert_int_equal(sw.levels[0].kind, LEVEL_PHYSICAL);
		assert_int_equal(sw.levels[1].kind, LEVEL_PHYSICAL);
		assert_int_equal(sw.levels[2].kind, LEVEL_SMT);
		assert_int_equal(sw.levels[3].kind, LEVEL_BEYOND);
		assert_int_equal(sw.nbeyond, 1);
		/* the step over level 2: 160 / 150, or 160 / 110 */
		check_close(sw.levels[2].smt_step, 160.0 / medians[1], 1e-15, "smt step");
		assert_true(isnan(sw.levels[3].smt_step));
		assert_false(sw.levels[3].scaling_stops);
		assert_false(sw.has_physical_fit);
		check_contains(sw.physical_fit_note, "no physical-core fit: 2 levels", "note");
		if (pass == 0) {
			assert_int_equal(sw.stop_index, sw.nlevels);
		} else {
			assert_int_equal(sw.stop_index, 1);
			assert_true(sw.levels[1].scaling_stops);
		}
		/* efficiency at level 2: (m2 / 100) / 2 */
		check_close(sw.physical_efficiency, medians[1] / 100.0 / 2.0, 1e-15, "efficiency");
		sweep_release(&sw);
	}
}

/*
 * sweep_run on the affinity corpus tied to epyc (by threads_per_proc,
 * arm=sweep) and its document: level 8 is smt with its step against the
 * SMT factor the same corpus's pin arm measures; the headline facts.
 */
static void sweep_document_tied(void **state)
{
	sqlite3 *db = *state;
	struct import_result res;
	struct run_filter f;
	struct sweep_request req;
	struct sweep_result sr;
	struct doc *d = NULL;
	const char *value = "sweep";
	char note[4096] = "";
	FILE *mem;
	assert_int_equal(import(db, RUNS_TSV, "affinity", "epyc", NULL, false, &res), 0);
	memset(&f, 0, sizeof(f));
	assert_int_equal(run_filter_add(&f, "arm", &value, 1), 0);
	memset(&req, 0, sizeof(req));
	req.filter = &f;
	req.by = "threads_per_proc";
	sweep_options_init(&req.opts);
	assert_int_equal(sweep_run(db, &req, &sr), 0);
	assert_true(sr.sw.has_smt_factor);
	check_close(sr.sw.smt.factor, 1.2675219529905761, 1e-12, "smt factor");
	assert_int_equal(build_sweep(&req, &sr, &d), 0);
	assert_string_equal(doc_fact_string(d, "host"), "epyc");
	assert_string_equal(doc_fact_string(d, "scaling"), "continues");
	check_close(doc_fact_number(d, "physical_cores"), 4, 0, "physical_cores");
	check_close(doc_fact_number(d, "physical_per_doubling"), 1.7828227270947987, 1e-12,
		    "physical_per_doubling");
	check_close(doc_fact_number(d, "physical_efficiency"), 0.7946142190614337, 1e-12,
		    "physical_efficiency");
	check_close(doc_fact_number(d, "smt_step_at_8"), 1.1672714731722984, 1e-12, "step");
	check_close(doc_fact_number(d, "smt_factor"), 1.2675219529905761, 1e-12, "factor");
	assert_string_equal(doc_fact_string(d, "smt_factor_corpus"), "affinity");
	assert_null(doc_fact_shown(d, "stop_level"));
	mem = fmemopen(note, sizeof(note) - 1, "w");
	assert_non_null(mem);
	assert_int_equal(doc_write(d, DOC_MD, NULL, mem), 0);
	fclose(mem);
	check_contains(note,
		       "level 8 is SMT siblings of levels 1-4's physical cores: step 1.167 over "
		       "level 4; an SMT factor of 1.268 was measured on this host",
		       "md");
	check_contains(note, "| smt ", "md core_kind");
	if (strstr(note, "scaling stops"))
		fail_msg("'scaling stops' in: %s", note);
	doc_free(d);
	sweep_result_release(&sr);
	run_filter_release(&f);
}

/* A test on the fixture database (setup, db_state_close) */
#define DB_TEST(f) cmocka_unit_test_setup_teardown(f, setup, db_state_close)

int main(void)
{
	const struct CMUnitTest tests[] = {
		DB_TEST(level_kinds_on_epyc),           DB_TEST(unknown_host_name),
		cmocka_unit_test(shape_six_by_two),     DB_TEST(import_host_tie),
		DB_TEST(import_instance_tie),           DB_TEST(mixed_hosts),
		DB_TEST(host_smt_factor_affinity),      DB_TEST(sweep_in_physical_cores),
		cmocka_unit_test(sweep_smt_and_beyond), DB_TEST(sweep_document_tied),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
