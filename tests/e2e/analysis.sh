#!/usr/bin/env bash
# End-to-end tests of the analysis commands (sweep, noise, compare) on the
# real sky corpora.
#
#   bash tests/e2e/analysis.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Imports gomaxprocs-scaling-20260816 and gcp-x86-capacity-20260816 into a
# database in a mktemp -d folder (removed on exit) and checks the figures
# the write-ups quote (speedups 1.79 / 3.18, ranges <= 3.3%, blocks within
# 2%, the 1.98x first-run burst, the ~2.7x soak), the verdicts, the JSON
# documents (noise levels, verdicts and bursts; compare's ratio, U, p,
# min_p, cv, Welch t and df, runs needed, as facts; compare's verdicts on
# the issue-13 cases: the three clear differences, a lock-contention-shaped
# null, --by, --pair-by and a metric with zeros), usage errors, the left-out list
# and the "no runs to analyse" message (what matched, what was left out).
# Expected figures are recomputed here from the corpus files with python3
# where that is cheap.
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
# shared helpers: e2e_start (BIN, ROOT, SHARED, the corpora's paths, T, DB,
# TIMEOUT), ok, not_ok, check_eq, check_contains, cpl, tsvget, tsvcol,
# expect_rc, py_file
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 analysis "$@"
# tests/stat_check.py: the t distribution in python's standard library (the
# Welch and paired t tests the checkers below recompute)
export PYTHONPATH=$ROOT/tests

###########################################################################
# import
###########################################################################
cpl_import_or_exit "import both sky corpora" -q "$GMP" "$CAP"

GMP_SEL=(--by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3)
# the soak block holds one level of small/pg: a block kind, pooled on purpose
# with the main blocks for the soak and burst views (docs/analysis.md, "No silent pooling")
CAP_SEL=(--by sessions --corpus "$CAP_NAME" --group target,cfg --where block=1,2,3,soak --pool block)

###########################################################################
# sweep
###########################################################################
echo "# sweep"
e2e_case sweep
cpl sweep "${GMP_SEL[@]}" --format tsv
expect_rc "sweep --by gomaxprocs --where block=1,2,3 --format tsv exits 0" 0
check_eq "sweep: levels 1 2 4 8" "1 2 4 8" "$(tsvcol level | tr '\n' ' ' | sed 's/ $//')" "$OUT"
check_eq "sweep: 3 runs at every level" "3 3 3 3" "$(tsvcol n | tr '\n' ' ' | sed 's/ $//')"
check_eq "sweep: speedup at 2 rounds to 1.79" "1.79" "$(printf '%.2f' "$(tsvget level 2 speedup)")"
check_eq "sweep: speedup at 4 rounds to 3.18" "3.18" "$(printf '%.2f' "$(tsvget level 4 speedup)")"
bad=$(tsvcol range_pct | awk '!($1 <= 3.3) { print }')
if [ -z "$bad" ] && [ "$(tsvcol range_pct | grep -c .)" -eq 4 ]; then
	ok "sweep: range_pct <= 3.3 at every level"
else
	not_ok "sweep: range_pct <= 3.3 at every level" "ranges: $(tsvcol range_pct | tr '\n' ' ')"
fi
# the stop rule on the untied sweep: the built-in profile ties the corpus to
# e2-standard-8 (level 8 = SMT siblings, not a stop), so the untied case is the
# same profile without its instance (lib.sh: untied_gmp_manifest), on its own
# database; the two checks keep their reference (stop at 8: 1.167 < 1.20).
MAIN_DB=$DB
DB=$T/untied.db
untied_gmp_manifest "$T/gmp-untied.manifest"
cpl import -q "$GMP" --manifest "$T/gmp-untied.manifest" --format tsv
check_eq "import --manifest (the profile untied): 29 runs, none tied" "29 0" \
	"$(tsvget name "$GMP_NAME" runs) $(tsvget name "$GMP_NAME" tied_runs)" "exit $RC; $ERR"
cpl sweep "${GMP_SEL[@]}" --format tsv
check_eq "sweep untied: note 'scaling stops' at level 8 only" "8" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "note") c = i; next }
		$c == "scaling stops" { print $1 }' "$T/.out")"
cpl sweep "${GMP_SEL[@]}" --format json
check_eq "sweep json untied: scaling stops at level 8" "stops 8" \
	"$(jget '"%s %g" % (d["facts"]["scaling"]["value"], d["facts"]["stop_level"]["value"])')"
DB=$MAIN_DB
cpl sweep "${GMP_SEL[@]}" --format json
check_eq "sweep json (tied to e2-standard-8): level 8 is SMT, scaling continues, no stop" "smt continues 0" \
	"$(jget '"%s %s %d" % (d["sections"]["levels"]["rows"][3]["core_kind"], d["facts"]["scaling"]["value"], "stop_level" in d["facts"])')"
cpl sweep "${GMP_SEL[@]}" --format tsv
if [ -n "$ERR" ]; then
	not_ok "sweep with block=1,2,3: nothing on stderr (results go to stdout)" "stderr:"$'\n'"$ERR"
else
	ok "sweep with block=1,2,3: nothing on stderr (results go to stdout)"
fi
cpl sweep "${GMP_SEL[@]}" --format json
# the whole-sweep fit recomputed in python: least squares of ln(median) on log2(level)
py_file "sweep json: whole-sweep per-doubling factor, SE and R2 match a python fit" analysis_sweep_whole_sweep_per_doubling.py
check_eq "sweep json: the whole-sweep factor rounds to 1.5697 (SE 0.1154)" "1.5697 0.1154" \
	"$(jget '"%.4f %.4f" % (d["facts"]["per_doubling"]["value"], d["facts"]["per_doubling_se"]["value"])')"
check_eq "sweep json: nothing left out with block=1,2,3" "0" "$(jget 'len(d["left_out"])')"

# the medians, speedups and per-doubling factors recomputed from results.tsv
cpl sweep "${GMP_SEL[@]}" --format tsv
py_file "sweep: median, range_pct, speedup, efficiency, per_doubling match results.tsv" analysis_sweep_median_range_pct_speedup.py "$GMP/results.tsv"

