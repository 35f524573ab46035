/*
 * Unit tests for analysis/sweep, analysis/noise, analysis/compare and
 * analysis/memory, the documents their builders make (reports/builders.h:
 * facts, sections, empty-table texts, left-out runs), and select.h's
 * "no runs to analyse" message.
 *
 * Selections are built by hand (no database): the rows are copied from
 * the real sky corpora under SHARED_CORPORA/sky --
 *   gomaxprocs-scaling-20260816/results.tsv, the 12 rows with block 1, 2, 3
 *     (tag, gomaxprocs, block, tput, app_cores), started_at from
 *     runs/<tag>/load.json;
 *   gcp-x86-capacity-20260816/results.tsv, the target=small rows of cfg mem
 *     and pg with block 1, 2, 3 and soak (tag, level = sessions, block,
 *     tput), started_at from json/<tag>.json;
 * plus a few constructed data sets where a property needs one.
 *
 * Every expected value is computed outside this code: by hand (the
 * arithmetic is in the comment) or with python3's standard library (the
 * snippet is in the comment; `statistics`, `math`, `itertools` only).
 * Where python printed a value with repr(), it is copied verbatim and
 * compared to 1e-12 relative. compare's t tests are checked against SciPy
 * 1.10.1 and numpy (/usr/bin/python3; the call is in the comment), to 1e-9.
 *
 * Tests that pin a default fail if it changes: SWEEP_STOP_EFFICIENCY (0.6),
 * NOISE_BURST_FACTOR (1.5), NOISE_DRIFT_PCT (1), COMPARE_ALPHA (0.05), the
 * rank-test floor of 4 runs at alpha 0.05 and COMPARE_MIN_RUNS (3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/compare.h"
#include "analysis/memory.h"
#include "analysis/noise.h"
#include "analysis/select.h"
#include "analysis/stats.h"
#include "analysis/sweep.h"
#include "common/err.h"
#include "reports/builders.h"
#include "doc/doc.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define REL 1e-12

/* |actual - expected| <= rel * |expected| (or <= rel when expected is 0). */
static void check_close(double actual, double expected, double rel, const char *what)
{
	double tol = expected == 0 ? rel : rel * fabs(expected);
	if (!(fabs(actual - expected) <= tol))
		fail_msg("%s: got %.17g, expected %.17g (rel %g)", what, actual, expected, rel);
}

static void check_msg(const char *message)
{
	if (strstr(err_msg(), message) == NULL)
		fail_msg("message '%s' does not contain '%s'", err_msg(), message);
}

static void check_contains(const char *text, const char *part, const char *what)
{
	if (!text || strstr(text, part) == NULL)
		fail_msg("%s: '%s' does not contain '%s'", what, text ? text : "(null)", part);
}

/* ---------------------------------------------------------------------- */
/* Hand-built selections                                                   */
/* ---------------------------------------------------------------------- */

struct row {
	const char *tag;
	double level;      /* ignored when level_text is given */
	const char *block; /* NULL: no block value */
	double metric;
	const char *started_at; /* NULL: none */
	int64_t seq;
	double app_cores; /* NAN: absent */
	const char *group;  /* NULL: "" */
	const char *level_text; /* NULL: "%g" of level, numeric */
};

static char *dup_or_null(const char *s)
{
	char *d;
	if (!s)
		return NULL;
	d = strdup(s);
	assert_non_null(d);
	return d;
}

/* Every string is strdup'd, so selection_release() frees the result. */
static void build(struct selection *sel, const struct row *rows, size_t n)
{
	memset(sel, 0, sizeof(*sel));
	sel->runs = calloc(n ? n : 1, sizeof(*sel->runs));
	assert_non_null(sel->runs);
	sel->n = n;
	for (size_t i = 0; i < n; i++) {
		struct sel_run *r = &sel->runs[i];
		char buf[64];
		r->run_id = (int64_t)i + 1;
		r->corpus = dup_or_null("hand-built");
		r->subcorpus = dup_or_null("");
		r->tag = dup_or_null(rows[i].tag);
		r->seq = rows[i].seq;
		if (rows[i].level_text) {
			char *end = NULL;
			r->level_text = dup_or_null(rows[i].level_text);
			r->level = strtod(rows[i].level_text, &end);
			r->level_numeric = end != rows[i].level_text && *end == '\0';
			if (!r->level_numeric)
				r->level = NAN;
		} else {
			snprintf(buf, sizeof(buf), "%g", rows[i].level);
			r->level_text = dup_or_null(buf);
			r->level = rows[i].level;
			r->level_numeric = true;
		}
		r->metric = rows[i].metric;
		r->block = dup_or_null(rows[i].block);
		r->group = dup_or_null(rows[i].group ? rows[i].group : "");
		r->started_at = dup_or_null(rows[i].started_at);
		r->app_cores = rows[i].app_cores;
	}
}

/*
 * gomaxprocs-scaling-20260816: the 12 counterbalanced runs, in results.tsv
 * row order (seq = data row number). Columns: tag, gomaxprocs, block, tput,
 * started_at (runs/<tag>/load.json), seq, app_cores (results.tsv).
 * Block orders by start time: b1 1,2,4,8; b2 8,4,2,1; b3 2,8,1,4.
 */
static const struct row gmp_rows[] = {
	{"g1-n100-b1", 1, "1", 475.2284019761499, "2026-08-16T08:19:36Z", 1, 0.911, NULL, NULL},
	{"g2-n100-b1", 2, "1", 853.212014958686, "2026-08-16T08:21:29Z", 2, 1.774, NULL, NULL},
	{"g4-n100-b1", 4, "1", 1534.0434497238257, "2026-08-16T08:23:22Z", 3, 3.508, NULL, NULL},
	{"g8-n100-b1", 8, "1", 1796.1987044774646, "2026-08-16T08:25:15Z", 4, 6.831, NULL, NULL},
	{"g8-n100-b2", 8, "2", 1792.770784680148, "2026-08-16T08:27:08Z", 5, 6.847, NULL, NULL},
	{"g4-n100-b2", 4, "2", 1538.8011664466776, "2026-08-16T08:29:02Z", 6, 3.512, NULL, NULL},
	{"g2-n100-b2", 2, "2", 881.2907259769522, "2026-08-16T08:30:55Z", 7, 1.775, NULL, NULL},
	{"g1-n100-b2", 1, "2", 485.26070274273076, "2026-08-16T08:32:47Z", 8, 0.911, NULL, NULL},
	{"g2-n100-b3", 2, "3", 865.4682448787189, "2026-08-16T08:34:39Z", 9, 1.803, NULL, NULL},
	{"g8-n100-b3", 8, "3", 1808.6222662524697, "2026-08-16T08:36:31Z", 10, 6.796, NULL, NULL},
	{"g1-n100-b3", 1, "3", 484.13466860190584, "2026-08-16T08:38:23Z", 11, 0.908, NULL, NULL},
	{"g4-n100-b3", 4, "3", 1553.4903348492956, "2026-08-16T08:40:16Z", 12, 3.521, NULL, NULL},
};

#define SMEM "target=small, cfg=mem"
#define SPG "target=small, cfg=pg"

/*
 * gcp-x86-capacity-20260816: the small/mem and small/pg runs of blocks 1,
 * 2, 3 and soak, in results.tsv row order (seq = data row number).
 * Level = sessions. app_cores left out (NaN).
 */
static const struct row cap_rows[] = {
	{"small-mem-n100-b1r1", 100, "1", 226.60457539468104, "2026-08-16T03:24:28Z", 2, NAN, SMEM, NULL},
	{"small-mem-n300-b1r1", 300, "1", 106.705468751967, "2026-08-16T03:27:23Z", 4, NAN, SMEM, NULL},
	{"small-mem-n500-b1r1", 500, "1", 75.38431446598604, "2026-08-16T03:30:21Z", 6, NAN, SMEM, NULL},
	{"small-pg-n100-b1r1", 100, "1", 84.20546493672084, "2026-08-16T03:33:21Z", 8, NAN, SPG, NULL},
	{"small-pg-n300-b1r1", 300, "1", 69.0378764094059, "2026-08-16T03:36:17Z", 10, NAN, SPG, NULL},
	{"small-pg-n500-b1r1", 500, "1", 65.71880773694836, "2026-08-16T03:39:12Z", 12, NAN, SPG, NULL},
	{"small-pg-n100-b2r1", 100, "2", 73.34269784886327, "2026-08-16T03:42:08Z", 14, NAN, SPG, NULL},
	{"small-pg-n300-b2r1", 300, "2", 64.32009579045246, "2026-08-16T03:45:03Z", 16, NAN, SPG, NULL},
	{"small-pg-n500-b2r1", 500, "2", 65.97532637199109, "2026-08-16T03:47:58Z", 18, NAN, SPG, NULL},
	{"small-mem-n100-b2r1", 100, "2", 108.61053410238733, "2026-08-16T03:50:54Z", 20, NAN, SMEM, NULL},
	{"small-mem-n300-b2r1", 300, "2", 108.97247470929666, "2026-08-16T03:53:50Z", 22, NAN, SMEM, NULL},
	{"small-mem-n500-b2r1", 500, "2", 84.22853211074198, "2026-08-16T03:56:46Z", 24, NAN, SMEM, NULL},
	{"small-mem-n100-b3r1", 100, "3", 120.22981199513485, "2026-08-16T03:59:47Z", 26, NAN, SMEM, NULL},
	{"small-mem-n300-b3r1", 300, "3", 97.15891127508982, "2026-08-16T04:02:42Z", 28, NAN, SMEM, NULL},
	{"small-mem-n500-b3r1", 500, "3", 90.08917684657376, "2026-08-16T04:05:41Z", 30, NAN, SMEM, NULL},
	{"small-pg-n100-b3r1", 100, "3", 90.16342653375783, "2026-08-16T04:08:43Z", 32, NAN, SPG, NULL},
	{"small-pg-n300-b3r1", 300, "3", 55.525064605616755, "2026-08-16T04:11:37Z", 34, NAN, SPG, NULL},
	{"small-pg-n500-b3r1", 500, "3", 63.45224576961447, "2026-08-16T04:14:33Z", 36, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr1", 300, "soak", 183.50754720511367, "2026-08-16T07:34:48Z", 38, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr2", 300, "soak", 66.97687409965427, "2026-08-16T07:37:44Z", 39, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr3", 300, "soak", 69.02358349919416, "2026-08-16T07:40:38Z", 41, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr4", 300, "soak", 58.07684777864492, "2026-08-16T07:43:34Z", 43, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr5", 300, "soak", 64.5663300422199, "2026-08-16T07:46:30Z", 44, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr6", 300, "soak", 70.48826679674698, "2026-08-16T07:49:27Z", 45, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr7", 300, "soak", 70.16451971804835, "2026-08-16T07:52:23Z", 46, NAN, SPG, NULL},
	{"small-pg-n300-bsoakr8", 300, "soak", 68.65855879078818, "2026-08-16T07:55:20Z", 47, NAN, SPG, NULL},
};

/* The gomaxprocs tputs by level, blocks 1, 2, 3 (for compare). */
static const double g1_tput[] = {475.2284019761499, 485.26070274273076, 484.13466860190584};
static const double g2_tput[] = {853.212014958686, 881.2907259769522, 865.4682448787189};
/* gcp-x86-capacity results.tsv: tput of target small and medium, cfg pg, 300 sessions, blocks 1-3 */
static const double cap_small300[] = {69.0378764094059, 64.32009579045246, 55.525064605616755};
static const double cap_medium300[] = {269.0944551320535, 255.10822490597312, 261.4928259356003};

static const struct sweep_level *sweep_level_of(const struct sweep *sw, double level)
{
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].level == level)
			return &sw->levels[i];
	fail_msg("sweep has no level %g", level);
	return NULL;
}

static const struct noise_cell *cell_of(const struct noise *nz, const char *group, double level,
					const char *block)
{
	for (size_t i = 0; i < nz->ncells; i++)
		if (!strcmp(nz->cells[i].group, group) && nz->cells[i].level == level &&
		    !strcmp(nz->cells[i].block, block))
			return &nz->cells[i];
	fail_msg("no cell (%s, %g, %s)", group, level, block);
	return NULL;
}

static const struct noise_level *nlevel_of(const struct noise *nz, const char *group,
					   double level)
{
	for (size_t i = 0; i < nz->nlevels; i++)
		if (!strcmp(nz->levels[i].group, group) && nz->levels[i].level == level)
			return &nz->levels[i];
	fail_msg("no level (%s, %g)", group, level);
	return NULL;
}

/* The level's order in one block of one group. */
static const struct noise_order *order_of(const struct noise *nz, const char *group,
					  const char *block)
{
	for (size_t i = 0; i < nz->norders; i++)
		if (nz->orders[i].is_level && !strcmp(nz->orders[i].group, group) &&
		    !strcmp(nz->orders[i].block, block))
			return &nz->orders[i];
	fail_msg("no order (%s, %s)", group, block);
	return NULL;
}

/* A group field's order in one block of one stratum (the other group fields' values). */
static const struct noise_order *field_order_of(const struct noise *nz, const char *factor,
						const char *stratum, const char *block)
{
	for (size_t i = 0; i < nz->norders; i++)
		if (!nz->orders[i].is_level && !strcmp(nz->orders[i].factor, factor) &&
		    !strcmp(nz->orders[i].group, stratum) && !strcmp(nz->orders[i].block, block))
			return &nz->orders[i];
	fail_msg("no order of %s (%s, %s)", factor, stratum, block);
	return NULL;
}

static const struct noise_factor *factor_of(const struct noise *nz, const char *name)
{
	for (size_t i = 0; i < nz->nfactors; i++)
		if (!strcmp(nz->factors[i].name, name))
			return &nz->factors[i];
	fail_msg("no factor %s", name);
	return NULL;
}

static const struct noise_step *step_of(const struct noise *nz, const char *group, double from)
{
	for (size_t i = 0; i < nz->nsteps; i++)
		if (!strcmp(nz->steps[i].group, group) && nz->steps[i].from == from)
			return &nz->steps[i];
	fail_msg("no step (%s, from %g)", group, from);
	return NULL;
}

static const struct noise_drift *drift_of(const struct noise *nz, const char *block)
{
	for (size_t i = 0; i < nz->ndrifts; i++)
		if (!strcmp(nz->drifts[i].block, block))
			return &nz->drifts[i];
	fail_msg("no drift row for block %s", block);
	return NULL;
}

static const struct noise_burst *burst_of(const struct noise *nz, const char *group,
					  double level)
{
	for (size_t i = 0; i < nz->nbursts; i++)
		if (!strcmp(nz->bursts[i].group, group) && nz->bursts[i].level == level)
			return &nz->bursts[i];
	fail_msg("no burst row (%s, %g)", group, level);
	return NULL;
}

