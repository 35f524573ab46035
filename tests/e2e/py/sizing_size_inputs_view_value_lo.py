# sizing_size_inputs_view_value_lo.py (tests/e2e/sizing.sh): size inputs view: value/lo/hi of each input recomputed from the corpus files (1e-6)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
by = {r["input"]: r for r in rows(sys.argv[1])}
base, pd, smt, mem, _, _ = inputs(sys.argv[2])
bad = []
for name, trio in (("base_rate", base), ("per_doubling", pd), ("smt_factor", smt)):
    got = tuple(num(by[name][c]) for c in ("value", "lo", "hi"))
    if not all(close(g, w, 1e-6) for g, w in zip(got, trio)):
        bad.append("%s %r, python %r" % (name, got, trio))
per, fixed = num(by["mem_per_session_kb"]["value"]), num(by["mem_fixed_kb"]["value"])
col, osr = num(by["colocated_kb"]["value"]), num(by["os_reserve_mib"]["value"])
if not close((fixed + per * 500 + col) / 1048576 + osr / 1024, mem, 1e-9):
    bad.append("memory %r + %r x 500 + %r kB + %r MiB, python %r GiB" % (fixed, per, col, osr, mem))
print("\n".join(bad) if bad else "ok")
