/*
 * common: what the analysis commands (sweep, noise, compare, ...) share:
 * the options that choose runs and the output format, the number
 * formatting of their tables, and the "left out" list every analysis
 * prints.
 *
 * A command puts COMMON_SPECS first in its option table, so
 * option indices 0 .. COMMON_COUNT-1 are these, and passes every index
 * below COMMON_COUNT to common_opt(). Its own options follow.
 */
#ifndef COREPLAN_CLI_COMMON_H
#define COREPLAN_CLI_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "../analysis/select.h"
#include "../reports/table_out.h"
#include "../schema/fields.h"

enum {
	COMMON_METRIC,
	COMMON_CORPUS,
	COMMON_WHERE,
	COMMON_INCLUDE_EXCLUDED,
	COMMON_FORMAT,
	COMMON_COUNT
};

#define COMMON_SPECS                                                                          \
	{"metric", 0, "FIELD", "the measured value (default tput)", false},                   \
		{"corpus", 0, "NAME", "only runs of corpus NAME", false},                     \
		{"where", 0, "FIELD=V[,V...]",                                                \
		 "only runs whose FIELD is one of the values; several --where all apply",     \
		 true},                                                                       \
		{"include-excluded", 0, NULL, "keep excluded runs (left out by default)",     \
		 false},                                                                      \
		{"format", 0, "F", "output format: md, tsv, csv or json (default md)", false}

struct common_args {
	struct run_filter filter;
	enum out_format format;
	const char *metric;
};

void common_args_init(struct common_args *a);
void common_args_release(struct common_args *a);
/* Apply option `which` (< COMMON_COUNT); 0 or a usage error. */
int common_opt(struct common_args *a, int which, const char *value);

/*
 * A number as a table cell: NULL for NaN (missing); in md rounded for the
 * eye ("%.*f" with style 'f', "%.*g" with style 'g'), elsewhere every digit
 * (num_format_real), so machine formats lose nothing.
 */
const char *common_num(double value, enum out_format format, char style, int precision,
		       char buf[32]);

/*
 * The runs the filter matched but the analysis left out, with reasons:
 * in md a section on stdout, otherwise lines on stderr. The first
 * COMMON_LEFT_OUT_SHOWN are named, then a count.
 */
#define COMMON_LEFT_OUT_SHOWN 20
void common_print_left_out(const struct selection *sel, enum out_format format);

/*
 * Split "F1,F2" into a NULL-terminated list appended to *list (for
 * --group); common_free_list() frees it.
 */
int common_split_list(const char *option, const char *value, char ***list, size_t *n);
void common_free_list(char **list, size_t n);

/*
 * An arm (compare --a/--b, translate --from/--to): the common filter plus
 * the arm's own space-separated FIELD=V[,V] conditions, as a new filter
 * the caller releases.
 */
int common_arm_filter(const struct common_args *a, const char *text, struct run_filter *f);

/* Option values, each a usage error naming --option when malformed. */
int common_parse_choice(const char *option, const char *value, const char *const *names,
			size_t n, int *out);
/* A number in (0, 1]. */
int common_parse_fraction(const char *option, const char *value, double *out);
/* A whole number from 0 to 100000. */
int common_parse_count(const char *option, const char *value, size_t *out);

#endif
