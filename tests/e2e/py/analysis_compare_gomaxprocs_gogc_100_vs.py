# analysis_compare_gomaxprocs_gogc_100_vs.py (tests/e2e/analysis.sh): compare --by gomaxprocs (GOGC 100 vs 800): each level's gain and their geometric mean from results.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
rows = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
gain = {}
for g in ("1", "4", "8"):
    v = {r["gogc"]: float(r["tput"]) for r in rows if r["gomaxprocs"] == g and r["gogc"] in ("100", "800")}
    gain[g] = v["800"] / v["100"]
levels = d["sections"]["levels"]["rows"]
bad = []
if [r["level"] for r in levels] != ["1", "4", "8"]: bad.append("levels %r" % [r["level"] for r in levels])
for r in levels:
    if not math.isclose(r["gm_ratio"], gain[r["level"]], rel_tol=1e-12): bad.append("level %s %r" % (r["level"], r["gm_ratio"]))
    if r["a_n"] != 1 or r["b_n"] != 1 or r.get("gm_ratio_lo") is not None: bad.append("level %s n or interval" % r["level"])
gm = math.exp(statistics.mean(math.log(x) for x in gain.values()))
if not math.isclose(f["pooled_ratio"], gm, rel_tol=1e-12): bad.append("pooled %r, python %r" % (f["pooled_ratio"], gm))
if f["pooled_ratio_lo"] is not None: bad.append("pooled interval %r" % f["pooled_ratio_lo"])
if (f["pooled_method"], f["design"], f["by"]) != ("geometric-mean", "by", "gomaxprocs"): bad.append("method %r" % f["pooled_method"])
if not (math.isclose(f["pooled_min"], min(gain.values()), rel_tol=1e-12) and math.isclose(f["pooled_max"], max(gain.values()), rel_tol=1e-12)):
    bad.append("range %r %r" % (f["pooled_min"], f["pooled_max"]))
cmp = d["sections"]["comparison"]["rows"][0]
if not math.isclose(cmp["gm_ratio"], gm, rel_tol=1e-12) or cmp["design"] != "by": bad.append("comparison row %r" % cmp)
print("\n".join(bad) if bad else "ok")
