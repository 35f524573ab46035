/*
 * tools: the output formats of standard benchmark tools (Go `testing`
 * benchmarks, hyperfine, Google Benchmark, wrk) read as corpora.
 *
 * Each format is a converter: it is given the bytes of one file, already
 * read and hashed through common/infile.h by the importer (a converter
 * never opens files), and returns its runs as an in-memory struct table
 * (importers/table.h: header = field names, one row per run, cells as
 * text, lines[] = the source line of each run), which the importer then
 * stores like any results table, so every analysis works unchanged.
 * Metric columns are named so schema/fields' unit-suffix inference gets
 * their kind and direction (docs/importing.md, "Importing tool outputs").
 *
 * Adding a format is one line in the table of tools.c plus its own
 * tool_NAME.c with a detect and a convert function.
 *
 * detect(bytes, n): true when the bytes (the first TOOL_SNIFF_BYTES of a
 * file, or all of it when shorter) look like this format; it must not
 * claim a headed TSV/CSV table.
 * convert(bytes, n, display_path, out): 0 and *out filled (owned by the
 * caller: table_release()), or an error set with err_at(display_path,
 * line, col, ...) ("file:line:col: message", or for JSON "file: JSON path
 * $.x[2]: message") and *out zeroed. bytes[n] is a NUL; NUL bytes inside
 * are the converter's to refuse.
 */
#ifndef COREPLAN_TOOLS_H
#define COREPLAN_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

struct table;
struct strbuf;

#define TOOL_SNIFF_BYTES ((size_t)64 << 10)

struct tool_format {
	const char *name;    /* --format NAME, manifest `format = NAME` */
	const char *summary; /* one line for --help */
	bool (*detect)(const char *bytes, size_t n);
	int (*convert)(const char *bytes, size_t n, const char *display_path, struct table *out);
};

/* The formats, NULL-name terminated. */
extern const struct tool_format tool_formats[];

/* The format named `name`, or NULL. */
const struct tool_format *tool_find(const char *name);
/* The first format whose detect() claims the bytes, or NULL. */
const struct tool_format *tool_detect(const char *bytes, size_t n);
/* "a, b, c": the names, for messages. Static storage. */
const char *tool_names(void);

/*
 * Convert with `fmt`, then add the column `file` = base_name (the file's
 * name without folders, as benchstat names its inputs) to every row;
 * a converter's own column of that name is an error.
 */
int tool_convert(const struct tool_format *fmt, const char *bytes, size_t n,
		 const char *display_path, const char *base_name, struct table *out);

/*
 * A table built a row at a time, for converters: tool_rows_new() starts a
 * row (its source line), tool_rows_set() sets a column of the current row
 * (a column first seen later is "" in earlier rows; setting a column twice
 * in a row returns 1, so the caller can name the duplicate),
 * tool_rows_finish() packs it into *out (display_path copied) and empties
 * the builder; tool_rows_release() frees a builder not finished.
 */
struct tool_rows {
	char **columns;
	size_t ncolumns;
	struct tool_row {
		long line;
		char **values; /* ncolumns at the time, NULL: not set */
		size_t nvalues;
	} * rows;
	size_t nrows;
};
int tool_rows_new(struct tool_rows *b, long line);
int tool_rows_set(struct tool_rows *b, const char *column, const char *value);
int tool_rows_finish(struct tool_rows *b, const char *display_path, struct table *out);
void tool_rows_release(struct tool_rows *b);

/* The Go `testing` benchmark text format (tool_gobench.c). */
bool gobench_detect(const char *bytes, size_t n);
int gobench_convert(const char *bytes, size_t n, const char *display_path, struct table *out);

#endif
