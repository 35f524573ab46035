/* catalog: see catalog.h. */
#include "catalog.h"

#include "../common/err.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/strvec.h"
#include "table.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* No cloud shape comes near this; a bigger number is a typo or garbage. */
#define CATALOG_MAX_VCPUS 100000

enum column {
	COL_INSTANCE,
	COL_PROVIDER,
	COL_SERIES,
	COL_VCPUS,
	COL_THREADS,
	COL_FRACTION,
	COL_MEMORY,
	COL_CPU_FAMILY,
	COL_PRICE,
	COL_REGION,
	COL_SOURCE,
	COL_DATE,
	NCOLUMNS
};

static const char *const column_names[NCOLUMNS] = {
	"instance",     "provider",         "series",
	"vcpus",        "threads_per_core", "sustained_vcpu_fraction",
	"memory_gib",   "cpu_family",       "price_per_hour",
	"price_region", "price_source",     "price_date",
};

/* The optional column: the CPU platforms of the instance's family. */
#define PLATFORMS_COLUMN "cpu_platforms"

/*
 * Where a row is, for messages: the file, its line, the file's column of
 * each field, and of cpu_platforms (-1: the file has none).
 */
struct row {
	const char *path;
	long line;
	const int *cols;
	char *const *cells;
	int platforms_col;
};

static int oom(const char *path)
{
	return err_set("out of memory reading '%s'", path ? path : "catalog");
}

static const char *cell(const struct row *r, enum column c)
{
	return r->cells[r->cols[c]];
}

static long col_of(const struct row *r, enum column c)
{
	return (long)r->cols[c] + 1;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

static bool is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* YYYY-MM-DD naming a day that exists. */
static bool is_date(const char *s)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, m, d;
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (m < 1 || m > 12 || d < 1)
		return false;
	return d <= days[m - 1] + (m == 2 && is_leap(y));
}

/*
 * A text field: required, and without surrounding blanks, because the
 * names are matched against runs (cpu_family) and user arguments
 * (instance) byte for byte.
 */
static int text_field(const struct row *r, enum column c, char **out)
{
	const char *s = cell(r, c);
	size_t len = strlen(s);
	if (len == 0)
		return err_at(r->path, r->line, col_of(r, c), "%s is empty", column_names[c]);
	if (is_space(s[0]) || is_space(s[len - 1]))
		return err_at(r->path, r->line, col_of(r, c),
			      "%s '%s' has a leading or trailing space", column_names[c], s);
	if (c == COL_DATE && !is_date(s))
		return err_at(r->path, r->line, col_of(r, c), "%s '%s' is not a date YYYY-MM-DD",
			      column_names[c], s);
	*out = strdup(s);
	return *out ? 0 : oom(r->path);
}

/* One field into its member of `in`. */
static int parse_field(const struct row *r, enum column c, struct instance *in)
{
	const char *s = cell(r, c);
	long col = col_of(r, c);
	int64_t i;
	double x;

	switch (c) {
	case COL_INSTANCE:
		return text_field(r, c, &in->instance);
	case COL_PROVIDER:
		return text_field(r, c, &in->provider);
	case COL_SERIES:
		return text_field(r, c, &in->series);
	case COL_CPU_FAMILY:
		return text_field(r, c, &in->cpu_family);
	case COL_REGION:
		return text_field(r, c, &in->price_region);
	case COL_SOURCE:
		return text_field(r, c, &in->price_source);
	case COL_DATE:
		return text_field(r, c, &in->price_date);
	case COL_VCPUS:
		if (num_parse_int(s, &i) != 0 || i < 1)
			return err_at(r->path, r->line, col,
				      "vcpus '%s' is not a whole number >= 1", s);
		if (i > CATALOG_MAX_VCPUS)
			return err_at(r->path, r->line, col, "vcpus %s is more than %d", s,
				      CATALOG_MAX_VCPUS);
		in->vcpus = (int)i;
		return 0;
	case COL_THREADS:
		if (num_parse_int(s, &i) != 0 || (i != 1 && i != 2))
			return err_at(r->path, r->line, col, "threads_per_core '%s' is not 1 or 2",
				      s);
		in->threads_per_core = (int)i;
		return 0;
	case COL_FRACTION:
		if (num_parse_real(s, &x) != 0 || !(x > 0.0 && x <= 1.0))
			return err_at(r->path, r->line, col,
				      "sustained_vcpu_fraction '%s' is not a number in (0, 1]", s);
		in->sustained_vcpu_fraction = x;
		return 0;
	case COL_MEMORY:
		if (num_parse_real(s, &x) != 0 || !(x > 0.0))
			return err_at(r->path, r->line, col, "memory_gib '%s' is not a number > 0",
				      s);
		in->memory_gib = x;
		return 0;
	case COL_PRICE:
		if (num_parse_real(s, &x) != 0 || !(x >= 0.0))
			return err_at(r->path, r->line, col,
				      "price_per_hour '%s' is not a number >= 0", s);
		in->price_per_hour = x;
		return 0;
	case NCOLUMNS:
		break;
	}
	return err_set("internal error: catalog column %d", (int)c);
}

