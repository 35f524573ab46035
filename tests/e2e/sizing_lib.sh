# sizing_lib.sh: the start the sizing scripts share (sourced after E2E_DIR is set):
# BIN, ROOT, SHARED and the corpus paths, T (removed on exit), PASS/FAIL, lib.sh's
# helpers, TIMEOUT, DB, round and PYLIB (a TSV reader and closeness tests for py_check).

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
SDM=$ROOT/fixtures/usl/specsdm91.tsv
GCE=$ROOT/fixtures/catalogs/gce.tsv
AWS=$ROOT/fixtures/catalogs/aws.tsv
AFF=$SHARED/writeups/gomaxprocs-affinity
AFF_MANIFEST=$ROOT/fixtures/manifests/gomaxprocs-affinity.manifest
CAP=$SHARED/sky/gcp-x86-capacity-20260816
GMP=$SHARED/sky/gomaxprocs-scaling-20260816
unset COREPLAN_DB

T=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-sizing.XXXXXX") || exit 2
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

DB=$T/sizing.db
# round X PLACES
round() { awk -v x="$1" -v p="$2" 'BEGIN { printf "%.*f\n", p, x }'; }
# py_check NAME SCRIPT ARGS...: SCRIPT reads $T/.out (argv[1]); prints "ok" or a reason.

# TSV reader (plain split: no quoting in these files), closeness, printed precision.
PYLIB='
import json, math, statistics, sys
def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)
def printed(x, pub, decimals, slack=0.0):
    return abs(x - pub) <= 0.5 * 10 ** -decimals + slack
def num(s):
    return float("nan") if s in ("NA", "", None) else float(s)
'

# Inputs recomputed from the corpus files: base, per doubling (+- 1.96 SE),
# SMT (median ratio, range min/max and max/min), memory OLS.
PYINPUTS='
def inputs(shared):
    cap = shared + "/sky/gcp-x86-capacity-20260816"
    core = [float(r["ips"]) for r in rows(cap + "/core/results.tsv")]
    base = (statistics.median(core), min(core), max(core))
    pts = [(float(r["gomaxprocs"]), float(r["tput"])) for r in rows(shared + "/sky/gomaxprocs-scaling-20260816/results.tsv")
           if r["block"] in ("1", "2", "3") and r["gomaxprocs"] in ("1", "2", "4")]
    # power law X = a N^b by Gauss-Newton from the log-log OLS
    lx = [math.log(n) for n, _ in pts]; ly = [math.log(x) for _, x in pts]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    b = sum((u - mx) * (v - my) for u, v in zip(lx, ly)) / sum((u - mx) ** 2 for u in lx)
    a = math.exp(my - b * mx)
    for _ in range(100):
        J = [(n ** b, a * n ** b * math.log(n)) for n, _ in pts]
        r = [x - a * n ** b for n, x in pts]
        s00 = sum(j[0] * j[0] for j in J); s01 = sum(j[0] * j[1] for j in J); s11 = sum(j[1] * j[1] for j in J)
        g0 = sum(j[0] * e for j, e in zip(J, r)); g1 = sum(j[1] * e for j, e in zip(J, r))
        det = s00 * s11 - s01 * s01
        a += (s11 * g0 - s01 * g1) / det; b += (s00 * g1 - s01 * g0) / det
    J = [(n ** b, a * n ** b * math.log(n)) for n, _ in pts]
    sse = sum((x - a * n ** b) ** 2 for n, x in pts)
    s00 = sum(j[0] * j[0] for j in J); s01 = sum(j[0] * j[1] for j in J); s11 = sum(j[1] * j[1] for j in J)
    se_b = math.sqrt(s00 / (s00 * s11 - s01 * s01) * sse / (len(pts) - 2))
    d = 2 ** b; dse = d * math.log(2) * se_b
    pd = (d, d - 1.96 * dse, d + 1.96 * dse)
    aff = rows(shared + "/writeups/gomaxprocs-affinity/runs.tsv")
    sib = [float(r["tput"]) for r in aff if r["cpuset"] == "0,4,1,5"]
    two = [float(r["tput"]) for r in aff if r["cpuset"] == "" and r["procs"] == "1" and r["threads_per_proc"] == "2"]
    smt = (statistics.median(sib) / statistics.median(two), min(sib) / max(two), max(sib) / min(two))
    sysr = [r for r in rows(cap + "/system.tsv") if r["target"] == "medium" and r["cfg"] == "pg" and r["block"] in ("1", "2", "3")]
    xs = [float(r["level"]) for r in sysr]; ys = [float(r["load_app_kb"]) for r in sysr]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    slope = sum((u - mx) * (v - my) for u, v in zip(xs, ys)) / sum((u - mx) ** 2 for u in xs)
    app_gib = (my - slope * mx + slope * 500) / 1048576
    # co-located PostgreSQL: per run, the median pg_tree_rss_kb (samples
    # column 3) over the plateau of the system.tsv rule of FORMATS.md (conn >=
    # 0.8 max, one row off each end when more than 5), statistics.median
    # (the harness takes the upper median: load_pg_rss_kb of system.tsv
    # differs on even windows); then the median over the runs
    pg = [plateau_median(cap + "/samples/" + r["run"] + ".tsv", 2) for r in sysr]
    mem_gib = app_gib + statistics.median(pg) / 1048576 + 512 / 1024
    return base, pd, smt, mem_gib, len(pts), len(sysr)
def plateau_median(path, col):
    t = [[float(x) for x in l.split("\t")] for l in open(path).read().split("\n") if l]
    mx = max(r[6] for r in t)
    idx = [i for i, r in enumerate(t) if r[6] >= 0.8 * mx]
    lo, hi = idx[0], idx[-1]
    if hi - lo > 4:
        lo, hi = lo + 1, hi - 1
    return statistics.median(r[col] for r in t[lo:hi + 1])
def scale(p, d):
    return d ** math.log2(p) if p >= 1 else p
def predict(inst, base, pd, smt, k):
    p = float(inst["vcpus"]) * float(inst["sustained_vcpu_fraction"]) / float(inst["threads_per_core"])
    s = smt[k] if inst["threads_per_core"] == "2" else 1.0
    return base[k] * scale(p, pd[k] if p >= 1 else 1.0) * s
'

# cheapest_rows: the instances whose flags say CHEAPEST (column found by name)
cheapest_rows() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "flags") f = i; next }
		$f ~ /CHEAPEST/ { print $1 }' "$T/.out" | paste -sd, -
}

echo "# coreplan: $BIN"
echo "# temp: $T"
