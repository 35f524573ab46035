#!/usr/bin/env bash
# report_bench.sh: time `coreplan report` on the GOMAXPROCS corpus against
# gnuplot alone drawing the report's own plot scripts, on the same machine,
# in the same run.
#
#   bench/report_bench.sh [COREPLAN [REPS]]
#
#   COREPLAN  the coreplan binary (default: build/coreplan next to this
#             script's repository, else the first build*/coreplan there)
#   REPS      timed repetitions of every command (default 7, at least 3)
#
# 1. The corpus ../shared/corpora/sky/gomaxprocs-scaling-20260816 (or
#    $SHARED_CORPORA/sky/...) is imported into a database in a temporary
#    work directory (timed once).
# 2. After one untimed warm-up, REPS rounds each time, in turn (the order is
#    reversed every other round):
#      report       coreplan report --corpus gomaxprocs-scaling-20260816
#                   --where block=1,2,3 --out DIR   (every table and every
#                   plot it draws, gnuplot included)
#      gnuplot-one  cd DIR/plots && gnuplot 01-scaling.svg.gp   (one of the
#                   report's scripts, as a user re-plots it)
#      gnuplot-all  every DIR/plots/*.gp, one gnuplot each, in one sh -c
#                   (all the gnuplot work a report does)
#      spawn        /bin/true (the cost of starting a process)
#    and prints the median and the minimum wall time of each (ms), the
#    target (report <= 1000 ms on this machine), and gnuplot's share of the
#    report (gnuplot-all median / report median).
#
# Wall times: CLOCK_MONOTONIC around fork/exec/wait of each command (a
# small C helper compiled into the work directory with ${CC:-cc}), else
# python3's time.monotonic_ns() around subprocess.run. Every command's exit
# status is checked, and every report.md must equal the first one.
#
# Environment: BENCH_DIR (work directory, default a mktemp -d under
# ${TMPDIR:-/tmp}, removed at the end unless KEEP=1), SHARED_CORPORA.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

coreplan=${1:-}
reps=${2:-7}
if [ -z "$coreplan" ]; then
	for c in "$repo/build/coreplan" "$repo"/build*/coreplan; do
		if [ -x "$c" ]; then
			coreplan=$c
			break
		fi
	done
fi
case $reps in '' | *[!0-9]*) echo "report_bench.sh: REPS must be a number" >&2; exit 2 ;; esac
if [ "$reps" -lt 3 ]; then
	echo "report_bench.sh: REPS must be at least 3" >&2
	exit 2
fi
if [ -z "$coreplan" ] || [ ! -x "$coreplan" ]; then
	echo "report_bench.sh: no coreplan binary (build it, or pass its path as the first argument)" >&2
	exit 2
fi
coreplan=$(cd "$(dirname "$coreplan")" && pwd)/$(basename "$coreplan")
command -v gnuplot >/dev/null || {
	echo "report_bench.sh: gnuplot is missing (apt-get install gnuplot-nox)" >&2
	exit 2
}
corpus_name=gomaxprocs-scaling-20260816
shared=${SHARED_CORPORA:-$repo/../shared/corpora}
corpus=$shared/sky/$corpus_name
if [ ! -d "$corpus" ]; then
	echo "report_bench.sh: no corpus at '$corpus' (set SHARED_CORPORA)" >&2
	exit 2
fi

work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/coreplan-rbench.XXXXXX")}
mkdir -p "$work"
cleanup() {
	if [ "${KEEP:-0}" != 1 ]; then
		rm -rf "$work"
	fi
}
trap cleanup EXIT

# The timer: monotonic clock around fork/exec/wait.
timer=""
cat >"$work/timer.c" <<'EOF_C'
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* timer OUT ERR CMD...: run CMD with stdout to OUT and stderr to ERR; print
 * its wall time in ms (CLOCK_MONOTONIC); exit with its exit status. */
