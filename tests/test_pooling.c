/*
 * Unit tests for analysis/pooling: which fields and block kinds an
 * analysis would pool without saying so.
 *
 * pooling_detect() runs on selections built by hand, shaped like the real
 * corpora (../shared/corpora): the emitter-lock table (writeups/
 * emitter-lock/scaling.tsv: variant before at 1, 2, 4 cores, after at 4),
 * the GOMAXPROCS corpus (sky/gomaxprocs-scaling-20260816/results.tsv:
 * blocks 1-3 at GOMAXPROCS 1, 2, 4, 8, the gctrace block 7 at 1 and 8, the
 * GOGC blocks gg100 at 1, 4 and gogc100 at 8), the capacity corpus
 * (sky/gcp-x86-capacity-20260816/results.tsv: cfg mem/pg with store
 * memory/postgres; target small/medium with shared_buffers 296MB/588MB on
 * pg) and the affinity table (writeups/gomaxprocs-affinity/runs.tsv: a
 * unique tag column, the arm factor, the cpuset column). Expected values
 * are read off those files by hand. pooling_load() and pooling_check() run
 * on a small database built in memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/pooling.h"
#include "analysis/select.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "schema/db.h"
#include "schema/fields.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct pool_field *field_named(const struct pooling *p, const char *name)
{
	for (size_t i = 0; i < p->nfields; i++)
		if (!strcmp(p->fields[i].name, name))
			return &p->fields[i];
	return NULL;
}

/* The refusal's message (pooling_refusal must return a usage error). */
static char *refusal(const struct pooling *p, const char *command, const char *level,
		     bool can_group)
{
	assert_int_equal(pooling_refusal(p, command, level, can_group ? "--group" : NULL),
			 ERR_USAGE);
	return strdup(err_msg());
}

static void expect_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("'%s' not in: %s", part, text);
}

/* emitter-lock: variant varies; level 4 holds before (51000) and after (99000). */
static void test_varying_arm_field(void **state)
{
	static const char *const level[] = {"1", "2", "4", "4"};
	static const char *const variant[] = {"before", "before", "before", "after"};
	static const char *const conversations[] = {"64", "64", "64", "64"};
	const struct pool_column cols[] = {{"variant", false, variant},
					   {"conversations", true, conversations}};
	struct pool_input in = {.n = 4, .level = level, .columns = cols, .ncolumns = 2};
	static const char *const pool[] = {"variant", NULL};
	struct pooling p;
	struct strbuf sb = STRBUF_INIT;
	char *msg;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 1);
	assert_string_equal(p.fields[0].name, "variant");
	assert_int_equal(p.fields[0].nvalues, 2);
	assert_string_equal(p.fields[0].values[0], "before"); /* run order */
	assert_string_equal(p.fields[0].values[1], "after");
	assert_null(p.fields[0].follows);
	assert_false(p.fields[0].pooled);
	assert_true(pooling_refuses(&p));
	assert_false(pooling_pooled(&p));
	msg = refusal(&p, "sweep", "cores", false);
	expect_contains(msg, "sweep would pool runs that differ in more than the level (cores)");
	expect_contains(msg, "variant (before, after)");
	expect_contains(msg, "--where variant=before");
	expect_contains(msg, "--pool variant");
	assert_null(strstr(msg, "--group")); /* sweep has no --group */
	free(msg);
	msg = refusal(&p, "noise", "cores", true);
	expect_contains(msg, "split with --group variant");
	free(msg);
	pooling_release(&p);

	/* --pool variant: pooled on purpose, said in words */
	in.pool = pool;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_true(p.fields[0].pooled);
	assert_false(pooling_refuses(&p));
	assert_true(pooling_pooled(&p));
	assert_int_equal(pooling_describe(&p, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "variant (before, after)");
	strbuf_release(&sb);
	pooling_release(&p);
}

/*
 * The capacity table calls sessions `level`; the canonical sessions is
 * filled from it, so `memory --by level` sees sessions vary with the level
 * one to one (results.tsv: level 100, 300, 500 and sessions the same): a
 * mirror, not pooling. A field that is constant within each level but
 * shared by two levels (gogc 100 at GOMAXPROCS 1 and 4, 800 at 8) is no
 * mirror: still refused; nor is one mapping one to one with other values
 * (test_missing_values: gogc NA at level a, 400 at b).
 */
