# report_smt_step.py (tests/e2e/report.sh): the SMT step of the GOMAXPROCS corpus from results.tsv (argv[1])
import csv, statistics, sys
r = [x for x in csv.DictReader(open(sys.argv[1]), delimiter="\t") if x["block"] in ("1", "2", "3")]
m = lambda g: statistics.median(float(x["tput"]) for x in r if x["gomaxprocs"] == g)
print("%.3f" % (m("8") / m("4")))
