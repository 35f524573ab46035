#!/usr/bin/env bash
# tools_gobench.sh: Go `testing` benchmark text (importers/tool_gobench.c) end
# to end: a real `go test -bench . -cpu 1,2 -count 3` run made here (skipped
# when go is not installed) and the committed samples fixtures/tools/gobench/
# {old,new}.txt (made by go 1.19.8 the same way) are imported, then
# `sweep --by gomaxprocs`, `noise` and `compare --a file=old.txt --b
# file=new.txt --by name` run on them. Expected figures are computed here
# from the Go text itself by /usr/bin/python3 (a regex over the result
# lines, independent of the converter).
#
#   bash tests/e2e/tools_gobench.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_start gobench "$@"
e2e_timeout 120

# median_of FILE NAME PROCS UNIT: the median of UNIT over FILE's result lines of NAME at PROCS
median_of() {
	"$PY" "$E2E_PY_DIR/tools_gobench_median_of.py" "$@"
}
# same_number A B: equal to 4 significant digits
same_number() { "$PY" -c 'import sys; a, b = map(float, sys.argv[1:]); print("ok" if abs(a - b) <= 1e-4 * max(abs(a), abs(b)) else "differ")' "$1" "$2"; }

check_corpus() { # LABEL FOLDER (holding old.txt and new.txt)
	local label=$1 dir=$2 want got
	DB=$T/$label.db
	cpl import -q "$dir"
	expect_rc "$label: import of a folder of go test -bench outputs" 0
	cpl runs --format json
	want=$(grep -c '^Benchmark' "$dir/old.txt" "$dir/new.txt" | awk -F: '{ s += $2 } END { print s }')
	check_eq "$label: one run per result line" "$want" "$(jget 'd["facts"]["runs"]["value"]')"
	cpl sweep --by gomaxprocs --metric ns_per_op --where name=BenchmarkParallelJoin \
		--where file=old.txt --format tsv --view levels
	expect_rc "$label: sweep --by gomaxprocs" 0
	for procs in 1 2; do
		want=$(median_of "$dir/old.txt" BenchmarkParallelJoin $procs ns/op)
		got=$(tsvget level $procs median)
		check_eq "$label: sweep median at gomaxprocs $procs ($want, python over the go text)" ok \
			"$(same_number "$want" "${got:-nan}")" "got '$got'"
	done
	check_eq "$label: 3 runs per level (-count 3)" 3 "$(tsvget level 2 n)"
	cpl sweep --by gomaxprocs --metric B_per_op --where name=BenchmarkParallelJoin \
		--where file=new.txt --format json
	check_eq "$label: B_per_op is a memory metric, lower is better" "memory lower" \
		"$(jget 'd["facts"]["metric_kind"]["value"] + " " + d["facts"]["metric_direction"]["value"]')"
	cpl noise --by gomaxprocs --metric ns_per_op --group name,file --format json
	expect_rc "$label: noise --by gomaxprocs --group name,file" 0
	check_eq "$label: noise groups = names x files" 6 "$(jget 'd["facts"]["groups"]["value"]')"
	cpl compare --a file=old.txt --b file=new.txt --by name --metric ns_per_op --format json
	expect_rc "$label: compare --a file=old.txt --b file=new.txt --by name" 0
	want=$(grep -c '^Benchmark' "$dir/old.txt")
	check_eq "$label: compare arm a holds old.txt's runs" "$want" \
		"$(jget 'd["sections"]["arms"]["rows"][0]["n"]')"
	want=$("$PY" "$E2E_PY_DIR/tools_gobench_old_median.py" "$dir/old.txt")
	check_eq "$label: compare arm a median ns_per_op ($want, python over old.txt)" ok \
		"$(same_number "$want" "$(jget 'd["sections"]["arms"]["rows"][0]["median"]')")"
}

e2e_case sample
check_corpus sample "$ROOT/fixtures/tools/gobench"

# compare --view benchstat against benchstat's published figures. benchstat is
# not installable offline (a Go module fetched from the network; no Debian
# package), so the inputs and its output are those of its documentation: the
# example in the doc comment of golang.org/x/perf cmd/benchstat/main.go:
#   Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
#   Encode/format=gob-48    3.066µ ± 0%   3.070µ ± 2%        ~ (p=0.446 n=10)
e2e_case benchstat-doc
B=$T/benchstat-doc
mkdir -p "$B"
write_doc_file() { # FILE JSON-VALUES... -- GOB-VALUES...
	local f=$1 v
	shift
	printf 'goos: linux\ngoarch: amd64\npkg: golang.org/x/perf/cmd/benchstat/testdata\n' >"$f"
	for v in "$@"; do
		case $v in
		--) FMT=gob ;;
		*) printf 'BenchmarkEncode/format=%s-48         \t  690848\t      %s ns/op\n' "${FMT:-json}" "$v" >>"$f" ;;
		esac
	done
	FMT=json
}
write_doc_file "$B/old.txt" 1726 1723 1707 1707 1713 1729 1736 1707 1705 1774 -- \
	3069 3075 3069 3067 3207 3064 3064 3058 3059 3062
