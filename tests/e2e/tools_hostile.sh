#!/usr/bin/env bash
# tools_hostile.sh: the hostile catalogue's tool-format cases (issues 22.4,
# 23.1, 23.4, 23.5; the rest of the catalogue is hostile.sh). Each case is a
# file made here, imported as a single file into a fresh database, and
# checked for its exit code, the message (file:line:column or $.path), that a
# refused import left the database as it was, and a budget of wall time and
# peak RSS (/usr/bin/time) set by orders of magnitude, not tight timings: a
# quadratic importer (the 30,000-unit Go file took minutes and gigabytes
# before) fails them, a loaded CI machine does not.
#
#   bash tests/e2e/tools_hostile.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# TOOLS_HOSTILE_ONLY=REGEX runs the cases whose name matches.
source "$(dirname "$0")/lib.sh"
e2e_start tools-hostile "$@"
[ -x /usr/bin/time ] || { echo "1..0 # skip /usr/bin/time is missing"; exit 0; }
e2e_timeout 120

q() { sqlite3 -batch -noheader -separator $'\t' "$@"; }
dbstate() { { sha256sum <"$1"; sqlite3 "$1" .dump | sha256sum; } | cut -c1-16 | tr '\n' ' '; }

# A database holding one corpus already, so "left as it was" is a real check.
BASEDB=$T/base.db
"$BIN" --db "$BASEDB" import -q "$ROOT/fixtures/tools/gobench" >/dev/null 2>&1 ||
	{ echo "not ok - the base database: cannot import fixtures/tools/gobench"; exit 1; }

# case NAME FILE WANT_RC FRAGMENT SECONDS MB [POST]: import FILE (one file)
# FRAGMENT: grep -F on stderr ("re:" = grep -E); POST: a function run on success.
case_() {
	local name=$1 file=$2 want=$3 frag=$4 budget_s=$5 budget_mb=$6 post=${7:-}
	local db=$T/case.db before after rc secs kb problems=""
	[ -z "${TOOLS_HOSTILE_ONLY:-}" ] || [[ "$name" =~ $TOOLS_HOSTILE_ONLY ]] || return 0
	cp "$BASEDB" "$db"
	before=$(dbstate "$db")
	"${TIMEOUT[@]}" /usr/bin/time -f '%e %M' -o "$T/time" "$BIN" --db "$db" import -q \
		"${IMPORT_OPTS[@]}" "$file" >"$T/out" 2>"$T/err"
	rc=$?
	read -r secs kb < <(tail -n 1 "$T/time" 2>/dev/null) || { secs=999; kb=0; }
	after=$(dbstate "$db")
	[ "$rc" = "$want" ] || problems+="exit $rc, expected $want; "
	if [ -n "$frag" ]; then
		if [[ "$frag" == re:* ]]; then
			grep -aEq -- "${frag#re:}" "$T/err" || problems+="stderr lacks /${frag#re:}/; "
		else
			grep -aFq -- "$frag" "$T/err" || problems+="stderr lacks '$frag'; "
		fi
	fi
	if [ "$rc" != 0 ] && [ "$before" != "$after" ]; then
		problems+="the database changed; "
	fi
	grep -aEq 'runtime error|Sanitizer|^==[0-9]+==' "$T/err" && problems+="sanitizer report; "
	awk -v s="$secs" -v b="$budget_s" 'BEGIN { exit !(s <= b) }' ||
		problems+="took $secs s, budget $budget_s s; "
	# a sanitizer build needs several times the memory: the RSS budget is for the plain build
	if ! grep -aqE '__asan_init|__ubsan_handle' "$BIN"; then
		[ "$((kb / 1024))" -le "$budget_mb" ] || problems+="peak RSS $((kb / 1024)) MB, budget $budget_mb MB; "
	fi
	if [ -z "$problems" ] && [ "$rc" = 0 ] && [ -n "$post" ]; then
		POST_MSG=""
		DB=$db
		$post || problems+="$POST_MSG; "
	fi
	if [ -z "$problems" ]; then
		ok "tools hostile: $name (exit $rc, $secs s, $((kb / 1024)) MB)"
	else
		not_ok "tools hostile: $name" "${problems%; }"$'\n'"stderr: $(head -c 1500 "$T/err")"
	fi
}
IMPORT_OPTS=()
C=$T/files
mkdir -p "$C"

###########################################################################
# One rule for values (23.4): refused with file:line:column or $.path
###########################################################################
HF_HEAD='{\n  "results": [\n    {\n'
printf "$HF_HEAD"'      "command": "a",\n      "command": "b",\n      "times": [1]\n    }\n  ]\n}\n' >"$C/hf-dup-key.json"
case_ hyperfine-duplicate-key "$C/hf-dup-key.json" 1 \
	'hf-dup-key.json:5:7: $.results[0].command: key given twice in one object' 10 64
