#!/usr/bin/env bash
# report_bench.sh: time the full `coreplan report` (tables, plots, and
# report.html when `coreplan report --help` lists --html) of each real
# corpus against gnuplot alone drawing the same plots (the report's own
# plots/NN-KIND.svg.gp scripts), on the same machine, in the same run.
#
#   bench/report_bench.sh [COREPLAN [REPS]]
#
#   COREPLAN  the coreplan binary (default: build/coreplan next to this
#             script's repository, else the first build*/coreplan there)
#   REPS      timed repetitions of every command (default 7, at least 3)
#
# 1. Both sky corpora (../shared/corpora/sky/, or $SHARED_CORPORA/sky/) are
#    imported into one database in a temporary work directory (timed once).
# 2. The cases, each a report with default options but the corpus:
#      gmp       --corpus gomaxprocs-scaling-20260816
#      cap       --corpus gcp-x86-capacity-20260816
#      cap-size  the same with a sizing config (target 1000 at 500 sessions,
#                the inputs tests/e2e/report.sh uses): the sizing plot too
#    After one untimed warm-up of each, REPS rounds each time, in turn (the
#    order is reversed every other round), for every case:
#      report   coreplan report ... [--html] --out DIR  (every table, every
#               plot it draws, gnuplot included, and the HTML page)
#      gnuplot  every DIR/plots/*.gp, one gnuplot each, in one sh -c (the
#               same plots drawn by gnuplot alone)
#    and spawn (/bin/true: the cost of starting a process). It prints the
#    median and the minimum wall time of each (ms) and per case the target
#    (report <= 1000 ms on this machine: met or NOT met), the ratio report /
#    gnuplot, and coreplan's own share (report - gnuplot). Exit 1 when a
#    case misses the target. The warm-up counts the gnuplot processes each
#    report starts (a counting wrapper first on PATH; issue 24: one).
#
# Wall times: CLOCK_MONOTONIC around fork/exec/wait of each command (a
# small C helper compiled into the work directory with ${CC:-cc}), else
# python3's time.monotonic_ns() around subprocess.run. Every command's exit
# status is checked, and every report.md (and report.html) must equal the
# first one of its case.
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
gmp_name=gomaxprocs-scaling-20260816
cap_name=gcp-x86-capacity-20260816
shared=${SHARED_CORPORA:-$repo/../shared/corpora}
for c in "$gmp_name" "$cap_name"; do
	if [ ! -d "$shared/sky/$c" ]; then
		echo "report_bench.sh: no corpus at '$shared/sky/$c' (set SHARED_CORPORA)" >&2
		exit 2
	fi
done

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
html=()
if "$coreplan" report --help 2>/dev/null | grep -q -- '--html'; then
	html=(--html)
fi
{
	echo "target = 1000"
	echo "sessions = 500"
	echo "base-from = subcorpus=core"
	echo "scaling-from = corpus=$gmp_name block=1,2,3 gomaxprocs=1,2,4"
	echo "memory-from = corpus=$cap_name target=medium cfg=pg block=1,2,3"
	echo "series = e2"
} >"$work/cap-size.conf"
cases=(gmp cap cap-size)
# case_args CASE: the report's options (no spaces inside an option: word-split on purpose)
case_args() {
	case $1 in
	gmp) echo "--corpus $gmp_name" ;;
	cap) echo "--corpus $cap_name" ;;
	cap-size) echo "--corpus $cap_name --config $work/cap-size.conf" ;;
	esac
}

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
redraw='for f in *.gp; do gnuplot "$f" >/dev/null 2>&1 || exit 1; done'

same_as_first() {
	local f
	for f in report.md report.html; do
		[ -f "$work/$1.first/$f" ] || continue
		if ! cmp -s "$work/$1/$f" "$work/$1.first/$f"; then
			echo "report_bench.sh: $1: $f differs from the first run's" >&2
			exit 1
		fi
	done
}
run() {
	local what=$1 c=$2
	case $what in
	report)
		# shellcheck disable=SC2046
		timed "report-$c" "$work" "$coreplan" --db "$db" report $(case_args "$c") \
			"${html[@]}" --out "$work/$c"
		same_as_first "$c" ;;
	gnuplot) timed "gnuplot-$c" "$work/$c/plots" sh -c "$redraw" ;;
	spawn) timed spawn "$work" /bin/true ;;
	esac
}

