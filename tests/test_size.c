/*
 * Unit tests for analysis/size: which instance meets a throughput target,
 * counted in physical cores.
 *
 * A small catalog is built by hand (struct instance rows with their
 * derived physical and sustained cores written in), and the shipped
 * fixtures/catalogs/gce.tsv is read with catalog_read for the e2 rows.
 * size_run is tested on an in-memory database with given numbers: which
 * catalogs it sizes on (given files, stored, shipped) and what it reads.
 * Every expected number is worked out by hand in the comment beside it
 * from the formulas of analysis/size.h:
 *   predicted  = base' * scale(P) * smt * (1 - headroom)
 *   scale(P)   = per_doubling ^ log2(P) for P >= 1, P for a share below 1
 *   memory     = (fixed_kb + per_session_kb * sessions) / 1048576 GiB
 *   shortfall  = target / predicted; cost_per_1k = price * 1000 / predicted
 *
 * The standard inputs (std_inputs):
 *   target 1000, 500 sessions, headroom 0
 *   base 480 (range 470-490) on gce-e2
 *   per_doubling 1.8 (bounds 1.7-1.9), largest measured core count 4
 *   smt 1.25 (bounds 1.2-1.3)
 *   memory 600 kB/session + 50000 kB fixed
 *     -> (50000 + 600 * 500) / 1048576 = 350000 / 1048576
 *        = 0.33378601074218750 GiB for every instance
 */
#include "size_fixture.h"

/* ------------------------------------------------------------ arithmetic */

static void dedicated_power_of_two(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	rows = compute(&in);

	/* one: P = 1, 1.8^0 = 1: 480 * 1 * 1.25 = 600 */
	check_close(rows[I_ONE].predicted, 600, REL, "one: predicted");
	/* lo 470 * 1 * 1.2 = 564; hi 490 * 1 * 1.3 = 637 */
	check_close(rows[I_ONE].predicted_lo, 564, REL, "one: low");
	check_close(rows[I_ONE].predicted_hi, 637, REL, "one: high");
	assert_string_equal(rows[I_ONE].verdict, "short");
	/* 1000 / 600 = 1.6666666666666667 */
	check_close(rows[I_ONE].shortfall, 1000.0 / 600, REL, "one: shortfall");
	/* 0.06701 * 1000 / 600 = 0.11168333333333333 */
	check_close(rows[I_ONE].cost_per_1k, 0.11168333333333333, REL, "one: cost per 1k");

	/* two: P = 2: 480 * 1.8 * 1.25 = 1080 */
	check_close(rows[I_TWO].predicted, 1080, REL, "two: predicted");
	/* lo 470 * 1.7 * 1.2 = 958.8; hi 490 * 1.9 * 1.3 = 1210.3 */
	check_close(rows[I_TWO].predicted_lo, 958.8, REL, "two: low");
	check_close(rows[I_TWO].predicted_hi, 1210.3, REL, "two: high");
	/* 1080 meets 1000 but its lower bound 958.8 does not: marginal */
	assert_string_equal(rows[I_TWO].verdict, "marginal");
	/* 1000 / 1080 = 0.92592592592592593 */
	check_close(rows[I_TWO].shortfall, 0.92592592592592593, REL, "two: shortfall");
	/* 0.13402 * 1000 / 1080 = 0.12409259259259259 */
	check_close(rows[I_TWO].cost_per_1k, 0.12409259259259259, REL, "two: cost per 1k");

	/* four-1t: P = 4, one thread per core (no SMT): 480 * 1.8^2 = 480 * 3.24 = 1555.2 */
	check_close(rows[I_FOUR_1T].predicted, 1555.2, REL, "four-1t: predicted");
	/* lo 470 * 1.7^2 = 470 * 2.89 = 1358.3; hi 490 * 1.9^2 = 490 * 3.61 = 1768.9 */
	check_close(rows[I_FOUR_1T].predicted_lo, 1358.3, REL, "four-1t: low");
	check_close(rows[I_FOUR_1T].predicted_hi, 1768.9, REL, "four-1t: high");
	assert_string_equal(rows[I_FOUR_1T].verdict, "meets"); /* low 1358.3 >= 1000 */
	assert_false(rows[I_FOUR_1T].extrapolated);            /* 4 = the largest measured */

	/* eight: P = 8: 480 * 1.8^3 * 1.25 = 480 * 5.832 * 1.25 = 3499.2, beyond 4 cores */
	check_close(rows[I_EIGHT].predicted, 3499.2, REL, "eight: predicted");
	/* lo 470 * 1.7^3 * 1.2 = 470 * 4.913 * 1.2 = 2770.932 */
	check_close(rows[I_EIGHT].predicted_lo, 2770.932, REL, "eight: low");
	/* hi 490 * 1.9^3 * 1.3 = 490 * 6.859 * 1.3 = 4369.183 */
	check_close(rows[I_EIGHT].predicted_hi, 4369.183, REL, "eight: high");
	assert_true(rows[I_EIGHT].extrapolated);
	assert_string_equal(rows[I_EIGHT].verdict, "meets");

	for (size_t i = 0; i < NINST; i++) {
		if (i == I_SHARED || i == I_HALF_BIG)
			continue;
		assert_false(rows[i].shared_core);
		assert_true(isnan(rows[i].burst));
	}
	free(rows);
}

