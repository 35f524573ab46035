# analysis_noise_soaks_ratio_sustained_median.py (tests/e2e/analysis.sh): noise soaks: ratio and sustained median match json/<tag>.json
# python3: 183.50754720511367 / statistics.median(r2..r8 tput) = 2.67275559576317
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
out, cap = sys.argv[1], sys.argv[2]
t = lambda r: json.load(open("%s/json/small-pg-n300-bsoakr%d.json" % (cap, r)))["interactions_per_sec"]
rest = [t(r) for r in range(2, 9)]
want = t(1) / statistics.median(rest)
row = next(csv.DictReader(open(out), delimiter="\t"))
got = float(row["ratio"]); med = float(row["sustained_median"])
print("ok" if math.isclose(got, want, rel_tol=1e-12) and math.isclose(med, statistics.median(rest), rel_tol=1e-12)
      else "ratio %r vs python %r, sustained median %r" % (got, want, med))
