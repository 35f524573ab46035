#!/usr/bin/env bash
# import_bench.sh: time `coreplan import` of a large 1 Hz trace against the
# sqlite3 shell's `.import` of the same file, on the same machine, in the
# same run.
#
#   bench/import_bench.sh [--scale] [N [COREPLAN [RUNS]]]
#
#   N         rows of the synthetic trace (default 2000000)
#   COREPLAN  the coreplan binary (default: build-a/coreplan, else
#             build/coreplan, next to this script's repository)
#   RUNS      alternations of the sides (default 5, at least 5)
#   --scale   run the whole comparison for N and for 5 x N rows and report
#             how time and peak RSS grow (linear: <= 5.5x time, same RSS)
#
# The trace (bench/gen_trace.awk) is 8 columns like runs/<tag>/sample.tsv.
# Three sides run in turn, each on a fresh database file in one work
# directory, RUNS times:
#   coreplan  `coreplan --db F import --manifest M CORPUS`, CORPUS being
#             results.tsv (one run) + runs/bench/sample.tsv (the trace);
#             this includes hashing every file and the run rows
#   driver    bench/trace_import_driver: db_open, BEGIN IMMEDIATE, one
#             traces row, trace_writer_import, COMMIT (the importer alone)
#   sqlite3   CREATE TABLE t(<the 8 columns>); .mode tabs; .import FILE t
#             (the shell wraps the import in one transaction itself)
# and prints each side's median and minimum wall time (the minimum is the
# least disturbed by other load on the machine), peak RSS (/usr/bin/time
# %M) and the median of the per-run ratios side/sqlite3 (< 1: faster).
#
# Environment: BENCH_DIR (work directory, default a mktemp -d under
# ${TMPDIR:-/tmp}, removed at the end unless KEEP=1), CC (default cc).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

scale=0
if [ "${1:-}" = "--scale" ]; then
	scale=1
	shift
fi
n=${1:-2000000}
runs=${3:-5}
# shellcheck source=lib.sh
source "$here/lib.sh"
bench_count N "$n"
bench_count RUNS "$runs" 5
bench_coreplan "${2:-}" second build-a build
bench_need /usr/bin/time time
bench_need sqlite3 sqlite3
bench_workdir coreplan-bench

# The driver is built here, optimised, from the repository's sources.
driver=$work/trace_import_driver
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$repo" \
	-o "$driver" "$here/trace_import_driver.c" "$repo/importers/trace.c" \
	"$repo/common/err.c" "$repo/common/hash.c" "$repo/common/infile.c" "$repo/common/num.c" "$repo/common/strbuf.c" \
	"$repo/schema/db.c" "$repo/schema/migrations.c" -lsqlite3 -lcrypto -lm

bench_manifest "$work/bench.manifest"

declare -A last_t last_min last_rss base_t base_min base_rss

# bench_rows ROWS: print one summary line per side; fill last_t/last_rss
bench_rows() {
	local rows=$1 corpus=$work/corpus-$1 trace i side t
	trace=$corpus/runs/bench/sample.tsv
	mkdir -p "$corpus/runs/bench"
	printf 'run\ttput\nbench\t100\n' >"$corpus/results.tsv"
	awk -v n="$rows" -f "$here/gen_trace.awk" >"$trace"
	echo "trace: $rows rows, $(wc -c <"$trace") bytes; $runs alternations; load: $(cut -d' ' -f1-3 /proc/loadavg)"
	: >"$work/times"
	for i in $(seq 1 "$runs"); do
		for side in coreplan driver sqlite3; do
			rm -f "$work"/$side.db "$work"/$side.db-wal "$work"/$side.db-shm "$work"/$side.db-journal
			case $side in
			coreplan)
				/usr/bin/time -f '%e %M' -o "$work/t" "$coreplan" --db "$work/coreplan.db" \
					import --quiet --manifest "$work/bench.manifest" "$corpus" >/dev/null
				;;
			driver)
				/usr/bin/time -f '%e %M' -o "$work/t" "$driver" "$work/driver.db" "$trace" >/dev/null
				;;
			sqlite3)
				/usr/bin/time -f '%e %M' -o "$work/t" sqlite3 "$work/sqlite3.db" \
					"CREATE TABLE t(epoch, app_rss_kb, mem_avail_kb, conn, cpu_total_j, cpu_idle_j, app_j, threads);" \
					".mode tabs" ".import $trace t" >/dev/null
				;;
			esac
			read -r t rss <"$work/t"
			echo "$i $side $t $rss" >>"$work/times"
		done
		# every side stored every row
		for side in coreplan driver; do
			got=$(sqlite3 "$work/$side.db" "SELECT count(*) FROM trace_samples")
			[ "$got" = "$rows" ] || { echo "import_bench.sh: $side stored $got rows, not $rows" >&2; exit 1; }
		done
		got=$(sqlite3 "$work/sqlite3.db" "SELECT count(*) FROM t")
		[ "$got" = "$rows" ] || { echo "import_bench.sh: sqlite3 stored $got rows, not $rows" >&2; exit 1; }
	done
	awk '$2 == "sqlite3" { base[$1] = $3 }
	     { t[$1, $2] = $3 }
	     END { for (k in t) { split(k, p, SUBSEP); if (p[2] != "sqlite3") print p[2], t[k] / base[p[1]] } }' \
		"$work/times" >"$work/ratios"
	printf '%-9s %9s %7s %12s %14s   %s\n' side "median s" "min s" "peak RSS MB" "ratio/sqlite3" "all runs (s)"
	for side in coreplan driver sqlite3; do
		t=$(awk -v s=$side '$2 == s { print $3 }' "$work/times" | median)
		tmin=$(awk -v s=$side '$2 == s { print $3 }' "$work/times" | minimum)
		rss=$(awk -v s=$side '$2 == s { print $4 }' "$work/times" | maximum)
		if [ $side = sqlite3 ]; then
			ratio=1
		else
			ratio=$(awk -v s=$side '$1 == s { print $2 }' "$work/ratios" | median)
		fi
		all=$(awk -v s=$side '$2 == s { printf "%s ", $3 }' "$work/times")
		printf '%-9s %9.2f %7.2f %12.1f %14.3f   %s\n' $side "$t" "$tmin" \
			"$(echo "$rss" | awk '{ print $1 / 1024 }')" "$ratio" "$all"
		last_t[$side]=$t
		last_min[$side]=$tmin
		last_rss[$side]=$rss
	done
	rm -rf "$corpus" "$work"/*.db "$work"/*.db-wal "$work"/*.db-shm
}

echo "coreplan: $coreplan"
bench_rows "$n"
if [ $scale = 1 ]; then
	for side in coreplan driver sqlite3; do
		base_t[$side]=${last_t[$side]}
		base_min[$side]=${last_min[$side]}
		base_rss[$side]=${last_rss[$side]}
	done
	echo
	bench_rows $((5 * n))
	echo
	echo "scaling from $n to $((5 * n)) rows (linear: time <= 5.5x, RSS about 1x):"
	for side in coreplan driver sqlite3; do
		awk -v s=$side -v t0="${base_t[$side]}" -v t1="${last_t[$side]}" \
			-v m0="${base_min[$side]}" -v m1="${last_min[$side]}" \
			-v r0="${base_rss[$side]}" -v r1="${last_rss[$side]}" \
			'BEGIN { printf "%-9s time x%.2f (medians), x%.2f (minima)   peak RSS x%.2f (%.1f -> %.1f MB)\n",
				s, t1 / t0, m1 / m0, r1 / r0, r0 / 1024, r1 / 1024 }'
	done
fi
