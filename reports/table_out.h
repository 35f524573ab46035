/*
 * table_out: every table coreplan prints, in one of four formats.
 *
 *   md    GitHub Markdown: header, alignment row (numbers right-aligned),
 *         `|` in cells escaped as `\|`, newlines (and TABs) as spaces;
 *         columns padded to a common width; missing = "".
 *   tsv   one header row of the stable column names, TAB-separated; TABs
 *         and newlines inside cells become spaces; missing = "NA".
 *   csv   RFC 4180 via libcsv (a field is quoted only when it must be:
 *         a comma, quote or line break, blanks at either end, or the empty
 *         string, which is written "" to stay distinct from a missing
 *         value, written as nothing); rows end in LF.
 *   json  an array of objects keyed by the same column names; numeric
 *         columns are JSON numbers (a cell JSON cannot hold as a number,
 *         such as "nan", becomes a string), missing values are null; bytes
 *         that are not UTF-8 become U+FFFD.
 *
 * out_table_write() flushes `fp` and reports a failed write (ENOSPC, EPIPE)
 * as an error.
 *
 * Cells are strings already formatted by the caller (see out_real() for
 * the one way coreplan formats a double); NULL means missing. The table
 * copies every string it is given; out_table_free() frees it all.
 */
#ifndef COREPLAN_TABLE_OUT_H
#define COREPLAN_TABLE_OUT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum out_format { OUT_MD, OUT_TSV, OUT_CSV, OUT_JSON };
enum out_kind { OUT_TEXT, OUT_NUM };

struct out_table;

/* "md", "tsv", "csv", "json" (also "markdown"); -1 otherwise. */
int out_format_parse(const char *name, enum out_format *format);

struct out_table *out_table_new(size_t ncols, const char *const *names);
void out_table_set_kind(struct out_table *t, size_t col, enum out_kind kind);
int out_table_add_row(struct out_table *t, const char *const *cells);
size_t out_table_rows(const struct out_table *t);
/* In md only: leave out columns that are missing in every row. */
void out_table_hide_empty_md(struct out_table *t, bool hide);
int out_table_write(const struct out_table *t, enum out_format format, FILE *fp);
void out_table_free(struct out_table *t);

/*
 * Fill a table from a prepared statement: one column per result column,
 * named as the statement names it; INTEGER and REAL columns are OUT_NUM
 * (by declared type, else when every non-NULL value is a number). REAL
 * values go through out_real(). The statement is stepped to its end; the
 * caller finalizes it. On failure returns NULL with *rc set.
 */
struct out_table *out_table_from_stmt(sqlite3_stmt *stmt, int *rc);

/*
 * Shortest text that reads back as the same double (%.15g, %.16g or
 * %.17g, whichever is first exact), so stored values print to the last
 * digit without noise digits. buf must hold 32 bytes.
 */
const char *out_real(double value, char buf[32]);

#endif