cpl sweep "${GMP_SEL[@]}" --stop-below 0.5 --format tsv
check_eq "sweep --stop-below 0.5: no level stops" "" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "note") c = i; next }
		$c == "scaling stops" { print $1 }' "$T/.out")" "exit $RC; $ERR"

cpl sweep "${GMP_SEL[@]}" --base 2 --format tsv
check_eq "sweep --base 2: speedup at 2 is 1" "1" "$(tsvget level 2 speedup)" "exit $RC; $ERR"
# 1538.8011664466776 / 865.4682448787189 = 1.7779984136359794
check_eq "sweep --base 2: speedup at 4 rounds to 1.778" "1.778" "$(printf '%.3f' "$(tsvget level 4 speedup)")"

cpl sweep "${GMP_SEL[@]}" --format json
expect_rc "sweep --format json exits 0" 0
py_file "sweep --format json parses: 4 rows with level and speedup" analysis_sweep_format_parses_4_rows.py

cpl sweep "${GMP_SEL[@]}"
expect_rc "sweep (md) exits 0" 0
check_contains "sweep (md): definitions pointer" "$OUT" "coreplan sweep --help"

# what applies to a metric and a level; zeros. Recomputed in python from results.tsv.
# (SWEEP_KIND_PY: tests/e2e/py/analysis_sweep_kind.py)
CAPSP=(--by sessions --corpus "$CAP_NAME" --where block=1,2,3 --where target=small --where cfg=pg)
cpl sweep "${CAPSP[@]}" --metric err --format json
expect_rc "sweep --metric err (e2-small pg) exits 0: a median of 0 is no error" 0
py_file "sweep --metric err json: median, range_abs, range_pct (missing at a 0 median) match python; scaling columns left out" \
	analysis_sweep_kind.py "$CAP/results.tsv" err level "speedup,efficiency,per_doubling,per_unit,cpu_us_per_op" \
	block=1,2,3 target=small cfg=pg
py_check "sweep --metric err json: the block filter matched blocks 1-3 only (9 runs)" \
	'import json, sys; d = json.load(open(sys.argv[1])); print("ok" if d["facts"]["runs"]["value"] == 9 else d["facts"]["runs"])'
check_eq "sweep --metric err: a fraction, lower is better, scaling not applicable" "fraction lower not-applicable" \
	"$(jget '"%s %s %s" % (d["facts"]["metric_kind"]["value"], d["facts"]["metric_direction"]["value"], d["facts"]["scaling"]["value"])')"
# over the whole corpus the targets and configurations differ: no silent pooling
# (README.md), so the refusal names them and not the median of 0; --pool pools them
cpl sweep --by sessions --corpus "$CAP_NAME" --where block=1,2,3 --metric err --format tsv
expect_rc "sweep --metric err over the whole capacity corpus refuses to pool targets and configurations" 2
check_contains "sweep --metric err over the whole corpus: the refusal names target and cfg" "$ERR" \
	"target (medium, small), cfg (mem, pg)"
cpl sweep --by sessions --corpus "$CAP_NAME" --where block=1,2,3 --metric err --pool target,cfg --format tsv
expect_rc "sweep --metric err over the whole capacity corpus, --pool target,cfg, exits 0" 0
cpl sweep "${CAPSP[@]}" --metric err
check_contains "sweep --metric err (md): says why range_pct is missing" "$OUT" \
	"with a median of 0: range_pct is left out there"
check_contains "sweep --metric err (md): says why speedup is left out" "$OUT" \
	"speedup, efficiency and per_doubling are left out: metric 'err' is of kind fraction"
if grep -q "| speedup" "$T/.out"; then
	not_ok "sweep --metric err (md): no speedup column" "$OUT"
else
	ok "sweep --metric err (md): no speedup column"
fi

# a session sweep: more load, not more workers
cpl sweep --by sessions --corpus "$CAP_NAME" --where block=1,2,3 --where target=medium --where cfg=pg --format json
py_file "sweep --by sessions json: per_unit kept, speedup/efficiency/per_doubling missing, as python" \
	analysis_sweep_kind.py "$CAP/results.tsv" tput level "speedup,efficiency,per_doubling" \
	block=1,2,3 target=medium cfg=pg
check_eq "sweep --by sessions: the levels table keeps its columns (speedup is null, not gone)" "True None" \
	"$(jget '"%s %s" % ("speedup" in [c["name"] for c in d["sections"]["levels"]["columns"]], d["sections"]["levels"]["rows"][1]["speedup"])')"
check_contains "sweep --by sessions: columns_left_out_why names the level" \
	"$(jget 'd["facts"]["columns_left_out_why"]["value"]')" "level field 'sessions' is not known to count threads"

# a latency over GOMAXPROCS: a time, lower is better, speedup = base / median
cpl sweep "${GMP_SEL[@]}" --metric p50_ms --format json
py_file "sweep --metric p50_ms json: speedup = base / median, per_doubling inverted, per_unit left out" \
	analysis_sweep_kind.py "$GMP/results.tsv" p50 gomaxprocs "per_unit,cpu_us_per_op" block=1,2,3

# an unknown metric name: its kind is assumed, and the document says so
cpl sweep "${GMP_SEL[@]}" --metric threads_idle
check_contains "sweep --metric threads_idle (md): the kind is assumed and said" "$OUT" \
	"metric 'threads_idle' has no known kind: assumed a rate"
cpl sweep "${GMP_SEL[@]}" --metric threads_idle --metric-kind count --format json
check_eq "sweep --metric-kind count: the kind given, no assumption" "count --metric-kind" \
	"$(jget '"%s %s" % (d["facts"]["metric_kind"]["value"], d["facts"]["metric_kind_from"]["value"])')"
cpl sweep "${GMP_SEL[@]}" --metric-kind speed
expect_rc "sweep --metric-kind speed (not a kind) exits 2" 2
check_contains "sweep --metric-kind speed: the message lists the kinds" "$ERR" \
	"rate, time, latency, memory, cpu, count, fraction, ratio"