printf '{"results": [{"command": "a", "times": [1], "parameters": {"n": 1, "n": 2}}]}\n' >"$C/hf-dup-param.json"
case_ hyperfine-duplicate-parameter "$C/hf-dup-param.json" 1 \
	'hf-dup-param.json:1:68: $.results[0].parameters.n: key given twice' 10 64
printf "$HF_HEAD"'      "command": "rm -rf /\\u0000 echo",\n      "times": [1]\n    }\n  ]\n}\n' >"$C/hf-nul.json"
case_ hyperfine-escaped-NUL "$C/hf-nul.json" 1 \
	're:hf-nul\.json:4:[0-9]+: [$]\.results\[0\]\.command: an escaped NUL \(\\u0000\)' 10 64
GB_ROW='{"name": "BM", "run_type": "iteration", "iterations": 10, "real_time": %s, "cpu_time": 1, "time_unit": "%s"}'
printf '{"context": {"num_cpus": 2}, "benchmarks": [\n'"$GB_ROW"',\n'"$GB_ROW"']}\n' 1 ns 1 ns |
	sed '3s/"real_time": 1,/"real_time": 1, "real_time": 2,/' >"$C/gb-dup-key.json"
case_ gbench-duplicate-key "$C/gb-dup-key.json" 1 \
	're:gb-dup-key\.json:3:[0-9]+: [$]\.benchmarks\[1\]\.real_time: key given twice' 10 64
printf '{"context": {}, "benchmarks": [{"name": "BM\\u0000x", "iterations": 1, "real_time": 1, "cpu_time": 1}]}\n' >"$C/gb-nul.json"
case_ gbench-escaped-NUL "$C/gb-nul.json" 1 '$.benchmarks[0].name: an escaped NUL' 10 64
printf '{"context": {}, "benchmarks": [\n'"$GB_ROW"']}\n' 1e308 s >"$C/gb-overflow.json"
case_ gbench-time-overflows-to-infinity "$C/gb-overflow.json" 1 \
	're:gb-overflow\.json:2:[0-9]+: [$]\.benchmarks\[0\]\.real_time: 1e308: in ns it is beyond a double' 10 64
printf '{"context": {}, "benchmarks": [\n'"$GB_ROW"']}\n' -3 ns >"$C/gb-negative.json"
case_ gbench-negative-time "$C/gb-negative.json" 1 \
	'$.benchmarks[0].real_time: -3 is below 0: a time or count cannot be negative' 10 64
printf '{"context": {}, "benchmarks": []}\n' >"$C/gb-empty.json"
case_ gbench-no-rows "$C/gb-empty.json" 1 '$.benchmarks: empty: no benchmark ran' 10 64
printf 'goos: linux\nBenchmarkA-2 \t 100\t 0x1p3 ns/op\n' >"$C/go-hex.txt"
case_ gobench-hex-float "$C/go-hex.txt" 1 \
	"go-hex.txt:2:21: value '0x1p3' is not a finite decimal number (hex floats are refused" 10 64
printf 'goos: linux\nBenchmarkA-2 \t 100\t -12.5 ns/op\n' >"$C/go-negative.txt"
case_ gobench-negative-time "$C/go-negative.txt" 1 \
	"go-negative.txt:2:21: value '-12.5' is negative: a ns/op cannot be" 10 64
printf 'goos: linux\rgoarch: amd64\rBenchmarkA-2 \t 100\t 12.5 ns/op\r' >"$C/go-cr.txt"
case_ gobench-CR-only-line-ends "$C/go-cr.txt" 1 \
	'go-cr.txt:1:12: a carriage return inside the line: CR-only line ends are not Go benchmark text' 10 64
printf 'goos: linux\ngoarch: amd64\npkg: example.com/x\nPASS\nok  \texample.com/x\t0.01s\n' >"$C/go-no-results.txt"
case_ gobench-no-result-lines "$C/go-no-results.txt" 1 \
	'go-no-results.txt:5: no benchmark result lines' 10 64
printf 'command,mean,stddev,median,user,system,min,max\nsleep 1,-1,0,1,0,0,1,1\n' >"$C/hf-negative.csv"
case_ hyperfine-csv-negative-time "$C/hf-negative.csv" 1 \
	"hf-negative.csv:2:2: mean '-1' is not a time in seconds" 10 64

###########################################################################
# Formats recognised or refused by name (22.4)
###########################################################################
cat >"$C/gbench-console.txt" <<'EOF'
2026-12-01T11:48:43+00:00
Running ./bm
Run on (2 X 2300 MHz CPU s)
CPU Caches:
  L1 Data 48 KiB (x1)
