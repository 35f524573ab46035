# tools_benchstat_golden_rows.py (tests/e2e/tools_benchstat.sh): benchstat old.txt new.txt: JSON rows carry the text's medians, p and n
# argv[1]: the JSON document of `compare --view benchstat`
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["benchstat"]["rows"]
want = [("Encode/format=json-48", 1.718e-06, 1.4225e-06, 1.082508822446903e-05, "-17.20%"),
        ("Encode/format=gob-48", 3.0655e-06, 3.07e-06, 0.4461018857303687, "~")]
got = [(r["name"], r["a_median"], r["b_median"], r["p"], r["delta"]) for r in rows if r["kind"] == "benchmark"]
ok = len(got) == 2 and all(g[0] == w[0] and abs(g[1] - w[1]) < 1e-15 and abs(g[2] - w[2]) < 1e-15
    and abs(g[3] - w[3]) < 1e-12 and g[4] == w[4] for g, w in zip(got, want))
gm = [r for r in rows if r["kind"] == "geomean"]
ok = ok and len(gm) == 1 and gm[0]["delta"] == "-8.94%" and all(r["a_n"] == 10 for r in rows[:2])
print("ok" if ok else "rows %s, geomean %s" % (got, gm))
