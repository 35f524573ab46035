#!/usr/bin/env bash
# End-to-end tests of `coreplan topology`, `coreplan smt` and `coreplan
# translate`: physical cores, what SMT threads are worth, and carrying
# figures from one CPU to another.
#
#   bash tests/e2e/physical.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# In a mktemp -d folder (removed on exit) it checks: `topology` on this
# machine against nproc and the distinct (physical_package_id, core_id)
# pairs of /sys/devices/system/cpu (counted here in bash) and against this
# machine's `lscpu -p`; `topology --from` on the affinity write-up's
# lscpu.txt (8 logical, 4 physical, 2 per core) and on bad input; `smt` on
# SHARED/writeups/gomaxprocs-affinity imported with
# REPO_ROOT/fixtures/manifests/gomaxprocs-affinity.manifest, against the
# figures of seed 000 (0.70, 1.27, 1.17, ~5.07, 4.92) and python3 medians
# of runs.tsv; `smt` without a host (usage, exit 2); a cpuset naming a CPU
# twice (the same set) or a CPU the host lacks (an error naming the run);
# `translate` M1 -> x86 on SHARED/sky/gcp-x86-capacity-20260816, one factor
# per kind, against seed 001 (2.96x, x86 uses 15-19% less memory) and
# python3 medians and means of m1/m1.tsv and core/results.tsv (cpu_time with
# m1's 51 s cpu_s bounded to the 45 s window, FORMATS.md); `translate
# --apply` (each figure with its own kind's factor, the kinds from the
# units and names), `--check subcorpus=core` against core/results.tsv's
# medians, `--apply-medians`, and the refusals (the view applied); JSON output parsed with
# python3: rows and the facts (smt's figures and bounds, translate's
# factors, intervals and mixed-statistics bounds, against python3; topology
# --show reads a database it never creates); doc_check.py on topology
# --show, smt and translate (every number the Markdown shows is a JSON
# number; tsv = JSON).
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
AFF=$SHARED/writeups/gomaxprocs-affinity
AFF_MANIFEST=$ROOT/fixtures/manifests/gomaxprocs-affinity.manifest
CAP=$SHARED/sky/gcp-x86-capacity-20260816
SYSCPU=/sys/devices/system/cpu
unset COREPLAN_DB

T=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-physical.XXXXXX") || exit 2
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

DB=$T/physical.db
# tsvget2 KEYCOL KEY KEYCOL2 KEY2 COL: like tsvget, the row matching two keys.
tsvget2() {
	awk -F'\t' -v kc="$1" -v key="$2" -v kc2="$3" -v key2="$4" -v vc="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == kc) k = i; if ($i == kc2) k2 = i; if ($i == vc) v = i }; next }
		k && k2 && v && $k == key && $k2 == key2 { print $v }' "$T/.out"
}
# round X PLACES
round() { awk -v x="$1" -v p="$2" 'BEGIN { printf "%.*f\n", p, x }'; }
# py_check NAME SCRIPT ARGS...: SCRIPT reads $T/.out (argv[1]); prints "ok" or a reason.

# TSV reader (plain split: the corpora have no quoting) and a closeness test.
PYLIB='
import json, math, statistics, sys
def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)
'

echo "# coreplan: $BIN"
echo "# temp: $T"

###########################################################################
# topology on this machine
###########################################################################
echo "# topology: this machine"
e2e_case topology-here
cpl topology --host here --format tsv
expect_rc "topology (probe this machine) exits 0" 0
NPROC=$(nproc)
check_eq "topology: logical_cpus = nproc ($NPROC)" "$NPROC" "$(tsvget host here logical_cpus)"
# distinct (physical_package_id, core_id) pairs of the online CPUs
PAIRS=$(for d in "$SYSCPU"/cpu[0-9]*; do
	[ -r "$d/topology/core_id" ] || continue
	echo "$(cat "$d/topology/physical_package_id") $(cat "$d/topology/core_id")"
done | sort -u | wc -l)
check_eq "topology: physical_cores = distinct (package, core) pairs in $SYSCPU ($PAIRS)" \
	"$PAIRS" "$(tsvget host here physical_cores)"
check_eq "topology: source sysfs" "sysfs" "$(tsvget host here source)"
HERE_LOGICAL=$(tsvget host here logical_cpus)
HERE_PHYSICAL=$(tsvget host here physical_cores)
HERE_PER_CORE=$(tsvget host here threads_per_core)
if [ -n "$HERE_LOGICAL" ] && [ -n "$HERE_PHYSICAL" ] && [ -n "$HERE_PER_CORE" ] &&
	[ $((HERE_PHYSICAL * HERE_PER_CORE)) -ge "$HERE_LOGICAL" ] && [ "$HERE_PHYSICAL" -le "$HERE_LOGICAL" ]; then
	ok "topology: physical_cores <= logical_cpus <= physical_cores x threads_per_core"
else
	not_ok "topology: physical_cores <= logical_cpus <= physical_cores x threads_per_core" "$OUT"
