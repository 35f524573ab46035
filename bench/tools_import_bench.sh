#!/usr/bin/env bash
# tools_import_bench.sh: time and peak RSS of `coreplan import` on large tool files
# (issue 23, "Done when"), each into a fresh database:
#   go-30000-units   the issue's Go file: one result line with a new unit
#                    each (30,000 units, one run with 30,000 columns)
#   hyperfine-100k   one command with 100,000 timings and exit codes
#   gbench-200k      200,000 Google Benchmark rows (JSON, 2 threads levels)
#   go-LINES         Go result lines (500 benchmarks x 2 GOMAXPROCS x
#                    repeats), at SMALL and LARGE lines
# It fails (exit 1) when an import fails, when one of the first three takes
# 3 s or more of CPU time (user + sys: on a machine shared with other work
# the wall time moves with their load; it is printed beside) or peaks at 64
# MB or more, when the Go files' peak RSS is 64
# MB or more, or when the Go files' CPU time grows more than 1.1 x
# (LARGE / SMALL) (linear: LARGE / SMALL).
#
#   bench/tools_import_bench.sh [COREPLAN [SMALL LARGE]]
#
#   COREPLAN  the binary (default: build/coreplan next to this script)
#   SMALL     Go result lines of the smaller file (default 200000)
#   LARGE     of the larger (default 2000000: the issue's 96 MB file)
# Wall time, CPU time (user + sys) and peak RSS come from /usr/bin/time
# (coreplan's import starts no child). Each import runs RUNS times (default
# 1); the least time and the largest RSS are printed. Environment: RUNS,
# BENCH_DIR (default a mktemp -d, removed unless KEEP=1), PYTHON (python3).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
coreplan=${1:-$here/../build/coreplan}
small=${2:-200000}
large=${3:-2000000}
runs=${RUNS:-1}
py=${PYTHON:-python3}
[ -x "$coreplan" ] || { echo "tools_import_bench.sh: no coreplan binary at '$coreplan'" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "tools_import_bench.sh: /usr/bin/time is needed" >&2; exit 2; }
for v in "$small" "$large"; do
	case $v in '' | *[!0-9]*) echo "tools_import_bench.sh: SMALL and LARGE are numbers of lines" >&2; exit 2 ;; esac
done
[ "$large" -gt "$small" ] || { echo "tools_import_bench.sh: LARGE must be more than SMALL" >&2; exit 2; }
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/coreplan-tools-bench.XXXXXX")}
mkdir -p "$work"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT

"$py" - "$work" "$small" "$large" <<'PY'
import json, random, sys
d, small, large = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(1)
with open(d + "/go-30000-units.txt", "w") as f:
    print("goos: linux", file=f)
    for i in range(30000):
        print(f"BenchmarkA 1 1 u{i}/op", file=f)
times = [0.01 + random.random() * 0.001 for _ in range(100000)]
json.dump({"results": [{"command": "sleep 0.01", "mean": 0.0105, "times": times,
                        "exit_codes": [0] * 100000}]}, open(d + "/hyperfine-100k.json", "w"), indent=2)
rows = [{"name": f"BM_Sum/{i % 100}/threads:{1 + i % 2}", "run_type": "iteration",
         "repetition_index": i // 200, "threads": 1 + i % 2, "iterations": 34793,
         "real_time": 357.8 + random.random(), "cpu_time": 355.9 + random.random(),
         "time_unit": "ns", "items_per_second": 2.8e9} for i in range(200000)]
json.dump({"context": {"num_cpus": 2}, "benchmarks": rows}, open(d + "/gbench-200k.json", "w"), indent=2)
for n in (small, large):
    with open(f"{d}/go-{n}.txt", "w") as f:
        print("goos: linux\ngoarch: amd64\npkg: example.com/bench", file=f)
        reps = n // 1000
        for b in range(500):
            for cpu in (1, 2):
                for c in range(reps):
                    print(f"BenchmarkCase{b}/size={b % 7}{'-2' if cpu == 2 else ''}  \t 1000000\t "
                          f"{1000 + b * 10 + random.random() * 50:.1f} ns/op\t {b * 8} B/op\t "
                          f"{b % 5} allocs/op", file=f)
PY

failed=0
declare -A wall cpu rss
measure() { # NAME FILE
	local name=$1 file=$2 i secs kb used
	wall[$name]="" cpu[$name]="" rss[$name]=0
	for ((i = 0; i < runs; i++)); do
		rm -f "$work/db" "$work/db-wal" "$work/db-shm"
		if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$coreplan" --db "$work/db" import -q \
			"$file" >/dev/null 2>"$work/err"; then
			echo "tools_import_bench.sh: importing $name failed: $(head -c 300 "$work/err")" >&2
			failed=1
		fi
		read -r secs u s kb < <(tail -n 1 "$work/time")
		used=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		wall[$name]=$(awk -v a="${wall[$name]}" -v b="$secs" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		cpu[$name]=$(awk -v a="${cpu[$name]}" -v b="$used" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		[ "$kb" -gt "${rss[$name]}" ] && rss[$name]=$kb
	done
	printf '%-16s %10s bytes  wall %6.2f s  cpu %6.2f s  peak RSS %6.1f MB' "$name" \
		"$(stat -c %s "$file")" "${wall[$name]}" "${cpu[$name]}" "$(awk -v k="${rss[$name]}" 'BEGIN { print k / 1024 }')"
}
verdict() { # NAME [SECONDS]: under 64 MB (and the seconds of CPU time)
	local v=ok
	[ "${rss[$1]}" -lt $((64 * 1024)) ] || v="FAIL (64 MB)"
	if [ -n "${2:-}" ] && ! awk -v s="${cpu[$1]}" -v b="$2" 'BEGIN { exit !(s < b) }'; then v="FAIL ($2 s of CPU)"; fi
	[ "$v" = ok ] || failed=1
	echo "  $v"
}

echo "coreplan: $coreplan; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in go-30000-units hyperfine-100k gbench-200k; do
	ext=json
	[ "$name" = go-30000-units ] && ext=txt
	measure "$name" "$work/$name.$ext"
	verdict "$name" 3
done
for n in "$small" "$large"; do
	measure "go-$n" "$work/go-$n.txt"
	verdict "go-$n"
done
ratio=$(awk -v a="${cpu[go-$small]}" -v b="${cpu[go-$large]}" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
limit=$(awk -v s="$small" -v l="$large" 'BEGIN { printf "%.2f", 1.1 * l / s }')
v=ok
awk -v r="$ratio" -v m="$limit" 'BEGIN { exit !(r > m) }' && { v="FAIL (faster than linear)"; failed=1; }
echo "Go lines $large / $small: CPU time x$ratio (linear x$(awk -v s="$small" -v l="$large" 'BEGIN { print l / s }'), at most x$limit)  $v"
exit $failed
