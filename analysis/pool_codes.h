/*
 * pool_codes: what the pooling modules share (internal to analysis/pooling.c,
 * pool_words.c, pool_prefetch.c and pool_load.c; see pooling.h for the
 * rules): the candidates, codebooks (each distinct value once, numbered in
 * order of first appearance), columns as codes, interned texts, the
 * prefetch's state, and the input the detection reads.
 */
#ifndef COREPLAN_POOL_CODES_H
#define COREPLAN_POOL_CODES_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "pooling.h"

/* The canonical candidates, in the order pooling.h gives. */
extern const char *const pool_canonical_candidates[];

/* Values the shown lists hold at most ("..." and the count beyond). */
#define POOL_SHOWN_VALUES 8

/* NULL or "NA" (inline: callers pass NULL and rely on it being missing) */
static inline bool pool_missing(const char *v)
{
	return !v || (v[0] == 'N' && v[1] == 'A' && !v[2]);
}

/* "NA" for a missing value */
static inline const char *pool_shown(const char *v)
{
	return pool_missing(v) ? "NA" : v;
}

/* name is in the NULL-terminated list (NULL: an empty list) */
bool pool_listed(const char *const *list, const char *name);
int pool_push_text(char ***list, size_t *n, const char *text);
/* NULL-terminate a list of n */
int pool_terminate(char ***list, size_t n);

/* ---- codebooks ---- */

/*
 * The codes of the values seen so far: open addressing over the codes
 * (FNV-1a of a text, a mix of an integer); the missing value (NULL, "NA")
 * has a code of its own and no slot. A book holds texts or integers, never
 * both.
 */
struct codebook {
	size_t *slots;  /* code + 1; 0: empty */
	size_t cap;     /* 0, or a power of two above twice n */
	uint64_t *keys; /* per code: its text's hash, or the integer */
	char **text;    /* per code: the value as text (owned); NULL: the missing value */
	size_t n, alloc;
	size_t missing; /* the missing value's code; SIZE_MAX until seen */
	bool integer;   /* keys are integers (else hashes of texts) */
	bool no_text;   /* an integer book that keeps no texts (pairs of codes) */
};

void pool_book_init(struct codebook *b, bool integer, bool no_text);
void pool_book_release(struct codebook *b);
int pool_book_missing(struct codebook *b, size_t *code);
int pool_book_text(struct codebook *b, const char *text, size_t *code);
/* An integer's code; its text is what CAST(v AS TEXT) gives ("%lld"). */
int pool_book_int(struct codebook *b, int64_t v, size_t *code);
/* codes[i] = the code of v[i] (consecutive runs mostly share a value: no hash for them). */
int pool_code_texts(const char *const *v, size_t n, struct codebook *b, size_t *codes);

/* ---- columns as codes ---- */

/* A candidate as codes: each run's value numbered in order of first appearance. */
struct coded {
	const char *name;
	bool factor_rule;   /* a results-table column: counts only when it is a factor */
	const size_t *code; /* per run; NULL when there is one value (every code 0) */
	size_t ndistinct;
	char *const *text; /* per code (NULL: missing) */
};

static inline size_t pool_code_at(const struct coded *col, size_t i)
{
	return col->code ? col->code[i] : 0;
}

/* A column coded here: its codebook and each run's code. */
struct coded_buf {
	struct codebook book;
	size_t *code;
};

int pool_code_column(const char *const *v, size_t n, struct coded_buf *buf);
void pool_coded_buf_release(struct coded_buf *buf);
struct coded pool_coded_view(const char *name, bool factor_rule, const struct coded_buf *buf);

/* What detect() reads: pool_input with its columns, block and groups as codes. */
struct detect_input {
	size_t n;
	/* the block kinds' levels: as codes, or NULL and coded from the texts
	 * (pooling_load() gives the codes whenever the block has two values) */
	const char *const *level;
	const struct coded *level_codes;
	const struct coded *group;     /* NULL: no groups */
	const char *const *group_text; /* per run, with group */
	const char *block_field;
	const struct coded *block; /* NULL: no block kinds */
	const struct coded *columns;
	size_t ncolumns;
	const char *const *pool;
};

/* The detection of pooling.h on codes (pooling_detect and pooling_load call it). */
int pool_detect(const struct detect_input *in, struct pooling *out);

/* ---- texts and SQL for the database passes ---- */

/*
 * The distinct texts of one column: every run's value points into it, so
 * a value is copied once, not once per run (open addressing, FNV-1a).
 */
struct intern {
	char **slots;
	size_t cap, n;
};
const char *pool_intern_add(struct intern *t, const char *text);
void pool_intern_release(struct intern *t);

/* The base names of FIELD@SOURCE are equal. */
bool pool_same_field(const char *a, const char *b);
/* The level, the block or a group field: never a candidate. */
bool pool_excluded_name(const struct select_spec *spec, const char *block, const char *name);
/* Prepare SQL text and bind binds to it; the statement is the caller's. */
int pool_prepare(sqlite3 *db, const struct strbuf *sql, char **binds, size_t nbinds,
		 sqlite3_stmt **stmt);

/* ---- the prefetch (pool_prefetch.c fills it, pool_load.c reads it) ---- */

/*
 * A column coded as the runs come: a value like the previous run's is not
 * hashed, and the codes are kept only once a second value appears (most
 * candidates hold one value in every run).
 */
struct col_coder {
	struct codebook book;
	size_t *code;          /* per run taken; NULL while every code is 0 */
	size_t cap;            /* room in code */
	size_t last;           /* the previous run's code; SIZE_MAX before the first */
	const char *last_text; /* its text (NULL: missing) */
	int64_t last_int;      /* its integer (an integer book) */
};

struct prefetch_col {
	const struct field_info *info;
	struct col_coder cc;
	bool grouped; /* read through the group's coalesce (and the lookup) */
};

/*
 * The columns of runs the query reads for pooling. A column is read as
 * itself, or, when the filter's first run has none of it (most candidates
 * of most corpora are missing throughout: no target, no variant), as one of
 * the group: the query reads coalesce() over the group, and a run that has
 * any of them is read again by run_id (the lookup).
 */
struct pool_prefetch {
	struct prefetch_col *cols; /* the grouped ones last */
	size_t ncols, ngrouped;
	bool quiet;           /* every grouped column missing so far */
	sqlite3_stmt *lookup; /* the grouped columns of one run, prepared when first needed */
	/* the selection's own strings: the --group text, the --block value */
	struct col_coder group, block;
	bool has_group, has_block;
	size_t n; /* runs taken */
};

#endif
