# sizing_size_predicted_rows_beyond_4.py (tests/e2e/sizing.sh): size: predicted rows beyond 4 physical cores (the largest measured) are flagged extrapolated, the others not
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
bad = []
for r in rows(sys.argv[1]):
    if math.isnan(num(r["predicted"])):
        if "extrapolated" in r["flags"]:
            bad.append("%s: unmeasured but %r" % (r["instance"], r["flags"]))
        continue
    if (float(r["sustained_cores"]) > 4) != ("extrapolated" in r["flags"]):
        bad.append("%s: sustained %s, flags %r" % (r["instance"], r["sustained_cores"], r["flags"]))
print("\n".join(bad) if bad else "ok")
