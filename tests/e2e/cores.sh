#!/usr/bin/env bash
# End-to-end tests of `coreplan cores`, `coreplan memory` and `coreplan
# trace` on the real sky corpora.
#
#   bash tests/e2e/cores.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Imports gcp-x86-capacity-20260816, gomaxprocs-scaling-20260816 and the
# example corpus (REPO_ROOT/fixtures/example, whose tags repeat the
# gomaxprocs ones) into a database in a mktemp -d folder (removed on exit)
# and checks: the tick check on e2-small / e2-medium (the seeds' e2-small
# accounting anomaly), the harness's system.tsv figures, the driver's
# window on the gomaxprocs sweep (its ramp rows), the per-session memory
# slopes (postgres above memory) against python3 OLS (one group's also as
# facts), runs left out of a trace-derived metric (m1: no trace; core: no
# conn column) in the document's left-out list, trace rows and their
# window marks, runs that cannot have figures (no trace, no conn column, a
# trace without app_j), usage errors, and JSON output: the documents'
# facts (cores: the window and tick options, untrustworthy_runs against
# system.tsv, tick_check; trace: the plateau rows, seconds and
# app_cores_wall, the driver's rows) and doc_check.py on cores and trace
# (every number the Markdown shows is a JSON number; tsv = JSON). Expected
# figures are recomputed here from the corpus files with python3
# (standard library).
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
# shared helpers: e2e_start (BIN, ROOT, SHARED, the corpora's paths, T, DB,
# TIMEOUT), ok, not_ok, check_eq, check_contains, cpl, tsvget, expect_rc, py_file
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 cores "$@"

# Python helpers shared by the checks below: a TSV reader (plain split, the
# corpora have no quoting), the system.tsv window rule, the upper median
# of FORMATS.md and least squares, all from the standard library.
# (PYLIB: tests/e2e/py/cores_lib.py)

###########################################################################
# import
###########################################################################
cpl_import_or_exit "import both sky corpora" -q "$GMP" "$CAP"
cpl import -q --name example "$EXAMPLE"
expect_rc "import the example corpus (its tags repeat the gomaxprocs ones)" 0

###########################################################################
# cores: the capacity corpus and the tick check
###########################################################################
echo "# cores: capacity"
e2e_case cores-capacity
# system.tsv's window keeps the leading ramp rows (FORMATS.md): --keep-ramp
# reproduces it; the default (the ramp left out) is checked on the
# GOMAXPROCS corpus against FORMATS.md's plateau below
cpl cores --corpus "$CAP_NAME" --keep-ramp --format tsv
expect_rc "cores --corpus $CAP_NAME --format tsv exits 0" 0
cp "$T/.out" "$T/cap_cores.tsv"

# tag -> "target block" for the main runs: <target>-<cfg>-n<level>-b<block>r<rep>
main_runs() { # TARGET BLOCK_REGEX: tags of the main runs
	awk -F'\t' -v target="$1" -v blocks="$2" 'NR > 1 && $1 ~ ("^" target "-") {
		b = $1; sub(/^.*-b/, "", b); sub(/r[0-9]+$/, "", b)
		if (b ~ ("^(" blocks ")$")) print $1 }' "$T/cap_cores.tsv"
}
SMALL=$(main_runs small '1|2|3')
MEDIUM=$(main_runs medium '1|2|3|fs')
check_eq "cores: 18 small runs in blocks 1-3" "18" "$(printf '%s\n' "$SMALL" | grep -c .)"
check_eq "cores: 21 medium runs (blocks 1-3 and fs)" "21" "$(printf '%s\n' "$MEDIUM" | grep -c .)"

