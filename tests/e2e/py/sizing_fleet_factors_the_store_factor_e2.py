# sizing_fleet_factors_the_store_factor_e2.py (tests/e2e/sizing_fleet.sh): factors: the store factor (e2-medium pg/mem at 100) and the sessions factor at 500 (pg 500/100), bounds from the ranges (python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_model import *  # noqa: F401,F403 (the shared helpers)
by = {r["input"]: r for r in rows(sys.argv[1])}
sf = store_factor(); (f, at) = sessions_factor(500)
bad = []
for name, want in (("store_factor", sf), ("sessions_factor", f)):
    got = tuple(float(by[name][c]) for c in ("value", "lo", "hi"))
    if not all(close(g, w, 1e-12) for g, w in zip(got, want)) or by[name]["basis"] != "measured":
        bad.append("%s %r, python %r" % (name, got, want))
if by["store"]["setting"] != "postgres" or by["store"]["basis"] != "given" or by["platform"]["basis"] != "assumed" \
   or by["platform"]["setting"] != "intel-xeon-2.2ghz":
    bad.append("conditions %r %r" % (by["store"], by["platform"]))
if "the base runs\x27 25 sessions were not measured here: taken at the nearest measured count, 100" not in by["store_factor"]["statistic"]:
    bad.append("store factor statistic %r" % by["store_factor"]["statistic"])
print("\n".join(bad) if bad else "ok")
