/*
 * Unit tests for analysis/levers (what each one-factor change is worth).
 *
 * Synthetic runs check the rules and their nulls: a replicated effect at
 * every level is real and level-independent; the same values in both
 * arms are no effect; an unreplicated arm is tested against the spread of
 * the level's replicated arms; a block kind is left out of an arm that has
 * other runs; a field that follows another is no lever of its own.
 *
 * The real corpora (imported unmodified). Expected values were computed
 * with python3's statistics module from the results tables, e.g. for the
 * GOMAXPROCS corpus:
 *   rows = csv.DictReader(open('results.tsv'), delimiter='\t')
 *   median(tput | gomaxprocs=g, gogc=800) / median(tput | gomaxprocs=g, gogc=100)
 *     -> 1.3297151727127887 (g 1), 1.3721728464813148 (4), 1.331736157323136 (8)
 *   app_cores 800 / 100 -> 1.0132596685082873, 1.0153445280833815, 1.0035351303579318
 *   sd of ln(tput), gogc=default blocks 1-3 at g1: 0.01144970944326812; the
 *   borrowed t of ln(621.58 / 467.45) / (sd sqrt 2) = 17.598744983780215
 *   sessions at g8: 1796.1987044774646 / 1704.920583735606 = 1.0535380484068422,
 *   1897.9626451664622 / 1704.920583735606 = 1.113226424311147
 * and for the capacity corpus (blocks 1-3): median(pg) / median(mem) on
 * e2-medium 0.8319855424545476, 0.8022403229403415, 0.8038994281703241 at
 * 100, 300, 500 sessions; verdict_tally's pooled ratio, the geometric mean of
 * the levels' Welch estimates exp(mean(ln b) - mean(ln a)), exp(mean) -> 0.7902302135133041;
 * median(medium) / median(small), pg: 3.4084961342620814, 4.065491861012057,
 * 3.7308593894045097.
 * Seeds: 000_3717fea61227de3c.txt, "The gain is the same 1.33-1.37x at 1,
 * 4 and 8 threads" and "app_cores is unchanged across the GOGC arms at
 * GOMAXPROCS=8 (6.79 / 6.74 / 6.81)"; "Throughput is nearly flat in session
 * count - at GOMAXPROCS=8: n=25 -> 1,704.9, n=100 -> 1,796.2, n=400 ->
 * 1,898.0". 001_1eadbe031a5fc235.txt: "The next rung buys 3.8x over
 * e2-small" and "the whole-store cost (postgres vs memory, same instance,
 * counterbalanced) is 12-16% on e2-medium": the corpus's medians give
 * 17-20% (0.80-0.83x) at 100-500 sessions, its pooled estimate 19.5%.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/levers.h"
#include "common/err.h"
#include "importers/corpus.h"
#include "schema/db.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOMAXPROCS SHARED_CORPORA "/sky/gomaxprocs-scaling-20260816"
#define CAPACITY SHARED_CORPORA "/sky/gcp-x86-capacity-20260816"
#define REL 1e-12

static const char *const fields_ab[] = {"arm", "other"};
static const char *const follows_none[] = {NULL, NULL};

/* The lever "arm" (no field follows it) over N rate RUNS with a level. */
static struct lever_input arm_input(struct lever_run *runs, size_t n)
{
	return (struct lever_input){.runs = runs,
				    .n = n,
				    .fields = fields_ab,
				    .follows = follows_none,
				    .nfields = 1,
				    .kind = FIELD_KIND_RATE,
				    .has_level = true};
}

/* values[i][0] = arm, values[i][1] = other */
static const char *vals[][2] = {{"a", "x"}, {"b", "x"}, {"c", "x"}};

/* 3 levels x 2 arms x 3 runs: arm b = arm a x factor (+-1% spread in both) */
static size_t runs_of(struct lever_run *runs, double factor, const char *block_of_b)
{
	size_t n = 0;
	for (int l = 1; l <= 4; l *= 2)
		for (int arm = 0; arm < 2; arm++)
			for (int k = -1; k <= 1; k++) {
				double base = 100.0 * l * (1 + 0.01 * k);
				runs[n] = (struct lever_run){"t",
							     (double)l,
							     arm ? base * factor : base,
							     NAN,
							     arm && block_of_b ? block_of_b : "1",
							     vals[arm]};
				n++;
			}
	return n;
}

static void replicated_effect_is_real_and_level_independent(void **state)
{
	struct lever_run runs[18];
	struct lever_input in = arm_input(runs, runs_of(runs, 1.3, NULL));
	struct levers l;
	(void)state;
	assert_int_equal(levers_compute(&in, &l), 0);
	assert_int_equal(l.npairs, 1);
	assert_string_equal(l.pairs[0].base, "a");
	assert_string_equal(l.pairs[0].value, "b");
	assert_int_equal(l.pairs[0].ncells, 3);
	assert_true(l.pairs[0].effect);
	assert_int_equal(l.pairs[0].nreal, 3);
	assert_true(l.pairs[0].independent);
	assert_true(l.pairs[0].better);
	check_close(l.pairs[0].min_ratio, 1.3, REL, "ratio");
	assert_string_equal(l.pairs[0].cells[0].verdict, "higher");
	levers_release(&l);
}

