# sizing_size_predicted_rows_beyond_4.py (tests/e2e/sizing.sh): size: predicted rows beyond 4 physical cores (the largest measured) are flagged extrapolated, the others not
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
bad = []
for r in rows(sys.argv[1]):
    if math.isnan(num(r["predicted"])):
        if "extrapolated" in r["flags"]:
            bad.append("%s: unmeasured but %r" % (r["instance"], r["flags"]))
        continue
    cores = [f for f in r["flags"].split("; ") if f.startswith("extrapolated: ")]
    if (float(r["sustained_cores"]) > 4) != bool(cores):
        bad.append("%s: sustained %s, flags %r" % (r["instance"], r["sustained_cores"], r["flags"]))
    elif cores and cores[0] != "extrapolated: %g physical cores, %.2fx the largest fitted (4)" % (
            float(r["sustained_cores"]), float(r["sustained_cores"]) / 4):
        bad.append("%s: %r" % (r["instance"], cores[0]))
    elif cores and abs(float(r["cores_beyond"]) - float(r["sustained_cores"]) / 4) > 1e-12:
        bad.append("%s: cores_beyond %s" % (r["instance"], r["cores_beyond"]))
print("\n".join(bad) if bad else "ok")
