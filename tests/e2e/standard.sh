#!/usr/bin/env bash
# standard.sh: issue 25's "Done when", end to end on the real corpora, each
# figure against one computed independently and named beside its check
# (SciPy 1.10.1 values quoted from /usr/bin/python3 with python3-scipy;
# tests/stat_check.py, the t distribution in Python's standard library, for
# outputs made here; awk over the corpus files):
#   - same-verdict-cap, same-verdict-gmp: one step, the same runs, the same
#     verdict and p in noise, compare and the report (e2-medium pg 300 -> 500
#     sessions; GOMAXPROCS 4 -> 8);
#   - gogc: GOGC=800 against the default on RSS "uses 3.7x more memory"
#     (each GOMAXPROCS apart), and paired by GOMAXPROCS against GOGC=100 on
#     throughput 1.344x [1.287, 1.405] higher;
#   - memory-level: memory --by level on the capacity corpus (its results
#     table names the sessions `level`) is not refused as pooling, slopes
#     as SciPy's;
#   - gobench: compare --by name on a `go test -bench . -count 6 -cpu 1,2`
#     pair made here keeps each benchmark and GOMAXPROCS apart (skipped
#     without go);
#   - t-interval: the per-doubling factor's interval uses t with the fit's
#     1 degree of freedom (1.75-1.82, not 1.78-1.79);
#   - labels: a 1 -> 8 step on 4 physical cores is cores_and_smt_step, not an
#     SMT step; a hyperfine --parameter-scan level gets no speedup or
#     efficiency unless declared with --workers (skipped without hyperfine).
#
#   bash tests/e2e/standard.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.
# lib.sh: e2e_start (BIN, ROOT, SHARED, the corpora's paths GMP, CAP, ..., T, TIMEOUT)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_start standard "$@"
export PYTHONPATH=$ROOT/tests
DB=$T/sky.db

e2e_case setup
cpl import -q "$GMP" "$CAP"
expect_rc "import both sky corpora" 0

# noise, compare and the report of one corpus into $T/NAME-{noise,compare,report}.json
three_documents() { # NAME CORPUS NOISE-ARGS... -- COMPARE-ARGS...
	local name=$1 corpus=$2
	shift 2
	local -a noise=()
	while [ "$1" != -- ]; do noise+=("$1"); shift; done
	shift
	cpl noise --corpus "$corpus" "${noise[@]}" --format json
	expect_rc "$name: noise" 0
	cp "$T/.out" "$T/$name-noise.json"
	cpl compare --corpus "$corpus" "$@" --format json
	expect_rc "$name: compare" 0
	cp "$T/.out" "$T/$name-compare.json"
	cpl report --corpus "$corpus" --format json --out "$T/$name-report"
	expect_rc "$name: report" 0
	cp "$T/.out" "$T/$name-report.json"
}

e2e_case same-verdict-cap
# e2-medium pg, blocks 1-3, tput 300 sessions 269.094, 255.108, 261.493;
# 500 sessions 222.868, 245.188, 248.040 (results.tsv). SciPy:
# ttest_ind(ln b, ln a, equal_var=False).pvalue = 0.09282951823084204
# (the ranges are disjoint: the old range rule called it resolved)
three_documents cap "$CAP_NAME" --by sessions --group target,cfg --where block=1,2,3 -- \
	--where target=medium --where cfg=pg --where block=1,2,3 --a sessions=300 --b sessions=500
py_file "pg 300 -> 500: within-noise, Welch p 0.0928 (SciPy) in noise, compare and the report" \
	standard_same_verdict.py "$T/cap-noise.json" "$T/cap-compare.json" "$T/cap-report.json" \
	261.4928259356003 245.18763090586353 within-noise within-noise 0.09282951823084204

e2e_case same-verdict-gmp
# GOMAXPROCS 4 -> 8, blocks 1-3: 1534.04, 1538.80, 1553.49 -> 1796.20,
# 1792.77, 1808.62 (results.tsv). SciPy: ttest_ind(ln b, ln a,
# equal_var=False).pvalue = 1.3180546889345954e-05
three_documents gmp "$GMP_NAME" --by gomaxprocs --where block=1,2,3 -- \
	--where block=1,2,3 --a gomaxprocs=4 --b gomaxprocs=8
py_file "GOMAXPROCS 4 -> 8: resolved (compare: higher), Welch p 1.318e-05 (SciPy) in noise, compare and the report" \
	standard_same_verdict.py "$T/gmp-noise.json" "$T/gmp-compare.json" "$T/gmp-report.json" \
	1538.8011664466776 1796.1987044774646 resolved higher 1.3180546889345954e-05