static const struct noise_verdict *verdict_of(const struct noise *nz, const char *group)
{
	for (size_t i = 0; i < nz->nverdicts; i++)
		if (!strcmp(nz->verdicts[i].group, group))
			return &nz->verdicts[i];
	fail_msg("no verdict for group '%s'", group);
	return NULL;
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
	assert_true(sw.has_fit);
	assert_int_equal(sw.fit.n, 4);
	check_close(sw.fit.factor, 1.5696744729671108, 1e-10, "fit factor");
	check_close(sw.fit.factor_se, 0.1153979768103203, 1e-9, "fit factor SE");
	check_close(sw.fit.r2, 0.9495097739180612, 1e-10, "fit r2");

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

/* Constructed: per-doubling 1.19 stops at the default, 1.21 and exactly 1.2 do not. */
static void test_sweep_stop_boundary(void **state)
{
	static const struct row below[] = {
		{"a1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"a2", 2, NULL, 119, NULL, 2, NAN, NULL, NULL},
	};
	static const struct row above[] = {
		{"b1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"b2", 2, NULL, 121, NULL, 2, NAN, NULL, NULL},
	};
	static const struct row equal[] = {
		{"c1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"c2", 2, NULL, 120, NULL, 2, NAN, NULL, NULL},
	};
	/* levels 1 and 4: per_doubling = (144 / 100) ^ (1 / 2) = 1.2 (> 1.19, by hand) */
	static const struct row skip[] = {
		{"d1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"d4", 4, NULL, 140, NULL, 2, NAN, NULL, NULL},
	};
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	sweep_options_init(&o);

	build(&sel, below, ARRAY_LEN(below));
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	/* 119 / 100 = 1.19 < 1.2 */
	check_close(sw.levels[1].per_doubling, 1.19, REL, "per_doubling 1.19");
	assert_true(sw.levels[1].scaling_stops);
	/* two levels: no fit, and a note saying why */
	assert_false(sw.has_fit);
	check_contains(sw.fit_note, "2 levels", "fit note");
	sweep_release(&sw);
	selection_release(&sel);

	build(&sel, above, ARRAY_LEN(above));
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_false(sw.levels[1].scaling_stops);
	assert_int_equal(sw.stop_index, 2);
	sweep_release(&sw);
	selection_release(&sel);

	/* "falls below": exactly 2 * 0.6 = 1.2 does not stop */
	build(&sel, equal, ARRAY_LEN(equal));
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_false(sw.levels[1].scaling_stops);
	sweep_release(&sw);
	selection_release(&sel);

	/* a two-doubling step is normalised: (140 / 100) ^ (1 / 2) = 1.1832159566199232 < 1.2 */
	build(&sel, skip, ARRAY_LEN(skip));
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
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
/* noise                                                                   */
/* ---------------------------------------------------------------------- */

static void test_noise_defaults(void **state)
{
	struct noise_options o;
	(void)state;
	/* fail if a default changes */
	assert_true(NOISE_BURST_FACTOR == 1.5);
	assert_true(NOISE_DRIFT_PCT == 1.0);
	noise_options_init(&o);
	assert_true(o.burst_factor == 1.5);
	assert_true(o.drift_pct == 1.0);
	/* tput's meaning: a rate, higher is better; no group fields, no durations */
	assert_int_equal(o.metric.kind, FIELD_KIND_RATE);
	assert_false(o.metric.lower_is_better);
	assert_null(o.factors);
	assert_int_equal(o.duration_extra, -1);
}

static void test_noise_gomaxprocs_cells(void **state)
{
	/* python3: (v / statistics.median(level) - 1) * 100, per block b1, b2, b3 */
	static const struct {
		double level;
		const char *block;
		double dev;
		size_t position;
	} want[] = {
		/* (475.2284019761499 / 484.13466860190584 - 1) * 100: the largest, 1.84% */
		{1, "1", -1.8396258734115545, 1},
		{1, "2", 0.232586966778614, 4},
		{1, "3", 0.0, 3},
		{2, "1", -1.4161386038779922, 2},
		{2, "2", 1.8281989191238912, 3},
		{2, "3", 0.0, 1},
		{4, "1", -0.3091833322324655, 3},
		{4, "2", 0.0, 2},
		{4, "3", 0.9545852136658706, 4},
		{8, "1", 0.0, 4},
		{8, "2", -0.19084301690963645, 1},
		{8, "3", 0.6916585422334531, 2},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	double max_dev = 0;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.ncells, 12);
	assert_int_equal(nz.nlevels, 4);
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		const struct noise_cell *c = cell_of(&nz, "", want[i].level, want[i].block);
		char what[64];
		snprintf(what, sizeof(what), "deviation g%g b%s", want[i].level, want[i].block);
		assert_int_equal(c->n, 1);
		check_close(c->deviation_pct, want[i].dev, want[i].dev == 0 ? 1e-13 : REL, what);
		if (c->position != want[i].position)
			fail_msg("position of g%g in block %s: got %zu, expected %zu", want[i].level,
				 want[i].block, c->position, want[i].position);
		assert_true(fabs(c->deviation_pct) < 2.0); /* the seed: blocks agree within 2% */
		max_dev = fmax(max_dev, fabs(c->deviation_pct));
	}
	check_close(max_dev, 1.8396258734115545, REL, "largest deviation");
	/* per level: the largest |deviation| */
	check_close(nlevel_of(&nz, "", 1)->max_abs_dev_pct, 1.8396258734115545, REL, "max dev g1");
	check_close(nlevel_of(&nz, "", 2)->max_abs_dev_pct, 1.8281989191238912, REL, "max dev g2");
	check_close(nlevel_of(&nz, "", 4)->max_abs_dev_pct, 0.9545852136658706, REL, "max dev g4");
	check_close(nlevel_of(&nz, "", 8)->max_abs_dev_pct, 0.6916585422334531, REL, "max dev g8");
	/* level statistics agree with the sweep's (python: see test_sweep_gomaxprocs) */
	check_close(nlevel_of(&nz, "", 2)->s.median, 865.4682448787189, 0, "noise median g2");
	check_close(nlevel_of(&nz, "", 2)->s.range_pct, 3.244337523001892, REL, "noise range g2");

	/*
	 * drift, python3: mean of each block's deviations over the 4 levels
	 *   b1: (-1.8396 - 1.4161 - 0.3092 + 0) / 4 = -0.89123698..., not all < 0 (a 0): none
	 *   b2: (0.2326 + 1.8282 + 0 - 0.1908) / 4, mixed signs: none
	 *   b3: (0 + 0 + 0.9546 + 0.6917) / 4, zeros: none
	 */
	assert_int_equal(nz.ndrifts, 3);
	check_close(drift_of(&nz, "1")->mean_dev_pct,
		    (-1.8396258734115545 - 1.4161386038779922 - 0.3091833322324655 + 0.0) / 4,
		    1e-12, "drift mean b1");
	check_close(drift_of(&nz, "1")->min_dev_pct, -1.8396258734115545, REL, "drift min b1");
	check_close(drift_of(&nz, "1")->max_dev_pct, 0.0, 1e-13, "drift max b1");
	assert_int_equal(drift_of(&nz, "1")->nlevels, 4);
	for (size_t i = 0; i < nz.ndrifts; i++)
		assert_string_equal(nz.drifts[i].drift, "none");
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_gomaxprocs_order(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_verdict *v;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.norders, 3);
	/* by start time (load.json started_at) */
	assert_string_equal(order_of(&nz, "", "1")->levels, "1,2,4,8");
	assert_string_equal(order_of(&nz, "", "2")->levels, "8,4,2,1");
	assert_string_equal(order_of(&nz, "", "3")->levels, "2,8,1,4");
	assert_true(order_of(&nz, "", "1")->timed);
	/*
	 * positions by hand: level 1 at 1, 4, 3; level 2 at 2, 3, 1; level 4 at
	 * 3, 2, 4; level 8 at 4, 1, 2: no level repeats a position
	 */
	v = verdict_of(&nz, "");
	assert_true(v->counterbalanced);
	check_contains(v->counterbalance_note, "start time", "note");
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * Swap the start times of g2-n100-b3 (08:34:39) and g8-n100-b3 (08:36:31):
	 * block 3 becomes 8,2,1,4. Level 8 is first in blocks 2 and 3 and level
	 * 2 second in blocks 1 and 3, but no level holds one position in every
	 * block (8: 4, 1, 1; 2: 2, 3, 2; 1: 1, 4, 3; 4: 3, 2, 4): still yes.
	 */
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	assert_string_equal(sel.runs[8].tag, "g2-n100-b3");
	assert_string_equal(sel.runs[9].tag, "g8-n100-b3");
	{
		char *t = sel.runs[8].started_at;
		sel.runs[8].started_at = sel.runs[9].started_at;
		sel.runs[9].started_at = t;
	}
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(order_of(&nz, "", "3")->levels, "8,2,1,4");
	assert_int_equal(cell_of(&nz, "", 8, "3")->position, 1);
	assert_int_equal(cell_of(&nz, "", 2, "3")->position, 2);
	assert_true(verdict_of(&nz, "")->counterbalanced);
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * Blocks 1 and 3 only, with g1-n100-b3 (08:38:23) and g2-n100-b3
	 * (08:34:39) swapped: block 3 becomes 1,8,2,4, so level 1 is first in
	 * both blocks: not counterbalanced, and the note names it.
	 */
	{
		struct row two[8];
		memcpy(two, gmp_rows, 4 * sizeof(two[0]));
		memcpy(two + 4, gmp_rows + 8, 4 * sizeof(two[0]));
		two[4].started_at = gmp_rows[10].started_at; /* g2-b3 at g1-b3's time */
		two[6].started_at = gmp_rows[8].started_at;  /* g1-b3 at g2-b3's time */
		build(&sel, two, ARRAY_LEN(two));
	}
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(order_of(&nz, "", "3")->levels, "1,8,2,4");
	v = verdict_of(&nz, "");
	assert_false(v->counterbalanced);
	assert_string_equal(v->balance, "no");
	check_contains(v->counterbalance_note, "level=1 is at position 1 in every block (1, 3)",
		       "note");
	noise_release(&nz);
	selection_release(&sel);

	/*
	 * No start times: results-table order (seq), which for this corpus is
	 * the execution order, so the same orders, and timed is false.
	 */
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	free(sel.runs[3].started_at);
	sel.runs[3].started_at = NULL;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(order_of(&nz, "", "1")->timed);
	assert_string_equal(order_of(&nz, "", "1")->levels, "1,2,4,8");
	assert_string_equal(order_of(&nz, "", "2")->levels, "8,4,2,1");
	assert_string_equal(order_of(&nz, "", "3")->levels, "2,8,1,4");
	assert_true(verdict_of(&nz, "")->counterbalanced);
	check_contains(verdict_of(&nz, "")->counterbalance_note, "results-table", "untimed note");
	noise_release(&nz);
	selection_release(&sel);

	/* one block: cannot be counterbalanced */
	build(&sel, gmp_rows, 4); /* the block-1 rows */
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(verdict_of(&nz, "")->counterbalanced);
	check_contains(verdict_of(&nz, "")->counterbalance_note, "one block", "one-block note");
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_gomaxprocs_verdict(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_verdict *v;
	(void)state;
	build(&sel, gmp_rows, ARRAY_LEN(gmp_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nverdicts, 1);
	v = verdict_of(&nz, "");
	/*
	 * [min, max] by level: [475.2, 485.3] [853.2, 881.3] [1534.0, 1553.5]
	 * [1792.8, 1808.6]: disjoint at every step, so every step is resolved
	 */
	assert_true(v->resolved);
	assert_string_equal(v->verdict, "resolved");
	assert_string_equal(nz.verdict, "resolved");
	assert_string_equal(v->within_noise, "");
	assert_string_equal(v->steps_resolved, "1→2, 2→4, 4→8");
	assert_string_equal(v->steps_within_noise, "");
	assert_string_equal(v->steps_text, "resolved: 1→2, 2→4, 4→8");
	assert_int_equal(nz.nsteps, 3);
	assert_int_equal(nz.nresolved, 3);
	check_close(v->max_range_pct, 3.244337523001892, REL, "max range");
	check_close(v->max_abs_dev_pct, 1.8396258734115545, REL, "max dev");
	for (size_t i = 0; i < nz.nlevels; i++) {
		assert_false(nz.levels[i].within_noise);
		assert_string_equal(nz.levels[i].verdict, "resolved");
	}
	/*
	 * first runs in time vs the later runs' median, all < 1.5:
	 * g1 475.228 / median(485.261, 484.135) = 0.9805; g2 853.2 / 873.4; ...
	 */
	assert_int_equal(v->nbursts, 0);
	assert_int_equal(nz.nbursts, 4);
	/* python3: 475.2284019761499 / statistics.median([485.26070274273076, 484.13466860190584]) */
	check_close(burst_of(&nz, "", 1)->ratio, 475.2284019761499 /
		    ((485.26070274273076 + 484.13466860190584) / 2), REL, "g1 first-run ratio");
	assert_string_equal(burst_of(&nz, "", 1)->tag, "g1-n100-b1");
	assert_string_equal(burst_of(&nz, "", 8)->tag, "g8-n100-b1");
	/* one run per (level, block): no soaks */
	assert_int_equal(nz.nsoaks, 0);
	noise_release(&nz);
	selection_release(&sel);
}

/* Constructed: neighbouring levels whose [min, max] overlap are within noise. */
static void test_noise_overlap(void **state)
{
	/*
	 * level 1: 100, 101, 102 (range 2/101 = 1.98%); level 2: 101.5, 103,
	 * 104 (range 2.5/103 = 2.43%); level 4: 200, 201, 202. 101.5 <= 102:
	 * levels 1 and 2 overlap; 4 is clear of 2.
	 */
	static const struct row rows[] = {
		{"a-1", 1, "a", 100, "2026-01-01T00:00:00Z", 1, NAN, NULL, NULL},
		{"a-2", 2, "a", 101.5, "2026-01-01T00:01:00Z", 2, NAN, NULL, NULL},
		{"a-4", 4, "a", 200, "2026-01-01T00:02:00Z", 3, NAN, NULL, NULL},
		{"b-4", 4, "b", 201, "2026-01-01T00:03:00Z", 4, NAN, NULL, NULL},
		{"b-2", 2, "b", 103, "2026-01-01T00:04:00Z", 5, NAN, NULL, NULL},
		{"b-1", 1, "b", 101, "2026-01-01T00:05:00Z", 6, NAN, NULL, NULL},
		{"c-2", 2, "c", 104, "2026-01-01T00:06:00Z", 7, NAN, NULL, NULL},
		{"c-4", 4, "c", 202, "2026-01-01T00:07:00Z", 8, NAN, NULL, NULL},
		{"c-1", 1, "c", 102, "2026-01-01T00:08:00Z", 9, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_verdict *v;
	(void)state;
	build(&sel, rows, ARRAY_LEN(rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	v = verdict_of(&nz, "");
	assert_false(v->resolved);
	assert_string_equal(v->within_noise, "1,2");
	assert_true(nlevel_of(&nz, "", 1)->within_noise);
	assert_true(nlevel_of(&nz, "", 2)->within_noise);
	check_contains(nlevel_of(&nz, "", 1)->why, "overlap", "why 1");
	check_contains(nlevel_of(&nz, "", 2)->why, "overlap", "why 2");
	assert_false(nlevel_of(&nz, "", 4)->within_noise);
	/* by hand: (102 - 100) / 101 * 100 = 1.9801980198019802 */
	check_close(nlevel_of(&nz, "", 1)->s.range_pct, 1.9801980198019802, REL, "range 1");
	/*
	 * orders a 1,2,4; b 4,2,1; c 2,4,1: level 2 is 2nd in a and b but 1st
	 * in c, 1 at 1, 3, 3, 4 at 3, 1, 2: no level holds one position in
	 * every block, counterbalanced
	 */
	assert_string_equal(order_of(&nz, "", "a")->levels, "1,2,4");
	assert_string_equal(order_of(&nz, "", "b")->levels, "4,2,1");
	assert_string_equal(order_of(&nz, "", "c")->levels, "2,4,1");
	assert_true(v->counterbalanced);
	/* the steps: 1 -> 2 within noise (101.5 <= 102), 2 -> 4 resolved (200 > 104) */
	assert_int_equal(nz.nsteps, 2);
	assert_string_equal(nz.steps[0].verdict, "within-noise");
	assert_string_equal(nz.steps[1].verdict, "resolved");
	/* by hand: gap = 101.5 - 102 = -0.5; 200 - 104 = 96 */
	check_close(nz.steps[0].gap, -0.5, REL, "gap 1->2");
	check_close(nz.steps[1].gap, 96, REL, "gap 2->4");
	assert_string_equal(v->steps_text, "resolved: 2→4; within-noise: 1→2");
	noise_release(&nz);
	selection_release(&sel);
}

/* Constructed: a block above (below) the level medians at every level drifts. */
static void test_noise_drift(void **state)
{
	/*
	 * levels 1, 2, 4 with base 100, 200, 400; block hi = base * 1.03,
	 * mid = base, lo = base * 0.97; the level median is the mid value, so
	 * deviations are +3, 0, -3 at every level (by hand). No start times:
	 * results-table order.
	 */
	static const struct row rows[] = {
		{"hi-1", 1, "hi", 103, NULL, 1, NAN, NULL, NULL},
		{"hi-2", 2, "hi", 206, NULL, 2, NAN, NULL, NULL},
		{"hi-4", 4, "hi", 412, NULL, 3, NAN, NULL, NULL},
		{"mid-1", 1, "mid", 100, NULL, 4, NAN, NULL, NULL},
		{"mid-2", 2, "mid", 200, NULL, 5, NAN, NULL, NULL},
		{"mid-4", 4, "mid", 400, NULL, 6, NAN, NULL, NULL},
		{"lo-1", 1, "lo", 97, NULL, 7, NAN, NULL, NULL},
		{"lo-2", 2, "lo", 194, NULL, 8, NAN, NULL, NULL},
		{"lo-4", 4, "lo", 388, NULL, 9, NAN, NULL, NULL},
	};
	/* the same with +-0.5%: 100.5 / 201 / 402 and 99.5 / 199 / 398 */
	static const struct row small[] = {
		{"hi-1", 1, "hi", 100.5, NULL, 1, NAN, NULL, NULL},
		{"hi-2", 2, "hi", 201, NULL, 2, NAN, NULL, NULL},
		{"hi-4", 4, "hi", 402, NULL, 3, NAN, NULL, NULL},
		{"mid-1", 1, "mid", 100, NULL, 4, NAN, NULL, NULL},
		{"mid-2", 2, "mid", 200, NULL, 5, NAN, NULL, NULL},
		{"mid-4", 4, "mid", 400, NULL, 6, NAN, NULL, NULL},
		{"lo-1", 1, "lo", 99.5, NULL, 7, NAN, NULL, NULL},
		{"lo-2", 2, "lo", 199, NULL, 8, NAN, NULL, NULL},
		{"lo-4", 4, "lo", 398, NULL, 9, NAN, NULL, NULL},
	};
	/* one level only: +3 / 0 / -3 but fewer than 2 deviations */
	static const struct row one_level[] = {
		{"hi-1", 1, "hi", 103, NULL, 1, NAN, NULL, NULL},
		{"mid-1", 1, "mid", 100, NULL, 2, NAN, NULL, NULL},
		{"lo-1", 1, "lo", 97, NULL, 3, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	noise_options_init(&o);

	build(&sel, rows, ARRAY_LEN(rows));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.ndrifts, 3);
	assert_string_equal(drift_of(&nz, "hi")->drift, "high");
	assert_string_equal(drift_of(&nz, "lo")->drift, "low");
	assert_string_equal(drift_of(&nz, "mid")->drift, "none");
	/* by hand: (103 / 100 - 1) * 100 = 3 at each level */
	check_close(drift_of(&nz, "hi")->mean_dev_pct, 3.0, 1e-9, "hi mean");
	check_close(drift_of(&nz, "lo")->mean_dev_pct, -3.0, 1e-9, "lo mean");
	check_close(drift_of(&nz, "lo")->min_dev_pct, -3.0, 1e-9, "lo min");
	assert_int_equal(drift_of(&nz, "hi")->nlevels, 3);
	/* untimed order (results-table rows): every block 1,2,4, not counterbalanced */
	assert_false(order_of(&nz, "", "hi")->timed);
	assert_string_equal(order_of(&nz, "", "hi")->levels, "1,2,4");
	assert_false(verdict_of(&nz, "")->counterbalanced);
	noise_release(&nz);
	selection_release(&sel);

	/* +-0.5% is one-signed but within the default 1%: none; with 0.4%: high / low */
	build(&sel, small, ARRAY_LEN(small));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	check_close(drift_of(&nz, "hi")->mean_dev_pct, 0.5, 1e-9, "hi mean 0.5");
	assert_string_equal(drift_of(&nz, "hi")->drift, "none");
	assert_string_equal(drift_of(&nz, "lo")->drift, "none");
	noise_release(&nz);
	o.drift_pct = 0.4;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(drift_of(&nz, "hi")->drift, "high");
	assert_string_equal(drift_of(&nz, "lo")->drift, "low");
	noise_release(&nz);
	selection_release(&sel);
	noise_options_init(&o);

	build(&sel, one_level, ARRAY_LEN(one_level));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(drift_of(&nz, "hi")->drift, "none");
	assert_string_equal(drift_of(&nz, "lo")->drift, "none");
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_capacity_bursts(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_burst *b;
	(void)state;
	build(&sel, cap_rows, ARRAY_LEN(cap_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	/* two groups, three levels each, every level with 2+ runs */
	assert_int_equal(nz.nverdicts, 2);
	assert_int_equal(nz.nbursts, 6);

	b = burst_of(&nz, SMEM, 100);
	assert_string_equal(b->tag, "small-mem-n100-b1r1");
	check_close(b->value, 226.60457539468104, 0, "mem100 first");
	assert_int_equal(b->later_n, 2);
	/* by hand: (108.61053410238733 + 120.22981199513485) / 2 = 114.42017304876109 */
	check_close(b->later_median, 114.42017304876109, REL, "mem100 later median");
	/* python3: 226.60457539468104 / 114.42017304876109 = 1.980459995442514 (>= 1.5) */
	check_close(b->ratio, 1.980459995442514, REL, "mem100 ratio");
	assert_true(b->burst);

	/* python3: the later runs' median and the ratio, per level */
	b = burst_of(&nz, SMEM, 300);
	/* 106.705468751967 / median(108.97247470929666, 97.15891127508982) */
	check_close(b->ratio, 1.035315104901584, REL, "mem300 ratio");
	assert_false(b->burst);
	b = burst_of(&nz, SMEM, 500);
	/* 75.38431446598604 / median(84.22853211074198, 90.08917684657376) */
	check_close(b->ratio, 0.8649071275305138, REL, "mem500 ratio");
	assert_false(b->burst);
	b = burst_of(&nz, SPG, 100);
	/* 84.20546493672084 / median(73.34269784886327, 90.16342653375783) */
	check_close(b->ratio, 1.029997686688132, REL, "pg100 ratio");
	b = burst_of(&nz, SPG, 300);
	/* the first of 11 (b1r1, 03:36:17) against the 10 later (b2r1, b3r1, soak r1..r8):
	 * statistics.median(later) = 67.81771644522122; 69.0378764094059 / it */
	assert_string_equal(b->tag, "small-pg-n300-b1r1");
	assert_int_equal(b->later_n, 10);
	check_close(b->later_median, 67.81771644522122, REL, "pg300 later median");
	check_close(b->ratio, 1.0179917583212972, REL, "pg300 ratio");
	assert_false(b->burst);
	b = burst_of(&nz, SPG, 500);
	/* 65.71880773694836 / median(65.97532637199109, 63.45224576961447) */
	check_close(b->ratio, 1.0155302560268378, REL, "pg500 ratio");
	assert_int_equal(verdict_of(&nz, SMEM)->nbursts, 1);
	assert_int_equal(verdict_of(&nz, SPG)->nbursts, 0);
	noise_release(&nz);

	/* the factor decides: 2.0 > 1.98 -> no burst; 1.98 <= 1.9805 -> burst */
	o.burst_factor = 2.0;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(burst_of(&nz, SMEM, 100)->burst);
	assert_int_equal(verdict_of(&nz, SMEM)->nbursts, 0);
	noise_release(&nz);
	o.burst_factor = 1.98;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_true(burst_of(&nz, SMEM, 100)->burst);
	noise_release(&nz);
	selection_release(&sel);
}

/* A first run at exactly the factor is a burst (`noise --help`: ratio >= --burst-factor). */
static void test_noise_burst_boundary(void **state)
{
	/* by hand: 150 / median(100, 100) = 1.5 exactly */
	static const struct row rows[] = {
		{"first", 1, "1", 150, "2026-01-01T00:00:00Z", 1, NAN, NULL, NULL},
		{"second", 1, "2", 100, "2026-01-01T00:01:00Z", 2, NAN, NULL, NULL},
		{"third", 1, "3", 100, "2026-01-01T00:02:00Z", 3, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	build(&sel, rows, ARRAY_LEN(rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nbursts, 1);
	assert_string_equal(nz.bursts[0].tag, "first");
	check_close(nz.bursts[0].ratio, 1.5, 0, "ratio");
	assert_true(nz.bursts[0].burst);
	assert_int_equal(verdict_of(&nz, "")->nbursts, 1);
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_capacity_soak(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_soak *s;
	(void)state;
	build(&sel, cap_rows, ARRAY_LEN(cap_rows));
	noise_options_init(&o);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	/* only (pg, 300, soak) has 3+ runs in one block */
	assert_int_equal(nz.nsoaks, 1);
	s = &nz.soaks[0];
	assert_string_equal(s->group, SPG);
	assert_string_equal(s->block, "soak");
	check_close(s->level, 300, 0, "soak level");
	assert_int_equal(s->n, 8);
	assert_string_equal(s->first_tag, "small-pg-n300-bsoakr1");
	check_close(s->first, 183.50754720511367, 0, "soak first");
	assert_int_equal(s->sustained.n, 7);
	/*
	 * python3: rest = r2..r8; statistics.median(rest) = 68.65855879078818 (r8);
	 * ratio = 183.50754720511367 / 68.65855879078818 = 2.67275559576317;
	 * min 58.07684777864492 (r4), max 70.48826679674698 (r6);
	 * range_pct = (max - min) / median * 100 = 18.077016524511272
	 */
	check_close(s->sustained.median, 68.65855879078818, 0, "soak sustained median");
	check_close(s->ratio, 2.67275559576317, REL, "soak ratio");
	check_close(s->sustained.min, 58.07684777864492, 0, "soak sustained min");
	check_close(s->sustained.max, 70.48826679674698, 0, "soak sustained max");
	check_close(s->sustained.range_pct, 18.077016524511272, REL, "soak sustained range");
	/* the small/mem group at 100 is within noise: 108.61 (its min) <= 108.97 (300's max) */
	assert_true(nlevel_of(&nz, SMEM, 100)->within_noise);
	assert_false(verdict_of(&nz, SMEM)->resolved);
	/* blocks 1, 2, 3 of the mem group: orders by start time; 100,300,500 in each */
	assert_string_equal(order_of(&nz, SMEM, "1")->levels, "100,300,500");
	assert_false(verdict_of(&nz, SMEM)->counterbalanced);
	noise_release(&nz);
	selection_release(&sel);
}

static void test_noise_refuses(void **state)
{
	static const struct row text_level[] = {
		{"t1", 0, "1", 100, NULL, 1, NAN, NULL, "1"},
		{"t-x", 0, "2", 200, NULL, 2, NAN, NULL, "x"},
	};
	/* a run without a block counts as block "NA" */
	static const struct row no_block[] = {
		{"nb1", 1, NULL, 100, NULL, 1, NAN, NULL, NULL},
		{"nb2", 2, NULL, 200, NULL, 2, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	noise_options_init(&o);
	build(&sel, text_level, ARRAY_LEN(text_level));
	assert_int_equal(noise_compute(&sel, &o, &nz), ERR_DATA);
	check_msg("'t-x'");
	selection_release(&sel);

	build(&sel, NULL, 0);
	assert_int_equal(noise_compute(&sel, &o, &nz), ERR_DATA);
	check_msg("no runs");
	selection_release(&sel);

	build(&sel, no_block, ARRAY_LEN(no_block));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.ncells, 2);
	assert_string_equal(nz.cells[0].block, "NA");
	noise_release(&nz);
	selection_release(&sel);
}

/* ---------------------------------------------------------------------- */
/* noise: steps, the order of every factor, zeros                          */
/* ---------------------------------------------------------------------- */

/*
 * gcp-x86-capacity-20260816/results.tsv, every row of blocks 1, 2, 3 (36),
 * in row order (seq = data row number): tag, level (sessions), block,
 * target, cfg, tput, err; started_at from json/<tag>.json. Every run's
 * measured window is 90 s (json "duration": "1m30s").
 */
struct cap_row {
	const char *tag;
	double level;
	const char *block;
	const char *target;
	const char *cfg;
	double tput;
	double err;
	const char *started_at;
	int64_t seq;
};

static const struct cap_row cap36[] = {
	{"medium-mem-n100-b1r1", 100, "1", "medium", "mem", 362.57432778567005, 0.0, "2026-08-16T03:24:28Z", 1},
	{"small-mem-n100-b1r1", 100, "1", "small", "mem", 226.60457539468104, 0.0, "2026-08-16T03:24:28Z", 2},
	{"medium-mem-n300-b1r1", 300, "1", "medium", "mem", 365.34613028146913, 0.0, "2026-08-16T03:27:23Z", 3},
	{"small-mem-n300-b1r1", 300, "1", "small", "mem", 106.705468751967, 0.0, "2026-08-16T03:27:23Z", 4},
	{"medium-mem-n500-b1r1", 500, "1", "medium", "mem", 361.56207761715785, 0.0, "2026-08-16T03:30:18Z", 5},
	{"small-mem-n500-b1r1", 500, "1", "small", "mem", 75.38431446598604, 0.0012400110223201985, "2026-08-16T03:30:21Z", 6},
	{"medium-pg-n100-b1r1", 100, "1", "medium", "pg", 303.63917667903127, 0.0, "2026-08-16T03:33:14Z", 7},
	{"small-pg-n100-b1r1", 100, "1", "small", "pg", 84.20546493672084, 0.0, "2026-08-16T03:33:21Z", 8},
	{"medium-pg-n300-b1r1", 300, "1", "medium", "pg", 269.0944551320535, 0.0, "2026-08-16T03:36:09Z", 9},
	{"small-pg-n300-b1r1", 300, "1", "small", "pg", 69.0378764094059, 0.0008007687379884689, "2026-08-16T03:36:17Z", 10},
	{"medium-pg-n500-b1r1", 500, "1", "medium", "pg", 222.86757414622213, 0.0, "2026-08-16T03:39:06Z", 11},
	{"small-pg-n500-b1r1", 500, "1", "small", "pg", 65.71880773694836, 0.019346230820547032, "2026-08-16T03:39:12Z", 12},
	{"medium-pg-n100-b2r1", 100, "2", "medium", "pg", 287.01400172055423, 0.0, "2026-08-16T03:42:01Z", 13},
	{"small-pg-n100-b2r1", 100, "2", "small", "pg", 73.34269784886327, 0.0, "2026-08-16T03:42:08Z", 14},
	{"medium-pg-n300-b2r1", 300, "2", "medium", "pg", 255.10822490597312, 0.0, "2026-08-16T03:44:56Z", 15},
	{"small-pg-n300-b2r1", 300, "2", "small", "pg", 64.32009579045246, 0.001199040767386091, "2026-08-16T03:45:03Z", 16},
	{"medium-pg-n500-b2r1", 500, "2", "medium", "pg", 245.18763090586353, 0.0, "2026-08-16T03:47:51Z", 17},
	{"small-pg-n500-b2r1", 500, "2", "small", "pg", 65.97532637199109, 0.016766268260292164, "2026-08-16T03:47:58Z", 18},
	{"medium-mem-n100-b2r1", 100, "2", "medium", "mem", 322.54272034273805, 0.0, "2026-08-16T03:50:46Z", 19},
	{"small-mem-n100-b2r1", 100, "2", "small", "mem", 108.61053410238733, 0.0, "2026-08-16T03:50:54Z", 20},
	{"medium-mem-n300-b2r1", 300, "2", "medium", "mem", 325.9532317911751, 0.0, "2026-08-16T03:53:41Z", 21},
	{"small-mem-n300-b2r1", 300, "2", "small", "mem", 108.97247470929666, 0.0, "2026-08-16T03:53:50Z", 22},
	{"medium-mem-n500-b2r1", 500, "2", "medium", "mem", 304.9978919177873, 0.0, "2026-08-16T03:56:37Z", 23},
	{"small-mem-n500-b2r1", 500, "2", "small", "mem", 84.22853211074198, 0.0016055329134247252, "2026-08-16T03:56:46Z", 24},
	{"medium-mem-n100-b3r1", 100, "3", "medium", "mem", 344.97474664499254, 0.0, "2026-08-16T03:59:35Z", 25},
	{"small-mem-n100-b3r1", 100, "3", "small", "mem", 120.22981199513485, 0.0, "2026-08-16T03:59:47Z", 26},
	{"medium-mem-n300-b3r1", 300, "3", "medium", "mem", 323.8230783133233, 0.0, "2026-08-16T04:02:31Z", 27},
	{"small-mem-n300-b3r1", 300, "3", "small", "mem", 97.15891127508982, 0.0, "2026-08-16T04:02:42Z", 28},
	{"medium-mem-n500-b3r1", 500, "3", "medium", "mem", 293.588237253744, 0.0, "2026-08-16T04:05:28Z", 29},
	{"small-mem-n500-b3r1", 500, "3", "small", "mem", 90.08917684657376, 0.0, "2026-08-16T04:05:41Z", 30},
	{"medium-pg-n100-b3r1", 100, "3", "medium", "pg", 285.44577545151867, 0.0, "2026-08-16T04:08:26Z", 31},
	{"small-pg-n100-b3r1", 100, "3", "small", "pg", 90.16342653375783, 0.0, "2026-08-16T04:08:43Z", 32},
	{"medium-pg-n300-b3r1", 300, "3", "medium", "pg", 261.4928259356003, 0.0, "2026-08-16T04:11:23Z", 33},
	{"small-pg-n300-b3r1", 300, "3", "small", "pg", 55.525064605616755, 0.006548918436197659, "2026-08-16T04:11:37Z", 34},
	{"medium-pg-n500-b3r1", 500, "3", "medium", "pg", 248.03975554183583, 0.0, "2026-08-16T04:14:19Z", 35},
	{"small-pg-n500-b3r1", 500, "3", "small", "pg", 63.45224576961447, 0.02094875346260388, "2026-08-16T04:14:33Z", 36},
};

#define MMEM "target=medium, cfg=mem"
#define MPG "target=medium, cfg=pg"

static const char *const cap_factors[] = {"target", "cfg", NULL};

/*
 * The capacity runs (of one target and cfg, or every one with NULL) with
 * the metric tput or err, grouped by target,cfg as `noise --group
 * target,cfg` selects them: extra 0 target, 1 cfg, 2 duration_s ("90").
 */
static void build_cap36(struct selection *sel, bool err, const char *target, const char *cfg)
{
	struct row rows[ARRAY_LEN(cap36)];
	char groups[ARRAY_LEN(cap36)][64];
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(cap36); i++) {
		const struct cap_row *c = &cap36[i];
		if ((target && strcmp(c->target, target)) || (cfg && strcmp(c->cfg, cfg)))
			continue;
		snprintf(groups[n], sizeof(groups[n]), "target=%s, cfg=%s", c->target, c->cfg);
		rows[n] = (struct row){c->tag, c->level, c->block, err ? c->err : c->tput,
				       c->started_at, c->seq, NAN, groups[n], NULL};
		n++;
	}
	build(sel, rows, n);
	sel->nextra = 3;
	for (size_t i = 0, k = 0; i < ARRAY_LEN(cap36); i++) {
		const struct cap_row *c = &cap36[i];
		if ((target && strcmp(c->target, target)) || (cfg && strcmp(c->cfg, cfg)))
			continue;
		sel->runs[k].extra = calloc(3, sizeof(char *));
		assert_non_null(sel->runs[k].extra);
		sel->runs[k].extra[0] = dup_or_null(c->target);
		sel->runs[k].extra[1] = dup_or_null(c->cfg);
		sel->runs[k].extra[2] = dup_or_null("90");
		k++;
	}
}

static void cap_options(struct noise_options *o, const char *metric)
{
	noise_options_init(o);
	field_metric_meaning(metric, NULL, false, &o->metric);
	o->by = "sessions";
	o->factors = cap_factors;
	o->duration_extra = 2;
}

/*
 * The step rule on the real sweeps (python3 over results.tsv: per step the
 * medians, d = median_to - median_from, the spreads from each median to its
 * extreme facing the other level, and the gap between the ranges).
 */
static void test_noise_steps_capacity(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_step *s;
	(void)state;
	build_cap36(&sel, false, NULL, NULL);
	cap_options(&o, "tput");
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nverdicts, 4);
	assert_int_equal(nz.nsteps, 8);

	/*
	 * e2-medium pg: 100 -> 287.0 [285.4, 303.6], 300 -> 261.5 [255.1,
	 * 269.1], 500 -> 245.2 [222.9, 248.0]: a decline with disjoint ranges
	 */
	s = step_of(&nz, MPG, 100);
	check_close(s->to, 300, 0, "pg step 1 to");
	check_close(s->median_from, 287.01400172055423, 0, "pg median 100");
	check_close(s->median_to, 261.4928259356003, 0, "pg median 300");
	/* python3: 261.4928259356003 - 287.01400172055423 */
	check_close(s->difference, -25.521175784953925, REL, "pg diff 100->300");
	/* 287.014 - 285.446 (100's min) and 269.094 - 261.493 (300's max - median) */
	check_close(s->spread_from, 1.5682262690355628, 1e-10, "pg spread_from 100");
	check_close(s->spread_to, 7.601629196453189, 1e-10, "pg spread_to 300");
	/* min(100) - max(300) = 285.44577545151867 - 269.0944551320535 */
	check_close(s->gap, 16.351320319465174, REL, "pg gap 100->300");
	assert_string_equal(s->verdict, "resolved");
	assert_string_equal(s->change, "fall");
	assert_string_equal(s->effect, "worse");
	/* |d| > spread is the rule; spread = 9.1699 < 25.521 */
	assert_true(fabs(s->difference) > s->spread);
	s = step_of(&nz, MPG, 300);
	check_close(s->difference, -16.30519502973678, REL, "pg diff 300->500");
	check_close(s->gap, 7.068469364137286, REL, "pg gap 300->500");
	assert_string_equal(s->verdict, "resolved");
	assert_string_equal(verdict_of(&nz, MPG)->verdict, "resolved");
	assert_string_equal(verdict_of(&nz, MPG)->steps_resolved, "100→300, 300→500");
	assert_string_equal(verdict_of(&nz, MPG)->steps_within_noise, "");

	/*
	 * e2-medium mem: 100: 362.6, 322.5, 345.0; 300: 365.3, 326.0, 323.8;
	 * 500: 361.6, 305.0, 293.6: overlapping ranges, both steps within noise
	 */
	s = step_of(&nz, MMEM, 100);
	check_close(s->difference, -19.02151485381745, REL, "mem diff 100->300");
	/* min(100) - max(300) = 322.54272034273805 - 365.34613028146913 */
	check_close(s->gap, -42.80340993873108, REL, "mem gap 100->300");
	assert_string_equal(s->verdict, "within-noise");
	s = step_of(&nz, MMEM, 300);
	check_close(s->gap, -37.73899930383453, REL, "mem gap 300->500");
	assert_string_equal(s->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, MMEM)->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, MMEM)->steps_within_noise, "100→300, 300→500");
	assert_string_equal(verdict_of(&nz, MMEM)->within_noise, "100,300,500");

	/* e2-small pg: 100 -> 300 resolved (gap 4.30), 300 -> 500 a rise within noise */
	s = step_of(&nz, SPG, 100);
	check_close(s->gap, 4.3048214394573705, REL, "small pg gap 100->300");
	assert_string_equal(s->verdict, "resolved");
	s = step_of(&nz, SPG, 300);
	assert_string_equal(s->change, "rise");
	assert_string_equal(s->effect, "better");
	check_close(s->gap, -5.585630639791425, REL, "small pg gap 300->500");
	assert_string_equal(s->verdict, "within-noise");
	assert_string_equal(verdict_of(&nz, SPG)->steps_text,
			    "resolved: 100→300; within-noise: 300→500");
	/* the level verdict is the worst of its steps: 100 resolved, 300 and 500 within noise */
	assert_string_equal(nlevel_of(&nz, SPG, 100)->verdict, "resolved");
	assert_string_equal(nlevel_of(&nz, SPG, 300)->verdict, "within-noise");
	assert_string_equal(nlevel_of(&nz, SPG, 500)->verdict, "within-noise");
	/* e2-small mem: 100 -> 300 within noise by 0.36 (108.61 < 108.97), 300 -> 500 resolved */
	check_close(step_of(&nz, SMEM, 100)->gap, -0.3619406069093287, 1e-10, "small mem gap");
	assert_string_equal(step_of(&nz, SMEM, 300)->verdict, "resolved");
	assert_string_equal(nz.verdict, "within-noise");
	assert_int_equal(nz.nresolved, 4);
	assert_int_equal(nz.nwithin, 4);
	assert_int_equal(nz.nunreplicated, 0);
	noise_release(&nz);
	selection_release(&sel);
}

/* The step rule at its boundary (noise_step_judge on hand-made summaries). */
static void test_noise_step_boundary(void **state)
{
	static const double a[] = {1, 2, 3}, touch[] = {3, 4, 5}, clear[] = {3.000001, 4, 5};
	static const double wide[] = {0, 2, 4}, one[] = {2}, zeros[] = {0, 0, 0};
	struct summary sa, sb;
	struct noise_step st;
	(void)state;
	assert_int_equal(stats_summary_abs(a, 3, &sa), 0);
	/* touching ranges [1, 3] and [3, 5]: d = 2, spread = (3 - 2) + (4 - 3) = 2: not > */
	assert_int_equal(stats_summary_abs(touch, 3, &sb), 0);
	noise_step_judge(&sa, &sb, false, &st);
	check_close(st.difference, 2, 0, "touch d");
	check_close(st.spread, 2, 0, "touch spread");
	check_close(st.gap, 0, 0, "touch gap");
	assert_string_equal(st.verdict, "within-noise");
	assert_string_equal(st.change, "rise");
	assert_string_equal(st.effect, "better");
	/* by hand: 1e-6 apart: resolved, gap 3.000001 - 3 */
	assert_int_equal(stats_summary_abs(clear, 3, &sb), 0);
	noise_step_judge(&sa, &sb, false, &st);
	assert_string_equal(st.verdict, "resolved");
	check_close(st.gap, 3.000001 - 3, 1e-9, "clear gap");
	/* the same step downwards, lower is better: a fall within noise, better */
	assert_int_equal(stats_summary_abs(touch, 3, &sb), 0);
	noise_step_judge(&sb, &sa, true, &st);
	check_close(st.difference, -2, 0, "fall d");
	/* by hand: spread_from = 4 - 3 (median to min), spread_to = 3 - 2 (max to median) */
	check_close(st.spread_from, 1, 0, "fall spread_from");
	check_close(st.spread_to, 1, 0, "fall spread_to");
	assert_string_equal(st.change, "fall");
	assert_string_equal(st.effect, "better");
	assert_string_equal(st.verdict, "within-noise");
	/* equal medians: never resolved */
	assert_int_equal(stats_summary_abs(wide, 3, &sb), 0);
	noise_step_judge(&sa, &sb, false, &st);
	assert_string_equal(st.change, "none");
	assert_string_equal(st.verdict, "within-noise");
	/* by hand: the larger orientation, (3 - 2) + (2 - 0) = 3 vs (2 - 1) + (4 - 2) = 3 */
	check_close(st.spread, 3, 0, "equal spread");
	/* one run: unreplicated, whatever the gap */
	assert_int_equal(stats_summary_abs(one, 1, &sb), 0);
	noise_step_judge(&sb, &sa, false, &st);
	assert_string_equal(st.verdict, "unreplicated");
	/* all zero: within noise, no share (difference_pct NaN) */
	assert_int_equal(stats_summary_abs(zeros, 3, &sa), 0);
	assert_int_equal(stats_summary_abs(zeros, 3, &sb), 0);
	noise_step_judge(&sa, &sb, true, &st);
	assert_string_equal(st.verdict, "within-noise");
	assert_true(isnan(st.difference_pct));
	check_close(st.gap, 0, 0, "zero gap");
}

/* Levels with one run: unreplicated (the GOGC arms of the GOMAXPROCS corpus). */
static void test_noise_unreplicated(void **state)
{
	/*
	 * gomaxprocs-scaling-20260816: blocks gg100 and gg800, tput and
	 * started_at from runs/<tag>/load.json; grouped by gogc
	 */
	static const struct row gg[] = {
		{"g1-n100-bgg100-gogc100", 1, "gg100", 467.45002353466043, "2026-08-16T09:55:08Z", 21, NAN, "gogc=100", NULL},
		{"g1-n100-bgg800-gogc800", 1, "gg800", 621.5753887789881, "2026-08-16T09:57:00Z", 22, NAN, "gogc=800", NULL},
		{"g4-n100-bgg100-gogc100", 4, "gg100", 1561.8288570658522, "2026-08-16T09:58:53Z", 23, NAN, "gogc=100", NULL},
		{"g4-n100-bgg800-gogc800", 4, "gg800", 2143.0991485167087, "2026-08-16T10:00:44Z", 24, NAN, "gogc=800", NULL},
	};
	/* the GOGC sweep at GOMAXPROCS 8 by gogc: one run a level, one block each */
	static const struct row gogc8[] = {
		{"g8-n100-bgogc100-gogc100", 100, "gogc100", 1805.138577387964, "2026-08-16T09:39:16Z", 13, NAN, NULL, NULL},
		{"g8-n100-bgogc400-gogc400", 400, "gogc400", 2280.1051957131544, "2026-08-16T09:41:15Z", 14, NAN, NULL, NULL},
		{"g8-n100-bgogc800-gogc800", 800, "gogc800", 2403.9683124863996, "2026-08-16T09:43:07Z", 15, NAN, NULL, NULL},
	};
	/* constructed: 3 runs at level 1, one at 2, one level only in group b */
	static const struct row mixed[] = {
		{"a1", 1, "1", 100, NULL, 1, NAN, "a", NULL},
		{"a2", 1, "2", 101, NULL, 2, NAN, "a", NULL},
		{"a3", 1, "3", 102, NULL, 3, NAN, "a", NULL},
		{"a4", 2, "1", 200, NULL, 4, NAN, "a", NULL},
		{"b1", 1, "1", 100, NULL, 5, NAN, "b", NULL},
		{"b2", 1, "2", 101, NULL, 6, NAN, "b", NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	noise_options_init(&o);
	build(&sel, gg, ARRAY_LEN(gg));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nsteps, 2);
	for (size_t i = 0; i < nz.nsteps; i++)
		assert_string_equal(nz.steps[i].verdict, "unreplicated");
	for (size_t i = 0; i < nz.nlevels; i++) {
		assert_string_equal(nz.levels[i].verdict, "unreplicated");
		assert_string_equal(nz.levels[i].why, "one run");
	}
	assert_string_equal(verdict_of(&nz, "gogc=100")->steps_unreplicated, "1→4");
	assert_string_equal(verdict_of(&nz, "gogc=800")->steps_text, "unreplicated: 1→4");
	assert_string_equal(nz.verdict, "unreplicated");
	assert_false(nz.resolved);
	/* each gogc group ran its two levels in one block: one-block */
	assert_string_equal(verdict_of(&nz, "gogc=100")->balance, "one-block");
	noise_release(&nz);
	selection_release(&sel);

	build(&sel, gogc8, ARRAY_LEN(gogc8));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(nz.verdict, "unreplicated");
	assert_string_equal(verdict_of(&nz, "")->steps_unreplicated, "100→400, 400→800");
	/* a level per block: the level never changes within a block */
	assert_string_equal(verdict_of(&nz, "")->balance, "not-rotated");
	assert_false(nz.counterbalanced);
	noise_release(&nz);
	selection_release(&sel);

	build(&sel, mixed, ARRAY_LEN(mixed));
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(nlevel_of(&nz, "a", 1)->verdict, "unreplicated");
	assert_string_equal(nlevel_of(&nz, "a", 1)->why, "a neighbouring level has one run");
	assert_string_equal(verdict_of(&nz, "a")->verdict, "unreplicated");
	/* one level: no step to judge */
	assert_string_equal(verdict_of(&nz, "b")->verdict, "single-level");
	assert_string_equal(verdict_of(&nz, "b")->steps_text, "no steps: one level");
	assert_string_equal(nlevel_of(&nz, "b", 1)->verdict, "single-level");
	/* the worst: unreplicated before single-level */
	assert_string_equal(nz.verdict, "unreplicated");
	noise_release(&nz);
	selection_release(&sel);
}

/*
 * The order of every factor on the capacity corpus, from the start times of
 * json/<tag>.json: sessions 100,300,500 in every block (not
 * counterbalanced); cfg mem,pg / pg,mem / mem,pg (ABA: counterbalanced);
 * target small and medium started within 17 s of each other, inside each
 * other's 90 s window: simultaneous.
 */
static void test_noise_order_capacity(void **state)
{
	static const char *const blocks[] = {"1", "2", "3"};
	static const char *const cfg_order[] = {"mem,pg", "pg,mem", "mem,pg"};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_factor *f;
	(void)state;
	build_cap36(&sel, false, NULL, NULL);
	cap_options(&o, "tput");
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_int_equal(nz.nfactors, 3);
	f = factor_of(&nz, "sessions");
	assert_true(f->is_level);
	assert_string_equal(f->balance, "no");
	check_contains(f->note, "sessions=100 is at position 1 in every block (1, 2, 3)",
		       "sessions note");
	for (size_t b = 0; b < 3; b++) {
		assert_string_equal(order_of(&nz, MPG, blocks[b])->levels, "100,300,500");
		assert_string_equal(field_order_of(&nz, "cfg", "target=medium", blocks[b])->levels,
				    cfg_order[b]);
		assert_string_equal(field_order_of(&nz, "cfg", "target=small", blocks[b])->levels,
				    cfg_order[b]);
		assert_string_equal(field_order_of(&nz, "target", "cfg=mem", blocks[b])->levels,
				    "medium+small");
		assert_string_equal(field_order_of(&nz, "target", "cfg=pg", blocks[b])->levels,
				    "medium+small");
	}
	f = factor_of(&nz, "cfg");
	assert_false(f->is_level);
	assert_string_equal(f->balance, "yes");
	f = factor_of(&nz, "target");
	assert_string_equal(f->balance, "simultaneous");
	check_contains(f->note, "same time", "target note");
	/* the level order is not counterbalanced, so the whole is not */
	assert_false(nz.counterbalanced);
	assert_false(verdict_of(&nz, MPG)->counterbalanced);
	noise_release(&nz);

	/*
	 * Without durations only equal start times are simultaneous: block 1
	 * (both at 03:24:28) still reads medium+small, blocks 2 and 3 (8 and 12
	 * s apart) medium,small, so medium is first in every block where the
	 * order is known: not counterbalanced. The 90 s window is what says two
	 * machines ran at once.
	 */
	o.duration_extra = -1;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_string_equal(field_order_of(&nz, "target", "cfg=mem", "1")->levels, "medium+small");
	assert_string_equal(field_order_of(&nz, "target", "cfg=mem", "2")->levels, "medium,small");
	assert_string_equal(factor_of(&nz, "target")->balance, "no");
	check_contains(factor_of(&nz, "target")->note, "target=medium is at position 1", "note");
	/* cfg's blocks are minutes apart: the same without durations */
	assert_string_equal(factor_of(&nz, "cfg")->balance, "yes");
	noise_release(&nz);
	selection_release(&sel);
}

/* Constructed orders at the boundaries of the order rule (one group field, cfg). */
static void test_noise_order_boundary(void **state)
{
	/* start times: block 1 at 00:00, block 2 at 01:00; each run 60 s */
	static const struct {
		const char *cfg, *block, *start;
	} aba[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:02:00Z"},
		   {"B", "2", "2026-01-01T01:00:00Z"}, {"A", "2", "2026-01-01T01:02:00Z"},
		   {"A", "3", "2026-01-01T02:00:00Z"}, {"B", "3", "2026-01-01T02:02:00Z"}},
	  abab[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:02:00Z"},
		    {"A", "2", "2026-01-01T01:00:00Z"}, {"B", "2", "2026-01-01T01:02:00Z"}},
	  /*
	   * B starts when A's 60 s end (block 1: after it, A,B) or A starts 1 s
	   * before B's end (block 2: simultaneous, B+A): A is first in both
	   */
	  edge[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:01:00Z"},
		    {"B", "2", "2026-01-01T01:00:00Z"}, {"A", "2", "2026-01-01T01:00:59Z"}},
	  /* two machines at once in both blocks */
	  simul[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:00:10Z"},
		     {"A", "2", "2026-01-01T01:00:00Z"}, {"B", "2", "2026-01-01T01:00:00Z"}},
	  single[] = {{"A", "1", "2026-01-01T00:00:00Z"}, {"B", "1", "2026-01-01T00:02:00Z"}};
	static const char *const fields[] = {"cfg", NULL};
	const struct {
		const void *rows;
		size_t n;
		const char *balance, *order2;
	} cases[] = {
		{aba, ARRAY_LEN(aba), "yes", "B,A"},
		{abab, ARRAY_LEN(abab), "no", "A,B"},
		{edge, ARRAY_LEN(edge), "no", "B+A"},
		{simul, ARRAY_LEN(simul), "simultaneous", "A+B"},
		{single, ARRAY_LEN(single), "one-block", NULL},
	};
	(void)state;
	for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
		const struct {
			const char *cfg, *block, *start;
		} *in = cases[c].rows;
		struct row rows[8];
		char groups[8][16];
		struct selection sel;
		struct noise_options o;
		struct noise nz;
		for (size_t i = 0; i < cases[c].n; i++) {
			snprintf(groups[i], sizeof(groups[i]), "cfg=%s", in[i].cfg);
			rows[i] = (struct row){in[i].cfg, 1, in[i].block, 100, in[i].start,
					       (int64_t)i + 1, NAN, groups[i], NULL};
		}
		build(&sel, rows, cases[c].n);
		sel.nextra = 2;
		for (size_t i = 0; i < cases[c].n; i++) {
			sel.runs[i].extra = calloc(2, sizeof(char *));
			assert_non_null(sel.runs[i].extra);
			sel.runs[i].extra[0] = dup_or_null(in[i].cfg);
			sel.runs[i].extra[1] = dup_or_null("60");
		}
		noise_options_init(&o);
		o.factors = fields;
		o.duration_extra = 1;
		assert_int_equal(noise_compute(&sel, &o, &nz), 0);
		if (strcmp(factor_of(&nz, "cfg")->balance, cases[c].balance))
			fail_msg("case %zu: cfg is '%s', expected '%s' (%s)", c,
				 factor_of(&nz, "cfg")->balance, cases[c].balance,
				 factor_of(&nz, "cfg")->note);
		if (cases[c].order2)
			assert_string_equal(field_order_of(&nz, "cfg", "", "2")->levels,
					    cases[c].order2);
		if (c == 2)
			assert_string_equal(field_order_of(&nz, "cfg", "", "1")->levels, "A,B");
		noise_release(&nz);
		selection_release(&sel);
	}
}

/*
 * `noise --metric err` on the capacity corpus: most medians are 0, so the
 * relative figures are NaN and the absolute ones carry the range; nothing
 * is refused. err is lower-is-better (canonical), which turns the bursts
 * around. Values: results.tsv err; python3 for the differences.
 */
static void test_noise_zero_median(void **state)
{
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	const struct noise_level *lv;
	const struct noise_burst *b;
	(void)state;
	build_cap36(&sel, true, NULL, NULL);
	cap_options(&o, "err");
	assert_true(o.metric.lower_is_better);
	assert_int_equal(o.metric.kind, FIELD_KIND_FRACTION);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	/* medians 0: medium 3 + 3 levels, small mem 100 and 300, small pg 100 */
	assert_int_equal(nz.zero_median_levels, 9);
	lv = nlevel_of(&nz, MPG, 100);
	check_close(lv->s.median, 0, 0, "median 0");
	assert_true(isnan(lv->s.range_pct));
	check_close(lv->s.range_abs, 0, 0, "range_abs 0");
	assert_true(isnan(lv->max_abs_dev_pct));
	assert_true(isnan(cell_of(&nz, MPG, 100, "1")->deviation_pct));
	lv = nlevel_of(&nz, SPG, 300);
	/* python3: 0.006548918436197659 - 0.0008007687379884689 */
	check_close(lv->s.range_abs, 0.005748149698209189, REL, "small pg 300 range_abs");
	/* python3: (0.006548918436197659 - 0.0008007687379884689) / 0.001199040767386091 * 100 */
	check_close(lv->s.range_pct, 479.39568483064636, 1e-10, "small pg 300 range_pct");
	/* python3: 0.006548918436197659 - 0.001199040767386091 */
	check_close(cell_of(&nz, SPG, 300, "3")->deviation_abs, 0.005349877668811568, REL,
		    "deviation_abs");
	/*
	 * small pg: 0, 0, 0 -> 0.0008 .. 0.0065 -> 0.017 .. 0.021: both steps
	 * resolved (the write-up's failure knee between 100 and 300 sessions).
	 * A pooled-SD rule would not resolve the first, python3:
	 * sqrt((2 * variance(A) + 2 * variance(B)) / 4) = 0.0022697473544000366
	 * > d = 0.001199040767386091 (the rule's justification, noise.h)
	 */
	check_close(step_of(&nz, SPG, 100)->gap, 0.0008007687379884689, REL, "err gap 100->300");
	assert_string_equal(step_of(&nz, SPG, 100)->verdict, "resolved");
	assert_true(isnan(step_of(&nz, SPG, 100)->difference_pct));
	assert_string_equal(step_of(&nz, SPG, 100)->effect, "worse");
	check_close(step_of(&nz, SPG, 300)->gap, 0.010217349824094505, REL, "err gap 300->500");
	/* small mem 300 -> 500: 0, 0, 0 against 0, 0.0012, 0.0016: the ranges touch at 0 */
	check_close(step_of(&nz, SMEM, 300)->gap, 0, 0, "err touching gap");
	assert_string_equal(step_of(&nz, SMEM, 300)->verdict, "within-noise");
	/* medium: nothing changes */
	assert_string_equal(verdict_of(&nz, MPG)->verdict, "within-noise");
	assert_string_equal(step_of(&nz, MPG, 100)->change, "none");
	/*
	 * bursts, lower is better: small pg 300's first run (block 1, 0.00080)
	 * has fewer errors than the later median, python3:
	 * statistics.median([0.001199040767386091, 0.006548918436197659]) =
	 * 0.0038739796017918746 >= 1.5 * 0.00080: a burst, ratio 0.20670442808167613
	 */
	b = burst_of(&nz, SPG, 300);
	check_close(b->later_median, 0.0038739796017918746, REL, "err later median");
	check_close(b->ratio, 0.20670442808167613, REL, "err ratio");
	assert_true(b->burst);
	/* a later median of 0: no ratio, no burst */
	b = burst_of(&nz, MPG, 100);
	assert_true(isnan(b->ratio));
	assert_false(b->burst);
	/* the drift leaves the 0-median levels out: medium pg has no drift row */
	for (size_t i = 0; i < nz.ndrifts; i++)
		assert_string_not_equal(nz.drifts[i].group, MPG);
	noise_release(&nz);
	selection_release(&sel);
}

/* A latency burst reads low: the first run is better when lower is better. */
static void test_noise_burst_lower(void **state)
{
	/* by hand: later median 150 = 1.5 * 100 exactly: a burst; 149 is not */
	static const struct row rows[] = {
		{"first", 1, "1", 100, "2026-01-01T00:00:00Z", 1, NAN, NULL, NULL},
		{"second", 1, "2", 150, "2026-01-01T00:01:00Z", 2, NAN, NULL, NULL},
		{"third", 1, "3", 150, "2026-01-01T00:02:00Z", 3, NAN, NULL, NULL},
	};
	struct selection sel;
	struct noise_options o;
	struct noise nz;
	(void)state;
	build(&sel, rows, ARRAY_LEN(rows));
	noise_options_init(&o);
	/* higher is better: 100 / 150 is no burst */
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(nz.bursts[0].burst);
	noise_release(&nz);
	field_metric_meaning("p50_ms", NULL, false, &o.metric);
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_true(nz.bursts[0].burst);
	check_close(nz.bursts[0].ratio, 100.0 / 150.0, REL, "ratio");
	noise_release(&nz);
	sel.runs[1].metric = sel.runs[2].metric = 149;
	assert_int_equal(noise_compute(&sel, &o, &nz), 0);
	assert_false(nz.bursts[0].burst);
	noise_release(&nz);
	selection_release(&sel);
}

/* ---------------------------------------------------------------------- */
/* sweep: what applies to a metric and a level; zeros                      */
/* ---------------------------------------------------------------------- */

/* `sweep --metric err` (small pg, blocks 1-3): no error, no speedup, absolute ranges. */
static void test_sweep_zero_median(void **state)
{
	struct selection sel;
	struct sweep_options o;
	struct sweep sw;
	(void)state;
	build_cap36(&sel, true, "small", "pg");
	sweep_options_init(&o);
	sweep_options_fields(&o, "err", "sessions", NULL, false);
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
	build_cap36(&sel, false, "medium", "pg");
	sweep_options_init(&o);
	sweep_options_fields(&o, "tput", "sessions", NULL, false);
	assert_false(o.level_counts_workers);
	assert_int_equal(sweep_compute(&sel, &o, &sw), 0);
	assert_false(sw.scaling_applies);
	assert_true(sw.per_unit_applies);
	check_contains(sw.scaling_why, "'sessions' does not count threads", "why");
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
	static const double p50[] = {258.949, 124.152, 52.41, 35.472, 36.472, 52.314,
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
	assert_int_equal(o.metric.kind, FIELD_KIND_TIME);
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
	assert_true(sw.has_fit);
	check_close(sw.fit.factor, 1.9535102767403396, 1e-10, "fit factor");
	check_close(sw.fit.factor_se, 0.14032558447358018, 1e-9, "fit SE");
	check_close(sw.fit.r2, 0.9775030643121336, 1e-10, "fit r2");
	sweep_release(&sw);
	selection_release(&sel);
}

/* Kinds and directions: canonical, inferred from the name, given, assumed. */
static void test_metric_meaning(void **state)
{
	static const struct {
		const char *name;
		enum field_kind kind;
		bool lower, kind_assumed, direction_assumed;
	} want[] = {
		{"tput", FIELD_KIND_RATE, false, false, false},
		{"p99_ms", FIELD_KIND_TIME, true, false, false},
		{"err", FIELD_KIND_FRACTION, true, false, false},
		{"patch_rate", FIELD_KIND_FRACTION, false, false, false},
		{"gen_cpu_pct", FIELD_KIND_CPU, true, false, false},
		{"load_rss_kb", FIELD_KIND_MEMORY, true, false, false},
		{"sessions", FIELD_KIND_COUNT, false, false, true},
		/* capacity corpus columns (results.tsv, system.tsv) */
		{"xact_per_s", FIELD_KIND_RATE, false, false, false},
		{"load_app_kb", FIELD_KIND_MEMORY, true, false, false},
		{"idle_mem_avail_kb", FIELD_KIND_MEMORY, false, false, false},
		{"app_cpu_pct", FIELD_KIND_CPU, true, false, false},
		{"machine_busy_cores", FIELD_KIND_CPU, true, false, false},
		{"p50", FIELD_KIND_TIME, true, false, false},
		/* the write-up tables */
		{"qps", FIELD_KIND_RATE, false, false, false},
		{"ns_per_op", FIELD_KIND_TIME, true, false, false},
		{"Gbps", FIELD_KIND_RATE, false, false, false},
		{"efficiency", FIELD_KIND_FRACTION, false, false, false},
		{"avg_MHz", FIELD_KIND_RATE, false, true, true},
		/* a generator-record key: no kind, but an error word */
		{"outcomes.transport_error", FIELD_KIND_RATE, true, true, false},
		{"error_count", FIELD_KIND_COUNT, true, false, false},
	};
	struct metric_meaning m;
	enum field_kind k = FIELD_KIND_TIME;
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		field_metric_meaning(want[i].name, NULL, false, &m);
		if (m.kind != want[i].kind || m.lower_is_better != want[i].lower ||
		    m.kind_assumed != want[i].kind_assumed ||
		    m.direction_assumed != want[i].direction_assumed)
			fail_msg("%s: kind %s lower %d assumed %d/%d (%s; %s)", want[i].name,
				 field_kind_name(m.kind), m.lower_is_better, m.kind_assumed,
				 m.direction_assumed, m.kind_from, m.direction_from);
	}
	/* --metric-kind time: lower is better by the kind, said as the source */
	field_metric_meaning("avg_MHz", &k, false, &m);
	assert_int_equal(m.kind, FIELD_KIND_TIME);
	assert_true(m.lower_is_better);
	assert_false(m.kind_assumed);
	assert_string_equal(m.kind_from, "--metric-kind");
	/* --lower-is-better wins over the kind */
	field_metric_meaning("qps", NULL, true, &m);
	assert_true(m.lower_is_better);
	assert_string_equal(m.direction_from, "--lower-is-better");
	/* every canonical field has a kind; the quantities a direction */
	for (size_t i = 0; i < field_canonical_count; i++) {
		const struct field_info *f = &field_canonical[i];
		if (f->type == FIELD_REAL && f->kind == FIELD_KIND_LABEL)
			fail_msg("canonical %s is a number without a kind", f->name);
	}
	assert_int_equal(field_kind_parse("fraction", &k), 0);
	assert_int_equal(k, FIELD_KIND_FRACTION);
	assert_int_equal(field_kind_parse("workers", &k), -1);
	assert_int_equal(field_kind_parse("label", &k), -1);
	assert_true(field_counts_workers("gomaxprocs"));
	assert_true(field_counts_workers("cores"));
	assert_true(field_counts_workers("N"));
	assert_true(field_counts_workers("Threads"));
	assert_false(field_counts_workers("sessions"));
	assert_false(field_counts_workers("app_cores"));
	assert_false(field_counts_workers("conversations"));
}

/* ---------------------------------------------------------------------- */
/* compare                                                                 */
/* ---------------------------------------------------------------------- */

static void test_compare_defaults(void **state)
{
	struct compare_options o;
	(void)state;
	compare_options_init(&o);
	assert_true(COMPARE_ALPHA == 0.05);
	assert_true(o.alpha == 0.05);
	assert_true(o.power == 0.8);
	assert_false(o.has_effect_bound);
	assert_false(o.lower_is_better);
	assert_int_equal(o.resamples, COMPARE_RESAMPLES);
	assert_int_equal(o.seed, COMPARE_SEED);
}

/*
 * The verdict rule (compare.h) is checked on real arms with SciPy 1.10.1
 * numbers (/usr/bin/python3: scipy.stats.ttest_ind(ln b, ln a,
 * equal_var=False), ttest_rel, mannwhitneyu(method='exact')); runs needed
 * with python3's statistics.NormalDist: z = inv_cdf(0.975) + inv_cdf(0.8)
 * = 2.801585218112968, n = ceil(2 z^2 (sd / ln(1 + effect))^2) with sd the
 * pooled sd of ln values (numpy var ddof=1), never below 3.
 */
#define T_REL 1e-9

/* The real GOMAXPROCS 1 vs 2 arms: the rank test cannot reach 0.05, Welch can. */
static void test_compare_three_vs_three(void **state)
{
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c), 0);
	/* by hand: 2 / C(6, 3) = 2 / 20 = 0.1 */
	check_close(c.test.min_p, 0.1, REL, "min_p 3 vs 3");
	assert_true(c.test.exact);
	/* every b above every a: U_a = 0, the most extreme outcome: p = min_p = 0.1 */
	check_close(c.test.u, 0, 0, "u");
	check_close(c.test.p, 0.1, REL, "p");
	assert_true(c.log_scale);
	/* scipy: t = 51.24555917982209, df 3.5957788381471225, p 2.7863725359929637e-06 */
	assert_true(c.o.has_t);
	assert_string_equal(c.o.test, "welch");
	check_close(c.o.t.t, 51.24555917982209, T_REL, "welch t");
	check_close(c.o.t.df, 3.5957788381471225, T_REL, "welch df");
	check_close(c.o.t.p, 2.7863725359929637e-06, T_REL, "welch p");
	check_close(c.o.estimate, 1.799676871033238, T_REL, "gm ratio");
	check_close(c.o.lo, 1.7407371669544456, T_REL, "gm lo");
	check_close(c.o.hi, 1.8606122174082043, T_REL, "gm hi");
	/* effect 78.8% against spreads 2.1% and 3.3%: separated, Welch p < 0.05 */
	assert_true(c.separated);
	assert_string_equal(c.verdict, "faster");
	assert_string_equal(c.o.method, "welch+separation");
	check_contains(c.reason, "Welch t on ln values: p = 2.79e-06 < alpha 0.05", "reason");
	check_contains(c.reason, "separation", "reason");
	/* 865.4682448787189 / 484.13466860190584 */
	check_close(c.ratio.ratio, 1.7876601305542446, REL, "ratio");
	/* spread: python3 (max / min - 1) * 100 */
	check_close(c.a.spread_pct, 2.111048229622514, REL, "spread a");
	check_close(c.b.spread_pct, 3.2909418205539165, REL, "spread b");
	check_close(c.spread_a, c.a.spread_pct, 0, "spread a (log)");
	/* python3: effect (max(r, 1/r) - 1) * 100; effect / spread */
	check_close(c.observed_effect, 78.76601305542446, REL, "observed effect");
	check_close(c.effect_over_spread_a, 78.76601305542446 / 2.111048229622514, 1e-12,
		    "effect / spread a");
	/*
	 * python3: cv = sqrt((stdev(a)/mean(a))**2 + (stdev(b)/mean(b))**2) / 2)
	 *   = 0.014037410757344099 (kept as a fact); numpy pooled sd of ln values
	 *   0.014043535355627714; 2 z^2 (sd / ln 1.78766)^2 = 0.00917 -> 1, raised to 3
	 */
	check_close(c.cv, 0.014037410757344099, 1e-10, "cv");
	check_close(c.o.sd, 0.014043535355627714, 1e-10, "pooled sd of ln");
	check_close(c.effect_pct, 78.76601305542446, REL, "effect_pct");
	check_close(c.rank_floor, 4, 0, "rank floor");
	check_close(c.runs_needed, 3, 0, "runs needed (the floor of 3)");
	assert_true(isnan(c.spread_over_bound_a));
	assert_true(isnan(c.spread_over_bound_b));
}

static void test_compare_separated(void **state)
{
	static const double a[] = {100, 101, 102, 103, 104};
	static const double b[] = {110, 111, 112, 113, 114};
	static const double mixed_a[] = {1, 3, 5, 7, 9};
	static const double mixed_b[] = {2, 4, 6, 8, 10};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	assert_true(c.test.exact);
	/* by hand: C(10, 5) = 252; U_a = 0 is the most extreme of 252 splits: p = 2 / 252 */
	check_close(c.test.p, 2.0 / 252.0, REL, "p 5 vs 5");
	check_close(c.test.min_p, 2.0 / 252.0, REL, "min_p 5 vs 5");
	check_close(c.test.u, 0, 0, "u 5 vs 5");
	/* scipy: Welch t 9.975143739315252, p 9.196632084492697e-06; effect 9.8% > 4%, 3.6% */
	check_close(c.o.t.p, 9.196632084492697e-06, T_REL, "welch p");
	assert_string_equal(c.verdict, "faster");
	assert_string_equal(c.o.method, "welch+separation");
	/* 112 / 102 */
	check_close(c.ratio.ratio, 112.0 / 102.0, REL, "ratio");
	/* b lower than a: slower (higher is better) */
	assert_int_equal(compare_arms(b, 5, a, 5, &o, &c), 0);
	assert_string_equal(c.verdict, "slower");
	/* lower is better flips both */
	o.lower_is_better = true;
	assert_int_equal(compare_arms(b, 5, a, 5, &o, &c), 0);
	assert_string_equal(c.verdict, "faster");
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	assert_string_equal(c.verdict, "slower");
	o.lower_is_better = false;

	/*
	 * interleaved: R_a = 1 + 3 + 5 + 7 + 9 = 25, U_a = 25 - 15 = 10;
	 * python3: c = sum(1 for s in itertools.combinations(range(1, 11), 5)
	 *                  if sum(s) <= 25) = 87; p = 2 * 87 / 252 = 0.6904761904761905.
	 * Welch (scipy) p = 0.5779000077706322: with no bound, nothing is ruled
	 * out: unresolvable (no longer no-difference)
	 */
	assert_int_equal(compare_arms(mixed_a, 5, mixed_b, 5, &o, &c), 0);
	check_close(c.test.u, 10, 0, "u interleaved");
	check_close(c.test.p, 0.6904761904761905, REL, "p interleaved");
	check_close(c.o.t.p, 0.5779000077706322, T_REL, "welch p interleaved");
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "p = 0.578 >= alpha 0.05", "reason");
	/*
	 * runs needed from the observed effect 20% (6 / 5): numpy pooled sd of ln
	 * 0.7615234329157817, 2 z^2 (sd / ln 1.2)^2 = 273.8597279716149 -> 274
	 */
	check_close(c.runs_needed, 274, 0, "runs needed interleaved");
	check_contains(c.reason, "runs needed per arm to resolve a 20% effect: 274", "reason");
}

/* The effect bound: spread / bound, the equivalence verdict, the rank confirmation. */
static void test_compare_effect_bound(void **state)
{
	/* spreads by hand: 124 / 100 - 1 = 24%, 180 / 125 - 1 = 44% */
	static const double a[] = {100, 106, 112, 118, 124};
	static const double b[] = {125, 130, 140, 150, 180};
	/* a tight A/A: spreads 2.0%, 1.6% */
	static const double eq_a[] = {1000, 1010, 990, 1005, 995};
	static const double eq_b[] = {1002, 1008, 992, 1003, 997};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	/*
	 * effect 140 / 112 - 1 = 25% exceeds a's spread (24%), not b's (44%):
	 * not separated; scipy Welch p 0.013159417417012433 and Mann-Whitney
	 * p = 2 / 252 both below 0.05: faster by welch+rank
	 */
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	assert_false(c.separated);
	check_close(c.o.t.p, 0.013159417417012433, T_REL, "welch p");
	assert_string_equal(c.verdict, "faster");
	assert_string_equal(c.o.method, "welch+rank");
	check_contains(c.reason, "the rank test agrees: Mann-Whitney p = 0.00794", "reason");

	o.has_effect_bound = true;
	o.effect_bound_pct = 4.7;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.a.spread_pct, 24.0, 1e-12, "spread a");
	check_close(c.b.spread_pct, 44.0, 1e-12, "spread b");
	/* by hand: 24 / 4.7 = 5.106382978723404, 44 / 4.7 = 9.361702127659575 (the
	 * seed's 5.1x, 9.4x) */
	check_close(c.spread_over_bound_a, 5.106382978723404, 1e-12, "spread / bound a");
	check_close(c.spread_over_bound_b, 9.361702127659575, 1e-12, "spread / bound b");
	/* the data resolve an effect far larger than the bound: still faster */
	assert_string_equal(c.verdict, "faster");
	check_close(c.effect_pct, 4.7, 0, "effect = bound");

	/*
	 * A/A inside the bound: scipy Welch p 0.9292836210024747, the interval
	 * of the ratio [0.9900411747447048, 1.0108875915253606] lies inside
	 * [0.953, 1.047]: no-difference (equivalence)
	 */
	assert_int_equal(compare_arms(eq_a, 5, eq_b, 5, &o, &c), 0);
	check_close(c.o.lo, 0.9900411747447048, T_REL, "equivalence lo");
	check_close(c.o.hi, 1.0108875915253606, T_REL, "equivalence hi");
	assert_string_equal(c.verdict, "no-difference");
	assert_string_equal(c.o.method, "equivalence");
	check_contains(c.reason, "lies inside 1 -+ 4.7%", "reason");
	/* a bound of 1% is inside the interval's reach (1.0109 > 1.01): unresolvable */
	o.effect_bound_pct = 1.0;
	assert_int_equal(compare_arms(eq_a, 5, eq_b, 5, &o, &c), 0);
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "is not inside 1 -+ 1%", "reason");
	/* without a bound nothing is ruled out */
	o.has_effect_bound = false;
	assert_int_equal(compare_arms(eq_a, 5, eq_b, 5, &o, &c), 0);
	assert_string_equal(c.verdict, "unresolvable");
}

/*
 * Issue 13's three clear differences on real data (SciPy 1.10.1, Welch on
 * ln values): each reads faster, decided by Welch and the separation.
 */
static void test_compare_clear_cases(void **state)
{
	/* capacity corpus: subcorpus core and e2-medium cfg mem, 100 sessions, blocks 1-3 */
	static const double core[] = {299.3, 288.9, 299.7};
	static const double medium_mem100[] = {362.57432778567005, 322.54272034273805,
					       344.97474664499254};
	/* gomaxprocs-affinity runs.tsv, arm shard, procs 1 and 8 */
	static const double procs1[] = {1796.2, 1785.1, 1819.7};
	static const double procs8[] = {2415.3, 2384.0, 2383.2};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	/* e2-small vs e2-medium, pg, 300 sessions: 4.0655x, ranges disjoint,
	 * t = 21.662549178758397, df 2.2303988629556724, p 0.0012247050963697312 */
	assert_int_equal(compare_arms(cap_small300, 3, cap_medium300, 3, &o, &c), 0);
	check_close(c.ratio.ratio, 261.4928259356003 / 64.32009579045246, 1e-12, "ratio 1");
	check_close(c.o.t.p, 0.0012247050963697312, T_REL, "p 1");
	assert_true(c.a.max < c.b.min);
	assert_string_equal(c.verdict, "faster");
	assert_string_equal(c.o.method, "welch+separation");
	check_contains(c.reason, "p = 0.00122 < alpha 0.05 (t = 21.66, df = 2.23)", "reason 1");
	check_contains(c.reason, "the effect 307% exceeds both arms' within-arm spread",
		       "reason 1");
	/* affinity, 8 processes vs 1: 2384 / 1796.2 = 1.3272, t 39.76351262523003,
	 * df 3.7735188787072813, p 4.3250210080377405e-06 */
	assert_int_equal(compare_arms(procs1, 3, procs8, 3, &o, &c), 0);
	check_close(c.ratio.ratio, 2384.0 / 1796.2, 1e-12, "ratio 2");
	check_close(c.o.t.t, 39.76351262523003, T_REL, "t 2");
	assert_string_equal(c.verdict, "faster");
	assert_string_equal(c.o.method, "welch+separation");
	/* x86 core vs e2-medium (memory, 100 sessions): b/a 344.97474664499254 / 299.3
	 * = 1.1526, bootstrap within the range-end ratios [1.0762, 1.2550], p 0.03700453729196605;
	 * effect 15.3% > spreads 3.74% and 12.4% */
	assert_int_equal(compare_arms(core, 3, medium_mem100, 3, &o, &c), 0);
	check_close(c.ratio.ratio, 344.97474664499254 / 299.3, 1e-12, "ratio 3");
	assert_true(c.ratio.lo >= 322.54272034273805 / 299.7 - 1e-12);
	assert_true(c.ratio.hi <= 362.57432778567005 / 288.9 + 1e-12);
	check_close(c.o.t.p, 0.03700453729196605, T_REL, "p 3");
	assert_true(c.separated);
	assert_string_equal(c.verdict, "faster");
	/* at alpha 0.01 the same data are not enough: unresolvable, with runs needed */
	o.alpha = 0.01;
	assert_int_equal(compare_arms(core, 3, medium_mem100, 3, &o, &c), 0);
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "p = 0.037 >= alpha 0.01", "reason at 0.01");
}

/*
 * Welch resolves it, neither confirmation holds (3 vs 3, found by a random
 * search): unresolvable, and the runs needed is raised to the rank floor.
 */
static void test_compare_unconfirmed(void **state)
{
	static const double a[] = {96, 104, 101};
	static const double b[] = {122, 114, 108};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	assert_int_equal(compare_arms(a, 3, b, 3, &o, &c), 0);
	/* scipy: t = 3.139491455101105, p = 0.04231270256186038 < 0.05 */
	check_close(c.o.t.p, 0.04231270256186038, T_REL, "p");
	/* by hand: effect 114 / 101 - 1 = 12.87%, b's spread 122 / 108 - 1 = 12.96% */
	check_close(c.observed_effect, (114.0 / 101.0 - 1) * 100, 1e-12, "effect");
	check_close(c.b.spread_pct, (122.0 / 108.0 - 1) * 100, 1e-12, "spread b");
	assert_false(c.separated);
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "p = 0.0423 < alpha 0.05, but the effect 12.9% does not exceed",
		       "reason");
	check_contains(c.reason, "(these sizes cannot reach alpha)", "reason");
	/*
	 * numpy pooled sd of ln 0.05181836545594823: 2 z^2 (sd / ln(114 / 101))^2
	 * = 2.875246631931387 -> 3, raised to the rank floor 4
	 */
	check_close(c.o.sd, 0.05181836545594823, 1e-10, "sd");
	check_close(c.runs_needed, 4, 0, "runs needed (rank floor)");
}

/*
 * A synthetic table shaped like the lock-contention A/B of the seed ("the
 * within-arm spread is 24-44% against a prize the profile bounds at 4.7%";
 * the paired runs read 2,726 vs 2,733): 3 vs 3 runs, spreads 24% and 37%.
 */
static void test_compare_lock_contention_null(void **state)
{
	static const double control[] = {2500, 2726, 3100};
	static const double treatment[] = {2300, 2733, 3151};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	o.has_effect_bound = true;
	o.effect_bound_pct = 4.7;
	assert_int_equal(compare_arms(control, 3, treatment, 3, &o, &c), 0);
	/* by hand: 3100 / 2500 - 1 = 24%, 3151 / 2300 - 1 = 37% */
	check_close(c.a.spread_pct, 24, 1e-12, "spread a");
	check_close(c.b.spread_pct, 37, 1e-12, "spread b");
	/* by hand: 24 / 4.7 = 5.106..., 37 / 4.7 = 7.872... */
	check_close(c.spread_over_bound_a, 24 / 4.7, 1e-12, "a / bound");
	check_close(c.spread_over_bound_b, 37 / 4.7, 1e-12, "b / bound");
	/* scipy: t = -0.19473567053133983, df 3.54276936372557, p 0.8562470641772728 */
	check_close(c.o.t.t, -0.19473567053133983, T_REL, "t");
	check_close(c.o.t.df, 3.54276936372557, T_REL, "df");
	check_close(c.o.t.p, 0.8562470641772728, T_REL, "p");
	assert_string_equal(c.verdict, "unresolvable");
	assert_string_equal(c.o.method, "none");
	/*
	 * runs needed by hand: numpy pooled sd of ln values 0.1352177664755961;
	 * 2 * 2.801585218112968^2 * (0.1352177664755961 / ln 1.047)^2
	 * = 136.06063542447905 -> 137 per arm
	 */
	check_close(c.o.sd, 0.1352177664755961, 1e-10, "sd of ln");
	check_close(c.runs_needed, 137, 0, "runs needed");
	check_contains(c.reason, "p = 0.856 >= alpha 0.05", "reason p");
	check_contains(c.reason, "spreads are 5.1x (a), 7.9x (b) the effect bound 4.7%",
		       "reason spread / bound");
	check_contains(c.reason, "effect 0.257% against within-arm spreads 24% (a), 37% (b)",
		       "reason effect / spread");
	check_contains(c.reason, "runs needed per arm to resolve a 4.7% effect: 137",
		       "reason runs");
}

static void test_compare_runs_needed(void **state)
{
	static const double a[] = {100, 102, 98, 101, 99};
	static const double b[] = {110, 112, 108, 111, 109};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	o.has_effect_bound = true;
	/*
	 * numpy: the pooled sd of ln values = 0.015111613074689004
	 *   effect 1%:   2 z^2 (sd / ln 1.01)^2  = 36.206311006672664 -> 37
	 *   effect 0.5%: 2 z^2 (sd / ln 1.005)^2 = 144.10739710562012 -> 145
	 *   effect 4.7%: 1.73... -> 2, raised to 3
	 */
	o.effect_bound_pct = 1.0;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.o.sd, 0.015111613074689004, 1e-10, "pooled sd of ln");
	check_close(c.runs_needed, 37, 0, "runs needed at 1%");
	o.effect_bound_pct = 0.5;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.runs_needed, 145, 0, "runs needed at 0.5%");
	o.effect_bound_pct = 4.7;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.runs_needed, COMPARE_MIN_RUNS, 0, "runs needed at 4.7% (floor)");
	assert_true(COMPARE_MIN_RUNS == 3);

	/*
	 * rank-test floor: the smallest k with 2 / C(2k, k) <= alpha.
	 *   alpha 0.05: 2 / C(6, 3) = 0.1 > 0.05, 2 / C(8, 4) = 2 / 70 = 0.0286 <= 0.05 -> 4
	 *   alpha 0.01: 2 / 70 = 0.0286 > 0.01, 2 / C(10, 5) = 2 / 252 = 0.0079 <= 0.01 -> 5
	 *   alpha 0.2:  2 / C(4, 2) = 0.333 > 0.2, 2 / C(6, 3) = 0.1 <= 0.2 -> 3
	 */
	check_close(c.rank_floor, 4, 0, "floor at 0.05");
	o.has_effect_bound = false;
	o.alpha = 0.01;
	/* no bound: the observed effect 110 / 100 - 1 = 10% */
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.effect_pct, 10, 1e-12, "observed effect");
	check_close(c.rank_floor, 5, 0, "floor at 0.01");
	check_close(c.runs_needed, 3, 0, "runs needed at 0.01 (floor)");
	o.has_effect_bound = true;
	o.effect_bound_pct = 1.0;
	/*
	 * python3 z = inv_cdf(0.995) + inv_cdf(0.8) = 3.4174505371218142:
	 * 2 z^2 (0.015111613074689004 / ln 1.01)^2 = 53.87... -> 54
	 */
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.runs_needed, 54, 0, "runs needed at 1%, alpha 0.01");
	o.has_effect_bound = false;
	o.alpha = 0.2;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.rank_floor, 3, 0, "floor at 0.2");
	/* "<= alpha" at the boundary: 2 / C(6, 3) = 0.1 reaches alpha 0.1 -> 3 */
	o.alpha = 0.1;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.rank_floor, 3, 0, "floor at 0.1");
	/* and 2 / C(8, 4) = 2 / 70 reaches alpha 2 / 70 -> 4 */
	o.alpha = 2.0 / 70.0;
	assert_int_equal(compare_arms(a, 5, b, 5, &o, &c), 0);
	check_close(c.rank_floor, 4, 0, "floor at 2/70");

	/* one run per arm: no spread, no interval, no test; runs_needed not computable */
	o.alpha = 0.05;
	assert_int_equal(compare_arms(a, 1, b, 1, &o, &c), 0);
	assert_true(isnan(c.cv));
	assert_true(isnan(c.runs_needed));
	assert_true(isnan(c.ratio.lo) && isnan(c.ratio.hi));
	assert_false(c.o.has_t);
	assert_true(isnan(c.o.lo) && isnan(c.o.hi));
	check_close(c.o.estimate, 1.1, 1e-12, "1 vs 1: the ratio of the runs");
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "one run in each arm: no within-arm spread", "reason 1 vs 1");
	/* one run in arm a only: still no interval; the runs needed from b's spread */
	assert_int_equal(compare_arms(a, 1, b, 5, &o, &c), 0);
	assert_true(isnan(c.ratio.lo));
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "one run in arm a", "reason 1 vs 5");
	assert_false(isnan(c.runs_needed));

	/* an empty arm is an error naming it */
	assert_int_equal(compare_arms(a, 5, b, 0, &o, &c), ERR_DATA);
	check_msg("arm b");
}

