#!/usr/bin/env bash
# tools_benchstat.sh: `compare --view benchstat` as a drop-in for Go's benchstat
# (issue 22.2), end to end on the database:
#   - benchstat's own goldens (fixtures/tools/benchstat/README.md: main.go's
#     `benchstat old.txt new.txt`, and `benchstat -col note` on smallSample,
#     issue19565 and issue19634 of its testdata) imported and compared: the
#     view's text (fact benchstat_text, the layout --format text prints) is
#     benchstat's output byte for byte;
#   - two real `go test -bench . -count 6 -cpu 1,2 -benchmem` outputs
#     (fixtures/tools/gobench-benchmem) against bench/benchstat_peer, a
#     standard-library Go program doing benchstat's computation (benchstat is
#     not installable offline): every table, row and geomean agree, and the
#     JSON rows carry the same p and n as the text; when go is installed the
#     peer is built here, checked on benchstat's goldens first, and a fresh
#     pair of outputs is made and compared too.
#
#   bash tests/e2e/tools_benchstat.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
source "$(dirname "$0")/lib.sh"
e2e_start tools-benchstat "$@"
FIX=$ROOT/fixtures/tools/benchstat
REAL=$ROOT/fixtures/tools/gobench-benchmem

# view_text: the view's benchstat text from the JSON document in $T/.out
view_text() { python3 -c 'import json, sys; sys.stdout.write(json.load(open(sys.argv[1]))["facts"]["benchstat_text"]["value"])' "$T/.out"; }

check_text() { # NAME EXPECTED-FILE
	if [ "$RC" -ne 0 ]; then
		not_ok "$1" "exit $RC: $ERR"
	elif diff <(view_text) "$2" >"$T/diff"; then
		ok "$1"
	else
		not_ok "$1" "differs from $(basename "$2"):"$'\n'"$(head -40 "$T/diff")"
	fi
}

# compare_old_new NAME DIR CHECK: DIR's old.txt and new.txt imported as one
# corpus (a folder $T/NAME, database $T/NAME.db; the check CHECK), then
# `compare --a file=old.txt --b file=new.txt --view benchstat` as JSON in $T/.out
compare_old_new() {
	DB=$T/$1.db
	mkdir -p "$T/$1"
	cp "$2/old.txt" "$2/new.txt" "$T/$1/"
	cpl import -q "$T/$1"
	expect_rc "$3" 0
	cpl compare --a file=old.txt --b file=new.txt --view benchstat --format json
}

# ---- benchstat's goldens ----
compare_old_new golden "$FIX" "import benchstat's old.txt and new.txt"
check_text "benchstat old.txt new.txt (cmd/benchstat/main.go's example): the same text" \
	"$FIX/oldnew.golden"
py_file "benchstat old.txt new.txt: JSON rows carry the text's medians, p and n" tools_benchstat_golden_rows.py
for g in smallSample issue19565 issue19634; do
	DB=$T/$g.db
	cpl import -q "$FIX/$g.txt"
	expect_rc "import benchstat's testdata $g.txt" 0
	cpl compare --a note=before --b note=after --view benchstat --format json
	check_text "benchstat -col note $g.txt (main_test.go): the same text" "$FIX/$g.stdout"
done

# ---- two real go test outputs, against the peer ----
compare_old_new real "$REAL" "import two go test -bench -count 6 -cpu 1,2 -benchmem outputs"
check_text "real outputs: one call gives every unit and GOMAXPROCS, as the peer prints them" \
	"$REAL/benchstat-peer.golden"
py_file "real outputs: 4 tables (sec/op, B/op, allocs/op, B/s), 28 rows, 4 geomean rows" tools_benchstat_real_rows.py
cpl compare --a file=old.txt --b file=new.txt --view benchstat --format text
py_check "real outputs: --format text shows the peer's text line for line" '
import sys
got, want = open(sys.argv[1]).read(), open(sys.argv[2]).read()
print("ok" if "\n" + want in got else "the peer text is not a block of the output")' "$REAL/benchstat-peer.golden"
cpl compare --a file=old.txt --b file=new.txt --view benchstat --metric B_per_op --format json
py_check "real outputs: --metric B_per_op keeps that unit only" '
import json, sys
d = json.load(open(sys.argv[1]))
print("ok" if {r["unit"] for r in d["sections"]["benchstat"]["rows"]} == {"B/op"} else "units")'
cpl compare --a file=old.txt --b file=nosuch.txt --view benchstat
check_eq "an arm with no run is an error" 1 "$RC"
# arms with no benchmark in common: each cell of one arm is wider than its
# column in the other (it hung, padding by a negative width, until 2 Dec)
cpl compare --a "file=old.txt gomaxprocs=1" --b "file=new.txt gomaxprocs=2" --view benchstat \
	--format text
expect_rc "arms sharing no benchmark (GOMAXPROCS 1 against 2)" 0
py_file "arms sharing no benchmark: every row of either arm once, the geomean footnote" \
	tools_benchstat_disjoint.py "$REAL/old.txt" "$REAL/new.txt"

if command -v go >/dev/null 2>&1; then
	export GOPROXY=off GOFLAGS=-mod=mod GOCACHE=$T/gocache GOPATH=$T/gopath HOME=$T GOTOOLCHAIN=local
	(cd "$ROOT/bench/benchstat_peer" && go build -o "$T/peer" .) 2>"$T/go.err"
	if [ -x "$T/peer" ]; then
		"$T/peer" "$FIX/old.txt" "$FIX/new.txt" >"$T/peer.out"
		check_eq "the peer prints benchstat's golden for benchstat's own example" \
			"" "$(diff "$T/peer.out" "$FIX/oldnew.golden")"
		"$T/peer" "$REAL/old.txt" "$REAL/new.txt" >"$T/peer.out"
		check_eq "the peer still prints the committed real-output golden" \
			"" "$(diff "$T/peer.out" "$REAL/benchstat-peer.golden")"
		# a fresh pair, made here
		M=$T/mod
		mkdir -p "$M" "$T/fresh"
		printf 'module example.com/bench\n\ngo 1.19\n' >"$M/go.mod"
		cp "$REAL/bench_test.go.txt" "$M/bench_test.go"
		(cd "$M" && go test -run '^$' -bench . -count 6 -cpu 1,2 -benchmem -benchtime 500x) \
			>"$T/fresh/old.txt" 2>"$T/go.err" &&
			(cd "$M" && BENCH_NEW=1 go test -run '^$' -bench . -count 6 -cpu 1,2 -benchmem \
				-benchtime 500x) >"$T/fresh/new.txt" 2>>"$T/go.err"
		if [ $? -eq 0 ]; then
			DB=$T/fresh.db
			cpl import -q "$T/fresh"
			cpl compare --a file=old.txt --b file=new.txt --view benchstat --format json
			"$T/peer" "$T/fresh/old.txt" "$T/fresh/new.txt" >"$T/peer.out"
			check_text "fresh go test outputs made here: the view prints what the peer prints" \
				"$T/peer.out"
		else
			not_ok "go test -bench ran" "$(head -c 1000 "$T/go.err")"
		fi
	else
		not_ok "the benchstat peer builds" "$(head -c 1000 "$T/go.err")"
	fi
else
	skip "the peer on fresh go test outputs" "go is not installed"
fi

echo "# $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
