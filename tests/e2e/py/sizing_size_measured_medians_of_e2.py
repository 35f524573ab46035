# sizing_size_measured_medians_of_e2.py (tests/e2e/sizing.sh): size: measured medians of e2-small and e2-medium present, below 1000 (1000/median: > 10 and > 3) and equal to python medians of results.tsv at 500 sessions, blocks 1-3, pg store
# Seed 001: e2-small short by ~15x, e2-medium ~250 int/s at 500 sessions:
# the instances view shows the worst cell (the pg store) of each.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
by = {r["instance"]: r for r in rows(sys.argv[1])}
res = rows(sys.argv[2] + "/sky/gcp-x86-capacity-20260816/results.tsv")
bad = []
for inst, target, least in (("e2-small", "small", 10), ("e2-medium", "medium", 3)):
    r = by[inst]
    v = [float(x["tput"]) for x in res if x["target"] == target and x["level"] == "500" and x["block"] in ("1", "2", "3") and x["cfg"] == "pg"]
    if r["measured_at"] != "cfg=pg at 500 sessions" or r["verdict_basis"] != "measured":
        bad.append("%s: measured_at %r, basis %r" % (inst, r["measured_at"], r["verdict_basis"]))
    med = num(r["measured_median"])
    if math.isnan(med):
        bad.append(inst + ": no measured median"); continue
    if not close(med, statistics.median(v), 1e-9) or r["measured_n"] != str(len(v)):
        bad.append("%s: measured %s (n %s), python %r (n %d)" % (inst, r["measured_median"], r["measured_n"], statistics.median(v), len(v)))
    if not 1000 / med > least:
        bad.append("%s: 1000 / measured %s = %.2f, expected > %d" % (inst, r["measured_median"], 1000 / med, least))
    if not close(num(r["measured_min"]), min(v), 1e-9) or not close(num(r["measured_max"]), max(v), 1e-9):
        bad.append("%s: measured range %s-%s" % (inst, r["measured_min"], r["measured_max"]))
print("\n".join(bad) if bad else "ok")
