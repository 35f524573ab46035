/*
 * doc: the result document every command produces, and the one writer
 * per output format that renders any document.
 *
 * A command is request -> analysis -> document -> writer. The analysis
 * (analysis/) computes a result struct; a builder (reports/builders.h)
 * turns it into a struct doc; doc_write() renders the doc as md, json,
 * tsv or csv. `coreplan report` composes the same documents in
 * process, so a report's sections are the commands' documents.
 *
 * A document holds:
 *   title      one line ("Sweep of tput by gomaxprocs")
 *   facts      named, typed values with a unit and a label: n, method,
 *              inputs, filters, verdicts, the figures a note mentions.
 *              Every number the Markdown shows is a fact or a table cell,
 *              so the JSON carries it as a number (never only in prose).
 *   sections   in order, each with a stable name (its view name), a
 *              title, paragraphs of text, at most one table, and notes
 *              (bulleted remarks under the table)
 *   left out   the runs the selection matched but the analysis did not
 *              use, each with its reason
 *
 * Tables have typed columns (struct doc_col): a name (stable, the tsv/csv
 * header and the JSON key), a type, a unit, and how Markdown rounds it.
 * Builders store values, never formatted text: the writers format. A
 * missing value is NaN for reals, or a cell left unset.
 *
 * Formats:
 *   md    "## title", the listed facts as "- label: value unit" bullets,
 *         each section as "### title", its text, its table (numbers
 *         right-aligned, rounded as the column says, columns missing in
 *         every row hidden when the table asks), its notes as bullets,
 *         the runs left out (the first DOC_LEFT_OUT_SHOWN named), and a
 *         footer with the provenance facts. Text from corpora is escaped:
 *         control characters become \xNN, `<` and `&` become entities,
 *         and in cells `|` and Markdown emphasis characters are escaped.
 *   json  one object (shape documented in schema/README.md, "JSON
 *         output"; stable: names are only ever added):
 *           {"coreplan": VERSION, "format": 1, "command": C, "title": T,
 *            "facts": {NAME: {"value": V, "unit": U, "label": L}, ...},
 *            "sections": {NAME: {"title": T, "text": [...],
 *                "columns": [{"name", "type", "unit"}, ...],
 *                "rows": [{COLUMN: VALUE, ...}, ...], "notes": [...]}, ...},
 *            "left_out": [{"tag": TAG, "reason": R}, ...]}
 *         Reals have every digit (shortest text that reads back exactly);
 *         a missing value is null; non-UTF-8 bytes become U+FFFD.
 *   html  one self-contained page with the Markdown's content (doc_write_html below).
 *   tsv, csv  one table: the section named by the view (default: the
 *         command's first view); the view "facts" is the facts as rows of
 *         name, value, unit, label. Every digit; RFC 4180 csv via libcsv
 *         ("" is an empty string).
 *   text  what a person reads at a terminal (doc/write_term.c), the
 *         default when standard output is one: the md content as plain
 *         text wrapped to the terminal's width (no Markdown escapes, no
 *         code-span backticks), tables laid out to fit it (wide text
 *         columns wrapped or moved under their row, columns that still do
 *         not fit in panels led by the first column), a unit line under
 *         the column names, times, byte sizes and rates scaled as Go
 *         benchstat does (doc/term.h). Controls from corpora as \xNN.
 * A missing value is spelled one way in each format, and the same in all
 * but JSON: NA (md, text and html cells and facts, tsv, csv; coreplan's
 * importers read NA as missing too); null in JSON.
 *
 * Memory: a doc owns every string given to it (copied). Adding to a doc
 * never fails loudly: an allocation failure marks the doc, and the next
 * doc_write() (or doc_error()) reports "out of memory", so builders do
 * not check each call. doc_free() frees everything.
 */
#ifndef COREPLAN_DOC_H
#define COREPLAN_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define DOC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DOC_PRINTF(a, b)
#endif

enum doc_format { DOC_MD, DOC_TSV, DOC_CSV, DOC_JSON, DOC_HTML, DOC_TERM };

/* "md" (or "markdown"), "tsv", "csv", "json", "html", "text" (DOC_TERM); -1 otherwise. */
int doc_format_parse(const char *name, enum doc_format *format);
const char *doc_format_name(enum doc_format format);

enum doc_type { DOC_TEXT, DOC_INT, DOC_REAL, DOC_BOOL };

/*
 * A column. style and precision say how Markdown rounds a DOC_REAL:
 * 'f' = that many decimals, 'g' = that many significant digits (0 means
 * 'g', 6). Machine formats always print every digit.
 */