/*
 * Metrics with zeros: capacity corpus err, cfg pg, 300 sessions, blocks
 * 1-3: small 0.0008007687379884689, 0.001199040767386091,
 * 0.006548918436197659; medium 0, 0, 0.
 */
static void test_compare_zeros(void **state)
{
	static const double small[] = {0.0008007687379884689, 0.001199040767386091,
				       0.006548918436197659};
	static const double medium[] = {0, 0, 0};
	struct compare_options o;
	struct compare c;
	(void)state;
	compare_options_init(&o);
	o.resamples = 2000;
	o.lower_is_better = true;
	assert_int_equal(compare_arms(small, 3, medium, 3, &o, &c), 0);
	assert_false(c.log_scale);
	/* no ratio: missing */
	assert_true(isnan(c.ratio.ratio) && isnan(c.ratio.lo) && isnan(c.ratio.hi));
	check_close(c.b.median, 0, 0, "median 0");
	assert_true(isnan(c.b.range_pct));
	/* absolute spreads: max - min; the effect: |0 - 0.001199040767386091| */
	check_close(c.spread_a, 0.006548918436197659 - 0.0008007687379884689, 1e-12, "range a");
	check_close(c.spread_b, 0, 0, "range b");
	check_close(c.observed_effect, 0.001199040767386091, 1e-12, "effect");
	check_close(c.diff, -0.001199040767386091, 1e-12, "diff");
	/*
	 * scipy.stats.ttest_ind(medium, small, equal_var=False) on the values:
	 * t = -1.5376176388186742, p = 0.26397486377741436, df = 2 (b constant);
	 * mean diff -0.002849575980524073 [-0.01082342823231745, 0.005124276271269303]
	 */
	check_close(c.o.t.t, -1.5376176388186742, T_REL, "t");
	check_close(c.o.t.p, 0.26397486377741436, T_REL, "p");
	check_close(c.o.estimate, -0.002849575980524073, T_REL, "mean diff");
	check_close(c.o.lo, -0.01082342823231745, T_REL, "lo");
	check_close(c.o.hi, 0.005124276271269303, T_REL, "hi");
	assert_string_equal(c.verdict, "unresolvable");
	check_contains(c.reason, "Welch t on values: p = 0.264 >= alpha 0.05", "reason");
	/*
	 * runs needed in the metric's units: numpy pooled sd 0.0022697473544000366,
	 * delta = |diff|: 2 z^2 (sd / delta)^2 = 56.24... -> 57
	 */
	check_close(c.o.sd, 0.0022697473544000366, 1e-10, "sd");
	check_close(c.runs_needed, 57, 0, "runs needed");
	/* the log scale cannot be forced on zeros */
	o.scale = COMPARE_SCALE_LOG;
	assert_int_equal(compare_arms(small, 3, medium, 3, &o, &c), ERR_DATA);
	check_msg("log scale");
}

