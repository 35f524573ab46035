# sizing_size_on_the_corpora_without.py (tests/e2e/sizing.sh): size on the corpora without --smt-from: the SMT factor measured from the affinity table (python: median pin-siblings / median sweep g2), basis measured
# no --smt-from: the SMT factor measured where --smt-from would have found it,
# the affinity table's pinned runs on the sweep's platform (amd-epyc-7b12):
# median pin-siblings / median 2-thread sweep (runs.tsv, python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
r = {x["input"]: x for x in rows(sys.argv[1])}["smt_factor"]
t = rows(sys.argv[2] + "/writeups/gomaxprocs-affinity/runs.tsv")
pin = statistics.median(float(x["tput"]) for x in t if x["arm"] == "pin" and x["cpuset"] == "0,4,1,5")
g2 = statistics.median(float(x["tput"]) for x in t if x["arm"] == "sweep" and x["threads_per_proc"] == "2")
ok = close(float(r["value"]), pin / g2, 1e-12) and r["basis"] == "measured" and r["where"] == "corpus=gomaxprocs-affinity" \
     and "measured without --smt-from: the pinned runs on the --scaling-from runs\x27 platform amd-epyc-7b12" in r["source"]
print("ok" if ok else "%r, python %r" % (r, pin / g2))