fi
cpl topology --format tsv
expect_rc "topology without --host exits 0" 0
check_eq "topology: the default host name is this machine's name" "$(hostname)" \
	"$(awk -F'\t' 'NR == 2 { print $1 }' "$T/.out")"

if command -v lscpu >/dev/null && lscpu -p >"$T/lscpu-here.txt" 2>/dev/null; then
	cpl topology --from "$T/lscpu-here.txt" --host here-lscpu --format tsv
	expect_rc "topology --from this machine's lscpu -p exits 0" 0
	check_eq "topology: this machine's lscpu -p gives the probe's logical CPUs" "$HERE_LOGICAL" \
		"$(tsvget host here-lscpu logical_cpus)"
	check_eq "topology: this machine's lscpu -p gives the probe's physical cores" "$HERE_PHYSICAL" \
		"$(tsvget host here-lscpu physical_cores)"
else
	echo "# lscpu not available: skipping the lscpu -p comparison"
fi

###########################################################################
# topology --from the affinity host's lscpu -p
###########################################################################
echo "# topology: the affinity write-up's host"
e2e_case topology-affinity topology-here
cpl topology --from "$AFF/lscpu.txt" --host epyc --format tsv
expect_rc "topology --from lscpu.txt --host epyc exits 0" 0
check_eq "topology epyc: 8 logical CPUs" "8" "$(tsvget host epyc logical_cpus)"
check_eq "topology epyc: 4 physical cores" "4" "$(tsvget host epyc physical_cores)"
check_eq "topology epyc: 2 threads per core" "2" "$(tsvget host epyc threads_per_core)"
check_eq "topology epyc: 1 socket" "1" "$(tsvget host epyc sockets)"
check_eq "topology epyc: siblings 0/4 1/5 2/6 3/7" "0,4 1,5 2,6 3,7" "$(tsvget host epyc cores)"
check_eq "topology epyc: source lscpu -p" "lscpu -p" "$(tsvget host epyc source)"

cpl topology --show --format json
expect_rc "topology --show --format json exits 0" 0
py_check "topology --show --format json parses: epyc and here" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["hosts"]["rows"]
by = {r["host"]: r for r in rows}
e = by.get("epyc", {})
ok = ("here" in by and e.get("logical_cpus") == 8 and e.get("physical_cores") == 4
      and e.get("threads_per_core") == 2 and e.get("sockets") == 1
      and d["facts"]["hosts"]["value"] == len(rows) and d["facts"]["action"]["value"] == "shown")
print("ok" if ok else repr(d)[:400])'
# the lscpu.txt counted here: CPU lines, distinct (socket, core) pairs, each core's CPUs
py_check "topology --show --format json: epyc's counts and cores list match python3 on lscpu.txt" '
import json, sys
d = json.load(open(sys.argv[1]))
e = {r["host"]: r for r in d["sections"]["hosts"]["rows"]}["epyc"]
head, cpus = None, []
for line in open(sys.argv[2]):
    line = line.strip()
    if line.startswith("# CPU"):
        head = line[2:].split(",")
    elif line and not line.startswith("#"):
        cpus.append(dict(zip(head, line.split(","))))
cores = {}
for c in cpus:
    cores.setdefault((c["Socket"], c["Core"]), []).append(int(c["CPU"]))
order = sorted(cores.values(), key=min)
want = {"logical_cpus": len(cpus), "physical_cores": len(cores),
        "sockets": len({c["Socket"] for c in cpus}),
        "threads_per_core": max(len(v) for v in cores.values()),
        "cores": " ".join(",".join(str(x) for x in sorted(v)) for v in order)}
bad = ["%s: %r, python %r" % (k, e.get(k), v) for k, v in want.items() if e.get(k) != v]
print("\n".join(bad) if bad else "ok")' "$AFF/lscpu.txt"

cpl topology --show --host epyc
expect_rc "topology --show --host epyc exits 0" 0
check_contains "topology --show --host epyc: the md table names epyc" "$OUT" "| epyc "

printf '0,4\n1,5\n4,5\n' >"$T/bad-siblings.txt"
cpl topology --from "$T/bad-siblings.txt" --host bad
expect_rc "topology --from a CPU in two sibling sets exits 1" 1
check_contains "topology: the sibling-set error names file:line" "$ERR" "bad-siblings.txt:3:"
printf '# CPU,Core,Socket,Node\n0,0,0,0\n1,x,0,0\n' >"$T/bad-lscpu.txt"
cpl topology --from "$T/bad-lscpu.txt" --host bad
expect_rc "topology --from a non-number exits 1" 1
check_contains "topology: the non-number error names file:line:col" "$ERR" "bad-lscpu.txt:3:2:"
cpl topology --show --host bad
expect_rc "topology: a failed --from stores nothing (--show --host bad exits 1)" 1
cpl topology --show --from "$AFF/lscpu.txt"
expect_rc "topology --show --from is a usage error (exit 2)" 2
# --show only reads: a missing database is an error, not created; a recording creates it
DB_MAIN=$DB
DB=$T/none.db
cpl topology --show
expect_rc "topology --show on a missing database exits 1" 1
if [ -e "$T/none.db" ]; then
	not_ok "topology --show does not create the database" "$T/none.db exists"
