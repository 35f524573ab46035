# cores_cores_gomaxprocs_default_plateau.py (tests/e2e/cores.sh): cores gomaxprocs default: the window is FORMATS.md's plateau on all 24 listed runs (g1-n100-b1: 1.007 cores)
# issue 25: the default plateau leaves the ramp out. python3 over
# runs/<tag>/sample.tsv with FORMATS.md's plateau (conn at its maximum, minus
# the first and the last row): app cores d(app_j) / (d(epoch) * 100) on all
# 24 listed runs; GOMAXPROCS 1 (block 1) reads 1.007, not 0.959
# argv[1]: the command's output ($T/.out); argv[2]: results.tsv; argv[3]: the corpus
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
ours = {r["tag"]: r for r in rows(sys.argv[1])}
bad = []
for res in rows(sys.argv[2]):
    t = raw(sys.argv[3] + "/runs/" + res["tag"] + "/sample.tsv")
    lo, hi = plateau_window([float(r[3]) for r in t])
    wall = (float(t[hi][6]) - float(t[lo][6])) / ((float(t[hi][0]) - float(t[lo][0])) * 100)
    o = ours[res["tag"]]
    if int(o["window_rows"]) != hi - lo + 1 or not close(float(o["app_cores_wall"]), wall, 1e-12):
        bad.append("%s: %s rows %s cores, python %d rows %r" % (res["tag"], o["window_rows"], o["app_cores_wall"], hi - lo + 1, wall))
if not close(float(ours["g1-n100-b1"]["app_cores_wall"]), 1.007, 1e-12):
    bad.append("g1-n100-b1 %s" % ours["g1-n100-b1"]["app_cores_wall"])
print("\n".join(bad) if bad else "ok")
