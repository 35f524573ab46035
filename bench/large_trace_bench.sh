#!/usr/bin/env bash
# large_trace_bench.sh: coreplan's own peak memory and wall time on one run
# with a long trace, at two lengths, and how time grows between them.
#
#   bench/large_trace_bench.sh [COREPLAN [SMALL LARGE]]
#
#   COREPLAN  the coreplan binary (default: build-a/coreplan, else
#             build/coreplan, next to this script's repository)
#   SMALL     rows of the smaller trace (default 2000000)
#   LARGE     rows of the larger trace (default 10000000)
#
# For each length a corpus of one run is generated: results.tsv (the run,
# sessions 400) and runs/bench/sample.tsv from bench/gen_trace.awk (8 columns
# like the gomaxprocs corpus's sample.tsv; conn wanders 0-400), with a
# manifest that sets clk_tck and nproc, so the plateau and every CPU and
# memory figure are computed, not skipped. It is imported, then each of
#   cores --format json >/dev/null
#   trace bench --format tsv >/dev/null
#     and its peer: sqlite3 -tabs dumping the same rows' stored columns
#   memory --corpus C --format json  (the plateau's memory per session)
#   size ... --memory-from corpus=C   (the plateau's co-located memory)
#   report --corpus C --out DIR   (one trace plot: gnuplot runs as a child)
#   translate --from corpus=C --to corpus=other --format json
#                                 (its cpu_time factor reads the run's trace;
#                                 `other` is one run with a 300-row trace)
# runs RUNS times (default 3), and the script prints its exit status, wall
# time, CPU time and peak RSS (the least time and the largest RSS of the
# runs). Peak RSS and CPU time are coreplan's alone: getrusage(RUSAGE_SELF)
# at its exit, through a small LD_PRELOAD library built here that removes
# itself from the environment, so gnuplot (a child; /usr/bin/time -f %M
# would count it) is not measured. The report's plot data file size is
# printed too.
#
# It fails (exit 1) when any command fails, when any peak RSS is 64 MB or
# more, or when a command's LARGE/SMALL ratio of CPU time is above
# 5.5 x (LARGE / SMALL) / 5 (5.5 for the default lengths: linear growth is
# 5x). The wall-time ratio is printed beside it; on a machine shared with
# other work it moves with their load, the CPU time much less.
#
# Environment: RUNS (default 3), BENCH_DIR (work directory, default a
# mktemp -d under ${TMPDIR:-/tmp}, removed at the end unless KEEP=1), CC
# (default cc).
# Takes about ten minutes at the default lengths (three runs of each
# command; `trace` of 10,000,000 rows is the longest) and 1.3 GB of disk.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

runs=${RUNS:-3}
small=${2:-2000000}
large=${3:-10000000}
# shellcheck source=lib.sh
source "$here/lib.sh"
bench_count SMALL "$small"
bench_count LARGE "$large"
bench_count RUNS "$runs" 1
if [ "$large" -le "$small" ]; then
	echo "large_trace_bench.sh: LARGE must be more rows than SMALL" >&2
	exit 2
fi
bench_coreplan "${1:-}" first build-a build
bench_workdir coreplan-large-trace

# coreplan's own peak RSS, written at its exit; the library leaves the
# environment before main, so no child inherits it
cat >"$work/rss_self.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static char *out;

__attribute__((constructor)) static void rss_start(void)
{
	const char *path = getenv("RSS_SELF_OUT");
	out = path ? strdup(path) : NULL;
	unsetenv("LD_PRELOAD");
	unsetenv("RSS_SELF_OUT");
}