/* --pair-by block: the capacity corpus, small vs medium, cfg pg, 300 sessions. */
static void test_compare_pairs(void **state)
{
	struct compare_pair pairs[] = {
		{"1", "small-pg-n300-b1r1", "medium-pg-n300-b1r1", 69.0378764094059,
		 269.0944551320535, 0},
		{"2", "small-pg-n300-b2r1", "medium-pg-n300-b2r1", 64.32009579045246,
		 255.10822490597312, 0},
		{"3", "small-pg-n300-b3r1", "medium-pg-n300-b3r1", 55.525064605616755,
		 261.4928259356003, 0},
	};
	struct compare_options o;
	struct compare_paired p;
	(void)state;
	compare_options_init(&o);
	assert_int_equal(compare_pairs(pairs, 3, true, &o, &p), 0);
	/* scipy.stats.ttest_rel(ln medium, ln small): t = 23.677765445309184,
	 * p = 0.001778928526777874; ratio 4.175629300385263
	 * [3.220521496256526, 5.413992756919357] */
	assert_true(p.o.has_t);
	assert_string_equal(p.o.test, "paired-t");
	check_close(p.o.t.t, 23.677765445309184, T_REL, "t");
	check_close(p.o.t.p, 0.001778928526777874, T_REL, "p");
	check_close(p.o.t.df, 2, 0, "df");
	check_close(p.o.estimate, 4.175629300385263, T_REL, "ratio");
	check_close(p.o.lo, 3.220521496256526, T_REL, "lo");
	check_close(p.o.hi, 5.413992756919357, T_REL, "hi");
	/* each pair's ratio: 269.0944551320535 / 69.0378764094059 */
	check_close(pairs[0].estimate, 269.0944551320535 / 69.0378764094059, 1e-12, "pair 1");
	assert_int_equal(p.agree, 3);
	assert_string_equal(p.o.verdict, "faster");
	assert_string_equal(p.o.method, "paired-t+agreement");
	/*
	 * pairs needed by hand: numpy sd of the ln differences 0.10455208442546364,
	 * effect 4.175629300385263 - 1 = 317.6%: z^2 (sd / ln 4.1756)^2 = 0.04 -> 3
	 */
	check_close(p.o.sd, 0.10455208442546364, 1e-10, "sd of differences");
	check_close(p.o.runs_needed, 3, 0, "pairs needed");
	/* with a 4.7% bound: 2.801585218112968^2 (0.10455208442546364 / ln 1.047)^2
	 * = 40.67... -> 41 pairs */
	o.has_effect_bound = true;
	o.effect_bound_pct = 4.7;
	assert_int_equal(compare_pairs(pairs, 3, true, &o, &p), 0);
	check_close(p.o.runs_needed, 41, 0, "pairs needed at 4.7%");
	/* one pair: no test */
	assert_int_equal(compare_pairs(pairs, 1, true, &o, &p), 0);
	assert_false(p.o.has_t);
	assert_string_equal(p.o.verdict, "unresolvable");
	check_contains(p.o.reason, "one pair", "one pair");
	/* pairs disagreeing in direction: not confirmed */
	pairs[2].b = 50;
	o.has_effect_bound = false;
	assert_int_equal(compare_pairs(pairs, 3, true, &o, &p), 0);
	assert_int_equal(p.agree, 2);
	assert_string_equal(p.o.verdict, "unresolvable");
}

