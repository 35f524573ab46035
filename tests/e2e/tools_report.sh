#!/usr/bin/env bash
# tools_report.sh: `coreplan report` and the analysis commands on standard
# tools' outputs made here (issue 22.1: each tool's primary metric is the
# default). Each case makes a real output (skipped with a 'skip' line when
# the tool is missing), imports it, and runs `report --out DIR --format
# json`; tests/e2e/py/tools_report_check.py then reads the report's sweep
# and noise documents against the tool's own figures, computed by Python
# from the tool's output alone:
#   hyperfine  `hyperfine -N --parameter-scan delay 1 3 --runs 5
#              --export-json` of `sleep 0.00{delay}`: the level is the scan's
#              parameter, the metric time_s, each level's median hyperfine's
#              own "median" of that result (= statistics.median of times)
#   go         `go test -bench . -cpu 1,2,4 -count 3`: level gomaxprocs,
#              metric ns_per_op (unit ns/op), medians of the text's ns/op
#   gbench     fixtures/tools/gbench/bm_sum.cc built with -lbenchmark, run
#              with --benchmark_repetitions=3: level threads, metric
#              real_time_ns, medians of the JSON's iteration real_time; then
#              `report --metric cpu_time_ns` and a config's `metric =`
#              against cpu_time
# and `sweep`/`noise`/`compare` without --metric read the tool's metric
# (their facts say so); `runs` shows the tool's fields (the values the
# tool printed, by awk or Python).
#
#   bash tests/e2e/tools_report.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
set -u
set -o pipefail
export LC_ALL=C
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$E2E_DIR/lib.sh"
e2e_start tools-report "$@"
TIMEOUT=(timeout 300)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# tsv_column NAME: the column NAME of the TSV in $T/.out, its values joined by spaces
tsv_column() {
	awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		{ printf "%s%s", (NR > 2 ? " " : ""), $c }' "$T/.out"
}
# report_check NAME TOOL SOURCE LEVEL METRIC UNIT: the report in $T/.out against the tool's figures
report_check() {
	py_file "$1" tools_report_check.py "$2" "$3" "$4" "$5" "$6"
}
# import_report CORPUS TOOL SOURCE LEVEL METRIC UNIT: import SOURCE into $T/CORPUS.db, report
# on it with the default metric, and check the report against the tool's figures
import_report() {
	local corpus=$1 tool=$2 src=$3
	shift
	DB=$T/$corpus.db
	cpl import -q --name "$corpus" "$src"
	expect_rc "$tool: import" 0
	cpl report --corpus "$corpus" --out "$T/rep-$corpus" --format json
	expect_rc "$tool: report --out" 0
	report_check "$tool: report's sweep and noise = the tool's medians per $3, metric $4 ($5)" "$@"
}

e2e_case hyperfine
if e2e_skipping; then
	:
elif command -v hyperfine >/dev/null; then
	if "${TIMEOUT[@]}" hyperfine -N --parameter-scan delay 1 3 --runs 5 --export-json "$T/hf.json" \
		'sleep 0.00{delay}' >/dev/null 2>"$T/hf.err"; then
		import_report hf hyperfine "$T/hf.json" delay time_s s
		check_contains "hyperfine: report.md names the metric" "$(cat "$T/rep-hf/report.md")" \
			"- metric: time_s"
		cpl runs --corpus hf --format tsv
		check_eq "hyperfine: runs shows time_s, hyperfine's times in order" \
			"$("$PY" -c 'import json, sys; print(" ".join(repr(t) for r in json.load(open(sys.argv[1]))["results"] for t in r["times"]))' "$T/hf.json")" \
			"$(tsv_column time_s)"
	else
		not_ok "hyperfine ran" "$(head -c 1000 "$T/hf.err")"
	fi
else
	skip "hyperfine report" "hyperfine is not installed"
fi

e2e_case go
if e2e_skipping; then
	:
