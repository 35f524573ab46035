# cores_trace_format_facts_plateau_first.py (tests/e2e/cores.sh): trace --format json facts: plateau_first, plateau_last, plateau_rows, plateau_seconds, app_cores_wall and the driver rows match python3
# the plateau facts against FORMATS.md's plateau on sample.tsv (conn column 4
# at its maximum, minus the first and last row; epoch 1, app_j 7): the
# default window leaves the ramp out; clk_tck from the idle banner; the
# driver window is window.tsv's first and last lines found in sample.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
import re
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
t = raw(sys.argv[2] + "/sample.tsv")
w = raw(sys.argv[2] + "/window.tsv")
clk = float(re.search(r"clk_tck=(\d+)", open(sys.argv[2] + "/idle.txt").read()).group(1))
lo, hi = plateau_window([float(r[3]) for r in t])
secs = float(t[hi][0]) - float(t[lo][0])
wall = (float(t[hi][6]) - float(t[lo][6])) / (secs * clk)
want = {"plateau_first": lo + 1, "plateau_last": hi + 1, "plateau_rows": hi - lo + 1,
        "plateau_seconds": secs, "driver_first": t.index(w[0]) + 1,
        "driver_last": len(t) - t[::-1].index(w[-1])}
bad = ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in want.items() if f.get(k) != v]
if not close(f["app_cores_wall"], wall, 1e-12):
    bad.append("app_cores_wall %r, python %r" % (f["app_cores_wall"], wall))
if f["plateau"] != "found" or "ramp" not in f["note"]:
    bad.append("plateau %r, note %r" % (f["plateau"], f["note"]))
marks = [r["window"] for r in d["sections"]["rows"]["rows"]]
if [i for i, m in enumerate(marks) if m in ("plateau", "both")] != list(range(lo, hi + 1)):
    bad.append("plateau marks are not rows %d-%d" % (lo + 1, hi + 1))
print("\n".join(bad) if bad else "ok")