###########################################################################
# noise
###########################################################################
echo "# noise"
e2e_case noise
cpl noise "${GMP_SEL[@]}" --view verdict --format tsv
expect_rc "noise --view verdict --format tsv exits 0" 0
check_eq "noise gomaxprocs: verdict resolved" "resolved" "$(tsvcol verdict)" "$OUT"
check_eq "noise gomaxprocs: counterbalanced yes" "yes" "$(tsvcol counterbalanced)" "$OUT"
check_eq "noise gomaxprocs: no bursts" "0" "$(tsvcol bursts)" "$OUT"

cpl noise "${GMP_SEL[@]}" --view cells --format tsv
expect_rc "noise --view cells --format tsv exits 0" 0
check_eq "noise cells: 12 cells (4 levels x 3 blocks)" "12" "$(tsvcol deviation_pct | grep -c .)"
bad=$(tsvcol deviation_pct | awk '{ d = $1 < 0 ? -$1 : $1 } !(d < 2) { print }')
if [ -z "$bad" ]; then
	ok "noise cells: every |deviation_pct| < 2"
else
	not_ok "noise cells: every |deviation_pct| < 2" "outside: $bad"$'\n'"$OUT"
fi
# (475.2284019761499 / 484.13466860190584 - 1) * 100 = -1.8396258734115545
check_eq "noise cells: the largest deviation is g1 block 1, -1.84%" "-1.84" \
	"$(awk -F'\t' 'NR > 1 && $2 == "1" && $3 == "1" { printf "%.2f", $6 }' "$T/.out")"

cpl noise "${GMP_SEL[@]}" --view order --format tsv
expect_rc "noise --view order exits 0" 0
check_eq "noise order: blocks 1,2,3 run 1,2,4,8 / 8,4,2,1 / 2,8,1,4" \
	"1:1,2,4,8 2:8,4,2,1 3:2,8,1,4" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "block") b = i; if ($i == "levels_in_order") l = i }; next }
		{ printf "%s%s:%s", (NR > 2 ? " " : ""), $b, $l }' "$T/.out")" "$OUT"

cpl noise "${GMP_SEL[@]}" --view steps --format tsv
expect_rc "noise --view steps exits 0" 0
check_eq "noise steps gomaxprocs: 1->2, 2->4, 4->8 all resolved" \
	"1:2:resolved 2:4:resolved 4:8:resolved" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "from") a = i; if ($i == "to") b = i; if ($i == "verdict") v = i }; next }
		{ printf "%s%s:%s:%s", (NR > 2 ? " " : ""), $a, $b, $v }' "$T/.out")" "$OUT"
cpl noise "${GMP_SEL[@]}" --range-pct 3
expect_rc "noise --range-pct (the old fixed range rule) is an unknown option: exit 2" 2

cpl noise "${CAP_SEL[@]}" --view bursts --format tsv
expect_rc "noise --by sessions --group target,cfg --view bursts exits 0" 0
check_eq "noise bursts: small-mem-n100-b1r1 is a burst" "burst" \
	"$(tsvget tag small-mem-n100-b1r1 burst)" "$OUT"
check_between "noise bursts: small-mem-n100-b1r1 ratio is about 2 (1.9-2.1)" \
	"$(tsvget tag small-mem-n100-b1r1 ratio)" 1.9 2.1 "$OUT"
check_eq "noise bursts: it is the only burst" "small-mem-n100-b1r1" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "burst") b = i; if ($i == "tag") t = i }; next }
		$b == "burst" { print $t }' "$T/.out")"

cpl noise "${CAP_SEL[@]}" --view bursts --burst-factor 2 --format tsv
check_eq "noise --burst-factor 2: 1.98 is not a burst" "no" \
	"$(tsvget tag small-mem-n100-b1r1 burst)" "exit $RC; $ERR"

cpl noise "${CAP_SEL[@]}" --view soaks --format tsv
expect_rc "noise --view soaks exits 0" 0
check_eq "noise soaks: one soak, first run small-pg-n300-bsoakr1" "small-pg-n300-bsoakr1" \
	"$(tsvcol first_tag)" "$OUT"
check_between "noise soaks: soak ratio is about 2.7 (2.6-2.8)" \
	"$(tsvget first_tag small-pg-n300-bsoakr1 ratio)" 2.6 2.8 "$OUT"
# python3: 183.50754720511367 / statistics.median(r2..r8 tput) = 2.67275559576317
py_file "noise soaks: ratio and sustained median match json/<tag>.json" analysis_noise_soaks_ratio_sustained_median.py "$CAP"

for view in levels steps cells drift order bursts soaks verdict; do
	cpl noise "${CAP_SEL[@]}" --view "$view" --format json
	res=$(python3 "$E2E_PY_DIR/analysis_noise_view_rows.py" "$T/.out" "$view" 2>&1)
	if [ "$RC" -eq 0 ] && [[ "$res" =~ ^[1-9][0-9]*" $view"$ ]]; then
		ok "noise --view $view --format json parses (${res%% *} rows, only that section)"
	else
		not_ok "noise --view $view --format json parses" "exit $RC; python: $res"$'\n'"$ERR"
	fi
done

cpl noise "${CAP_SEL[@]}" --format tsv
check_eq "noise --format tsv without --view: the levels table (new columns at the end)" \
	"group	verdict	level	n	median	min	max	range_pct	max_block_dev_pct	range_abs	max_block_dev_abs" \
	"$(head -n 1 "$T/.out")"

# the steps, levels, verdicts and bursts recomputed in python from
# results.tsv and json/<tag>.json (started_at orders the runs): a step
# between neighbouring levels is resolved when Welch's t (on ln values; on
# values when a value is 0) gives p < 0.05 (tests/stat_check.py, the t
# distribution in the standard library), unreplicated when a level has one
# run; its ranges_disjoint is the range rule (|median difference| > the
# spreads facing each other), evidence only; a level takes the worst of its
# steps; a first run >= 1.5x the median of its level's later runs is a burst
# (NOISE_PY: tests/e2e/py/analysis_noise.py)
cpl noise "${CAP_SEL[@]}" --format json
py_file "noise json (blocks 1-3 and soak): steps, levels, verdicts, bursts and facts match python over results.tsv" \
	analysis_noise.py "$CAP" tput 1,2,3,soak