else
	ok "topology --show does not create the database"
fi
cpl topology --from "$AFF/lscpu.txt" --format json
expect_rc "topology --from without --host (database created) exits 0" 0
check_eq "topology --from without --host: the host is the file's base name; facts action, hosts" \
	"lscpu recorded 1" \
	"$(jget 'd["sections"]["hosts"]["rows"][0]["host"], d["facts"]["action"]["value"], d["facts"]["hosts"]["value"]' | tr -d "(),'")"
DB=$DB_MAIN

###########################################################################
# smt on the affinity write-up
###########################################################################
echo "# smt"
e2e_case smt topology-affinity
cpl import -q "$AFF" --manifest "$AFF_MANIFEST"
expect_rc "import gomaxprocs-affinity with its manifest" 0
cpl smt --corpus gomaxprocs-affinity --format tsv
expect_rc "smt --corpus gomaxprocs-affinity --format tsv exits 0" 0
cp "$T/.out" "$T/smt.tsv"
# figure | seed value (rounded as the seed rounds it) | places | num_n | den_n
while IFS='|' read -r fig want places num_n den_n; do
	v=$(tsvget figure "$fig" value)
	check_eq "smt $fig rounds to $want" "$want" "$(round "${v:-nan}" "$places")" "value '$v'"
	check_eq "smt $fig: numerator n = $num_n, denominator n = $den_n" "$num_n $den_n" \
		"$(tsvget figure "$fig" num_n) $(tsvget figure "$fig" den_n)"
	nr=$(tsvget figure "$fig" num_runs)
	dr=$(tsvget figure "$fig" den_runs)
	if [ "$(tr ',' '\n' <<<"$nr" | grep -c .)" == "$num_n" ] &&
		[ "$(tr ',' '\n' <<<"$dr" | grep -c .)" == "$den_n" ]; then
		ok "smt $fig: num_runs and den_runs list the runs"
	else
		not_ok "smt $fig: num_runs and den_runs list the runs" "num_runs '$nr' den_runs '$dr'"
	fi
done <<'EOF'
shared_vs_distinct|0.70|2|3|3
smt_factor|1.27|2|3|3
smt_step|1.17|2|6|3
ceiling|5.07|2|3|3
sharded 8x1|4.92|2|3|3
EOF
# the seed's "about 5x" ceiling: 4 physical cores x 1.27
check_eq "smt ceiling is about 5 (4 x 1.27)" "5" "$(round "$(tsvget figure ceiling value)" 0)"
check_contains "smt step: the 8-thread arm includes the shard-1x8 control runs" \
	"$(tsvget figure smt_step num_runs)" "shard-1x8-r1"
check_contains "smt sharded 8x1: note says 97% of the ceiling 5.07" \
	"$(tsvget figure "sharded 8x1" note)" "97% of the ceiling 5.07"

# Each figure against python3 medians of runs.tsv (values and range bounds).
py_check "smt: every figure and its bounds match python3 medians of runs.tsv (1e-9)" "$PYLIB"'
ours = {r["figure"]: r for r in rows(sys.argv[1])}
R = rows(sys.argv[2])
def arm(f): return [float(r["tput"]) for r in R if f(r)]
def unpinned(t): return arm(lambda r: r["cpuset"] == "" and r["procs"] == "1" and r["threads_per_proc"] == str(t))
sib = arm(lambda r: r["cpuset"] == "0,4,1,5"); dis = arm(lambda r: r["cpuset"] == "0,1,2,3")
shard = lambda p, t: arm(lambda r: r["procs"] == str(p) and r["threads_per_proc"] == str(t))
m = statistics.median
want = {"shared_vs_distinct": (sib, dis), "smt_factor": (sib, unpinned(2)),
        "smt_step": (unpinned(8), unpinned(4)), "sharded 8x1": (shard(8, 1), unpinned(1)),
        "sharded 4x2": (shard(4, 2), unpinned(1)), "sharded 2x4": (shard(2, 4), unpinned(1))}
bad = []
for name, (a, b) in want.items():
    o = ours.get(name)
    if o is None:
        bad.append(name + ": missing"); continue
    for col, x in (("value", m(a) / m(b)), ("range_lo", min(a) / max(b)), ("range_hi", max(a) / min(b))):
        if not close(float(o[col]), x, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (name, col, o[col], x))
s, l, h = (x * 4 for x in (m(sib) / m(unpinned(2)), min(sib) / max(unpinned(2)), max(sib) / min(unpinned(2))))
for col, x in (("value", s), ("range_lo", l), ("range_hi", h)):
    if not close(float(ours["ceiling"][col]), x, 1e-9):
        bad.append("ceiling %s: coreplan %s, python %r" % (col, ours["ceiling"][col], x))
print("\n".join(bad) if bad else "ok")' "$AFF/runs.tsv"

cpl smt --corpus gomaxprocs-affinity
expect_rc "smt (md) exits 0" 0
check_contains "smt md: the host line" "$OUT" "host gomaxprocs-affinity: 8 logical CPUs on 4 physical cores (2 per core)"
check_contains "smt md: the smt_factor row states the spreading assumption" "$OUT" "assumed"