/* A level of --by (copies of its values), its comparison computed as compare_run does. */
static void level_init(struct compare_level *l, const char *name, const double *a, size_t na,
		       const double *b, size_t nb, const struct compare_options *o)
{
	memset(l, 0, sizeof(*l));
	l->level = strdup(name);
	l->a = malloc(na * sizeof(*a));
	l->b = malloc(nb * sizeof(*b));
	assert_non_null(l->level);
	assert_non_null(l->a);
	assert_non_null(l->b);
	memcpy(l->a, a, na * sizeof(*a));
	memcpy(l->b, b, nb * sizeof(*b));
	assert_int_equal(compare_arms(a, na, b, nb, o, &l->c), 0);
}

static void levels_release(struct compare_level *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].level);
		free(l[i].a);
		free(l[i].b);
	}
}

/* --by gomaxprocs on the GOGC arms: one run per arm per level, the geometric mean. */
static void test_compare_pool_gogc(void **state)
{
	/* gomaxprocs-scaling results.tsv: GOGC=100 and 800 at GOMAXPROCS 1, 4 (blocks
	 * gg100, gg800) and 8 (gogc100, gogc800) */
	static const double a1[] = {467.45002353466043}, b1[] = {621.5753887789881};
	static const double a4[] = {1561.8288570658522}, b4[] = {2143.0991485167087};
	static const double a8[] = {1805.138577387964}, b8[] = {2403.9683124863996};
	struct compare_level levels[3];
	struct compare_options o;
	struct compare_pooled p;
	(void)state;
	compare_options_init(&o);
	o.resamples = 200;
	level_init(&levels[0], "1", a1, 1, b1, 1, &o);
	level_init(&levels[1], "4", a4, 1, b4, 1, &o);
	level_init(&levels[2], "8", a8, 1, b8, 1, &o);
	/* python3: 621.5753887789881 / 467.45002353466043 = 1.3297151727127887, ... */
	check_close(levels[0].c.o.estimate, 1.3297151727127887, 1e-12, "gain at 1");
	check_close(levels[1].c.o.estimate, 1.3721728464813148, 1e-12, "gain at 4");
	check_close(levels[2].c.o.estimate, 1.331736157323136, 1e-12, "gain at 8");
	assert_true(isnan(levels[0].c.o.lo));
	assert_int_equal(compare_pool(levels, 3, "gomaxprocs", &o, &p), 0);
	assert_false(p.inverse_variance);
	/* scipy.stats.gmean(the three gains) = 1.3444001290698562 */
	check_close(p.o.estimate, 1.3444001290698562, 1e-12, "pooled gain");
	assert_true(isnan(p.o.lo) && isnan(p.o.hi));
	check_close(p.min, 1.3297151727127887, 1e-12, "min");
	check_close(p.max, 1.3721728464813148, 1e-12, "max");
	assert_string_equal(p.o.verdict, "unresolvable");
	check_contains(p.o.reason,
		       "no interval at gomaxprocs=1, 4, 8 (an arm with one run: no within-level "
		       "spread), so the pooled ratio is the geometric mean of the levels' ratios",
		       "reason");
	check_contains(p.o.reason, "--pair-by gomaxprocs", "reason");
	levels_release(levels, 3);
}

