/* analysis_rows: see analysis_rows.h. */
#include "analysis_rows.h"

char *dup_or_null(struct selection *sel, const char *s)
{
	char *d;
	if (!s)
		return NULL;
	d = strpool_intern(&sel->strings, s);
	assert_non_null(d);
	return d;
}

/* Every string is in sel->strings, so selection_release() frees the result. */
void build(struct selection *sel, const struct row *rows, size_t n)
{
	memset(sel, 0, sizeof(*sel));
	sel->runs = calloc(n ? n : 1, sizeof(*sel->runs));
	assert_non_null(sel->runs);
	sel->n = n;
	for (size_t i = 0; i < n; i++) {
		struct sel_run *r = &sel->runs[i];
		char buf[64];
		r->run_id = (int64_t)i + 1;
		r->corpus = dup_or_null(sel, "hand-built");
		r->subcorpus = dup_or_null(sel, "");
		r->tag = dup_or_null(sel, rows[i].tag);
		r->seq = rows[i].seq;
		if (rows[i].level_text) {
			char *end = NULL;
			r->level_text = dup_or_null(sel, rows[i].level_text);
			r->level = strtod(rows[i].level_text, &end);
			r->level_numeric = end != rows[i].level_text && *end == '\0';
			if (!r->level_numeric)
				r->level = NAN;
		} else {
			snprintf(buf, sizeof(buf), "%g", rows[i].level);
			r->level_text = dup_or_null(sel, buf);
			r->level = rows[i].level;
			r->level_numeric = true;
		}
		r->metric = rows[i].metric;
		r->block = dup_or_null(sel, rows[i].block);
		r->group = dup_or_null(sel, rows[i].group ? rows[i].group : "");
		r->started_at = dup_or_null(sel, rows[i].started_at);
		r->app_cores = rows[i].app_cores;
	}
}

/*
 * gomaxprocs-scaling-20260816: the 12 counterbalanced runs, in results.tsv
 * row order (seq = data row number). Columns: tag, gomaxprocs, block, tput,
 * started_at (runs/<tag>/load.json), seq, app_cores (results.tsv).
 * Block orders by start time: b1 1,2,4,8; b2 8,4,2,1; b3 2,8,1,4.
 */
