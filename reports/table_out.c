/* table_out: see table_out.h. */
#include "table_out.h"

#include "../common/err.h"
#include "../common/num.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct out_table {
	size_t ncols;
	char **names;
	enum out_kind *kinds;
	size_t nrows;
	size_t alloc_rows;
	char ***rows; /* nrows rows of ncols cells; NULL cell = missing */
	bool hide_empty_md;
};

int out_format_parse(const char *name, enum out_format *format)
{
	static const struct {
		const char *name;
		enum out_format format;
	} names[] = {
		{"md", OUT_MD},   {"markdown", OUT_MD}, {"tsv", OUT_TSV},
		{"csv", OUT_CSV}, {"json", OUT_JSON},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i].name) == 0) {
			*format = names[i].format;
			return 0;
		}
	}
	return -1;
}

struct out_table *out_table_new(size_t ncols, const char *const *names)
{
	struct out_table *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ncols = ncols;
	t->names = calloc(ncols ? ncols : 1, sizeof(*t->names));
	t->kinds = calloc(ncols ? ncols : 1, sizeof(*t->kinds));
	if (!t->names || !t->kinds)
		goto fail;
	for (size_t i = 0; i < ncols; i++) {
		t->names[i] = strdup(names[i] ? names[i] : "");
		if (!t->names[i])
			goto fail;
	}
	return t;
fail:
	out_table_free(t);
	return NULL;
}

void out_table_set_kind(struct out_table *t, size_t col, enum out_kind kind)
{
	if (t && col < t->ncols)
		t->kinds[col] = kind;
}

static void free_row(char **row, size_t ncols)
{
	if (!row)
		return;
	for (size_t i = 0; i < ncols; i++)
		free(row[i]);
	free(row);
}

int out_table_add_row(struct out_table *t, const char *const *cells)
{
	char **row;
	if (t->nrows == t->alloc_rows) {
		size_t want = t->alloc_rows ? 2 * t->alloc_rows : 16;
		char ***grown = realloc(t->rows, want * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		t->rows = grown;
		t->alloc_rows = want;
	}
	row = calloc(t->ncols ? t->ncols : 1, sizeof(*row));
	if (!row)
		return err_set("out of memory");
	for (size_t i = 0; i < t->ncols; i++) {
		if (!cells[i])
			continue;
		row[i] = strdup(cells[i]);
		if (!row[i]) {
			free_row(row, t->ncols);
			return err_set("out of memory");
		}
	}
	t->rows[t->nrows++] = row;
	return 0;
}

size_t out_table_rows(const struct out_table *t)
{
	return t ? t->nrows : 0;
}

void out_table_hide_empty_md(struct out_table *t, bool hide)
{
	if (t)
		t->hide_empty_md = hide;
}

void out_table_free(struct out_table *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->nrows; r++)
		free_row(t->rows[r], t->ncols);
	free(t->rows);
	if (t->names)
		for (size_t i = 0; i < t->ncols; i++)
			free(t->names[i]);
	free(t->names);
	free(t->kinds);
	free(t);
}

/* ---- markdown ---- */

/* Display width in code points (UTF-8 continuation bytes do not count). */
static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

/* The cell as Markdown shows it: `|` escaped, line breaks and TABs as spaces. */
static char *md_cell(const char *s)
{
	size_t n = 0;
	char *out, *p;
	if (!s)
		s = "";
	for (const char *q = s; *q; q++)
		n += *q == '|' ? 2 : 1;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	p = out;
	for (; *s; s++) {
		if (*s == '|') {
			*p++ = '\\';
			*p++ = '|';
		} else if (*s == '\n' || *s == '\r' || *s == '\t') {
			*p++ = ' ';
		} else {
			*p++ = *s;
		}
	}
	*p = '\0';
	return out;
}

static void put_spaces(FILE *fp, size_t n)
{
	while (n--)
		putc(' ', fp);
}

static void md_put(FILE *fp, const char *text, size_t width, bool right)
{
	size_t w = text_width(text);
	size_t pad = width > w ? width - w : 0;
	fputs(" ", fp);
	if (right)
		put_spaces(fp, pad);
	fputs(text, fp);
	if (!right)
		put_spaces(fp, pad);
	fputs(" |", fp);
}