cpl smt --corpus gomaxprocs-affinity --format json
expect_rc "smt --format json exits 0" 0
py_check "smt --format json parses: 7 figures, smt_factor 1.2675" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["figures"]["rows"]
by = {r["figure"]: r for r in rows}
ok = len(rows) == 7 and abs(by["smt_factor"]["value"] - 1.2675219529905761) < 1e-9 and by["smt_step"]["num_n"] == 6
print("ok" if ok else repr(d)[:400])'
# every figure a fact with its bounds (name with _ for spaces), against python3
# medians of runs.tsv; host, counts, runs and the placement assumption
py_check "smt --format json facts: each figure, _lo and _hi match python3 medians of runs.tsv; host, logical_cpus, physical_cores, runs, placement" "$PYLIB"'
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
R = rows(sys.argv[2])
def arm(p): return [float(r["tput"]) for r in R if p(r)]
def unpinned(t): return arm(lambda r: r["cpuset"] == "" and r["procs"] == "1" and r["threads_per_proc"] == str(t))
sib = arm(lambda r: r["cpuset"] == "0,4,1,5"); dis = arm(lambda r: r["cpuset"] == "0,1,2,3")
shard = lambda p, t: arm(lambda r: r["procs"] == str(p) and r["threads_per_proc"] == str(t))
m = statistics.median
arms = {"shared_vs_distinct": (sib, dis), "smt_factor": (sib, unpinned(2)),
        "smt_step": (unpinned(8), unpinned(4)), "sharded_8x1": (shard(8, 1), unpinned(1)),
        "sharded_4x2": (shard(4, 2), unpinned(1)), "sharded_2x4": (shard(2, 4), unpinned(1))}
want = {}
for name, (a, b) in arms.items():
    want[name], want[name + "_lo"], want[name + "_hi"] = m(a) / m(b), min(a) / max(b), max(a) / min(b)
for k in ("", "_lo", "_hi"):
    want["ceiling" + k] = 4 * want["smt_factor" + k]
bad = ["%s: %r, python %r" % (k, f.get(k), v) for k, v in want.items()
       if not isinstance(f.get(k), float) or not close(f[k], v, 1e-9)]
exact = {"host": "gomaxprocs-affinity", "logical_cpus": 8, "physical_cores": 4, "threads_per_core": 2,
         "runs": len(R), "metric": "tput"}
bad += ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in exact.items() if f.get(k) != v]
if "min(T, physical cores)" not in f.get("placement", ""):
    bad.append("placement %r" % f.get("placement"))
print("\n".join(bad) if bad else "ok")' "$AFF/runs.tsv"

cpl smt --corpus gomaxprocs-affinity --host epyc --format tsv
expect_rc "smt --host epyc (the same topology recorded by hand) exits 0" 0
check_eq "smt --host epyc: the same smt_factor" "$(awk -F'\t' '$1 == "smt_factor" { print $2 }' "$T/smt.tsv")" \
	"$(tsvget figure smt_factor value)"

# Without a host: the manifest minus its topology line, in its own database.
grep -v '^topology' "$AFF_MANIFEST" >"$T/nohost.manifest"
DB_MAIN=$DB
DB=$T/nohost.db
cpl import -q --name nohost "$AFF" --manifest "$T/nohost.manifest"
expect_rc "import the affinity corpus without a topology" 0
cpl smt --corpus nohost
expect_rc "smt without a host is a usage error (exit 2)" 2
check_contains "smt without a host: says how to record a topology" "$ERR" "coreplan topology --from FILE --host NAME"
check_contains "smt without a host: says to pass --host" "$ERR" "--host"
cpl smt --corpus nohost --host nosuch
expect_rc "smt --host with an unknown host exits 1" 1
check_contains "smt --host nosuch: names the host" "$ERR" "'nosuch'"
cpl topology --from "$AFF/lscpu.txt" --host epyc
cpl smt --corpus nohost --host epyc --format tsv
expect_rc "smt --corpus nohost --host epyc exits 0" 0
check_eq "smt --host epyc on the corpus without a topology: the same smt_step" \
	"$(awk -F'\t' '$1 == "smt_step" { print $2 }' "$T/smt.tsv")" "$(tsvget figure smt_step value)"

# The affinity corpus with one cpuset edited: a CPU listed twice is the
# same set (0,4,1,5,0 = 0,4,1,5); a CPU the host lacks is an error naming
# the run.
mkdir -p "$T/dup" "$T/off"
cp "$AFF/lscpu.txt" "$T/dup/"
cp "$AFF/lscpu.txt" "$T/off/"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "pin-siblings-r2" { $6 = "0,4,1,5,0" } { print }' \
	"$AFF/runs.tsv" >"$T/dup/runs.tsv"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "pin-distinct-r3" { $6 = "0,1,2,9" } { print }' \
	"$AFF/runs.tsv" >"$T/off/runs.tsv"
