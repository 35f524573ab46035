#!/usr/bin/env bash
# analysis_bench.sh: time coreplan's analysis commands on a large corpus
# against the sqlite3 shell doing the equivalent work on the same database,
# on the same machine, in the same run.
#
#   bench/analysis_bench.sh [COREPLAN [REPS]]
#
#   COREPLAN  the coreplan binary (default: build-f/coreplan, else
#             build/coreplan, next to this script's repository)
#   REPS      timed repetitions of every command (default 7, at least 3)
#
# 1. bench/gen_corpus.awk writes a corpus with a coreplan.manifest:
#    10,000 runs (gomaxprocs 1 2 4 8 16 x 50 blocks x 4 session counts x 10
#    repeats), one 500-row 8-column trace per run (5,000,000 trace rows).
#    It is imported once (`coreplan --db D import DIR --quiet`), timed.
# 2. After one untimed warm-up of every command, REPS rounds each time, in
#    turn (the order is reversed every other round):
#      runs   coreplan runs --format tsv
#             peer: sqlite3 D "SELECT * FROM runs_v WHERE NOT excluded"
#      sweep  coreplan sweep --by gomaxprocs --pool sessions --format tsv
#             peer: sqlite3 GROUP BY gomaxprocs, count/min/max/avg(tput)
#             over the non-excluded runs
#      noise  coreplan noise --by gomaxprocs --pool sessions --format tsv
#             peer: the same GROUP BY as for sweep
#      memory coreplan memory --by sessions --metric tput --group gomaxprocs
#             --format tsv (OLS slope per group, its t interval, endpoints)
#             peer: sqlite3 computing the same OLS slopes per gomaxprocs from
#             sums (n Sxy - Sx Sy) / (n Sxx - Sx^2) over the non-excluded runs
#    and prints each median wall time (ms), the peer's median and the ratio
#    of the medians coreplan/peer, against the target (<= 100 ms each).
#    "Must not scan traces" is checked with strace: the bytes each command
#    reads from the database file against the size of trace_samples.
#    cores (CPU recomputed from every run's 500-row trace plateau; the corpus
#    sets clk_tck and nproc so every figure is computed) runs CORES_REPS
#    times (default 3): `coreplan cores --format tsv`; with BASELINE=BINARY
#    (a coreplan built before issue 24, e.g. from commit 20eb2ff) the same
#    command of that binary on its own import of the corpus (its schema) runs
#    beside it, in turn, and the ratio baseline / coreplan is printed
#    (issue 24: at least 2).
# 3. compare: a single-table corpus (tag, arm, tput; 50 runs per arm)
#    imported into its own database; `coreplan compare --a arm=x --b arm=y`
#    with the default 10,000 bootstrap resamples (target <= 50 ms) against
#    the same command with --resamples 100 (the bootstrap's share is the
#    difference).
#
# Wall times: CLOCK_MONOTONIC around fork/exec/wait of each command (a
# 30-line C helper compiled into the work directory with ${CC:-cc}), else
# `date +%s%N` around it. Each figure includes spawning the process; the
# "spawn floor" line is /bin/true timed the same way. Every command's exit
# status is checked.
#
# Environment: BENCH_DIR (work directory, default a mktemp -d under
# ${TMPDIR:-/tmp}, removed at the end unless KEEP=1).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

# shellcheck source=lib.sh
source "$here/lib.sh"
reps=${2:-7}
bench_coreplan "${1:-}" first build-f build
bench_count REPS "$reps" 3
bench_need sqlite3 sqlite3
bench_workdir coreplan-abench
now_ns() { date +%s%N; }
bench_timer

# timed NAME CMD...: run CMD (its output kept in the work directory), append
# "NAME wall-ms cpu-ms" to $work/times; a failing command stops the benchmark.
timed() { bench_timed "$1" "$work" "${@:2}"; }
med_of() { of "$1" | median; }

db=$work/corpus.db
corpus=$work/corpus
excluded_sql="EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id)"
peer_runs_sql="SELECT * FROM runs_v WHERE NOT excluded"
peer_group_sql="SELECT gomaxprocs, count(*), min(tput), max(tput), avg(tput) FROM runs_v WHERE NOT excluded GROUP BY gomaxprocs ORDER BY gomaxprocs"
peer_slope_sql="SELECT gomaxprocs, count(*), (count(*) * sum(sessions * tput) - sum(sessions) * sum(tput)) / (count(*) * sum(sessions * sessions) - sum(sessions) * sum(sessions)) FROM runs_v WHERE NOT excluded GROUP BY gomaxprocs ORDER BY gomaxprocs"
baseline=${BASELINE:-}
bdb=$work/baseline.db
cores_reps=${CORES_REPS:-3}