/* The null: the same runs in both arms: no effect, no real level. */
static void identical_arms_are_no_effect(void **state)
{
	struct lever_run runs[18];
	struct lever_input in = arm_input(runs, runs_of(runs, 1.0, NULL));
	struct levers l;
	(void)state;
	assert_int_equal(levers_compute(&in, &l), 0);
	assert_int_equal(l.npairs, 1);
	assert_false(l.pairs[0].effect);
	assert_int_equal(l.pairs[0].nreal, 0);
	assert_int_equal(l.neffects, 0);
	levers_release(&l);
}

/*
 * One level, arm a with 3 runs (100, 101, 99), arm c with one run at 130
 * and arm b with one at 100.5: c is beyond noise (t with a's spread), b is
 * not. a's sd of ln values: sd(ln 99, ln 100, ln 101) (python: 0.0100003...).
 */
static void unreplicated_arm_is_tested_against_the_replicated_spread(void **state)
{
	struct lever_run runs[5] = {
		{"a1", 1, 100, NAN, "1", vals[0]},   {"a2", 1, 101, NAN, "1", vals[0]},
		{"a3", 1, 99, NAN, "1", vals[0]},    {"c1", 1, 130, NAN, "1", vals[2]},
		{"b1", 1, 100.5, NAN, "1", vals[1]},
	};
	struct lever_input in = arm_input(runs, 5);
	struct levers l;
	(void)state;
	assert_int_equal(levers_compute(&in, &l), 0);
	assert_int_equal(l.npairs, 2);
	for (size_t i = 0; i < l.npairs; i++) {
		const struct lever_pair *p = &l.pairs[i];
		assert_string_equal(p->base, "a");
		assert_true(p->cells[0].unreplicated);
		if (!strcmp(p->value, "c")) {
			assert_true(p->cells[0].beyond_noise);
			assert_true(p->effect);
		} else {
			assert_false(p->cells[0].beyond_noise);
			assert_false(p->effect);
		}
	}
	levers_release(&l);
}

/* Arm b's runs at level 2 in a block holding only level 2 (a soak): left out there. */
static void block_kind_is_left_out_of_an_arm_with_other_runs(void **state)
{
	struct lever_run runs[20];
	size_t n = runs_of(runs, 1.3, NULL);
	struct lever_input in = arm_input(runs, n + 2);
	struct levers l;
	(void)state;
	runs[n] = (struct lever_run){"soak1", 2, 1000, NAN, "soak", vals[1]};
	runs[n + 1] = (struct lever_run){"soak2", 2, 1000, NAN, "soak", vals[1]};
	assert_int_equal(levers_compute(&in, &l), 0);
	assert_int_equal(l.pairs[0].cells[1].b.n, 3);
	assert_int_equal(l.pairs[0].cells[1].b.kinds_left_out, 2);
	check_close(l.pairs[0].cells[1].ratio, 1.3, REL, "ratio without the soak");
	levers_release(&l);
}

/* "other" follows "arm": one lever, and its pairs name the follower. */
static void a_follower_is_no_lever(void **state)
{
	static const char *const follows[] = {NULL, "arm"};
	static const char *v2[][2] = {{"a", "p"}, {"b", "q"}};
	struct lever_run runs[18];
	size_t n = runs_of(runs, 1.3, NULL);
	struct lever_input in = arm_input(runs, n);
	struct levers l;
	(void)state;
	/* both fields, "other" following "arm" */
	in.follows = follows;
	in.nfields = 2;
	for (size_t i = 0; i < n; i++)
		runs[i].values = v2[runs[i].values == vals[0] ? 0 : 1];
	assert_int_equal(levers_compute(&in, &l), 0);
	assert_int_equal(l.nlevers, 1);
	assert_int_equal(l.npairs, 1);
	assert_string_equal(l.pairs[0].follows, "other");
	levers_release(&l);
}

/* ---- the real corpora ---- */

static sqlite3 *db;

CORPORA_FIXTURE(db, real_setup, real_teardown, GOMAXPROCS, CAPACITY)

static const struct lever_pair *pair_named(const struct levers *l, const char *field,
					   const char *context, const char *value)
{
	for (size_t i = 0; i < l->npairs; i++)
		if (!strcmp(l->pairs[i].field, field) && !strcmp(l->pairs[i].context, context) &&
		    !strcmp(l->pairs[i].value, value))
			return &l->pairs[i];
	fail_msg("no pair %s %s %s", field, context, value);
	return NULL;
}