elif command -v go >/dev/null; then
	M=$T/mod
	mkdir -p "$M"
	printf 'module example.com/bench\n\ngo 1.19\n' >"$M/go.mod"
	cat >"$M/bench_test.go" <<'GO'
package bench

import (
	"sync"
	"testing"
)

var sink int

func BenchmarkParallelSum(b *testing.B) {
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		local := 0
		for pb.Next() {
			for j := 0; j < 2000; j++ {
				local += j * j % 7
			}
		}
		mu.Lock()
		sink += local
		mu.Unlock()
	})
}
GO
	export GOPROXY=off GOFLAGS=-mod=mod GOCACHE=$T/gocache GOPATH=$T/gopath HOME=$T GOTOOLCHAIN=local
	if (cd "$M" && "${TIMEOUT[@]}" go test -run '^$' -bench . -cpu 1,2,4 -count 3 -benchtime 2000x) \
		>"$T/go.txt" 2>"$T/go.err"; then
		import_report go go "$T/go.txt" gomaxprocs ns_per_op ns/op
		cpl sweep --corpus go --by gomaxprocs --format json
		expect_rc "go: sweep without --metric" 0
		check_eq "go: sweep's metric is ns_per_op by default" ns_per_op "$(jget 'd["facts"]["metric"]["value"]')"
		check_eq "go: ns_per_op is a time, lower is better" "time lower" \
			"$(jget 'd["facts"]["metric_kind"]["value"] + " " + d["facts"]["metric_direction"]["value"]')"
		cpl compare --corpus go --a gomaxprocs=1 --b gomaxprocs=4 --format json
		expect_rc "go: compare without --metric" 0
		check_contains "go: compare reads ns_per_op" "$OUT" '"ns_per_op"'
		cpl runs --corpus go --format tsv
		check_eq "go: runs shows ns_per_op as go printed it" \
			"$(awk '/^Benchmark/ { printf "%s%s", (n++ ? " " : ""), $3 }' "$T/go.txt")" \
			"$(tsv_column ns_per_op)"
	else
		not_ok "go test -bench ran" "$(head -c 1000 "$T/go.err")"
	fi
else
	skip "go report" "go is not installed"
fi

e2e_case gbench
if e2e_skipping; then
	:
elif command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ]; then
	if g++ -O2 -o "$T/bm_sum" "$ROOT/fixtures/tools/gbench/bm_sum.cc" -lbenchmark -lpthread 2>"$T/cc.err" &&
		"$T/bm_sum" --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_format=json \
			>"$T/gb.json" 2>"$T/bm.err"; then
		import_report gb gbench "$T/gb.json" threads real_time_ns ns
		cpl report --corpus gb --out "$T/rep-gb-cpu" --metric cpu_time_ns --format json
		expect_rc "gbench: report --metric cpu_time_ns" 0
		report_check "gbench: report --metric cpu_time_ns = medians of cpu_time" \
			gbench "$T/gb.json" threads cpu_time_ns ns
		printf '# the CPU time, not the wall time\nmetric = cpu_time_ns\n' >"$T/cpu.conf"
		cpl report --corpus gb --out "$T/rep-gb-conf" --config "$T/cpu.conf" --format json
		expect_rc "gbench: report --config with metric =" 0
		report_check "gbench: config's metric = cpu_time_ns = medians of cpu_time" \
			gbench "$T/gb.json" threads cpu_time_ns ns
		cpl noise --corpus gb --by threads --format json
		expect_rc "gbench: noise without --metric" 0
		check_eq "gbench: noise's metric is real_time_ns by default" real_time_ns \
			"$(jget 'd["facts"]["metric"]["value"]')"
	else
		not_ok "build and run bm_sum.cc" "$(cat "$T/cc.err" "$T/bm.err" 2>/dev/null | head -c 1000)"
	fi
else
	skip "gbench report" "g++ or libbenchmark-dev is not installed"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