check_eq "noise json capacity: within-noise, one burst, not counterbalanced" "within-noise 1 False" \
	"$(jget '"%s %d %s" % (d["facts"]["verdict"]["value"], d["facts"]["bursts"]["value"], d["facts"]["counterbalanced"]["value"])')"
CAP3=(--by sessions --corpus "$CAP_NAME" --group target,cfg --where block=1,2,3)
cpl noise "${CAP3[@]}" --format json
py_file "noise json (blocks 1-3): steps, levels, verdicts and facts match python over results.tsv" \
	analysis_noise.py "$CAP" tput 1,2,3
# issue 25: the 300 -> 500 step has disjoint ranges, but Welch p = 0.0928
# (python3 tests/stat_check.py welch-ln): within noise, as compare says
check_eq "noise capacity: e2-medium pg resolves 100 -> 300 (Welch p 0.0139), not 300 -> 500 (p 0.0928)" \
	"within-noise 100→300 300→500" \
	"$(jget '" ".join(next((r["verdict"], r["steps_resolved"], r["steps_within_noise"]) for r in d["sections"]["verdict"]["rows"] if r["group"] == "target=medium, cfg=pg"))')"
check_eq "noise capacity: e2-medium mem, both steps within noise" \
	"within-noise 100→300, 300→500" \
	"$(jget '" ".join(next((r["verdict"], r["steps_within_noise"]) for r in d["sections"]["verdict"]["rows"] if r["group"] == "target=medium, cfg=mem"))')"
check_contains "noise capacity: the verdict_steps fact names the resolved steps" \
	"$(jget 'd["facts"]["verdict_steps"]["value"]')" "target=medium, cfg=pg: resolved: 100→300; within-noise: 300→500"

# the order of each factor recomputed in python from json/<tag>.json:
# started_at and the measured window (duration), first run of each value
# per block; runs whose windows overlap share a position
# (ORDER_PY: tests/e2e/py/analysis_order.py)
py_file "noise json capacity: each factor's order and counterbalancing match python over the json start times" \
	analysis_order.py "$CAP"
check_eq "noise capacity: sessions not counterbalanced, target simultaneous, cfg counterbalanced (ABA)" \
	"no simultaneous yes False" \
	"$(jget '" ".join(str(d["facts"][k]["value"]) for k in ("counterbalanced_sessions", "counterbalanced_target", "counterbalanced_cfg", "counterbalanced"))')"
check_eq "noise capacity: cfg ran mem,pg / pg,mem / mem,pg on e2-medium" "mem,pg pg,mem mem,pg" \
	"$(jget '" ".join(r["levels_in_order"] for r in d["sections"]["order"]["rows"] if r["factor"] == "cfg" and r["group"] == "target=medium")')"

# GOMAXPROCS: the level order from runs/<tag>/load.json, in python
cpl noise "${GMP_SEL[@]}" --format json
py_file "noise json gomaxprocs: level orders 1,2,4,8 / 8,4,2,1 / 2,8,1,4 from load.json, counterbalanced" analysis_noise_gomaxprocs_level_orders_1.py "$GMP"

# single-run levels: the GOGC arms at GOMAXPROCS 1 and 4 (blocks gg100, gg800)
cpl noise --by gomaxprocs --corpus "$GMP_NAME" --group gogc --where block=gg100,gg800 --format json
check_eq "noise GOGC arms: every step and level unreplicated, verdict unreplicated" \
	"unreplicated unreplicated,unreplicated unreplicated,unreplicated,unreplicated,unreplicated" \
	"$(jget '"%s %s %s" % (d["facts"]["verdict"]["value"], ",".join(r["verdict"] for r in d["sections"]["steps"]["rows"]), ",".join(r["verdict"] for r in d["sections"]["levels"]["rows"]))')" \
	"exit $RC; $ERR"

# err: mostly 0 on e2-medium; absolute ranges, never an error
cpl noise "${CAP3[@]}" --metric err --format json
expect_rc "noise --metric err exits 0" 0
py_file "noise --metric err json: steps, levels (range_abs; range_pct missing at a 0 median), verdicts match python" \
	analysis_noise.py "$CAP" err 1,2,3
check_eq "noise --metric err: a fraction, lower is better; 9 levels with a 0 median" "fraction lower 9" \
	"$(jget '"%s %s %d" % (d["facts"]["metric_kind"]["value"], d["facts"]["metric_direction"]["value"], d["facts"]["zero_median_levels"]["value"])')"

cpl noise "${GMP_SEL[@]}" --format json
check_eq "noise json gomaxprocs: verdict resolved, counterbalanced, 0 bursts, 12 runs, 1 group" \
	"resolved True 0 12 1" \
	"$(jget '" ".join(str(d["facts"][k]["value"]) for k in ("verdict", "counterbalanced", "bursts", "runs", "groups"))')"
check_eq "noise json gomaxprocs: no soak (the table is there, empty)" "0" \
	"$(jget 'len(d["sections"]["soaks"]["rows"])')"

cpl noise "${GMP_SEL[@]}"
expect_rc "noise (md, every table) exits 0" 0
check_contains "noise (md): verdict section" "$OUT" "### Verdict"
check_eq "noise (md): sections verdict, steps, levels, cells, drift, order, bursts, soaks" \
	"Verdict|Steps between neighbouring levels|Levels|Blocks at each level|Block drift|Run order|First-run bursts|Soaks (repeated runs of one cell)|" \
	"$(sed -n 's/^### //p' "$T/.out" | tr '\n' '|')"
check_contains "noise (md): the empty soak table says why" "$OUT" \
	"none: no level has 3 or more runs in one block"
check_contains "noise (md): the thresholds" "$OUT" "thresholds: burst factor 1.50x, drift 1.00%"
check_contains "noise (md): the step rule is said" "$OUT" \
	"is resolved when Welch's t on the ln values of their runs gives p &lt; alpha"

