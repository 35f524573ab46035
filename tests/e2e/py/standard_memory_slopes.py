# standard_memory_slopes.py (tests/e2e/standard.sh): memory --by level on
# the capacity corpus (whose results table names the sessions `level`):
# each target x cfg group's OLS slope of load_rss_kb (system.tsv's
# load_app_kb) on the level over blocks 1-3, and its 95% t interval (df 7),
# against SciPy's, quoted here: scipy.stats.linregress(level, load_app_kb)
# with scipy.stats.t.ppf(0.975, 7) over system.tsv (SciPy 1.10.1).
# argv: the command's TSV output
import csv, math, sys

SCIPY = {  # group: slope, lo, hi (kB per session)
    "target=medium, cfg=mem": (478.62333333333333, 422.5126318105942, 534.7340348560725),
    "target=small, cfg=mem": (471.4433333333334, 407.58688305706534, 535.2997836096014),
    "target=medium, cfg=pg": (636.6066666666667, 619.3559367580935, 653.8573965752398),
    "target=small, cfg=pg": (617.23, 599.0409094863405, 635.4190905136595),
}
rows = {r["group"]: r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")}
bad = []
if sorted(rows) != sorted(SCIPY):
    bad.append("groups %s" % sorted(rows))
for g, want in SCIPY.items():
    r = rows.get(g)
    if r is None:
        continue
    if r["n"] != "9" or r["levels"] != "3":
        bad.append("%s: n %s levels %s" % (g, r["n"], r["levels"]))
    for col, w in zip(("slope", "slope_lo", "slope_hi"), want):
        if not math.isclose(float(r[col]), w, rel_tol=1e-7):
            bad.append("%s %s %s, want %r" % (g, col, r[col], w))
print("\n".join(bad) if bad else "ok")