/*
 * --by sessions with --metric err (capacity corpus, small vs medium, pg,
 * blocks 1-3): the absolute scale; at 100 sessions every run reads 0 (no
 * variation, no interval), so the levels' mean differences are averaged.
 */
static void test_compare_pool_zeros(void **state)
{
	static const double zero[] = {0, 0, 0};
	static const double s300[] = {0.0008007687379884689, 0.001199040767386091,
				      0.006548918436197659};
	static const double s500[] = {0.019346230820547032, 0.016766268260292164,
				      0.02094875346260388};
	struct compare_level levels[3];
	struct compare_options o;
	struct compare_pooled p;
	(void)state;
	compare_options_init(&o);
	o.resamples = 200;
	o.lower_is_better = true;
	o.scale = COMPARE_SCALE_ABSOLUTE; /* as compare_run sets it for all levels */
	level_init(&levels[0], "100", zero, 3, zero, 3, &o);
	level_init(&levels[1], "300", s300, 3, zero, 3, &o);
	level_init(&levels[2], "500", s500, 3, zero, 3, &o);
	assert_false(levels[0].c.o.has_t);
	/* scipy.stats.ttest_ind([0, 0, 0], s500, equal_var=False): t = -15.612003811806307,
	 * p = 0.004077743958287371; effect 0.0193 exceeds both ranges: faster (lower err) */
	check_close(levels[2].c.o.t.t, -15.612003811806307, T_REL, "t 500");
	check_close(levels[2].c.o.t.p, 0.004077743958287371, T_REL, "p 500");
	assert_string_equal(levels[2].c.verdict, "faster");
	assert_int_equal(compare_pool(levels, 3, "sessions", &o, &p), 0);
	assert_false(p.inverse_variance);
	/* numpy: mean(0, -0.002849575980524073, -0.019020417514481025) = -0.007289997831668366 */
	check_close(p.o.estimate, -0.007289997831668366, 1e-12, "mean difference");
	check_close(p.min, -0.019020417514481025, 1e-12, "min");
	check_close(p.max, 0, 0, "max");
	assert_string_equal(p.o.verdict, "unresolvable");
	check_contains(p.o.reason, "no interval at sessions=100 (no variation within either arm)",
		       "reason");
	assert_null(strstr(p.o.reason, "--pair-by"));
	levels_release(levels, 3);
}

