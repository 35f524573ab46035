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
set -u
set -o pipefail
export LC_ALL=C

if [ $# -ne 3 ]; then
	echo "usage: $0 COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR" >&2
	exit 2
fi
BIN=$(realpath "$1") || exit 2
ROOT=$(realpath "$2") || exit 2
SHARED=$(realpath "$3") || exit 2
SKY=$SHARED/sky
GMP_NAME=gomaxprocs-scaling-20260816
CAP_NAME=gcp-x86-capacity-20260816
GMP=$SKY/$GMP_NAME
CAP=$SKY/$CAP_NAME
EXAMPLE=$ROOT/fixtures/example
unset COREPLAN_DB

T=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-cores.XXXXXX") || exit 2
cleanup() { rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$T" || exit 2

PASS=0
FAIL=0
# shared helpers: ok, not_ok, check_eq, check_contains, cpl, tsvget, expect_rc
source "$E2E_DIR/lib.sh"

TIMEOUT=()
command -v timeout >/dev/null && TIMEOUT=(timeout 300)
if ! command -v python3 >/dev/null; then
	echo "not ok - prerequisites: python3 is not installed"
	echo "0 passed, 1 failed"
	exit 1
fi

DB=$T/cores.db
# py_check NAME SCRIPT ARGS...: SCRIPT reads $T/.out (argv[1]); prints "ok" or a reason.

# Python helpers shared by the checks below: a TSV reader (plain split, the
# corpora have no quoting), the system.tsv window rule, the upper median
# of FORMATS.md and least squares, all from the standard library.
PYLIB='
import csv, json, math, statistics, sys
def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
def raw(path):
    with open(path) as f:
        return [l.split("\t") for l in f.read().split("\n") if l]
def system_window(conn):
    mx = max(conn)
    idx = [i for i, c in enumerate(conn) if c >= 0.8 * mx]
    lo, hi = idx[0], idx[-1]
    if hi - lo > 4:
        lo, hi = lo + 1, hi - 1
    return lo, hi
def plateau_window(conn):
    # the plateau of FORMATS.md (the analysis script of the repository): rows
    # at the maximum conn, first to last, minus the first and the last
    mx = max(conn)
    idx = [i for i, c in enumerate(conn) if c == mx]
    return idx[0] + 1, idx[-1] - 1
def trust_counts(sysrows, tick_min=0.75):
    # the trust scale over system.tsv: ratio = stat_tick_hz / 200 (2 vCPUs),
    # app cores on the clock of the guest = app_cores / ratio; untrustworthy below
    # tick_min, degraded below 0.95 or above 2 cores, else trusted
    n = {"trusted": 0, "degraded": 0, "untrustworthy": 0}
    for s in sysrows:
        ratio = float(s["stat_tick_hz"]) / 200
        stat = float(s["app_cores"]) / ratio
        n["untrustworthy" if ratio < tick_min else "degraded" if ratio < 0.95 or stat > 2 else "trusted"] += 1
    return n
def ols(pts):
    n = len(pts); mx = sum(x for x, _ in pts) / n; my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    b = sxy / sxx; a = my - b * mx
    sse = sum((y - a - b * x) ** 2 for x, y in pts)
    return b, math.sqrt(sse / (n - 2) / sxx), a
def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)
'

echo "# coreplan: $BIN"
echo "# temp: $T"

###########################################################################
# import
###########################################################################
cpl import -q "$GMP" "$CAP"
if [ "$RC" -eq 0 ]; then
	ok "import both sky corpora"
else
	not_ok "import both sky corpora" "exit $RC; stderr:"$'\n'"$ERR"
	echo "$PASS passed, $FAIL failed"
	exit 1
fi
cpl import -q --name example "$EXAMPLE"
expect_rc "import the example corpus (its tags repeat the gomaxprocs ones)" 0

###########################################################################
# cores: the capacity corpus and the tick check
###########################################################################
echo "# cores: capacity"
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

bad=""
for tag in $SMALL; do
	v=$(tsvget tag "$tag" tick_ok)
	[ "$v" == 0 ] || bad+="$tag tick_ok=$v; "
done
check_eq "cores: tick_ok 0 on every small run of blocks 1-3" "" "$bad"
bad=""
for tag in $MEDIUM; do
	v=$(tsvget tag "$tag" tick_ok)
	[ "$v" == 1 ] || bad+="$tag tick_ok=$v; "
done
check_eq "cores: tick_ok 1 on every medium run" "" "$bad"

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

bad=""
for tag in $SMALL; do
	[[ "$(tsvget tag "$tag" note)" == *UNTRUSTWORTHY* ]] || bad+="$tag; "
done
check_eq "cores: the note says UNTRUSTWORTHY on every small run of blocks 1-3" "" "$bad"
bad=""
for tag in $MEDIUM; do
	[[ "$(tsvget tag "$tag" note)" != *UNTRUSTWORTHY* ]] || bad+="$tag; "
done
check_eq "cores: no medium run is called UNTRUSTWORTHY" "" "$bad"

py_check "cores: every main run matches system.tsv (rows, seconds, cores to 3 decimals, Hz to 1, mem_avail exactly)" "$PYLIB"'
ours = {r["tag"]: r for r in rows(sys.argv[1])}
bad = []
sysrows = rows(sys.argv[2])
if len(sysrows) != 47:
    bad.append("system.tsv has %d rows" % len(sysrows))
for s in sysrows:
    o = ours.get(s["run"])
    if o is None:
        bad.append(s["run"] + ": missing"); continue
    checks = [("window_rows", "win_n", 0), ("window_s", "win_s", 0),
              ("app_cores_wall", "app_cores", 0.0005), ("pg_cores", "pg_cores", 0.0005),
              ("machine_busy_cores", "machine_busy_cores", 0.0005),
              ("stat_tick_hz", "stat_tick_hz", 0.05),
              ("mem_avail_min_kb", "mem_avail_min_kb", 0)]
    for mine, theirs, tol in checks:
        if not abs(float(o[mine]) - float(s[theirs])) <= tol:
            bad.append("%s %s: coreplan %s, system.tsv %s %s" % (s["run"], mine, o[mine], theirs, s[theirs]))
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv"

# rss_median_kb is coreplan's median (mean of the two middle values for an
# even count); system.tsv load_app_kb is the upper median (FORMATS.md)
py_check "cores: rss_median_kb is the mean-of-middle median, load_app_kb the upper median, of the window rows" "$PYLIB"'
ours = {r["tag"]: r for r in rows(sys.argv[1])}
bad = []; even = 0
for s in rows(sys.argv[2]):
    t = raw(sys.argv[3] + "/samples/" + s["run"] + ".tsv")
    lo, hi = system_window([float(r[6]) for r in t])
    rss = sorted(float(r[1]) for r in t[lo:hi + 1])
    upper = rss[len(rss) // 2]
    if upper != float(s["load_app_kb"]):
        bad.append("%s: upper median %s, system.tsv %s" % (s["run"], upper, s["load_app_kb"]))
    if float(ours[s["run"]]["rss_median_kb"]) != statistics.median(rss):
        bad.append("%s: rss_median_kb %s, statistics.median %s" % (s["run"], ours[s["run"]]["rss_median_kb"], statistics.median(rss)))
    even += len(rss) % 2 == 0
if even == 0:
    bad.append("no even-count window: the convention check did not run")
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv" "$CAP"

cpl cores --corpus "$CAP_NAME" --keep-ramp --tick-min 0.3 --format tsv
check_eq "cores --tick-min 0.3: every run passes the tick check" "" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tick_ok") c = i; next }
		$c == "0" { print $1 }' "$T/.out")" "exit $RC; $ERR"
cpl cores --corpus "$CAP_NAME" --keep-ramp --tick-min 0.3 --format json
check_eq "cores --tick-min 0.3: facts tick_min 0.3, untrustworthy_runs 0, tick_check by the trust scale (python over system.tsv)" \
	"$(python3 -c "$PYLIB"'
n = trust_counts(rows(sys.argv[1]), 0.3)
print("0.3 0 %d trusted %d degraded %d untrustworthy" % (n["trusted"], n["degraded"], n["untrustworthy"]))' "$CAP/system.tsv")" \
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
	"$(python3 -c "$PYLIB"'
n = trust_counts(rows(sys.argv[1]))
print("- tick check: %d trusted, %d degraded, %d untrustworthy" % (n["trusted"], n["degraded"], n["untrustworthy"]))' "$CAP/system.tsv")"
check_contains "cores (md): the window and tick thresholds in a note" "$OUT" \
	"- window: conn >= 0.80 x max, trim 1, the ramp rows kept (--keep-ramp); tick check: stat_tick_hz / owed >= 0.75"
check_contains "cores (md): a note per trust level with its runs and tick-ratio range" "$OUT" \
	"- CPU accounting degraded (tick ratio 0.75-0.95, or an app-cores figure above the guest's CPUs): 9 runs"

# runs that cannot have figures: a note, and no number (py_check reads $T/.out)
cp "$T/cap_cores.tsv" "$T/.out"
py_check "cores: m1 runs (no trace) and core runs (no conn column) have a note and no numbers" "$PYLIB"'
bad = []
numeric = ["window_rows", "window_s", "app_cores_wall", "app_cores_stat", "machine_busy_cores",
           "pg_cores", "stat_tick_hz", "owed_tick_hz", "tick_ratio", "tick_ok",
           "driver_minus_wall", "rss_median_kb", "rss_mean_kb", "rss_peak_kb", "mem_avail_min_kb"]
seen = {"m1": 0, "core": 0}
for r in rows(sys.argv[1]):
    kind = "m1" if r["tag"].startswith("m1-") else "core" if r["tag"].startswith("core-") else None
    if not kind:
        continue
    seen[kind] += 1
    want = "no trace" if kind == "m1" else "conn"
    if want not in r["note"]:
        bad.append("%s: note %r lacks %r" % (r["tag"], r["note"], want))
    for c in numeric:
        if r[c] != "NA":
            bad.append("%s: %s = %s" % (r["tag"], c, r[c]))
if seen != {"m1": 3, "core": 3}:
    bad.append("runs seen: %r" % seen)
print("\n".join(bad) if bad else "ok")'

###########################################################################
# cores: the gomaxprocs driver's window
###########################################################################
echo "# cores: gomaxprocs driver window"
cpl cores --corpus "$GMP_NAME" --where block=1,2,3 --format tsv
expect_rc "cores --corpus $GMP_NAME --where block=1,2,3 --format tsv exits 0" 0
py_check "cores gomaxprocs: 12 runs; driver_app_cores is results.tsv app_cores, below app_cores_wall; the note says the driver is lower and why (the ramp)" "$PYLIB"'
res = {r["tag"]: r for r in rows(sys.argv[2]) if r["block"] in ("1", "2", "3")}
bad = []
out = rows(sys.argv[1])
if sorted(r["tag"] for r in out) != sorted(res):
    bad.append("tags: %r" % sorted(r["tag"] for r in out))
for r in out:
    d, w = float(r["driver_app_cores"]), float(r["app_cores_wall"])
    if d != float(res[r["tag"]]["app_cores"]):
        bad.append("%s: driver_app_cores %s, results.tsv %s" % (r["tag"], d, res[r["tag"]]["app_cores"]))
    if not d < w or not float(r["driver_minus_wall"]) < 0:
        bad.append("%s: driver %s not below wall %s" % (r["tag"], d, w))
    if "driver lower" not in r["note"] or "ramp" not in r["note"]:
        bad.append("%s: note %r" % (r["tag"], r["note"]))
    if not r["driver_window"].startswith("rows "):
        bad.append("%s: driver_window %r" % (r["tag"], r["driver_window"]))
print("\n".join(bad) if bad else "ok")' "$GMP/results.tsv"

py_check "cores gomaxprocs: driver window = rows with conn >= sessions minus first and last, as in window.tsv" "$PYLIB"'
import re
res = {r["tag"]: r for r in rows(sys.argv[2])}
bad = []
for r in rows(sys.argv[1]):
    t = raw(sys.argv[3] + "/runs/" + r["tag"] + "/sample.tsv")
    w = raw(sys.argv[3] + "/runs/" + r["tag"] + "/window.tsv")
    n = float(res[r["tag"]]["sessions"])
    idx = [i for i, x in enumerate(t) if float(x[3]) >= n][1:-1]
    m = re.match(r"rows (\d+)-(\d+) \((\d+) rows", r["driver_window"])
    want = (idx[0] + 1, idx[-1] + 1, len(w))
    got = tuple(int(g) for g in m.groups()) if m else None
    if got != want or t[idx[0]] != w[0] or t[idx[-1]] != w[-1]:
        bad.append("%s: driver_window %r, expected rows %d-%d (%d rows)" % ((r["tag"], r["driver_window"]) + want))
print("\n".join(bad) if bad else "ok")' "$GMP/results.tsv" "$GMP"

cpl cores --corpus "$GMP_NAME" --where block=1,2,3
expect_rc "cores gomaxprocs (md) exits 0" 0
header=$(grep -m 1 '^| tag' "$T/.out")
check_contains "cores gomaxprocs (md): app_cores_wall column" "$header" "| app_cores_wall"
check_contains "cores gomaxprocs (md): driver_app_cores column" "$header" "| driver_app_cores"
check_contains "cores gomaxprocs (md): g1-n100-b1 note explains the ramp" \
	"$(grep -F '| g1-n100-b1 ' "$T/.out")" "driver lower by 0.096 cores: its window starts 7 rows earlier, inside the ramp"
# issue 25: the default plateau leaves the ramp out. python3 over
# runs/<tag>/sample.tsv with FORMATS.md's plateau (conn at its maximum, minus
# the first and the last row): app cores d(app_j) / (d(epoch) * 100) on all
# 24 listed runs; GOMAXPROCS 1 (block 1) reads 1.007, not 0.959
cpl cores --corpus "$GMP_NAME" --format tsv
py_check "cores gomaxprocs default: the window is FORMATS.md's plateau on all 24 listed runs (g1-n100-b1: 1.007 cores)" "$PYLIB"'
ours = {r["tag"]: r for r in rows(sys.argv[1])}
bad = []
for res in rows(sys.argv[2]):
    t = raw(sys.argv[3] + "/runs/" + res["tag"] + "/sample.tsv")
    lo, hi = plateau_window([float(r[3]) for r in t])
    wall = (float(t[hi][6]) - float(t[lo][6])) / ((float(t[hi][0]) - float(t[lo][0])) * 100)
    o = ours[res["tag"]]
    if int(o["window_rows"]) != hi - lo + 1 or not close(float(o["app_cores_wall"]), wall, 1e-12):
        bad.append("%s: %s rows %s cores, python %d rows %r" % (res["tag"], o["window_rows"], o["app_cores_wall"], hi - lo + 1, wall))
if not close(float(ours["g1-n100-b1"]["app_cores_wall"]), 1.007, 1e-12):
    bad.append("g1-n100-b1 %s" % ours["g1-n100-b1"]["app_cores_wall"])
print("\n".join(bad) if bad else "ok")' "$GMP/results.tsv" "$GMP"

###########################################################################
# memory
###########################################################################
echo "# memory"
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
py_check "memory slopes: slope, slope_se, intercept match python OLS of system.tsv load_app_kb" "$PYLIB"'
pts = {}
for s in rows(sys.argv[2]):
    if s["target"] == "medium" and s["block"] in ("1", "2", "3"):
        pts.setdefault("cfg=" + s["cfg"], []).append((float(s["level"]), float(s["load_app_kb"])))
bad = []
out = {r["group"]: r for r in rows(sys.argv[1])}
for g, p in pts.items():
    b, se, a = ols(p)
    r = out.get(g)
    if not r or int(r["n"]) != len(p):
        bad.append("%s: %r" % (g, r)); continue
    for k, v in (("slope", b), ("slope_se", se), ("intercept", a)):
        if not close(float(r[k]), v, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (g, k, r[k], v))
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv"

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
py_check "memory json facts: 18 runs (system.tsv, medium, blocks 1-3), 2 groups, no slope fact" "$PYLIB"'
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
n = sum(1 for s in rows(sys.argv[2]) if s["target"] == "medium" and s["block"] in ("1", "2", "3"))
want = {"runs": n, "metric": "load_rss_kb", "by": "sessions", "group": "cfg", "groups": 2, "runs_left_out": 0}
bad = ["%s: %r, python %r" % (k, f.get(k), w) for k, w in want.items() if f.get(k) != w]
if "slope" in f:
    bad.append("a slope fact with two groups: %r" % f["slope"])
if len(d["sections"]["residuals"]["rows"]) != n:
    bad.append("%d residual rows" % len(d["sections"]["residuals"]["rows"]))
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv"
cpl memory --by sessions --corpus "$CAP_NAME" --where target=medium --where cfg=pg --where block=1,2,3 --format json
py_check "memory one group json: slope, slope_se, intercept, intercept_se facts match python OLS" "$PYLIB"'
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
p = [(float(s["level"]), float(s["load_app_kb"])) for s in rows(sys.argv[2])
     if s["target"] == "medium" and s["cfg"] == "pg" and s["block"] in ("1", "2", "3")]
b, se, a = ols(p)
n = len(p); mx = sum(x for x, _ in p) / n
sxx = sum((x - mx) ** 2 for x, _ in p)
sse = sum((y - a - b * x) ** 2 for x, y in p)
se_a = math.sqrt(sse / (n - 2) * (1 / n + mx * mx / sxx))
bad = ["%s: coreplan %r, python %r" % (k, f.get(k), v)
       for k, v in (("slope", b), ("slope_se", se), ("intercept", a), ("intercept_se", se_a),
                    ("runs", n), ("groups", 1))
       if not isinstance(f.get(k), (int, float)) or not close(f[k], v, 1e-9)]
row = d["sections"]["slopes"]["rows"][0]
bad += ["table %s %r != fact %r" % (k, row[k], f[k]) for k in ("slope", "intercept", "r2") if row[k] != f[k]]
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv"

# a trace-derived metric: runs whose trace gives no value are left out, in the document
# (every run of the corpus: its sub-corpora, targets, configurations and block
# kinds pooled on purpose, as the refusal without --pool says to)
CAP_POOL=(--pool subcorpus,target,cfg,block)
cpl memory --by sessions --corpus "$CAP_NAME" --metric rss_median_kb "${CAP_POOL[@]}" --format json
expect_rc "memory --metric rss_median_kb over the whole corpus exits 0" 0
check_eq "memory --metric rss_median_kb --format json: nothing on stderr (left-out runs are in the document)" "" "$ERR"
py_check "memory rss_median_kb: m1 runs (no trace) and core runs (no conn column) left out with their reason" '
import csv, json, os, sys
d = json.load(open(sys.argv[1])); cap = sys.argv[2]
why = {x["tag"]: x["reason"] for x in d["left_out"]}
bad = []
for r in csv.DictReader(open(cap + "/m1/m1.tsv"), delimiter="\t"):
    tag = "m1-r" + r["rep"]
    if os.path.exists("%s/m1/r%s/sample.tsv" % (cap, r["rep"])):
        bad.append(tag + " has a trace")
    if why.get(tag) != "no trace":
        bad.append("%s: %r" % (tag, why.get(tag)))
for r in csv.DictReader(open(cap + "/core/results.tsv"), delimiter="\t"):
    tag = "core-mem-p5-n25-r" + r["rep"]
    cols = len(open("%s/core/%s/sample.tsv" % (cap, tag)).readline().split("\t"))
    if cols != 3 or "(conn)" not in why.get(tag, ""):
        bad.append("%s: %d trace columns, reason %r" % (tag, cols, why.get(tag)))
f = d["facts"]
if f["runs_left_out"]["value"] != len(d["left_out"]) or f["runs"]["value"] != len(d["sections"]["residuals"]["rows"]):
    bad.append("runs %r, left out %r" % (f["runs"], f["runs_left_out"]))
print("\n".join(bad) if bad else "ok")' "$CAP"
cpl memory --by sessions --corpus "$CAP_NAME" --metric rss_median_kb "${CAP_POOL[@]}"
check_contains "memory rss_median_kb (md): the left-out list names m1-r1" "$OUT" "- m1-r1: no trace"
cpl memory --by sessions --corpus "$CAP_NAME" --where subcorpus=m1 --metric rss_median_kb
expect_rc "memory rss_median_kb on the m1 runs only (no trace) exits 1" 1
check_contains "memory rss_median_kb on m1: the message says what was left out and why" "$ERR" \
	"no runs to analyse (3 runs matched but were left out, e.g. 'm1-r1': no trace)"

cpl memory "${MEM_SEL[@]}" --metric rss_median_kb --keep-ramp --format tsv
expect_rc "memory --metric rss_median_kb (trace-derived) exits 0" 0
py_check "memory --metric rss_median_kb: slopes match python (system.tsv window, statistics.median, OLS)" "$PYLIB"'
pts = {}
for s in rows(sys.argv[2]):
    if s["target"] == "medium" and s["block"] in ("1", "2", "3"):
        t = raw(sys.argv[3] + "/samples/" + s["run"] + ".tsv")
        lo, hi = system_window([float(r[6]) for r in t])
        med = statistics.median(float(r[1]) for r in t[lo:hi + 1])
        pts.setdefault("cfg=" + s["cfg"], []).append((float(s["level"]), med))
bad = []
out = {r["group"]: r for r in rows(sys.argv[1])}
for g, p in pts.items():
    b, se, a = ols(p)
    r = out.get(g)
    if not r:
        bad.append(g + ": missing"); continue
    for k, v in (("slope", b), ("slope_se", se), ("intercept", a)):
        if not close(float(r[k]), v, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (g, k, r[k], v))
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv" "$CAP"

###########################################################################
# trace
###########################################################################
echo "# trace"
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
cpl cores --corpus "$CAP_NAME" --keep-ramp --format json
expect_rc "cores --format json exits 0" 0
py_check "cores --format json parses: 53 runs, numbers for medium, null for m1" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["runs"]["rows"]
by = {r["tag"]: r for r in rows}
ok = (len(rows) == 53 and d["facts"]["runs"]["value"] == 53
      and isinstance(by["medium-pg-n100-b1r1"]["app_cores_wall"], (int, float))
      and by["m1-r1"]["app_cores_wall"] is None and "UNTRUSTWORTHY" in by["small-pg-n500-b1r1"]["note"]
      and by["small-pg-n500-b1r1"]["tick_ok"] is False and by["medium-pg-n100-b1r1"]["tick_ok"] is True)
print("ok" if ok else repr(d)[:400])'
py_check "cores --format json facts: the window and tick options; untrustworthy_runs = system.tsv runs whose stat_tick_hz / 200 is below 0.75" "$PYLIB"'
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
n = sum(float(s["stat_tick_hz"]) / 200 < 0.75 for s in rows(sys.argv[2]))
t = trust_counts(rows(sys.argv[2]))
want = {"window_frac": 0.8, "trim": 1, "min_rows": 10, "tick_min": 0.75,
        "untrustworthy_runs": n, "degraded_runs": t["degraded"], "trusted_runs": t["trusted"],
        "tick_check": "%d trusted, %d degraded, %d untrustworthy" % (t["trusted"], t["degraded"], n)}
bad = ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in want.items() if f.get(k) != v]
if n != 26:
    bad.append("system.tsv gives %d untrustworthy runs, the seed 26" % n)
if "idle banner" not in f.get("clock_source", ""):
    bad.append("clock_source %r" % f.get("clock_source"))
print("\n".join(bad) if bad else "ok")' "$CAP/system.tsv"
cpl memory "${MEM_SEL[@]}" --format json
expect_rc "memory --format json exits 0" 0
py_check "memory --format json parses: 2 groups with a slope" '
import json, sys
d = json.load(open(sys.argv[1]))["sections"]["slopes"]["rows"]
print("ok" if len(d) == 2 and all(isinstance(r["slope"], (int, float)) for r in d) else repr(d)[:400])'
cpl trace g1-n100-b1 --corpus "$GMP_NAME" --format json
expect_rc "trace --format json exits 0" 0
py_check "trace --format json parses: one object per sample.tsv line" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["rows"]["rows"]
n = sum(1 for _ in open(sys.argv[2]))
print("ok" if len(rows) == n and rows[0]["row_no"] == 1 and d["facts"]["rows"]["value"] == n
      else "%d objects, %d lines" % (len(rows), n))' \
	"$GMP/runs/g1-n100-b1/sample.tsv"
# the plateau facts against FORMATS.md's plateau on sample.tsv (conn column 4
# at its maximum, minus the first and last row; epoch 1, app_j 7): the
# default window leaves the ramp out; clk_tck from the idle banner; the
# driver window is window.tsv's first and last lines found in sample.tsv
py_check "trace --format json facts: plateau_first, plateau_last, plateau_rows, plateau_seconds, app_cores_wall and the driver rows match python3" "$PYLIB"'
import re
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
t = raw(sys.argv[2] + "/sample.tsv")
w = raw(sys.argv[2] + "/window.tsv")
clk = float(re.search(r"clk_tck=(\d+)", open(sys.argv[2] + "/idle.txt").read()).group(1))
lo, hi = plateau_window([float(r[3]) for r in t])
secs = float(t[hi][0]) - float(t[lo][0])
wall = (float(t[hi][6]) - float(t[lo][6])) / (secs * clk)
want = {"plateau_first": lo + 1, "plateau_last": hi + 1, "plateau_rows": hi - lo + 1,
        "plateau_seconds": secs, "driver_first": t.index(w[0]) + 1,
        "driver_last": len(t) - t[::-1].index(w[-1])}
bad = ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in want.items() if f.get(k) != v]
if not close(f["app_cores_wall"], wall, 1e-12):
    bad.append("app_cores_wall %r, python %r" % (f["app_cores_wall"], wall))
