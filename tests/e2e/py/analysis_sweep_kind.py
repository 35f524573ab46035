# analysis_sweep_kind.py (tests/e2e/analysis.sh): SWEEP_KIND_PY, shared by the checks that import or run it
# what applies to a metric and a level; zeros. Recomputed in python from results.tsv.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
out, results, metric, key, want_left = sys.argv[1:6]
where = dict(w.split("=") for w in sys.argv[6:])
d = json.load(open(out))
f = {k: v["value"] for k, v in d["facts"].items()}
by = {}
for r in csv.DictReader(open(results), delimiter="\t"):
    if all(r[k] in v.split(",") for k, v in where.items()):
        by.setdefault(int(r[key]), []).append(float(r[metric]))
rows = {int(r["level"]): r for r in d["sections"]["levels"]["rows"]}
lower = f["metric_direction"] == "lower"
bad = []
base = statistics.median(by[min(by)])
prev = None
for lv in sorted(by):
    v = by[lv]; m = statistics.median(v); r = rows[lv]
    want = {"median": m, "range_abs": max(v) - min(v), "range_pct": (max(v) - min(v)) / m * 100 if m else None}
    scaling = "speedup" not in want_left
    want["speedup"] = (base / m if lower else m / base) if scaling else None
    want["per_unit"] = m / lv if "per_unit" not in want_left else None
    if prev and scaling:
        want["per_doubling"] = ((prev[1] / m) if lower else (m / prev[1])) ** (1 / math.log2(lv / prev[0]))
    elif prev:
        want["per_doubling"] = None
    for k, w in want.items():
        g = r[k]
        if (w is None) != (g is None) or (w is not None and not math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-15)):
            bad.append("level %d %s: got %r, python %r" % (lv, k, g, w))
    prev = (lv, m)
if f["columns_left_out"] != want_left:
    bad.append("columns_left_out %r, expected %r" % (f["columns_left_out"], want_left))
print("\n".join(bad) if bad else "ok")