static void test_mirror_of_level(void **state)
{
	static const char *const level[] = {"100", "300", "500", "100", "300", "500"};
	static const char *const sessions[] = {"100", "300", "500", "100", "300", "500"};
	static const char *const gmp[] = {"1", "4", "8", "1", "4", "8"};
	static const char *const gogc[] = {"100", "100", "800", "100", "100", "800"};
	const struct pool_column mirror[] = {{"sessions", false, sessions}};
	const struct pool_column shared[] = {{"gogc", false, gogc}};
	struct pool_input in = {.n = 6, .level = level, .columns = mirror, .ncolumns = 1};
	struct pooling p;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 0);
	assert_int_equal(p.nmirrors, 1);
	assert_string_equal(p.mirrors[0], "sessions");
	assert_false(pooling_refuses(&p));
	pooling_release(&p);
	/* one run a level (3 levels, 3 runs): still a mirror */
	in.n = 3;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nmirrors, 1);
	assert_false(pooling_refuses(&p));
	pooling_release(&p);
	in.n = 6;
	in.level = gmp;
	in.columns = shared;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nmirrors, 0);
	assert_int_equal(p.nfields, 1);
	assert_true(pooling_refuses(&p));
	pooling_release(&p);
}

/*
 * The GOMAXPROCS corpus at GOGC default, 100 sessions: blocks 1-3 at every
 * level, the gctrace block 7 at 1 and 8 only (results.tsv rows
 * g1-n100-b7-gct, g8-n100-b7-gct).
 */
static void test_block_kind(void **state)
{
	static const char *const level[] = {"1", "2", "4", "8", "8", "4", "2",
					    "1", "2", "8", "1", "4", "1", "8"};
	static const char *const block[] = {"1", "1", "1", "1", "2", "2", "2",
					    "2", "3", "3", "3", "3", "7", "7"};
	static const char *const variant[] = {"plain", "plain", "plain", "plain", "plain",
					      "plain", "plain", "plain", "plain", "plain",
					      "plain", "plain", "plain", "plain"};
	const struct pool_column cols[] = {{"variant", false, variant}};
	struct pool_input in = {.n = 14,
				.level = level,
				.block_field = "block",
				.block = block,
				.columns = cols,
				.ncolumns = 1};
	static const char *const pool[] = {"block", NULL};
	struct pooling p;
	struct strbuf sb = STRBUF_INIT;
	char *msg;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 0); /* variant is constant */
	assert_int_equal(p.nkinds, 1);
	assert_string_equal(p.kinds[0].block, "7");
	assert_string_equal(p.kinds[0].levels, "1, 8");
	assert_string_equal(p.kinds[0].all, "1, 2, 4, 8");
	assert_string_equal(p.kinds[0].cell, "");
	assert_int_equal(p.ncomplete, 3);
	assert_string_equal(p.complete[0], "1");
	assert_string_equal(p.complete[2], "3");
	assert_true(pooling_refuses(&p));
	msg = refusal(&p, "sweep", "gomaxprocs", false);
	expect_contains(msg, "block 7 (levels 1, 8 of 1, 2, 4, 8) is its own arm");
	expect_contains(msg, "complete blocks (1, 2, 3: runs at every level)");
	expect_contains(msg, "--where block=1,2,3");
	expect_contains(msg, "--pool block");
	free(msg);
	pooling_release(&p);

	in.pool = pool;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_true(p.kinds_pooled);
	assert_false(pooling_refuses(&p));
	assert_int_equal(pooling_describe(&p, &sb), 0);
	assert_string_equal(
		strbuf_str(&sb),
		"block kinds 7 (levels 1, 8 of 1, 2, 4, 8) with the complete blocks 1, 2, 3");
	strbuf_release(&sb);
	pooling_release(&p);

	/* blocks 1-3 alone (--where block=1,2,3): nothing to say */
	in.n = 12;
	in.pool = NULL;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nkinds, 0);
	assert_false(pooling_refuses(&p));
	assert_false(pooling_pooled(&p));
	pooling_release(&p);
}

