# analysis_compare_sessions_capacity_pg_inverse.py (tests/e2e/analysis.sh): compare --by sessions (capacity, pg): inverse-variance pooled 3.73115 [3.47522, 4.00593], df 5.4794, faster
# numpy/SciPy: the inverse-variance weighted mean of the three levels' Welch ln ratios
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, sys
f = {k: v["value"] for k, v in json.load(open(sys.argv[1]))["facts"].items()}
bad = []
for k, w in (("pooled_ratio", 3.7311517099847493), ("pooled_ratio_lo", 3.475220231036469),
             ("pooled_ratio_hi", 4.005931180588833), ("pooled_df", 5.479409389726017), ("levels", 3)):
    if not isinstance(f.get(k), (int, float)) or not math.isclose(f[k], w, rel_tol=1e-9): bad.append("%s %r, want %r" % (k, f.get(k), w))
if (f["pooled_method"], f["verdict"], f["method"]) != ("inverse-variance", "faster", "pooled-t+agreement"):
    bad.append("%s %s %s" % (f["pooled_method"], f["verdict"], f["method"]))
print("\n".join(bad) if bad else "ok")
