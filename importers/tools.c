/* tools: the registry of tool formats and the row builder converters share (tools.h). */
#include "tools.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "table.h"
#include "tool_json.h"
#include "tool_wrk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line per format. */
const struct tool_format tool_formats[] = {
	{"gobench", "Go testing benchmark text (go test -bench): one run per result line",
	 gobench_detect, gobench_convert},
	{"hyperfine", "hyperfine --export-json: one run per timing, parameters as fields",
	 hyperfine_detect, hyperfine_convert},
	{"gbench",
	 "Google Benchmark --benchmark_format=json: one run per repetition, threads the level",
	 gbench_detect, gbench_convert},
	{"wrk", "wrk text output (wrk -t -c -d [--latency]): one run per file", tool_wrk_detect,
	 tool_wrk_convert},
	{NULL, NULL, NULL, NULL},
};

const struct tool_format *tool_find(const char *name)
{
	for (size_t i = 0; tool_formats[i].name; i++)
		if (!strcmp(tool_formats[i].name, name))
			return &tool_formats[i];
	return NULL;
}

const struct tool_format *tool_detect(const char *bytes, size_t n)
{
	for (size_t i = 0; tool_formats[i].name; i++)
		if (tool_formats[i].detect(bytes, n))
			return &tool_formats[i];
	return NULL;
}

const char *tool_names(void)
{
	static char names[512];
	size_t used = 0;
	if (names[0])
		return names;
	for (size_t i = 0; tool_formats[i].name; i++) {
		int w = snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
				 tool_formats[i].name);
		if (w < 0 || (size_t)w >= sizeof(names) - used)
			break;
		used += (size_t)w;
	}
	return names;
}

/* ---- the row builder ---- */

int tool_rows_new(struct tool_rows *b, long line)
{
	struct tool_row *rows = realloc(b->rows, (b->nrows + 1) * sizeof(*rows));
	if (!rows)
		return err_set("out of memory");
	b->rows = rows;
	rows[b->nrows].line = line;
	rows[b->nrows].values = NULL;
	rows[b->nrows].nvalues = 0;
	b->nrows++;
	return 0;
}

static long find_column(const struct tool_rows *b, const char *column)
{
	for (size_t i = 0; i < b->ncolumns; i++)
		if (!strcmp(b->columns[i], column))
			return (long)i;
	return -1;
}

int tool_rows_set(struct tool_rows *b, const char *column, const char *value)
{
	long c = find_column(b, column);
	struct tool_row *row;
	if (b->nrows == 0)
		return err_set("tool_rows_set before a row");
	row = &b->rows[b->nrows - 1];
	if (c < 0) {
		char **columns = realloc(b->columns, (b->ncolumns + 1) * sizeof(*columns));
		if (!columns)
			return err_set("out of memory");
		b->columns = columns;
		if (!(columns[b->ncolumns] = strdup(column)))
			return err_set("out of memory");
		c = (long)b->ncolumns++;
	}
	if ((size_t)c >= row->nvalues) {
		char **values = realloc(row->values, b->ncolumns * sizeof(*values));
		if (!values)
			return err_set("out of memory");
		for (size_t i = row->nvalues; i < b->ncolumns; i++)
			values[i] = NULL;
		row->values = values;
		row->nvalues = b->ncolumns;
	}
	if (row->values[c])
		return 1;
	row->values[c] = strdup(value);
	return row->values[c] ? 0 : err_set("out of memory");
}

/* Pointers then the strings, in one block, as table.c packs a record. */
static char **pack(char *const *values, size_t nvalues, size_t n)
{
	size_t bytes = n * sizeof(char *);
	char **out;
	char *text;
	for (size_t i = 0; i < n; i++)
		bytes += (i < nvalues && values[i] ? strlen(values[i]) : 0) + 1;
	out = malloc(bytes);
	if (!out)
		return NULL;
	text = (char *)(out + n);
	for (size_t i = 0; i < n; i++) {
		const char *v = i < nvalues && values[i] ? values[i] : "";
		size_t len = strlen(v) + 1;
		memcpy(text, v, len);
		out[i] = text;
		text += len;
	}
	return out;
}

int tool_rows_finish(struct tool_rows *b, const char *display_path, struct table *out)
{
	memset(out, 0, sizeof(*out));
	out->delimiter = '\t';
	out->display_path = strdup(display_path);
	out->header = pack(b->columns, b->ncolumns, b->ncolumns);
	out->cells = calloc(b->nrows ? b->nrows : 1, sizeof(*out->cells));
	out->lines = calloc(b->nrows ? b->nrows : 1, sizeof(*out->lines));
	if (!out->display_path || !out->header || !out->cells || !out->lines)
		goto oom;
	out->ncols = b->ncolumns;
	for (size_t i = 0; i < b->nrows; i++) {
		out->cells[i] = pack(b->rows[i].values, b->rows[i].nvalues, b->ncolumns);
		if (!out->cells[i])
			goto oom;
		out->lines[i] = b->rows[i].line;
		out->nrows++;
	}
	tool_rows_release(b);
	return 0;
oom:
	table_release(out);
	tool_rows_release(b);
	return err_set("out of memory");
}

void tool_rows_release(struct tool_rows *b)
{
	for (size_t i = 0; i < b->ncolumns; i++)
		free(b->columns[i]);
	for (size_t i = 0; i < b->nrows; i++) {
		for (size_t j = 0; j < b->rows[i].nvalues; j++)
			free(b->rows[i].values[j]);
		free(b->rows[i].values);
	}
	free(b->columns);
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

/* ---- conversion with the file's name ---- */

int tool_convert(const struct tool_format *fmt, const char *bytes, size_t n,
		 const char *display_path, const char *base_name, struct table *out)
{
	struct tool_rows b = {0};
	struct table t = {0};
	int rc = fmt->convert(bytes, n, display_path, &t);
	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	if (table_col(&t, "file") >= 0) {
		table_release(&t);
		return err_at(display_path, 1, 0,
			      "the %s converter made a column 'file', which names the file",
			      fmt->name);
	}
	for (size_t i = 0; rc == 0 && i < t.nrows; i++) {
		rc = tool_rows_new(&b, t.lines[i]);
		for (size_t j = 0; rc == 0 && j < t.ncols; j++)
			rc = tool_rows_set(&b, t.header[j], t.cells[i][j]);
		if (rc == 0)
			rc = tool_rows_set(&b, "file", base_name);
	}
	table_release(&t);
	if (rc) {
		tool_rows_release(&b);
		return rc < 0 ? rc : err_set("out of memory");
	}
	return tool_rows_finish(&b, display_path, out);
}
