# sizing_fleet_example_no_cell_decides_whose.py (tests/e2e/sizing_fleet.sh): example: no cell decides whose runs used fewer workers than the instance's vCPUs (catalog), none has gomaxprocs=1
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
cat = {r["instance"]: r for r in rows(sys.argv[2])}
bad = []
for r in d["sections"]["measured"]["rows"]:
    if not r["decides"]:
        continue
    if "gomaxprocs=1" in r["group"] or (r["workers"] is not None and r["workers"] < int(cat[r["instance"]]["vcpus"])):
        bad.append("%s %s %s decides" % (r["instance"], r["sessions"], r["group"]))
print("\n".join(bad) if bad else "ok")