/*
 * GOGC=100 at GOMAXPROCS 1, 4 (block gg100) and 8 (block gogc100): no block
 * holds every level, so the blocks are not replicates of a sweep and no
 * block is a kind.
 */
static void test_no_complete_block(void **state)
{
	static const char *const level[] = {"8", "1", "4"};
	static const char *const block[] = {"gogc100", "gg100", "gg100"};
	struct pool_input in = {.n = 3, .level = level, .block_field = "block", .block = block};
	struct pooling p;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nkinds, 0);
	assert_false(pooling_refuses(&p));
	pooling_release(&p);
}

/*
 * Results-table columns: a unique tag (an identifier) and a numeric
 * column never count; the affinity table's arm and cpuset are factors
 * (sweep x12, pin x6; cpuset '' x12, 0,1,2,3 x3, 0,4,1,5 x3).
 */
static void test_identifier_is_not_a_factor(void **state)
{
	static const char *const level[] = {"4", "4", "4", "4", "4", "4"};
	static const char *const tag[] = {"sweep-g4-b1",     "sweep-g4-b2",     "pin-distinct-r1",
					  "pin-distinct-r2", "pin-siblings-r1", "pin-siblings-r2"};
	static const char *const rep[] = {"1", "2", "1", "2", "1", "2"};
	static const char *const note[] = {"", "", "NA", "", "x", "y"};
	static const char *const arm[] = {"sweep", "sweep", "pin", "pin", "pin", "pin"};
	static const char *const cpuset[] = {"", "", "0,1,2,3", "0,1,2,3", "0,4,1,5", "0,4,1,5"};
	const struct pool_column cols[] = {{"tag", true, tag},
					   {"rep", true, rep},
					   {"note", true, note},
					   {"arm", true, arm},
					   {"cpuset", true, cpuset}};
	struct pool_input in = {.n = 6, .level = level, .columns = cols, .ncolumns = 5};
	struct pooling p;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_null(field_named(&p, "tag"));  /* every value differs: an identifier */
	assert_null(field_named(&p, "rep"));  /* numbers: a count, not a factor */
	assert_null(field_named(&p, "note")); /* no non-empty value is shared */
	assert_int_equal(p.nfields, 2);
	assert_string_equal(p.fields[0].name, "arm");
	assert_null(p.fields[0].follows);
	/* cpuset splits the pin arm further: a field of its own, not a follower */
	assert_string_equal(p.fields[1].name, "cpuset");
	assert_null(p.fields[1].follows);
	assert_int_equal(p.fields[1].nvalues, 3);
	assert_string_equal(p.fields[1].values[0], "");
	pooling_release(&p);

	/* the same unique tag column as a canonical candidate would count: the rule is for sources
	 */
	{
		const struct pool_column canon[] = {{"target", false, tag}};
		in.columns = canon;
		in.ncolumns = 1;
		assert_int_equal(pooling_detect(&in, &p), 0);
		assert_int_equal(p.nfields, 1);
		pooling_release(&p);
	}
}

/*
 * The capacity corpus: store varies with cfg, shared_buffers with target
 * among the pg runs (NA on mem): fixing the first fixes the others.
 */
