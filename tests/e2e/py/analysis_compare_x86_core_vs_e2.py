# analysis_compare_x86_core_vs_e2.py (tests/e2e/analysis.sh): compare x86 core vs e2-medium (memory, 100 sessions): 1.1526x [1.0762, 1.2550], Welch p 0.0370, higher
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, sys
f = {k: v["value"] for k, v in json.load(open(sys.argv[1]))["facts"].items()}
# python3: statistics.median(medium) / statistics.median(core) = 344.97474664499254 / 299.3;
# the range-end ratios 322.54272034273805 / 299.7, 362.57432778567005 / 288.9 bound the bootstrap
bad = []
if not math.isclose(f["ratio"], 344.97474664499254 / 299.3, rel_tol=1e-12): bad.append("ratio %r" % f["ratio"])
if not (322.54272034273805 / 299.7 - 1e-12 <= f["ratio_lo"] and f["ratio_hi"] <= 362.57432778567005 / 288.9 + 1e-12):
    bad.append("interval [%r, %r]" % (f["ratio_lo"], f["ratio_hi"]))
if not math.isclose(f["welch_p"], 0.03700453729196605, rel_tol=1e-9): bad.append("welch_p %r" % f["welch_p"])
if (f["verdict"], f["method"]) != ("higher", "Welch t on ln values"): bad.append("%s %s" % (f["verdict"], f["method"]))
print("\n".join(bad) if bad else "ok")