# each_run NAME COL GLOB TAGS...: COL of every run TAG (tsvget tag) matches
# the bash pattern GLOB (!GLOB: does not)
each_run() {
	local name=$1 col=$2 glob=$3 tag v bad=""
	shift 3
	for tag in "$@"; do
		v=$(tsvget tag "$tag" "$col")
		# shellcheck disable=SC2053 # a pattern on purpose
		if [[ $glob == '!'* ]]; then [[ $v != ${glob#!} ]]; else [[ $v == $glob ]]; fi || bad+="$tag $col=$v; "
	done
	check_eq "$name" "" "$bad"
}
# shellcheck disable=SC2086 # the tag lists split on purpose
{
	each_run "cores: tick_ok 0 on every small run of blocks 1-3" tick_ok 0 $SMALL
	each_run "cores: tick_ok 1 on every medium run" tick_ok 1 $MEDIUM
}

# The seeds' 64.9-94.1 Hz is the sustained e2-small figure. The one
# block 1-3 run above it is small-mem-n100-b1r1, the e2-small instance's
# first load ever (results.tsv row 2; system.tsv 143.2 Hz; FORMATS.md:
# "higher only on rested first runs"); it is checked on its own.
bad=""
for tag in $SMALL; do
	[ "$tag" == small-mem-n100-b1r1 ] && continue
	v=$(tsvget tag "$tag" stat_tick_hz)
	awk -v v="$v" 'BEGIN { exit !(v >= 64 && v <= 95) }' || bad+="$tag $v; "
done
check_eq "cores: stat_tick_hz of the sustained small runs of blocks 1-3 within 64-95" "" "$bad"
check_eq "cores: the rested first small run small-mem-n100-b1r1 ticks at 143.2 Hz" "143.2" \
	"$(printf '%.1f' "$(tsvget tag small-mem-n100-b1r1 stat_tick_hz)")"

# shellcheck disable=SC2086 # the tag lists split on purpose
{
	each_run "cores: the note says UNTRUSTWORTHY on every small run of blocks 1-3" note '*UNTRUSTWORTHY*' $SMALL
	each_run "cores: no medium run is called UNTRUSTWORTHY" note '!*UNTRUSTWORTHY*' $MEDIUM
}

py_file "cores: every main run matches system.tsv (rows, seconds, cores to 3 decimals, Hz to 1, mem_avail exactly)" cores_cores_every_main_run_system.py "$CAP/system.tsv"

# rss_median_kb is coreplan's median (mean of the two middle values for an
# even count); system.tsv load_app_kb is the upper median (FORMATS.md)
py_file "cores: rss_median_kb is the mean-of-middle median, load_app_kb the upper median, of the window rows" cores_cores_rss_median_kb_mean.py "$CAP/system.tsv" "$CAP"

cpl cores --corpus "$CAP_NAME" --keep-ramp --tick-min 0.3 --format tsv
check_eq "cores --tick-min 0.3: every run passes the tick check" "" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tick_ok") c = i; next }
		$c == "0" { print $1 }' "$T/.out")" "exit $RC; $ERR"
cpl cores --corpus "$CAP_NAME" --keep-ramp --tick-min 0.3 --format json
check_eq "cores --tick-min 0.3: facts tick_min 0.3, untrustworthy_runs 0, tick_check by the trust scale (python over system.tsv)" \
	"$(python3 "$E2E_PY_DIR/cores_trust_counts.py" "$CAP/system.tsv" 0.3 "0.3 0 %(trusted)d trusted %(degraded)d degraded %(untrustworthy)d untrustworthy")" \
	"$(jget 'd["facts"]["tick_min"]["value"], d["facts"]["untrustworthy_runs"]["value"], d["facts"]["tick_check"]["value"]' | tr -d "(),'")"

# md: the untrustworthy runs are labelled in their rows and counted below the table
cpl cores --corpus "$CAP_NAME" --keep-ramp
expect_rc "cores (md) exits 0" 0
bad=""
for tag in $SMALL; do
	line=$(grep -F "| $tag " "$T/.out" | head -n 1)
	[[ "$line" == *UNTRUSTWORTHY* ]] || bad+="$tag; "
done
check_eq "cores (md): every small run of blocks 1-3 labelled UNTRUSTWORTHY in its row" "" "$bad"
nuntrusted=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tick_ok") c = i; next }
	$c == "0"' "$T/cap_cores.tsv" | grep -c .)
check_contains "cores (md): a note counts the $nuntrusted tick_ok = 0 runs as UNTRUSTWORTHY" "$OUT" \
	"- $nuntrusted runs with tick_ok = no: their CPU attribution is UNTRUSTWORTHY"
check_contains "cores (md): the tick check is listed under the title: runs at each trust level (python over system.tsv)" "$OUT" \
	"$(python3 "$E2E_PY_DIR/cores_trust_counts.py" "$CAP/system.tsv" 0.75 "- tick check: %(trusted)d trusted, %(degraded)d degraded, %(untrustworthy)d untrustworthy")"
check_contains "cores (md): the window and tick thresholds in a note" "$OUT" \
	"- window: conn >= 0.80 x max, trim 1, the ramp rows kept (--keep-ramp); tick check: stat_tick_hz / owed >= 0.75"
check_contains "cores (md): a note per trust level with its runs and tick-ratio range" "$OUT" \
	"- CPU accounting degraded (tick ratio 0.75-0.95, or an app-cores figure above the guest's CPUs): 9 runs"

# runs that cannot have figures: a note, and no number (py_check reads $T/.out)
cp "$T/cap_cores.tsv" "$T/.out"
py_file "cores: m1 runs (no trace) and core runs (no conn column) have a note and no numbers" cores_cores_m1_runs_no_trace.py

###########################################################################
# cores: the gomaxprocs driver's window
###########################################################################
echo "# cores: gomaxprocs driver window"
e2e_case cores-gomaxprocs
cpl cores --corpus "$GMP_NAME" --where block=1,2,3 --format tsv
expect_rc "cores --corpus $GMP_NAME --where block=1,2,3 --format tsv exits 0" 0
py_file "cores gomaxprocs: 12 runs; driver_app_cores is results.tsv app_cores, below app_cores_wall; the note says the driver is lower and why (the ramp)" cores_cores_gomaxprocs_12_runs_driver.py "$GMP/results.tsv"

py_file "cores gomaxprocs: driver window = rows with conn >= sessions minus first and last, as in window.tsv" cores_cores_gomaxprocs_driver_window_rows.py "$GMP/results.tsv" "$GMP"

cpl cores --corpus "$GMP_NAME" --where block=1,2,3
expect_rc "cores gomaxprocs (md) exits 0" 0
header=$(grep -m 1 '^| tag' "$T/.out")
check_contains "cores gomaxprocs (md): app_cores_wall column" "$header" "| app_cores_wall"
check_contains "cores gomaxprocs (md): driver_app_cores column" "$header" "| driver_app_cores"
check_contains "cores gomaxprocs (md): g1-n100-b1 note explains the ramp" \
	"$(grep -F '| g1-n100-b1 ' "$T/.out")" "driver lower by 0.096 cores: its window starts 7 rows earlier, inside the ramp"
cpl cores --corpus "$GMP_NAME" --format tsv
py_file "cores gomaxprocs default: the window is FORMATS.md's plateau on all 24 listed runs (g1-n100-b1: 1.007 cores)" cores_cores_gomaxprocs_default_plateau.py "$GMP/results.tsv" "$GMP"

###########################################################################
# memory
###########################################################################
echo "# memory"
e2e_case memory
MEM_SEL=(--by sessions --group cfg --corpus "$CAP_NAME" --where target=medium --where block=1,2,3)
cpl memory "${MEM_SEL[@]}" --view slopes --format tsv
expect_rc "memory --view slopes --format tsv exits 0" 0
pg=$(tsvget group cfg=pg slope)
mem=$(tsvget group cfg=mem slope)
if awk -v p="$pg" -v m="$mem" 'BEGIN { exit !(p + 0 > m + 0 && m + 0 > 0) }'; then
	ok "memory: cfg=pg slope $pg > cfg=mem slope $mem (kB per session)"
else
	not_ok "memory: cfg=pg slope > cfg=mem slope" "pg '$pg', mem '$mem'"$'\n'"$OUT"
fi
py_file "memory slopes: slope, slope_se, intercept match python OLS of system.tsv load_app_kb" cores_memory_slopes_slope_slope_se.py "$CAP/system.tsv"

cpl memory "${MEM_SEL[@]}" --view ratios --format tsv
expect_rc "memory --view ratios exits 0" 0
check_eq "memory --view ratios: 6 rows (2 cfg x 3 levels), each labelled a contrast" "6" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "label") c = i; next }
		$c ~ /contrast/' "$T/.out" | grep -c .)" "$OUT"
check_eq "memory --view ratios: cfg=mem at 100 is 94064 / 100 = 940.64" "940.64" \
	"$(awk -F'\t' '$1 == "cfg=mem" && $2 == "100" { print $5 }' "$T/.out")"
cpl memory "${MEM_SEL[@]}"
check_contains "memory (md): the ratio table's title says contrast only" "$OUT" \
	"Single-level ratio (contrast only"
check_eq "memory (md): sections slopes, endpoints, ratios, residuals in that order" \
	"Per-level-unit slope (OLS over every run)|Endpoint slope per block|Single-level ratio (contrast only: includes the fixed cost)|Residuals|" \
	"$(sed -n 's/^### //p' "$T/.out" | tr '\n' '|')"

# the facts: runs, fields, groups; one group's slope and intercept as facts too
cpl memory "${MEM_SEL[@]}" --format json
py_file "memory json facts: 18 runs (system.tsv, medium, blocks 1-3), 2 groups, no slope fact" cores_memory_facts_18_runs_system.py "$CAP/system.tsv"
cpl memory --by sessions --corpus "$CAP_NAME" --where target=medium --where cfg=pg --where block=1,2,3 --format json
py_file "memory one group json: slope, slope_se, intercept, intercept_se facts match python OLS" cores_memory_one_group_slope_slope.py "$CAP/system.tsv"

# a trace-derived metric: runs whose trace gives no value are left out, in the document
# (every run of the corpus: its sub-corpora, targets, configurations and block
# kinds pooled on purpose, as the refusal without --pool says to)
CAP_POOL=(--pool subcorpus,target,cfg,block)
cpl memory --by sessions --corpus "$CAP_NAME" --metric rss_median_kb "${CAP_POOL[@]}" --format json
expect_rc "memory --metric rss_median_kb over the whole corpus exits 0" 0
check_eq "memory --metric rss_median_kb --format json: nothing on stderr (left-out runs are in the document)" "" "$ERR"
py_file "memory rss_median_kb: m1 runs (no trace) and core runs (no conn column) left out with their reason" cores_memory_rss_median_kb_m1.py "$CAP"
cpl memory --by sessions --corpus "$CAP_NAME" --metric rss_median_kb "${CAP_POOL[@]}"
check_contains "memory rss_median_kb (md): the left-out list names m1-r1" "$OUT" "- m1-r1: no trace"
cpl memory --by sessions --corpus "$CAP_NAME" --where subcorpus=m1 --metric rss_median_kb
expect_rc "memory rss_median_kb on the m1 runs only (no trace) exits 1" 1
check_contains "memory rss_median_kb on m1: the message says what was left out and why" "$ERR" \
	"no runs to analyse (3 runs matched but were left out, e.g. 'm1-r1': no trace)"

cpl memory "${MEM_SEL[@]}" --metric rss_median_kb --keep-ramp --format tsv
expect_rc "memory --metric rss_median_kb (trace-derived) exits 0" 0
py_file "memory --metric rss_median_kb: slopes match python (system.tsv window, statistics.median, OLS)" cores_memory_metric_rss_median_kb.py "$CAP/system.tsv" "$CAP"

###########################################################################
# trace
###########################################################################
echo "# trace"
e2e_case trace
cpl trace g1-n100-b1 --corpus "$GMP_NAME" --format tsv
expect_rc "trace g1-n100-b1 --corpus $GMP_NAME --format tsv exits 0" 0
check_eq "trace: as many rows as sample.tsv has lines" \
	"$(wc -l <"$GMP/runs/g1-n100-b1/sample.tsv" | tr -d ' ')" "$(($(wc -l <"$T/.out") - 1))"
marks() { # WHICH...: count rows whose window column is one of WHICH
	awk -F'\t' -v which=" $* " 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "window") c = i; next }
		index(which, " " $c " ")' "$T/.out" | grep -c .
}
check_eq "trace: driver/both rows = window.tsv lines" \
	"$(wc -l <"$GMP/runs/g1-n100-b1/window.tsv" | tr -d ' ')" "$(marks driver both)"