static void test_followers(void **state)
{
	static const char *const level[] = {"100", "100", "100", "100", "300", "300"};
	static const char *const target[] = {"medium", "small",  "medium",
					     "small",  "medium", "small"};
	static const char *const cfg[] = {"mem", "mem", "pg", "pg", "pg", "pg"};
	static const char *const store[] = {"memory",   "memory",   "postgres",
					    "postgres", "postgres", "postgres"};
	static const char *const buffers[] = {"NA", "NA", "588MB", "296MB", "588MB", "296MB"};
	const struct pool_column cols[] = {{"target", false, target},
					   {"cfg", false, cfg},
					   {"store", false, store},
					   {"shared_buffers", true, buffers}};
	struct pool_input in = {.n = 6, .level = level, .columns = cols, .ncolumns = 4};
	static const char *const pool[] = {"target", "cfg", NULL};
	static const char *const pool_cfg[] = {"cfg", NULL};
	struct pooling p;
	char *msg;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 4);
	assert_null(field_named(&p, "target")->follows);
	assert_null(field_named(&p, "cfg")->follows);
	assert_string_equal(field_named(&p, "store")->follows, "cfg");
	/* shared_buffers is fixed by neither target nor cfg alone: by both */
	assert_string_equal(field_named(&p, "shared_buffers")->follows, "target, cfg");
	assert_int_equal(field_named(&p, "shared_buffers")->nvalues, 3);
	assert_string_equal(field_named(&p, "shared_buffers")->values[0], "NA");
	msg = refusal(&p, "memory", "sessions", true);
	expect_contains(msg, "store (memory, postgres; varies with cfg)");
	expect_contains(msg, "split with --group target,cfg,");
	expect_contains(msg, "--pool target,cfg");
	assert_null(strstr(msg, "--pool target,cfg,store"));
	free(msg);
	pooling_release(&p);

	/* pooling the fields they follow pools the followers too */
	in.pool = pool;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_false(pooling_refuses(&p));
	assert_true(field_named(&p, "store")->pooled);
	assert_true(field_named(&p, "shared_buffers")->pooled);
	pooling_release(&p);
	/* pooling cfg alone leaves target (and shared_buffers with it) */
	in.pool = pool_cfg;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_true(pooling_refuses(&p));
	assert_true(field_named(&p, "store")->pooled);
	assert_false(field_named(&p, "shared_buffers")->pooled);
	pooling_release(&p);
}

/*
 * Declared groups: a field that differs between groups but not within one
 * is not pooled; block kinds are judged per group (the capacity corpus's
 * soak block at small/pg/300, fs at medium/pg/100).
 */
static void test_groups(void **state)
{
	static const char *const level[] = {"100", "300", "100", "300", "300", "300",
					    "100", "300", "100", "300", "100", "100"};
	static const char *const group[] = {
		"cfg=pg, target=small",  "cfg=pg, target=small",  "cfg=pg, target=small",
		"cfg=pg, target=small",  "cfg=pg, target=small",  "cfg=pg, target=small",
		"cfg=pg, target=medium", "cfg=pg, target=medium", "cfg=pg, target=medium",
		"cfg=pg, target=medium", "cfg=pg, target=medium", "cfg=pg, target=medium"};
	static const char *const block[] = {"1", "1", "2", "2", "soak", "soak",
					    "1", "1", "2", "2", "fs",   "fs"};
	static const char *const buffers[] = {"296MB", "296MB", "296MB", "296MB", "296MB", "296MB",
					      "588MB", "588MB", "588MB", "588MB", "588MB", "588MB"};
	const struct pool_column cols[] = {{"shared_buffers", true, buffers}};
	struct pool_input in = {.n = 12,
				.level = level,
				.group = group,
				.block_field = "block",
				.block = block,
				.columns = cols,
				.ncolumns = 1};
	struct pooling p;
	char *msg;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 0);
	assert_int_equal(p.nkinds, 2);
	assert_string_equal(p.kinds[0].block, "soak");
	assert_string_equal(p.kinds[0].levels, "300");
	assert_string_equal(p.kinds[0].cell, "cfg=pg, target=small");
	assert_string_equal(p.kinds[1].block, "fs");
	assert_string_equal(p.kinds[1].levels, "100");
	assert_string_equal(p.kinds[1].all, "100, 300");
	msg = refusal(&p, "noise", "sessions", true);
	expect_contains(msg, "block soak (levels 300 of 100, 300; cfg=pg, target=small)");
	expect_contains(msg, "are each its own arm");
	expect_contains(msg, "--where block=1,2");
	assert_null(strstr(msg, "--group")); /* no field to split by */
	free(msg);
	pooling_release(&p);
	/* without the groups the buffers differ among the runs pooled together */
	in.group = NULL;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 1);
	pooling_release(&p);
}