###########################################################################
# compare
###########################################################################
echo "# compare"
e2e_case compare
# Welch p-values below are SciPy 1.10.1's (scipy.stats.ttest_ind(ln b, ln a,
# equal_var=False), ttest_rel) on the corpus files, copied in; the rest is
# recomputed here with python3's standard library.
CMP=(compare --corpus "$GMP_NAME" --where block=1,2,3 --a gomaxprocs=1 --b gomaxprocs=2)
cpl "${CMP[@]}" --format tsv
expect_rc "compare 3 vs 3 exits 0" 0
check_eq "compare 3 vs 3: one comparison row (the default view)" "1" "$(($(wc -l <"$T/.out") - 1))" "$OUT"
check_eq "compare 3 vs 3: higher (a rate; Welch on ln values decides)" "higher welch yes" \
	"$(tsvget design unpaired verdict) $(tsvget design unpaired test) $(tsvget design unpaired ranges_disjoint)" "$OUT"
check_eq "compare 3 vs 3: min_p = 2 / C(6, 3) = 0.1" "0.1" "$(tsvget design unpaired min_p)"
check_eq "compare 3 vs 3: n 3 and 3" "3 3" "$(tsvget design unpaired a_n) $(tsvget design unpaired b_n)"
cpl "${CMP[@]}" --format tsv --view arms
check_eq "compare --view arms: arm b's row holds the verdict and min_p" "higher 0.1" \
	"$(tsvget arm b verdict) $(tsvget arm b min_p)" "$OUT"

cpl "${CMP[@]}" --format json
expect_rc "compare --format json exits 0" 0
py_file "compare --format json parses: arms a and b, one comparison row, verdict higher" analysis_compare_format_parses_arms_b.py
# the facts recomputed in python from results.tsv: ratio of medians, U_a,
# the exact p and min_p, the pooled cv, Welch t and df on ln values, the
# ratio of geometric means, the medians' effect, and the runs needed
# (pooled sd of ln, sized for the effect of the geometric means)
# (COMPARE_PY: tests/e2e/py/analysis_compare.py)
py_file "compare json: ratio, U, p, min_p, cv, Welch t and df, effect, runs needed match python" \
	analysis_compare.py "$GMP/results.tsv" 1 2
check_contains "compare json: the reason names Welch, the p and alpha" \
	"$(jget 'd["facts"]["reason"]["value"]')" "Welch t on ln values: p = 2.79e-06 < alpha 0.05"
cpl compare --corpus "$GMP_NAME" --where block=1,2,3 --a gomaxprocs=2 --b gomaxprocs=4 --format json
py_file "compare 2 vs 4 json: the facts match python" analysis_compare.py "$GMP/results.tsv" 2 4
check_eq "compare json: the table's b row holds the ratio fact" \
	"$(jget 'd["facts"]["ratio"]["value"]')" "$(jget 'd["sections"]["arms"]["rows"][1]["ratio"]')"
check_eq "compare json: the comparison row holds the Welch p fact" \
	"$(jget 'd["facts"]["welch_p"]["value"]')" "$(jget 'd["sections"]["comparison"]["rows"][0]["t_p"]')"

# the issue's three clear cases (SciPy 1.10.1 on the corpus files)
CAP_PG300=(compare --corpus "$CAP_NAME" --where cfg=pg --where sessions=300 --where block=1,2,3
	--a target=small --b target=medium)
cpl "${CAP_PG300[@]}" --format json
py_file "compare e2-small vs e2-medium (pg, 300 sessions): 4.0655x, Welch t 21.6625 df 2.2304 p 0.00122471, higher" analysis_compare_e2_small_vs_e2.py "$CAP/results.tsv"
cpl compare --corpus "$CAP_NAME" --a subcorpus=core --b 'target=medium cfg=mem sessions=100 block=1,2,3' --format json
py_file "compare x86 core vs e2-medium (memory, 100 sessions): 1.1526x [1.0762, 1.2550], Welch p 0.0370, higher" analysis_compare_x86_core_vs_e2.py

# the affinity table and a table shaped like the lock-contention A/B, in their own database
MAIN_DB=$DB
DB=$T/ab.db
printf 'tag\tvariant\trep\tqps\nc1\tcontrol\t1\t2500\nt1\ttreatment\t1\t2300\nc2\tcontrol\t2\t2726\nt2\ttreatment\t2\t2733\nc3\tcontrol\t3\t3100\nt3\ttreatment\t3\t3151\n' \
	>"$T/lock-ab.tsv"
cpl import -q "$SHARED/writeups/gomaxprocs-affinity/runs.tsv" "$T/lock-ab.tsv"
expect_rc "import the affinity table and the lock-contention-shaped A/B" 0
cpl compare --corpus runs --a 'arm=shard procs=1' --b 'arm=shard procs=8' --format json
py_file "compare affinity 8 processes vs 1: 1.3272x, Welch t 39.7635 df 3.77352 p 4.32502e-06, higher" analysis_compare_affinity_8_processes_vs.py "exit $RC; $ERR"
cpl compare --corpus lock-ab --metric qps --a variant=control --b variant=treatment --effect-bound 4.7 --format json
# by hand: spreads 3100 / 2500 - 1 = 24%, 3151 / 2300 - 1 = 37%; runs needed per arm
# ceil(2 * 2.801585218112968^2 * (0.1352177664755961 / ln 1.047)^2) = ceil(136.06) = 137
py_file "compare lock-contention-shaped A/B (3 vs 3, spreads 24% and 37%, bound 4.7%): within-noise, 137 runs per arm" analysis_compare_lock_contention_shaped_b.py "exit $RC; $ERR"
DB=$MAIN_DB

# --by: compare within each level, each keeping its verdict (the GOGC arms,
# one run per arm per level); the summary: the count, and the geometric
# mean with the t interval over the levels (tests/stat_check.py's paired t)
cpl compare --corpus "$GMP_NAME" --by gomaxprocs --a gogc=100 --b gogc=800 --format json
py_file "compare --by gomaxprocs (GOGC 100 vs 800): each level's gain, the count and their geometric mean from results.tsv" analysis_compare_gomaxprocs_gogc_100_vs.py "$GMP/results.tsv"
check_contains "compare --by (GOGC 800 against 100 on throughput): the issue's 1.344x [1.287, 1.405] higher (4 decimals)" \
	"$(jget 'd["facts"]["change"]["value"]')" "1.3444x [1.2865, 1.4049] higher"