Load Average: 0.84, 1.23, 2.06
-----------------------------------------------------------
Benchmark                 Time             CPU   Iterations
-----------------------------------------------------------
BM_Sum/threads:1        358 ns          356 ns        34793
EOF
case_ gbench-console-output-refused "$C/gbench-console.txt" 1 \
	"cannot import 'gbench-console.txt': it is Google Benchmark's console output (the table it prints): run the benchmark with --benchmark_format=json" 10 64
printf '| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n|:---|---:|---:|---:|---:|\n| `sleep 0.001` | 2.1 ± 0.2 | 2.0 | 2.3 | 1.00 |\n' >"$C/hf.md"
case_ hyperfine-markdown-refused "$C/hf.md" 1 \
	"cannot import 'hf.md': it is a hyperfine --export-markdown table: rounded summaries, not timings" 10 64
cat >"$C/benchstat.txt" <<'EOF'
goos: linux
goarch: amd64
pkg: golang.org/x/perf/cmd/benchstat/testdata
       │   old.txt   │               new.txt               │
       │   sec/op    │   sec/op     vs base                │
Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
EOF
case_ benchstat-output-refused "$C/benchstat.txt" 1 \
	"it is benchstat's own output (a comparison, not measurements): import the go test -bench outputs" 10 64
printf 'name                  old time/op  new time/op  delta\nEncode/format=json-8  1.72µs ± 1%%  1.42µs ± 1%%  -17.20%%  (p=0.000 n=10+10)\n' >"$C/benchstat-v1.txt"
case_ benchstat-v1-output-refused "$C/benchstat-v1.txt" 1 "it is benchstat's own output" 10 64
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10' >"$C/image.png"
case_ unrecognised-binary "$C/image.png" 1 \
	"cannot import 'image.png': it holds binary data (a NUL byte at line 3, column 1)" 10 64
printf 'just some notes\nabout a run\n' >"$C/notes.txt"
case_ unrecognised-text "$C/notes.txt" 1 \
	"it is text of 2 lines whose first line ('just some notes') has no tab or comma: not a headed table, and no line of it is a tool's (coreplan reads gobench, hyperfine, hyperfine-csv, gbench, wrk, a headed TSV or CSV table" 10 64
printf '{"hello": 1, "world": [2]}\n' >"$C/other.json"
case_ unrecognised-json "$C/other.json" 1 \
	"it is a JSON object with the keys hello, world: not hyperfine's (results[] with command and times) nor Google Benchmark's (context, benchmarks[])" 10 64

# hyperfine's CSV export imports: one run per command, its summary
printf 'command,mean,stddev,median,user,system,min,max,parameter_n\nsleep 0.001,0.0021,0.0002,0.0020,0.0008,0,0.0019,0.0023,1\nsleep 0.002,0.0035,0.0006,0.0031,0.0006,0.0003,0.0030,0.0042,2\n' >"$C/scan.csv"
p_csv() {
	local r
	r=$(q "$DB" "SELECT group_concat(c || ' ' || m, ', ') FROM (SELECT
		(SELECT value FROM run_fields f WHERE f.run_id = r.run_id AND f.name = 'command') c,
		(SELECT value FROM run_fields f WHERE f.run_id = r.run_id AND f.name = 'median_s') m
		FROM runs_v r WHERE r.corpus = 'scan' ORDER BY r.seq)")
	[ "$r" = "sleep 0.00{n} 0.0020, sleep 0.00{n} 0.0031" ] ||
		{ POST_MSG="commands and medians '$r'"; return 1; }
}
case_ hyperfine-csv-imported "$C/scan.csv" 0 "" 10 64 p_csv

