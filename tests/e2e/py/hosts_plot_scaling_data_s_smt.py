# hosts_plot_scaling_data_s_smt.py (tests/e2e/hosts.sh): plot scaling: the data's SMT block holds level 8's median (python3 from results.tsv)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
blocks = open(sys.argv[2]).read().split("\n\n\n")
smt = [b for b in blocks if b.startswith("# SMT sibling levels")]
res = [r for r in rows(sys.argv[3]) if r["block"] in ("1", "2", "3") and r["gomaxprocs"] == "8"]
m = statistics.median(float(r["tput"]) for r in res)
vals = [l.split("\t") for l in smt[0].split("\n")[1:] if l] if smt else []
print("ok" if len(vals) == 1 and float(vals[0][0]) == 8 and close(float(vals[0][1]), m, 1e-15) else "%s" % vals)
