# physical_smt_every_figure_bounds_python3.py (tests/e2e/physical.sh): smt: every figure and its bounds match python3 medians of runs.tsv (1e-9)
# Each figure against python3 medians of runs.tsv (values and range bounds).
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from physical_lib import *  # noqa: F401,F403 (the shared helpers)
ours = {r["figure"]: r for r in rows(sys.argv[1])}
R = rows(sys.argv[2])
def arm(f): return [float(r["tput"]) for r in R if f(r)]
def unpinned(t): return arm(lambda r: r["cpuset"] == "" and r["procs"] == "1" and r["threads_per_proc"] == str(t))
sib = arm(lambda r: r["cpuset"] == "0,4,1,5"); dis = arm(lambda r: r["cpuset"] == "0,1,2,3")
shard = lambda p, t: arm(lambda r: r["procs"] == str(p) and r["threads_per_proc"] == str(t))
m = statistics.median
want = {"shared_vs_distinct": (sib, dis), "smt_factor": (sib, unpinned(2)),
        "smt_step": (unpinned(8), unpinned(4)), "sharded 8x1": (shard(8, 1), unpinned(1)),
        "sharded 4x2": (shard(4, 2), unpinned(1)), "sharded 2x4": (shard(2, 4), unpinned(1))}
bad = []
for name, (a, b) in want.items():
    o = ours.get(name)
    if o is None:
        bad.append(name + ": missing"); continue
    for col, x in (("value", m(a) / m(b)), ("range_lo", min(a) / max(b)), ("range_hi", max(a) / min(b))):
        if not close(float(o[col]), x, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (name, col, o[col], x))
s, l, h = (x * 4 for x in (m(sib) / m(unpinned(2)), min(sib) / max(unpinned(2)), max(sib) / min(unpinned(2))))
for col, x in (("value", s), ("range_lo", l), ("range_hi", h)):
    if not close(float(ours["ceiling"][col]), x, 1e-9):
        bad.append("ceiling %s: coreplan %s, python %r" % (col, ours["ceiling"][col], x))
print("\n".join(bad) if bad else "ok")
