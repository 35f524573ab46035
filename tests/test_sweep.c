/*
 * Unit tests for analysis/sweep: per-level statistics, what applies to a
 * metric and a level, the stop rule, zeros, time metrics.
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only), or
 * tests/stat_check.py (the t distribution in the standard library). Where
 * python printed a value with repr(), it is copied verbatim and compared
 * to 1e-12 relative.
 */
#include "analysis_rows.h"

#include "analysis/sweep.h"
#include "reports/builders.h"

#include <gsl/gsl_errno.h>

static const struct sweep_level *sweep_level_of(const struct sweep *sw, double level)
{
	return FIND_WHERE(sw->levels, sw->nlevels, level, level);
}

/* The whole-sweep fit: its factor (1e-10), the factor's SE (1e-9) and r2 (1e-10). */
static void check_fit(const struct sweep *sw, double factor, double factor_se, double r2)
{
	assert_true(sw->has_fit);
	check_close(sw->fit.factor, factor, 1e-10, "fit factor");
	check_close(sw->fit.factor_se, factor_se, 1e-9, "fit factor SE");
	check_close(sw->fit.r2, r2, 1e-10, "fit r2");
}

/* ---------------------------------------------------------------------- */
/* sweep                                                                   */
/* ---------------------------------------------------------------------- */

