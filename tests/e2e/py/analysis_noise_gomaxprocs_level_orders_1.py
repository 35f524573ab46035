# analysis_noise_gomaxprocs_level_orders_1.py (tests/e2e/analysis.sh): noise json gomaxprocs: level orders 1,2,4,8 / 8,4,2,1 / 2,8,1,4 from load.json, counterbalanced
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import calendar, csv, json, sys, time
out, gmp = sys.argv[1], sys.argv[2]
d = json.load(open(out))
runs = []
for r in csv.DictReader(open(gmp + "/results.tsv"), delimiter="\t"):
    if r["block"] in ("1", "2", "3"):
        t = calendar.timegm(time.strptime(json.load(open(gmp + "/runs/" + r["tag"] + "/load.json"))["started_at"], "%Y-%m-%dT%H:%M:%SZ"))
        runs.append((r["block"], t, r["gomaxprocs"]))
want = {b: ",".join(x[2] for x in sorted(r for r in runs if r[0] == b)) for b in ("1", "2", "3")}
got = {r["block"]: r["levels_in_order"] for r in d["sections"]["order"]["rows"]}
pos = {}
for b, o in want.items():
    for i, v in enumerate(o.split(",")):
        pos.setdefault(v, set()).add(i)
balanced = all(len(p) > 1 for p in pos.values())
ok = got == want and want == {"1": "1,2,4,8", "2": "8,4,2,1", "3": "2,8,1,4"} and balanced
ok = ok and d["facts"]["counterbalanced_gomaxprocs"]["value"] == "yes" and d["facts"]["counterbalanced"]["value"] is True
print("ok" if ok else "orders %r, python %r; facts %r" % (got, want, d["facts"]["counterbalanced_gomaxprocs"]))
