/*
 * tool_json: a streaming JSON reader for the tool converters (hyperfine,
 * Google Benchmark), and the formats' columns.
 *
 * SQLite's JSON functions need the whole text in memory, so a 200,000-row
 * Google Benchmark file would be held whole (and read once per row); this
 * reader walks the bytes of a tool_src once, in constant memory but for
 * what the caller keeps: values come one at a time, in document order.
 * It follows RFC 8259 and refuses, with "file:line:col: $.path: message":
 * invalid JSON (located where it goes wrong), a key given twice in one
 * object (RFC 8259 leaves that undefined: a reader could keep either), an
 * escaped NUL (\u0000, which would cut the string), a lone surrogate, a
 * number that overflows a double ("1e999" is infinity), nesting deeper
 * than TJ_DEPTH_MAX, a string longer than TOOL_LINE_MAX and anything but
 * blanks after the top value. A UTF-8 byte-order mark is skipped.
 *
 * Use: tj_open(); tj_value() reads the next value's start: a scalar whole
 * (j->text: a string's decoded bytes or a number's text; j->num), or the
 * opening of an object or array, which the caller walks with tj_key()
 * (each key, then its value with tj_value) or tj_more() (each element),
 * or passes over with tj_skip(). tj_close() after tj_finish().
 *
 * hyperfine `--export-json` (1.15; tool_hyperfine.c): one run per entry of
 * each result's `times`; columns (README "Importing tool outputs"):
 *   id             "c<result>-r<run>", 1-based (the run's tag is FILE:ROW)
 *   command        the result's command (a parameter scan's template)
 *   <parameter>    one column per key of `parameters`, its value as written
 *   run            1-based index of the timing in `times`
 *   exit_code      the entry of `exit_codes` (empty when absent)
 *   valid          0 when exit_code is not 0 (the run is excluded), else 1
 *   time_s         the wall-clock time in seconds (lower is better)
 *   user_mean_s, system_mean_s   the result's `user`/`system` means; with
 *                  per-run arrays, user_s / system_s hold the run's own
 * Google Benchmark `--benchmark_format=json` (1.7; tool_gbench.c): one run
 * per row with run_type "iteration" (or none); aggregate rows are counted
 * (aggregate_rows). Columns: id, name, threads, repetition, iterations,
 * real_time_ns, cpu_time_ns, items_per_second, bytes_per_second, every
 * other numeric key (counters), valid, error_message, label and the
 * context facts num_cpus, mhz_per_cpu, cpu_scaling_enabled, host_name,
 * executable, library_build_type, context_date, caches.
 */
#ifndef COREPLAN_TOOL_JSON_H
#define COREPLAN_TOOL_JSON_H

#include "tools.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TJ_DEPTH_MAX 2000

enum tj_type { TJ_NONE, TJ_OBJECT, TJ_ARRAY, TJ_STRING, TJ_NUMBER, TJ_TRUE, TJ_FALSE, TJ_NULL };

struct tj_frame {
	bool object;
	size_t index;      /* arrays: elements begun; objects: keys read */
	size_t key;        /* offset of the current key in keys */
	size_t keys_start; /* this frame's keys begin here in keys */
	/* the keys seen, for duplicates: open addressing of offsets + 1 */
	size_t *slots;
	size_t nslots, nkeys;
	bool first; /* nothing read inside yet */
};

struct tj {
	struct tool_src *src;
	const char *display;
	long line, col;         /* of the last byte read */
	long tok_line, tok_col; /* where the value or key being read starts */
	bool io_error;
	struct tj_frame *stack;
	size_t depth, stack_cap;
	char *keys; /* every open object's keys, NUL-separated */
	size_t keys_len, keys_cap;
	/* the last scalar */
	enum tj_type type;
	char *text;
	size_t text_len, text_cap;
	double num;      /* TJ_NUMBER: the value (finite) */
	bool is_int;     /* TJ_NUMBER: integer syntax that fits int64 */
	int64_t i;       /* when is_int */
	char path[1024]; /* tj_path's buffer */
};

int tj_open(struct tj *j, struct tool_src *src);
void tj_close(struct tj *j);
/* Read the next value (at the top, after a key, or as an array element). */
int tj_value(struct tj *j, enum tj_type *type);
/* In an object: 1 and *key (valid until the next tj_key at this level), 0 at its end. */
int tj_key(struct tj *j, const char **key);
/* In an array: 1 when an element follows (read it with tj_value), 0 at its end. */
int tj_more(struct tj *j);
/* Pass over the rest of a value tj_value began (a scalar: nothing to do). */
int tj_skip(struct tj *j, enum tj_type type);
/* After the top value: only blanks may follow. */
int tj_finish(struct tj *j);
/* "$.results[0].times[3]": where the reader is. */
const char *tj_path(struct tj *j);
/* err_at the value being read, its path first. */
int tj_error(struct tj *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "a string", "an object", ...: for messages. */
const char *tj_type_name(enum tj_type type);

/* Format a double as the shortest text that reads back the same. */
void tj_fmt(double x, char *buf, size_t size);

#endif