cpl compare --corpus "$GMP_NAME" --by gomaxprocs --a gogc=100 --b gogc=400 --format json
check_eq "compare --by: runs of a level only one arm has are left out, with the reason" \
	"g1-n100-bgg100-gogc100: no run of arm b has gomaxprocs=1 (--by)" \
	"$(jget '[x["tag"] + ": " + x["reason"] for x in d["left_out"] if x["tag"].startswith("g1-")][0]')" "exit $RC; $ERR"
cpl compare --corpus "$CAP_NAME" --by sessions --where cfg=pg --where block=1,2,3 --a target=small --b target=medium --format json
# each level's Welch on ln values (tests/stat_check.py) from results.tsv; the
# summary's interval from the levels' own standard errors (equal weights,
# Welch-Satterthwaite df)
py_file "compare --by sessions (capacity, pg): 3 of 3 higher, geometric mean 3.7871 [3.4932, 4.1058] from the levels' own se" analysis_compare_sessions_capacity_pg_3.py "$CAP/results.tsv"

# --pair-by: paired methods (SciPy ttest_rel on ln values, paired by block)
cpl compare --corpus "$CAP_NAME" --pair-by block --where cfg=pg --where sessions=300 --a target=small --b target=medium --format json
py_file "compare --pair-by block (capacity, pg, 300): paired t 23.6778 df 2 p 0.00177893, 3 pairs, soak runs left out" analysis_compare_pair_block_capacity_pg.py "exit $RC; $ERR"
cpl compare --corpus "$GMP_NAME" --pair-by gomaxprocs --a gogc=100 --b gogc=800 --format json
check_eq "compare --pair-by gomaxprocs (GOGC 100 vs 800): higher, paired t p 0.00119 (SciPy 0.001193475589112227)" \
	"higher 0.00119" "$(jget '"%s %.3g" % (d["facts"]["verdict"]["value"], d["facts"]["paired_p"]["value"])')" "exit $RC; $ERR"
# issue 25: on throughput 1.344x [1.287, 1.405] higher; on RSS it uses 3.7x
# more memory (python3 tests/stat_check.py paired-ln over results.tsv:
# 1.3444001290698557 [1.2864906018080977, 1.4049163705532079];
# 3.7048868896251244 [3.3699999042919306, 4.0730525978457353])
check_contains "compare --pair-by gomaxprocs (GOGC 800 against 100, throughput): 1.344x [1.287, 1.405] higher" \
	"$(jget 'd["facts"]["change"]["value"]')" "1.3444x [1.2865, 1.4049] higher"
cpl compare --corpus "$GMP_NAME" --pair-by gomaxprocs --a gogc=100 --b gogc=800 --metric load_rss_kb --format json
check_eq "compare --pair-by gomaxprocs --metric load_rss_kb (GOGC 800 against 100): memory, lower is better, uses more" \
	"memory True uses more worse" \
	"$(jget '" ".join(str(d["facts"][k]["value"]) for k in ("metric_kind", "lower_is_better", "verdict", "effect"))')" "exit $RC; $ERR"
check_contains "compare --metric load_rss_kb (GOGC 800 against 100): uses 3.7x more memory" \
	"$(jget 'd["facts"]["change"]["value"]')" "uses 3.7049x [3.3700, 4.0731] more memory"
cpl compare --corpus "$GMP_NAME" --by gomaxprocs --pair-by block --a gogc=100 --b gogc=800
expect_rc "compare --by with --pair-by exits 2" 2

# metrics with zeros: the error rate (lower is better), compared on differences
cpl "${CAP_PG300[@]}" --metric err --format json
expect_rc "compare --metric err exits 0" 0
py_file "compare --metric err: absolute scale, no ratio, differences of medians from results.tsv, lower is better" analysis_compare_metric_err_absolute_scale.py "$CAP/results.tsv"

# lower is better by the metric name (*_ms, err), unless told otherwise
cpl "${CMP[@]}" --metric p99_ms --format json
check_eq "compare --metric p99_ms: lower is better (by name)" "True" \
	"$(jget 'd["facts"]["lower_is_better"]["value"]')" "exit $RC; $ERR"
cpl "${CMP[@]}" --metric p99_ms --higher-is-better --format json
check_eq "compare --metric p99_ms --higher-is-better: higher is better" "False" \
	"$(jget 'd["facts"]["lower_is_better"]["value"]')" "exit $RC; $ERR"
cpl "${CMP[@]}" --lower-is-better --format json
check_eq "compare --lower-is-better (tput): lower is better; b is higher, and that is worse" "True higher worse" \
	"$(jget '"%s %s %s" % (d["facts"]["lower_is_better"]["value"], d["facts"]["verdict"]["value"], d["facts"]["effect"]["value"])')" "exit $RC; $ERR"

# an unpaired arm whose runs differ in a field nobody declared is refused
cpl compare --corpus "$GMP_NAME" --a gomaxprocs=1 --b gomaxprocs=8 --format json
expect_rc "compare over every run: arm a pools GOGC and session arms: exit 2" 2
check_contains "compare over every run: the refusal names the fields and --by" "$ERR" \
	"compare (arm a) would pool runs that differ: gogc (default, 100, 800), sessions (100, 400)"
# the runs left out of the arms: in the document, not on stderr (pooled on purpose)
cpl compare --corpus "$GMP_NAME" --pool gogc,sessions --a gomaxprocs=1 --b gomaxprocs=8 --format json
check_eq "compare over every run: the trial and profile runs of both arms left out, each once" \
	"g1-n100-b0-trial g8-n100-b0-trial prof-g1-n100 prof-g8-n100" \
	"$(jget '" ".join(sorted(x["tag"] for x in d["left_out"]))')"