static void test_sweep_gomaxprocs(void **state)
{
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	const struct sweep_level *l1, *l2, *l4, *l8;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	sweep_options_init(&o);
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_int_equal(sw.nlevels, 4);
	/* ascending levels */
	check_close(sw.levels[0].level, 1, 0, "level 0");
	check_close(sw.levels[1].level, 2, 0, "level 1");
	check_close(sw.levels[2].level, 4, 0, "level 2");
	check_close(sw.levels[3].level, 8, 0, "level 3");
	check_close(sw.base, 1, 0, "default base: the smallest level");
	l1 = sweep_level_of(&sw, 1);
	l2 = sweep_level_of(&sw, 2);
	l4 = sweep_level_of(&sw, 4);
	l8 = sweep_level_of(&sw, 8);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(sw.levels[i].s.n, 3);

	/* medians: the middle of three (statistics.median) */
	/* g1 sorted 475.228.., 484.134.., 485.260..: 484.13466860190584 */
	check_close(l1->s.median, 484.13466860190584, 0, "median g1");
	/* g2 sorted 853.21.., 865.46.., 881.29..: 865.4682448787189 */
	check_close(l2->s.median, 865.4682448787189, 0, "median g2");
	/* g4 sorted 1534.04.., 1538.80.., 1553.49..: 1538.8011664466776 */
	check_close(l4->s.median, 1538.8011664466776, 0, "median g4");
	/* g8 sorted 1792.77.., 1796.19.., 1808.62..: 1796.1987044774646 */
	check_close(l8->s.median, 1796.1987044774646, 0, "median g8");
	check_close(l1->s.min, 475.2284019761499, 0, "min g1");
	check_close(l1->s.max, 485.26070274273076, 0, "max g1");

	/* python3: (max(v) - min(v)) / statistics.median(v) * 100 */
	check_close(l1->s.range_pct, 2.0722128401901814, REL, "range_pct g1");
	check_close(l2->s.range_pct, 3.244337523001892, REL, "range_pct g2");
	check_close(l4->s.range_pct, 1.2637685458983394, REL, "range_pct g4");
	check_close(l8->s.range_pct, 0.8825015591430976, REL, "range_pct g8");
	/* the seed: ranges <= 3.3% of the median at every level */
	for (size_t i = 0; i < 4; i++)
		assert_true(sw.levels[i].s.range_pct <= 3.3);

	/* speedup = median / median(g1); python3 repr of the quotient */
	check_close(l1->speedup, 1.0, 0, "speedup g1");
	/* 865.4682448787189 / 484.13466860190584 = 1.7876601305542446 (seed: 1.79) */
	check_close(l2->speedup, 1.7876601305542446, REL, "speedup g2");
	/* 1538.8011664466776 / 484.13466860190584 = 3.178456876245735 (seed: 3.18) */
	check_close(l4->speedup, 3.178456876245735, REL, "speedup g4");
	/* 1796.1987044774646 / 484.13466860190584 = 3.710122040349981 */
	check_close(l8->speedup, 3.710122040349981, REL, "speedup g8");
	assert_true(round(l2->speedup * 100) == 179);
	assert_true(round(l4->speedup * 100) == 318);

	/* efficiency = speedup / (level / 1) */
	check_close(l1->efficiency, 1.0, 0, "efficiency g1");
	/* 1.7876601305542446 / 2 */
	check_close(l2->efficiency, 0.8938300652771223, REL, "efficiency g2");
	/* 3.178456876245735 / 4 */
	check_close(l4->efficiency, 0.7946142190614337, REL, "efficiency g4");
	/* 3.710122040349981 / 8 */
	check_close(l8->efficiency, 0.4637652550437476, REL, "efficiency g8");

	/* per_doubling: (m / m_prev) ^ (1 / log2(level / prev)); NaN for the first */
	assert_true(isnan(l1->per_doubling));
	/* (865.4682448787189 / 484.13466860190584) ** (1 / 1) = 1.7876601305542446 */
	check_close(l2->per_doubling, 1.7876601305542446, REL, "per_doubling 1->2");
	/* (1538.8011664466776 / 865.4682448787189) ** (1 / 1) = 1.7779984136359794 */
	check_close(l4->per_doubling, 1.7779984136359794, REL, "per_doubling 2->4");
	/* (1796.1987044774646 / 1538.8011664466776) ** (1 / 1) = 1.1672714731722984 */
	check_close(l8->per_doubling, 1.1672714731722984, REL, "per_doubling 4->8");

	/* per_unit = median / level */
	check_close(l1->per_unit, 484.13466860190584, REL, "per_unit g1");
	/* 865.4682448787189 / 2 */
	check_close(l2->per_unit, 432.73412243935945, REL, "per_unit g2");
	/* 1538.8011664466776 / 4 */
	check_close(l4->per_unit, 384.7002916116694, REL, "per_unit g4");
	/* 1796.1987044774646 / 8 */
	check_close(l8->per_unit, 224.52483805968308, REL, "per_unit g8");

	/* app_cores: median of results.tsv app_cores; cpu_us_per_op = cores * 1e6 / median */
	/* g1: median(0.911, 0.911, 0.908) = 0.911; 0.911e6 / 484.13466860190584 */
	check_close(l1->app_cores, 0.911, 0, "app_cores g1");
	assert_int_equal(l1->app_cores_n, 3);
	check_close(l1->cpu_us_per_op, 1881.7078368520988, REL, "cpu_us_per_op g1");
	/* g8: median(6.831, 6.847, 6.796) = 6.831; 6.831e6 / 1796.1987044774646 */
	check_close(l8->app_cores, 6.831, 0, "app_cores g8");
	check_close(l8->cpu_us_per_op, 3803.031358931538, REL, "cpu_us_per_op g8");

	/* scaling stops at 8: 1.1673 < 2 * 0.6 = 1.2; not at 2 (1.79) or 4 (1.78) */
	assert_false(l1->scaling_stops);
	assert_false(l2->scaling_stops);
	assert_false(l4->scaling_stops);
	assert_true(l8->scaling_stops);
	assert_int_equal(sw.stop_index, 3);
	check_close(sw.stop_efficiency, 0.6, 0, "stop_efficiency");

	/*
	 * Whole-sweep fit, python3:
	 *   x = [0, 1, 2, 3] (log2 of 1, 2, 4, 8); y = [math.log(m) for m in medians]
	 *   mx, my = mean(x), mean(y); sxx = sum((a-mx)**2); sxy = sum((a-mx)*(b-my))
	 *   b = sxy / sxx = 0.45086825580271517; a = my - b * mx
	 *   res = sum((y - (a + b x))**2); se = sqrt(res / (n - 2) / sxx)
	 *   factor = exp(b) = 1.5696744729671108
	 *   factor_se = exp(b) * se = 0.1153979768103203
	 *   r2 = 1 - res / sum((y - my)**2) = 0.9495097739180612
	 */
	check_fit(&sw, 1.5696744729671108, 0.1153979768103203, 0.9495097739180612);
	assert_int_equal(sw.fit.n, 4);

	sweep_release(&sw);
	selection_release(&sel);
}

