# cores_memory_rss_median_kb_m1.py (tests/e2e/cores.sh): memory rss_median_kb: m1 runs (no trace) and core runs (no conn column) left out with their reason
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, os, sys
d = json.load(open(sys.argv[1])); cap = sys.argv[2]
why = {x["tag"]: x["reason"] for x in d["left_out"]}
bad = []
for r in csv.DictReader(open(cap + "/m1/m1.tsv"), delimiter="\t"):
    tag = "m1-r" + r["rep"]
    if os.path.exists("%s/m1/r%s/sample.tsv" % (cap, r["rep"])):
        bad.append(tag + " has a trace")
    if why.get(tag) != "no trace":
        bad.append("%s: %r" % (tag, why.get(tag)))
for r in csv.DictReader(open(cap + "/core/results.tsv"), delimiter="\t"):
    tag = "core-mem-p5-n25-r" + r["rep"]
    cols = len(open("%s/core/%s/sample.tsv" % (cap, tag)).readline().split("\t"))
    if cols != 3 or "(conn)" not in why.get(tag, ""):
        bad.append("%s: %d trace columns, reason %r" % (tag, cols, why.get(tag)))
f = d["facts"]
if f["runs_left_out"]["value"] != len(d["left_out"]) or f["runs"]["value"] != len(d["sections"]["residuals"]["rows"]):
    bad.append("runs %r, left out %r" % (f["runs"], f["runs_left_out"]))
print("\n".join(bad) if bad else "ok")