check_eq "compare over every run: runs_left_out fact 4" "4" "$(jget 'd["facts"]["runs_left_out"]["value"]')"
check_eq "compare --format json: nothing on stderr" "" "$ERR"
cpl compare --corpus "$GMP_NAME" --a "gomaxprocs=1 block=0-trial,1" --b "gomaxprocs=1 block=0-trial,2" --format json
check_eq "compare with overlapping arms: a run left out of both is listed once" "g1-n100-b0-trial" \
	"$(jget '" ".join(x["tag"] for x in d["left_out"])')" "exit $RC; $ERR"
check_contains "compare with one run per arm: unreplicated, no interval, saying why" \
	"$(jget '"%s %s %s" % (d["facts"]["verdict"]["value"], d["facts"]["ratio_lo"]["value"], d["facts"]["reason"]["value"])')" \
	"unreplicated None one run in arm a and in arm b: no within-side spread"

cpl "${CMP[@]}"
expect_rc "compare (md) exits 0" 0
check_contains "compare (md): the verdict note" "$OUT" "- verdict: higher (Welch t on ln values: p = 2.79e-06"
check_contains "compare (md): the method note" "$OUT" \
	"bootstrap 95% interval ["
check_contains "compare (md): the Welch note" "$OUT" "- Welch t on ln values: t = 51.25, df = 3.6, p = 2.79e-06"
cpl compare --help
check_contains "compare --help documents the verdict rule" "$OUT" "higher/lower, faster/slower, uses more/uses less   the test's p < alpha;"

cpl "${CMP[@]}" --format tsv --seed 5
first=$OUT
cpl "${CMP[@]}" --format tsv --seed 5
check_eq "compare: same --seed, same output" "$first" "$OUT"

# 7 runs at GOMAXPROCS=1 against 9 at 8 (every listed run, GOGC and session
# arms pooled on purpose): the effect (about 3.6x) dwarfs the spreads, and a
# 4.7% bound does not undo a difference the data resolve; the spread / bound
# factors are reported
cpl compare --corpus "$GMP_NAME" --pool gogc,sessions --a gomaxprocs=1 --b gomaxprocs=8 --format tsv
check_eq "compare 7 vs 9 runs: higher" "higher" "$(tsvget design unpaired verdict)" "exit $RC; $ERR"
cpl compare --corpus "$GMP_NAME" --pool gogc,sessions --a gomaxprocs=1 --b gomaxprocs=8 --effect-bound 4.7 --format tsv --view arms
check_eq "compare 7 vs 9 runs --effect-bound 4.7: still higher" "higher" \
	"$(tsvget arm b verdict)" "exit $RC; $ERR"
check_eq "compare --effect-bound 4.7: spread / bound of each arm (python: (max / min - 1) * 100 / 4.7)" \
	"$(python3 "$E2E_PY_DIR/analysis_compare_effect_bound_4_7.py" "$GMP/results.tsv" | tr '\n' ' ')" \
	"$(printf '%.6f %.6f ' "$(tsvget arm a spread_over_bound)" "$(tsvget arm b spread_over_bound)")"

###########################################################################
# usage errors and clear messages
###########################################################################
echo "# errors"
e2e_case errors
cpl sweep --corpus "$GMP_NAME"
expect_rc "sweep without --by exits 2" 2
check_contains "sweep without --by: message" "$ERR" "--by"
cpl noise --corpus "$GMP_NAME"
expect_rc "noise without --by exits 2" 2
cpl noise "${GMP_SEL[@]}" --view nope
expect_rc "noise --view nope exits 2" 2
check_contains "noise --view nope: message names the view" "$ERR" "'nope'"
cpl sweep --by nosuchfield --corpus "$GMP_NAME"
expect_rc "sweep --by nosuchfield exits 2" 2
check_contains "sweep --by nosuchfield: message names the field" "$ERR" "'nosuchfield'"
cpl noise --by nosuchfield --corpus "$GMP_NAME"
expect_rc "noise --by nosuchfield exits 2" 2
check_contains "noise --by nosuchfield: message names the field" "$ERR" "'nosuchfield'"
cpl noise "${GMP_SEL[@]}" --group nosuchgroup
expect_rc "noise --group nosuchgroup exits 2" 2
check_contains "noise --group nosuchgroup: message names the field" "$ERR" "'nosuchgroup'"
cpl compare --corpus "$GMP_NAME" --a gomaxprocs=1
expect_rc "compare without --b exits 2" 2
cpl compare --corpus "$GMP_NAME" --a nosuchfield=1 --b gomaxprocs=2
expect_rc "compare --a nosuchfield=1 exits 2" 2
check_contains "compare --a nosuchfield=1: message names the field" "$ERR" "'nosuchfield'"
cpl sweep "${GMP_SEL[@]}" --base 3
expect_rc "sweep --base 3 (not a level) exits 2" 2
check_contains "sweep --base 3: message" "$ERR" "--base 3"
cpl sweep --by tag --corpus "$GMP_NAME" --where block=1
expect_rc "sweep --by tag (not numeric) exits 1" 1
check_contains "sweep --by tag: message says levels must be numbers" "$ERR" "not a number"

cpl sweep --by gomaxprocs --corpus "$GMP_NAME" --where block=42
expect_rc "sweep on an empty selection exits 1" 1
check_contains "sweep on an empty selection: message" "$ERR" "no runs to analyse"
if [ -n "$OUT" ]; then
	not_ok "sweep on an empty selection: nothing on stdout" "stdout:"$'\n'"$OUT"
else
	ok "sweep on an empty selection: nothing on stdout"
fi
cpl noise --by gomaxprocs --corpus "$GMP_NAME" --where block=42
expect_rc "noise on an empty selection exits 1" 1
cpl compare --corpus "$GMP_NAME" --where block=42 --a gomaxprocs=1 --b gomaxprocs=2
expect_rc "compare on empty arms exits 1" 1
check_contains "compare on empty arms: message names the arm" "$ERR" "arm a"

