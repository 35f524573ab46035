# analysis_compare_effect_bound_4_7.py (tests/e2e/analysis.sh): compare --effect-bound 4.7: spread / bound of each arm (python: (max / min - 1) * 100 / 4.7)
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))  # the listed runs
for g in ("1", "8"):
    v = [float(r["tput"]) for r in rows if r["gomaxprocs"] == g]
    print("%.6f" % ((max(v) / min(v) - 1) * 100 / 4.7))