static void dedicated_between_powers(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	double s;
	(void)state;
	rows = compute(&in);
	/*
	 * three: P = 3, log2(3) = 1.5849625007211562; 1.8^1.58496... =
	 * exp(1.5849625 * ln 1.8 = 1.5849625 * 0.5877866649 = 0.9316200)
	 * = 2.5385... ; 480 * 2.5385 * 1.25 = 1523.1
	 */
	s = exp(log2(3.0) * log(1.8));
	check_close(rows[I_THREE].predicted, 480 * s * 1.25, 1e-12, "three: predicted");
	assert_true(fabs(rows[I_THREE].predicted - 1523.1) < 0.1);
	/* monotone between P = 2 and P = 4 (with SMT) */
	assert_true(rows[I_THREE].predicted > rows[I_TWO].predicted);
	assert_true(rows[I_THREE].predicted < 480 * 3.24 * 1.25);
	free(rows);
}

static void shared_core_share(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	rows = compute(&in);

	/* shared: sustained 2 * 0.25 / 2 = 0.25 of a core, below one: scale = P */
	assert_true(rows[I_SHARED].shared_core);
	/* 480 * 0.25 * 1.25 = 150 */
	check_close(rows[I_SHARED].predicted, 150, REL, "shared: predicted");
	/* lo 470 * 0.25 * 1.2 = 141; hi 490 * 0.25 * 1.3 = 159.25 (no per-doubling below 1) */
	check_close(rows[I_SHARED].predicted_lo, 141, REL, "shared: low");
	check_close(rows[I_SHARED].predicted_hi, 159.25, REL, "shared: high");
	/* burst: all 2 vCPUs = 1 physical core at full speed: 480 * 1.8^0 * 1.25 = 600 */
	check_close(rows[I_SHARED].burst, 600, REL, "shared: burst");
	assert_string_equal(rows[I_SHARED].verdict, "short");
	/* 1000 / 150 = 6.666666666666667 */
	check_close(rows[I_SHARED].shortfall, 1000.0 / 150, REL, "shared: shortfall");
	/* 0.01675 * 1000 / 150 = 0.11166666666666667 */
	check_close(rows[I_SHARED].cost_per_1k, 0.11166666666666667, REL, "shared: cost per 1k");
	assert_false(rows[I_SHARED].extrapolated);

	/*
	 * half-big: 8 vCPU, 2 per core, 0.5 each: physical 4, sustained
	 * 8 * 0.5 / 2 = 2: predicted 480 * 1.8 * 1.25 = 1080 (marginal: its
	 * low bound 470 * 1.7 * 1.2 = 958.8 is below 1000), burst on all 4
	 * cores 480 * 1.8^2 * 1.25 = 1944, never the answer
	 */
	assert_true(rows[I_HALF_BIG].shared_core);
	check_close(rows[I_HALF_BIG].predicted, 1080, REL, "half-big: predicted");
	check_close(rows[I_HALF_BIG].burst, 1944, REL, "half-big: burst");
	check_close(rows[I_HALF_BIG].predicted_lo, 958.8, REL, "half-big: low");
	assert_string_equal(rows[I_HALF_BIG].verdict, "marginal");
	free(rows);
}