###########################################################################
# the left-out list
###########################################################################
echo "# left out"
e2e_case left-out
# every run of the corpus: its GOGC arms, session counts and block kinds
# pooled on purpose (without --pool the sweep refuses: "# pooling" below);
# with the excluded runs, whose results rows are missing, also store and variant
POOL_ALL=(--pool gogc,sessions,block)
POOL_EXCL=(--pool store,gogc,variant,sessions,block)
cpl sweep --by gomaxprocs --corpus "$GMP_NAME" "${POOL_ALL[@]}" --format json
expect_rc "sweep over every gomaxprocs run exits 0" 0
for tag in g1-n100-b0-trial g8-n100-b0-trial; do
	check_contains "sweep without a block filter: left out names $tag as unlisted" \
		"$(jget '[x["reason"] for x in d["left_out"] if x["tag"] == "'$tag'"]')" "unlisted"
done
check_eq "sweep without a block filter: 5 runs left out" "5" "$(jget 'len(d["left_out"])')"
check_eq "sweep without a block filter: 7 runs at level 1" "7" \
	"$(jget '[r["n"] for r in d["sections"]["levels"]["rows"] if r["level"] == 1][0]')"

cpl sweep --by gomaxprocs --corpus "$GMP_NAME" "${POOL_ALL[@]}"
check_contains "sweep (md): the left-out section on stdout names the trial run" "$OUT" \
	"g1-n100-b0-trial: unlisted"

cpl sweep --by gomaxprocs --corpus "$GMP_NAME" --where block=0-trial,1,2,3 --format json
check_contains "sweep --where block=0-trial,1,2,3: left out names g8-n100-b0-trial" \
	"$(jget '[x["tag"] + ": " + x["reason"] for x in d["left_out"]]')" "g8-n100-b0-trial: unlisted"
check_eq "sweep --where block=0-trial,1,2,3: still 3 runs at level 1" "3" \
	"$(jget '[r["n"] for r in d["sections"]["levels"]["rows"] if r["level"] == 1][0]')"

cpl sweep --by gomaxprocs --corpus "$GMP_NAME" --include-excluded "${POOL_EXCL[@]}" --format json
check_eq "sweep --include-excluded: the trial runs are not left out" "[]" \
	"$(jget '[x["tag"] for x in d["left_out"] if "b0-trial" in x["tag"]]')"
cpl sweep --by gomaxprocs --corpus "$GMP_NAME" --include-excluded "${POOL_EXCL[@]}" --format tsv
# level 1: 7 listed + g1-n100-b0-trial + prof-g1-n100
check_eq "sweep --include-excluded: 9 runs at level 1" "9" "$(tsvget level 1 n)"

# only excluded runs selected: exit 1; the message says how many matched
# and names the first left out with its reason
cpl sweep --by gomaxprocs --corpus "$GMP_NAME" --where block=0-trial --format tsv
expect_rc "sweep --where block=0-trial (only excluded runs) exits 1" 1
check_contains "sweep --where block=0-trial: message points at --include-excluded" "$ERR" \
	"--include-excluded"
check_contains "sweep --where block=0-trial: message says 2 runs matched and were left out" "$ERR" \
	"no runs to analyse (2 runs matched but were left out, e.g. 'g1-n100-b0-trial': unlisted"
check_eq "sweep --where block=0-trial: nothing on stdout" "" "$OUT"
for cmd in "noise --by gomaxprocs" "fit --by gomaxprocs"; do
	read -ra words <<<"$cmd"
	cpl "${words[@]}" --corpus "$GMP_NAME" --where block=0-trial --format tsv
	expect_rc "$cmd --where block=0-trial exits 1" 1
	check_contains "$cmd --where block=0-trial: message names the left-out runs" "$ERR" \
		"no runs to analyse (2 runs matched but were left out, e.g. 'g1-n100-b0-trial': unlisted"
done
cpl compare --corpus "$GMP_NAME" --where block=0-trial --a gomaxprocs=8 --b gomaxprocs=1 --format tsv
expect_rc "compare with only excluded runs in arm a exits 1" 1
check_contains "compare with only excluded runs: message names the arm and the run" "$ERR" \
	"arm a: no runs to analyse (1 run matched but was left out: 'g8-n100-b0-trial': unlisted"
cpl noise --by gomaxprocs --corpus "$GMP_NAME" --where block=42
check_contains "noise on an empty selection: message says the filter matched no run" "$ERR" \
	"no runs to analyse (the filter matched no run"

###########################################################################
# the order of the runs an analysis reads
###########################################################################
e2e_case selection-order
# Without --corpus the selection reads the runs table as stored and checks
# that its order is runs_in_order's; a database of its own holds the
# gomaxprocs corpus first though "gcp..." sorts before it, so the check
# fails and the ordered query answers. The residuals list the runs in
# selection order: the same tags, in the same order, as sqlite3 ordering
# them itself.
MAIN_DB=$DB
DB=$T/order.db
cpl import -q "$GMP"
expect_rc "import the gomaxprocs corpus first" 0
cpl import -q "$CAP"
expect_rc "then the capacity corpus" 0
cpl memory --by sessions --metric tput --where block=1,2,3 --group corpus,target,cfg,gomaxprocs \
	--view residuals --format tsv
expect_rc "memory over both corpora (no --corpus)" 0
want=$(q "$DB" "SELECT r.tag FROM runs r JOIN corpora c USING (corpus_id)
	WHERE r.block IN ('1', '2', '3') AND r.tput IS NOT NULL AND r.sessions IS NOT NULL
	AND NOT EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id)
	ORDER BY c.name, r.subcorpus, r.seq")
check_eq "memory over both corpora: runs in name, subcorpus, seq order (sqlite3)" \
	"$want" "$(tsvcol tag)"
# one corpus read in table order: the same as sqlite3's order
cpl memory --by sessions --metric tput --where corpus="$CAP_NAME" --where block=1,2,3 \
	--group target,cfg --view residuals --format tsv
want=$(q "$DB" "SELECT r.tag FROM runs r JOIN corpora c USING (corpus_id)
	WHERE c.name = $(sqlq "$CAP_NAME") AND r.block IN ('1', '2', '3') AND r.tput IS NOT NULL
	AND NOT EXISTS (SELECT 1 FROM exclusions e WHERE e.run_id = r.run_id)
	ORDER BY c.name, r.subcorpus, r.seq")
check_eq "memory on one corpus by --where: runs in seq order (sqlite3)" "$want" "$(tsvcol tag)"
DB=$MAIN_DB

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
