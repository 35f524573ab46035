# analysis_compare_sessions_capacity_pg_3.py (tests/e2e/analysis.sh): compare --by sessions (capacity, pg): 3 of 3 higher, geometric mean 3.7871 [3.4932, 4.1058] from the levels' own se
# each level's Welch on ln values (tests/stat_check.py) from results.tsv; the
# summary's interval from the levels' own standard errors (equal weights,
# Welch-Satterthwaite df)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, sys
from stat_check import welch, t_quantile
f = {k: v["value"] for k, v in json.load(open(sys.argv[1]))["facts"].items()}
rows = [r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t") if r["cfg"] == "pg" and r["block"] in ("1", "2", "3")]
ds, ses, dfs = [], [], []
for lv in ("100", "300", "500"):
    arm = lambda t: [math.log(float(r["tput"])) for r in rows if r["target"] == t and r["level"] == lv]
    dd, se, df = welch(arm("small"), arm("medium"))
    ds.append(dd); ses.append(se); dfs.append(df)
ss = sum(x * x for x in ses)
se, df = math.sqrt(ss) / 3, ss * ss / sum(x ** 4 / y for x, y in zip(ses, dfs))
q = t_quantile(0.975, df)
m = sum(ds) / 3
bad = []
for k, w in (("summary_ratio", math.exp(m)), ("summary_ratio_lo", math.exp(m - q * se)),
             ("summary_ratio_hi", math.exp(m + q * se)), ("summary_df", df), ("levels", 3), ("levels_up", 3)):
    if not isinstance(f.get(k), (int, float)) or not math.isclose(f[k], w, rel_tol=1e-8): bad.append("%s %r, want %r" % (k, f.get(k), w))
if (f["summary_method"], f["verdict"]) != ("within", "3 of 3 higher"):
    bad.append("%s %s" % (f["summary_method"], f["verdict"]))
print("\n".join(bad) if bad else "ok")