static void gomaxprocs_gogc_and_sessions(void **state)
{
	const double gogc[3] = {1.3297151727127887, 1.3721728464813148, 1.331736157323136};
	const double app[3] = {1.0132596685082873, 1.0153445280833815, 1.0035351303579318};
	struct levers_request req = {NULL, "gomaxprocs", NULL};
	struct levers_result res;
	struct run_filter f;
	const struct lever_pair *p;
	(void)state;
	memset(&f, 0, sizeof(f));
	f.corpus = strdup("gomaxprocs-scaling-20260816");
	req.filter = &f;
	if (levers_run(db, &req, &res) != 0)
		fail_msg("levers_run: %s", err_msg());
	/* GOGC=800 against 100 at gomaxprocs 1, 4, 8 */
	p = pair_named(&res.lv, "gogc", "sessions=100", "800");
	assert_string_equal(p->base, "100");
	assert_int_equal(p->ncells, 3);
	for (size_t i = 0; i < 3; i++) {
		check_close(p->cells[i].ratio, gogc[i], REL, "gogc 800 / 100");
		check_close(p->cells[i].app_ratio, app[i], REL, "app_cores 800 / 100");
		assert_true(p->cells[i].beyond_noise);
	}
	assert_true(p->independent && p->effect && p->better);
	/* the borrowed t at gomaxprocs 1 */
	assert_non_null(strstr(p->cells[0].reason, "t = 17.599"));
	/* GOGC default against 100 (the same setting): no effect */
	p = pair_named(&res.lv, "gogc", "sessions=100", "default");
	assert_false(p->effect);
	/* sessions at gomaxprocs 8: 25 -> 100 -> 400 */
	p = pair_named(&res.lv, "sessions", "gogc=default", "400");
	if (!strcmp(p->base, "25"))
		check_close(p->cells[0].ratio, 1.113226424311147, REL, "400 / 25 sessions");
	p = pair_named(&res.lv, "sessions", "gogc=default", "100");
	check_close(p->cells[0].ratio, 1.0535380484068422, REL, "100 / 25 sessions");
	levers_result_release(&res);
	run_filter_release(&f);
}

static void capacity_store_and_instance(void **state)
{
	const double pg[3] = {0.8319855424545476, 0.8022403229403415, 0.8038994281703241};
	const double medium[3] = {3.4084961342620814, 4.065491861012057, 3.7308593894045097};
	const char *blocks[3] = {"1", "2", "3"}, *main_sub[1] = {""};
	struct levers_request req = {NULL, "sessions", NULL};
	struct levers_result res;
	struct run_filter f;
	const struct lever_pair *p;
	(void)state;
	memset(&f, 0, sizeof(f));
	f.corpus = strdup("gcp-x86-capacity-20260816");
	assert_int_equal(run_filter_add(&f, "block", blocks, 3), 0);
	assert_int_equal(run_filter_add(&f, "subcorpus", main_sub, 1), 0);
	req.filter = &f;
	if (levers_run(db, &req, &res) != 0)
		fail_msg("levers_run: %s", err_msg());
	p = pair_named(&res.lv, "cfg", "target=medium", "pg");
	assert_string_equal(p->base, "mem");
	assert_non_null(strstr(p->follows, "store"));
	for (size_t i = 0; i < 3; i++) {
		check_close(p->cells[i].ratio, pg[i], REL, "pg / mem");
		assert_string_equal(p->cells[i].verdict, "lower");
	}
	assert_true(p->pooled_ci);
	check_close(p->pooled, 0.7902302135133041, 1e-9, "pooled pg / mem");
	assert_true(p->independent);
	p = pair_named(&res.lv, "target", "cfg=pg", "small");
	for (size_t i = 0; i < 3; i++)
		check_close(1 / p->cells[i].ratio, medium[i], 1e-12, "medium / small");
	assert_false(p->independent); /* 3.41 to 4.07: the gap widens with sessions */
	assert_true(p->effect && !p->better);
	levers_result_release(&res);
	run_filter_release(&f);
}

int main(void)
{
	const struct CMUnitTest synthetic[] = {
		cmocka_unit_test(replicated_effect_is_real_and_level_independent),
		cmocka_unit_test(identical_arms_are_no_effect),
		cmocka_unit_test(unreplicated_arm_is_tested_against_the_replicated_spread),
		cmocka_unit_test(block_kind_is_left_out_of_an_arm_with_other_runs),
		cmocka_unit_test(a_follower_is_no_lever),
	};
	const struct CMUnitTest real[] = {
		cmocka_unit_test(gomaxprocs_gogc_and_sessions),
		cmocka_unit_test(capacity_store_and_instance),
	};
	int failed = cmocka_run_group_tests_name("levers synthetic", synthetic, NULL, NULL);
	failed +=
		cmocka_run_group_tests_name("levers real corpora", real, real_setup, real_teardown);
	return failed;
}
