# analysis_sweep_median_range_pct_speedup.py (tests/e2e/analysis.sh): sweep: median, range_pct, speedup, efficiency, per_doubling match results.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, math, statistics, sys
out, results = sys.argv[1], sys.argv[2]
by = {}
for r in csv.DictReader(open(results), delimiter="\t"):
    if r["block"] in ("1", "2", "3"):
        by.setdefault(int(r["gomaxprocs"]), []).append(float(r["tput"]))
rows = {int(float(r["level"])): r for r in csv.DictReader(open(out), delimiter="\t")}
base = statistics.median(by[1])
prev = None
bad = []
for lv in sorted(by):
    v = by[lv]; m = statistics.median(v); r = rows[lv]
    want = {"median": m, "range_pct": (max(v) - min(v)) / m * 100, "speedup": m / base,
            "efficiency": m / base / lv, "per_unit": m / lv}
    if prev:
        want["per_doubling"] = (m / prev[1]) ** (1 / math.log2(lv / prev[0]))
    for k, w in want.items():
        if not math.isclose(float(r[k]), w, rel_tol=1e-12):
            bad.append("level %d %s: got %s, python %r" % (lv, k, r[k], w))
    prev = (lv, m)
print("\n".join(bad) if bad else "ok")
