# sizing_catalog_size_without_a_database_every.py (tests/e2e/sizing_catalog.sh): size without a database: every cell of the instances view recomputed from aws.tsv, gce.tsv and the given numbers (1e-12)
# Every number and word of the instances view, recomputed from the catalog
# files with the formulas of analysis/size.h and the given inputs (no WHERE:
# bounds equal the values; no sweep: nothing is extrapolated).
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
base, pd, smt, per, fixed, sessions, target = 299.0, 1.78, 1.27, 637.0, 40000.0, 500, 1000.0
cat = rows(sys.argv[2]) + rows(sys.argv[3])  # shipped: in name order, aws then gce
out = rows(sys.argv[1])
bad = []
if [r["instance"] for r in out] != [i["instance"] for i in cat]:
    bad.append("rows %r" % [r["instance"] for r in out][:5])
def scale(p, d):
    return d ** math.log2(p) if p >= 1 else p
app = (fixed + per * sessions) / (1024.0 * 1024.0)
mem = app + 0 + 512 / 1024.0  # nothing co-located; the default OS reserve, 512 MiB
want_rows = []
for i in cat:
    v, t, f = int(i["vcpus"]), int(i["threads_per_core"]), float(i["sustained_vcpu_fraction"])
    phys, sus = v / t, v * f / t
    price, gib = float(i["price_per_hour"]), float(i["memory_gib"])
    s = smt if t == 2 else 1.0
    w = {"instance": i["instance"], "vcpus": v, "threads_per_core": t, "physical_cores": phys,
         "sustained_cores": sus, "memory_needed_gib": mem, "memory_app_gib": app,
         "memory_colocated_gib": 0.0, "memory_os_gib": 0.5, "memory_gib": gib,
         "price_per_hour": price, "price_date": i["price_date"], "measured_n": None,
         "measured_median": None, "measured_min": None, "measured_max": None,
         "measured_at": None, "measured_shortfall": None, "model_check": None,
         "model_ratio": None, "verdict_basis": "predicted",
         # no runs, no sessions factor, no fitted levels: nothing calibrates or extrapolates
         "sessions_factor": None, "sessions_factor_at": None, "cores_beyond": None,
         "sessions_beyond": None, "memory_beyond": None}
    flags = []
    if i["cpu_family"] != "gce-e2":
        w.update(predicted=None, predicted_low=None, predicted_high=None, shortfall=None,
                 cost_per_1k=None, verdict="unmeasured CPU", calibrated_low=None,
                 calibrated_high=None, calibration=None)
    else:
        p = base * scale(sus, pd) * s
        w.update(predicted=p, predicted_low=p, predicted_high=p, shortfall=target / p,
                 cost_per_1k=price * 1000 / p, calibrated_low=p, calibrated_high=p,
                 calibration="uncalibrated: no eligible measured cell of a %s instance" %
                             ("shared-core" if f < 1 else "dedicated"),
                 verdict="memory-bound" if mem > gib else "meets" if p >= target else "short")
        if f < 1:
            flags.append("shared-core: sustained share; burst %.0f not sustained" % (base * scale(phys, pd) * s))
        flags.append("uncalibrated")
    w["flags"] = flags
    want_rows.append(w)
meets = [w for w in want_rows if w["verdict"] == "meets"]
cheapest = min(meets, key=lambda w: w["price_per_hour"]) if meets else None
for w in want_rows:
    fl = (["CHEAPEST"] if w is cheapest else []) + w["flags"]
    w["flags"] = "; ".join(fl) if fl else None
for r, w in zip(out, want_rows):
    if set(r) != set(w):
        bad.append("columns %r" % sorted(set(r) ^ set(w))); break
    for k, v in w.items():
        got = r[k]
        if v is None:
            ok = got == "NA"
        elif isinstance(v, str):
            ok = got == v
        elif isinstance(v, int):
            ok = got == str(v)
        elif v == 0:
            ok = got == "0"
        else:
            ok = got != "NA" and close(float(got), v, 1e-12)
        if not ok:
            bad.append("%s %s: coreplan %r, python %r" % (w["instance"], k, got, v))
if cheapest is None or cheapest["instance"] != "e2-standard-8":
    bad.append("python cheapest %r" % (cheapest and cheapest["instance"]))
print("\n".join(bad[:20]) if bad else "ok")