int main(int argc, char **argv)
{
	struct timespec a, b;
	int status, out, err;
	pid_t pid;
	if (argc < 4)
		return 2;
	out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || err < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
EOF_C
if ${CC:-cc} -O2 -o "$work/timer" "$work/timer.c" 2>/dev/null; then
	timer=$work/timer
	clock="CLOCK_MONOTONIC (C helper)"
elif command -v python3 >/dev/null; then
	cat >"$work/timer.py" <<'EOF_PY'
import subprocess, sys, time
out, err = open(sys.argv[1], "wb"), open(sys.argv[2], "wb")
a = time.monotonic_ns()
rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode
b = time.monotonic_ns()
print("%.3f" % ((b - a) / 1e6))
sys.exit(rc if rc >= 0 else 128)
EOF_PY
	timer="python3 $work/timer.py"
	clock="time.monotonic_ns (python3)"
else
	echo "report_bench.sh: need a C compiler or python3 for a monotonic clock" >&2
	exit 2
fi

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
minimum() { sort -g | head -n 1; }

db=$work/bench.db
out=$work/report
plots=$out/plots

# timed NAME DIR CMD...: run CMD in DIR (stdout and stderr kept in the work
# directory), append "NAME ms" to $work/times; a failing command stops
# the benchmark.
timed() {
	local name=$1 dir=$2 ms rc=0
	shift 2
	ms=$(cd "$dir" && $timer "$work/stdout" "$work/stderr" "$@") || rc=$?
	if [ $rc -ne 0 ]; then
		echo "report_bench.sh: '$*' failed (exit $rc):" >&2
		head -n 5 "$work/stderr" >&2
		exit 1
	fi
	echo "$name $ms" >>"$work/times"
}
of() { awk -v n="$1" '$1 == n { print $2 }' "$work/times"; }
all_of() { awk -v n="$1" '$1 == n { printf "%s%.1f", sep, $2; sep = " " }' "$work/times"; }

run() {
	case $1 in
	report) timed report "$work" "$coreplan" --db "$db" report --corpus "$corpus_name" \
		--where block=1,2,3 --out "$out"
		if ! cmp -s "$out/report.md" "$work/first.md"; then
			echo "report_bench.sh: report.md differs from the first run's" >&2
			exit 1
		fi ;;
	gnuplot-one) timed gnuplot-one "$plots" gnuplot "$one" ;;
	gnuplot-all) timed gnuplot-all "$plots" sh -c 'for f in *.gp; do gnuplot "$f" || exit 1; done' ;;
	spawn) timed spawn "$work" /bin/true ;;
	esac
}

echo "coreplan: $coreplan"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(gnuplot --version); clock $clock; reps $reps"
echo

t0=$(date +%s%N)
"$coreplan" --db "$db" import "$corpus" --quiet >"$work/import.out" 2>"$work/import.err" || {
	echo "report_bench.sh: import failed:" >&2
	cat "$work/import.err" >&2
	exit 1
}
t1=$(date +%s%N)
echo "import: $(( (t1 - t0) / 1000000 )) ms (once): $(sed -n "s/^- imported //p" "$work/import.out")"

# warm-up (untimed), and the reference report.md
"$coreplan" --db "$db" report --corpus "$corpus_name" --where block=1,2,3 --out "$out" \
	>/dev/null 2>"$work/stderr" || {
	echo "report_bench.sh: report failed:" >&2
	cat "$work/stderr" >&2
	exit 1
}
cp "$out/report.md" "$work/first.md"
nplots=$(ls "$plots"/*.gp | wc -l)
one=01-scaling.svg.gp
[ -f "$plots/$one" ] || one=$(cd "$plots" && ls *.gp | head -n 1)
(cd "$plots" && gnuplot "$one" >/dev/null 2>&1 && sh -c 'for f in *.gp; do gnuplot "$f" || exit 1; done' >/dev/null 2>&1) || {
	echo "report_bench.sh: gnuplot cannot re-draw the report's scripts" >&2
	exit 1
}
echo "report: $(wc -l <"$out/report.md") lines of report.md, $nplots plots ($(cd "$plots" && ls *.gp | paste -sd' ' -))"
echo

: >"$work/times"
order=(report gnuplot-one gnuplot-all spawn)
for ((r = 1; r <= reps; r++)); do
	if ((r % 2)); then
		for c in "${order[@]}"; do run "$c"; done
	else
		for ((i = ${#order[@]} - 1; i >= 0; i--)); do run "${order[$i]}"; done
	fi
done

rep_med=$(of report | median)
all_med=$(of gnuplot-all | median)
printf '%-12s %10s %10s   %s\n' "" "median ms" "min ms" "all runs (ms)"
for c in "${order[@]}"; do
	printf '%-12s %10.1f %10.1f   %s\n' "$c" "$(of "$c" | median)" "$(of "$c" | minimum)" "$(all_of "$c")"
done
echo
awk -v r="$rep_med" -v one="$(of gnuplot-one | median)" -v all="$all_med" -v n="$nplots" \
	-v s="$(of spawn | median)" 'BEGIN {
	printf "target: report <= 1000 ms: %s (median %.1f ms)\n", (r <= 1000 ? "met" : "NOT met"), r
	printf "gnuplot share: all %d scripts %.1f ms = %.0f%% of the report; one script %.1f ms\n",
		n, all, 100 * all / r, one
	printf "coreplan without gnuplot (report - gnuplot-all): about %.1f ms; spawn floor %.2f ms\n",
		r - all, s
}'