struct doc_col {
	const char *name;
	enum doc_type type;
	const char *unit; /* NULL or "" when none */
	char style;
	int precision;
};

/* Shorthands for column tables. */
#define DOC_COL_TEXT(name)                                                                         \
	{                                                                                          \
		name, DOC_TEXT, NULL, 0, 0                                                         \
	}
#define DOC_COL_INT(name, unit)                                                                    \
	{                                                                                          \
		name, DOC_INT, unit, 0, 0                                                          \
	}
#define DOC_COL_BOOL(name)                                                                         \
	{                                                                                          \
		name, DOC_BOOL, NULL, 0, 0                                                         \
	}
#define DOC_COL_REAL(name, unit, style, precision)                                                 \
	{                                                                                          \
		name, DOC_REAL, unit, style, precision                                             \
	}

/* Where a fact shows in Markdown (every fact is in the JSON and the facts view). */
enum doc_role {
	DOC_LISTED,     /* in the bullet list under the title */
	DOC_QUIET,      /* not listed: a note or a table shows it */
	DOC_PROVENANCE, /* in the footer: database, corpora, content hash, version */
};

struct doc;
struct doc_section;
struct doc_table;
struct strbuf;

struct doc *doc_new(const char *command, const char *title);
void doc_free(struct doc *d);
/* 0, or ERR_DATA ("out of memory") when an earlier addition failed. */
int doc_error(const struct doc *d);
const char *doc_command(const struct doc *d);
const char *doc_title(const struct doc *d);
void doc_set_title(struct doc *d, const char *fmt, ...) DOC_PRINTF(2, 3);

/*
 * Facts. Names are unique within a doc (a second fact of the same name
 * replaces the first). The real and int forms return the value as
 * Markdown shows it (owned by the doc, valid until doc_free), so a note
 * can quote exactly the digits the fact has:
 *   doc_note(s, "per doubling %s", doc_fact_real(d, "per_doubling", ...));
 * A NaN real is stored as null and returns "NA".
 */
void doc_fact_text(struct doc *d, const char *name, const char *label, enum doc_role role,
		   const char *value);
const char *doc_fact_real(struct doc *d, const char *name, const char *label, enum doc_role role,
			  double value, const char *unit, char style, int precision);
const char *doc_fact_int(struct doc *d, const char *name, const char *label, enum doc_role role,
			 int64_t value, const char *unit);
void doc_fact_bool(struct doc *d, const char *name, const char *label, enum doc_role role,
		   bool value);
/* A fact's value as Markdown shows it, or NULL when there is no such fact. */
const char *doc_fact_shown(const struct doc *d, const char *name);
/* The value of a real or int fact; NaN when absent, missing or text. */
double doc_fact_number(const struct doc *d, const char *name);
/* The value of a text fact, or NULL. */
const char *doc_fact_string(const struct doc *d, const char *name);

/* A new section at the end (NULL only when out of memory: the doc is marked). */
struct doc_section *doc_section(struct doc *d, const char *name, const char *title);
/* The section named `name`, or NULL. */
struct doc_section *doc_find_section(const struct doc *d, const char *name);
size_t doc_section_count(const struct doc *d);
struct doc_section *doc_section_at(const struct doc *d, size_t i);
const char *doc_section_name(const struct doc_section *s);
const char *doc_section_title(const struct doc_section *s);

/* A paragraph before the table, and a bulleted note after it. NULL section: ignored. */
void doc_text(struct doc_section *s, const char *fmt, ...) DOC_PRINTF(2, 3);
void doc_note(struct doc_section *s, const char *fmt, ...) DOC_PRINTF(2, 3);

/* The section's table (one per section; a second call returns the first). */
struct doc_table *doc_table(struct doc_section *s, const struct doc_col *cols, size_t ncols);
struct doc_table *doc_section_table(const struct doc_section *s);
/* In Markdown, leave out columns that are missing in every row. */
void doc_table_hide_empty(struct doc_table *t);
/* What Markdown prints instead of a table with no rows (default "none"). */
void doc_table_empty_text(struct doc_table *t, const char *text);

