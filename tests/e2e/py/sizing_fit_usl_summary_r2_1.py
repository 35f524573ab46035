# sizing_fit_usl_summary_r2_1.py (tests/e2e/sizing.sh): fit usl summary: r2 = 1 - SSE/SST (python3, 1e-8)
# R^2 = 1 - SSE / SST, SSE = 4 x 82.845820027381892^2 (exact optimum, mpmath)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
r = rows(sys.argv[1])[0]
x = [float(d["throughput"]) for d in rows(sys.argv[2])]
m = statistics.mean(x)
sst = sum((v - m) ** 2 for v in x)
want = 1 - 27453.719584037402 / sst
print("ok" if close(float(r["r2"]), want, 1e-8) else "r2 %s, python %r" % (r["r2"], want))
