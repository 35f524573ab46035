# sizing_measured_size_with_8_left_in.py (tests/e2e/sizing_measured.sh): size with 8 left in: per doubling and its bounds = the python fit over gomaxprocs 1, 2, 4 of blocks 1-3 (1e-9)
# python Gauss-Newton power law over gomaxprocs 1, 2, 4 (PYINPUTS): 2^b = 1.7856
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
by = {r["input"]: r for r in rows(sys.argv[1])}
pd = inputs(sys.argv[2])[1]
got = tuple(num(by["per_doubling"][c]) for c in ("value", "lo", "hi"))
print("ok" if all(close(g, w, 1e-9) for g, w in zip(got, pd)) and round(pd[0], 4) == 1.7856 else "%r python %r" % (got, pd))
