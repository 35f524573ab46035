# sizing_measured_size_measured_median_range_n.py (tests/e2e/sizing_measured.sh): size measured: median, range, n and shortfall of each store against python (results.tsv); pg: 65.7 and 245.2, mem: 84.2 and 305.0; 1000 / 65.7 = 15.2x, 1000 / 245.2 = 4.08x
# results.tsv of the capacity corpus, tput at level 500, blocks 1-3, per target and cfg (python medians)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = rows(sys.argv[1])
res = rows(sys.argv[2] + "/sky/gcp-x86-capacity-20260816/results.tsv")
printed = {("e2-small", "pg"): (65.7, 15.22), ("e2-medium", "pg"): (245.2, 4.08),
           ("e2-small", "mem"): (84.2, 11.87), ("e2-medium", "mem"): (305.0, 3.28)}
bad = []
for r in out:
    inst, cfg = r["instance"], r["group"].split("=")[1]
    v = [float(x["tput"]) for x in res if "e2-" + x["target"] == inst and x["cfg"] == cfg and x["level"] == "500" and x["block"] in ("1", "2", "3")]
    med = statistics.median(v)
    for col, want in (("median", med), ("min", min(v)), ("max", max(v)), ("shortfall", 1000 / med)):
        if not close(num(r[col]), want, 1e-12):
            bad.append("%s %s %s: coreplan %s, python %r" % (inst, cfg, col, r[col], want))
    if r["n"] != str(len(v)) or r["at_target"] != "1":
        bad.append("%s %s: n %s at_target %s" % (inst, cfg, r["n"], r["at_target"]))
    pm, ps = printed[(inst, cfg)]
    if round(num(r["median"]), 1) != pm or round(num(r["shortfall"]), 2) != ps:
        bad.append("%s %s: %s, %s; the write-up %r, %r" % (inst, cfg, r["median"], r["shortfall"], pm, ps))
print("\n".join(bad) if bad else "ok")