/* A missing value is a value of its own; a level that is text sorts as text. */
static void test_missing_values(void **state)
{
	static const char *const level[] = {"a", "a", "b"};
	static const char *const gogc[] = {NULL, "NA", "400"};
	const struct pool_column cols[] = {{"gogc", false, gogc}};
	struct pool_input in = {.n = 3, .level = level, .columns = cols, .ncolumns = 1};
	struct pooling p;
	(void)state;
	assert_int_equal(pooling_detect(&in, &p), 0);
	assert_int_equal(p.nfields, 1);
	assert_int_equal(p.fields[0].nvalues, 2); /* NULL and "NA" are one missing value */
	assert_string_equal(p.fields[0].values[0], "NA");
	assert_string_equal(p.fields[0].values[1], "400");
	pooling_release(&p);
}

/* ---- from a database ---- */

/*
 * Six runs of one corpus: a sweep of gomaxprocs 1, 2 in blocks 1 and 2,
 * and an arm (results column `arm`, text) at gomaxprocs 2 only in block
 * 9; a unique text column `note`; `gen_sat` filled the canonical
 * gen_saturated (field_origins) and is not a candidate.
 */
static const char fixture_sql[] =
	"INSERT INTO corpora (corpus_id, name, source_path, content_hash, imported_at, layout,"
	"  manifest, options) VALUES (1, 'c', '/x', 'aa', '2026-01-01T00:00:00Z', 't', '', '');"
	"INSERT INTO runs (run_id, corpus_id, subcorpus, tag, seq, listed, results_line,"
	"  gomaxprocs, block, tput) VALUES"
	"  (1, 1, '', 'r1', 1, 1, 2, 1, '1', 100), (2, 1, '', 'r2', 2, 1, 3, 2, '1', 190),"
	"  (3, 1, '', 'r3', 3, 1, 4, 1, '2', 101), (4, 1, '', 'r4', 4, 1, 5, 2, '2', 195),"
	"  (5, 1, '', 'r5', 5, 1, 6, 2, '9', 300), (6, 1, '', 'r6', 6, 1, 7, 1, '9', 150);"
	"INSERT INTO run_attrs (run_id, source, name, value, num) VALUES"
	"  (1, 'results', 'arm', 'main', NULL), (2, 'results', 'arm', 'main', NULL),"
	"  (3, 'results', 'arm', 'main', NULL), (4, 'results', 'arm', 'main', NULL),"
	"  (5, 'results', 'arm', 'trace', NULL), (6, 'results', 'arm', 'trace', NULL),"
	"  (1, 'results', 'note', 'a', NULL), (2, 'results', 'note', 'b', NULL),"
	"  (3, 'results', 'note', 'c', NULL), (4, 'results', 'note', 'd', NULL),"
	"  (5, 'results', 'note', 'e', NULL), (6, 'results', 'note', 'f', NULL),"
	"  (1, 'results', 'gen_sat', 'false', NULL), (2, 'results', 'gen_sat', 'true', NULL),"
	"  (3, 'results', 'gen_sat', 'false', NULL), (4, 'results', 'gen_sat', 'true', NULL),"
	"  (5, 'results', 'gen_sat', 'false', NULL), (6, 'results', 'gen_sat', 'true', NULL);"
	"INSERT INTO field_origins (run_id, field, source, name) VALUES"
	"  (1, 'gen_saturated', 'results', 'gen_sat'), (2, 'gen_saturated', 'results', 'gen_sat'),"
	"  (3, 'gen_saturated', 'results', 'gen_sat'), (4, 'gen_saturated', 'results', 'gen_sat'),"
	"  (5, 'gen_saturated', 'results', 'gen_sat'), (6, 'gen_saturated', 'results', 'gen_sat');";

static int setup(void **state)
{
	return db_state_open(state, fixture_sql);
}

