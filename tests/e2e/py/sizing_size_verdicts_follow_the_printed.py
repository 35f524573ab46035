# sizing_size_verdicts_follow_the_printed.py (tests/e2e/sizing.sh): size: verdicts follow the printed predictions (lower bound: meets, central: marginal) or the measured cell, memory and target; other CPU families are unmeasured
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
bad = []
out = rows(sys.argv[1])
for r in out:
    p, lo = num(r["predicted"]), num(r["predicted_low"])
    if num(r["memory_needed_gib"]) > num(r["memory_gib"]) and not math.isnan(p):
        want = "memory-bound"
    elif r["verdict_basis"] == "measured":
        m, mn = num(r["measured_median"]), num(r["measured_min"])
        want = "meets" if mn >= 1000 else "marginal" if m >= 1000 else "short"
    elif math.isnan(p):
        want = "unmeasured CPU"
    else:
        want = "meets" if lo >= 1000 else "marginal" if p >= 1000 else "short"
    if r["verdict"] != want:
        bad.append("%s: verdict %r, expected %r (predicted %s)" % (r["instance"], r["verdict"], want, r["predicted"]))
fam = {i["instance"]: i["cpu_family"] for f in sys.argv[2:] for i in rows(f)}
for r in out:
    if (fam.get(r["instance"]) == "gce-e2") != (r["verdict"] != "unmeasured CPU"):
        bad.append("%s (%s): verdict %r" % (r["instance"], fam.get(r["instance"]), r["verdict"]))
if len(out) != len(fam):
    bad.append("%d rows, the two catalogs list %d" % (len(out), len(fam)))
print("\n".join(bad) if bad else "ok")
