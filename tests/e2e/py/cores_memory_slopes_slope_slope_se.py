# cores_memory_slopes_slope_slope_se.py (tests/e2e/cores.sh): memory slopes: slope, slope_se, intercept match python OLS of system.tsv load_app_kb
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
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
print("\n".join(bad) if bad else "ok")
