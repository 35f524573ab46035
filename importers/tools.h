/*
 * tools: the output formats of standard benchmark tools (Go `testing`
 * benchmarks, hyperfine, Google Benchmark, wrk) read as corpora, streamed.
 *
 * A converter reads one file from a tool_src (the bytes as the importer
 * reads and hashes them through common/infile.h, or bytes in memory: a
 * converter never opens a file) and writes its runs, one at a time, to a
 * tool_emit; it never holds the whole file, and its memory does not grow
 * with the number of rows or of distinct columns. Each run is a row of
 * cells (name, text value, column); a cell is either the run's own (an
 * iteration count, a time) or shared: part of the run's context (a Go
 * configuration line, the benchmark's name and its parts, a hyperfine
 * command and its parameters), which the runs that share it store once
 * (schema/README.md, attr_sets). Metric columns are named so that
 * schema/fields' unit-suffix inference gets their kind and direction
 * (docs/importing.md, "Importing tool outputs").
 *
 * The sink decides where rows go: importers/corpus_tool.c stores each in
 * the database as it comes; tool_convert_table() builds an in-memory
 * table (for tests and small callers).
 *
 * Errors are set with err_at(): "file:line:col: message", and for JSON
 * "file:line:col: $.results[0].times[3]: message". A converter refuses
 * what the format does not allow and every value a results table would
 * refuse (common/num.h: no hex floats, no infinities; no negative times;
 * no empty results): one rule for values across formats.
 *
 * Adding a format: one line in tools.c's table, a convert function in
 * its own tool_NAME.c, and its structure in tool_detect.c.
 */
#ifndef COREPLAN_TOOLS_H
#define COREPLAN_TOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct table;
struct infile;

/* ---- reading: a buffered source over an infile or bytes in memory ---- */

#define TOOL_SRC_BUF ((size_t)64 << 10)
/* A line (or a JSON string) longer than this is refused: no tool writes one. */
#define TOOL_LINE_MAX ((size_t)16 << 20)

struct tool_src {
	const char *display; /* the file's name in messages */
	struct infile *in;   /* NULL: the bytes in memory */
	unsigned char *buf;  /* owned when in; else the bytes */
	size_t len, pos;     /* valid bytes in buf, next one */
	bool eof;            /* nothing after buf[len] */
	int64_t consumed;    /* bytes before buf[0] */
	char *line;          /* tool_src_line's buffer (owned) */
	size_t line_cap;
	long line_no; /* lines tool_src_line has returned */
};

/* A source reading `in` (opened by the caller, who ends and closes it). */
int tool_src_file(struct tool_src *s, struct infile *in, const char *display);
/* A source over n bytes (not copied: they must outlive the source). */
void tool_src_mem(struct tool_src *s, const char *bytes, size_t n, const char *display);
void tool_src_close(struct tool_src *s);
/* Refill: 0 (s->len may be 0 at the end: s->eof), or an error. */
int tool_src_fill(struct tool_src *s);
/*
 * The next line, its end ('\n') cut but anything else kept ('\r', NUL
 * bytes): 1 with *text (valid until the next call; not NUL-terminated:
 * use *len) and *len, 0 at the end
 * of the file, <0 on error (a line over TOOL_LINE_MAX). *newline says
 * whether it ended in '\n' (the last line may not).
 */
int tool_src_line(struct tool_src *s, const char **text, size_t *len, bool *newline);

/* ---- writing: rows of cells to a sink ---- */

struct tool_cell {
	const char *name;
	const char *value;
	long line; /* shared cells: the line that set it, 0 for the run's own line */
	long col;  /* 1-based column, 0 when none */
	bool shared;
	bool has_num; /* the converter read the value as a number already: num */
	double num;
};

struct tool_row {
	long line; /* the run's source line (0 for JSON: its place is the path) */
	const struct tool_cell *cells;
	size_t ncells;
};

struct tool_sink {
	/* one run; the cells are valid during the call only */
	int (*row)(void *arg, const struct tool_row *row);
	/*
	 * A value for every run of the file, earlier ones too (a fact known
	 * only at the end: Google Benchmark's aggregate count, hyperfine's
	 * command template); replaces a shared cell of that name. Never a
	 * canonical field (the runs' fields were mapped already).
	 */
	int (*constant)(void *arg, const char *name, const char *value);
	void *arg;
};