cpl import -q --name dup "$T/dup" --manifest "$AFF_MANIFEST"
expect_rc "import the affinity corpus with pin-siblings-r2 on 0,4,1,5,0" 0
cpl smt --corpus dup --format tsv
expect_rc "smt: a cpuset naming CPU 0 twice (0,4,1,5,0) is read as 0,4,1,5 (exit 0)" 0
check_eq "smt: with 0,4,1,5,0 the smt_factor is unchanged" \
	"$(awk -F'\t' '$1 == "smt_factor" { print $2 }' "$T/smt.tsv")" "$(tsvget figure smt_factor value)"
cpl import -q --name off "$T/off" --manifest "$AFF_MANIFEST"
expect_rc "import the affinity corpus with pin-distinct-r3 on 0,1,2,9" 0
cpl smt --corpus off --format tsv
expect_rc "smt: a cpuset naming CPU 9 on an 8-CPU host exits 1" 1
check_contains "smt: the error names CPU 9" "$ERR" "CPU 9"
check_contains "smt: the error names the run" "$ERR" "pin-distinct-r3"
DB=$DB_MAIN

###########################################################################
# translate: M1 -> x86 on the capacity corpus, one factor per kind
###########################################################################
echo "# translate"
e2e_case translate
cpl import -q "$CAP"
expect_rc "import gcp-x86-capacity-20260816" 0
XL=(translate --from subcorpus=m1 --to subcorpus=core)
cpl "${XL[@]}" --format tsv
expect_rc "translate --from subcorpus=m1 --to subcorpus=core --format tsv exits 0" 0
cp "$T/.out" "$T/translate.tsv"
check_eq "translate: one row per kind, in order" \
	"rate cpu_time idle_memory loaded_memory session_slope latency" \
	"$(awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $1 }' "$T/translate.tsv")"
RATE=$(tsvget kind rate factor)
check_eq "translate: the median rate factor rounds to 3.00" "3.00" "$(round "${RATE:-nan}" 2)"

# every kind's factor from the files: m1.tsv and core/results.tsv (python3 medians and means);
# cpu_time: m1's cpu_s spans 3 + 3 + 45 = 51 s (FORMATS.md), its window's CPU lies between
# cpu_s x 45/51 and cpu_s, the run's value their midpoint; core's cpu_s_win is the window's
py_check "translate: every kind's factor, mean factor, range (and cpu_time's ends) match python3 (1e-9)" "$PYLIB"'
out = {r["kind"]: r for r in rows(sys.argv[1])}
m1 = rows(sys.argv[2] + "/m1/m1.tsv"); x86 = rows(sys.argv[2] + "/core/results.tsv")
col = lambda rs, k: [float(r[k]) for r in rs]
m = statistics.median; mean = statistics.mean
def ratio(a, b):  # b / a
    return (m(b) / m(a), mean(b) / mean(a), min(b) / max(a), max(b) / min(a))
a, b = col(m1, "tput"), col(x86, "ips")
want = {"rate": (m(a) / m(b), mean(a) / mean(b), min(a) / max(b), max(a) / min(b)),
        "idle_memory": ratio(col(m1, "idle_rss"), col(x86, "rss_idle_kb")),
        "loaded_memory": ratio(col(m1, "load_rss"), col(x86, "rss_load_med_kb")),
        "latency": ratio(col(m1, "p50"), col(x86, "p50_ms"))}
hi = [float(r["cpu_s"]) * 1e6 / float(r["ints"]) for r in m1]
lo = [h * 45 / 51 for h in hi]
mid = [(x + y) / 2 for x, y in zip(lo, hi)]
to = [float(r["cpu_s_win"]) * 1e6 / float(r["ints"]) for r in x86]
want["cpu_time"] = (m(to) / m(mid), mean(to) / mean(mid), min(to) / max(hi), max(to) / min(lo))
bad = []
for kind, (f, fm, rlo, rhi) in want.items():
    o = out[kind]
    if o["status"] != "measured":
        bad.append("%s: %s" % (kind, o["status"])); continue
    for c, x in (("factor", f), ("mean_factor", fm), ("range_lo", rlo), ("range_hi", rhi)):
        if not close(float(o[c]), x, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (kind, c, o[c], x))
    if not float(o["ci_lo"]) <= float(o["factor"]) <= float(o["ci_hi"]):
        bad.append("%s: factor outside its interval" % kind)
c = out["cpu_time"]
for k, x in (("end_lo", m(to) / m(hi)), ("end_hi", m(to) / m(lo))):
    if not close(float(c[k]), x, 1e-9):
        bad.append("cpu_time %s: coreplan %s, python %r" % (k, c[k], x))
if not float(c["ci_lo"]) <= float(c["end_lo"]) < float(c["end_hi"]) <= float(c["ci_hi"]):
    bad.append("cpu_time: the interval does not hold both ends: %r" % c)
if out["session_slope"]["status"] != "not measured" or out["session_slope"]["factor"] != "NA":
    bad.append("session_slope: %r" % out["session_slope"])
