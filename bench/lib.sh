# shellcheck shell=bash disable=SC2034,SC2154 # globals set for and by the calling script
# bench/lib.sh: what the bench scripts share. Source it after setting
# `here` (this folder) and `repo` (the repository); messages name the
# calling script ($BENCH).
BENCH=$(basename "$0")

# bench_coreplan GIVEN WHICH BUILD...: coreplan is GIVEN (the script's
# argument, WHICH says which: "first", "second"), else the first
# executable REPO/BUILD/coreplan (BUILD may be a glob); made absolute;
# none: a message and exit 2.
bench_coreplan() {
	local given=$1 which=$2 b c
	shift 2
	coreplan=$given
	if [ -z "$coreplan" ]; then
		for b in "$@"; do
			# shellcheck disable=SC2231 # BUILD may be a glob (build*)
			for c in "$repo"/$b/coreplan; do
				[ -x "$c" ] && coreplan=$c && break 2
			done
		done
	fi
	if [ -z "$coreplan" ] || [ ! -x "$coreplan" ]; then
		echo "$BENCH: no coreplan binary (build it, or pass its path as the $which argument)" >&2
		exit 2
	fi
	coreplan=$(cd "$(dirname "$coreplan")" && pwd)/$(basename "$coreplan")
}

# bench_count NAME VALUE [MIN]: VALUE is a whole number (at least MIN), else exit 2
bench_count() {
	case $2 in '' | *[!0-9]*) echo "$BENCH: $1 must be a number" >&2; exit 2 ;; esac
	if [ -n "${3:-}" ] && [ "$2" -lt "$3" ]; then
		echo "$BENCH: $1 must be at least $3" >&2
		exit 2
	fi
}

# bench_need TOOL PACKAGE: TOOL (a command or a path) is there, else exit 2
bench_need() {
	command -v "$1" >/dev/null && return 0
	echo "$BENCH: $1 is missing (apt-get install $2)" >&2
	exit 2
}

# bench_workdir PREFIX: work, $BENCH_DIR or a fresh mktemp -d folder
# (PREFIX.XXXXXX), removed on exit unless KEEP=1
bench_workdir() {
	work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")}
	mkdir -p "$work"
	trap bench_cleanup EXIT
}
bench_cleanup() {
	if [ "${KEEP:-0}" != 1 ]; then
		rm -rf "$work"
	fi
}

# bench_timer: timer, a command `$timer OUT ERR CMD...` that runs CMD and
# prints its wall and CPU (user + system) times in ms (bench/timer.c built
# with ${CC:-cc}, else a python3 helper, else empty), and clock, which one it is
bench_timer() {
	timer=""
	clock="date +%s%N"
	if ${CC:-cc} -O2 -o "$work/timer" "$here/timer.c" 2>/dev/null; then
		timer=$work/timer
		clock="CLOCK_MONOTONIC around fork/exec/wait (C helper)"
	elif command -v python3 >/dev/null; then
		cat >"$work/timer.py" <<'EOF_PY'
import resource, subprocess, sys, time
out, err = open(sys.argv[1], "wb"), open(sys.argv[2], "wb")
def cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime
a, ca = time.monotonic_ns(), cpu()
rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode
b, cb = time.monotonic_ns(), cpu()
print("%.3f %.3f" % ((b - a) / 1e6, (cb - ca) * 1e3))
sys.exit(rc if rc >= 0 else 128)
EOF_PY
		timer="python3 $work/timer.py"
		clock="time.monotonic_ns (python3)"
	fi
}

# bench_timed NAME DIR CMD...: run CMD in DIR (stdout in $work/stdout,
# stderr in $work/stderr), append "NAME WALL_MS CPU_MS" to $work/times; a
# failing command stops the benchmark. Without a timer: `date +%s%N` around
# it, and CPU NA.
bench_timed() {
	local name=$1 dir=$2 t0 t1 ms rc=0
	shift 2
	if [ -n "$timer" ]; then
		# shellcheck disable=SC2086 # "python3 FILE" splits on purpose
		ms=$(cd "$dir" && $timer "$work/stdout" "$work/stderr" "$@") || rc=$?
	else
		t0=$(date +%s%N)
		(cd "$dir" && "$@") >"$work/stdout" 2>"$work/stderr" || rc=$?
		t1=$(date +%s%N)
		ms="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }') NA"
	fi
	if [ $rc -ne 0 ]; then
		echo "$BENCH: '$*' failed (exit $rc):" >&2
		head -n 5 "$work/stderr" >&2
		exit 1
	fi
	echo "$name $ms" >>"$work/times"
}
# of NAME: NAME's wall times, one a line; all_of NAME: on one line, 0.1 ms
of() { awk -v n="$1" '$1 == n { print $2 }' "$work/times"; }
all_of() { awk -v n="$1" '$1 == n { printf "%s%.1f", sep, $2; sep = " " }' "$work/times"; }
# cpu_of NAME: the median CPU time (ms, user + system of the command), NA without a timer
cpu_of() { awk -v n="$1" '$1 == n { print $3 }' "$work/times" | median; }
# cpu_ratio A B: cpu_of A / cpu_of B
cpu_ratio() { awk -v a="$(cpu_of "$1")" -v b="$(cpu_of "$2")" 'BEGIN { if (a == "NA" || b + 0 <= 0) print "NA"; else printf "%.2f", a / b }'; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
minimum() { sort -g | head -n 1; }
maximum() { sort -g | tail -n 1; }

# bench_or_die WHAT CMD...: run CMD (stdout in $work/WHAT.out, stderr in
# $work/WHAT.err); failing, say so with its stderr and exit 1
bench_or_die() {
	local what=$1
	shift
	"$@" >"$work/$what.out" 2>"$work/$what.err" && return 0
	echo "$BENCH: $what failed:" >&2
	cat "$work/$what.err" >&2
	exit 1
}

# bench_manifest FILE [SET]: the manifest of a corpus of runs with one
# 8-column trace each (results.tsv; runs/<run>/sample.tsv, bench/gen_trace.awk),
# with `set = SET` when given
bench_manifest() {
	{
		cat <<'EOF'
layout = bench
[table main]
file = results.tsv
tag = {run}
run-dir = runs/{tag}
trace = {run-dir}/sample.tsv
trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads
EOF
		[ -z "${2:-}" ] || echo "set = $2"
	} >"$1"
}