/* --by sessions on the capacity corpus (small vs medium, pg, blocks 1-3): inverse variance. */
static void test_compare_pool_capacity(void **state)
{
	static const double s100[] = {84.20546493672084, 73.34269784886327, 90.16342653375783};
	static const double m100[] = {303.63917667903127, 287.01400172055423, 285.44577545151867};
	static const double s500[] = {65.71880773694836, 65.97532637199109, 63.45224576961447};
	static const double m500[] = {222.86757414622213, 245.18763090586353, 248.03975554183583};
	struct compare_level levels[3];
	struct compare_options o;
	struct compare_pooled p;
	(void)state;
	compare_options_init(&o);
	o.resamples = 200;
	level_init(&levels[0], "100", s100, 3, m100, 3, &o);
	level_init(&levels[1], "300", cap_small300, 3, cap_medium300, 3, &o);
	level_init(&levels[2], "500", s500, 3, m500, 3, &o);
	/* each level's Welch (scipy p 0.0009777918890615622, 0.0012247050963697312,
	 * 0.00017221747494195705) */
	check_close(levels[0].c.o.t.p, 0.0009777918890615622, T_REL, "p 100");
	check_close(levels[2].c.o.t.p, 0.00017221747494195705, T_REL, "p 500");
	assert_int_equal(compare_pool(levels, 3, "sessions", &o, &p), 0);
	assert_true(p.inverse_variance);
	assert_string_equal(p.o.test, "pooled-t");
	/* numpy / scipy (see test_stats.c test_pool_inverse_variance): ratio
	 * exp(1.3167169554291618) = 3.7311517099847493 [3.475220231036469,
	 * 4.005931180588833], df 5.479409389726017, p 2.525321826668932e-08 */
	check_close(p.o.estimate, 3.7311517099847493, T_REL, "pooled ratio");
	check_close(p.o.lo, 3.475220231036469, T_REL, "pooled lo");
	check_close(p.o.hi, 4.005931180588833, T_REL, "pooled hi");
	check_close(p.o.t.df, 5.479409389726017, T_REL, "pooled df");
	check_close(p.o.t.p, 2.525321826668932e-08, 1e-8, "pooled p");
	assert_string_equal(p.o.verdict, "faster");
	assert_string_equal(p.o.method, "pooled-t+agreement");
	assert_int_equal(p.nlevels, 3);
	levels_release(levels, 3);
}

static void test_compare_bootstrap_seed(void **state)
{
	struct compare_options o;
	struct compare c1, c2, c3;
	(void)state;
	compare_options_init(&o);
	o.resamples = 5000;
	o.seed = 42;
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c1), 0);
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c2), 0);
	/* same seed, same interval, bit for bit */
	assert_memory_equal(&c1.ratio.lo, &c2.ratio.lo, sizeof(double));
	assert_memory_equal(&c1.ratio.hi, &c2.ratio.hi, sizeof(double));
	assert_int_equal(c1.ratio.seed, 42);
	assert_int_equal(c1.ratio.resamples, 5000);
	/*
	 * by hand: a resample median of 3 values lies in [min, max] of its arm,
	 * so every ratio lies in [853.21 / 485.26, 881.29 / 475.23]
	 * = [1.7582549..., 1.8544572...]
	 */
	assert_true(c1.ratio.lo >= 853.212014958686 / 485.26070274273076 - 1e-12);
	assert_true(c1.ratio.hi <= 881.2907259769522 / 475.2284019761499 + 1e-12);
	assert_true(c1.ratio.lo <= c1.ratio.ratio && c1.ratio.ratio <= c1.ratio.hi);
	/* another seed gives the same point ratio; the interval comes from other draws */
	o.seed = 7;
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &o, &c3), 0);
	check_close(c3.ratio.ratio, c1.ratio.ratio, 0, "ratio independent of seed");
	assert_int_equal(c3.ratio.seed, 7);
}

/* ---------------------------------------------------------------------- */
/* documents                                                               */
/* ---------------------------------------------------------------------- */

/* The Markdown of a whole doc (caller frees). */
static char *md_of(const struct doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(doc_write(d, DOC_MD, NULL, fp), 0);
	fclose(fp);
	return buf;
}

static void check_fact_text(const struct doc *d, const char *name, const char *want)
{
	const char *got = doc_fact_string(d, name);
	if (!got || strcmp(got, want))
		fail_msg("fact %s: '%s', expected '%s'", name, got ? got : "(none)", want);
}

static void check_fact_shown(const struct doc *d, const char *name, const char *want)
{
	const char *got = doc_fact_shown(d, name);
	if (!got || strcmp(got, want))
		fail_msg("fact %s shown '%s', expected '%s'", name, got ? got : "(none)", want);
}

/* The doc's sections, by name, in order: "a,b,c". */
static void check_sections(const struct doc *d, const char *want)
{
	char got[256] = "";
	for (size_t i = 0; i < doc_section_count(d); i++) {
		const struct doc_section *s = doc_section_at(d, i);
		strcat(got, i ? "," : "");
		strcat(got, doc_section_name(s));
		if (!doc_section_table(s))
			fail_msg("section %s has no table", doc_section_name(s));
	}
	if (strcmp(got, want))
		fail_msg("sections '%s', expected '%s'", got, want);
}

static size_t rows_of(const struct doc *d, const char *section)
{
	const struct doc_section *s = doc_find_section(d, section);
	assert_non_null(s);
	return doc_table_rows(doc_section_table(s));
}

/* A number cell of a section's table, by row and column name. */
static double cell_of_doc(const struct doc *d, const char *section, size_t row, const char *col)
{
	const struct doc_table *t = doc_section_table(doc_find_section(d, section));
	int c = doc_table_find(t, col);
	assert_true(c >= 0);
	return doc_cell_number(t, row, (size_t)c);
}

static void test_select_no_runs(void **state)
{
	struct selection sel;
	struct run_filter f;
	(void)state;
	memset(&f, 0, sizeof(f));
	memset(&sel, 0, sizeof(sel));
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	check_msg("no runs to analyse (the filter matched no run: check --corpus and --where)");

	/* one run left out by the analysis (not excluded): named, no --include-excluded hint */
	assert_int_equal(selection_leave_out(&sel, "m1-r1", "no trace"), 0);
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	assert_string_equal(
		err_msg(),
		"no runs to analyse (1 run matched but was left out: 'm1-r1': no trace)");

	/* three, the first excluded: a count, the first named, the hint */
	selection_release(&sel);
	assert_int_equal(selection_leave_out(&sel, "g1-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&sel, "g8-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&sel, "g4", "no numeric value for --metric x"), 0);
	sel.left_out[0].excluded = sel.left_out[1].excluded = true;
	assert_int_equal(sel.nleft_out, 3);
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	assert_string_equal(err_msg(),
			    "no runs to analyse (3 runs matched but were left out, e.g. "
			    "'g1-trial': unlisted; --include-excluded keeps excluded runs)");
	/* excluded runs already kept: no hint */
	f.include_excluded = true;
	assert_int_equal(select_no_runs(&sel, &f), ERR_DATA);
	assert_null(strstr(err_msg(), "--include-excluded"));
	selection_release(&sel);
}

static void test_noise_document_gomaxprocs(void **state)
{
	struct noise_request req;
	struct noise_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	memset(&req, 0, sizeof(req));
	req.by = "gomaxprocs";
	noise_options_init(&req.opts);
	req.opts.by = req.by; /* as noise_run sets it */
	build(&res.sel, gmp_rows, ARRAY_LEN(gmp_rows));
	assert_int_equal(noise_compute(&res.sel, &req.opts, &res.nz), 0);
	assert_true(res.nz.resolved);
	assert_true(res.nz.counterbalanced);
	assert_int_equal(res.nz.burst_count, 0);
	assert_int_equal(build_noise(&req, &res, &d), 0);
	assert_string_equal(doc_title(d), "Noise of tput by gomaxprocs");
	/* Markdown order: the verdict first; every view a table */
	check_sections(d, "verdict,steps,levels,cells,drift,order,bursts,soaks");
	check_fact_text(d, "verdict", "resolved");
	check_fact_shown(d, "counterbalanced", "yes");
	check_fact_text(d, "by", "gomaxprocs");
	check_fact_text(d, "metric", "tput");
	check_fact_text(d, "block", "block");
	check_fact_text(d, "group", "");
	check_close(doc_fact_number(d, "runs"), 12, 0, "runs");
	check_close(doc_fact_number(d, "groups"), 1, 0, "groups");
	check_close(doc_fact_number(d, "bursts"), 0, 0, "bursts");
	check_fact_text(d, "step_rule", NOISE_STEP_RULE);
	check_fact_text(d, "verdict_steps", "resolved: 1→2, 2→4, 4→8");
	check_fact_text(d, "counterbalanced_gomaxprocs", "yes");
	check_fact_text(d, "metric_kind", "rate");
	check_fact_text(d, "metric_direction", "higher");
	check_close(doc_fact_number(d, "steps_resolved"), 3, 0, "steps resolved");
	assert_int_equal(rows_of(d, "steps"), 3);
	/* python3: 853.212014958686 - 485.26070274273076 (min of 2 - max of 1) */
	check_close(cell_of_doc(d, "steps", 0, "gap"), 367.9513122159553, REL, "gap 1->2");
	check_close(doc_fact_number(d, "threshold_burst_factor"), NOISE_BURST_FACTOR, 0, "burst");
	check_close(doc_fact_number(d, "threshold_drift_pct"), NOISE_DRIFT_PCT, 0, "drift");
	check_close(doc_fact_number(d, "runs_left_out"), 0, 0, "left out");
	assert_int_equal(rows_of(d, "levels"), 4);
	assert_int_equal(rows_of(d, "cells"), 12);
	assert_int_equal(rows_of(d, "verdict"), 1);
	assert_int_equal(rows_of(d, "bursts"), 4);
	assert_int_equal(rows_of(d, "soaks"), 0);
	/* python3: (881.2907259769522 - 853.212014958686) / 865.4682448787189 * 100 */
	check_close(cell_of_doc(d, "levels", 1, "range_pct"), 3.244337523001892, REL, "range g2");
	check_close(cell_of_doc(d, "verdict", 0, "max_range_pct"), 3.244337523001892, REL,
		    "max range");
	md = md_of(d);
	/* the empty soak table says why, quoting the soak_min_runs fact */
	check_contains(md,
		       "### Soaks (repeated runs of one cell)\n\nnone: no level has 3 or more "
		       "runs in one block\n",
		       "md soaks");
	check_close(doc_fact_number(d, "soak_min_runs"), NOISE_SOAK_MIN_RUNS, 0, "soak min");
	check_contains(md, "thresholds: burst factor 1.50x, drift 1.00%", "md");
	check_contains(md, "- verdict: resolved\n", "md verdict");
	assert_true(strstr(md, "### Verdict") < strstr(md, "### Levels"));
	free(md);
	doc_free(d);
	noise_result_release(&res);
}

static void test_noise_document_capacity(void **state)
{
	static const char *const group[] = {"target", "cfg", NULL};
	struct noise_request req;
	struct noise_result res;
	struct doc *d = NULL;
	(void)state;
	memset(&req, 0, sizeof(req));
	req.by = "sessions";
	req.group = group;
	noise_options_init(&req.opts);
	build(&res.sel, cap_rows, ARRAY_LEN(cap_rows));
	assert_int_equal(noise_compute(&res.sel, &req.opts, &res.nz), 0);
	assert_int_equal(build_noise(&req, &res, &d), 0);
	/* one burst (small-mem-n100-b1r1, 1.98x): test_noise_capacity_bursts */
	check_close(doc_fact_number(d, "bursts"), 1, 0, "bursts");
	check_close(doc_fact_number(d, "groups"), 2, 0, "groups");
	check_fact_text(d, "group", "target,cfg");
	/* a group within noise makes the whole within noise */
	assert_false(verdict_of(&res.nz, SPG)->resolved);
	check_fact_text(d, "verdict", "within-noise");
	check_fact_shown(d, "counterbalanced",
			 verdict_of(&res.nz, SMEM)->counterbalanced &&
					 verdict_of(&res.nz, SPG)->counterbalanced
				 ? "yes"
				 : "no");
	assert_int_equal(rows_of(d, "verdict"), 2);
	assert_int_equal(rows_of(d, "soaks"), 1);
	/* python3: 183.50754720511367 / statistics.median(soak r2..r8) */
	check_close(cell_of_doc(d, "soaks", 0, "ratio"), 2.67275559576317, 1e-12, "soak ratio");
	doc_free(d);
	noise_result_release(&res);
}

static void test_compare_lower_is_better_name(void **state)
{
	(void)state;
	assert_true(compare_lower_is_better_name("p99_ms"));
	assert_true(compare_lower_is_better_name("cpu_s"));
	assert_true(compare_lower_is_better_name("ns_per_op"));
	assert_true(compare_lower_is_better_name("cycles_per_int"));
	assert_false(compare_lower_is_better_name("tput"));
	assert_false(compare_lower_is_better_name("_ms")); /* a suffix alone is no name */
	assert_false(compare_lower_is_better_name("ms"));
	assert_false(compare_lower_is_better_name("p99_msx"));
	/* error rates and other time units */
	assert_true(compare_lower_is_better_name("err"));
	assert_true(compare_lower_is_better_name("http_err"));
	assert_true(compare_lower_is_better_name("p50_us"));
	assert_true(compare_lower_is_better_name("gc_ns"));
	assert_false(compare_lower_is_better_name("errors_fixed_per_day"));
	assert_false(compare_lower_is_better_name("patch_rate"));
}

