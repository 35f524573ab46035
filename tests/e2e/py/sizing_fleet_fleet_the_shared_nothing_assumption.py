# sizing_fleet_fleet_the_shared_nothing_assumption.py (tests/e2e/sizing_fleet.sh): fleet: the shared-nothing assumption with the sharded arm: 8 x 1 thread over one single-thread process against 4 cores x the SMT factor (python, runs.tsv)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
t = rows(sys.argv[2] + "/writeups/gomaxprocs-affinity/runs.tsv")
med = lambda p: statistics.median(float(x["tput"]) for x in t if p(x))
shard = med(lambda x: x["tag"].startswith("shard-8x1")) / med(lambda x: x["arm"] == "sweep" and x["threads_per_proc"] == "1")
smt = med(lambda x: x["cpuset"] == "0,4,1,5") / med(lambda x: x["arm"] == "sweep" and x["threads_per_proc"] == "2")
ceiling = 4 * smt
want = "8 processes x 1 thread reached %.2fx one single-thread process" % shard
ok = want in f["shared_nothing"] and "against a hardware ceiling of %.2fx" % ceiling in f["shared_nothing"] \
     and close(f["sharded_over_ceiling"], shard / ceiling, 1e-9) and f["cheapest_fleet"] == "e2-standard-4" and f["cheapest_fleet_n"] == 3
print("ok" if ok else "%r %r %r, python %.4f / %.4f" % (f["shared_nothing"], f["sharded_over_ceiling"], f["cheapest_fleet"], shard, ceiling))
