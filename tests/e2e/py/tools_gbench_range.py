# tools_gbench_range.py (tests/e2e/tools_gbench.sh): py_range FILE KEY: "threads range_pct" per thread count
import json, statistics, sys
d = json.load(open(sys.argv[1]))
by = {}
for b in d["benchmarks"]:
    if b.get("run_type", "iteration") == "iteration":
        by.setdefault(b["threads"], []).append(b[sys.argv[2]])
for t in sorted(by):
    v = by[t]
    print(t, repr((max(v) - min(v)) / statistics.median(v) * 100))
