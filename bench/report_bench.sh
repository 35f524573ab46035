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

# shellcheck source=lib.sh
source "$here/lib.sh"
reps=${2:-7}
bench_coreplan "${1:-}" first build "build*"
bench_count REPS "$reps" 3
bench_need gnuplot gnuplot-nox
gmp_name=gomaxprocs-scaling-20260816
cap_name=gcp-x86-capacity-20260816
shared=${SHARED_CORPORA:-$repo/../shared/corpora}
for c in "$gmp_name" "$cap_name"; do
	if [ ! -d "$shared/sky/$c" ]; then
		echo "report_bench.sh: no corpus at '$shared/sky/$c' (set SHARED_CORPORA)" >&2
		exit 2
	fi
done

bench_workdir coreplan-rbench
bench_timer
if [ -z "$timer" ]; then
	echo "$BENCH: need a C compiler or python3 for a monotonic clock" >&2
	exit 2
fi

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

timed() { bench_timed "$@"; } # NAME DIR CMD...
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
bench_or_die import "$coreplan" --db "$db" import "$shared/sky/$gmp_name" "$shared/sky/$cap_name" --quiet
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
