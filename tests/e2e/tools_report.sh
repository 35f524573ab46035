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
#   wrk        `wrk -t1 -cC -d1s` for C in 1, 2, 4 (twice each) against a
#              python3 http.server on 127.0.0.1 started and stopped here, one
#              run with a Lua script (wrk -s) printing percentiles after
#              wrk's own lines: level connections, metric requests_per_s,
#              medians of the files' Requests/sec; the script's lines counted
#   gbench     fixtures/tools/gbench/bm_sum.cc built with -lbenchmark, run
#              with --benchmark_repetitions=3: level threads, metric
#              real_time_ns, medians of the JSON's iteration real_time; then
#              `report --metric cpu_time_ns` and a config's `metric =`
#              against cpu_time
# and `sweep`/`noise`/`compare` without --metric read the tool's metric
# (their facts say so); `runs` shows the tool's fields (the values the
# tool printed, by awk or Python). Case where: two hyperfine commands
# holding a space selected by quoted values (--a 'command="sleep 0.01"'),
# by --where-file, a value no run has listing the ones that exist, and the
# report's comparison (levers over command) measured.
#
#   bash tests/e2e/tools_report.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$E2E_DIR/lib.sh"
e2e_start tools-report "$@"

# tsv_column NAME: the column NAME of the TSV in $T/.out, its values joined by spaces
tsv_column() {
	awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		{ printf "%s%s", (NR > 2 ? " " : ""), $c }' "$T/.out"
}
# report_check NAME TOOL SOURCE LEVEL METRIC UNIT: the report in $T/.out against the tool's figures
report_check() {
	py_file "$1" tools_report_check.py "$2" "$3" "$4" "$5" "$6"
}
# available NAME WHY TEST...: true in a selected case when TEST... succeeds; else false, with a
# skip line naming WHY
available() {
	local name=$1 why=$2
	shift 2
	e2e_skipping && return 1
	"$@" >/dev/null 2>&1 && return 0
	skip "$name" "$why"
	return 1
}
# made LABEL ERRFILE CMD...: run a tool making an output (its standard output is the
# caller's); false with a not-ok line showing its standard error when it fails
made() {
	local label=$1 err=$2
	shift 2
	"${TIMEOUT[@]}" "$@" 2>"$err" && return 0
	not_ok "$label" "$(head -c 1000 "$err")"
	return 1
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
if available "hyperfine report" "hyperfine is not installed" command -v hyperfine; then
	if made "hyperfine ran" "$T/hf.err" hyperfine -N --parameter-scan delay 1 3 --runs 5 \
		--export-json "$T/hf.json" 'sleep 0.00{delay}' >/dev/null; then
		import_report hf hyperfine "$T/hf.json" delay time_s s
		check_contains "hyperfine: report.md names the metric" "$(cat "$T/rep-hf/report.md")" \
			"- metric: time_s"
		cpl runs --corpus hf --format tsv
		check_eq "hyperfine: runs shows time_s, hyperfine's times in order" \
			"$("$PY" -c 'import json, sys; print(" ".join(repr(t) for r in json.load(open(sys.argv[1]))["results"] for t in r["times"]))' "$T/hf.json")" \
			"$(tsv_column time_s)"
	fi
fi

# commands holding a space: the quoting rule, --where-file, the values listed (issue 22.3)
e2e_case where
if available "where: hyperfine commands with spaces" "hyperfine is not installed" command -v hyperfine; then
	if made "hyperfine ran" "$T/two.err" hyperfine -N --runs 4 --export-json "$T/two.json" \
		'sleep 0.01' 'sleep 0.02' >/dev/null; then
		DB=$T/two.db
		cpl import -q --name two "$T/two.json"
		expect_rc "where: import two hyperfine commands" 0
		cpl compare --a 'command="sleep 0.01"' --b 'command="sleep 0.02"' --format tsv --view arms
		expect_rc "where: compare --a 'command=\"sleep 0.01\"' (a quoted value with a space)" 0
		check_eq "where: the arms' n and medians = python's statistics.median of each command's times" \
			"$("$PY" -c 'import json, statistics, sys
for arm, r in zip("ab", json.load(open(sys.argv[1]))["results"]):
    print(arm, len(r["times"]), repr(statistics.median(r["times"])))' "$T/two.json")" \
			"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "n") n = i; if ($i == "median") m = i }; next } { print $1, $n, $m }' "$T/.out")"
		printf '# the slower command, its value to the line end\ncommand=sleep 0.02\n' >"$T/where.txt"
		cpl runs --where-file "$T/where.txt" --format tsv
		expect_rc "where: runs --where-file" 0
		check_eq "where: --where-file keeps the runs of 'sleep 0.02' (hyperfine's times, in order)" \
			"$("$PY" -c 'import json, sys; print(" ".join(repr(t) for t in json.load(open(sys.argv[1]))["results"][1]["times"]))' "$T/two.json")" \
			"$(tsv_column time_s)"
		cpl sweep --by run --where 'command="sleep 0.03"'
		expect_rc "where: a value no run has is an error" 1
		check_contains "where: the error lists the values that exist, quoted" "$ERR" \
			'no run has command="sleep 0.03"; command takes "sleep 0.01", "sleep 0.02"'
		cpl sweep --by run --where 'command=sleep 0.01,x=1'
		expect_rc "where: an unquoted '=' in a value is a usage error" 2
		check_contains "where: the message says to quote it" "$ERR" "quote a value that holds '='"
		cpl report --out "$T/rep-two" --format json
		expect_rc "where: report on two commands" 0
		check_eq "where: the report's comparison (levers over command) is measured" measured \
			"$(jget '[r["status"] for r in d["sections"]["sections"]["rows"] if r["section"] == "levers command"][0]')"
	fi
