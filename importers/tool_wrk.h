/*
 * tool_wrk: the text wrk 4.1 prints for one run, as a one-row table.
 *
 * One file is one run (a folder of wrk outputs is a corpus, one run per
 * file). The converter reads the lines of a tool_src (importers/tools.h);
 * it never opens a file.
 *
 * Accepted, in this order (wrk.c's print_stats_header/print_stats and
 * main): "Running DUR test @ URL", "  T threads and C connections", the
 * "Thread Stats   Avg Stdev Max +/- Stdev" header, the Latency and Req/Sec
 * rows, optionally "Latency Distribution" and its 50/75/90/99% lines
 * (--latency), "  N requests in TIME, SIZE read", optionally "Socket
 * errors: connect a, read b, write c, timeout d" and "Non-2xx or 3xx
 * responses: n", then "Requests/sec: R" and "Transfer/sec: SIZE". Blank
 * lines at the end and CRLF line ends are accepted. What a Lua script
 * (wrk -s) prints is kept: lines before "Running" (setup, init), between
 * the threads line and "Thread Stats" (response) and after "Transfer/sec"
 * (done) are the script's, counted in script_lines and kept in
 * script_output (its first 64 KiB, lines joined by newlines). Anything
 * else (a line out of place, a missing line, a number wrk cannot print,
 * an unknown unit, a NUL byte) is refused with "path:line:col: message"
 * (err_at).
 *
 * Units are normalised (wrk's units.c): times us/ms/s/m/h to ms, counts
 * with k/M/G/T/P (x1000), sizes B/KB/MB/GB/TB/PB (x1024) to MB (wrk's MB:
 * 1024 x 1024 bytes). A "nan%" (no requests) is a missing cell; with zero
 * requests the latency and Req/Sec cells are missing (wrk prints zeros).
 * Socket errors and non-2xx counts wrk did not print are 0.
 *
 * Columns (tool_wrk_columns): url, test_duration_s, wrk_threads (the load
 * generator's threads: not the application's workers, so `wrk_threads`
 * and not `threads`), connections, latency_avg_ms, latency_stdev_ms,
 * latency_max_ms, latency_within_stdev_pct, thread_requests_avg_per_s,
 * thread_requests_stdev_per_s, thread_requests_max_per_s,
 * thread_requests_within_stdev_pct, latency_p50_ms, latency_p75_ms,
 * latency_p90_ms, latency_p99_ms, requests_total, elapsed_s, read_MB,
 * socket_connect_errors_count, socket_read_errors_count,
 * socket_write_errors_count, socket_timeout_errors_count,
 * non_2xx_errors_count, requests_per_s, transfer_MB_per_s; script_lines and
 * script_output when a script printed anything.
 */
#ifndef COREPLAN_TOOL_WRK_H
#define COREPLAN_TOOL_WRK_H

#include "tools.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether the first two lines of a file (after any script output) read
 * like wrk's: "Running ... test @ ..." and "... threads and ...".
 */
bool tool_wrk_detect_lines(const char *first, size_t n1, const char *second, size_t n2);

#endif
