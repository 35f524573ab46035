/*
 * term: the pieces of the terminal writer (doc/write_term.c), private to
 * doc/: number scaling (doc/scale.c), the table layout (doc/term_table.c)
 * and the text helpers they share.
 *
 * Scaling follows Go benchstat's benchunit (golang.org/x/perf/benchunit,
 * CommonScale): a column of values shares one prefix, chosen by its
 * nonzero value closest to zero, so that value shows at least four
 * significant digits (1 decimal from 99.995, 2 from 9.9995, 3 from
 * 0.99995, more below the smallest prefix). Times step s, ms, µs, ns (SI);
 * bytes B, KiB, MiB, GiB, TiB (binary; kB is the corpora's KiB, as in
 * /proc); rates (a unit ending in /s) and counts k, M, G, T (SI, never a
 * fraction of a unit). A unit of another kind ("x", "%", "cores") or none
 * is not scaled: the column keeps the rounding its builder chose.
 */
#ifndef COREPLAN_DOC_TERM_H
#define COREPLAN_DOC_TERM_H

#include "doc_impl.h"

#include "../common/strbuf.h"

/*
 * A display scale: a value in a unit of exponent `from` (-6: µs) shown in
 * the prefix of exponent `to` (-3: ms; powers of 2 when binary) with prec
 * decimals, then unit.
 */
struct doc_scale {
	int from, to;
	bool binary;
	int prec;
	char unit[40]; /* the unit to print ("ms", "MiB", "k int/s") */
};

/* The unit as the terminal prints it: "interactions/s" is "int/s". */
const char *doc_unit_shown(const char *unit);
/* Can values in `unit` be scaled (a time, a byte size, a rate or count)? */
bool doc_scale_known(const char *unit);
/*
 * The common scale of values whose nonzero |value| closest to zero is
 * min_abs (0: all zero or none) in `unit`; false (s untouched) when the
 * unit is not one doc_scale_known() accepts.
 */
bool doc_scale_common(double min_abs, const char *unit, struct doc_scale *s);
/* value on scale s ("12.46"); a rounded -0 as 0. buf holds 48 bytes. */
const char *doc_scale_format(const struct doc_scale *s, double value, char buf[48]);

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
