# tools_hyperfine_range.py (tests/e2e/tools_hyperfine.sh): py_range FILE PARAM: "level range_pct" per result
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    v = r["times"]
    print(r["parameters"][sys.argv[2]], repr((max(v) - min(v)) / statistics.median(v) * 100))
