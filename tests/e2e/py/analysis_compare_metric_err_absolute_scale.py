# analysis_compare_metric_err_absolute_scale.py (tests/e2e/analysis.sh): compare --metric err: absolute scale, no ratio, differences of medians from results.tsv, lower is better
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
rows = [r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t")
        if r["cfg"] == "pg" and r["level"] == "300" and r["block"] in ("1", "2", "3")]
arm = lambda t: [float(r["err"]) for r in rows if r["target"] == t]
a, b = arm("small"), arm("medium")
bad = []
if f["scale"] != "absolute" or f["lower_is_better"] is not True: bad.append("%r %r" % (f["scale"], f["lower_is_better"]))
if f["ratio"] is not None or f["ratio_lo"] is not None: bad.append("ratio %r" % f["ratio"])
if not math.isclose(f["diff"], statistics.median(b) - statistics.median(a), rel_tol=1e-12): bad.append("diff %r" % f["diff"])
if not math.isclose(f["spread_a"], max(a) - min(a), rel_tol=1e-12): bad.append("spread_a %r" % f["spread_a"])
# scipy.stats.ttest_ind(medium, small, equal_var=False): p = 0.26397486377741436
if not math.isclose(f["welch_p"], 0.26397486377741436, rel_tol=1e-9): bad.append("welch_p %r" % f["welch_p"])
if f["verdict"] != "within-noise": bad.append(f["verdict"])
row = d["sections"]["comparison"]["rows"][0]
if row["scale"] != "absolute" or row["ratio"] is not None or row["b_median"] != 0: bad.append("row %r" % row)
print("\n".join(bad) if bad else "ok")
