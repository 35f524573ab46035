/* common: see common.h. */
#include "common.h"

#include "../common/err.h"
#include "../common/num.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void common_args_init(struct common_args *a)
{
	memset(a, 0, sizeof(*a));
	a->format = OUT_MD;
	a->metric = "tput";
}

void common_args_release(struct common_args *a)
{
	run_filter_release(&a->filter);
}

int common_opt(struct common_args *a, int which, const char *value)
{
	switch (which) {
	case COMMON_METRIC:
		a->metric = value;
		return 0;
	case COMMON_CORPUS:
		free(a->filter.corpus);
		a->filter.corpus = strdup(value);
		return a->filter.corpus ? 0 : err_set("out of memory");
	case COMMON_WHERE:
		return run_filter_add_where(&a->filter, value);
	case COMMON_INCLUDE_EXCLUDED:
		a->filter.include_excluded = true;
		return 0;
	case COMMON_FORMAT:
		if (out_format_parse(value, &a->format))
			return err_usage("unknown format '%s' (md, tsv, csv or json)", value);
		return 0;
	}
	return 0;
}

const char *common_num(double value, enum out_format format, char style, int precision,
		       char buf[32])
{
	if (isnan(value) || isinf(value))
		return NULL;
	if (format != OUT_MD)
		return num_format_real(value, buf);
	if (style == 'f')
		snprintf(buf, 32, "%.*f", precision, value);
	else
		snprintf(buf, 32, "%.*g", precision, value);
	/* a value that rounds to zero prints as 0, not -0.000 */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

void common_print_left_out(const struct selection *sel, enum out_format format)
{
	FILE *fp = format == OUT_MD ? stdout : stderr;
	if (sel->nleft_out == 0)
		return;
	fprintf(fp, "%s%zu run%s left out:\n", format == OUT_MD ? "\n" : "", sel->nleft_out,
		sel->nleft_out == 1 ? "" : "s");
	for (size_t i = 0; i < sel->nleft_out && i < COMMON_LEFT_OUT_SHOWN; i++)
		fprintf(fp, "%s%s: %s\n", format == OUT_MD ? "- " : "  ", sel->left_out[i].tag,
			sel->left_out[i].reason);
	if (sel->nleft_out > COMMON_LEFT_OUT_SHOWN)
		fprintf(fp, "%s... and %zu more: 'coreplan runs --excluded' lists them all\n",
			format == OUT_MD ? "- " : "  ", sel->nleft_out - COMMON_LEFT_OUT_SHOWN);
}

int common_split_list(const char *option, const char *value, char ***list, size_t *n)
{
	char *copy = strdup(value), *save = NULL;
	if (!copy)
		return err_set("out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **grown = realloc(*list, (*n + 2) * sizeof(*grown));
		if (!grown) {
			free(copy);
			return err_set("out of memory");
		}
		*list = grown;
		grown[(*n)++] = strdup(tok);
		grown[*n] = NULL;
	}
	free(copy);
	return *n ? 0 : err_usage("--%s needs field names", option);
}

void common_free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

int common_parse_choice(const char *option, const char *value, const char *const *names,
			size_t n, int *out)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], value)) {
			*out = (int)i;
			return 0;
		}
	return err_usage("unknown --%s '%s'", option, value);
}

int common_parse_fraction(const char *option, const char *value, double *out)
{
	if (num_parse_real(value, out) || !(*out > 0 && *out <= 1))
		return err_usage("--%s needs a number in (0, 1], got '%s'", option, value);
	return 0;
}

int common_parse_count(const char *option, const char *value, size_t *out)
{
	int64_t n;
	if (num_parse_int(value, &n) || n < 0 || n > 100000)
		return err_usage("--%s needs a whole number from 0 to 100000, got '%s'", option,
				 value);
	*out = (size_t)n;
	return 0;
}

/* The arm's filter: the common filter plus its own space-separated conditions. */
int common_arm_filter(const struct common_args *a, const char *text, struct run_filter *f)
{
	char *copy = strdup(text), *save = NULL;
	int rc = 0;
	memset(f, 0, sizeof(*f));
	if (!copy)
		return err_set("out of memory");
	f->include_excluded = a->filter.include_excluded;
	if (a->filter.corpus && !(f->corpus = strdup(a->filter.corpus)))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < a->filter.nwhere; i++) {
		const struct field_where *w = &a->filter.where[i];
		char buf[4096];
		size_t used = (size_t)snprintf(buf, sizeof(buf), "%s=", w->field);
		for (size_t v = 0; v < w->nvalues && used < sizeof(buf); v++)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
						 v ? "," : "", w->values[v]);
		rc = run_filter_add_where(f, buf);
	}
	for (char *tok = strtok_r(copy, " \t;", &save); rc == 0 && tok;
	     tok = strtok_r(NULL, " \t;", &save))
		rc = run_filter_add_where(f, tok);
	free(copy);
	if (rc == 0 && f->nwhere == a->filter.nwhere)
		rc = err_usage("an arm needs at least one FIELD=VALUE condition, got '%s'", text);
	return rc;
}

