#!/usr/bin/env bash
# pandas_bench.sh: import + sweep of the GOMAXPROCS corpus by coreplan
# against the pandas script a user writes for the same summary
# (bench/pandas_sweep.py), on the same machine, in the same run (issue 24:
# coreplan <= 0.08x of pandas).
#
#   bench/pandas_bench.sh [COREPLAN [REPS]]
#
#   COREPLAN  the coreplan binary (default build/coreplan next to this
#             script's repository)
#   REPS      alternations of the two sides (default 9, at least 3)
#
# Sides, in turn (the order reversed every other round), each one `sh -c`
# timed by python3 (wall: time.monotonic_ns; CPU: user + system time of the
# children, getrusage(RUSAGE_CHILDREN)):
#   coreplan  coreplan --db FRESH import -q CORPUS && coreplan --db FRESH
#             sweep --by gomaxprocs --where block=1,2,3 --format tsv
#             (a new database file every time, FRESH a new name in the work
#             folder each round: the import into it is part of the time, and
#             no `rm` process of the bench's own is; RM=1 removes and reuses
#             one file, as this script did before 2 Dec 2026, which adds the
#             start of an `rm` process, about 1 ms, to coreplan's side)
#   pandas    PYTHON bench/pandas_sweep.py CORPUS (read results.tsv, group,
#             medians, speedup, efficiency, per-doubling fit)
# Both print the same medians, speedups and efficiencies; the script checks
# that the two sides' medians agree before timing. Prints each side's median
# and minimum wall and CPU time and the ratios coreplan / pandas (on a loaded
# machine the wall time of coreplan's 20-30 ms is mostly waiting: its CPU
# ratio says what the tool costs).
#
# Environment: PYTHON (default: the first of /usr/bin/python3, python3 that
# imports pandas; Debian: apt-get install python3-pandas), SHARED_CORPORA
# (default ../shared/corpora beside the repository), BENCH_DIR, KEEP=1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
coreplan=${1:-$repo/build/coreplan}
reps=${2:-9}
corpus=${SHARED_CORPORA:-$repo/../shared/corpora}/sky/gomaxprocs-scaling-20260816
case $reps in '' | *[!0-9]*) echo "pandas_bench.sh: REPS must be a number" >&2; exit 2 ;; esac
[ "$reps" -ge 3 ] || { echo "pandas_bench.sh: REPS must be at least 3" >&2; exit 2; }
[ -x "$coreplan" ] || { echo "pandas_bench.sh: no coreplan binary at $coreplan" >&2; exit 2; }
[ -d "$corpus" ] || { echo "pandas_bench.sh: no corpus at $corpus" >&2; exit 2; }
py=${PYTHON:-}
if [ -z "$py" ]; then
	for c in /usr/bin/python3 python3; do
		if "$c" -c 'import pandas' 2>/dev/null; then py=$c; break; fi
	done
fi
[ -n "$py" ] || { echo "pandas_bench.sh: no python3 with pandas (apt-get install python3-pandas)" >&2; exit 2; }
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/coreplan-pbench.XXXXXX")}
mkdir -p "$work"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
export COREPLAN CORPUS_DIR WORK PY
COREPLAN=$coreplan CORPUS_DIR=$corpus WORK=$work PY=$py
# shellcheck disable=SC2016 # expanded by the sh -c that runs it
if [ "${RM:-0}" = 1 ]; then
	cp_side='rm -f "$WORK/s.db" && "$COREPLAN" --db "$WORK/s.db" import -q "$CORPUS_DIR" >/dev/null &&
	"$COREPLAN" --db "$WORK/s.db" sweep --by gomaxprocs --where block=1,2,3 --format tsv'
else
	# shellcheck disable=SC2016 # expanded by the sh -c that runs it
	cp_side='"$COREPLAN" --db "$WORK/s-$ROUND.db" import -q "$CORPUS_DIR" >/dev/null &&
	"$COREPLAN" --db "$WORK/s-$ROUND.db" sweep --by gomaxprocs --where block=1,2,3 --format tsv'
fi
export ROUND=check
# shellcheck disable=SC2016
pd_side='"$PY" "'"$here"'/pandas_sweep.py" "$CORPUS_DIR"'

# the two sides agree: level and median columns
sh -c "$cp_side" | cut -f1,3 | awk 'NR > 1 { printf "%s %.9g\n", $1, $2 }' >"$work/cp.txt"
sh -c "$pd_side" | awk -F'\t' 'NR > 1 && $1 != "per_doubling" { printf "%s %.9g\n", $1, $3 }' >"$work/pd.txt"
if ! cmp -s "$work/cp.txt" "$work/pd.txt"; then
	echo "pandas_bench.sh: the two sides' medians differ:" >&2
	diff "$work/cp.txt" "$work/pd.txt" >&2 || true
	exit 1
fi

: >"$work/times"
# timed NAME SCRIPT: wall time (time.monotonic_ns) and CPU time (user + system
# of the waited-for children, getrusage(RUSAGE_CHILDREN)) of `sh -c SCRIPT`, in
# microseconds; the CPU time moves much less with other load on the machine
timed() {
	"$py" -c 'import os, resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.monotonic_ns()
rc = subprocess.run(["sh", "-c", sys.argv[2]], stdout=subprocess.DEVNULL).returncode
t1 = time.monotonic_ns(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print(sys.argv[1], (t1 - t0) // 1000, int(cpu * 1e6))
sys.exit(rc)' "$1" "$2" >>"$work/times"
}
for i in $(seq 1 "$reps"); do
	ROUND=$i
	if [ $((i % 2)) = 1 ]; then
		timed coreplan "$cp_side"; timed pandas "$pd_side"
	else
		timed pandas "$pd_side"; timed coreplan "$cp_side"
	fi
done
stat() { # NAME COLUMN (2 wall, 3 CPU): median and minimum in ms
	awk -v n="$1" -v c="$2" '$1 == n { print $c / 1000 }' "$work/times" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[1] }'
}
read -r cm cmin < <(stat coreplan 2)
read -r pm pmin < <(stat pandas 2)
read -r cc ccmin < <(stat coreplan 3)
read -r pc pcmin < <(stat pandas 3)
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $("$py" -c 'import pandas; print("pandas", pandas.__version__)'); reps $reps"
printf '%-24s wall median %7.1f ms  min %7.1f ms   CPU median %7.1f ms  min %7.1f ms\n' \
	"coreplan import + sweep" "$cm" "$cmin" "$cc" "$ccmin" "pandas script" "$pm" "$pmin" "$pc" "$pcmin"
awk -v a="$cm" -v b="$pm" -v c="$cmin" -v d="$pmin" -v e="$cc" -v f="$pc" 'BEGIN {
	printf "ratio coreplan / pandas: wall %.3f (medians), %.3f (minimums); CPU %.3f (medians); issue 24 target <= 0.08 (wall medians): %s\n",
		a / b, c / d, e / f, (a / b <= 0.08) ? "met" : "NOT met" }'
