# sizing_size_translate_gce_n2_1.py (tests/e2e/sizing.sh): size --translate gce-n2=1.1: n2 rows translated, predicted = e2 arithmetic with base / 1.1; others unchanged
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
out = {r["instance"]: r for r in rows(sys.argv[1])}
base, pd, smt, _, _, _ = inputs(sys.argv[2])
tb = tuple(b / 1.1 for b in base)
bad = []
for inst in rows(sys.argv[3]):
    o = out[inst["instance"]]
    fam = inst["cpu_family"]
    if fam == "gce-n2":
        want = predict(inst, tb, pd, smt, 0)
        if not close(num(o["predicted"]), want, 1e-6):
            bad.append("%s: predicted %s, python %r" % (inst["instance"], o["predicted"], want))
        if "translated (factor 1.1)" not in o["flags"]:
            bad.append("%s: flags %r" % (inst["instance"], o["flags"]))
        if o["verdict"] == "unmeasured CPU":
            bad.append("%s: still unmeasured" % inst["instance"])
    elif fam == "gce-e2":
        if "translated" in o["flags"]:
            bad.append("%s: %r" % (inst["instance"], o["flags"]))
    elif o["verdict"] != "unmeasured CPU":
        bad.append("%s (%s): verdict %r" % (inst["instance"], fam, o["verdict"]))
print("\n".join(bad) if bad else "ok")