/* Start a row (every cell missing), then set cells by column index. */
void doc_row(struct doc_table *t);
void doc_set_text(struct doc_table *t, size_t col, const char *text);
void doc_set_real(struct doc_table *t, size_t col, double value); /* NaN: missing */
void doc_set_int(struct doc_table *t, size_t col, int64_t value);
void doc_set_bool(struct doc_table *t, size_t col, bool value);
/*
 * A table whose rows are an array of structs, declared as data: each
 * column (struct doc_field) names the member its cells come from, so a
 * builder lists a column once and fills a row with one call. The DOC_*_OF
 * macros take the column as DOC_COL_* does, then the struct type and the
 * member (a nested one too: cpu.tick_hz); how the member is read follows
 * from its C type, checked when compiling (another type does not compile):
 *   const char *, char[N]  text (NULL: missing)   double  a real (NaN: missing)
 *   int, long, long long, size_t  an integer      bool    a bool (0 or 1 in an int column)
 * DOC_TEXT_SET_OF: text where "" is missing too. DOC_YES_NO_OF: a bool as
 * the text "yes" or "no". DOC_FIELD_NONE(col) is a column the builder sets
 * itself (doc_set_*).
 */
enum doc_from {
	DOC_FROM_NONE,
	DOC_FROM_STR,
	DOC_FROM_CHARS,
	DOC_FROM_INT,
	DOC_FROM_LONG,
	DOC_FROM_LLONG,
	DOC_FROM_SIZE,
	DOC_FROM_DOUBLE,
	DOC_FROM_BOOL,
	DOC_FROM_YES_NO,
};
struct doc_field {
	struct doc_col col;
	enum doc_from from;
	size_t offset;
	bool empty_missing; /* text: "" is missing */
};
#define DOC_FROM_MEMBER(type, member)                                                              \
	_Generic(&((type *)0)->member,                                                             \
		const char **: DOC_FROM_STR,                                                       \
		char **: DOC_FROM_STR,                                                             \
		char(*)[sizeof(((type *)0)->member)]: DOC_FROM_CHARS,                              \
		int *: DOC_FROM_INT,                                                               \
		long *: DOC_FROM_LONG,                                                             \
		long long *: DOC_FROM_LLONG,                                                       \
		size_t *: DOC_FROM_SIZE,                                                           \
		double *: DOC_FROM_DOUBLE,                                                         \
		bool *: DOC_FROM_BOOL)
#define DOC_FIELD(col, type, member)                                                               \
	{                                                                                          \
		col, DOC_FROM_MEMBER(type, member), offsetof(type, member), false                  \
	}
#define DOC_TEXT_OF(name, type, member) DOC_FIELD(DOC_COL_TEXT(name), type, member)
#define DOC_INT_OF(name, unit, type, member) DOC_FIELD(DOC_COL_INT(name, unit), type, member)
#define DOC_BOOL_OF(name, type, member) DOC_FIELD(DOC_COL_BOOL(name), type, member)
#define DOC_REAL_OF(name, unit, style, precision, type, member)                                    \
	DOC_FIELD(DOC_COL_REAL(name, unit, style, precision), type, member)
#define DOC_TEXT_SET_OF(name, type, member)                                                        \
	{                                                                                          \
		DOC_COL_TEXT(name), DOC_FROM_MEMBER(type, member), offsetof(type, member), true    \
	}
#define DOC_YES_NO_OF(name, type, member)                                                          \
	{                                                                                          \
		DOC_COL_TEXT(name),                                                                \
			DOC_FROM_YES_NO + 0 * sizeof(_Generic(&((type *)0)->member, bool * : 1)),  \
			offsetof(type, member), false                                              \
	}
#define DOC_FIELD_NONE(col)                                                                        \
	{                                                                                          \
		col, DOC_FROM_NONE, 0, false                                                       \
	}
#define DOC_NFIELDS(fields) (sizeof(fields) / sizeof((fields)[0]))
/* The section's table of these columns (as doc_table). */
struct doc_table *doc_table_of(struct doc_section *s, const struct doc_field *fields, size_t ncols);
/* In the current row, the cells of the bound columns from..to-1 (indexes into fields) from *row. */
void doc_set_fields(struct doc_table *t, const struct doc_field *fields, size_t from, size_t to,
		    const void *row);
/* A row for each of the nrows structs of `size` bytes at rows, every bound column set. */
void doc_rows_of(struct doc_table *t, const struct doc_field *fields, size_t ncols,
		 const void *rows, size_t nrows, size_t size);

/*
 * A streamed table: its rows are not kept in the doc but made when a
 * writer reaches the table (doc_table_stream before its first row), by
 * fill(t, arg), which adds them with doc_row
 * and doc_set_* as a builder would; each row goes to the writer when the
 * next one starts (or fill returns), so a table of any length holds one
 * row. Markdown calls fill twice (column widths and empty columns first,
 * then the rows), the other formats once: fill must make the same rows
 * each time, and may stop early once doc_table_stopped(t) (the writer
 * failed, e.g. its output is gone). fill returns 0 or an error (the
 * writer's result). The doc owns arg: doc_free calls free_arg(arg) (NULL:
 * nothing is freed). A streamed table's cells cannot be read back
 * (doc_cell_* see none), and doc_table_rows() counts the rows the last
 * writing made (0 before one).
 */
