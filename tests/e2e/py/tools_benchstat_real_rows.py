# tools_benchstat_real_rows.py (tests/e2e/tools_benchstat.sh): real outputs: 4 tables (sec/op, B/op, allocs/op, B/s), 28 rows, 4 geomean rows
# argv[1]: the JSON document of `compare --view benchstat`
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["benchstat"]["rows"]
units = []
for r in rows:
    if r["unit"] not in units:
        units.append(r["unit"])
b = [r for r in rows if r["kind"] == "benchmark"]
g = [r for r in rows if r["kind"] == "geomean"]
ok = units == ["sec/op", "B/op", "allocs/op", "B/s"] and len(b) == 28 and len(g) == 4
ok = ok and [r["name"] for r in b[:8]] == ["Join", "Join-2", "Sort/size=16", "Sort/size=16-2",
    "Sort/size=1024", "Sort/size=1024-2", "ParallelMap", "ParallelMap-2"]
ok = ok and d["facts"]["tables"]["value"] == 4 and all(r["a_n"] == 6 and r["b_n"] == 6 for r in b)
print("ok" if ok else "units %s, %d rows, %d geomeans" % (units, len(b), len(g)))