static void translated_and_unmeasured(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_translation tr[] = {{"aws-m7i", 1.2}, {"gce-n2", 0.5}};
	struct size_row *rows;
	(void)state;

	/* no factor for aws-m7i: unmeasured, no prediction */
	rows = compute(&in);
	assert_false(rows[I_OTHER].predicted_ok);
	assert_string_equal(rows[I_OTHER].verdict, "unmeasured CPU");
	assert_true(isnan(rows[I_OTHER].predicted));
	assert_true(isnan(rows[I_OTHER].predicted_lo));
	assert_true(isnan(rows[I_OTHER].predicted_hi));
	assert_true(isnan(rows[I_OTHER].shortfall));
	assert_true(isnan(rows[I_OTHER].cost_per_1k));
	assert_false(rows[I_OTHER].translated);
	assert_false(rows[I_OTHER].cheapest);
	assert_true(rows[I_ONE].predicted_ok);
	assert_false(rows[I_ONE].translated);
	free(rows);

	/* aws-m7i = base / 1.2: 480 / 1.2 = 400; P = 1: 400 * 1 * 1.25 = 500 */
	in.translations = tr;
	in.ntranslations = ARRAY_LEN(tr);
	rows = compute(&in);
	assert_true(rows[I_OTHER].predicted_ok);
	assert_true(rows[I_OTHER].translated);
	check_close(rows[I_OTHER].translation_factor, 1.2, REL, "translation factor");
	check_close(rows[I_OTHER].predicted, 500, REL, "other: predicted");
	/* lo 470 / 1.2 * 1.2 = 470; hi 490 / 1.2 * 1.3 = 530.8333333333334 */
	check_close(rows[I_OTHER].predicted_lo, 470, REL, "other: low");
	check_close(rows[I_OTHER].predicted_hi, 490 / 1.2 * 1.3, REL, "other: high");
	assert_string_equal(rows[I_OTHER].verdict, "short");
	check_close(rows[I_OTHER].shortfall, 2, REL, "other: shortfall 1000 / 500");
	/* the base family itself is never translated */
	assert_false(rows[I_ONE].translated);
	assert_true(isnan(rows[I_ONE].translation_factor));
	free(rows);
}

/*
 * A measured translation (size --translate FAMILY=from:WHERE,to:WHERE):
 * factor 1.2 with the 95% interval 1.1-1.4 widens the bounds. By hand, on
 * I_OTHER (P = 1): predicted 480 / 1.2 x 1.25 = 500; low 470 / 1.4 x 1.2 =
 * 402.85714285714283 (base low over the factor's high end, SMT low); high
 * 490 / 1.1 x 1.3 = 579.0909090909091. The same factor given as a number
 * keeps 470 / 1.2 x 1.2 = 470 and 490 / 1.2 x 1.3 = 530.8333333333334.
 */
static void translated_with_interval(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_translation tr;
	struct size_row *rows;
	(void)state;
	memset(&tr, 0, sizeof(tr));
	snprintf(tr.family, sizeof(tr.family), "aws-m7i");
	tr.factor = 1.2;
	tr.measured = true;
	tr.lo = 1.1;
	tr.hi = 1.4;
	in.translations = &tr;
	in.ntranslations = 1;
	rows = compute(&in);
	assert_true(rows[I_OTHER].translated);
	assert_ptr_equal(rows[I_OTHER].translation, &tr);
	check_close(rows[I_OTHER].predicted, 500, REL, "measured: predicted");
	check_close(rows[I_OTHER].predicted_lo, 470 / 1.4 * 1.2, REL, "measured: low");
	check_close(rows[I_OTHER].predicted_hi, 490 / 1.1 * 1.3, REL, "measured: high");
	assert_string_equal(rows[I_OTHER].verdict, "short");
	free(rows);
	tr.measured = false;
	rows = compute(&in);
	check_close(rows[I_OTHER].predicted_lo, 470, REL, "given: low");
	check_close(rows[I_OTHER].predicted_hi, 490 / 1.2 * 1.3, REL, "given: high");
	free(rows);
}

static void extrapolation(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	rows = compute(&in);
	/* beyond max_measured_cores 4: only eight (P = 8) */
	for (size_t i = 0; i < NINST; i++)
		assert_int_equal(rows[i].extrapolated, i == I_EIGHT);
	free(rows);

	in.max_measured_cores = 2; /* three (3) and four-1t (4) are beyond too */
	rows = compute(&in);
	assert_true(rows[I_THREE].extrapolated);
	assert_true(rows[I_FOUR_1T].extrapolated);
	assert_true(rows[I_EIGHT].extrapolated);
	assert_false(rows[I_TWO].extrapolated);
	assert_false(rows[I_HALF_BIG].extrapolated); /* sustained 2, not physical 4 */
	free(rows);

	in.max_measured_cores = 0; /* unknown: nothing flagged */
	rows = compute(&in);
	for (size_t i = 0; i < NINST; i++)
		assert_false(rows[i].extrapolated);
	free(rows);
}

