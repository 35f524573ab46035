# physical_smt_every_figure_bounds_python3.py (tests/e2e/physical.sh): smt: every figure and its bounds match python3 medians of runs.tsv (1e-9)
# Each figure against python3 medians of runs.tsv (values and range bounds).
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from physical_lib import *  # noqa: F401,F403 (the shared helpers)
ours = {r["figure"]: r for r in rows(sys.argv[1])}
want = {name: ratio_bounds(a, b) for name, (a, b) in smt_arms(sys.argv[2]).items()}
want["ceiling"] = tuple(4 * x for x in want["smt_factor"])
bad = []
for name, figures in want.items():
    o = ours.get(name)
    if o is None:
        bad.append(name + ": missing"); continue
    for col, x in zip(("value", "range_lo", "range_hi"), figures):
        if not close(float(o[col]), x, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (name, col, o[col], x))
print("\n".join(bad) if bad else "ok")