# cmd_argv NAME: set CMD to the command NAME, coreplan's or the peer's.
cmd_argv() {
	case $1 in
	cp_runs) CMD=("$coreplan" --db "$db" runs --format tsv) ;;
	# the peer pools the session counts into each GOMAXPROCS level: coreplan does it on
	# purpose (--pool sessions; without it the sweep refuses, docs/analysis.md "No silent pooling")
	cp_sweep) CMD=("$coreplan" --db "$db" sweep --by gomaxprocs --pool sessions --format tsv) ;;
	cp_noise) CMD=("$coreplan" --db "$db" noise --by gomaxprocs --pool sessions --format tsv) ;;
	sq_runs) CMD=(sqlite3 "$db" "$peer_runs_sql") ;;
	sq_sweep | sq_noise) CMD=(sqlite3 "$db" "$peer_group_sql") ;;
	cp_memory) CMD=("$coreplan" --db "$db" memory --by sessions --metric tput --group gomaxprocs --format tsv) ;;
	sq_memory) CMD=(sqlite3 "$db" "$peer_slope_sql") ;;
	cp_cores) CMD=("$coreplan" --db "$db" cores --format tsv) ;;
	bl_cores) CMD=("$baseline" --db "$bdb" cores --format tsv) ;;
	cp_cmp) CMD=("$coreplan" --db "$cdb" compare --a arm=x --b arm=y --format tsv) ;;
	cp_cmp100) CMD=("$coreplan" --db "$cdb" compare --a arm=x --b arm=y --resamples 100 --format tsv) ;;
	true) CMD=(/bin/true) ;;
	*) echo "analysis_bench.sh: no command $1" >&2; exit 2 ;;
	esac
}
run_cmd() { cmd_argv "$1"; "${CMD[@]}"; }

echo "coreplan: $coreplan"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); sqlite3 $(sqlite3 --version | cut -d' ' -f1); reps $reps"
echo

# ---- 1. the corpus and its import ------------------------------------------
mkdir -p "$corpus"
t0=$(now_ns)
awk -v dir="$corpus" -v set="clk_tck=100 nproc=8" -f "$here/gen_corpus.awk" >"$work/gen.out"
t1=$(now_ns)
echo "corpus: $(cat "$work/gen.out"), $(du -sm "$corpus" | cut -f1) MB; generated in $(( (t1 - t0) / 1000000 )) ms"
t0=$(now_ns)
bench_or_die import "$coreplan" --db "$db" import "$corpus" --quiet
t1=$(now_ns)
import_ms=$(( (t1 - t0) / 1000000 ))
echo "import: $import_ms ms (one run, cold database): $(sed -n "s/^- imported //p" "$work/import.out")"
if [ -s "$work/import.err" ]; then
	sed 's/^/  import stderr: /' "$work/import.err"
fi
read -r nruns nrows nexcl < <(sqlite3 -separator ' ' "$db" \
	"SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM trace_samples),
	        (SELECT count(*) FROM runs r WHERE NOT $excluded_sql)")
if [ "$nruns" != 10000 ] || [ "$nrows" != 5000000 ]; then
	echo "analysis_bench.sh: the database holds $nruns runs and $nrows trace rows, not 10000 and 5000000" >&2
	exit 1
fi
echo "database: $(( $(stat -c %s "$db") / 1048576 )) MB, $nruns runs ($nexcl analysed, $((nruns - nexcl)) excluded), $nrows trace rows"

# ---- 3's corpus: two arms of 50 runs ---------------------------------------
cdb=$work/compare.db
awk 'BEGIN {
	srand(7); OFS = "\t"; print "tag", "arm", "tput"
	for (i = 1; i <= 50; i++) {
		print "x" i, "x", sprintf("%.2f", 1000 * (1 + 0.02 * sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())))
		print "y" i, "y", sprintf("%.2f", 1030 * (1 + 0.02 * sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())))
	}
}' >"$work/arms.tsv"
bench_or_die import-arms "$coreplan" --db "$cdb" import "$work/arms.tsv" --quiet

# ---- 2 and 3: the timed rounds ---------------------------------------------
names="true cp_runs sq_runs cp_sweep sq_sweep cp_noise sq_noise cp_memory sq_memory cp_cmp cp_cmp100"
for n in $names; do # warm-up: page cache, first-open costs
	run_cmd "$n" >/dev/null 2>&1 || { echo "analysis_bench.sh: $n failed" >&2; run_cmd "$n" >/dev/null; exit 1; }
done
: >"$work/times"
rev=""
for n in $names; do rev="$n $rev"; done
for i in $(seq 1 "$reps"); do
	order=$names
	if [ $((i % 2)) = 0 ]; then order=$rev; fi
	for n in $order; do
		cmd_argv "$n"
		timed "$n" "${CMD[@]}"
	done
done