fi

e2e_case go
if available "go report" "go is not installed" command -v go; then
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
	if made "go test -bench ran" "$T/go.err" env -C "$M" go test -run '^$' -bench . -cpu 1,2,4 \
		-count 3 -benchtime 2000x >"$T/go.txt"; then
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
	fi
fi

# wrk -c 1,2,4 against a local python3 http.server, one run with a Lua script's lines (issue 22.4)
e2e_case wrk
if available "wrk report" "wrk is not installed" command -v wrk; then
	mkdir -p "$T/www" "$T/wrk"
	echo hello >"$T/www/index.html"
	"$PY" -c 'import http.server, socketserver, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
s = socketserver.ThreadingTCPServer(("127.0.0.1", 0), lambda *a: Quiet(*a, directory=sys.argv[1]))
print(s.server_address[1], flush=True)
s.serve_forever()' "$T/www" >"$T/port" 2>/dev/null &
	SERVER=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$T/port" ] && break; sleep 0.2; done
	URL=http://127.0.0.1:$(cat "$T/port")/
	cat >"$T/report.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write("------------------------------\n")
  for _, p in pairs({ 50, 99 }) do
    io.write(string.format("%g%%,%d\n", p, latency:percentile(p)))
  end
end
LUA
	ran=true
	for c in 1 2 4; do
		for r in 1 2; do
			script=()
			[ "$c$r" = 21 ] && script=(-s "$T/report.lua")
			made "wrk -c $c ran" "$T/wrk.err" wrk -t1 -c"$c" -d1s "${script[@]}" "$URL" \
				>"$T/wrk/c$c-run$r.txt" || ran=false
		done
	done
	kill "$SERVER" 2>/dev/null
	wait "$SERVER" 2>/dev/null
	if $ran; then
		import_report wrk wrk "$T/wrk" connections requests_per_s req/s
		cpl runs --corpus wrk --where file=c2-run1.txt --format tsv
		check_eq "wrk: the Lua script's lines are kept, counted (3 lines after Transfer/sec)" 3 \
			"$(tsv_column script_lines)"
	fi
fi

e2e_case gbench
if available "gbench report" "g++ or libbenchmark-dev is not installed" \
	test -e /usr/include/benchmark/benchmark.h -a -n "$(command -v g++)"; then
	if made "build bm_sum.cc" "$T/cc.err" g++ -O2 -o "$T/bm_sum" \
		"$ROOT/fixtures/tools/gbench/bm_sum.cc" -lbenchmark -lpthread &&
		made "run bm_sum" "$T/bm.err" "$T/bm_sum" --benchmark_repetitions=3 \
			--benchmark_min_time=0.01 --benchmark_format=json >"$T/gb.json"; then
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
	fi
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