echo "coreplan: $coreplan"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(gnuplot --version); clock $clock; reps $reps; html: ${html[*]:-no (this coreplan has no report --html)}"
echo

t0=$(date +%s%N)
"$coreplan" --db "$db" import "$shared/sky/$gmp_name" "$shared/sky/$cap_name" --quiet \
	>"$work/import.out" 2>"$work/import.err" || {
	echo "report_bench.sh: import failed:" >&2
	cat "$work/import.err" >&2
	exit 1
}
t1=$(date +%s%N)
echo "import: $(((t1 - t0) / 1000000)) ms (once)"

# warm-up (untimed), the reference report, and a check that gnuplot re-draws
# its scripts. The warm-up finds gnuplot through a wrapper first on PATH that
# counts its starts (issue 24: one gnuplot process per report)
mkdir -p "$work/count"
printf '#!/bin/sh\necho x >>"%s/count/starts"\nexec "%s" "$@"\n' "$work" "$(command -v gnuplot)" >"$work/count/gnuplot"
chmod +x "$work/count/gnuplot"
for c in "${cases[@]}"; do
	: >"$work/count/starts"
	# shellcheck disable=SC2046
	PATH=$work/count:$PATH "$coreplan" --db "$db" report $(case_args "$c") "${html[@]}" --out "$work/$c" \
		>/dev/null 2>"$work/stderr" || {
		echo "report_bench.sh: report $c failed:" >&2
		cat "$work/stderr" >&2
		exit 1
	}
	cp -r "$work/$c" "$work/$c.first"
	(cd "$work/$c/plots" && sh -c "$redraw") || {
		echo "report_bench.sh: gnuplot cannot re-draw the $c report's scripts" >&2
		exit 1
	}
	extra=""
	[ -f "$work/$c/report.html" ] && extra=", report.html $(wc -c <"$work/$c/report.html") bytes"
	echo "$c: report $(case_args "$c" | sed "s|$work/||"): $(wc -l <"$work/$c/report.md") lines of report.md$extra, $(find "$work/$c/plots" -name '*.gp' | wc -l) plots drawn by $(wc -l <"$work/count/starts") gnuplot process(es)"
done
echo

: >"$work/times"
order=()
for c in "${cases[@]}"; do order+=("report $c" "gnuplot $c"); done
order+=("spawn -")
for ((r = 1; r <= reps; r++)); do
	if ((r % 2)); then
		for x in "${order[@]}"; do
			# shellcheck disable=SC2086
			run $x
		done
	else
		for ((i = ${#order[@]} - 1; i >= 0; i--)); do
			# shellcheck disable=SC2086
			run ${order[$i]}
		done
	fi
done

printf '%-18s %10s %10s   %s\n' "" "median ms" "min ms" "all runs (ms)"
for n in $(awk '!seen[$1]++ { print $1 }' "$work/times"); do
	printf '%-18s %10.1f %10.1f   %s\n' "$n" "$(of "$n" | median)" "$(of "$n" | minimum)" "$(all_of "$n")"
done
echo
fail=0
for c in "${cases[@]}"; do
	r=$(of "report-$c" | median)
	g=$(of "gnuplot-$c" | median)
	awk -v c="$c" -v r="$r" -v g="$g" -v n="$(find "$work/$c/plots" -name '*.gp' | wc -l)" 'BEGIN {
		printf "%-9s report %7.1f ms (target <= 1000 ms: %s); gnuplot alone (%d plots) %7.1f ms; report / gnuplot %.2f; coreplan without gnuplot about %.1f ms\n",
			c, r, (r <= 1000 ? "met" : "NOT met"), n, g, r / g, r - g
	}'
	if awk -v r="$r" 'BEGIN { exit !(r > 1000) }'; then fail=1; fi
done
echo "spawn floor: $(of spawn | median) ms"
exit $fail
