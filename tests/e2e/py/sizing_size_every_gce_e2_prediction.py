# sizing_size_every_gce_e2_prediction.py (tests/e2e/sizing.sh): size: every gce-e2 prediction and its bounds recomputed from the corpus inputs and gce.tsv (1e-6)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
out = {r["instance"]: r for r in rows(sys.argv[1])}
base, pd, smt, mem, _, _ = inputs(sys.argv[2])
bad = []
n = 0
for inst in rows(sys.argv[3]):
    if inst["cpu_family"] != "gce-e2":
        continue
    n += 1
    o = out.get(inst["instance"])
    if o is None:
        bad.append(inst["instance"] + ": missing"); continue
    for col, k in (("predicted", 0), ("predicted_low", 1), ("predicted_high", 2)):
        want = predict(inst, base, pd, smt, k)
        if not close(num(o[col]), want, 1e-6):
            bad.append("%s %s: coreplan %s, python %r" % (inst["instance"], col, o[col], want))
    want = 1000 / predict(inst, base, pd, smt, 0)
    if not close(num(o["shortfall"]), want, 1e-6):
        bad.append("%s shortfall: coreplan %s, python %r" % (inst["instance"], o["shortfall"], want))
    want = float(inst["price_per_hour"]) * 1000 / predict(inst, base, pd, smt, 0)
    if not close(num(o["cost_per_1k"]), want, 1e-6):
        bad.append("%s cost_per_1k: coreplan %s, python %r" % (inst["instance"], o["cost_per_1k"], want))
    if not close(num(o["memory_needed_gib"]), mem, 1e-6):
        bad.append("%s memory_needed_gib: coreplan %s, python %r" % (inst["instance"], o["memory_needed_gib"], mem))
if n != 8:
    bad.append("%d gce-e2 rows in gce.tsv, expected 8" % n)
print("\n".join(bad) if bad else "ok")
