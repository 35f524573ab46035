# pooling_lock_pool_variant_level_4.py (tests/e2e/pooling.sh): lock --pool variant: level 4 pools 51000 and 99000 (range 64%); the document says so
# python3 over scaling.tsv: level 4 holds 51000 (before) and 99000 (after):
# median (51000 + 99000) / 2 = 75000, range_pct (99000 - 51000) / 75000 * 100 = 64
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t") if r["cores"] == "4"]
v = [float(r["qps"]) for r in rows]
med = statistics.median(v)
want_range = (max(v) - min(v)) / med * 100
row = [r for r in d["sections"]["levels"]["rows"] if r["level"] == 4][0]
bad = []
if (row["n"], row["median"]) != (len(v), med) or abs(row["range_pct"] - want_range) > 1e-9:
    bad.append("level 4: %r, python n %d median %r range %r" % (row, len(v), med, want_range))
if round(want_range) != 64:
    bad.append("python range %r" % want_range)
pooled = d["facts"].get("pooled", {}).get("value")
if pooled != "variant (before, after)":
    bad.append("fact pooled %r" % pooled)
if not any("pooled on purpose (--pool): variant (before, after)" in n for n in d["sections"]["levels"]["notes"]):
    bad.append("no note: %r" % d["sections"]["levels"]["notes"])
if "pooling variant" not in d["facts"]["filter"]["value"]:
    bad.append("filter fact %r" % d["facts"]["filter"]["value"])
print("\n".join(bad) if bad else "ok")