static int write_md(const struct out_table *t, FILE *fp)
{
	/* Rendered cells, row 0 being the header; widths per column. */
	size_t nlines = t->nrows + 1;
	char **cells = calloc(nlines * (t->ncols ? t->ncols : 1), sizeof(*cells));
	size_t *width = calloc(t->ncols ? t->ncols : 1, sizeof(*width));
	bool *shown = calloc(t->ncols ? t->ncols : 1, sizeof(*shown));
	size_t nshown = 0;
	int rc = 0;
	if (!cells || !width || !shown) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		shown[c] = !t->hide_empty_md || t->nrows == 0;
		for (size_t r = 0; r < t->nrows && !shown[c]; r++)
			if (t->rows[r][c])
				shown[c] = true;
		nshown += shown[c];
	}
	if (nshown == 0) /* nothing but empty columns: show them rather than nothing */
		for (size_t c = 0; c < t->ncols; c++)
			shown[c] = true;
	for (size_t l = 0; l < nlines; l++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *src = l == 0 ? t->names[c] : t->rows[l - 1][c];
			char *cell = md_cell(src);
			size_t w;
			if (!cell) {
				rc = err_set("out of memory");
				goto done;
			}
			cells[l * t->ncols + c] = cell;
			w = text_width(cell);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t c = 0; c < t->ncols; c++)
		if (width[c] < 3)
			width[c] = 3;
	for (size_t l = 0; l < nlines; l++) {
		putc('|', fp);
		for (size_t c = 0; c < t->ncols; c++)
			if (shown[c])
				md_put(fp, cells[l * t->ncols + c], width[c],
				       l > 0 && t->kinds[c] == OUT_NUM);
		putc('\n', fp);
		if (l == 0) {
			putc('|', fp);
			for (size_t c = 0; c < t->ncols; c++) {
				if (!shown[c])
					continue;
				if (t->kinds[c] == OUT_NUM) {
					for (size_t i = 0; i < width[c] + 1; i++)
						putc('-', fp);
					fputs(":|", fp);
				} else {
					putc(':', fp);
					for (size_t i = 0; i < width[c] + 1; i++)
						putc('-', fp);
					putc('|', fp);
				}
			}
			putc('\n', fp);
		}
	}
done:
	if (cells)
		for (size_t i = 0; i < nlines * t->ncols; i++)
			free(cells[i]);
	free(cells);
	free(width);
	free(shown);
	return rc;
}

/* ---- tsv ---- */

static void tsv_put(FILE *fp, const char *s)
{
	if (!s) {
		fputs("NA", fp);
		return;
	}
	for (; *s; s++)
		putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, fp);
}

static int write_tsv(const struct out_table *t, FILE *fp)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			putc('\t', fp);
		tsv_put(fp, t->names[c]);
	}
	putc('\n', fp);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				putc('\t', fp);
			tsv_put(fp, t->rows[r][c]);
		}
		putc('\n', fp);
	}
	return 0;
}

/* ---- csv ---- */

/*
 * RFC 4180 requires quotes around a field with a comma, a quote or a line
 * break. We also quote a field with leading or trailing blanks (libcsv and
 * many readers trim them when unquoted) and an empty string, so that a
 * present-but-empty cell ("") stays distinct from a missing one (nothing).
 */
static bool csv_needs_quotes(const char *s)
{
	size_t len = strlen(s);
	if (len == 0)
		return true;
	if (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t')
		return true;
	return strpbrk(s, ",\"\r\n") != NULL;
}

/* A failed write shows in ferror(fp), which out_table_write() checks. */
static int csv_put(FILE *fp, const char *s)
{
	if (!s)
		return 0;
	if (csv_needs_quotes(s))
		return csv_fwrite(fp, s, strlen(s));
	return fputs(s, fp) == EOF ? EOF : 0;
}

static int write_csv(const struct out_table *t, FILE *fp)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			putc(',', fp);
		csv_put(fp, t->names[c]);
	}
	putc('\n', fp);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				putc(',', fp);
			csv_put(fp, t->rows[r][c]);
		}
		putc('\n', fp);
	}
	return 0;
}

/* ---- json ---- */

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD so the output parses. */
static void json_string(FILE *fp, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	putc('"', fp);
	while (*s) {
		size_t n;
		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		default:
			if (*s < 0x20 || *s == 0x7F) {
				fprintf(fp, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (n == 0) {
				fputs("\\ufffd", fp);
				break;
			}
			fwrite(s, 1, n, fp);
			s += n;
			continue;
		}
		s++;
	}
	putc('"', fp);
}

/* RFC 8259 number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0') {
		s++;
	} else if (*s >= '1' && *s <= '9') {
		while (*s >= '0' && *s <= '9')
			s++;
	} else {
		return false;
	}
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

static int write_json(const struct out_table *t, FILE *fp)
{
	if (t->nrows == 0) {
		fputs("[]\n", fp);
		return 0;
	}
	fputs("[\n", fp);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("  {", fp);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = t->rows[r][c];
			if (c)
				fputs(", ", fp);
			json_string(fp, t->names[c]);
			fputs(": ", fp);
			if (!cell)
				fputs("null", fp);
			else if (t->kinds[c] == OUT_NUM && json_number(cell))
				fputs(cell, fp);
			else /* text, or a "number" JSON cannot hold (nan, inf) */
				json_string(fp, cell);
		}
		fputs(r + 1 < t->nrows ? "},\n" : "}\n", fp);
	}
	fputs("]\n", fp);
	return 0;
}

