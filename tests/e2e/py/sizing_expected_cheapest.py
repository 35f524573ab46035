# sizing_expected_cheapest.py (tests/e2e/sizing.sh): the cheapest instance that meets the target, from the printed predictions and prices of the json document argv[1]
# The cheapest meeting row, worked out here from the printed predictions and prices.
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
best = None
for r in rows(sys.argv[1]):
    lo = num(r["predicted_low"])
    if r["verdict_basis"] == "measured":
        lo = num(r["measured_min"])
    if math.isnan(lo) or lo < 1000 or num(r["memory_needed_gib"]) > num(r["memory_gib"]):
        continue
    if best is None or float(r["price_per_hour"]) < float(best["price_per_hour"]):
        best = r
print(best["instance"] if best else "none")
