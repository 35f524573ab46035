# analysis_sweep_whole_sweep_per_doubling.py (tests/e2e/analysis.sh): sweep json: whole-sweep per-doubling factor, SE and R2 match a python fit
# the whole-sweep fit recomputed in python: least squares of ln(median) on log2(level)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, sys
d = json.load(open(sys.argv[1]))
f = d["facts"]
rows = d["sections"]["levels"]["rows"]
x = [math.log2(r["level"]) for r in rows]; y = [math.log(r["median"]) for r in rows]
n = len(x); mx = sum(x) / n; my = sum(y) / n
sxx = sum((a - mx) ** 2 for a in x); sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
b = sxy / sxx; a = my - b * mx
sse = sum((yy - a - b * xx) ** 2 for xx, yy in zip(x, y)); sst = sum((yy - my) ** 2 for yy in y)
se_b = math.sqrt(sse / (n - 2) / sxx)
want = {"per_doubling": math.exp(b), "per_doubling_se": math.exp(b) * se_b, "per_doubling_r2": 1 - sse / sst}
bad = ["%s: %r != %r" % (k, f[k]["value"], w) for k, w in want.items()
       if not math.isclose(f[k]["value"], w, rel_tol=1e-9)]
print("\n".join(bad) if bad else "ok")
