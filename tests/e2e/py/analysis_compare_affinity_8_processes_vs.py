# analysis_compare_affinity_8_processes_vs.py (tests/e2e/analysis.sh): compare affinity 8 processes vs 1: 1.3272x, Welch t 39.7635 df 3.77352 p 4.32502e-06, higher
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, sys
f = {k: v["value"] for k, v in json.load(open(sys.argv[1]))["facts"].items()}
bad = []
for k, w, tol in (("ratio", 2384.0 / 1796.2, 1e-12), ("welch_t", 39.76351262523003, 1e-9),
                  ("welch_df", 3.7735188787072813, 1e-9), ("welch_p", 4.3250210080377405e-06, 1e-9)):
    if not math.isclose(f[k], w, rel_tol=tol): bad.append("%s %r, want %r" % (k, f[k], w))
if f["verdict"] != "higher": bad.append(f["verdict"])
print("\n".join(bad) if bad else "ok")