static void test_load_and_check(void **state)
{
	sqlite3 *db = *state;
	struct run_filter filter = {0};
	struct select_spec spec = {.filter = &filter, .by = "gomaxprocs", .metric = "tput"};
	struct selection sel;
	struct pooling p;
	assert_int_equal(select_runs(db, &spec, &sel), 0);
	assert_int_equal(sel.n, 6);
	assert_int_equal(pooling_load(db, &spec, &sel, &p), 0);
	/* arm counts (a factor), note does not (unique), gen_sat fills a canonical field */
	assert_int_equal(p.nfields, 1);
	assert_string_equal(p.fields[0].name, "arm");
	assert_string_equal(p.fields[0].values[1], "trace");
	/* block 9 holds both levels within arm=trace: no kind once arm splits the runs */
	assert_int_equal(p.nkinds, 0);
	pooling_release(&p);
	assert_int_equal(pooling_check(db, &spec, &sel, "sweep", NULL), ERR_USAGE);
	expect_contains(err_msg(), "arm (main, trace)");
	assert_null(sel.pooled);

	/* --pool arm: the check passes and the selection says what was pooled */
	assert_int_equal(run_filter_add_pool(&filter, "arm"), 0);
	assert_int_equal(pooling_check(db, &spec, &sel, "sweep", NULL), 0);
	assert_non_null(sel.pooled);
	assert_string_equal(sel.pooled, "arm (main, trace)");
	selection_release(&sel);
	run_filter_release(&filter);

	/* --where block=1,2: one arm, complete blocks */
	assert_int_equal(run_filter_add_where(&filter, "block=1,2"), 0);
	assert_int_equal(select_runs(db, &spec, &sel), 0);
	assert_int_equal(pooling_check(db, &spec, &sel, "sweep", NULL), 0);
	assert_null(sel.pooled);
	selection_release(&sel);
	run_filter_release(&filter);

	/* a --pool field that no run has is a usage error */
	assert_int_equal(run_filter_add_pool(&filter, "nosuch"), 0);
	assert_int_equal(select_runs(db, &spec, &sel), ERR_USAGE);
	run_filter_release(&filter);
	/* an empty name in --pool is refused */
	assert_int_equal(run_filter_add_pool(&filter, "arm,,block"), ERR_USAGE);
	run_filter_release(&filter);
}

/* Block kinds from the database: block 9 beside blocks 1, 2 within arm=main. */
static void test_load_block_kind(void **state)
{
	sqlite3 *db = *state;
	struct run_filter filter = {0};
	struct select_spec spec = {.filter = &filter, .by = "gomaxprocs", .metric = "tput"};
	struct selection sel;
	struct pooling p;
	assert_int_equal(db_exec(db, "UPDATE run_attrs SET value = 'main' WHERE name = 'arm' AND"
				     " run_id = 6"),
			 0);
	assert_int_equal(select_runs(db, &spec, &sel), 0);
	assert_int_equal(pooling_load(db, &spec, &sel, &p), 0);
	/* arm: main x5 (blocks 1, 2 at levels 1, 2; block 9 at level 1), trace x1 */
	assert_int_equal(p.nfields, 1);
	assert_int_equal(p.nkinds, 1);
	assert_string_equal(p.kinds[0].block, "9");
	assert_string_equal(p.kinds[0].levels, "1");
	assert_string_equal(p.kinds[0].cell, "arm=main");
	pooling_release(&p);
	selection_release(&sel);
	assert_int_equal(db_exec(db, "UPDATE run_attrs SET value = 'trace' WHERE name = 'arm' AND"
				     " run_id = 6"),
			 0);
}

/*
 * The selection's prefetch (pool_prefetch_*, read with select_runs) against
 * the second pass pooling_load() makes without it, on 642 runs of a corpus
 * `big` (i = 0..641; more runs than a code array starts with): gomaxprocs
 * 1, 2, 4, 8 in blocks of four (b0..b159), then the gctrace-like block gct
 * at 1 and 8; sessions 100 for i < 320, else 200; target NULL for i < 300,
 * else 'medium', cfg 'x' exactly where target is; variant 'plain' for 100
 * <= i < 200, else NULL; store 'memory' throughout; gogc the text 'NA' on
 * even runs and NULL on odd ones (one missing value); results column arm
 * 'main' throughout. The first run lacks target, cfg and variant: the query
 * reads them through one coalesce() and looks up the runs that have any.
 * Expected by hand: target (NA, medium), cfg following it, variant (NA,
 * plain), sessions (100, 200); block gct holds levels 1, 8 of the cell
 * target=medium, variant=NA, sessions=200, whose complete blocks are
 * b80..b159.
 */