static bool is_platform_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '.' || ch == '_' || ch == '-' || ch == '+';
}

/*
 * cpu_platforms: names separated by commas and/or spaces, each of letters,
 * digits and . _ - +, none twice; kept ","-separated without spaces ("" for
 * an empty cell or no column: the catalog does not say).
 */
static int parse_platforms(const struct row *r, struct instance *in)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = r->platforms_col >= 0 ? r->cells[r->platforms_col] : "";
	long col = (long)r->platforms_col + 1;
	int rc = 0;
	while (rc == 0 && *s) {
		size_t len;
		s += strspn(s, ", \t");
		len = strcspn(s, ", \t");
		if (len == 0)
			break;
		for (size_t i = 0; i < len && rc == 0; i++)
			if (!is_platform_char(s[i]))
				rc = err_at(r->path, r->line, col,
					    PLATFORMS_COLUMN
					    " '%s': '%.*s' is not a platform name "
					    "(letters, digits and . _ - +, separated by commas)",
					    r->cells[r->platforms_col], (int)len, s);
		for (const char *p = sb.buf ? strbuf_str(&sb) : ""; rc == 0 && *p;) {
			size_t n = strcspn(p, ",");
			if (n == len && !strncmp(p, s, len))
				rc = err_at(r->path, r->line, col,
					    PLATFORMS_COLUMN " lists '%.*s' twice", (int)len, s);
			p += n + (p[n] == ',');
		}
		if (rc == 0 && strbuf_addf(&sb, "%s%.*s", sb.len ? "," : "", (int)len, s) != 0)
			rc = oom(r->path);
		s += len;
	}
	if (rc == 0 && !(in->cpu_platforms = sb.buf ? strbuf_detach(&sb) : strdup("")))
		rc = oom(r->path);
	strbuf_release(&sb);
	return rc;
}

/*
 * Fields are checked left to right as they stand in the file, so the
 * error named is the first one a reader meets; then the rule between two
 * fields, and the derived counts.
 */
static int parse_row(const struct row *r, const enum column *order, struct instance *in)
{
	int rc;
	in->line = r->line;
	for (size_t k = 0; k < NCOLUMNS; k++) {
		rc = parse_field(r, order[k], in);
		if (rc)
			return rc;
	}
	if (in->vcpus % in->threads_per_core != 0)
		return err_at(r->path, r->line, col_of(r, COL_VCPUS),
			      "vcpus %d is not a multiple of threads_per_core %d", in->vcpus,
			      in->threads_per_core);
	in->physical_cores = (double)in->vcpus / in->threads_per_core;
	in->sustained_cores =
		(double)in->vcpus * in->sustained_vcpu_fraction / in->threads_per_core;
	return parse_platforms(r, in);
}

/* Every required column's index in the file; all missing ones named at once. */
static int find_columns(const struct table *t, const char *path, int *cols)
{
	struct strbuf missing = STRBUF_INIT;
	size_t nmissing = 0;
	int rc = 0;
	for (size_t c = 0; c < NCOLUMNS; c++) {
		cols[c] = table_col(t, column_names[c]);
		if (cols[c] >= 0)
			continue;
		if (strbuf_addf(&missing, "%s'%s'", nmissing ? ", " : "", column_names[c]) != 0) {
			rc = oom(path);
			goto done;
		}
		nmissing++;
	}
	if (nmissing)
		rc = err_at(path, 1, 0, "missing column%s %s", nmissing == 1 ? "" : "s",
			    strbuf_str(&missing));
done:
	strbuf_release(&missing);
	return rc;
}

