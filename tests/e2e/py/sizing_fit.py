# sizing_fit.py (tests/e2e/sizing.sh): FIT_PY, shared by the checks that import or run it
# the yip-sharding table (N, Gbps): the power law by Gauss-Newton in python,
# and every summary fact consistent with the fitted parameters
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers; the script prefixed them)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
pts = [(r["level"], r["value"]) for r in d["sections"]["points"]["rows"]]
want_pts = sorted((float(r[sys.argv[3]]), float(r[sys.argv[4]])) for r in rows(sys.argv[2])
                  if all(r.get(k) in v.split(",") for k, v in (w.split("=") for w in sys.argv[5:])))
bad = [] if sorted(pts) == want_pts else ["points %r, file %r" % (pts, want_pts)]
a, b, se_b = power_law(pts)  # X = a N^b: Gauss-Newton from the log-log OLS
for k, v in (("power_per_doubling", 2 ** b), ("power_per_doubling_se", 2 ** b * math.log(2) * se_b)):
    if not close(f[k], v, 1e-7):
        bad.append("%s: coreplan %r, python %r" % (k, f[k], v))
# usl and amdahl: the summary from the parameters
par = {(r["model"], r["param"]): r["value"] for r in d["sections"]["params"]["rows"]}
sst = sum((x - statistics.mean([x for _, x in pts])) ** 2 for _, x in pts)
for m in ("usl", "amdahl", "power"):
    if m == "power":
        X = lambda n: par[("power", "a")] * n ** par[("power", "b")]
    else:
        lam, sig = par[(m, "lambda")], par[(m, "sigma")]
        kap = par.get((m, "kappa"), 0.0)
        X = lambda n: lam * n / (1 + sig * (n - 1) + kap * n * (n - 1))
    e = sum((x - X(n)) ** 2 for n, x in pts)
    dof = len(pts) - sum(1 for (mm, _), r in zip(par, d["sections"]["params"]["rows"]) if mm == m and r["at_bound"] == "no")
    want = {"_dof": dof, "_n": len(pts), "_residual_se": math.sqrt(e / dof), "_r2": 1 - e / sst}
    if m == "usl" and kap > 0:
        want["_peak_n"] = math.sqrt((1 - sig) / kap); want["_peak_x"] = X(want["_peak_n"])
    if m == "amdahl":
        want["_amdahl_ceiling"] = lam / sig
    for k, v in want.items():
        if not close(f[m + k], v, 1e-9):
            bad.append("%s%s: coreplan %r, from the parameters %r" % (m, k, f[m + k], v))
    if m == "amdahl" and f["amdahl_peak_n"] is not None:
        bad.append("amdahl_peak_n %r (no peak)" % f["amdahl_peak_n"])
print("\n".join(bad) if bad else "ok")
