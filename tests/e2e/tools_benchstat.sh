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

# ---- benchstat's goldens ----
DB=$T/golden.db
mkdir -p "$T/oldnew"
cp "$FIX/old.txt" "$FIX/new.txt" "$T/oldnew/"
cpl import -q "$T/oldnew"
expect_rc "import benchstat's old.txt and new.txt" 0
cpl compare --a file=old.txt --b file=new.txt --view benchstat --format json
check_text "benchstat old.txt new.txt (cmd/benchstat/main.go's example): the same text" \
	"$FIX/oldnew.golden"
py_check "benchstat old.txt new.txt: JSON rows carry the text's medians, p and n" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["benchstat"]["rows"]
want = [("Encode/format=json-48", 1.718e-06, 1.4225e-06, 1.082508822446903e-05, "-17.20%"),
        ("Encode/format=gob-48", 3.0655e-06, 3.07e-06, 0.4461018857303687, "~")]
got = [(r["name"], r["a_median"], r["b_median"], r["p"], r["delta"]) for r in rows if r["kind"] == "benchmark"]
ok = len(got) == 2 and all(g[0] == w[0] and abs(g[1] - w[1]) < 1e-15 and abs(g[2] - w[2]) < 1e-15
    and abs(g[3] - w[3]) < 1e-12 and g[4] == w[4] for g, w in zip(got, want))
gm = [r for r in rows if r["kind"] == "geomean"]
ok = ok and len(gm) == 1 and gm[0]["delta"] == "-8.94%" and all(r["a_n"] == 10 for r in rows[:2])
print("ok" if ok else "rows %s, geomean %s" % (got, gm))'
for g in smallSample issue19565 issue19634; do
	DB=$T/$g.db
	cpl import -q "$FIX/$g.txt"
	expect_rc "import benchstat's testdata $g.txt" 0
	cpl compare --a note=before --b note=after --view benchstat --format json
	check_text "benchstat -col note $g.txt (main_test.go): the same text" "$FIX/$g.stdout"
done

# ---- two real go test outputs, against the peer ----
DB=$T/real.db
mkdir -p "$T/real"
cp "$REAL/old.txt" "$REAL/new.txt" "$T/real/"
cpl import -q "$T/real"
expect_rc "import two go test -bench -count 6 -cpu 1,2 -benchmem outputs" 0
cpl compare --a file=old.txt --b file=new.txt --view benchstat --format json
check_text "real outputs: one call gives every unit and GOMAXPROCS, as the peer prints them" \
	"$REAL/benchstat-peer.golden"
py_check "real outputs: 4 tables (sec/op, B/op, allocs/op, B/s), 28 rows, 4 geomean rows" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["benchstat"]["rows"]
units = []
for r in rows:
    if r["unit"] not in units:
        units.append(r["unit"])
b = [r for r in rows if r["kind"] == "benchmark"]
g = [r for r in rows if r["kind"] == "geomean"]
ok = units == ["sec/op", "B/op", "allocs/op", "B/s"] and len(b) == 28 and len(g) == 4
ok = ok and [r["name"] for r in b[:8]] == ["Join", "Join-2", "Sort/size=16", "Sort/size=16-2",
    "Sort/size=1024", "Sort/size=1024-2", "ParallelMap", "ParallelMap-2"]
ok = ok and d["facts"]["tables"]["value"] == 4 and all(r["a_n"] == 6 and r["b_n"] == 6 for r in b)
print("ok" if ok else "units %s, %d rows, %d geomeans" % (units, len(b), len(g)))'
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
