# hosts_sweep_smt_factor_measured_epyc.py (tests/e2e/hosts.sh): sweep: the SMT factor measured on epyc = median(0,4,1,5 pinned) / median(unpinned g2) of runs.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
r = rows(sys.argv[2])
num = statistics.median(float(x["tput"]) for x in r if x["cpuset"] == "0,4,1,5")
den = statistics.median(float(x["tput"]) for x in r if x["arm"] == "sweep" and x["threads_per_proc"] == "2")
ok = close(fact(d, "smt_factor"), num / den, 1e-12) and fact(d, "smt_factor_corpus") == "gomaxprocs-affinity"
print("ok" if ok else "%r, want %r" % (fact(d, "smt_factor"), num / den))
