# pooling_cap_pool_block_level_100.py (tests/e2e/pooling.sh): cap --pool block: level 100 pools blocks 1-3 and fs (6 runs, results.tsv's median)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
v = [float(r["tput"]) for r in csv.DictReader(open(sys.argv[2] + "/results.tsv"), delimiter="\t")
     if r["target"] == "medium" and r["cfg"] == "pg" and r["level"] == "100"]
row = [r for r in d["sections"]["levels"]["rows"] if r["level"] == 100][0]
bad = [] if (row["n"], row["median"]) == (len(v), statistics.median(v)) and len(v) == 6 else ["%r vs %r" % (row, v)]
if "fs (levels 100 of 100, 300, 500)" not in d["facts"]["pooled"]["value"]:
    bad.append("pooled %r" % d["facts"]["pooled"]["value"])
print("\n".join(bad) if bad else "ok")