e2e_case gogc
# SciPy over results.tsv, load_rss_kb, GOGC=default blocks 1-3 (3 runs)
# against GOGC=800 (1 run) at GOMAXPROCS 1, 4, 8: each level's ratio of
# geometric means 3.8816, 3.6374, 3.6076; their geometric mean
# 3.706884004025545, 95% interval over the levels (t, df 2)
# [3.355411913531988, 4.095172030558943]
cpl compare --corpus "$GMP_NAME" --by gomaxprocs --a gogc=default --b gogc=800 --metric load_rss_kb \
	--where block=1,2,3,gg800,gogc800 --where sessions=100 --format json
expect_rc "compare GOGC default vs 800 on RSS, --by gomaxprocs" 0
check_eq "GOGC=800 against the default on RSS: uses 3.7x more memory (SciPy 3.7069 [3.3554, 4.0952])" \
	"uses 3.7069x [3.3554, 4.0952] more memory" "$(jget 'd["facts"]["change"]["value"]')"
check_eq "... each GOMAXPROCS apart: 3 levels, no headline over pooled runs" "3 3.70688" \
	"$(jget '"%d %.5f" % (d["facts"]["levels"]["value"], d["facts"]["summary_ratio"]["value"])')"
# SciPy: ttest_rel(ln 800, ln 100) over GOMAXPROCS 1, 4, 8; ratio exp(mean
# ln difference) 1.3444001290698566 [1.2864906018059674, 1.4049163705555359]
# (t.ppf(0.975, 2)), p 0.001193475589112238; RSS 3.7048868896251226
# [3.36999990427992, 4.073052597860248], p 0.0002825516777302026
cpl compare --corpus "$GMP_NAME" --pair-by gomaxprocs --a gogc=100 --b gogc=800 --format json
check_eq "GOGC=800 against 100 paired by GOMAXPROCS on throughput: 1.344x [1.287, 1.405] higher (SciPy ttest_rel)" \
	"1.3444x [1.2865, 1.4049] higher 0.0011935" \
	"$(jget '"%s %.5g" % (d["facts"]["change"]["value"].split(" (")[0], d["sections"]["comparison"]["rows"][0]["t_p"])')"
cpl compare --corpus "$GMP_NAME" --pair-by gomaxprocs --a gogc=100 --b gogc=800 --metric load_rss_kb --format json
check_eq "... on RSS: uses 3.7049x [3.3700, 4.0731] more memory (SciPy ttest_rel), a memory kind, never 'faster'" \
	"uses 3.7049x [3.3700, 4.0731] more memory memory uses more" \
	"$(jget '" ".join((d["facts"]["change"]["value"].split(" (")[0], d["facts"]["metric_kind"]["value"], d["facts"]["verdict"]["value"]))')"

e2e_case memory-level
cpl memory --corpus "$CAP_NAME" --by level --group target,cfg --where block=1,2,3 --format tsv
expect_rc "memory --by level on the capacity corpus: not refused (sessions mirror level)" 0
py_file "memory --by level: slopes and t intervals as SciPy's linregress over system.tsv" standard_memory_slopes.py

e2e_case gobench
if e2e_skipping; then
	:
elif command -v go >/dev/null 2>&1; then
	M=$T/gomod
	mkdir -p "$M" "$T/gob"
	printf 'module example.com/tiny\n\ngo 1.19\n' >"$M/go.mod"
	cp "$ROOT/tests/e2e/standard_bench_test.go.in" "$M/tiny_test.go"
	gorun() { (cd "$M" && GOFLAGS=-mod=mod GOPROXY=off GOCACHE=$T/gocache HOME=$T \
		"${TIMEOUT[@]}" go test -bench . -count 6 -cpu 1,2 -benchtime 2000x) >"$1" 2>&1; }
	if gorun "$T/gob/old.txt" && TINY_NEW=1 gorun "$T/gob/new.txt"; then
		DB=$T/gob.db
		cpl import -q "$T/gob"
		expect_rc "import the go test -bench pair" 0
		cpl compare --a file=old.txt --b file=new.txt --by name --metric ns_per_op --format json
		expect_rc "compare --by name" 0
		py_file "compare --by name: each benchmark x GOMAXPROCS its own level, Welch on ln values as tests/stat_check.py" \
			standard_gobench_levels.py "$T/gob/old.txt" "$T/gob/new.txt"
		check_eq "compare --by name: 4 levels (2 benchmarks x GOMAXPROCS 1, 2), split by gomaxprocs" "4 gomaxprocs" \
			"$(jget '"%d %s" % (d["facts"]["levels"]["value"], d["facts"]["split_by"]["value"])')"
		DB=$T/sky.db
	else
		not_ok "go test -bench ran" "$(cat "$T/gob/old.txt" "$T/gob/new.txt" 2>/dev/null | tail -5)"
	fi
else
	skip "compare --by name on go test -bench output" "go is not installed"
fi

e2e_case t-interval
# SciPy: linregress(log2 [1, 2, 4], ln [484.1347, 865.4682, 1538.8012]) (the
# level medians, blocks 1-3): exp(slope) 1.7828227270947987, exp(slope -+
# t.ppf(0.975, 1) * stderr) = [1.747733829917444, 1.818616096935008]; the
# normal interval (1.96) would be 1.7774-1.7883
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --format json
check_eq "per doubling over physical cores 1.7828 [1.7477, 1.8186], t with 1 df (SciPy)" \
	"1.7828 1.7477 1.8186 1" \
	"$(jget '"%.4f %.4f %.4f %d" % tuple(d["facts"][k]["value"] for k in ("physical_per_doubling", "physical_per_doubling_lo", "physical_per_doubling_hi", "physical_per_doubling_df"))')"
cpl report --corpus "$GMP_NAME" --out "$T/gmp-md"
check_contains "the report's scaling finding: 1.78x per doubling (95% interval 1.75-1.82)" \
	"$(cat "$T/gmp-md/report.md" 2>/dev/null)" "1.78x per doubling (95% interval 1.75-1.82)"

e2e_case labels
# awk over results.tsv: block 7 (gctrace) has GOMAXPROCS 1 and 8 only, on
# e2-standard-8's 4 physical cores
want=$(awk -F'\t' '$1 == "g8-n100-b7-gct" { b = $13 } $1 == "g1-n100-b7-gct" { a = $13 } END { printf "%.6f", b / a }' "$GMP/results.tsv")
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=7 --format json
check_eq "a 1 -> 8 step on 4 physical cores: cores_and_smt_step $want (awk), no smt_step, said in the note" \
	"$want None smt unmeasured physical cores and SMT siblings together: no SMT step" \
	"$(jget '"%.6f %s %s %s" % ((d["facts"]["cores_and_smt_step_at_8"]["value"],) + tuple(d["sections"]["levels"]["rows"][-1][k] for k in ("smt_step", "core_kind", "note")))')"
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=7 --format tsv
check_eq "... the same in tsv: cores_and_smt_step, smt_step NA" "NA $want" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == 8 { printf "%s %.6f", $c["smt_step"], $c["cores_and_smt_step"] }' "$T/.out")"
if e2e_skipping; then
	:
elif command -v hyperfine >/dev/null 2>&1; then
	mkdir -p "$T/hf"
	if (cd "$T/hf" && "${TIMEOUT[@]}" hyperfine --style none --parameter-scan n 1 3 --runs 3 \
		--export-json scan.json 'sleep 0.0{n}' >/dev/null 2>&1); then
		DB=$T/hf.db
		cpl import -q "$T/hf/scan.json"
		cpl sweep --by n --metric time_s --format tsv
		check_eq "hyperfine --parameter-scan n: speedup, efficiency, per_doubling NA at every level (n is not known to count workers)" "NA" \
			"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ print $c["speedup"]; print $c["efficiency"]; print $c["per_doubling"] }' "$T/.out" | sort -u | tr '\n' ' ' | sed 's/ $//')"
		cpl sweep --by n --metric time_s --format json
		check_eq "... and the sweep says why: scaling not-applicable, the columns left out" \
			"not-applicable speedup,efficiency,per_doubling,per_unit,cpu_us_per_op" \
			"$(jget '"%s %s" % (d["facts"]["scaling"]["value"], d["facts"]["columns_left_out"]["value"])')"
		cpl sweep --by n --metric time_s --workers n --format tsv
		check_eq "... declared with --workers n: speedup = median(1) / median(3) for a time (awk)" ok \
			"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ m[$1] = $c["median"]; s[$1] = $c["speedup"] }
				END { w = m[1] / m[3]; d = s[3] - w; print ((d < 0 ? -d : d) <= 1e-9 * w) ? "ok" : "speedup " s[3] ", want " w }' "$T/.out")"
	else
		not_ok "hyperfine --parameter-scan ran" "exit $?"
	fi
else
	skip "hyperfine --parameter-scan labels" "hyperfine is not installed"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
