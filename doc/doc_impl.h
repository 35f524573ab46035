/*
 * doc_impl: what the document model (doc.c) shares with its writers
 * (write_*.c) and nothing else includes: the structs behind doc.h's
 * opaque types, and the one way a writer reads a table's rows.
 */
#ifndef COREPLAN_DOC_IMPL_H
#define COREPLAN_DOC_IMPL_H

#include "doc.h"

#include "../common/strpool.h"

/* One cell: which member holds the value is the column's type (16 bytes, not 40). */
struct cell {
	union {
		char *text; /* DOC_TEXT: in the doc's cell_texts (a streamed table's: malloc'd) */
		double real;
		int64_t i;
		bool b;
	} v;
	bool set;
};

/* A writer's use of one row (streamed tables hand it their rows one at a time). */
typedef int (*row_fn)(const struct doc_table *t, const struct cell *row, void *arg);

struct doc_table {
	struct doc *doc;
	struct doc_col *cols; /* name and unit point into names[] and units[] */
	char **names, **units;
	size_t ncols;
	struct cell *cells; /* nrows * ncols */
	size_t nrows, alloc;
	bool hide_empty;
	bool quiet; /* machine formats only */
	char *empty_text;
	/* streamed (doc_table_stream): fill makes the rows when a writer asks, one at a time */
	doc_fill_fn fill;
	void *fill_arg;
	void (*free_arg)(void *);
	struct doc_table *self; /* writing a const doc runs fill on its own table */
	row_fn sink;            /* the writer's, during fill */
	void *sink_arg;
	int sink_rc;
	size_t emitted;
};

/* One part of a section after its notes (doc.h, "Composition"). */
enum doc_part_kind { DOC_PART_DOC, DOC_PART_FIGURE, DOC_PART_TEXT, DOC_PART_STATUS, DOC_PART_PRE };
struct doc_part {
	enum doc_part_kind kind;
	struct doc *doc;        /* DOC: owned */
	char *heading;          /* DOC: its heading, or NULL */
	char *text;             /* TEXT: the paragraph; STATUS: the reason; FIGURE: the caption */
	char *image, *alt;      /* FIGURE */
	bool files;             /* FIGURE: IMAGE.tsv and IMAGE.gp beside it */
	enum doc_status status; /* STATUS */
};

struct doc_section {
	struct doc *doc;
	char *name, *title;
	char **text;
	size_t ntext;
	char **notes;
	char **note_links; /* per note: the anchor it points at, or NULL; NULL when none has one */
	size_t nnotes;
	struct doc_table *table;
	struct doc_part *parts;
	size_t nparts;
	bool quiet; /* machine formats only */
};

struct fact {
	char *name, *label, *unit;
	enum doc_role role;
	enum doc_type type;
	bool missing;
	char *text;
	double real;
	int64_t i;
	bool b;
	char *shown; /* as Markdown shows the value */
};

struct left_out {
	char *tag, *reason;
};

struct doc {
	char *command, *title;
	struct fact *facts;
	size_t nfacts;
	struct doc_section **sections;
	size_t nsections;
	struct left_out *left_out;
	size_t nleft_out;
	/*
	 * The text cells of its stored tables, freed at once by doc_free: a
	 * malloc and a free per cell were a tenth of `memory` on 10,000 runs.
	 */
	struct strpool cell_texts;
	bool oom;
};

/* The current row of a streamed table is complete: to the writer, then gone. */
void doc_stream_emit(struct doc_table *t);
/*
 * Every row of t to fn, in order: a stored table's from its cells, a
 * streamed table's as fill makes them (*rows: how many).
 */
int doc_each_row(const struct doc_table *t, row_fn fn, void *arg, size_t *rows);
/* A cell as Markdown (and HTML) shows it, or NULL when missing. buf holds 32 bytes. */
const char *doc_cell_shown(const struct doc_col *col, const struct cell *c, char buf[32]);
/* A cell for tsv, csv and JSON: bools 1/0, reals with every digit; NULL when missing. */
const char *doc_cell_machine(const struct doc_col *col, const struct cell *c, char buf[32]);
/* The heading every writer gives the runs left out: "Runs left out (N)". */
struct left_out_title {
	char text[64];
};
struct left_out_title doc_left_out_title(const struct doc *d);
/* "cannot write output: ..." from errno. */
int doc_write_failed(void);
/* tsv (sep '\t') or csv (sep ','): one table, or the facts (doc.h, "Formats"). */
int doc_write_delim(const struct doc *d, const char *view, FILE *fp, int sep);
int doc_write_json(const struct doc *d, const char *view, FILE *fp);

#endif