static bool is_catalog_column(const char *name)
{
	if (strcmp(name, PLATFORMS_COLUMN) == 0)
		return true;
	for (size_t c = 0; c < NCOLUMNS; c++)
		if (strcmp(name, column_names[c]) == 0)
			return true;
	return false;
}

/* Extra columns are allowed (notes, URLs), but say they were not read. */
static void warn_extra_columns(const struct table *t, const char *path)
{
	struct strbuf extra = STRBUF_INIT;
	size_t nextra = 0;
	for (size_t i = 0; i < t->ncols; i++) {
		if (is_catalog_column(t->header[i]))
			continue;
		if (strbuf_addf(&extra, "%s'%s'", nextra ? ", " : "", t->header[i]) != 0)
			break; /* out of memory: a shorter warning is still a warning */
		nextra++;
	}
	if (nextra == 1)
		warn_add("'%s': column %s is not a catalog column: ignored", path,
			 strbuf_str(&extra));
	else if (nextra > 1)
		warn_add("'%s': columns %s are not catalog columns: ignored", path,
			 strbuf_str(&extra));
	strbuf_release(&extra);
}

/* An instance listed twice: the later line is the error, naming the earlier. */
static int check_duplicates(const struct catalog *c, long instance_col)
{
	const char **names;
	size_t repeat, first;
	int rc = 0, found;
	if (c->n < 2)
		return 0;
	names = malloc(c->n * sizeof(*names));
	if (!names)
		return oom(c->path);
	for (size_t i = 0; i < c->n; i++)
		names[i] = c->items[i].instance;
	/* the items are in line order, so the earliest repetition is the smallest line */
	found = str_first_repeat(names, c->n, &repeat, &first);
	if (found < 0)
		rc = oom(c->path);
	else if (found)
		rc = err_at(c->path, c->items[repeat].line, instance_col,
			    "duplicate instance '%s' (also line %ld)", names[repeat],
			    c->items[first].line);
	free(names);
	return rc;
}

char *catalog_name_of(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base);
}

int catalog_read(const char *path, struct catalog *out)
{
	struct table t;
	struct infile in;
	int cols[NCOLUMNS], platforms_col;
	enum column order[NCOLUMNS];
	int64_t size = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	/* one descriptor: the hash is of the bytes parsed */
	rc = infile_open(&in, path, path, INFILE_TABLE_MAX);
	if (rc == 0)
		rc = table_read_infile(&in, path, TABLE_SNIFF, &t);
	if (rc) {
		infile_close(&in);
		return rc;
	}
	rc = find_columns(&t, path, cols);
	if (rc)
		goto done;
	if (t.nrows == 0) {
		rc = err_at(path, 1, 0,
			    "header but no instances: a catalog needs one row per "
			    "instance type");
		goto done;
	}
	/* the columns in file order (insertion sort of 12) */
	for (size_t k = 0; k < NCOLUMNS; k++) {
		size_t j = k;
		for (; j > 0 && cols[order[j - 1]] > cols[k]; j--)
			order[j] = order[j - 1];
		order[j] = (enum column)k;
	}
	platforms_col = table_col(&t, PLATFORMS_COLUMN);
	out->path = strdup(path);
	out->items = calloc(t.nrows, sizeof(*out->items));
	if (!out->path || !out->items) {
		rc = oom(path);
		goto done;
	}
	for (size_t i = 0; i < t.nrows; i++) {
		struct row r = {path, t.lines[i], cols, t.cells[i], platforms_col};
		out->n = i + 1; /* counted first, so a half-read row is freed too */
		rc = parse_row(&r, order, &out->items[i]);
		if (rc)
			goto done;
	}
	rc = check_duplicates(out, (long)cols[COL_INSTANCE] + 1);
	if (rc)
		goto done;
	rc = infile_end(&in, out->sha256, &size);
	if (rc)
		goto done;
	out->name = catalog_name_of(path);
	if (!out->name) {
		rc = oom(path);
		goto done;
	}
	warn_extra_columns(&t, path);
done:
	infile_close(&in);
	table_release(&t);
	if (rc)
		catalog_release(out);
	return rc;
}