write_doc_file "$B/new.txt" 1423 1416 1411 1413 1412 1426 1422 1424 1447 1425 -- \
	3075 3065 3059 3065 3060 3081 3186 3135 3087 3062
DB=$T/benchstat.db
cpl import -q "$B"
expect_rc "benchstat doc example: import" 0
cpl compare --a file=old.txt --b file=new.txt --by name --metric ns_per_op --format json
expect_rc "benchstat doc example: compare --by name" 0
py_file "benchstat view prints benchstat's figures (its documentation)" tools_gobench_benchstat_view_prints_benchstat_s.py

# a real run of go test -bench, made here, offline
e2e_case real
if e2e_skipping; then
	: # go runs only for this case
elif command -v go >/dev/null 2>&1; then
	M=$T/mod
	mkdir -p "$M" "$T/real"
	printf 'module example.com/bench\n\ngo 1.19\n' >"$M/go.mod"
	cat >"$M/bench_test.go" <<'GO'
package bench

import (
	"strings"
	"sync"
	"testing"
)

var sink int

func BenchmarkParallelJoin(b *testing.B) {
	b.ReportAllocs()
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			sink += len(strings.Repeat("x", 16))
			mu.Unlock()
		}
	})
	b.ReportMetric(16, "bytes/join")
}

func BenchmarkSum(b *testing.B) {
	for _, size := range []string{"100", "1000"} {
		n := len(size) * 300
		b.Run("size="+size, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for j := 0; j < n; j++ {
					sink += j * j % 7
				}
			}
		})
	}
}
GO
	export GOPROXY=off GOFLAGS=-mod=mod GOCACHE=$T/gocache GOPATH=$T/gopath HOME=$T GOTOOLCHAIN=local
	for f in old new; do
		(cd "$M" && go test -run '^$' -bench . -cpu 1,2 -count 3 -benchtime 300x) >"$T/real/$f.txt" 2>"$T/go.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			not_ok "go test -bench ran" "exit $rc: $(head -c 2000 "$T/go.err")"
			break
		fi
	done
	if [ "${rc:-0}" -eq 0 ]; then
		check_corpus real "$T/real"
		DB=$T/single.db
		cpl import -q --format gobench "$T/real/old.txt"
		expect_rc "real: one file with --format gobench" 0
		cpl runs --where file=old.txt --format json
		check_eq "real: a single file's runs have file = its name" \
			"$(grep -c '^Benchmark' "$T/real/old.txt")" "$(jget 'd["facts"]["runs"]["value"]')"
	fi
else
	skip "real go test -bench output" "go is not installed"
fi

# --metric not given on Go runs: the tool's own metric, and the output says
# it was chosen (a listed fact); given, the fact is absent (the null case)
DB=$T/defaulted.db
cpl import -q "$ROOT/fixtures/tools/gobench"
cpl sweep --by gomaxprocs --where name=BenchmarkParallelJoin --where file=old.txt --format json
check_eq "default metric: Go runs read ns_per_op" ns_per_op "$(jget 'd["facts"]["metric"]["value"]')"
check_eq "default metric: the output says the metric was chosen" yes \
	"$(jget '"yes" if "metric_default" in d["facts"] else "no"')"
cpl sweep --by gomaxprocs --where name=BenchmarkParallelJoin --where file=old.txt --metric ns_per_op --format json
check_eq "default metric: --metric given, no such note" no \
	"$(jget '"yes" if "metric_default" in d["facts"] else "no"')"

# translate and plot take the same default (their requests were filled before
# it was chosen: translate read tput and found no runs)
cpl translate --from file=old.txt --to file=new.txt --format json
expect_rc "default metric: translate --from file=old.txt --to file=new.txt" 0
check_eq "default metric: translate reads ns_per_op" ns_per_op "$(jget 'd["facts"]["metric"]["value"]')"
check_eq "default metric: translate's from side holds old.txt's result lines" \
	"$(grep -c '^Benchmark' "$ROOT/fixtures/tools/gobench/old.txt")" "$(jget 'd["facts"]["from_runs"]["value"]')"
cpl plot scaling --by gomaxprocs --where file=old.txt --where name=BenchmarkParallelJoin \
	--out "$T/defaulted.svg" --format json
expect_rc "default metric: plot scaling" 0
check_eq "default metric: plot reads ns_per_op" ns_per_op "$(jget 'd["facts"]["metric"]["value"]')"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
