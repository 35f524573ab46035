#!/usr/bin/env bash
# tools_comparepy.sh: `compare --view comparepy` against Google Benchmark's
# tools/compare.py (issue 22.2's second view). compare.py needs scipy, which
# is not installed, so the peer is tests/e2e/comparepy_peer.py (the standard
# library: compare.py's pairing and layout, SciPy's mannwhitneyu rules with
# the exact distribution counted by enumerating every assignment). Checked:
# the view's text (fact comparepy_text) equals the peer's output on
# fixtures/tools/gbench-reps (6 vs 10 repetitions: the exact test), on a
# synthetic pair of 10 repetitions each with tied times (the normal
# approximation), and on a fresh pair made here with the installed
# libbenchmark; the JSON rows carry the same p values.
#
#   bash tests/e2e/tools_comparepy.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
source "$(dirname "$0")/lib.sh"
e2e_start tools-comparepy "$@"
PEER=$ROOT/tests/e2e/comparepy_peer.py

view_text() { python3 -c 'import json, sys; sys.stdout.write(json.load(open(sys.argv[1]))["facts"]["comparepy_text"]["value"])' "$T/.out"; }

check_pair() { # LABEL FOLDER (old.json, new.json)
	DB=$T/$1.db
	cpl import -q "$2"
	expect_rc "$1: import" 0
	cpl compare --a file=old.json --b file=new.json --view comparepy --format json
	expect_rc "$1: compare --view comparepy" 0
	python3 "$PEER" "$2/old.json" "$2/new.json" >"$T/peer.txt"
	if diff <(view_text) "$T/peer.txt" >"$T/diff"; then
		ok "$1: the view prints what compare.py's rules print"
	else
		not_ok "$1: the view prints what compare.py's rules print" "$(head -40 "$T/diff")"
	fi
	py_check "$1: the JSON pvalue rows carry the text's p values" '
import json, re, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["sections"]["comparepy"]["rows"] if r["row"] == "pvalue"]
text = [l for l in d["facts"]["comparepy_text"]["value"].splitlines() if "_pvalue" in l]
ok = len(rows) == len(text) and len(rows) > 0
for r, l in zip(rows, text):
    p = l.split()[1:3]
    ok = ok and "%.4f" % r["time_p"] == p[0] and "%.4f" % r["cpu_p"] == p[1]
print("ok" if ok else "rows %s, text %s" % (rows, text))'
}

mkdir -p "$T/reps"
cp "$ROOT/fixtures/tools/gbench-reps/old.json" "$ROOT/fixtures/tools/gbench-reps/new.json" "$T/reps/"
check_pair reps "$T/reps"

# 10 repetitions each, tied values: SciPy's normal approximation
mkdir -p "$T/ties"
python3 - "$T/ties" <<'PY'
import json, sys
def run(times):
    return {"context": {"num_cpus": 2}, "benchmarks": [
        {"name": "BM_X/8", "run_type": "iteration", "repetition_index": i, "threads": 1,
         "iterations": 100, "real_time": t, "cpu_time": t * 0.9, "time_unit": "ns"}
        for i, t in enumerate(times)]}
json.dump(run([100, 101, 101, 102, 103, 103, 104, 105, 105, 106]), open(sys.argv[1] + "/old.json", "w"))
json.dump(run([99, 99, 100, 100, 101, 102, 102, 103, 104, 104]), open(sys.argv[1] + "/new.json", "w"))
PY
check_pair ties "$T/ties"
py_check "ties: the U test is the normal approximation" '
import json, sys
d = json.load(open(sys.argv[1]))
print("ok" if [r["test"] for r in d["sections"]["comparepy"]["rows"] if r["row"] == "pvalue"] == ["normal"] else "test")'

cpl compare --a file=old.json --b file=nosuch.json --view comparepy
check_eq "an arm with no run is an error" 1 "$RC"
DB=$T/reps.db
cpl import -q "$ROOT/fixtures/tools/gobench"
# Go runs are not compare.py's: the view falls back to compare's compare.py
# rows on one metric (a row per benchmark and GOMAXPROCS with --by name);
# BenchmarkSum/size=1000 at GOMAXPROCS 1 reads a 415.3 766.0 799.6 against
# b 673.3 695.6 4242 (fixtures/tools/gobench): U_a = 4 of 9, and the exact
# 3-vs-3 distribution gives 2 P(U <= 4) = 2 x 10/20 = 1 by hand.
cpl compare --a file=old.txt --b file=new.txt --view comparepy --metric ns_per_op --by name --format tsv
check_eq "Go runs: --view comparepy gives compare's compare.py rows" 0 "$RC"
check_eq "Go runs: the size=1000 row's U test p (by hand: 1)" 1 \
	"$(tsvget level 'BenchmarkSum/size=1000, gomaxprocs=1' utest_p)"

# a fresh pair, made here
if command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ]; then
	if g++ -O2 "$ROOT/fixtures/tools/gbench/bm_sum.cc" -o "$T/bm" -lbenchmark -lpthread 2>"$T/cc.err"; then
		mkdir -p "$T/fresh"
		"$T/bm" --benchmark_repetitions=4 --benchmark_format=json >"$T/fresh/old.json" 2>/dev/null
		"$T/bm" --benchmark_repetitions=9 --benchmark_format=json >"$T/fresh/new.json" 2>/dev/null
		check_pair fresh "$T/fresh"
	else
		not_ok "the benchmark builds" "$(head -c 800 "$T/cc.err")"
	fi
else
	skip "a fresh Google Benchmark pair" "g++ or libbenchmark-dev is not installed"
fi

echo "# $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