plateau_rows=$(marks plateau both)
driver_only=$(marks driver)
trace_out=$OUT
cpl cores --corpus "$GMP_NAME" --where block=1 --format tsv
check_eq "trace: plateau/both rows = cores window_rows" "$(tsvget tag g1-n100-b1 window_rows)" \
	"$plateau_rows"
# the driver's window starts 7 rows earlier, on the ramp (conn 118, 132, 146,
# 160, 174, 188 < 200, and the plateau's first row at 200, trimmed): python3
# over sample.tsv and window.tsv with FORMATS.md's plateau
check_eq "trace: 7 rows only in the driver's window (the ramp)" "7" "$driver_only"
check_eq "trace: the first driver row is window.tsv's first line" \
	"$(cut -f1 "$GMP/runs/g1-n100-b1/window.tsv" | head -n 1)" \
	"$(printf '%s\n' "$trace_out" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "window") c = i; if ($i == "epoch") e = i }; next }
		$c == "driver" || $c == "both" { printf "%d\n", $e; exit }')"

cpl trace no-such-run --corpus "$GMP_NAME"
expect_rc "trace of an unknown tag exits 1" 1
check_contains "trace of an unknown tag: names it" "$ERR" "no-such-run"
cpl trace g1-n100-b1
expect_rc "trace of a tag in two corpora (example, gomaxprocs) exits 2" 2
check_contains "trace of an ambiguous tag asks for --corpus" "$ERR" "--corpus"
cpl trace g1-n100-b1 --corpus example --format tsv
expect_rc "trace g1-n100-b1 --corpus example exits 0" 0
cpl trace m1-r1 --corpus "$CAP_NAME"
expect_rc "trace of a run without a trace (m1-r1) exits 1" 1
check_contains "trace m1-r1: says it has no trace" "$ERR" "no trace"
cpl trace core-mem-p5-n25-r1 --corpus "$CAP_NAME" --format tsv
expect_rc "trace of a core run (no conn column) exits 0" 0
check_eq "trace core-mem-p5-n25-r1: no row is marked (no plateau)" "0" "$(marks plateau both driver)"

