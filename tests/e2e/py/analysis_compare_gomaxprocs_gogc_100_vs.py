# analysis_compare_gomaxprocs_gogc_100_vs.py (tests/e2e/analysis.sh): compare --by gomaxprocs (GOGC 100 vs 800): each level's gain, the count and their geometric mean from results.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
from stat_check import paired, t_quantile
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
rows = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
gain, a, b = {}, [], []
for g in ("1", "4", "8"):
    v = {r["gogc"]: float(r["tput"]) for r in rows if r["gomaxprocs"] == g and r["gogc"] in ("100", "800")}
    gain[g] = v["800"] / v["100"]
    a.append(math.log(v["100"])); b.append(math.log(v["800"]))
levels = d["sections"]["levels"]["rows"]
bad = []
if [r["level"] for r in levels] != ["1", "4", "8"]: bad.append("levels %r" % [r["level"] for r in levels])
for r in levels:
    if not math.isclose(r["gm_ratio"], gain[r["level"]], rel_tol=1e-12): bad.append("level %s %r" % (r["level"], r["gm_ratio"]))
    if r["a_n"] != 1 or r["b_n"] != 1 or r.get("gm_ratio_lo") is not None: bad.append("level %s n or interval" % r["level"])
    if r["verdict"] != "unreplicated": bad.append("level %s verdict %r" % (r["level"], r["verdict"]))
dd, se, df = paired(a, b)
q = t_quantile(0.975, df)
gm, lo, hi = math.exp(dd), math.exp(dd - q * se), math.exp(dd + q * se)
for k, w in (("summary_ratio", gm), ("summary_ratio_lo", lo), ("summary_ratio_hi", hi), ("summary_df", 2)):
    if not isinstance(f.get(k), (int, float)) or not math.isclose(f[k], w, rel_tol=1e-8): bad.append("%s %r, python %r" % (k, f.get(k), w))
if (f["summary_method"], f["design"], f["by"], f["verdict"]) != ("across", "by", "gomaxprocs", "3 of 3 unreplicated"):
    bad.append("method %r verdict %r" % (f["summary_method"], f["verdict"]))
want = "%.4fx [%.4f, %.4f] higher" % (gm, lo, hi)
if f["change"] != want: bad.append("change %r, python %r" % (f["change"], want))
cmp = d["sections"]["comparison"]["rows"][0]
if not math.isclose(cmp["gm_ratio"], gm, rel_tol=1e-12) or cmp["design"] != "by": bad.append("comparison row %r" % cmp)
print("\n".join(bad) if bad else "ok")
