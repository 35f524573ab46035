# sizing_fleet_fleet_the_cheapest_fleet_of.py (tests/e2e/sizing_fleet.sh): fleet: the cheapest fleet of the e2 series is the lowest n x price among those whose lower bound meets (python over the view's rows)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = [r for r in rows(sys.argv[1]) if r["n"] != "NA"]
best = min(out, key=lambda r: (float(r["cost_per_hour"]), int(r["n"])))
marked = [r["instance"] for r in rows(sys.argv[1]) if r["cheapest"] == "1"]
print("ok" if marked == [best["instance"]] and all(float(r["cost_per_hour"]) == int(r["n"]) * float(r["price_per_hour"]) for r in out)
      else "%r, python %r" % (marked, best["instance"]))
