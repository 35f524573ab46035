# pooling_field.py (tests/e2e/pooling.sh): FIELD_PY, shared by the checks that import or run it
# medians per sessions level of medium/pg blocks 1-3, from system.tsv and from results.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
cap, name, table = sys.argv[2], sys.argv[3], sys.argv[4]
by = {}
for r in csv.DictReader(open(cap + "/" + table), delimiter="\t"):
    if r["target"] == "medium" and r["cfg"] == "pg" and r["block"] in ("1", "2", "3"):
        by.setdefault(int(r["level"]), []).append(float(r[name]))
want = {k: (len(v), statistics.median(v), min(v), max(v)) for k, v in by.items()}
got = {r["level"]: (r["n"], r["median"], r["min"], r["max"]) for r in d["sections"]["levels"]["rows"]}
print("ok" if got == want else "coreplan %r\npython (%s) %r" % (got, table, want))