print("\n".join(bad) if bad else "ok")' "$CAP"
check_contains "translate: cpu_time states how the windows were matched" \
	"$(tsvget kind cpu_time method)" \
	"windows mismatched, carried into the interval: apple-m1: cpu_s spans ramp 3 s + warm-up 3 s + window 45 s = 51 s, so its CPU per counted interaction lies between cpu_s x 45/51 (the window's share) and all of cpu_s; gce-e2: cpu_s covers the counted window"
check_contains "translate: cpu_time in words gives both ends" "$(tsvget kind cpu_time in_words)" \
	"gce-e2 needs 2.97x the CPU time per operation of apple-m1 (2.79x to 3.16x as the windows are bounded)"
check_contains "translate: the slope says why it is not measured" "$(tsvget kind session_slope in_words)" \
	"not measured: apple-m1's runs have one session count (25): no per-session slope"
check_contains "translate: latency says why it may be translated" "$(tsvget kind latency method)" \
	"both arms closed-loop (think time 0) at 25 sessions, the app CPU-saturated"
check_eq "translate: the latency factor is 103.254 / 30.021 (4 decimals)" \
	"$(awk 'BEGIN { printf "%.4f", 103.254 / 30.021 }')" "$(round "$(tsvget kind latency factor)" 4)"

py_check "translate: memory says x86 uses less than M1, 15-19% (rounded), idle 18.4 and loaded 14.8" '
import re, sys
lines = open(sys.argv[1]).read().split("\n")
head = lines[0].split("\t")
by = {}
for l in lines[1:]:
    if l:
        r = dict(zip(head, l.split("\t"))); by[r["kind"]] = r
bad = []
for kind, pct, when in (("idle_memory", "18.4", "at idle"), ("loaded_memory", "14.8", "under load")):
    w = by[kind]["in_words"]
    g = re.fullmatch(r"gce-e2 uses ([0-9.]+)%% less than apple-m1 %s" % when, w)
    if not g:
        bad.append("%s: in_words %r" % (kind, w)); continue
    if g.group(1) != pct or not 15 <= round(float(g.group(1))) <= 19:
        bad.append("%s: %s%%, expected %s%% (the seed: 15-19%%)" % (kind, g.group(1), pct))
print("\n".join(bad) if bad else "ok")' "$T/translate.tsv"

cpl "${XL[@]}"
expect_rc "translate (md) exits 0" 0
check_contains "translate md: the rate row names its kind and status" "$OUT" "| rate          | measured "
check_contains "translate md: the slope row is not measured" "$OUT" "| session_slope | not measured "
MIXED=$(sed -n 's/.*between \([0-9.]*\) (mean(from) \/ median(to)) and \([0-9.]*\) (median(from) \/ mean(to)).*/\1 \2/p' <<<"$OUT")
if [ -n "$MIXED" ] && awk -v lo="${MIXED% *}" -v hi="${MIXED#* }" 'BEGIN { exit !(lo < 2.96 && 2.96 < hi) }'; then
	ok "translate md: the mixed-statistics range ($MIXED) contains the seed's 2.96"
else
	not_ok "translate md: the mixed-statistics range contains the seed's 2.96" "range '$MIXED' in:"$'\n'"$OUT"
fi

cpl "${XL[@]}" --format json
expect_rc "translate --format json exits 0" 0
py_check "translate --format json facts: each kind's factor and interval (the table's), mixed bounds, arms" "$PYLIB"'
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
by = {r["kind"]: r for r in d["sections"]["factors"]["rows"]}
m1 = rows(sys.argv[2] + "/m1/m1.tsv"); x86 = rows(sys.argv[2] + "/core/results.tsv")
a = [float(r["tput"]) for r in m1]; b = [float(r["ips"]) for r in x86]
m = statistics.median; mean = statistics.mean
bad = []
for kind, r in by.items():
    for k in ("factor", "ci_lo", "ci_hi", "mean_factor"):
        if f.get("%s_%s" % (kind, k)) != r[k]:
            bad.append("%s_%s: %r, table %r" % (kind, k, f.get("%s_%s" % (kind, k)), r[k]))
    if f.get(kind + "_measured") != (r["status"] == "measured"):
        bad.append(kind + "_measured")
want = {"rate_factor": m(a) / m(b), "mixed_lo": min(mean(a) / m(b), m(a) / mean(b)),
        "mixed_hi": max(mean(a) / m(b), m(a) / mean(b))}
bad += ["%s: %r, python %r" % (k, f.get(k), v) for k, v in want.items()
        if not isinstance(f.get(k), float) or not close(f[k], v, 1e-9)]
exact = {"from": "apple-m1", "to": "gce-e2", "from_where": "subcorpus=m1", "to_where": "subcorpus=core",
         "from_runs": 3, "to_runs": 3, "metric": "tput", "seed": 1, "resamples": 10000,
         "session_slope_factor": None, "check_runs": 0, "checks_inside": 0}
bad += ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in exact.items() if f.get(k) != v]
if len(by) != 6 or d["sections"]["applied"]["rows"] != []:
    bad.append("%d kinds, applied %r" % (len(by), d["sections"]["applied"]["rows"]))