###########################################################################
# a trace without app_j
###########################################################################
echo "# a corpus whose trace has no app_j column"
e2e_case no-app-j
mkdir -p "$T/noappj/runs/t1"
printf 'tag\tsessions\ttput\nt1\t10\t100\n' >"$T/noappj/results.tsv"
for i in $(seq 0 19); do
	c=20
	[ "$i" -lt 2 ] && c=0
	printf '%d\t%d\t%d\n' $((1000 + i)) "$c" $((5000 + 200 * i))
done >"$T/noappj/runs/t1/sample.tsv"
cat >"$T/noappj/coreplan.manifest" <<'EOF'
layout = no-app-j
[table main]
file = results.tsv
tag = {tag}
run-dir = runs/{tag}
trace = {run-dir}/sample.tsv
trace-columns = epoch conn cpu_total_j
set = clk_tck=100 nproc=2
EOF
cpl import -q "$T/noappj"
expect_rc "import a corpus whose trace columns are epoch conn cpu_total_j" 0
cpl cores --corpus noappj --format tsv
expect_rc "cores on it exits 0" 0
check_contains "cores: the note says the app_j column is missing" "$(tsvget tag t1 note)" "app_j"
check_eq "cores: no number for that run" "NA NA NA NA" \
	"$(tsvget tag t1 window_rows) $(tsvget tag t1 app_cores_wall) $(tsvget tag t1 app_cores_stat) $(tsvget tag t1 stat_tick_hz)"