/* The stop threshold is the default 0.6 and it is what decides. */
static void test_sweep_stop_threshold(void **state)
{
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	/* fails if the default changes */
	assert_true(SWEEP_STOP_EFFICIENCY == 0.6);
	sweep_options_init(&o);
	assert_true(o.stop_efficiency == 0.6);
	assert_false(o.has_base);

	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	/* stop_efficiency 0.5: threshold 1.0, and 1.1673 is above it: no stop */
	o.stop_efficiency = 0.5;
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	for (size_t i = 0; i < sw.nlevels; i++)
		assert_false(sw.levels[i].scaling_stops);
	assert_int_equal(sw.stop_index, sw.nlevels);
	sweep_release(&sw);
	/* 0.58: threshold 1.16 < 1.1673: no stop; 0.59: threshold 1.18 > 1.1673: stop at 8 */
	o.stop_efficiency = 0.58;
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_int_equal(sw.stop_index, sw.nlevels);
	sweep_release(&sw);
	o.stop_efficiency = 0.59;
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_int_equal(sw.stop_index, 3);
	sweep_release(&sw);
	/* 0.9: threshold 1.8 > 1.7877 (the 1 -> 2 step): stops at the first candidate, level 2 */
	o.stop_efficiency = 0.9;
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_int_equal(sw.stop_index, 1);
	assert_true(sw.levels[1].scaling_stops);
	/* only the first level below is flagged */
	assert_false(sw.levels[2].scaling_stops);
	assert_false(sw.levels[3].scaling_stops);
	sweep_release(&sw);
	selection_release(&sel);
}

