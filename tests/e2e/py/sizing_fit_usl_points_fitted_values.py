# sizing_fit_usl_points_fitted_values.py (tests/e2e/sizing.sh): fit usl points: fitted values 90 1078 1541 1850 1879 1822 1646 and residuals as published
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = rows(sys.argv[1])
fitted = [90, 1078, 1541, 1850, 1879, 1822, 1646]
resid = [-25.10, -81.66, 111.09, 3.05, -49.99, -46.60, 56.00]
bad = []
if [float(r["level"]) for r in out] != [1, 18, 36, 72, 108, 144, 216]:
    bad.append("levels %r" % [r["level"] for r in out])
for r, f, e in zip(out, fitted, resid):
    u, v = float(r["usl"]), float(r["value"])
    if not printed(u, f, 0):
        bad.append("level %s: fitted %s, published %d" % (r["level"], r["usl"], f))
    if not printed(v - u, e, 2):
        bad.append("level %s: residual %.4f, published %.2f" % (r["level"], v - u, e))
print("\n".join(bad) if bad else "ok")