const struct row gmp_rows[GMP_ROWS] = {
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

/*
 * gcp-x86-capacity-20260816: the small/mem and small/pg runs of blocks 1,
 * 2, 3 and soak, in results.tsv row order (seq = data row number).
 * Level = sessions. app_cores left out (NaN).
 */
const struct row cap_rows[CAP_ROWS] = {
	{"small-mem-n100-b1r1", 100, "1", 226.60457539468104, "2026-08-16T03:24:28Z", 2, NAN, SMEM,
	 NULL},
	{"small-mem-n300-b1r1", 300, "1", 106.705468751967, "2026-08-16T03:27:23Z", 4, NAN, SMEM,
	 NULL},
	{"small-mem-n500-b1r1", 500, "1", 75.38431446598604, "2026-08-16T03:30:21Z", 6, NAN, SMEM,
	 NULL},
	{"small-pg-n100-b1r1", 100, "1", 84.20546493672084, "2026-08-16T03:33:21Z", 8, NAN, SPG,
	 NULL},
	{"small-pg-n300-b1r1", 300, "1", 69.0378764094059, "2026-08-16T03:36:17Z", 10, NAN, SPG,
	 NULL},
	{"small-pg-n500-b1r1", 500, "1", 65.71880773694836, "2026-08-16T03:39:12Z", 12, NAN, SPG,
	 NULL},
	{"small-pg-n100-b2r1", 100, "2", 73.34269784886327, "2026-08-16T03:42:08Z", 14, NAN, SPG,
	 NULL},
	{"small-pg-n300-b2r1", 300, "2", 64.32009579045246, "2026-08-16T03:45:03Z", 16, NAN, SPG,
	 NULL},
	{"small-pg-n500-b2r1", 500, "2", 65.97532637199109, "2026-08-16T03:47:58Z", 18, NAN, SPG,
	 NULL},
	{"small-mem-n100-b2r1", 100, "2", 108.61053410238733, "2026-08-16T03:50:54Z", 20, NAN, SMEM,
	 NULL},
	{"small-mem-n300-b2r1", 300, "2", 108.97247470929666, "2026-08-16T03:53:50Z", 22, NAN, SMEM,
	 NULL},
	{"small-mem-n500-b2r1", 500, "2", 84.22853211074198, "2026-08-16T03:56:46Z", 24, NAN, SMEM,
	 NULL},
	{"small-mem-n100-b3r1", 100, "3", 120.22981199513485, "2026-08-16T03:59:47Z", 26, NAN, SMEM,
	 NULL},
	{"small-mem-n300-b3r1", 300, "3", 97.15891127508982, "2026-08-16T04:02:42Z", 28, NAN, SMEM,
	 NULL},
	{"small-mem-n500-b3r1", 500, "3", 90.08917684657376, "2026-08-16T04:05:41Z", 30, NAN, SMEM,
	 NULL},
	{"small-pg-n100-b3r1", 100, "3", 90.16342653375783, "2026-08-16T04:08:43Z", 32, NAN, SPG,
	 NULL},
	{"small-pg-n300-b3r1", 300, "3", 55.525064605616755, "2026-08-16T04:11:37Z", 34, NAN, SPG,
	 NULL},
	{"small-pg-n500-b3r1", 500, "3", 63.45224576961447, "2026-08-16T04:14:33Z", 36, NAN, SPG,
	 NULL},
	{"small-pg-n300-bsoakr1", 300, "soak", 183.50754720511367, "2026-08-16T07:34:48Z", 38, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr2", 300, "soak", 66.97687409965427, "2026-08-16T07:37:44Z", 39, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr3", 300, "soak", 69.02358349919416, "2026-08-16T07:40:38Z", 41, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr4", 300, "soak", 58.07684777864492, "2026-08-16T07:43:34Z", 43, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr5", 300, "soak", 64.5663300422199, "2026-08-16T07:46:30Z", 44, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr6", 300, "soak", 70.48826679674698, "2026-08-16T07:49:27Z", 45, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr7", 300, "soak", 70.16451971804835, "2026-08-16T07:52:23Z", 46, NAN,
	 SPG, NULL},
	{"small-pg-n300-bsoakr8", 300, "soak", 68.65855879078818, "2026-08-16T07:55:20Z", 47, NAN,
	 SPG, NULL},
};

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
	{"medium-mem-n100-b1r1", 100, "1", "medium", "mem", 362.57432778567005, 0.0,
	 "2026-08-16T03:24:28Z", 1},
	{"small-mem-n100-b1r1", 100, "1", "small", "mem", 226.60457539468104, 0.0,
	 "2026-08-16T03:24:28Z", 2},
	{"medium-mem-n300-b1r1", 300, "1", "medium", "mem", 365.34613028146913, 0.0,
	 "2026-08-16T03:27:23Z", 3},
	{"small-mem-n300-b1r1", 300, "1", "small", "mem", 106.705468751967, 0.0,
	 "2026-08-16T03:27:23Z", 4},
	{"medium-mem-n500-b1r1", 500, "1", "medium", "mem", 361.56207761715785, 0.0,
	 "2026-08-16T03:30:18Z", 5},
	{"small-mem-n500-b1r1", 500, "1", "small", "mem", 75.38431446598604, 0.0012400110223201985,
	 "2026-08-16T03:30:21Z", 6},
	{"medium-pg-n100-b1r1", 100, "1", "medium", "pg", 303.63917667903127, 0.0,
	 "2026-08-16T03:33:14Z", 7},
	{"small-pg-n100-b1r1", 100, "1", "small", "pg", 84.20546493672084, 0.0,
	 "2026-08-16T03:33:21Z", 8},
	{"medium-pg-n300-b1r1", 300, "1", "medium", "pg", 269.0944551320535, 0.0,
	 "2026-08-16T03:36:09Z", 9},
	{"small-pg-n300-b1r1", 300, "1", "small", "pg", 69.0378764094059, 0.0008007687379884689,
	 "2026-08-16T03:36:17Z", 10},
	{"medium-pg-n500-b1r1", 500, "1", "medium", "pg", 222.86757414622213, 0.0,
	 "2026-08-16T03:39:06Z", 11},
	{"small-pg-n500-b1r1", 500, "1", "small", "pg", 65.71880773694836, 0.019346230820547032,
	 "2026-08-16T03:39:12Z", 12},
	{"medium-pg-n100-b2r1", 100, "2", "medium", "pg", 287.01400172055423, 0.0,
	 "2026-08-16T03:42:01Z", 13},
	{"small-pg-n100-b2r1", 100, "2", "small", "pg", 73.34269784886327, 0.0,
	 "2026-08-16T03:42:08Z", 14},
	{"medium-pg-n300-b2r1", 300, "2", "medium", "pg", 255.10822490597312, 0.0,
	 "2026-08-16T03:44:56Z", 15},
	{"small-pg-n300-b2r1", 300, "2", "small", "pg", 64.32009579045246, 0.001199040767386091,
	 "2026-08-16T03:45:03Z", 16},
	{"medium-pg-n500-b2r1", 500, "2", "medium", "pg", 245.18763090586353, 0.0,
	 "2026-08-16T03:47:51Z", 17},
	{"small-pg-n500-b2r1", 500, "2", "small", "pg", 65.97532637199109, 0.016766268260292164,
	 "2026-08-16T03:47:58Z", 18},
	{"medium-mem-n100-b2r1", 100, "2", "medium", "mem", 322.54272034273805, 0.0,
	 "2026-08-16T03:50:46Z", 19},
	{"small-mem-n100-b2r1", 100, "2", "small", "mem", 108.61053410238733, 0.0,
	 "2026-08-16T03:50:54Z", 20},
	{"medium-mem-n300-b2r1", 300, "2", "medium", "mem", 325.9532317911751, 0.0,
	 "2026-08-16T03:53:41Z", 21},
	{"small-mem-n300-b2r1", 300, "2", "small", "mem", 108.97247470929666, 0.0,
	 "2026-08-16T03:53:50Z", 22},
	{"medium-mem-n500-b2r1", 500, "2", "medium", "mem", 304.9978919177873, 0.0,
	 "2026-08-16T03:56:37Z", 23},
	{"small-mem-n500-b2r1", 500, "2", "small", "mem", 84.22853211074198, 0.0016055329134247252,
	 "2026-08-16T03:56:46Z", 24},
	{"medium-mem-n100-b3r1", 100, "3", "medium", "mem", 344.97474664499254, 0.0,
	 "2026-08-16T03:59:35Z", 25},
	{"small-mem-n100-b3r1", 100, "3", "small", "mem", 120.22981199513485, 0.0,
	 "2026-08-16T03:59:47Z", 26},
	{"medium-mem-n300-b3r1", 300, "3", "medium", "mem", 323.8230783133233, 0.0,
	 "2026-08-16T04:02:31Z", 27},
	{"small-mem-n300-b3r1", 300, "3", "small", "mem", 97.15891127508982, 0.0,
	 "2026-08-16T04:02:42Z", 28},
	{"medium-mem-n500-b3r1", 500, "3", "medium", "mem", 293.588237253744, 0.0,
	 "2026-08-16T04:05:28Z", 29},
	{"small-mem-n500-b3r1", 500, "3", "small", "mem", 90.08917684657376, 0.0,
	 "2026-08-16T04:05:41Z", 30},
	{"medium-pg-n100-b3r1", 100, "3", "medium", "pg", 285.44577545151867, 0.0,
	 "2026-08-16T04:08:26Z", 31},
	{"small-pg-n100-b3r1", 100, "3", "small", "pg", 90.16342653375783, 0.0,
	 "2026-08-16T04:08:43Z", 32},
	{"medium-pg-n300-b3r1", 300, "3", "medium", "pg", 261.4928259356003, 0.0,
	 "2026-08-16T04:11:23Z", 33},
	{"small-pg-n300-b3r1", 300, "3", "small", "pg", 55.525064605616755, 0.006548918436197659,
	 "2026-08-16T04:11:37Z", 34},
	{"medium-pg-n500-b3r1", 500, "3", "medium", "pg", 248.03975554183583, 0.0,
	 "2026-08-16T04:14:19Z", 35},
	{"small-pg-n500-b3r1", 500, "3", "small", "pg", 63.45224576961447, 0.02094875346260388,
	 "2026-08-16T04:14:33Z", 36},
};