/* Constructed: a sweep (default options) of two runs, level 1 at 100 and LEVEL at VALUE. */
static void sweep_two(struct selection *sel, struct sweep *sw, double level, double value)
{
	const struct row rows[] = {
		{"r1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"r2", level, NULL, value, NULL, 2, NAN, NULL, NULL},
	};
	struct sweep_options o;
	sweep_options_init(&o);
	build(sel, rows, ARRAY_LEN(rows));
	assert_int_equal(sweep_compute(sel, &o, sw), 0);
}

/* Constructed: per-doubling 1.19 stops at the default, 1.21 and exactly 1.2 do not. */
static void test_sweep_stop_boundary(void **state)
{
	struct selection sel;
	struct sweep sw;
	(void)state;
	sweep_two(&sel, &sw, 2, 119);
	/* 119 / 100 = 1.19 < 1.2 */
	check_close(sw.levels[1].per_doubling, 1.19, REL, "per_doubling 1.19");
	assert_true(sw.levels[1].scaling_stops);
	/* two levels: no fit, and a note saying why */
	assert_false(sw.has_fit);
	check_contains(sw.fit_note, "2 levels", "fit note");
	sweep_release(&sw);
	selection_release(&sel);

	sweep_two(&sel, &sw, 2, 121);
	assert_false(sw.levels[1].scaling_stops);
	assert_int_equal(sw.stop_index, 2);
	sweep_release(&sw);
	selection_release(&sel);

	/* "falls below": exactly 2 * 0.6 = 1.2 does not stop */
	sweep_two(&sel, &sw, 2, 120);
	assert_false(sw.levels[1].scaling_stops);
	sweep_release(&sw);
	selection_release(&sel);

	/*
	 * a two-doubling step (levels 1 and 4) is normalised: (140 / 100) ^ (1 / 2)
	 * = 1.1832159566199232 < 1.2
	 */
	sweep_two(&sel, &sw, 4, 140);
	/* python3: (140 / 100) ** 0.5 = 1.1832159566199232 */
	check_close(sw.levels[1].per_doubling, 1.1832159566199232, REL, "per_doubling over 1->4");
	assert_true(sw.levels[1].scaling_stops);
	/* efficiency = (140 / 100) / 4 = 0.35 */
	check_close(sw.levels[1].efficiency, 0.35, REL, "efficiency 1->4");
	/* no app_cores: NaN, and no cpu_us_per_op */
	assert_true(isnan(sw.levels[0].app_cores));
	assert_true(isnan(sw.levels[0].cpu_us_per_op));
	assert_int_equal(sw.levels[0].app_cores_n, 0);
	sweep_release(&sw);
	selection_release(&sel);
}

static void test_sweep_base(void **state)
{
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	sweep_options_init(&o);
	o.has_base = true;
	o.base = 2;
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	check_close(sw.base, 2, 0, "base");
	/* 484.13466860190584 / 865.4682448787189 = 0.5593904472714066 */
	check_close(sweep_level_of(&sw, 1)->speedup, 0.5593904472714066, REL, "base 2: speedup g1");
	/* 0.5593904472714066 / (1 / 2) = 1.1187808945428133 */
	check_close(sweep_level_of(&sw, 1)->efficiency, 1.1187808945428133, REL,
		    "base 2: efficiency g1");
	check_close(sweep_level_of(&sw, 2)->speedup, 1.0, 0, "base 2: speedup g2");
	/* 1538.8011664466776 / 865.4682448787189 = 1.7779984136359794; / 2 = 0.8889992068179897 */
	check_close(sweep_level_of(&sw, 4)->speedup, 1.7779984136359794, REL, "base 2: speedup g4");
	check_close(sweep_level_of(&sw, 4)->efficiency, 0.8889992068179897, REL,
		    "base 2: efficiency g4");
	/* 1796.1987044774646 / 865.4682448787189 = 2.075406827582879; / 4 = 0.5188517068957198 */
	check_close(sweep_level_of(&sw, 8)->speedup, 2.075406827582879, REL, "base 2: speedup g8");
	check_close(sweep_level_of(&sw, 8)->efficiency, 0.5188517068957198, REL,
		    "base 2: efficiency g8");
	/* per_doubling does not depend on the base */
	check_close(sweep_level_of(&sw, 8)->per_doubling, 1.1672714731722984, REL,
		    "base 2: per_doubling g8");
	sweep_release(&sw);

	/* a base that is not a level: usage error naming it */
	o.base = 3;
	assert_int_equal(sweep_compute(&sel, &o, &sw), ERR_USAGE);
	check_msg("--base 3");
	assert_null(sw.levels);
	assert_int_equal(sw.nlevels, 0);
	selection_release(&sel);
}

static void test_sweep_refuses(void **state)
{
	static const struct row text_level[] = {
		{"t1", 0, NULL, 100, NULL, 1, NAN, NULL, "1"},
		{"t-big", 0, NULL, 200, NULL, 2, NAN, NULL, "big"},
	};
	static const struct row zero_level[] = {
		{"z0", 0, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"z1", 1, NULL, 200, NULL, 2, NAN, NULL, NULL},
	};
	static const struct row negative_level[] = {
		{"n1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"n-2", -2, NULL, 200, NULL, 2, NAN, NULL, NULL},
	};
	static const struct row zero_base[] = {
		{"zb1", 1, NULL, 0, NULL, 1, NAN, NULL, NULL},
		{"zb2", 2, NULL, 200, NULL, 2, NAN, NULL, NULL},
	};
	static const struct row negative_base[] = {
		{"nb1", 1, NULL, -5, NULL, 1, NAN, NULL, NULL},
		{"nb2", 2, NULL, 200, NULL, 2, NAN, NULL, NULL},
	};
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	sweep_options_init(&o);

	build(&sel, text_level, ARRAY_LEN(text_level));
	assert_int_equal(sweep_compute(&sel, &o, &sw), ERR_DATA);
	check_msg("'t-big'");
	check_msg("'big'");
	selection_release(&sel);

	build(&sel, zero_level, ARRAY_LEN(zero_level));
	assert_int_equal(sweep_compute(&sel, &o, &sw), ERR_DATA);
	check_msg("'z0'");
	selection_release(&sel);

	build(&sel, negative_level, ARRAY_LEN(negative_level));
	assert_int_equal(sweep_compute(&sel, &o, &sw), ERR_DATA);
	check_msg("'n-2'");
	selection_release(&sel);

	/*
	 * a zero or negative median at the base: no error, but no speedup or
	 * efficiency (NaN), and a note saying why; per_unit is still there
	 */
	build(&sel, zero_base, ARRAY_LEN(zero_base));
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_true(isnan(sw.levels[1].speedup));
	assert_true(isnan(sw.levels[1].efficiency));
	assert_true(isnan(sw.levels[1].per_doubling));
	assert_true(isnan(sw.levels[0].s.range_pct)); /* median 0 */
	check_close(sw.levels[0].s.range_abs, 0, 0, "range_abs of one 0");
	check_close(sw.levels[1].per_unit, 100, REL, "per_unit 200 / 2");
	check_contains(sw.base_note, "base level 1 is not above 0", "base note");
	assert_int_equal(sw.zero_median_levels, 1);
	assert_int_equal(sw.stop_index, sw.nlevels);
	sweep_release(&sw);
	selection_release(&sel);
	build(&sel, negative_base, ARRAY_LEN(negative_base));
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_true(isnan(sw.levels[1].speedup));
	check_contains(sw.base_note, "base level", "negative base note");
	sweep_release(&sw);
	selection_release(&sel);

	/* no runs */
	build(&sel, NULL, 0);
	assert_int_equal(sweep_compute(&sel, &o, &sw), ERR_DATA);
	check_msg("no runs");
	selection_release(&sel);
}

/* ---------------------------------------------------------------------- */
/* sweep: what applies to a metric and a level; zeros                      */
/* ---------------------------------------------------------------------- */

/* The capacity rows of TARGET on pg (build_cap36) and `--metric METRIC --by sessions`. */
static void cap36_by_sessions(struct selection *sel, struct sweep_options *o, bool err,
			      const char *target, const char *metric)
{
	build_cap36(sel, err, target, "pg");
	sweep_options_init(o);
	sweep_options_fields(o, metric, "sessions", NULL, false);
}

/* `sweep --metric err` (small pg, blocks 1-3): no error, no speedup, absolute ranges. */
static void test_sweep_zero_median(void **state)
{
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	cap36_by_sessions(&sel, &o, true, "small", "err");
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_int_equal(sw.nlevels, 3);
	assert_false(sw.scaling_applies);
	assert_false(sw.per_unit_applies);
	check_contains(sw.scaling_why, "kind fraction", "why");
	check_contains(sw.per_unit_why, "kind fraction", "why per unit");
	assert_int_equal(sw.zero_median_levels, 1);
	check_close(sw.levels[0].s.median, 0, 0, "median at 100");
	assert_true(isnan(sw.levels[0].s.range_pct));
	check_close(sw.levels[0].s.range_abs, 0, 0, "range_abs at 100");
	check_close(sw.levels[1].s.range_pct, 479.39568483064636, 1e-10, "range_pct at 300");
	check_close(sw.levels[1].s.range_abs, 0.005748149698209189, REL, "range_abs at 300");
	for (size_t i = 0; i < sw.nlevels; i++) {
		assert_true(isnan(sw.levels[i].speedup));
		assert_true(isnan(sw.levels[i].efficiency));
		assert_true(isnan(sw.levels[i].per_doubling));
		assert_true(isnan(sw.levels[i].per_unit));
		assert_true(isnan(sw.levels[i].cpu_us_per_op));
		assert_false(sw.levels[i].scaling_stops);
	}
	assert_false(sw.has_fit);
	check_contains(sw.fit_note, "needs a rate or a time", "fit note");
	sweep_release(&sw);
	selection_release(&sel);
}

/* A session sweep of a rate: per_unit applies, speedup does not (sessions are load). */
static void test_sweep_session_level(void **state)
{
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	cap36_by_sessions(&sel, &o, false, "medium", "tput");
	assert_false(o.level_counts_workers);
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_false(sw.scaling_applies);
	assert_true(sw.per_unit_applies);
	check_contains(sw.scaling_why, "'sessions' is not known to count threads", "why");
	/* python3: 287.01400172055423 / 100 */
	check_close(sw.levels[0].per_unit, 2.8701400172055425, REL, "per_unit 100");
	assert_true(isnan(sw.levels[1].speedup));
	assert_true(isnan(sw.levels[2].per_doubling));
	assert_false(sw.has_fit);
	assert_int_equal(sw.stop_index, sw.nlevels);
	sweep_release(&sw);
	/* the default options (a rate over workers) keep every figure */
	sweep_options_init(&o);
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_true(sw.scaling_applies);
	/* python3: 261.4928259356003 / 287.01400172055423 */
	check_close(sw.levels[1].speedup, 261.4928259356003 / 287.01400172055423, REL, "speedup");
	sweep_release(&sw);
	selection_release(&sel);
}

/*
 * A time metric over GOMAXPROCS (p50 of results.tsv, blocks 1-3): lower is
 * better, so speedup = base median / median. python3:
 *   medians 255.017, 121.405, 52.314, 36.229
 *   speedup 2.1005477533874224, 4.874737164047865, 7.039029506748737
 *   per_doubling (m_prev / m) ** (1 / log2(l / l_prev)):
 *     2.1005477533874224, 2.320698092288871, 1.4439813409147368
 *   fit: b of ln(median) on log2(level); exp(-b) = 1.9535102767403396,
 *     SE exp(-b) * se(b) = 0.14032558447358018, r2 0.9775030643121336
 */
static void test_sweep_time_metric(void **state)
{
	static const double p50[] = {258.949, 124.152, 52.41,   35.472, 36.472,  52.314,
				     120.471, 254.072, 121.405, 36.229, 255.017, 52.121};
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	for (size_t i = 0; i < sel.n; i++)
		sel.runs[i].metric = p50[i];
	sweep_options_init(&o);
	sweep_options_fields(&o, "p50_ms", "gomaxprocs", NULL, false);
	assert_true(o.metric.lower_is_better);
	assert_int_equal(o.metric.kind, FIELD_KIND_LATENCY);
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_true(sw.scaling_applies);
	assert_false(sw.per_unit_applies);
	check_close(sw.levels[1].speedup, 2.1005477533874224, REL, "speedup 2");
	check_close(sw.levels[3].speedup, 7.039029506748737, REL, "speedup 8");
	check_close(sw.levels[3].efficiency, 0.8798786883435922, REL, "efficiency 8");
	check_close(sw.levels[2].per_doubling, 2.320698092288871, REL, "per_doubling 4");
	check_close(sw.levels[3].per_doubling, 1.4439813409147368, REL, "per_doubling 8");
	assert_int_equal(sw.stop_index, sw.nlevels); /* 1.44 >= 1.2 */
	assert_true(isnan(sw.levels[0].per_unit));
	assert_true(isnan(sw.levels[0].cpu_us_per_op));
	check_fit(&sw, 1.9535102767403396, 0.14032558447358018, 0.9775030643121336);
	sweep_release(&sw);
	selection_release(&sel);
}

/*
 * A sweep that skips physical cores (issue 25): GOMAXPROCS 1 and 8 on a
 * 4-core, 8-thread host. Level 8 is SMT, but its step over level 1 adds
 * three unmeasured physical cores and the SMT siblings together: no SMT
 * step; the ratio is the mixed step, python3: 1796.1987044774646 /
 * 484.13466860190584 = 3.710122040349981 (results.tsv medians). With level
 * 4 measured, the step over 4 is the SMT step, 1796.1987044774646 /
 * 1538.8011664466776 = 1.1672714731722984.
 */
static void test_sweep_skipped_cores(void **state)
{
	struct row rows[GMP_ROWS];
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	struct run_host host;
	size_t n = 0;
	(void)state;
	for (size_t i = 0; i < GMP_ROWS; i++)
		if (gmp_rows[i].level == 1 || gmp_rows[i].level == 8)
			rows[n++] = gmp_rows[i];
	host_known(&host, "e2-standard-8", 4, 8, 2);
	build(&sel, rows, n);
	sweep_options_init(&o);
	sweep_options_fields(&o, "tput", "gomaxprocs", NULL, false);
	o.host = &host;
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_int_equal(sw.nlevels, 2);
	assert_int_equal(sw.levels[1].kind, LEVEL_SMT);
	assert_true(sw.levels[1].mixed);
	assert_true(isnan(sw.levels[1].smt_step));
	check_close(sw.levels[1].mixed_step, 3.710122040349981, 1e-12, "mixed step");
	sweep_release(&sw);
	selection_release(&sel);
	/* every level: the step over level 4 is an SMT step */
	build(&sel, gmp_rows, GMP_ROWS);
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_false(sw.levels[3].mixed);
	assert_true(isnan(sw.levels[3].mixed_step));
	check_close(sw.levels[3].smt_step, 1.1672714731722984, 1e-12, "smt step");
	/*
	 * each step by the one decision rule: 1 -> 2 is the pair compare checks
	 * (SciPy 1.10.1 Welch on ln values: p = 2.7863725359929637e-06), real
	 */
	assert_false(sw.levels[0].has_step);
	assert_true(sw.levels[1].has_step);
	check_close(sw.levels[1].step.p, 2.7863725359929637e-06, 1e-9, "step 1->2 p");
	assert_true(verdict_real(&sw.levels[1].step));
	assert_string_equal(sw.levels[1].step.word, "higher");
	sweep_release(&sw);
	selection_release(&sel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_skipped_cores),
		cmocka_unit_test(test_sweep_gomaxprocs),
		cmocka_unit_test(test_sweep_stop_threshold),
		cmocka_unit_test(test_sweep_stop_boundary),
		cmocka_unit_test(test_sweep_base),
		cmocka_unit_test(test_sweep_refuses),
		cmocka_unit_test(test_sweep_zero_median),
		cmocka_unit_test(test_sweep_session_level),
		cmocka_unit_test(test_sweep_time_metric),
	};
	return cmocka_run_group_tests(tests, gsl_errors_off, NULL);
}