static void test_compare_document(void **state)
{
	struct compare_request req;
	struct compare_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.arm[0] = "gomaxprocs=1";
	req.arm[1] = "gomaxprocs=2";
	compare_options_init(&req.opts);
	assert_int_equal(compare_arms(g1_tput, 3, g2_tput, 3, &req.opts, &res.c), 0);
	/* a run left out of both arms is listed once; one of arm b only is listed too */
	assert_int_equal(selection_leave_out(&res.sel[0], "g1-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&res.sel[1], "g1-trial", "unlisted"), 0);
	assert_int_equal(selection_leave_out(&res.sel[1], "prof-g2", "unlisted"), 0);
	assert_int_equal(build_compare(&req, &res, &d), 0);
	/* the comparison first (the tsv default), every view a table */
	check_sections(d, "comparison,arms,levels,pairs,benchstat");
	check_fact_text(d, "verdict", "faster");
	check_fact_text(d, "method", "welch+separation");
	check_fact_text(d, "design", "unpaired");
	check_fact_text(d, "scale", "log");
	check_fact_text(d, "test", "welch");
	check_fact_text(d, "a_where", "gomaxprocs=1");
	check_fact_text(d, "b_where", "gomaxprocs=2");
	check_fact_text(d, "metric", "tput");
	check_fact_shown(d, "lower_is_better", "no");
	check_fact_shown(d, "exact", "yes");
	check_fact_shown(d, "separated", "yes");
	/* by hand: 2 / C(6, 3) = 0.1; every b above every a: U_a = 0 */
	check_close(doc_fact_number(d, "min_p"), 0.1, REL, "min_p");
	check_close(doc_fact_number(d, "u"), 0, 0, "u");
	check_close(doc_fact_number(d, "p"), 0.1, REL, "p");
	check_close(doc_fact_number(d, "alpha"), COMPARE_ALPHA, 0, "alpha");
	check_close(doc_fact_number(d, "rank_floor"), 4, 0, "rank floor");
	check_close(doc_fact_number(d, "min_runs"), 3, 0, "min runs");
	check_close(doc_fact_number(d, "ratio_ci_pct"), 95, 0, "ci");
	check_close(doc_fact_number(d, "resamples"), COMPARE_RESAMPLES, 0, "resamples");
	/* scipy Welch on ln (test_compare_three_vs_three) */
	check_close(doc_fact_number(d, "welch_t"), 51.24555917982209, 1e-9, "welch t");
	check_close(doc_fact_number(d, "welch_df"), 3.5957788381471225, 1e-9, "welch df");
	check_close(doc_fact_number(d, "welch_p"), 2.7863725359929637e-06, 1e-9, "welch p");
	check_close(doc_fact_number(d, "gm_ratio"), 1.799676871033238, 1e-9, "gm ratio");
	check_close(doc_fact_number(d, "gm_ratio_lo"), 1.7407371669544456, 1e-9, "gm lo");
	check_close(doc_fact_number(d, "gm_ratio_hi"), 1.8606122174082043, 1e-9, "gm hi");
	/* python3: statistics.median(g2) / statistics.median(g1) = 865.4682... / 484.1346... */
	check_close(doc_fact_number(d, "ratio"), 865.4682448787189 / 484.13466860190584, REL,
		    "ratio");
	check_close(cell_of_doc(d, "arms", 1, "ratio"), doc_fact_number(d, "ratio"), 0,
		    "ratio cell");
	assert_true(isnan(cell_of_doc(d, "arms", 0, "ratio")));
	/* one comparison row, holding the same figures */
	assert_int_equal(rows_of(d, "comparison"), 1);
	check_close(cell_of_doc(d, "comparison", 0, "ratio"), doc_fact_number(d, "ratio"), 0,
		    "comparison ratio");
	check_close(cell_of_doc(d, "comparison", 0, "t_p"), doc_fact_number(d, "welch_p"), 0,
		    "comparison p");
	check_close(cell_of_doc(d, "comparison", 0, "a_n"), 3, 0, "a_n");
	check_close(cell_of_doc(d, "comparison", 0, "b_median"), 865.4682448787189, 0, "b median");
	check_close(cell_of_doc(d, "comparison", 0, "runs_needed"), 3, 0, "runs needed");
	assert_int_equal(rows_of(d, "levels"), 0);
	assert_int_equal(rows_of(d, "pairs"), 0);
	assert_null(doc_fact_shown(d, "effect_bound_pct"));
	assert_int_equal(doc_left_out_count(d), 2);
	check_close(doc_fact_number(d, "runs_left_out"), 2, 0, "left out");
	md = md_of(d);
	check_contains(md, "- verdict: faster (Welch t on ln values: p = 2.79e-06", "md verdict");
	check_contains(md, "- decided by: welch+separation", "md method");
	check_contains(md, "### Runs left out (2)", "md left out");
	check_contains(md, "none: no --by FIELD", "md empty levels");
	free(md);
	doc_free(d);
	for (int arm = 0; arm < 2; arm++)
		selection_release(&res.sel[arm]);
}

/* One run per arm: no interval in the document (missing, not [x, x]). */
static void test_compare_document_one_run(void **state)
{
	struct compare_request req;
	struct compare_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.arm[0] = "gomaxprocs=1 gogc=100";
	req.arm[1] = "gomaxprocs=1 gogc=800";
	compare_options_init(&req.opts);
	req.opts.resamples = 200;
	/* gomaxprocs corpus: g1-n100-bgg100-gogc100, g1-n100-bgg800-gogc800 */
	{
		static const double a[] = {467.45002353466043}, b[] = {621.5753887789881};
		assert_int_equal(compare_arms(a, 1, b, 1, &req.opts, &res.c), 0);
	}
	assert_int_equal(build_compare(&req, &res, &d), 0);
	check_fact_text(d, "verdict", "unresolvable");
	assert_true(isnan(doc_fact_number(d, "ratio_lo")));
	assert_true(isnan(doc_fact_number(d, "ratio_hi")));
	assert_true(isnan(doc_fact_number(d, "gm_ratio_lo")));
	assert_true(isnan(cell_of_doc(d, "comparison", 0, "ratio_lo")));
	assert_true(isnan(cell_of_doc(d, "arms", 1, "ratio_lo")));
	check_close(doc_fact_number(d, "ratio"), 621.5753887789881 / 467.45002353466043, 1e-12,
		    "ratio");
	md = md_of(d);
	check_contains(md, "no interval: an arm has one run", "md no interval");
	check_contains(md, "one run in each arm: no within-arm spread", "md reason");
	assert_null(strstr(md, "[1.3297, 1.3297]"));
	free(md);
	doc_free(d);
}

/* --by and --pair-by documents: the levels and pairs views, the pooled and paired facts. */
static void test_compare_document_designs(void **state)
{
	static const double a1[] = {467.45002353466043}, b1[] = {621.5753887789881};
	static const double a4[] = {1561.8288570658522}, b4[] = {2143.0991485167087};
	const double all_a[] = {467.45002353466043, 1561.8288570658522};
	const double all_b[] = {621.5753887789881, 2143.0991485167087};
	struct compare_pair pairs[2] = {
		{"1", "g1-n100-bgg100-gogc100", "g1-n100-bgg800-gogc800", 467.45002353466043,
		 621.5753887789881, 0},
		{"4", "g4-n100-bgg100-gogc100", "g4-n100-bgg800-gogc800", 1561.8288570658522,
		 2143.0991485167087, 0},
	};
	struct compare_request req;
	struct compare_result res;
	struct doc *d = NULL;
	char *md;
	(void)state;
	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.arm[0] = "gogc=100";
	req.arm[1] = "gogc=800";
	req.by = "gomaxprocs";
	compare_options_init(&req.opts);
	req.opts.resamples = 200;
	res.levels = calloc(2, sizeof(*res.levels));
	assert_non_null(res.levels);
	level_init(&res.levels[0], "1", a1, 1, b1, 1, &req.opts);
	level_init(&res.levels[1], "4", a4, 1, b4, 1, &req.opts);
	res.nlevels = 2;
	res.design = COMPARE_BY;
	assert_int_equal(compare_arms(all_a, 2, all_b, 2, &req.opts, &res.c), 0);
	assert_int_equal(compare_pool(res.levels, 2, "gomaxprocs", &req.opts, &res.pooled), 0);
	res.headline = &res.pooled.o;
	assert_int_equal(build_compare(&req, &res, &d), 0);
	check_sections(d, "comparison,arms,levels,pairs,benchstat");
	check_fact_text(d, "design", "by");
	check_fact_text(d, "by", "gomaxprocs");
	check_fact_text(d, "pooled_method", "geometric-mean");
	check_fact_text(d, "verdict", "unresolvable");
	assert_int_equal(rows_of(d, "levels"), 2);
	/* python3: 621.5753887789881 / 467.45002353466043, 2143.0991485167087 / 1561.8288570658522
	 */
	check_close(cell_of_doc(d, "levels", 0, "gm_ratio"), 1.3297151727127887, 1e-12, "level 1");
	check_close(cell_of_doc(d, "levels", 1, "gm_ratio"), 1.3721728464813148, 1e-12, "level 4");
	assert_true(isnan(cell_of_doc(d, "levels", 0, "gm_ratio_lo")));
	/* python3: math.sqrt(1.3297151727127887 * 1.3721728464813148) = 1.3507772035205141 */
	check_close(doc_fact_number(d, "pooled_ratio"), 1.3507772035205141, 1e-12, "pooled");
	check_close(cell_of_doc(d, "comparison", 0, "gm_ratio"), 1.3507772035205141, 1e-12,
		    "comparison row");
	assert_true(isnan(doc_fact_number(d, "pooled_ratio_lo")));
	assert_true(isnan(doc_fact_number(d, "pooled_diff")));
	check_close(doc_fact_number(d, "levels"), 2, 0, "levels fact");
	md = md_of(d);
	check_contains(md, "- how the levels are pooled: geometric-mean", "md pooled method");
	check_contains(md, "pooled over 2 levels of gomaxprocs (geometric mean", "md pooled note");
	free(md);
	doc_free(d);
	levels_release(res.levels, 2);
	free(res.levels);

	/* the same runs paired by gomaxprocs */
	memset(&res, 0, sizeof(res));
	req.by = NULL;
	req.pair_by = "gomaxprocs";
	res.design = COMPARE_PAIRED;
	res.pairs = pairs;
	res.npairs = 2;
	assert_int_equal(compare_arms(all_a, 2, all_b, 2, &req.opts, &res.c), 0);
	assert_int_equal(compare_pairs(pairs, 2, true, &req.opts, &res.paired), 0);
	res.headline = &res.paired.o;
	assert_int_equal(build_compare(&req, &res, &d), 0);
	check_fact_text(d, "design", "paired");
	check_fact_text(d, "pair_by", "gomaxprocs");
	check_fact_text(d, "test", "paired-t");
	assert_int_equal(rows_of(d, "pairs"), 2);
	check_close(cell_of_doc(d, "pairs", 1, "ratio"), 2143.0991485167087 / 1561.8288570658522,
		    1e-12, "pair ratio");
	check_close(doc_fact_number(d, "pairs"), 2, 0, "pairs fact");
	check_close(doc_fact_number(d, "paired_df"), 1, 0, "paired df");
	check_close(doc_fact_number(d, "paired_ratio"), 1.3507772035205141, 1e-12, "paired ratio");
	doc_free(d);
}

/*
 * gcp-x86-capacity-20260816/system.tsv, target medium, cfg pg, blocks 1-3:
 * level, load_app_kb (= load_rss_kb). python3 OLS: slope
 * 636.6066666666667, intercept 49855.33333333334, slope SE
 * 7.295336627458424, r2 0.9990815673922037.
 */
static const struct {
	const char *tag, *block;
	double level, value;
} mem_pg[] = {
	{"medium-pg-n100-b1r1", "1", 100, 113796}, {"medium-pg-n300-b1r1", "1", 300, 236176},
	{"medium-pg-n500-b1r1", "1", 500, 363880}, {"medium-pg-n100-b2r1", "2", 100, 114168},
	{"medium-pg-n300-b2r1", "2", 300, 238596}, {"medium-pg-n500-b2r1", "2", 500, 373928},
	{"medium-pg-n100-b3r1", "3", 100, 116076}, {"medium-pg-n300-b3r1", "3", 300, 240756},
	{"medium-pg-n500-b3r1", "3", 500, 370160},
};

static void mem_points(struct memory_result *res, const char *group2)
{
	size_t n = ARRAY_LEN(mem_pg) + (group2 ? 1 : 0);
	memset(res, 0, sizeof(*res));
	res->points = calloc(n, sizeof(*res->points));
	assert_non_null(res->points);
	for (size_t i = 0; i < ARRAY_LEN(mem_pg); i++) {
		res->points[i].tag = mem_pg[i].tag;
		res->points[i].group = "cfg=pg";
		res->points[i].block = mem_pg[i].block;
		res->points[i].level = mem_pg[i].level;
		res->points[i].value = mem_pg[i].value;
	}
	if (group2) {
		/* a group with one run at one level: no slope */
		res->points[n - 1].tag = "lonely";
		res->points[n - 1].group = group2;
		res->points[n - 1].level = 100;
		res->points[n - 1].value = 90000;
	}
	res->npoints = n;
	assert_int_equal(memory_compute(res->points, res->npoints, &res->mem), 0);
}

static void test_memory_document(void **state)
{
	struct memory_request req;
	struct memory_result res;
	struct doc *d = NULL;
	(void)state;
	memset(&req, 0, sizeof(req));
	req.by = "sessions";
	mem_points(&res, NULL);
	assert_int_equal(build_memory(&req, &res, &d), 0);
	check_sections(d, "slopes,endpoints,ratios,residuals");
	check_fact_text(d, "metric", "load_rss_kb");
	check_fact_text(d, "by", "sessions");
	check_close(doc_fact_number(d, "runs"), 9, 0, "runs");
	/* one group: its figures are facts as well as cells */
	check_close(doc_fact_number(d, "slope"), 636.6066666666667, REL, "slope");
	check_close(doc_fact_number(d, "intercept"), 49855.33333333334, REL, "intercept");
	check_close(doc_fact_number(d, "slope_se"), 7.295336627458424, 1e-10, "slope se");
	check_close(doc_fact_number(d, "r2"), 0.9990815673922037, 1e-12, "r2");
	check_close(cell_of_doc(d, "slopes", 0, "slope"), doc_fact_number(d, "slope"), 0, "cell");
	assert_int_equal(rows_of(d, "endpoints"), 3);
	/* by hand: (363880 - 113796) / (500 - 100) = 625.21; 114168 / 100 = 1141.68 */
	check_close(cell_of_doc(d, "endpoints", 0, "slope"), 625.21, REL, "endpoint b1");
	assert_int_equal(rows_of(d, "ratios"), 3);
	check_close(cell_of_doc(d, "ratios", 0, "ratio"), 1141.68, REL, "ratio 100");
	assert_int_equal(rows_of(d, "residuals"), 9);
	check_close(cell_of_doc(d, "residuals", 0, "residual"),
		    113796 - (49855.33333333334 + 636.6066666666667 * 100), 1e-9, "residual");
	doc_free(d);
	memory_result_release(&res);

	/* two groups: the slopes table carries them, no slope fact; no fit: NaN residual */
	mem_points(&res, "cfg=one");
	assert_int_equal(build_memory(&req, &res, &d), 0);
	assert_int_equal(rows_of(d, "slopes"), 2);
	assert_null(doc_fact_shown(d, "slope"));
	check_close(doc_fact_number(d, "groups"), 2, 0, "groups");
	assert_true(isnan(cell_of_doc(d, "slopes", 1, "slope")));
	assert_true(isnan(cell_of_doc(d, "residuals", 9, "residual")));
	doc_free(d);
	memory_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_gomaxprocs),
		cmocka_unit_test(test_sweep_stop_threshold),
		cmocka_unit_test(test_sweep_stop_boundary),
		cmocka_unit_test(test_sweep_base),
		cmocka_unit_test(test_sweep_refuses),
		cmocka_unit_test(test_noise_defaults),
		cmocka_unit_test(test_noise_gomaxprocs_cells),
		cmocka_unit_test(test_noise_gomaxprocs_order),
		cmocka_unit_test(test_noise_gomaxprocs_verdict),
		cmocka_unit_test(test_noise_overlap),
		cmocka_unit_test(test_noise_drift),
		cmocka_unit_test(test_noise_capacity_bursts),
		cmocka_unit_test(test_noise_burst_boundary),
		cmocka_unit_test(test_noise_capacity_soak),
		cmocka_unit_test(test_noise_refuses),
		cmocka_unit_test(test_noise_steps_capacity),
		cmocka_unit_test(test_noise_step_boundary),
		cmocka_unit_test(test_noise_unreplicated),
		cmocka_unit_test(test_noise_order_capacity),
		cmocka_unit_test(test_noise_order_boundary),
		cmocka_unit_test(test_noise_zero_median),
		cmocka_unit_test(test_noise_burst_lower),
		cmocka_unit_test(test_sweep_zero_median),
		cmocka_unit_test(test_sweep_session_level),
		cmocka_unit_test(test_sweep_time_metric),
		cmocka_unit_test(test_metric_meaning),
		cmocka_unit_test(test_compare_defaults),
		cmocka_unit_test(test_compare_three_vs_three),
		cmocka_unit_test(test_compare_separated),
		cmocka_unit_test(test_compare_effect_bound),
		cmocka_unit_test(test_compare_clear_cases),
		cmocka_unit_test(test_compare_unconfirmed),
		cmocka_unit_test(test_compare_lock_contention_null),
		cmocka_unit_test(test_compare_runs_needed),
		cmocka_unit_test(test_compare_zeros),
		cmocka_unit_test(test_compare_pairs),
		cmocka_unit_test(test_compare_pool_gogc),
		cmocka_unit_test(test_compare_pool_capacity),
		cmocka_unit_test(test_compare_pool_zeros),
		cmocka_unit_test(test_compare_bootstrap_seed),
		cmocka_unit_test(test_select_no_runs),
		cmocka_unit_test(test_noise_document_gomaxprocs),
		cmocka_unit_test(test_noise_document_capacity),
		cmocka_unit_test(test_compare_lower_is_better_name),
		cmocka_unit_test(test_compare_document),
		cmocka_unit_test(test_compare_document_one_run),
		cmocka_unit_test(test_compare_document_designs),
		cmocka_unit_test(test_memory_document),
	};
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
