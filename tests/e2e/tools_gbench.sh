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
# shellcheck source=lib.sh
. "$E2E_DIR/lib.sh"
e2e_start gbench "$@"
SAMPLE=$ROOT/fixtures/tools/gbench/bm_sum.json
e2e_timeout 120

py_medians() { # FILE KEY: "threads median" per thread count, iteration rows only (ns)
	"$PY" "$E2E_PY_DIR/tools_gbench_medians.py" "$1" "$2"
}
py_range() { # FILE KEY: "threads range_pct" per thread count
	"$PY" "$E2E_PY_DIR/tools_gbench_range.py" "$1" "$2"
}
# tsvpairs, same_numbers, check_noise_levels, check_compare_arms: lib.sh

checks() { # FILE CORPUS [IMPORT-OPTIONS...]
	local file=$1 corpus=$2 m
	shift 2
	check_import_runs "$corpus" "$file" \
		"$("$PY" -c 'import json, sys; print(sum(b.get("run_type") == "iteration" for b in json.load(open(sys.argv[1]))["benchmarks"]))' "$file")" \
		"one run per repetition (no aggregate rows)" "$@"
	for m in real_time_ns cpu_time_ns; do
		cpl sweep --corpus "$corpus" --by threads --metric "$m" --format tsv
		expect_rc "$corpus: sweep --by threads --metric $m" 0
		same_numbers "$corpus: $m medians = python3 statistics.median" \
			"$(py_medians "$file" "${m%_ns}")" "$(tsvpairs level median)"
	done
	check_noise_levels "$corpus" threads cpu_time_ns "$(py_medians "$file" cpu_time)" "$(py_range "$file" cpu_time)"
	check_compare_arms "$corpus" real_time_ns threads=1 threads=2 \
		"$(py_medians "$file" real_time | awk '$1 == 1 { print "a", $2 } $1 == 2 { print "b", $2 }')"
	cpl sweep --corpus "$corpus" --by num_cpus --metric real_time_ns --format tsv
	check_eq "$corpus: num_cpus is a field of every run (context)" \
		"$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["num_cpus"])' "$file")" \
		"$(tsvcol level)"
}

# real: bm_sum.cc built and run here (only in this case), then checks
real_output() {
	if g++ -O2 -o "$T/bm_sum" "$ROOT/fixtures/tools/gbench/bm_sum.cc" -lbenchmark -lpthread 2>"$T/cc.err"; then
		"$T/bm_sum" --benchmark_repetitions=3 --benchmark_min_time=0.01 \
			--benchmark_format=json >"$T/real.json" 2>"$T/bm.err"
		checks "$T/real.json" real
	else
		not_ok "build bm_sum.cc" "$(cat "$T/cc.err")"
	fi
}
have_gbench() { command -v g++ && [ -e /usr/include/benchmark/benchmark.h ]; }
if e2e_case real; then
	run_or_skip real_output "real Google Benchmark output" \
		"g++ or libbenchmark-dev is not installed" have_gbench
fi
e2e_case sample
checks "$SAMPLE" sample --format gbench

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
