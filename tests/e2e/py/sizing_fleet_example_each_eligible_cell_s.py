# sizing_fleet_example_each_eligible_cell_s.py (tests/e2e/sizing_fleet.sh): example: each eligible cell's model, measured/model, the shared-core calibration and the leave-one-out bounds and misses (python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
from sizing_model import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
el = [r for r in d["sections"]["measured"]["rows"] if r["eligible"] and r["n"]]
bad = []
ratios = {}
for r in el:
    m = model(GCE[r["instance"]], r["sessions"])
    if not all(close(g, w, 1e-9) for g, w in ((r["model"], m[0]),)):
        bad.append("%s %s: model %r, python %r" % (r["instance"], r["sessions"], r["model"], m[0]))
    ratios[(r["instance"], r["sessions"])] = (r["median"] / m[0], m)
    if not close(r["measured_over_model"], r["median"] / m[0], 1e-9):
        bad.append("%s ratio %r" % (r["instance"], r["measured_over_model"]))
v = [x for x, _ in ratios.values()]
for k, want in (("calibration_shared_core_cells", len(v)), ("calibration_shared_core_median", statistics.median(v)),
                ("calibration_shared_core_min", min(v)), ("calibration_shared_core_max", max(v)),
                ("calibration_dedicated_cells", 0)):
    if not close(f[k], want, 1e-9):
        bad.append("%s %r, python %r" % (k, f[k], want))
for r in el:
    others = [x for (i, s), (x, _) in ratios.items() if i != r["instance"]]
    _, m = ratios[(r["instance"], r["sessions"])]
    lo = m[1] * min(1, min(others)) if others else m[1]
    hi = m[2] * max(1, max(others)) if others else m[2]
    med = r["median"]
    check, miss = ("below", med / lo - 1) if med < lo else ("above", med / hi - 1) if med > hi else ("within", 0)
    if r["loo_check"] != check or not close(r["loo_low"], lo, 1e-9) or not close(r["loo_high"], hi, 1e-9) \
       or abs(r["loo_miss"] - 100 * miss) > 1e-7 or r["loo_cells"] != len(others):
        bad.append("%s %s: %r %r %r %r, python %r %r %r %r" % (r["instance"], r["sessions"], r["loo_check"],
                   r["loo_low"], r["loo_high"], r["loo_miss"], check, lo, hi, 100 * miss))
inst = {r["instance"]: r for r in d["sections"]["instances"]["rows"]}
for name in ("e2-small", "e2-medium"):
    missed = any(r["loo_check"] != "within" for r in el if r["instance"] == name)
    if missed != ("a measured cell outside its leave-one-out bounds" in (inst[name]["flags"] or "")):
        bad.append("%s flags %r" % (name, inst[name]["flags"]))
for name in ("e2-standard-4", "e2-standard-8"):
    if "uncalibrated" not in inst[name]["flags"] or inst[name]["calibration"] != "uncalibrated: no eligible measured cell of a dedicated instance":
        bad.append("%s: %r %r" % (name, inst[name]["flags"], inst[name]["calibration"]))
print("\n".join(bad) if bad else "ok")
