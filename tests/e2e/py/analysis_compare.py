# analysis_compare.py (tests/e2e/analysis.sh): COMPARE_PY, shared by the checks that import or run it
# the facts recomputed in python from results.tsv: ratio of medians, U_a,
# the exact p and min_p, the pooled cv, Welch t and df on ln values, the
# ratio of geometric means, the medians' effect, and the runs needed
# (pooled sd of ln, sized for the effect of the geometric means)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
from statistics import NormalDist
out, results, la, lb = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
f = {k: v["value"] for k, v in json.load(open(out))["facts"].items()}
arm = lambda lv: [float(r["tput"]) for r in csv.DictReader(open(results), delimiter="\t")
                  if r["block"] in ("1", "2", "3") and r["gomaxprocs"] == lv]
a, b = arm(la), arm(lb)
ratio = statistics.median(b) / statistics.median(a)
u = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)
min_p = 2 / math.comb(len(a) + len(b), len(a))
cv = math.sqrt(sum((statistics.stdev(v) / statistics.mean(v)) ** 2 for v in (a, b)) / 2)
ln_a, ln_b = [math.log(x) for x in a], [math.log(x) for x in b]
qa, qb = statistics.variance(ln_a) / len(a), statistics.variance(ln_b) / len(b)
t = (statistics.mean(ln_b) - statistics.mean(ln_a)) / math.sqrt(qa + qb)
df = (qa + qb) ** 2 / (qa ** 2 / (len(a) - 1) + qb ** 2 / (len(b) - 1))
sd = math.sqrt(((len(a) - 1) * statistics.variance(ln_a) + (len(b) - 1) * statistics.variance(ln_b))
               / (len(a) + len(b) - 2))
effect = (max(ratio, 1 / ratio) - 1) * 100
gm = math.exp(statistics.mean(ln_b) - statistics.mean(ln_a))
gm_effect = (max(gm, 1 / gm) - 1) * 100
z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
need = max(math.ceil(2 * z * z * (sd / math.log1p(gm_effect / 100)) ** 2), 3)
want = {"ratio": ratio, "u": u, "min_p": min_p, "cv": cv, "effect_pct": gm_effect, "runs_needed": need,
        "welch_t": t, "welch_df": df, "sd": sd, "gm_ratio": gm,
        "observed_effect_pct": effect, "min_runs": 3,
        "alpha": 0.05, "power": 0.8, "resamples": 10000, "seed": 1, "ratio_ci_pct": 95}
bad = ["%s: %r, python %r" % (k, f.get(k), w) for k, w in want.items()
       if not isinstance(f.get(k), (int, float)) or not math.isclose(f[k], w, rel_tol=1e-9)]
if u == 0 or u == len(a) * len(b):  # fully separated, no ties: the exact p is min_p
    if not math.isclose(f["p"], min_p, rel_tol=1e-12) or f["exact"] is not True:
        bad.append("p %r exact %r, python %r" % (f["p"], f["exact"], min_p))
if not f["ratio_lo"] <= f["ratio"] <= f["ratio_hi"]:
    bad.append("interval [%r, %r] does not hold %r" % (f["ratio_lo"], f["ratio_hi"], f["ratio"]))
if not f["gm_ratio_lo"] <= f["gm_ratio"] <= f["gm_ratio_hi"]:
    bad.append("t interval [%r, %r] does not hold %r" % (f["gm_ratio_lo"], f["gm_ratio_hi"], f["gm_ratio"]))
want_text = {"a_where": "gomaxprocs=" + la, "b_where": "gomaxprocs=" + lb, "metric": "tput",
             "lower_is_better": False, "scale": "log", "design": "unpaired", "test": "welch",
             "metric_kind": "rate", "verdict": "higher", "method": "Welch t on ln values"}
bad += ["%s: %r" % (k, f.get(k)) for k, w in want_text.items() if f.get(k) != w]
print("\n".join(bad) if bad else "ok")
