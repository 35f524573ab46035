/*
 * tool_json: converters of two benchmark tools' JSON outputs into a runs
 * table (importers/table.h), and the small pieces they share.
 *
 * hyperfine `--export-json` (1.15): one run per entry of each result's
 * `times`; columns (README "Importing tool outputs"):
 *   id             "c<result>-r<run>", 1-based (the run's tag is FILE:ROW)
 *   command        the result's command
 *   <parameter>    one column per key of `parameters` (--parameter-scan,
 *                  --parameter-list), its value as written
 *   run            1-based index of the timing in `times`
 *   exit_code      the entry of `exit_codes` (empty when absent)
 *   valid          0 when exit_code is not 0 (the run is excluded), else 1
 *   time_s         the wall-clock time in seconds (lower is better)
 *   user_mean_s, system_mean_s
 *                  the result's `user`/`system`: hyperfine 1.15 writes one
 *                  mean per command, so every run of a command has the same
 *                  value; when a file has per-run arrays, user_s / system_s
 *                  hold the run's own value instead
 *
 * Google Benchmark `--benchmark_format=json` (1.7): one run per row with
 * run_type "iteration" (or none); rows with run_type "aggregate" (mean,
 * median, stddev, cv, BigO, RMS) are not runs: their count is the constant
 * field aggregate_rows. Columns:
 *   id             the row's name, "/rep:<repetition_index>" appended
 *   name           the name without its "/threads:N" part
 *   threads        the thread count (the sweep level)
 *   repetition     repetition_index (0-based, as the tool writes it)
 *   iterations     iterations
 *   real_time_ns, cpu_time_ns
 *                  real_time / cpu_time converted from time_unit to ns
 *   items_per_second, bytes_per_second
 *                  when a row has them (higher is better)
 *   <counter>      every other numeric key of a row (user counters)
 *   valid          0 for a row with error_occurred (excluded), else 1
 *   error_message  the row's error_message, if any row has one
 *   num_cpus, mhz_per_cpu, cpu_scaling_enabled, host_name, executable,
 *   library_build_type, context_date, caches
 *                  the `context` object, the same on every run (corpus
 *                  facts stored as constant fields); caches is a summary
 *                  "L1 Data 48 KiB (x1), ..."
 *
 * Rows are built with importers/tools.h's tool_rows. Contracts of both
 * converters (the registry's interface, importers/tools.h):
 * `bytes` is the whole file (n bytes, not necessarily NUL-terminated), read
 * through common/infile.h by the caller; `out` is filled on success (the
 * caller calls table_release); on failure err_at() names the file and the
 * JSON path ("F: $.results[0].times[3]: not a number"), out is released
 * and a negative code returned. Detection looks at the content only.
 */
#ifndef COREPLAN_TOOL_JSON_H
#define COREPLAN_TOOL_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct table;

bool hyperfine_detect(const char *bytes, size_t n);
int hyperfine_convert(const char *bytes, size_t n, const char *display_path, struct table *out);

bool gbench_detect(const char *bytes, size_t n);
int gbench_convert(const char *bytes, size_t n, const char *display_path, struct table *out);

/* ---- shared by the two converters ---- */

/* Does the text start (after blanks and a UTF-8 BOM) with '{' and hold `needle`? */
bool tj_looks_like(const char *bytes, size_t n, const char *needle);

#endif

/* ---- reading the JSON through SQLite's JSON functions ---- */

#include <sqlite3.h>
#include <stdint.h>

struct tj {
	sqlite3 *db; /* a private in-memory connection */
	const char *display;
	char *doc; /* the text, NUL-terminated, without a UTF-8 BOM */
	size_t len;
	sqlite3_stmt *get;
};

/* One value: type is SQLite's json_type() word, "" when the path is absent. */
struct tj_val {
	char type[8];
	char *text; /* the string, number text or container JSON (owned; NULL when absent) */
	double num;
	int64_t i;
	bool is_int64;
};

/*
 * Check that the bytes are a JSON object (no NUL byte, valid JSON located
 * by line:col when not) and open the connection; `top` names the tool in
 * messages. On failure everything is released.
 */
int tj_open(struct tj *j, const char *bytes, size_t n, const char *display, const char *top);
void tj_close(struct tj *j);
/* The value at `path` (SQLite JSON path) inside `json` (NULL: the document). */
int tj_get(struct tj *j, const char *json, const char *path, struct tj_val *v);
void tj_val_release(struct tj_val *v);
/* A statement over json_each(json): columns key, type, atom, value; the caller finalizes. */
int tj_each(struct tj *j, const char *json, sqlite3_stmt **st);
/* Is the value a finite JSON number? */
bool tj_is_number(const struct tj_val *v);
/* Format a double as the shortest text that reads back the same. */
void tj_fmt(double x, char *buf, size_t size);