/*
 * The capacity runs (of one target and cfg, or every one with NULL) with
 * the metric tput or err, grouped by target,cfg as `noise --group
 * target,cfg` selects them: extra 0 target, 1 cfg, 2 duration_s ("90").
 */
void build_cap36(struct selection *sel, bool err, const char *target, const char *cfg)
{
	struct row rows[ARRAY_LEN(cap36)];
	char groups[ARRAY_LEN(cap36)][64];
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(cap36); i++) {
		const struct cap_row *c = &cap36[i];
		if ((target && strcmp(c->target, target)) || (cfg && strcmp(c->cfg, cfg)))
			continue;
		snprintf(groups[n], sizeof(groups[n]), "target=%s, cfg=%s", c->target, c->cfg);
		rows[n] = (struct row){c->tag,        c->level, c->block, err ? c->err : c->tput,
				       c->started_at, c->seq,   NAN,      groups[n],
				       NULL};
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
		sel->runs[k].extra[0] = dup_or_null(sel, c->target);
		sel->runs[k].extra[1] = dup_or_null(sel, c->cfg);
		sel->runs[k].extra[2] = dup_or_null(sel, "90");
		k++;
	}
}

void build_first_and_later(struct selection *sel, double first, double second, double third)
{
	const struct row rows[] = {
		{"first", 1, "1", first, "2026-01-01T00:00:00Z", 1, NAN, NULL, NULL},
		{"second", 1, "2", second, "2026-01-01T00:01:00Z", 2, NAN, NULL, NULL},
		{"third", 1, "3", third, "2026-01-01T00:02:00Z", 3, NAN, NULL, NULL},
	};
	build(sel, rows, ARRAY_LEN(rows));
}
