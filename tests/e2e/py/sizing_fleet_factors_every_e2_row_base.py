# sizing_fleet_factors_every_e2_row_base.py (tests/e2e/sizing_fleet.sh): factors: every e2 row = base x scale x SMT x store factor x the sessions factor where lowest of 300, 500 (python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
from sizing_model import *  # noqa: F401,F403 (the shared helpers)
bad = []
for r in rows(sys.argv[1]):
    if not r["instance"].startswith("e2-"):
        continue
    want = min((model(GCE[r["instance"]], s) for s in (300, 500)), key=lambda m: m[0])
    got = [float(r[c]) for c in ("predicted", "predicted_low", "predicted_high")]
    if not all(close(g, w, 1e-9) for g, w in zip(got, want)) or "store factor" not in r["flags"]:
        bad.append("%s %r, python %r" % (r["instance"], got, want))
print("\n".join(bad) if bad else "ok")