###########################################################################
# JSON
###########################################################################
echo "# json"
e2e_case json
cpl cores --corpus "$CAP_NAME" --keep-ramp --format json
expect_rc "cores --format json exits 0" 0
py_file "cores --format json parses: 53 runs, numbers for medium, null for m1" cores_cores_format_parses_53_runs.py
py_file "cores --format json facts: the window and tick options; untrustworthy_runs = system.tsv runs whose stat_tick_hz / 200 is below 0.75" cores_cores_format_facts_window_tick.py "$CAP/system.tsv"
cpl memory "${MEM_SEL[@]}" --format json
expect_rc "memory --format json exits 0" 0
py_file "memory --format json parses: 2 groups with a slope" cores_memory_format_parses_2_groups.py
cpl trace g1-n100-b1 --corpus "$GMP_NAME" --format json
expect_rc "trace --format json exits 0" 0
py_file "trace --format json parses: one object per sample.tsv line" cores_trace_format_parses_one_object.py \
	"$GMP/runs/g1-n100-b1/sample.tsv"
# the plateau facts against the system.tsv rule on sample.tsv (conn column 4,
# epoch 1, app_j 7) and clk_tck from the idle banner; the driver window is
# window.tsv's first and last lines found in sample.tsv
py_file "trace --format json facts: plateau_first, plateau_last, plateau_rows, plateau_seconds, app_cores_wall and the driver rows match python3" cores_trace_format_facts_plateau_first.py "$GMP/runs/g1-n100-b1"
cpl trace core-mem-p5-n25-r1 --corpus "$CAP_NAME" --format json
py_file "trace of a run without a plateau: plateau none, the plateau facts null, the note says why" cores_trace_run_without_plateau_plateau.py

###########################################################################
# doc_check: every number the Markdown shows is a JSON number; tsv = JSON
###########################################################################
echo "# doc_check"
e2e_case doc-check
# doc_check NAME VIEWS ARGS... (lib.sh)
doc_check "cores $CAP_NAME" runs cores --corpus "$CAP_NAME"
doc_check "cores $GMP_NAME block=1,2,3" runs cores --corpus "$GMP_NAME" --where block=1,2,3
doc_check "trace medium-pg-n300-b1r1" rows trace medium-pg-n300-b1r1 --corpus "$CAP_NAME"
doc_check "trace g4-n100-b1" rows trace g4-n100-b1 --corpus "$GMP_NAME"
doc_check "trace core-mem-p5-n25-r1 (no plateau)" rows trace core-mem-p5-n25-r1 --corpus "$CAP_NAME"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