typedef int (*doc_fill_fn)(struct doc_table *t, void *arg);
void doc_table_stream(struct doc_table *t, doc_fill_fn fill, void *arg, void (*free_arg)(void *));
bool doc_table_stopped(const struct doc_table *t);
size_t doc_table_rows(const struct doc_table *t);
size_t doc_table_cols(const struct doc_table *t);
const struct doc_col *doc_table_col(const struct doc_table *t, size_t col);
/* Column index by name, or -1. */
int doc_table_find(const struct doc_table *t, const char *name);
/* A cell: its text (NULL when missing or not text) or number (NaN when missing). */
const char *doc_cell_text(const struct doc_table *t, size_t row, size_t col);
double doc_cell_number(const struct doc_table *t, size_t row, size_t col);
bool doc_cell_missing(const struct doc_table *t, size_t row, size_t col);

/*
 * Composition: a section may hold, after its notes, parts in order:
 * documents embedded under it, figures, paragraphs and statuses. This is
 * how `coreplan report` is one document made of the commands' documents
 * (report/report.h), so every format renders all of it.
 *
 *   doc_embed      child (owned by s's doc from now on; NULL: nothing) shown
 *                  under s: with a heading, that heading one level below s
 *                  and child's sections below it; without, child's sections
 *                  one level below s. child's title is not shown; its
 *                  listed facts, sections and runs left out are.
 *   doc_figure     an image (a path relative to the page), its alt text and
 *                  a caption (prose); files: its data (IMAGE.tsv) and
 *                  script (IMAGE.gp) are beside it
 *   doc_paragraph  prose after the parts so far (doc_text comes before the
 *                  table)
 *   doc_status     why the section (or a part) has no figures: "not
 *                  measured", "left out" or "plot not drawn", with the reason
 *   doc_preformatted  a block shown as it is, line for line (a tool's own
 *                  layout, such as benchstat's table): md a fenced block,
 *                  html <pre>, text verbatim; json {"part": "pre"}
 */
enum doc_status { DOC_STATUS_NOT_MEASURED, DOC_STATUS_LEFT_OUT, DOC_STATUS_NO_PLOT };
void doc_embed(struct doc_section *s, const char *heading, struct doc *child);
void doc_figure(struct doc_section *s, const char *image, const char *alt, const char *caption,
		bool files);
void doc_paragraph(struct doc_section *s, const char *fmt, ...) DOC_PRINTF(2, 3);
void doc_status(struct doc_section *s, enum doc_status status, const char *fmt, ...)
	DOC_PRINTF(3, 4);
/* A status under its own heading (one level below s), as an embedded document would be. */
void doc_status_headed(struct doc_section *s, const char *heading, enum doc_status status,
		       const char *fmt, ...) DOC_PRINTF(4, 5);
void doc_preformatted(struct doc_section *s, const char *text);
/* "not measured", "left out", "plot not drawn". */
const char *doc_status_name(enum doc_status status);
/* A note that points at the heading whose anchor is `anchor` (Markdown: " ([section](#a))"). */
void doc_note_link(struct doc_section *s, const char *anchor, const char *fmt, ...)
	DOC_PRINTF(3, 4);
/*
 * Machine-only: a quiet section, or a quiet table, is not shown by the md
 * and html writers (nor the terminal); json carries it and tsv/csv may name
 * it as a view. For what a reader needs only in typed form (the findings'
 * figures behind their sentences, the whole report behind its summary).
 */
void doc_section_quiet(struct doc_section *s);
void doc_table_quiet(struct doc_table *t);
/*
 * GitHub's anchor of a heading's text (lower case; letters, digits, '-',
 * '_' and non-ASCII kept; blanks as '-'; the rest dropped; "section" when
 * nothing is left), so [x](#anchor) works on GitHub and in coreplan's HTML.
 * A page's repeats get "-1", "-2", ... (the html writer counts them).
 */
int doc_anchor(struct strbuf *out, const char *title);

/* A run the analysis left out, and why. */
void doc_left_out(struct doc *d, const char *tag, const char *reason);
size_t doc_left_out_count(const struct doc *d);
#define DOC_LEFT_OUT_SHOWN 20

/* Is `view` a table section of d (or "facts")? */
bool doc_has_view(const struct doc *d, const char *view);
/* Append the table sections' names, comma-separated, then "facts" (for messages). */
struct strbuf;
int doc_view_names(const struct doc *d, struct strbuf *sb);