int out_table_write(const struct out_table *t, enum out_format format, FILE *fp)
{
	int rc;
	errno = 0;
	switch (format) {
	case OUT_MD:
		rc = write_md(t, fp);
		break;
	case OUT_TSV:
		rc = write_tsv(t, fp);
		break;
	case OUT_CSV:
		rc = write_csv(t, fp);
		break;
	case OUT_JSON:
		rc = write_json(t, fp);
		break;
	default:
		return err_set("unknown output format %d", (int)format);
	}
	if (rc)
		return rc; /* out of memory, already recorded */
	if (fflush(fp) != 0 || ferror(fp))
		return err_set("cannot write output: %s", strerror(errno ? errno : EIO));
	return 0;
}

/* ---- from a statement ---- */

static bool numeric_decltype(const char *decl)
{
	return decl && (strcmp(decl, "INT") == 0 || strcmp(decl, "INTEGER") == 0 ||
			strcmp(decl, "REAL") == 0);
}

struct out_table *out_table_from_stmt(sqlite3_stmt *stmt, int *rc)
{
	int ncols = sqlite3_column_count(stmt);
	size_t n = ncols > 0 ? (size_t)ncols : 0;
	const char **names = calloc(n ? n : 1, sizeof(*names));
	const char **cells = calloc(n ? n : 1, sizeof(*cells));
	char(*nums)[32] = calloc(n ? n : 1, sizeof(*nums));
	/* per column: 0 no value yet, 1 only numbers so far, 2 saw text */
	unsigned char *seen = calloc(n ? n : 1, 1);
	struct out_table *t = NULL;
	int step;
	*rc = 0;
	if (!names || !cells || !nums || !seen) {
		*rc = err_set("out of memory");
		goto done;
	}
	for (size_t c = 0; c < n; c++) {
		names[c] = sqlite3_column_name(stmt, (int)c);
		if (!names[c]) {
			*rc = err_set("out of memory");
			goto done;
		}
	}
	t = out_table_new(n, names);
	if (!t) {
		*rc = err_set("out of memory");
		goto done;
	}
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (size_t c = 0; c < n; c++) {
			int i = (int)c;
			switch (sqlite3_column_type(stmt, i)) {
			case SQLITE_NULL:
				cells[c] = NULL;
				break;
			case SQLITE_INTEGER:
				snprintf(nums[c], sizeof(nums[c]), "%" PRId64,
					 (int64_t)sqlite3_column_int64(stmt, i));
				cells[c] = nums[c];
				if (seen[c] == 0)
					seen[c] = 1;
				break;
			case SQLITE_FLOAT:
				cells[c] = out_real(sqlite3_column_double(stmt, i), nums[c]);
				if (seen[c] == 0)
					seen[c] = 1;
				break;
			default:
				cells[c] = (const char *)sqlite3_column_text(stmt, i);
				if (!cells[c]) {
					*rc = err_set("out of memory");
					goto done;
				}
				seen[c] = 2;
				break;
			}
		}
		*rc = out_table_add_row(t, cells);
		if (*rc)
			goto done;
	}
	if (step != SQLITE_DONE) {
		sqlite3 *db = sqlite3_db_handle(stmt);
		*rc = err_set("database query failed: %s", sqlite3_errmsg(db));
		goto done;
	}
	for (size_t c = 0; c < n; c++) {
		bool num = numeric_decltype(sqlite3_column_decltype(stmt, (int)c)) || seen[c] == 1;
		out_table_set_kind(t, c, num ? OUT_NUM : OUT_TEXT);
	}
done:
	if (*rc) {
		out_table_free(t);
		t = NULL;
	}
	free(names);
	free(cells);
	free(nums);
	free(seen);
	return t;
}

/* The digits come from num_format_real(), so the whole program prints a double one way. */
const char *out_real(double value, char buf[32])
{
	if (isnan(value)) { /* glibc would print "-nan" for some NaNs */
		snprintf(buf, 32, "nan");
		return buf;
	}
	return num_format_real(value, buf);
}