print("\n".join(bad) if bad else "ok")' "$CAP"

cpl "${XL[@]}" --seed 7 --format tsv
cp "$T/.out" "$T/seed7a.tsv"
cpl "${XL[@]}" --seed 7 --format tsv
if cmp -s "$T/.out" "$T/seed7a.tsv"; then
	ok "translate --seed 7 twice: the same intervals"
else
	not_ok "translate --seed 7 twice: the same intervals" "$(diff "$T/seed7a.tsv" "$T/.out")"
fi

###########################################################################
# translate --apply and --check
###########################################################################
echo "# translate --apply"
e2e_case translate-apply translate
# the capacity write-up's M1 figures (seed 001), plus rates of other units
printf 'name\tvalue\tunit\nthroughput\t897\tint/s\ncpu per interaction\t1199\t\xc2\xb5s\nidle rss\t34752\tkB\nloaded rss\t63328\tkB\nper-session slope\t585\tkB/session\np50 latency\t30\tms\npeak\t1200\tqps\nnet\t1.2\tGbps\ndisk\t50\tMB/s\n' \
	>"$T/figures.tsv"
cpl "${XL[@]}" --apply "$T/figures.tsv" --check subcorpus=core --format tsv --view applied
expect_rc "translate --apply figures.tsv --check subcorpus=core --view applied exits 0" 0
cp "$T/.out" "$T/applied.tsv"
check_eq "apply: one row per figure" "9" "$(($(wc -l <"$T/applied.tsv") - 1))"
py_check "apply: each figure with its own kind's factor and interval (rates divided, the rest multiplied)" '
import sys
def rows(path):
    lines = open(path).read().split("\n"); head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
out = rows(sys.argv[1]); fac = {r["kind"]: r for r in rows(sys.argv[2])}
kinds = {"throughput": "rate", "cpu per interaction": "cpu_time", "idle rss": "idle_memory",
         "loaded rss": "loaded_memory", "per-session slope": "session_slope", "p50 latency": "latency",
         "peak": "rate", "net": "rate", "disk": "rate"}
bad = []
for r in out:
    k = kinds[r["name"]]
    if r["kind"] != k:
        bad.append("%s: kind %s, expected %s" % (r["name"], r["kind"], k)); continue
    if k == "session_slope":
        if r["status"] != "not translated" or r["translated"] != "NA" or "one session count" not in r["how"]:
            bad.append("slope: %r" % r)
        continue
    v = float(r["value"]); f = fac[k]
    F, lo, hi = float(f["factor"]), float(f["ci_lo"]), float(f["ci_hi"])
    want = (v / F, v / hi, v / lo) if k == "rate" else (v * F, v * lo, v * hi)
    got = (float(r["translated"]), float(r["translated_lo"]), float(r["translated_hi"]))
    for g, w, c in zip(got, want, ("translated", "translated_lo", "translated_hi")):
        if abs(g - w) > 1e-9 * abs(w):
            bad.append("%s %s: coreplan %r, expected %r" % (r["name"], c, g, w))
    if float(r["factor"]) != F:
        bad.append("%s: factor %s, its kind %s" % (r["name"], r["factor"], F))
    if r["status"] != "translated" or "with the %s factor" % k not in r["how"]:
        bad.append("%s: not labelled: %r %r" % (r["name"], r["status"], r["how"]))
print("\n".join(bad) if bad else "ok")' "$T/translate.tsv"
# the corpus's x86 figures (core/results.tsv medians: ips 299.3, cpu_ms_per_int 3.3470,
# rss_idle_kb 28272, rss_load_med_kb 53956, p50_ms 103.254) inside each translated interval
py_check "apply: the x86 medians of core/results.tsv lie inside the translations of the M1 figures" "$PYLIB"'
out = {r["name"]: r for r in rows(sys.argv[1])}
x86 = rows(sys.argv[2] + "/core/results.tsv")
m = statistics.median
want = {"throughput": m(float(r["ips"]) for r in x86),
        "cpu per interaction": m(float(r["cpu_ms_per_int"]) for r in x86) * 1000,
        "idle rss": m(float(r["rss_idle_kb"]) for r in x86),
        "loaded rss": m(float(r["rss_load_med_kb"]) for r in x86),
        "p50 latency": m(float(r["p50_ms"]) for r in x86)}
bad = []
for name, x in want.items():
    r = out[name]
    if not float(r["translated_lo"]) <= x <= float(r["translated_hi"]):
        bad.append("%s: %r outside [%s, %s]" % (name, x, r["translated_lo"], r["translated_hi"]))
    if r["check"] != "inside" or not close(float(r["measured"]), x, 1e-3) or r["measured_n"] != "3":
        bad.append("%s: check %r, measured %s (python %r)" % (name, r["check"], r["measured"], x))
for name in ("net", "disk", "peak"):
    if not out[name]["check"].startswith("not checked: the check runs measure"):
        bad.append("%s: %r" % (name, out[name]["check"]))