static void memory(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	rows = compute(&in);
	/* (50000 + 600 * 500) / 1048576 = 0.3337860107421875 GiB */
	for (size_t i = 0; i < NINST; i++)
		check_close(rows[i].memory_needed_gib, 0.3337860107421875, REL, "memory needed");
	/* tiny-mem: P = 2 predicts 1080 (it would meet) but 0.334 > 0.25 GiB */
	check_close(rows[I_TINY_MEM].predicted, 1080, REL, "tiny-mem: predicted");
	assert_string_equal(rows[I_TINY_MEM].verdict, "memory-bound");
	assert_false(rows[I_TINY_MEM].cheapest); /* cheapest price, but does not meet */
	free(rows);

	/* 2000 sessions: (50000 + 1200000) / 1048576 = 1.1920928955078125 GiB: shared (2 GiB) fits
	 */
	in.sessions = 2000;
	rows = compute(&in);
	check_close(rows[I_SHARED].memory_needed_gib, 1.1920928955078125, REL, "2000 sessions");
	assert_string_equal(rows[I_SHARED].verdict, "short");
	/* 4000 sessions: (50000 + 2400000) / 1048576 = 2.3365020751953125 > 2 GiB */
	in.sessions = 4000;
	free(rows);
	rows = compute(&in);
	check_close(rows[I_SHARED].memory_needed_gib, 2.3365020751953125, REL, "4000 sessions");
	assert_string_equal(rows[I_SHARED].verdict, "memory-bound");
	free(rows);

	/* no sessions, or no memory inputs: no memory figure and no memory verdict */
	in = std_inputs();
	in.has_sessions = false;
	rows = compute(&in);
	for (size_t i = 0; i < NINST; i++)
		assert_true(isnan(rows[i].memory_needed_gib));
	/* no memory verdict: 1080 with low bound 958.8 is marginal */
	assert_string_equal(rows[I_TINY_MEM].verdict, "marginal");
	free(rows);
	in = std_inputs();
	in.mem_fixed_kb.known = false;
	rows = compute(&in);
	assert_true(isnan(rows[I_TINY_MEM].memory_needed_gib));
	assert_string_equal(rows[I_TINY_MEM].verdict, "marginal");
	free(rows);
}

static void cheapest(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	rows = compute(&in);
	/*
	 * meets: four-1t 0.12 (low 1358.3), three 0.2, eight 0.53609; two
	 * 0.13402 and half-big 0.15 are marginal (low 958.8); tiny-mem
	 * (0.01) is memory-bound, shared (0.01675) and one short: the
	 * cheapest that meets is four-1t
	 */
	assert_true(rows[I_FOUR_1T].cheapest);
	assert_int_equal(count_cheapest(rows, NINST), 1);
	/* 0.12 * 1000 / 1555.2 = 0.07716049382716049 */
	check_close(rows[I_FOUR_1T].cost_per_1k, 0.07716049382716049, REL, "four-1t: cost");
	free(rows);

	/* nothing meets 1e6: no mark */
	in.target = 1e6;
	rows = compute(&in);
	for (size_t i = 0; i < NINST; i++)
		assert_string_not_equal(rows[i].verdict, "meets");
	assert_int_equal(count_cheapest(rows, NINST), 0);
	/* 1e6 / 3499.2 = 285.77960676726109 */
	check_close(rows[I_EIGHT].shortfall, 1e6 / 3499.2, REL, "eight: shortfall at 1e6");
	free(rows);
}

static void headroom(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	in.headroom_pct = 10;
	rows = compute(&in);
	/* two: 1080 * 0.9 = 972 < 1000: short at 10% headroom (meets at 0) */
	check_close(rows[I_TWO].predicted, 972, REL, "two at 10% headroom");
	/* lo 958.8 * 0.9 = 862.92; hi 1210.3 * 0.9 = 1089.27 */
	check_close(rows[I_TWO].predicted_lo, 862.92, REL, "two at 10%: low");
	check_close(rows[I_TWO].predicted_hi, 1089.27, REL, "two at 10%: high");
	assert_string_equal(rows[I_TWO].verdict, "short");
	check_close(rows[I_TWO].shortfall, 1000.0 / 972, REL, "two at 10%: shortfall");
	/* half-big likewise: 972 */
	assert_string_equal(rows[I_HALF_BIG].verdict, "short");
	/* four-1t: 1555.2 * 0.9 = 1399.68, still meets and still the cheapest */
	check_close(rows[I_FOUR_1T].predicted, 1399.68, REL, "four-1t at 10%");
	assert_true(rows[I_FOUR_1T].cheapest);
	/* shared: 150 * 0.9 = 135; the burst figure keeps no headroom: 600 */
	check_close(rows[I_SHARED].predicted, 135, REL, "shared at 10%");
	check_close(rows[I_SHARED].burst, 600, REL, "shared burst at 10%");
	free(rows);

	/* 40%: four-1t 1555.2 * 0.6 = 933.12 short; eight 3499.2 * 0.6 = 2099.52 is the only one */
	in.headroom_pct = 40;
	rows = compute(&in);
	assert_string_equal(rows[I_FOUR_1T].verdict, "short");
	check_close(rows[I_EIGHT].predicted, 2099.52, REL, "eight at 40%");
	assert_true(rows[I_EIGHT].cheapest);
	assert_int_equal(count_cheapest(rows, NINST), 1);
	free(rows);
}

