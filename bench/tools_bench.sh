#!/usr/bin/env bash
# tools_bench.sh: tool imports at scale (issue 22.5), as ratios against a
# peer and against the targets, on the same machine in the same run.
#
#   bench/tools_bench.sh [COREPLAN [RUNS]]
#
#   COREPLAN  the coreplan binary (default build/coreplan next to this script)
#   RUNS      alternations of the sides (default 3)
#
# 1. compare --view benchstat over 500 benchmarks: two generated Go outputs
#    (old.txt, new.txt: 500 names x -count 10, ns/op B/op allocs/op; awk
#    with a fixed seed), imported as one folder, then `coreplan compare --a
#    file=old.txt --b file=new.txt --view benchstat --format text` against
#    bench/benchstat_peer (a stdlib Go build of benchstat's rules) on the
#    same files (coreplan's text is the JSON's benchstat_text fact, the
#    layout the view renders). Prints each side's median wall and CPU time,
#    the ratios coreplan / peer (target <= 2), and whether the texts are
#    identical.
# 2. 200,000 Go samples: one generated file of 200,000 result lines
#    (2,000 names x -count 100, ns/op B/op allocs/op), `coreplan import`
#    into a fresh database: the median wall time (target <= 3 s) and the
#    database's size over the input's (target <= 3x, after the import's
#    own checkpoint: the -wal file is counted too when it is left).
#
# Wall and CPU (user + system) times from /usr/bin/time around each
# command (a process spawn included), medians over RUNS; on a machine shared
# with other work the CPU time is the steadier figure. Environment: BENCH_DIR (work directory, default a mktemp -d,
# removed at the end unless KEEP=1).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
coreplan=${1:-$repo/build/coreplan}
runs=${2:-3}
[ -x "$coreplan" ] || {
	echo "tools_bench.sh: no coreplan binary at $coreplan (build it, or pass its path)" >&2
	exit 2
}
case $runs in '' | *[!0-9]* | 0) echo "tools_bench.sh: RUNS must be a positive number" >&2; exit 2 ;; esac
timer=/usr/bin/time
for need in "$timer:/usr/bin/time (apt-get install time)" "$(command -v go || echo none):go, to build bench/benchstat_peer"; do
	[ -x "${need%%:*}" ] || { echo "tools_bench.sh: needs ${need#*:}" >&2; exit 2; }
done
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/coreplan-tbench.XXXXXX")}
mkdir -p "$work"
cleanup() { [ "${KEEP:-0}" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT

# gen NAMES COUNT SEED: a go test -bench output of NAMES benchmarks x COUNT samples
gen() {
	awk -v names="$1" -v count="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		print "goos: linux"; print "goarch: amd64"; print "pkg: example.com/bench"
		print "cpu: AMD EPYC"
		for (i = 1; i <= names; i++) {
			base = 100 + (i * 7919) % 100000
			for (k = 1; k <= count; k++) {
				ns = base * (1 + (rand() - 0.5) * 0.1)
				printf "BenchmarkOp/size=%d-2   \t%8d\t%12.1f ns/op\t%8d B/op\t%6d allocs/op\n",
					i, 100000, ns, 64 + i % 17 * 8, 1 + i % 5
			}
		}
		print "PASS"; print "ok  \texample.com/bench\t12.345s"
	}'
}

# ms CMD...: "WALL_MS CPU_MS" of CMD (CPU: user + system, from /usr/bin/time; its output to
# $work/.out). On a shared machine the CPU time is the steadier figure.
ms() {
	"$timer" -f "%e %U %S" -o "$work/.time" "$@" >"$work/.out" 2>"$work/.err" || {
		echo "tools_bench.sh: failed: $* ($(head -c 500 "$work/.err"))" >&2
		exit 1
	}
	awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$work/.time"
}
# median COL < LINES: the median of column COL (1: wall, 2: CPU)
median() { awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "# tools_bench.sh: coreplan $("$coreplan" --version 2>/dev/null | head -1), $runs runs, $(nproc) CPUs"

# ---- 1. compare --view benchstat over 500 benchmarks, against the peer ----
mkdir -p "$work/ab" "$work/gocache"
gen 500 10 1 >"$work/ab/old.txt"
gen 500 10 2 >"$work/ab/new.txt"
(cd "$here/benchstat_peer" && GOPROXY=off GOFLAGS=-mod=mod GOCACHE=$work/gocache GOTOOLCHAIN=local \
	go build -o "$work/peer" .)
"$coreplan" --db "$work/ab.db" import -q "$work/ab" >/dev/null
: >"$work/cp.ms"
: >"$work/peer.ms"
for _ in $(seq "$runs"); do
	# json carries benchstat's text (fact benchstat_text), compared below
	ms "$coreplan" --db "$work/ab.db" compare --a file=old.txt --b file=new.txt --view benchstat \
		--format json >>"$work/cp.ms"
	python3 -c 'import json, sys; sys.stdout.write(json.load(open(sys.argv[1]))["facts"]["benchstat_text"]["value"])' \
		"$work/.out" >"$work/cp.txt"
	(cd "$work/ab" && ms "$work/peer" old.txt new.txt) >>"$work/peer.ms"
	cp "$work/.out" "$work/peer.txt"
done
same=$(cmp -s "$work/cp.txt" "$work/peer.txt" && echo identical || echo DIFFERENT)
echo "compare --view benchstat, 500 benchmarks x 10 samples x 3 units ($(wc -l <"$work/peer.txt") lines, texts $same):"
echo "  wall: coreplan $(median 1 <"$work/cp.ms") ms, peer $(median 1 <"$work/peer.ms") ms," \
	"ratio $(ratio "$(median 1 <"$work/cp.ms")" "$(median 1 <"$work/peer.ms")") (target <= 2)"
echo "  CPU:  coreplan $(median 2 <"$work/cp.ms") ms, peer $(median 2 <"$work/peer.ms") ms," \
	"ratio $(ratio "$(median 2 <"$work/cp.ms")" "$(median 2 <"$work/peer.ms")")"

# ---- 2. 200,000 Go samples: import time and database size ----
gen 2000 100 3 >"$work/big.txt"
input=$(stat -c %s "$work/big.txt")
: >"$work/imp.ms"
for _ in $(seq "$runs"); do
	rm -f "$work/big.db" "$work/big.db-wal" "$work/big.db-shm"
	ms "$coreplan" --db "$work/big.db" import -q "$work/big.txt" >>"$work/imp.ms"
done
db=$(($(stat -c %s "$work/big.db") + $( [ -e "$work/big.db-wal" ] && stat -c %s "$work/big.db-wal" || echo 0)))
rows=$(sqlite3 "$work/big.db" "SELECT count(*) FROM runs" 2>/dev/null || echo "?")
echo "import of 200000 Go samples ($((input / 1024)) KiB, $rows runs): wall $(median 1 <"$work/imp.ms") ms," \
	"CPU $(median 2 <"$work/imp.ms") ms (target <= 3000);" \
	"database $((db / 1024)) KiB = $(ratio "$db" "$input")x the input (target <= 3)"
