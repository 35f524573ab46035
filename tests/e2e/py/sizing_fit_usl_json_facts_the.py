# sizing_fit_usl_json_facts_the.py (tests/e2e/sizing.sh): fit usl json facts: the published summary (residual SE 82.85, N* 96.51956, X(N*) 1884, Amdahl 3245.589, 4 dof), r2 = 1 - SSE/SST
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
x = [float(r["throughput"]) for r in rows(sys.argv[2])]
m = statistics.mean(x)
sst = sum((v - m) ** 2 for v in x)
bad = []
for k, pub, dec in (("usl_residual_se", 82.85, 2), ("usl_peak_n", 96.51956, 5), ("usl_peak_x", 1884, 0),
                    ("usl_amdahl_ceiling", 3245.589, 3)):
    if not printed(f[k], pub, dec):
        bad.append("%s: %r, published %r" % (k, f[k], pub))
if not close(f["usl_r2"], 1 - 27453.719584037402 / sst, 1e-8):
    bad.append("usl_r2 %r" % f["usl_r2"])
want = {"usl_dof": 4, "usl_n": 7, "usl_levels": 7, "runs": 7, "models": "usl", "by": "load", "metric": "throughput"}
bad += ["%s: %r, want %r" % (k, f.get(k), w) for k, w in want.items() if f.get(k) != w]
bad += ["fact %s of a model not asked for" % k for k in f if k.startswith(("amdahl_", "power_"))]
row = d["sections"]["summary"]["rows"][0]
bad += ["summary %s %r != fact %r" % (c, row[c], f["usl_" + c]) for c in
        ("n", "levels", "dof", "residual_se", "r2", "peak_n", "peak_x", "amdahl_ceiling", "iterations")
        if row[c] != f["usl_" + c]]
print("\n".join(bad) if bad else "ok")
