# cores_memory_metric_rss_median_kb.py (tests/e2e/cores.sh): memory --metric rss_median_kb: slopes match python (system.tsv window, statistics.median, OLS)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
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
print("\n".join(bad) if bad else "ok")