static void refusals(void **state)
{
	struct catalog cat = hand_catalog();
	struct size_inputs in;
	struct size_row *rows = (struct size_row *)&in; /* must be reset to NULL */
	(void)state;

	in = std_inputs();
	in.base.known = false;
	assert_int_equal(size_compute(&cat, &in, &rows), ERR_USAGE);
	check_contains(err_msg(), "no base rate", "without a base");
	assert_null(rows);

	in = std_inputs();
	in.base.value = 0;
	assert_int_equal(size_compute(&cat, &in, &rows), ERR_USAGE);
	check_contains(err_msg(), "no base rate", "base rate 0");

	in = std_inputs();
	in.per_doubling.known = false;
	assert_int_equal(size_compute(&cat, &in, &rows), ERR_USAGE);
	check_contains(err_msg(), "no scaling across cores", "without scaling");
	check_contains(err_msg(), "--per-doubling", "without scaling: names the option");
	assert_null(rows);

	in = std_inputs();
	in.target = 0;
	assert_int_equal(size_compute(&cat, &in, &rows), ERR_USAGE);
	check_contains(err_msg(), "--target", "target 0");
	assert_null(rows);
}

static void empty_catalog(void **state)
{
	struct catalog cat = {NULL, 0, (char *)"empty"};
	struct size_inputs in = std_inputs();
	struct size_row *rows = NULL;
	(void)state;
	assert_int_equal(size_compute(&cat, &in, &rows), 0);
	free(rows);
}

/* ----------------------------------------------- the shipped GCE catalog */

static const struct size_row *row_named(const struct size_row *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].inst->instance, name))
			return &rows[i];
	fail_msg("no row '%s'", name);
	return NULL;
}

static void gce_catalog_e2(void **state)
{
	struct catalog cat;
	struct size_inputs in = std_inputs();
	struct size_row *rows = NULL;
	const struct size_row *r;
	(void)state;
	assert_int_equal(catalog_read(FIXTURES_DIR "/catalogs/gce.tsv", &cat), 0);
	assert_int_equal(size_compute(&cat, &in, &rows), 0);

	/* e2-small: 2 vCPU, 2/core, 0.25 each: sustained 0.25: 480 * 0.25 * 1.25 = 150 */
	r = row_named(rows, cat.n, "e2-small");
	check_close(r->inst->sustained_cores, 0.25, REL, "e2-small: sustained cores");
	check_close(r->predicted, 150, REL, "e2-small: predicted");
	assert_true(r->shared_core);
	check_close(r->burst, 600, REL, "e2-small: burst");
	/* 0.01675 * 1000 / 150 = 0.11166666666666667 */
	check_close(r->cost_per_1k, 0.11166666666666667, REL, "e2-small: cost per 1k");
	/* e2-micro: 2 * 0.125 / 2 = 0.125: 480 * 0.125 * 1.25 = 75; 1 GiB >= 0.334 */
	r = row_named(rows, cat.n, "e2-micro");
	check_close(r->predicted, 75, REL, "e2-micro: predicted");
	assert_string_equal(r->verdict, "short");
	/* e2-medium: 2 * 0.5 / 2 = 0.5: 480 * 0.5 * 1.25 = 300 */
	r = row_named(rows, cat.n, "e2-medium");
	check_close(r->predicted, 300, REL, "e2-medium: predicted");
	assert_string_equal(r->verdict, "short");
	/* e2-standard-2: P = 1: 600, short, dedicated */
	r = row_named(rows, cat.n, "e2-standard-2");
	check_close(r->predicted, 600, REL, "e2-standard-2: predicted");
	assert_false(r->shared_core);
	assert_string_equal(r->verdict, "short");
	/* e2-standard-4: P = 2: 1080, low 470 * 1.7 * 1.2 = 958.8: marginal */
	r = row_named(rows, cat.n, "e2-standard-4");
	check_close(r->predicted, 1080, REL, "e2-standard-4: predicted");
	assert_string_equal(r->verdict, "marginal");
	/* e2-standard-8: P = 4: 480 * 3.24 * 1.25 = 1944, low 470 * 2.89 * 1.2 = 1629.96 */
	r = row_named(rows, cat.n, "e2-standard-8");
	check_close(r->predicted_lo, 1629.96, REL, "e2-standard-8: low");
	assert_string_equal(r->verdict, "meets");
	/* the only e2-family rows are predicted; every other family is unmeasured */
	for (size_t i = 0; i < cat.n; i++) {
		bool e2 = !strcmp(rows[i].inst->cpu_family, "gce-e2");
		assert_int_equal(rows[i].predicted_ok, e2);
		if (!e2)
			assert_string_equal(rows[i].verdict, "unmeasured CPU");
	}
	/*
	 * cheapest meeting: e2-standard-8 (0.26805) is the cheapest e2 that
	 * meets (e2-standard-4 is marginal, e2-standard-16 and up cost more)
	 * and no other family has a prediction
	 */
	assert_true(row_named(rows, cat.n, "e2-standard-8")->cheapest);
	assert_int_equal(count_cheapest(rows, cat.n), 1);
	/* e2-standard-8: P = 4, e2-standard-16: P = 8 (extrapolated) */
	assert_false(row_named(rows, cat.n, "e2-standard-8")->extrapolated);
	assert_true(row_named(rows, cat.n, "e2-standard-16")->extrapolated);
	check_close(row_named(rows, cat.n, "e2-standard-16")->predicted, 3499.2, REL,
		    "e2-standard-16: predicted");
	free(rows);
	catalog_release(&cat);
}