verdict() { awk -v t="$1" -v lim="$2" 'BEGIN { print (t <= lim) ? "ok" : "MISSED" }'; }
echo
echo "timer: $clock; spawn floor (/bin/true timed the same way): $(med_of true) ms"
echo
printf '%-8s %12s %10s %9s %9s %9s  %s\n' command "coreplan ms" "peer ms" ratio "cpu ratio" target "coreplan runs (ms) | peer runs (ms)"
for c in runs sweep noise memory; do
	cp=$(med_of cp_$c)
	sq=$(med_of sq_$c)
	printf '%-8s %12.1f %10.1f %9.2f %9s %9s  %s | %s   %s\n' "$c" "$cp" "$sq" \
		"$(awk -v a="$cp" -v b="$sq" 'BEGIN { print a / b }')" "$(cpu_ratio cp_$c sq_$c)" "<=100" \
		"$(all_of cp_$c)" "$(all_of sq_$c)" "$(verdict "$cp" 100)"
done
echo "  (ratio: of the median wall times; cpu ratio: of the median CPU times (user + system),"
echo "   which move much less with other load on the machine; issue 24: memory within 2x of its SQL)"
cp=$(med_of cp_cmp)
sq=$(med_of cp_cmp100)
printf '%-8s %12.1f %10.1f %9.2f %9s %9s  %s | %s   %s\n' compare "$cp" "$sq" \
	"$(awk -v a="$cp" -v b="$sq" 'BEGIN { print a / b }')" "$(cpu_ratio cp_cmp cp_cmp100)" "<=50" \
	"$(all_of cp_cmp)" "$(all_of cp_cmp100)" "$(verdict "$cp" 50)"
echo "  (compare: coreplan = 10,000 resamples, peer = the same command with --resamples 100;"
echo "   bootstrap share ~ $(awk -v a="$cp" -v b="$sq" 'BEGIN { printf "%.1f ms", a - b }'))"
echo "  peers: runs = sqlite3 \"$peer_runs_sql\""
echo "         sweep, noise = sqlite3 \"$peer_group_sql\""
echo "         memory = sqlite3 \"$peer_slope_sql\""

# ---- cores: every run's plateau, against the baseline binary ---------------
cores_names=cp_cores
if [ -n "$baseline" ]; then
	bench_or_die import-baseline "$baseline" --db "$bdb" import "$corpus" --quiet
	cores_names="cp_cores bl_cores"
fi
for i in $(seq 1 "$cores_reps"); do
	order=$cores_names
	if [ $((i % 2)) = 0 ]; then order=$(echo "$cores_names" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }'); fi
	for n in $order; do
		cmd_argv "$n"
		timed "$n" "${CMD[@]}"
	done
done
cp=$(med_of cp_cores)
if [ -n "$baseline" ]; then
	bl=$(med_of bl_cores)
	printf '%-8s %12.1f %10.1f %9.2f %9s %9s  %s | %s   %s\n' cores "$cp" "$bl" \
		"$(awk -v a="$bl" -v b="$cp" 'BEGIN { print a / b }')" "$(cpu_ratio bl_cores cp_cores)" ">=2" \
		"$(all_of cp_cores)" "$(all_of bl_cores)" \
		"$(awk -v a="$bl" -v b="$cp" 'BEGIN { print (a / b >= 2) ? "ok" : "MISSED" }')"
	echo "  (cores: peer = the baseline binary $baseline on its own import; ratio = baseline / coreplan)"
else
	printf '%-8s %12.1f  (BASELINE=BINARY times a binary from before issue 24 beside it)\n' cores "$cp"
fi

# ---- must not scan traces: bytes read from the database file ---------------
if command -v strace >/dev/null; then
	ts_bytes=$(sqlite3 "$db" "SELECT sum(pgsize) FROM dbstat WHERE name = 'trace_samples'" 2>/dev/null || echo 0)
	echo
	echo "database reads (strace, pread64/read on the database file; trace_samples is $(( ${ts_bytes:-0} / 1048576 )) MB of $(( $(stat -c %s "$db") / 1048576 )) MB):"
	for n in cp_runs cp_sweep cp_noise sq_runs sq_sweep; do
		cmd_argv "$n"
		strace -f -e trace=openat,pread64,read -e signal=none -o "$work/strace" \
			"${CMD[@]}" >/dev/null 2>&1
		# bytes returned by reads on the file descriptors opened on $db
		bytes=$(awk -v f="$db" '
			{ sub(/^[0-9]+ +/, "") }
			/^openat\(/ && index($0, "\"" f "\"") { split($0, p, "= "); fd[p[2] + 0] = 1; next }
			/^(pread64|read)\(/ { split($0, a, /[(,]/); if ((a[2] + 0) in fd) { n = $NF + 0; if (n > 0) s += n } }
			END { print s + 0 }' "$work/strace")
		scan=$(awk -v b="$bytes" -v t="${ts_bytes:-0}" 'BEGIN { print (t > 0 && b > t / 2) ? "SCANS TRACES" : "no trace scan" }')
		printf '  %-9s %10.2f MB read   %s\n' "$n" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')" "$scan"
	done
else
	echo "(strace missing: the trace-scan check is skipped)"
fi
echo
echo "import of the corpus: $import_ms ms; load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(absolute times move with the machine's load; the spawn floor and the ratios show how much)"
