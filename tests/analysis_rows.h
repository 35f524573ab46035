/*
 * analysis_rows: what the analysis tests share (test_sweep.c, test_noise.c,
 * test_compare.c, test_memory.c, test_select.c): closeness checks,
 * selections built by hand (no database) from rows copied from the real
 * sky corpora under SHARED_CORPORA/sky --
 *   gomaxprocs-scaling-20260816/results.tsv, the 12 rows with block 1, 2, 3
 *     (tag, gomaxprocs, block, tput, app_cores), started_at from
 *     runs/<tag>/load.json;
 *   gcp-x86-capacity-20260816/results.tsv, the target=small rows of cfg mem
 *     and pg with block 1, 2, 3 and soak (tag, level = sessions, block,
 *     tput), started_at from json/<tag>.json
 * -- and the document checks (facts, sections, cells).
 */
#ifndef COREPLAN_TESTS_ANALYSIS_ROWS_H
#define COREPLAN_TESTS_ANALYSIS_ROWS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/select.h"
#include "common/err.h"
#include "doc/doc.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-12

struct row {
	const char *tag;
	double level;      /* ignored when level_text is given */
	const char *block; /* NULL: no block value */
	double metric;
	const char *started_at; /* NULL: none */
	int64_t seq;
	double app_cores;       /* NAN: absent */
	const char *group;      /* NULL: "" */
	const char *level_text; /* NULL: "%g" of level, numeric */
};

/* s kept in sel's pool (select.h: a selection's texts), NULL stays NULL (asserting memory) */
char *dup_or_null(struct selection *sel, const char *s);
/* Every string is in sel->strings, as select_runs() keeps them: selection_release() frees them. */
void build(struct selection *sel, const struct row *rows, size_t n);

#define GMP_ROWS 12
#define CAP_ROWS 26
#define SMEM "target=small, cfg=mem"
#define SPG "target=small, cfg=pg"
#define MMEM "target=medium, cfg=mem"
#define MPG "target=medium, cfg=pg"
extern const struct row gmp_rows[GMP_ROWS];
extern const struct row cap_rows[CAP_ROWS];

/*
 * gcp-x86-capacity-20260816/results.tsv, every row of blocks 1, 2, 3 (36),
 * of one target and cfg (or every one with NULL), with the metric tput or
 * err, grouped by target,cfg as `noise --group target,cfg` selects them:
 * extra 0 target, 1 cfg, 2 duration_s ("90").
 */
void build_cap36(struct selection *sel, bool err, const char *target, const char *cfg);

/*
 * Constructed: three runs at level 1 in blocks 1, 2, 3, a minute apart
 * (tags first, second, third), whose metric is FIRST, SECOND and THIRD: a
 * first run against the median of the later ones (noise's burst check).
 */
void build_first_and_later(struct selection *sel, double first, double second, double third);

/* The Markdown of a whole doc (caller frees). */
static inline char *md_of(const struct doc *d)
{
	struct memout m;
	assert_int_equal(doc_write(d, DOC_MD, NULL, memout_open(&m)), 0);
	return memout_text(&m);
}

static inline void check_fact_text(const struct doc *d, const char *name, const char *want)
{
	const char *got = doc_fact_string(d, name);
	if (!got || strcmp(got, want))
		fail_msg("fact %s: '%s', expected '%s'", name, got ? got : "(none)", want);
}

static inline void check_fact_shown(const struct doc *d, const char *name, const char *want)
{
	const char *got = doc_fact_shown(d, name);
	if (!got || strcmp(got, want))
		fail_msg("fact %s shown '%s', expected '%s'", name, got ? got : "(none)", want);
}

/* Each of facts[] (NULL-terminated "name=text", split at the first '=') is a fact with that text. */
static inline void check_fact_texts(const struct doc *d, const char *const *facts)
{
	for (size_t i = 0; facts[i]; i++) {
		char name[64];
		const char *want = split_name_value(facts[i], name, sizeof(name));
		check_fact_text(d, name, want);
	}
}

/* The doc's sections, by name, in order: "a,b,c". */
static inline void check_sections(const struct doc *d, const char *want)
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

static inline size_t rows_of(const struct doc *d, const char *section)
{
	const struct doc_section *s = doc_find_section(d, section);
	assert_non_null(s);
	return doc_table_rows(doc_section_table(s));
}

/* A number cell of a section's table, by row and column name. */
static inline double cell_of_doc(const struct doc *d, const char *section, size_t row,
				 const char *col)
{
	const struct doc_table *t = doc_section_table(doc_find_section(d, section));
	int c = doc_table_find(t, col);
	assert_true(c >= 0);
	return doc_cell_number(t, row, (size_t)c);
}

#endif