/* ------------------------------------------------------------ verdict words */

static void verdict_words(void **state)
{
	(void)state;
	/* the lower bound at the target meets; the central value alone is marginal */
	assert_string_equal(size_verdict(1000, 1200, 1000), "meets");
	assert_string_equal(size_verdict(999.999, 1200, 1000), "marginal");
	assert_string_equal(size_verdict(900, 1000, 1000), "marginal");
	assert_string_equal(size_verdict(900, 999.999, 1000), "short");
	assert_string_equal(size_verdict(NAN, NAN, 1000), "short");
}

/* Memory: app + co-located + OS reserve, each part kept. */
static void memory_parts(void **state)
{
	struct size_inputs in = std_inputs();
	struct size_row *rows;
	(void)state;
	in.colocated_kb = (struct size_value){true, 500000, 490000, 510000, "given"};
	in.os_reserve_mib = 512;
	rows = compute(&in);
	/* app (50000 + 600 * 500) / 1048576 = 0.3337860107421875 */
	check_close(rows[I_ONE].memory_app_gib, 0.3337860107421875, REL, "app part");
	/* co-located 500000 / 1048576 = 0.476837158203125 */
	check_close(rows[I_ONE].memory_colocated_gib, 0.476837158203125, REL, "co-located part");
	/* OS 512 / 1024 = 0.5 */
	check_close(rows[I_ONE].memory_os_gib, 0.5, REL, "OS part");
	/* 850000 / 1048576 + 0.5 = 0.8106231689453125 + 0.5 */
	check_close(rows[I_ONE].memory_needed_gib, 1.3106231689453125, REL, "memory needed");
	/* shared has 2 GiB: fits; tiny-mem 0.25 GiB: memory-bound */
	assert_string_equal(rows[I_SHARED].verdict, "short");
	assert_string_equal(rows[I_TINY_MEM].verdict, "memory-bound");
	free(rows);

	/* an OS reserve alone tips a 2 GiB instance at 2000 sessions: 1.1920928955078125 + 1 */
	in = std_inputs();
	in.sessions = 2000;
	in.os_reserve_mib = 1024;
	rows = compute(&in);
	check_close(rows[I_SHARED].memory_needed_gib, 2.1920928955078125, REL, "2000 + 1 GiB");
	assert_string_equal(rows[I_SHARED].verdict, "memory-bound");
	check_close(rows[I_SHARED].memory_colocated_gib, 0, REL, "no co-located input: 0");
	free(rows);
}

/* ------------------------------------------------------- measured cells */

/* ------------------------------------------------------------ size_run */

static struct size_request given_request(void)
{
	struct size_request req;
	memset(&req, 0, sizeof(req));
	req.target = 1000;
	req.has_base_rate = true;
	req.base_rate = 480;
	req.base_cpu = "gce-e2";
	req.has_per_doubling = true;
	req.per_doubling = 1.8;
	req.has_smt = true;
	req.smt_factor = 1.25;
	req.shipped_dir = FIXTURES_DIR "/catalogs";
	req.reader = catalog_read;
	return req;
}

static const struct size_row *result_row(const struct size_result *res, const char *name)
{
	for (size_t i = 0; i < res->cat.n; i++)
		if (!strcmp(res->cat.items[i].instance, name))
			return &res->rows[i];
	fail_msg("no row '%s'", name);
	return NULL;
}

