# pooling_gmp_where_block_1_2.py (tests/e2e/pooling.sh): gmp --where block=1,2,3: 3 runs per level, medians as results.tsv's, nothing pooled
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
by = {}
for r in csv.DictReader(open(sys.argv[2] + "/results.tsv"), delimiter="\t"):
    if r["block"] in ("1", "2", "3"):
        by.setdefault(int(r["gomaxprocs"]), []).append(float(r["tput"]))
got = {r["level"]: (r["n"], r["median"]) for r in d["sections"]["levels"]["rows"]}
want = {k: (len(v), statistics.median(v)) for k, v in by.items()}
bad = [] if got == want else ["levels %r, python %r" % (got, want)]
if "pooled" in d["facts"]:
    bad.append("pooled %r" % d["facts"]["pooled"])
print("\n".join(bad) if bad else "ok")
