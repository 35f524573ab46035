/*
 * num: strict conversion of corpus text to typed values.
 *
 * Every number in a corpus goes through here, so "what counts as a
 * number" is decided once. A text converts only if the whole text is the
 * number (no trailing junk, no surrounding spaces); NaN, infinities and
 * values that overflow a double ("1e999") are refused; "-0" is zero. An
 * integer field accepts only integer text ("12", not "12.0"); a real field
 * accepts integer text too (Go prints whole floats without a point).
 *
 * The literal NA (and, for booleans, "?") means "missing": num_is_missing()
 * says so and callers store NULL.
 */
#ifndef COREPLAN_NUM_H
#define COREPLAN_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool num_is_missing(const char *text);
/* 0 on success; -1 if text is not a finite number of that kind. */
int num_parse_int(const char *text, int64_t *out);
int num_parse_real(const char *text, double *out);
/* true/false, 1/0, yes/no (any case). */
int num_parse_bool(const char *text, bool *out);
/* Go duration text ("45s", "1m30s", "1h2m3.5s", "250ms") to seconds. */
int num_parse_go_duration(const char *text, double *seconds);
/* Fast path for trace fields: text of known length, not NUL-terminated. */
int num_parse_int_n(const char *text, size_t len, int64_t *out);
int num_parse_real_n(const char *text, size_t len, double *out);



/*
 * Shortest decimal text that reads back as the same double (%.15g, %.16g
 * or %.17g, whichever is first exact). buf must hold 32 bytes. Whole
 * numbers and short decimals (at most 15 significant digits, written
 * without an exponent) are made by integer arithmetic, the same text
 * printf gives, without printf or strtod.
 */
const char *num_format_real(double value, char buf[32]);
/* num_format_real() that returns the text's length. */
size_t num_format_real_len(double value, char buf[32]);
/* v as "%" PRId64 " writes it; returns its length. buf must hold 32 bytes. */
size_t num_format_int(int64_t v, char buf[32]);
#endif
