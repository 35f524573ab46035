# analysis_compare_lock_contention_shaped_b.py (tests/e2e/analysis.sh): compare lock-contention-shaped A/B (3 vs 3, spreads 24% and 37%, bound 4.7%): within-noise, 137 runs per arm
# by hand: spreads 3100 / 2500 - 1 = 24%, 3151 / 2300 - 1 = 37%; runs needed per arm
# ceil(2 * 2.801585218112968^2 * (0.1352177664755961 / ln 1.047)^2) = ceil(136.06) = 137
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, sys
f = {k: v["value"] for k, v in json.load(open(sys.argv[1]))["facts"].items()}
bad = []
if f["verdict"] != "within-noise" or f["method"] != "Welch t on ln values": bad.append("%s %s" % (f["verdict"], f["method"]))
if f["runs_needed"] != 137: bad.append("runs_needed %r" % f["runs_needed"])
for k, w in (("spread_over_bound_a", 24 / 4.7), ("spread_over_bound_b", 37 / 4.7), ("welch_p", 0.8562470641772728)):
    if not math.isclose(f[k], w, rel_tol=1e-9): bad.append("%s %r, want %r" % (k, f[k], w))
for part in ("p = 0.856 >= alpha 0.05", "is not inside 1 -+ 4.7%",
             "runs needed per side to resolve a 4.7% effect: 137"):
    if part not in f["reason"]: bad.append("reason lacks %r: %s" % (part, f["reason"]))
print("\n".join(bad) if bad else "ok")