/* No file, nothing stored: the shipped catalogs (aws, gce by name) in TEMP tables. */
static void run_shipped_then_stored_then_given(void **state)
{
	struct size_request req = given_request();
	struct size_result res;
	struct catalog gce;
	sqlite3 *db = NULL;
	char *files[] = {(char *)FIXTURES_DIR "/catalogs/gce.tsv", NULL};
	char *series[] = {(char *)"e2", NULL};
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	if (size_run(db, &req, &res))
		fail_msg("%s", err_msg());
	assert_int_equal(res.catalogs.origin, CATALOG_SHIPPED);
	assert_int_equal(res.catalogs.n, 2);
	assert_string_equal(res.catalogs.infos[0].name, "aws");
	assert_string_equal(res.catalogs.infos[1].name, "gce");
	assert_true(res.catalogs.infos[0].temp);
	assert_int_equal(res.cat.n, 54 + 62);
	assert_string_equal(res.metric, "tput");
	/* e2-standard-4: P = 2: 480 * 1.8 * 1.25 = 1080, the cheapest that meets */
	check_close(result_row(&res, "e2-standard-4")->predicted, 1080, REL, "e2-standard-4");
	assert_true(res.cheapest < res.cat.n);
	assert_string_equal(res.cat.items[res.cheapest].instance, "e2-standard-4");
	assert_int_equal(res.ncells, 0); /* no runs at all */
	for (size_t i = 0; i < res.cat.n; i++)
		assert_string_equal(res.rows[i].basis, "predicted");
	/* given numbers have no WHERE behind them */
	assert_null(res.base_prov.where);
	assert_int_equal(res.base_prov.runs, 0);
	size_result_release(&res);

	/* gce stored: the database's catalogs win over the shipped ones */
	assert_int_equal(db_exec(db, "DROP TABLE temp.instances; DROP TABLE temp.catalogs"), 0);
	assert_int_equal(catalog_read(FIXTURES_DIR "/catalogs/gce.tsv", &gce), 0);
	assert_int_equal(db_begin(db), 0);
	assert_int_equal(catalog_store(db, &gce, NULL), 0);
	assert_int_equal(db_commit(db), 0);
	catalog_release(&gce);
	assert_int_equal(size_run(db, &req, &res), 0);
	assert_int_equal(res.catalogs.origin, CATALOG_STORED);
	assert_int_equal(res.catalogs.n, 1);
	assert_false(res.catalogs.infos[0].temp);
	assert_int_equal(res.cat.n, 62);
	size_result_release(&res);

	/* a given file wins over both, and --series narrows it */
	req.catalog_files = files;
	req.ncatalog_files = 1;
	req.series = series;
	req.nseries = 1;
	assert_int_equal(size_run(db, &req, &res), 0);
	assert_int_equal(res.catalogs.origin, CATALOG_GIVEN);
	assert_true(res.catalogs.infos[0].temp);
	assert_int_equal(res.cat.n, 8);
	for (size_t i = 0; i < res.cat.n; i++)
		assert_string_equal(res.cat.items[i].series, "e2");
	assert_string_equal(res.cat.items[res.cheapest].instance, "e2-standard-4");
	size_result_release(&res);
	db_close(db);
}

