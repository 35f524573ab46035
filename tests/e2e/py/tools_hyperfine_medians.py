# tools_hyperfine_medians.py (tests/e2e/tools_hyperfine.sh): py_medians FILE PARAM: "level median" per result
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    print(r["parameters"][sys.argv[2]], repr(statistics.median(r["times"])))
