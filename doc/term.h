/*
 * term: the pieces of the terminal writer (doc/write_term.c), private to
 * doc/: the table layout (doc/term_table.c) and the text helpers they share.
 *
 * Numbers are scaled by common/units.h's display prefixes (Go benchstat's
 * benchunit rules): a table column of a time, a byte size or a rate shares
 * one prefix; columns of one unit in one table share it too. A unit of
 * another kind ("x", "%", "cores") or none is not scaled: the column keeps
 * the rounding its builder chose.
 */
#ifndef COREPLAN_DOC_TERM_H
#define COREPLAN_DOC_TERM_H

#include "doc_impl.h"

#include "../common/strbuf.h"
#include "../common/units.h"

/* Display width of UTF-8 text: one column per character. */
size_t term_width_of(const char *s);
/*
 * Append text as a terminal shows it: controls and bytes that are not
 * UTF-8 as \xNN (doc_term_escape), tabs and line breaks as blanks; with
 * code_spans, a pair of backticks (a `code` span) is left out, its text
 * kept (a lone backtick stays).
 */
int term_plain(struct strbuf *sb, const char *text, bool code_spans);
/*
 * Write text word-wrapped to `width` columns: the first line after
 * `first` (already counted as first_cols), the others after `indent`
 * blanks; a word longer than a line is broken.
 */
void term_wrap(FILE *fp, const char *text, size_t width, size_t first_cols, size_t indent);
/* The first line of text that fits `width` columns (its bytes), and where the next starts. */
size_t term_line(const char *text, size_t width, const char **next);

/* The table as the terminal writer lays it out in `width` columns (doc/term_table.c). */
int term_table(const struct doc_table *t, FILE *fp, size_t width);

#endif
