# sizing_measured_size_plot_a_measured_series.py (tests/e2e/sizing_measured.sh): size --plot: a measured series with one point per eligible cell (median, min, max: the two pg cells at 500) beside the predicted boxes
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
blocks = [b for b in open(sys.argv[2]).read().split("\n\n\n") if b.strip()]
meas = [r for r in d["sections"]["measured"]["rows"] if r["eligible"] and r["n"]]
bad = []
if len(blocks) != 3:
    bad.append("%d data blocks" % len(blocks))
else:
    pts = [l.split("\t") for l in blocks[2].split("\n") if l and not l.startswith("#")]
    if len(pts) != len(meas) or len(meas) != 2:
        bad.append("%d points, %d cells" % (len(pts), len(meas)))
    for p, r in zip(pts, meas):
        if not all(close(float(a), b, 1e-15) for a, b in zip(p[1:], (r["median"], r["min"], r["max"]))):
            bad.append("%r vs %r" % (p, r))
print("\n".join(bad) if bad else "ok")