/* Families, series and translate keys against the catalogs; instance names stand for families. */
static void run_validates_names(void **state)
{
	struct size_request req = given_request();
	struct size_result res;
	struct size_translation tr[2];
	char *zz[] = {(char *)"zz", NULL};
	sqlite3 *db = NULL;
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);

	req.base_cpu = "xeon";
	assert_int_equal(size_run(db, &req, &res), ERR_USAGE);
	check_contains(err_msg(), "unknown CPU family 'xeon' for --base-cpu", "--base-cpu xeon");
	check_contains(err_msg(), "gce-e2", "lists the families");
	check_contains(err_msg(), "aws-m7i", "lists the families");
	assert_null(res.rows);

	/* an instance name stands for its family */
	req.base_cpu = "e2-standard-4";
	assert_int_equal(size_run(db, &req, &res), 0);
	assert_string_equal(res.in.base_family, "gce-e2");
	check_close(result_row(&res, "e2-standard-4")->predicted, 1080, REL, "base by instance");
	size_result_release(&res);

	req.base_cpu = "gce-e2";
	req.series = zz;
	req.nseries = 1;
	assert_int_equal(size_run(db, &req, &res), ERR_USAGE);
	check_contains(err_msg(), "unknown series 'zz' for --series", "--series zz");
	check_contains(err_msg(), "e2, m6i", "lists the series in order");
	req.series = NULL;
	req.nseries = 0;

	memset(tr, 0, sizeof(tr));
	snprintf(tr[0].family, sizeof(tr[0].family), "bogus");
	tr[0].factor = 2;
	req.translations = tr;
	req.ntranslations = 1;
	assert_int_equal(size_run(db, &req, &res), ERR_USAGE);
	check_contains(err_msg(), "unknown CPU family or platform 'bogus' for --translate",
		       "--translate bogus");
	check_contains(err_msg(), "gce-n2", "lists the families");
	/* the shipped catalogs' platforms (fixtures/catalogs/gce.tsv, aws.tsv), sorted */
	check_contains(err_msg(),
		       "platforms the catalogs and runs name: amd-epyc-7b12,amd-epyc-7b13,",
		       "lists the platforms");

	/* n2-standard-4 stands for gce-n2: 480 / 2 * 1.8 * 1.25 = 540 on n2-standard-4 (P = 2) */
	snprintf(tr[0].family, sizeof(tr[0].family), "n2-standard-4");
	assert_int_equal(size_run(db, &req, &res), 0);
	assert_string_equal(res.in.translations[0].family, "gce-n2");
	check_close(result_row(&res, "n2-standard-4")->predicted, 540, REL, "translated by name");
	assert_string_equal(result_row(&res, "m7i.large")->verdict, "unmeasured CPU");
	size_result_release(&res);

	/* the same family twice, or the base's own */
	tr[1] = tr[0];
	snprintf(tr[1].family, sizeof(tr[1].family), "gce-n2");
	req.ntranslations = 2;
	assert_int_equal(size_run(db, &req, &res), ERR_USAGE);
	check_contains(err_msg(), "twice", "a family twice");
	snprintf(tr[0].family, sizeof(tr[0].family), "e2-micro");
	req.ntranslations = 1;
	assert_int_equal(size_run(db, &req, &res), ERR_USAGE);
	check_contains(err_msg(), "base rate's own family", "the base family translated");

	/* a base family no catalog has, with translations: accepted and said */
	req.base_cpu = "apple-m1";
	snprintf(tr[0].family, sizeof(tr[0].family), "gce-e2");
	tr[0].factor = 2.96;
	assert_int_equal(size_run(db, &req, &res), 0);
	assert_string_equal(res.in.base_family, "apple-m1");
	check_contains(res.base_family_note, "apple-m1", "the note names the family");
	/* e2-standard-2: P = 1: 480 / 2.96 * 1.25 = 202.7027027027027 */
	check_close(result_row(&res, "e2-standard-2")->predicted, 480 / 2.96 * 1.25, REL,
		    "M1 base translated to e2");
	assert_true(result_row(&res, "e2-standard-2")->translated);
	size_result_release(&res);
	db_close(db);
}

/* --list-families: the catalogs and their families only. */
static void run_lists_families(void **state)
{
	struct size_request req;
	struct size_result res;
	sqlite3 *db = NULL;
	(void)state;
	memset(&req, 0, sizeof(req));
	req.list_families = true;
	req.shipped_dir = FIXTURES_DIR "/catalogs";
	req.reader = catalog_read;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	assert_int_equal(size_run(db, &req, &res), 0);
	assert_true(res.listing);
	assert_null(res.rows);
	assert_int_equal(res.cat.n, 54 + 62);
	/* aws.tsv: c7g c7i m6i m7a m7g m7i; gce.tsv: c3 c4 c4-granite e2 n2 n2d t2a t2d */
	assert_int_equal(res.nfamilies, 14);
	assert_string_equal(res.families[0].cpu_family, "aws-c7g");
	size_result_release(&res);
	db_close(db);
}

/* A WHERE input on a database without runs is an error naming the WHERE. */
static void run_where_without_runs(void **state)
{
	struct size_request req = given_request();
	struct size_result res;
	sqlite3 *db = NULL;
	(void)state;
	req.has_per_doubling = false;
	req.scaling_from = "gomaxprocs=1,2,4";
	assert_int_equal(db_open(":memory:", false, &db), 0);
	assert_int_not_equal(size_run(db, &req, &res), 0);
	check_contains(err_msg(), "gomaxprocs", "scaling from an empty database");
	assert_null(res.rows);
	db_close(db);
}

/* every test starts with no messages */
#define TEST(f) cmocka_unit_test_setup(f, clear_messages)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(dedicated_power_of_two),
		TEST(dedicated_between_powers),
		TEST(shared_core_share),
		TEST(translated_and_unmeasured),
		TEST(translated_with_interval),
		TEST(extrapolation),
		TEST(memory),
		TEST(cheapest),
		TEST(headroom),
		TEST(refusals),
		TEST(empty_catalog),
		TEST(gce_catalog_e2),
		TEST(run_shipped_then_stored_then_given),
		TEST(run_where_without_runs),
		TEST(verdict_words),
		TEST(memory_parts),
		TEST(run_validates_names),
		TEST(run_lists_families),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