struct tool_emit {
	const struct tool_sink *sink;
	const char *display; /* for messages */
	const char *file;    /* the value of every run's shared cell `file` (NULL: none) */
	int64_t rows;        /* rows handed to the sink */
	/* the row being built */
	bool open;
	long line;
	struct emit_cell {
		size_t name, value; /* offsets into text */
		long line, col;
		bool shared, has_num;
		double num;
	} * cells;
	size_t ncells, cells_cap;
	char *text;
	size_t text_len, text_cap;
	uint32_t *slots; /* open addressing over cells by name: index + 1 */
	size_t nslots;
	struct tool_cell *out; /* the cells handed to the sink */
	size_t out_cap;
};

void tool_emit_init(struct tool_emit *e, const struct tool_sink *sink, const char *display,
		    const char *file);
void tool_emit_release(struct tool_emit *e);
/* Start a run at `line` (discarding a row not finished). */
int tool_emit_row(struct tool_emit *e, long line);
/*
 * A cell of the current row: 0, 1 when the row has a cell of that name
 * already (the caller names the duplicate), <0 on error. The _n forms take
 * text that is not NUL-terminated.
 */
int tool_emit_set(struct tool_emit *e, const char *name, const char *value, long col);
int tool_emit_set_n(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		    size_t value_len, long col);
/* An own cell whose text the converter parsed as num (the sink need not parse it again). */
int tool_emit_set_num(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		      size_t value_len, double num, long col);
int tool_emit_shared(struct tool_emit *e, const char *name, const char *value, long line, long col);
int tool_emit_shared_n(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		       size_t value_len, long line, long col);
/* Does the current row have a cell of that name? */
bool tool_emit_has(const struct tool_emit *e, const char *name);
/* Hand the row to the sink (with `file` added); a converter's own `file` cell is an error. */
int tool_emit_done(struct tool_emit *e);
/* sink->constant. */
int tool_emit_constant(struct tool_emit *e, const char *name, const char *value);

/* ---- the formats ---- */

struct tool_format {
	const char *name;    /* --format NAME, manifest `format = NAME` */
	const char *summary; /* one line for --help */
	/* what a user calls the format in messages ("Go benchmark text") */
	const char *what;
	int (*convert)(struct tool_src *src, struct tool_emit *out);
};

/* The formats, NULL-name terminated. */
extern const struct tool_format tool_formats[];

/* The format named `name`, or NULL. */
const struct tool_format *tool_find(const char *name);
/* "a, b, c": the names, for messages. Static storage. */
const char *tool_names(void);

/*
 * Convert bytes in memory into a table (one column per cell name, in
 * order of first appearance; a cell a row lacks is ""), with the column
 * `file` = base_name. 0, or the converter's error with *out zeroed.
 */
int tool_convert_table(const struct tool_format *fmt, const char *bytes, size_t n,
		       const char *display, const char *base_name, struct table *out);

/* The converters (tool_gobench.c, tool_hyperfine.c, tool_hyperfine_csv.c, tool_gbench.c,
 * tool_wrk.c). */
int gobench_convert(struct tool_src *src, struct tool_emit *out);
int hyperfine_convert(struct tool_src *src, struct tool_emit *out);
int hyperfine_csv_convert(struct tool_src *src, struct tool_emit *out);
int gbench_convert(struct tool_src *src, struct tool_emit *out);
int tool_wrk_convert(struct tool_src *src, struct tool_emit *out);

/* ---- detection on structure (tool_detect.c) ---- */

enum tool_kind {
	TOOL_KIND_TOOL,    /* a format above: import it */
	TOOL_KIND_TABLE,   /* a headed TSV/CSV table: importers/table.h reads it */
	TOOL_KIND_REFUSED, /* a known format coreplan does not import (why: what to do) */
	TOOL_KIND_UNKNOWN, /* nothing known (why: what it looks like) */
};

struct tool_class {
	enum tool_kind kind;
	const struct tool_format *format; /* TOOL_KIND_TOOL */
	char why[512];                    /* REFUSED, UNKNOWN: a sentence, no file name */
};

/*
 * Read the source as far as its structure needs (a JSON file's keys down
 * to its first result, a text file's lines until one is decisive: not a
 * fixed prefix) and say what it is. 0, or an I/O error.
 */
int tool_classify(struct tool_src *src, struct tool_class *out);

#endif
