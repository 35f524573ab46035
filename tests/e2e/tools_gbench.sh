#!/usr/bin/env bash
# End-to-end tests of the Google Benchmark importer (importers/tool_gbench.c).
#
#   bash tests/e2e/tools_gbench.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# In a mktemp -d folder (removed on exit):
#   - real output: fixtures/tools/gbench/bm_sum.cc (->Threads(1)->Threads(2))
#     built with g++ -lbenchmark -lpthread and run with
#     --benchmark_repetitions=3 --benchmark_format=json (skipped with a
#     'skip' line when g++ or libbenchmark-dev is missing), imported by
#     content detection: one run per repetition (aggregate rows are not
#     runs), `sweep --by threads` medians of real_time_ns and cpu_time_ns
#     equal to python3's statistics.median over the run_type "iteration"
#     rows, `noise` (medians and range_pct from python3) and
#     `compare --a threads=1 --b threads=2`; the context's
#     num_cpus is on every run;
#   - the committed sample fixtures/tools/gbench/bm_sum.json, imported with
#     --format gbench: the same checks.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
set -u
set -o pipefail
export LC_ALL=C
# shellcheck source=lib.sh
. "$E2E_DIR/lib.sh"
e2e_start gbench "$@"
SAMPLE=$ROOT/fixtures/tools/gbench/bm_sum.json
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
TIMEOUT=()
command -v timeout >/dev/null && TIMEOUT=(timeout 120)

py_medians() { # FILE KEY: "threads median" per thread count, iteration rows only (ns)
	"$PY" "$E2E_PY_DIR/tools_gbench_medians.py" "$1" "$2"
}
py_range() { # FILE KEY: "threads range_pct" per thread count
	"$PY" "$E2E_PY_DIR/tools_gbench_range.py" "$1" "$2"
}
sweep_medians() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "level") l = i; if ($i == "median") m = i }; next }
		{ print $l, $m }' "$T/.out"
}
same_numbers() { # NAME EXPECTED ACTUAL: "key value" lines, values equal to 1e-12 relative
	local r
	r=$("$PY" "$E2E_PY_DIR/tools_gbench_same_numbers.py" "$2" "$3")
	if [ "$r" = ok ]; then ok "$1"; else not_ok "$1" "expected:"$'\n'"$2"$'\n'"got:"$'\n'"$3"; fi
}

checks() { # FILE CORPUS [IMPORT-OPTIONS...]
	local file=$1 corpus=$2 m
	shift 2
	DB=$T/$corpus.db
	cpl import -q --name "$corpus" "$@" "$file"
	expect_rc "$corpus: import" 0
	cpl runs --corpus "$corpus" --format tsv
	check_eq "$corpus: one run per repetition (no aggregate rows)" \
		"$("$PY" -c 'import json, sys; print(sum(b.get("run_type") == "iteration" for b in json.load(open(sys.argv[1]))["benchmarks"]))' "$file")" \
		"$(($(wc -l <"$T/.out") - 1))"
	for m in real_time_ns cpu_time_ns; do
		cpl sweep --corpus "$corpus" --by threads --metric "$m" --format tsv
		expect_rc "$corpus: sweep --by threads --metric $m" 0
		same_numbers "$corpus: $m medians = python3 statistics.median" \
			"$(py_medians "$file" "${m%_ns}")" "$(sweep_medians)"
	done
	cpl noise --corpus "$corpus" --by threads --metric cpu_time_ns --format tsv --view levels
	expect_rc "$corpus: noise --by threads" 0
	same_numbers "$corpus: noise level medians = python3" "$(py_medians "$file" cpu_time)" "$(sweep_medians)"
	same_numbers "$corpus: noise range_pct = python3 (max - min) / median * 100" \
		"$(py_range "$file" cpu_time)" \
		"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "level") l = i; if ($i == "range_pct") m = i }; next } { print $l, $m }' "$T/.out")"
	cpl compare --corpus "$corpus" --metric real_time_ns --a threads=1 --b threads=2 --format tsv --view arms
	expect_rc "$corpus: compare threads=1 vs 2" 0
	same_numbers "$corpus: compare arm medians = python3" \
		"$(py_medians "$file" real_time | awk '$1 == 1 { print "a", $2 } $1 == 2 { print "b", $2 }')" \
		"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "median") m = i; next } { print $1, $m }' "$T/.out")"
	cpl sweep --corpus "$corpus" --by num_cpus --metric real_time_ns --format tsv
	check_eq "$corpus: num_cpus is a field of every run (context)" \
		"$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["num_cpus"])' "$file")" \
		"$(sweep_medians | awk '{ print $1 }')"
}

e2e_case real
if e2e_skipping; then
	: # built and run only for this case
elif command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ]; then
	if g++ -O2 -o "$T/bm_sum" "$ROOT/fixtures/tools/gbench/bm_sum.cc" -lbenchmark -lpthread 2>"$T/cc.err"; then
		"$T/bm_sum" --benchmark_repetitions=3 --benchmark_min_time=0.01 \
			--benchmark_format=json >"$T/real.json" 2>"$T/bm.err"
		checks "$T/real.json" real
	else
		not_ok "build bm_sum.cc" "$(cat "$T/cc.err")"
	fi
else
	skip "real Google Benchmark output" "g++ or libbenchmark-dev is not installed"
fi
e2e_case sample
checks "$SAMPLE" sample --format gbench

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
