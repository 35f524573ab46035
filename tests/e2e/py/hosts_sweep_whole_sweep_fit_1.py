# hosts_sweep_whole_sweep_fit_1.py (tests/e2e/hosts.sh): sweep: the whole-sweep fit over 1, 2, 4, 8 stays (python3 least squares)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_sweep import *  # noqa: F401,F403 (the shared helpers)
f, se = doubling([1, 2, 4, 8], [med[g] for g in (1, 2, 4, 8)])
print("ok" if close(fact(d, "per_doubling"), f, 1e-9) else "%r, want %r" % (fact(d, "per_doubling"), f))