__attribute__((destructor)) static void rss_stop(void)
{
	struct rusage ru;
	FILE *fp;
	if (!out || getrusage(RUSAGE_SELF, &ru) != 0 || !(fp = fopen(out, "w")))
		return;
	fprintf(fp, "%ld %.3f\n", ru.ru_maxrss,
		(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
			(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	fclose(fp);
}
EOF
${CC:-cc} -O2 -shared -fPIC -o "$work/rss_self.so" "$work/rss_self.c"

bench_manifest "$work/bench.manifest" "clk_tck=100 nproc=8"

now() { date +%s.%N; }

# measure NAME ROWS COMMAND...: run it RUNS times (after `before`, untimed,
# when set); record the least wall and CPU seconds and the largest peak RSS (kB)
before=""
declare -A secs cpu rss
failed=0
measure() {
	local name=$1 rows=$2 t0 t1 rc i wall kb used
	shift 2
	secs[$name,$rows]=""
	cpu[$name,$rows]=""
	rss[$name,$rows]=0
	for i in $(seq 1 "$runs"); do
		rm -f "$work/rss"
		[ -n "$before" ] && eval "$before"
		rc=0
		t0=$(now)
		LD_PRELOAD=$work/rss_self.so RSS_SELF_OUT=$work/rss "$@" >"$work/out" 2>"$work/err" || rc=$?
		t1=$(now)
		if [ $rc -ne 0 ]; then
			echo "large_trace_bench.sh: $name at $rows rows exited $rc: $(head -c 300 "$work/err")" >&2
			failed=1
		fi
		wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
		read -r kb used <"$work/rss" || { kb=0; used=0; }
		secs[$name,$rows]=$(awk -v a="${secs[$name,$rows]}" -v b="$wall" \
			'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		cpu[$name,$rows]=$(awk -v a="${cpu[$name,$rows]}" -v b="$used" \
			'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		[ "$kb" -gt "${rss[$name,$rows]}" ] && rss[$name,$rows]=$kb
	done
	printf '%-9s %10s rows  exit %d  wall %7.2f s  cpu %7.2f s  peak RSS %6.1f MB\n' "$name" \
		"$rows" "$rc" "${secs[$name,$rows]}" "${cpu[$name,$rows]}" \
		"$(awk -v k="${rss[$name,$rows]}" 'BEGIN { print k / 1024 }')"
}

bench_rows() {
	local rows=$1 corpus=$work/corpus-$1 db=$work/db-$1.db t0
	mkdir -p "$corpus/runs/bench" "$work/other/runs/small"
	# duration_s, interactions, cpu_s: translate's cpu_time factor reads the run's trace
	printf 'run\ttput\tsessions\tduration_s\tinteractions\tcpu_s\nbench\t100\t400\t90\t9000\t180\n' \
		>"$corpus/results.tsv"
	awk -v n="$rows" -f "$here/gen_trace.awk" >"$corpus/runs/bench/sample.tsv"
	# the other side of `translate`: one run with a short trace, its own corpus
	printf 'run\ttput\tsessions\tduration_s\tinteractions\tcpu_s\nsmall\t120\t400\t90\t10800\t170\n' \
		>"$work/other/results.tsv"
	awk -v n=300 -v seed=2 -f "$here/gen_trace.awk" >"$work/other/runs/small/sample.tsv"
	rm -f "$db" "$db-wal" "$db-shm"
	t0=$(now)
	"$coreplan" --db "$db" import --quiet --manifest "$work/bench.manifest" "$corpus" "$work/other" >/dev/null
	echo "$rows rows: $(wc -c <"$corpus/runs/bench/sample.tsv") bytes of trace, imported in" \
		"$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s; load:" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
	rm -rf "$corpus" "$work/other"
	measure cores "$rows" "$coreplan" --db "$db" cores --format json
	measure trace "$rows" "$coreplan" --db "$db" trace bench --format tsv
	# the peer of trace: a plain sqlite3 -tabs dump of the same rows and stored columns
	measure sqlite3 "$rows" sqlite3 -tabs "$db" "SELECT row_no, epoch, conn, app_rss_kb,
		mem_avail_kb, cpu_total_j, cpu_idle_j, app_j, pg_j FROM trace_samples WHERE trace_id =
		(SELECT trace_id FROM traces JOIN runs USING (run_id) WHERE runs.tag = 'bench') ORDER BY row_no"
	measure memory "$rows" "$coreplan" --db "$db" memory --corpus "corpus-$rows" --metric rss_median_kb --by sessions --format json
	measure size "$rows" "$coreplan" --db "$db" size --target 100 --sessions 400 \
		--base-rate 100 --base-cpu gce-e2 --per-doubling 1.8 --mem-per-session 600 \
		--mem-fixed 30000 --memory-from "corpus=corpus-$rows" --series e2 --format json
	before='rm -rf "$work/report-$rows"' # a fresh folder each run
	measure report "$rows" "$coreplan" --db "$db" report --corpus "corpus-$rows" --out "$work/report-$rows"
	before=""
	measure translate "$rows" "$coreplan" --db "$db" translate --from "corpus=corpus-$rows" \
		--to corpus=other --format json
	for f in "$work/report-$rows"/plots/*.tsv; do
		[ -e "$f" ] && echo "        report plot data $(basename "$f"): $(wc -c <"$f") bytes," \
			"$(grep -vc '^#\|^$' "$f") points"
	done
	rm -f "$db" "$db-wal" "$db-shm"
}

echo "coreplan: $coreplan"
bench_rows "$small"
bench_rows "$large"

limit_kb=$((64 * 1024))
max_ratio=$(awk -v s="$small" -v l="$large" 'BEGIN { printf "%.3f", 5.5 * (l / s) / 5 }')
echo
echo "time ratios $large / $small rows (CPU at most $max_ratio), peak RSS (under 64 MB):"
for name in cores trace memory size report translate; do
	ratio=$(awk -v a="${cpu[$name,$small]}" -v b="${cpu[$name,$large]}" \
		'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
	wall=$(awk -v a="${secs[$name,$small]}" -v b="${secs[$name,$large]}" \
		'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
	verdict=ok
	if awk -v r="$ratio" -v m="$max_ratio" 'BEGIN { exit !(r > m) }'; then
		verdict="FAIL (CPU time grows faster than the rows)"
		failed=1
	fi
	for rows in "$small" "$large"; do
		if [ "${rss[$name,$rows]}" -ge "$limit_kb" ]; then
			verdict="FAIL (peak RSS ${rss[$name,$rows]} kB at $rows rows)"
			failed=1
		fi
	done
	printf '%-9s cpu x%-6s wall x%-6s  peak RSS %6.1f MB -> %6.1f MB  %s\n' "$name" "$ratio" \
		"$wall" "$(awk -v k="${rss[$name,$small]}" 'BEGIN { print k / 1024 }')" \
		"$(awk -v k="${rss[$name,$large]}" 'BEGIN { print k / 1024 }')" "$verdict"
done
echo
echo "trace --format tsv against sqlite3 -tabs of the same rows (issue 24: within 1.3x at 10,000,000 rows):"
for rows in "$small" "$large"; do
	awk -v r="$rows" -v tw="${secs[trace,$rows]}" -v sw="${secs[sqlite3,$rows]}" \
		-v tc="${cpu[trace,$rows]}" -v sc="${cpu[sqlite3,$rows]}" 'BEGIN {
		printf "%10s rows  wall %.2f s / %.2f s = %.2fx   cpu %.2f s / %.2f s = %.2fx   %s\n", r, tw, sw,
			tw / sw, tc, sc, tc / sc, (tw / sw <= 1.3 || tc / sc <= 1.3) ? "within 1.3x" : "NOT within 1.3x" }'
done
exit $failed
