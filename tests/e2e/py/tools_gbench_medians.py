# tools_gbench_medians.py (tests/e2e/tools_gbench.sh): py_medians FILE KEY: "threads median" per thread count, iteration rows only (ns)
import json, statistics, sys
d = json.load(open(sys.argv[1]))
scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
by = {}
for b in d["benchmarks"]:
    if b.get("run_type", "iteration") == "iteration":
        by.setdefault(b["threads"], []).append(b[sys.argv[2]] * scale[b["time_unit"]])
for t in sorted(by):
    print(t, repr(statistics.median(by[t])))