if f["plateau"] != "found" or "ramp" not in f["note"]:
    bad.append("plateau %r, note %r" % (f["plateau"], f["note"]))
marks = [r["window"] for r in d["sections"]["rows"]["rows"]]
if [i for i, m in enumerate(marks) if m in ("plateau", "both")] != list(range(lo, hi + 1)):
    bad.append("plateau marks are not rows %d-%d" % (lo + 1, hi + 1))
print("\n".join(bad) if bad else "ok")' "$GMP/runs/g1-n100-b1"
cpl trace core-mem-p5-n25-r1 --corpus "$CAP_NAME" --format json
py_check "trace of a run without a plateau: plateau none, the plateau facts null, the note says why" '
import json, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
nulls = [k for k in ("plateau_first", "plateau_last", "plateau_rows", "plateau_seconds", "app_cores_wall") if f[k] is not None]
print("ok" if f["plateau"] == "none" and not nulls and "conn" in f["note"] else repr(f)[:400])'

###########################################################################
# doc_check: every number the Markdown shows is a JSON number; tsv = JSON
###########################################################################
echo "# doc_check"
# doc_check NAME VIEWS ARGS...: md, json and each view's tsv of `coreplan ARGS`
doc_check() {
	local name=$1 views=$2
	shift 2
	local res failed=""
	cpl "$@"
	cp "$T/.out" "$T/dc.md"
	[ "$RC" -eq 0 ] || failed+="md exit $RC: $ERR; "
	cpl "$@" --format json
	cp "$T/.out" "$T/dc.json"
	[ "$RC" -eq 0 ] || failed+="json exit $RC: $ERR; "
	for v in $views facts; do
		cpl "$@" --format tsv --view "$v"
		if [ "$RC" -ne 0 ] || [ -n "$failed" ]; then
			not_ok "doc_check $name (view $v)" "${failed}tsv exit $RC: $ERR"
			continue
		fi
		res=$(python3 "$E2E_DIR/doc_check.py" "$T/dc.md" "$T/dc.json" "$T/.out" 2>&1)
		check_eq "doc_check $name (view $v)" "ok" "$res"
	done
}
doc_check "cores $CAP_NAME" runs cores --corpus "$CAP_NAME"
doc_check "cores $GMP_NAME block=1,2,3" runs cores --corpus "$GMP_NAME" --where block=1,2,3
doc_check "trace medium-pg-n300-b1r1" rows trace medium-pg-n300-b1r1 --corpus "$CAP_NAME"
doc_check "trace g4-n100-b1" rows trace g4-n100-b1 --corpus "$GMP_NAME"
doc_check "trace core-mem-p5-n25-r1 (no plateau)" rows trace core-mem-p5-n25-r1 --corpus "$CAP_NAME"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
