# analysis_compare_e2_small_vs_e2.py (tests/e2e/analysis.sh): compare e2-small vs e2-medium (pg, 300 sessions): 4.0655x, Welch t 21.6625 df 2.2304 p 0.00122471, higher
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
f = {k: v["value"] for k, v in json.load(open(sys.argv[1]))["facts"].items()}
rows = [r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t")
        if r["cfg"] == "pg" and r["level"] == "300" and r["block"] in ("1", "2", "3")]
arm = lambda t: [float(r["tput"]) for r in rows if r["target"] == t]
a, b = arm("small"), arm("medium")
ratio = statistics.median(b) / statistics.median(a)
bad = []
if max(a) >= min(b): bad.append("ranges overlap")
for k, w, tol in (("ratio", ratio, 1e-12), ("welch_t", 21.662549178758397, 1e-9),
                  ("welch_df", 2.2303988629556724, 1e-9), ("welch_p", 0.0012247050963697312, 1e-9)):
    if not math.isclose(f[k], w, rel_tol=tol): bad.append("%s %r, want %r" % (k, f[k], w))
if (f["verdict"], f["method"]) != ("higher", "Welch t on ln values"): bad.append("%s %s" % (f["verdict"], f["method"]))
print("\n".join(bad) if bad else "ok")