# wrk with a Lua script's lines before Running and after Transfer/sec imports
{ echo "thread 1 created"; cat "$ROOT/fixtures/tools/wrk/c1-run1.txt"; printf -- '------------------------------\n50%%,612\n'; } >"$C/lua.txt"
p_lua() {
	local r
	r=$(q "$DB" "SELECT a.value FROM run_attrs a JOIN runs_v r USING (run_id)
		WHERE r.corpus = 'lua' AND a.name = 'script_lines'")
	[ "$r" = 3 ] || { POST_MSG="script_lines '$r', expected 3"; return 1; }
}
IMPORT_OPTS=(--format wrk)
case_ wrk-lua-script-lines-imported "$C/lua.txt" 0 "" 10 64 p_lua
IMPORT_OPTS=()

# detection on structure, past any fixed prefix: a first field of 200 KiB
"$PY" - "$C" <<'PY'
import json, sys
d = sys.argv[1]
json.dump({"results": [{"command": "echo " + "x" * 200000, "times": [0.5, 0.25]}]},
          open(d + "/hf-long-command.json", "w"))
json.dump({"context": {"executable": "/" + "b" * 200000, "num_cpus": 2},
           "benchmarks": [{"name": "BM", "iterations": 5, "real_time": 2, "cpu_time": 2,
                           "time_unit": "ns"}]}, open(d + "/gb-long-context.json", "w"))
PY
p_two() { [ "$(q "$DB" "SELECT count(*) FROM runs_v WHERE corpus LIKE 'hf-long%'")" = 2 ] || { POST_MSG="not 2 runs"; return 1; }; }
case_ hyperfine-200KiB-first-field-detected "$C/hf-long-command.json" 0 "" 10 64 p_two
p_one() { [ "$(q "$DB" "SELECT layout FROM corpora WHERE name = 'gb-long-context'")" = gbench ] || { POST_MSG="not a gbench corpus"; return 1; }; }
case_ gbench-200KiB-context-detected "$C/gb-long-context.json" 0 "" 10 64 p_one

###########################################################################
# Scale (23.1, 23.5): linear in time and bounded in memory. Budgets by
# orders of magnitude (the targets are 3 s and 64 MB: bench/tools_import_bench.sh)
###########################################################################
"$PY" - "$C" <<'PY'
import json, random, sys
d = sys.argv[1]
random.seed(1)
with open(d + "/units-30000.txt", "w") as f:  # the issue's own file
    print("goos: linux", file=f)
    for i in range(30000):
        print(f"BenchmarkA 1 1 u{i}/op", file=f)
times = [0.01 + random.random() * 0.001 for _ in range(100000)]
json.dump({"results": [{"command": "sleep 0.01", "times": times, "exit_codes": [0] * 100000}]},
          open(d + "/hf-100k.json", "w"), indent=2)
rows = [{"name": f"BM_Sum/{i % 100}/threads:{1 + i % 2}", "run_type": "iteration",
         "repetition_index": i // 200, "threads": 1 + i % 2, "iterations": 34793,
         "real_time": 357.8 + random.random(), "cpu_time": 355.9 + random.random(),
         "time_unit": "ns", "items_per_second": 2.8e9} for i in range(50000)]
json.dump({"context": {"num_cpus": 2}, "benchmarks": rows}, open(d + "/gb-50k.json", "w"), indent=2)
with open(d + "/go-200k.txt", "w") as f:
    print("goos: linux\ngoarch: amd64\npkg: example.com/bench", file=f)
    for b in range(500):
        for cpu in (1, 2):
            for c in range(200):
                print(f"BenchmarkCase{b}/size={b % 7}{'-2' if cpu == 2 else ''}  \t 1000000\t "
                      f"{1000 + b * 10 + random.random() * 50:.1f} ns/op\t {b * 8} B/op\t "
                      f"{b % 5} allocs/op", file=f)
PY
p_units() {
	local r
	r=$(q "$DB" "SELECT count(*), count(DISTINCT a.name) FROM run_attrs a JOIN runs_v r USING (run_id)
		WHERE r.corpus = 'units-30000' AND a.name LIKE 'u%\_per\_op' ESCAPE '\\'" | tr '\t' ' ')
	[ "$r" = "30000 30000" ] || { POST_MSG="unit cells '$r', expected 30000 distinct"; return 1; }
}
case_ gobench-30000-units "$C/units-30000.txt" 0 "" 30 64 p_units
p_hf() { [ "$(q "$DB" "SELECT count(*) FROM runs_v WHERE corpus = 'hf-100k'")" = 100000 ] || { POST_MSG="not 100000 runs"; return 1; }; }
case_ hyperfine-100000-timings "$C/hf-100k.json" 0 "" 30 64 p_hf
p_gb() { [ "$(q "$DB" "SELECT count(*) FROM runs_v WHERE corpus = 'gb-50k'")" = 50000 ] || { POST_MSG="not 50000 runs"; return 1; }; }
case_ gbench-50000-rows "$C/gb-50k.json" 0 "" 30 64 p_gb
p_go() {
	local in db
	in=$(stat -c %s "$C/go-200k.txt")
	db=$(stat -c %s "$DB")
	[ "$(q "$DB" "SELECT count(*) FROM runs_v WHERE corpus = 'go-200k'")" = 200000 ] || { POST_MSG="not 200000 runs"; return 1; }
	# the base database holds a small corpus: under 3x the input plus 1 MB
	[ "$db" -le $((3 * in + 1048576)) ] || { POST_MSG="database $db bytes for $in of input (over 3x)"; return 1; }
}
case_ gobench-200000-samples "$C/go-200k.txt" 0 "" 60 64 p_go

echo "# $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
