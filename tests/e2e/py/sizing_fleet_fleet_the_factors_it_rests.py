# sizing_fleet_fleet_the_factors_it_rests.py (tests/e2e/sizing_fleet.sh): fleet: the factors it rests on are named with their runs (platform: the base's; store: e2-medium 100 sessions; sessions: e2-medium pg 100-500)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
by = {r["input"]: r for r in rows(sys.argv[1])}
bad = []
if by["platform"]["setting"] != "intel-xeon-2.2ghz" or "assumed the base runs\x27 own CPU platform" not in by["platform"]["source"]:
    bad.append("platform %r" % by["platform"])
if by["store_factor"]["where"] != "target=medium block=1,2,3" or by["store_factor"]["runs"] != "6" or by["store_factor"]["host"] != "e2-medium":
    bad.append("store factor %r" % by["store_factor"])
if by["sessions_factor"]["levels"] != "sessions 100, 300, 500" or by["sessions_factor"]["runs"] != "9":
    bad.append("sessions factor %r" % by["sessions_factor"])
if by["base_rate"]["where"] != "subcorpus=core" or by["smt_factor"]["where"] != "corpus=gomaxprocs-affinity":
    bad.append("base %r smt %r" % (by["base_rate"]["where"], by["smt_factor"]["where"]))
print("\n".join(bad) if bad else "ok")