static int big_fixture(sqlite3 *db)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;
	strbuf_adds(&sql, "INSERT INTO corpora (corpus_id, name, source_path, content_hash,"
			  " imported_at, layout, manifest, options) VALUES (2, 'big', '/y', 'bb',"
			  " '2026-01-01T00:00:00Z', 't', '', '');");
	for (int i = 0; i < 642; i++) {
		static const int levels[] = {1, 2, 4, 8};
		int level = i < 640 ? levels[i % 4] : (i == 640 ? 1 : 8);
		char block[16];
		snprintf(block, sizeof(block), i < 640 ? "b%d" : "gct", i / 4);
		strbuf_addf(&sql,
			    "INSERT INTO runs (run_id, corpus_id, subcorpus, tag, seq, listed,"
			    " results_line, gomaxprocs, sessions, block, tput, target, cfg, store,"
			    " gogc, variant) VALUES (%d, 2, '', 'big%d', %d, 1, %d, %d, %d, '%s',"
			    " %d.25, %s, %s, 'memory', %s, %s);"
			    "INSERT INTO run_attrs (run_id, source, name, value, num) VALUES"
			    " (%d, 'results', 'arm', 'main', NULL);",
			    100 + i, i, i + 1, i + 2, level, i < 320 ? 100 : 200, block, 1000 + i,
			    i < 300 ? "NULL" : "'medium'", i < 300 ? "NULL" : "'x'",
			    i % 2 ? "NULL" : "'NA'", i >= 100 && i < 200 ? "'plain'" : "NULL",
			    100 + i);
	}
	rc = db_exec(db, strbuf_str(&sql));
	strbuf_release(&sql);
	return rc;
}

static void expect_same_pooling(const struct pooling *a, const struct pooling *b)
{
	assert_int_equal(a->nfields, b->nfields);
	for (size_t i = 0; i < a->nfields; i++) {
		assert_string_equal(a->fields[i].name, b->fields[i].name);
		assert_int_equal(a->fields[i].nvalues, b->fields[i].nvalues);
		for (size_t v = 0; v < a->fields[i].nvalues; v++)
			assert_string_equal(a->fields[i].values[v], b->fields[i].values[v]);
		assert_true(!a->fields[i].follows == !b->fields[i].follows);
		if (a->fields[i].follows)
			assert_string_equal(a->fields[i].follows, b->fields[i].follows);
		assert_int_equal(a->fields[i].pooled, b->fields[i].pooled);
	}
	assert_int_equal(a->nkinds, b->nkinds);
	for (size_t k = 0; k < a->nkinds; k++) {
		assert_string_equal(a->kinds[k].block, b->kinds[k].block);
		assert_string_equal(a->kinds[k].cell, b->kinds[k].cell);
		assert_string_equal(a->kinds[k].levels, b->kinds[k].levels);
		assert_string_equal(a->kinds[k].all, b->kinds[k].all);
	}
	assert_int_equal(a->ncomplete, b->ncomplete);
	for (size_t k = 0; k < a->ncomplete; k++)
		assert_string_equal(a->complete[k], b->complete[k]);
	assert_int_equal(a->kinds_pooled, b->kinds_pooled);
}

/* pooling_load() with the selection's prefetch and without it (the second pass). */
static void load_both_ways(sqlite3 *db, const struct select_spec *spec, struct pooling *with,
			   struct pooling *without)
{
	struct selection sel;
	struct pool_prefetch *prefetch;
	assert_int_equal(select_runs(db, spec, &sel), 0);
	assert_int_equal(sel.n, 642);
	assert_non_null(sel.prefetch);
	assert_int_equal(pooling_load(db, spec, &sel, with), 0);
	prefetch = sel.prefetch;
	sel.prefetch = NULL;
	assert_int_equal(pooling_load(db, spec, &sel, without), 0);
	sel.prefetch = prefetch;
	selection_release(&sel);
}