/*
 * Write d. view: for tsv and csv, the table section to write (NULL: the
 * first section with a table); for md and json, NULL writes the
 * whole doc and a name writes only that section (still with the title,
 * facts and footer). An unknown view is a usage error naming the valid
 * ones. Flushes fp and reports a failed write as an error.
 */
int doc_write(const struct doc *d, enum doc_format format, const char *view, FILE *fp);

/*
 * The terminal writer ("text", doc/write_term.c) for `width` columns (at
 * least 40). doc_write's "text" takes the width from doc_term_width(fp):
 * the terminal's (TIOCGWINSZ) when fp is one, else $COLUMNS, else 80.
 */
int doc_write_text(const struct doc *d, FILE *fp, const char *view, int width);
int doc_term_width(FILE *fp);

/*
 * Markdown with headings starting at `level` (1: "#"), for composing a
 * doc into a larger page (the report): the title at `level`, sections at
 * level + 1. Flags choose the parts.
 */
enum {
	DOC_MD_TITLE = 1,
	DOC_MD_FACTS = 2,
	DOC_MD_LEFT_OUT = 4,
	DOC_MD_FOOTER = 8,
	DOC_MD_ALL = 15,
};
int doc_write_md(const struct doc *d, FILE *fp, int level, unsigned int flags, const char *view);

/*
 * How Markdown shows a real: 'f' decimals or 'g' significant digits, a
 * rounded -0 as 0, NaN/inf as NULL. buf holds 32 bytes.
 */
const char *doc_format_real(double value, char style, int precision, char buf[32]);

/*
 * HTML (doc/write_html.c): one self-contained page (inline CSS, no script,
 * nothing fetched) walking the document, with the Markdown's content:
 * headings with ids (GitHub's anchors, doc_anchor; "-1", "-2" for repeats,
 * so [x](#anchor) links work in both), facts and notes as lists (a note's
 * link as a link to its anchor), tables with numeric columns right-aligned
 * and long cells wrapping (in a table of 10 or more columns, long text
 * columns are written under each row), tables of 10 or more columns or
 * more than 20 rows inside a <details> (closed when long) that names them
 * and their size, embedded documents and figures in order, "---" then the footer.
 * Every byte of text is escaped; the only markup from text is a `code`
 * span in prose.
 *
 * page may be NULL. page->title (NULL: the doc's) is the <title>;
 * page->contents adds a contents list of the sections (h2) and the
 * headings under them (h3); page->flags (0: DOC_MD_ALL) chooses the parts
 * of the doc shown; a figure becomes <figure id="figure-N"> holding what
 * page->image appends to out (the report inlines the SVG, or a PNG as a
 * data: URI), given its image path, N (1, 2, ...) and its alt text escaped
 * for an attribute; its error stops the page. Without page->image the
 * figure names the file. Same document, same bytes. Writes and flushes fp.
 *
 * doc_write_html is doc_write's "html" (no contents, every part).
 */
struct doc_html_page {
	const char *title;
	int (*image)(void *ctx, const char *src, unsigned int figure, const char *alt_html,
		     struct strbuf *out);
	void *ctx;
	bool contents;
	unsigned int flags;
};
int doc_write_html_page(const struct doc *d, const struct doc_html_page *page, const char *view,
			FILE *fp);
int doc_write_html(const struct doc *d, FILE *fp, const char *view);

/*
 * Append text escaped for Markdown: what a terminal must not get
 * (doc_term_escape) as \xNN, line breaks and tabs as blanks, `<` and `&`
 * as entities; for a value (in_cell: a table cell, a fact, a heading, a
 * left-out run) also `|` and `\*_`[]` (an underscore inside a word stays);
 * in prose (notes, text, !in_cell) `\*_` and a `]` before `(`: prose keeps
 * its own `code` spans.
 */
int doc_md_escape(struct strbuf *sb, const char *text, bool in_cell);
/*
 * Append text safe for a terminal: each byte of a C0 control or DEL (ESC
 * opens escape sequences), of a C1 control (U+0080 to U+009F) and each byte
 * that is not valid UTF-8 as \xNN; the ASCII controls in `keep` (NULL: none)
 * are kept. tsv and csv write values this way (tsv keeps tab and line
 * breaks to blank them, csv line breaks to quote them); cli/ writes
 * messages to stderr this way. doc_term_safe: nothing would change.
 */
int doc_term_escape(struct strbuf *sb, const char *text, const char *keep);
bool doc_term_safe(const char *text, const char *keep);
/* A JSON string literal of text (quotes included). */
void doc_json_string(FILE *fp, const char *text);

#endif
