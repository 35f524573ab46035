# sizing_size_translate_measured_e2_standard.py (tests/e2e/sizing.sh): size --translate measured: e2-standard-2 = M1 median / the factor, bounds widened by its interval
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = {r["instance"]: r for r in rows(sys.argv[1])}
xl = {r["kind"]: r for r in rows(sys.argv[2])}
m1 = [float(r["tput"]) for r in rows(sys.argv[3] + "/sky/gcp-x86-capacity-20260816/m1/m1.tsv")]
x86 = [float(r["ips"]) for r in rows(sys.argv[3] + "/sky/gcp-x86-capacity-20260816/core/results.tsv")]
f = statistics.median(m1) / statistics.median(x86)
lo, hi = float(xl["rate"]["ci_lo"]), float(xl["rate"]["ci_hi"])
o = out["e2-standard-2"]
bad = []
if not close(float(xl["rate"]["factor"]), f, 1e-12):
    bad.append("factor %s, python %r" % (xl["rate"]["factor"], f))
for c, want in (("predicted", statistics.median(m1) / f), ("predicted_low", min(m1) / hi),
                ("predicted_high", max(m1) / lo)):
    if not close(float(o[c]), want, 1e-9):
        bad.append("%s: %s, python %r" % (c, o[c], want))
if "translated (factor 2.9973, 95% interval" not in o["flags"] or "measured from apple-m1 to gce-e2" not in o["flags"]:
    bad.append("flags %r" % o["flags"])
print("\n".join(bad) if bad else "ok")