static void test_prefetch_matches_second_pass(void **state)
{
	sqlite3 *db = *state;
	struct run_filter filter = {0};
	struct select_spec spec = {.filter = &filter, .by = "gomaxprocs", .metric = "tput"};
	struct pooling with, without;
	assert_int_equal(big_fixture(db), 0);
	assert_non_null(filter.corpus = strdup("big"));
	load_both_ways(db, &spec, &with, &without);
	expect_same_pooling(&with, &without);
	assert_int_equal(with.nfields, 4);
	assert_string_equal(with.fields[0].name, "target");
	assert_string_equal(with.fields[0].values[0], "NA");
	assert_string_equal(with.fields[0].values[1], "medium");
	assert_string_equal(with.fields[1].name, "cfg");
	assert_string_equal(with.fields[1].follows, "target");
	assert_string_equal(with.fields[2].name, "variant");
	assert_string_equal(with.fields[2].values[1], "plain");
	assert_null(with.fields[2].follows);
	assert_string_equal(with.fields[3].name, "sessions");
	assert_string_equal(with.fields[3].values[1], "200");
	assert_int_equal(with.nkinds, 1);
	assert_string_equal(with.kinds[0].block, "gct");
	assert_string_equal(with.kinds[0].levels, "1, 8");
	assert_string_equal(with.kinds[0].all, "1, 2, 4, 8");
	assert_string_equal(with.kinds[0].cell, "target=medium, variant=NA, sessions=200");
	assert_int_equal(with.ncomplete, 80);
	assert_string_equal(with.complete[0], "b80");
	assert_string_equal(with.complete[79], "b159");
	pooling_release(&with);
	pooling_release(&without);

	/* --pool of a real column (read as text) and of a results column; a --group */
	assert_int_equal(run_filter_add_pool(&filter, "tput,arm,target,variant,sessions"), 0);
	load_both_ways(db, &spec, &with, &without);
	expect_same_pooling(&with, &without);
	assert_int_equal(with.nfields, 5);
	assert_string_equal(with.fields[4].name, "tput"); /* every run its own value */
	assert_int_equal(with.fields[4].nvalues, 642);
	assert_string_equal(with.fields[4].values[0], "1000.25");
	assert_false(pooling_refuses(&with));
	assert_int_equal(with.nkinds, 0); /* every run a cell of its own (tput) */
	pooling_release(&with);
	pooling_release(&without);
	run_filter_release(&filter);
	assert_non_null(filter.corpus = strdup("big"));
	{
		static const char *const group[] = {"sessions", NULL};
		spec.group = group;
		load_both_ways(db, &spec, &with, &without);
		expect_same_pooling(&with, &without);
		assert_null(field_named(&with, "sessions")); /* declared: no candidate */
		assert_int_equal(with.nkinds, 1);
		assert_string_equal(with.kinds[0].cell, "sessions=200, target=medium, variant=NA");
		pooling_release(&with);
		pooling_release(&without);
		spec.group = NULL;
	}
	/* the first run has every column: none is grouped */
	assert_int_equal(db_exec(db, "UPDATE runs SET target = 'small', cfg = 'y', variant ="
				     " 'plain' WHERE run_id = 100"),
			 0);
	load_both_ways(db, &spec, &with, &without);
	expect_same_pooling(&with, &without);
	assert_string_equal(with.fields[0].values[0], "small");
	assert_string_equal(with.fields[0].values[1], "NA");
	pooling_release(&with);
	pooling_release(&without);
	run_filter_release(&filter);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varying_arm_field),
		cmocka_unit_test(test_mirror_of_level),
		cmocka_unit_test(test_block_kind),
		cmocka_unit_test(test_no_complete_block),
		cmocka_unit_test(test_identifier_is_not_a_factor),
		cmocka_unit_test(test_followers),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test_setup_teardown(test_load_and_check, setup, db_state_close),
		cmocka_unit_test_setup_teardown(test_load_block_kind, setup, db_state_close),
		cmocka_unit_test_setup_teardown(test_prefetch_matches_second_pass, setup, db_state_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