print("\n".join(bad) if bad else "ok")' "$CAP"
check_eq "apply: 30 ms p50 becomes 30 x 3.4394 = 103.18 ms (the latency factor, not the rate's 89.9)" \
	"103.18" "$(round "$(tsvget name "p50 latency" translated)" 2)"

cpl "${XL[@]}" --apply "$T/figures.tsv" --check subcorpus=core --format json
expect_rc "apply --check --format json exits 0" 0
py_check "apply --check --format json: 5 inside, 0 outside, the check runs are the to-arm's (note)" '
import json, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
notes = " ".join(d["sections"]["applied"]["notes"])
ok = (f["checks_inside"] == 5 and f["checks_outside"] == 0 and f["check_runs"] == 3 and f["check_is_to"] is True
      and "by construction" in notes and len(d["sections"]["applied"]["rows"]) == 9
      and all(r["status"] in ("translated", "not translated") for r in d["sections"]["applied"]["rows"])
      and all((r["status"] == "translated") == isinstance(r["translated"], (int, float)) for r in d["sections"]["applied"]["rows"]))
print("ok" if ok else repr(f)[:600])'

cpl "${XL[@]}" --apply-medians --check subcorpus=core --format tsv --view applied
expect_rc "translate --apply-medians --check exits 0" 0
check_eq "apply-medians: the M1 medians of rate, cpu_time, idle, loaded and latency" \
	"rate cpu_time idle_memory loaded_memory latency" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kind") k = i; next } { printf "%s%s", (NR > 2 ? " " : ""), $k }' "$T/.out")"
check_eq "apply-medians: the M1 median rate 897.08 int/s becomes the x86 median 299.3" "299.300" \
	"$(round "$(tsvget kind rate translated)" 3)"

printf 'value,unit,kind\n100,int/s,\n20,ms,latency\n' >"$T/figures.csv"
cpl "${XL[@]}" --apply "$T/figures.csv" --format tsv --view applied
expect_rc "apply: a CSV without a name column, with a kind column, exits 0" 0
check_eq "apply: 100 int/s from the CSV" "$(awk -v f="$RATE" 'BEGIN { printf "%.6f", 100 / f }')" \
	"$(round "$(tsvget kind rate translated)" 6)"
check_eq "apply: the kind column decides (20 ms as latency)" "kind column" "$(tsvget kind latency kind_from)"

# refusals: file:line:col, nothing on stdout
refuse() { # NAME CONTENT WHERE MESSAGE
	printf "$2" >"$T/refuse.tsv"
	cpl "${XL[@]}" --apply "$T/refuse.tsv" --format tsv --view applied
	expect_rc "apply: $1 exits 1" 1
	check_contains "apply: $1 is named at its place" "$ERR" "refuse.tsv:$3: $4"
	check_eq "apply: nothing on stdout after $1" "" "$OUT"
}
refuse "an unknown unit" 'name\tvalue\tunit\nok\t10\tint/s\nlength\t3\tfurlongs\n' 3:3 \
	"unknown unit 'furlongs' (known: rates int/s"
check_contains "apply: the unknown unit's message lists the memory per session units" "$ERR" "kB/session"
refuse "a value that is not a number" 'name\tvalue\tunit\nx\tmany\tms\n' 2:2 "'many' is not a finite number"
refuse "an infinite value" 'name\tvalue\tunit\nx\tinf\tms\n' 2:2 "'inf' is not a finite number"
refuse "a negative rate" 'name\tvalue\tunit\nx\t-3\tint/s\n' 2:2 "'-3' is negative: a rate figure cannot be below 0"
refuse "a value translated out of range" 'name\tvalue\tunit\nx\t1e308\tms\n' 2:2 \
	"'1e308' ms translates to a value out of range"
refuse "a kind that does not fit its unit" 'name\tvalue\tunit\tkind\nx\t3\tkB\tlatency\n' 2:4 \
	"kind 'latency' needs a time"

printf 'name\tamount\nx\t3\n' >"$T/no-unit.tsv"
cpl "${XL[@]}" --apply "$T/no-unit.tsv"
expect_rc "apply: a table without value and unit columns exits 1" 1
check_contains "apply: says which columns it needs" "$ERR" "'value' and 'unit'"

cpl "${XL[@]}" --check subcorpus=nothing
expect_rc "translate --check naming no runs exits 1" 1
check_contains "translate --check naming no runs says so" "$ERR" "no runs for 'subcorpus=nothing'"

cpl translate --from subcorpus=m1
expect_rc "translate without --to is a usage error (exit 2)" 2

###########################################################################
# doc_check: every number the Markdown shows is a JSON number; tsv = JSON
###########################################################################
echo "# doc_check"
e2e_case doc-check smt translate-apply
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
doc_check "topology --show" hosts topology --show
doc_check "smt --corpus gomaxprocs-affinity" figures smt --corpus gomaxprocs-affinity
doc_check "translate m1 -> core" "factors applied" "${XL[@]}"
doc_check "translate m1 -> core --apply --check" "factors applied" "${XL[@]}" --apply "$T/figures.tsv" \
	--check subcorpus=core
doc_check "translate m1 -> core --apply-medians" "factors applied" "${XL[@]}" --apply-medians

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
