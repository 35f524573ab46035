# hosts_sweep_physical_per_doubling_least.py (tests/e2e/hosts.sh): sweep: physical per-doubling = least squares over levels 1, 2, 4 (python3: about 1.78), with its SE
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_sweep import *  # noqa: F401,F403 (the shared helpers)
f, se = doubling([1, 2, 4], [med[1], med[2], med[4]])
a, b = fact(d, "physical_per_doubling"), fact(d, "physical_per_doubling_se")
ok = close(a, f, 1e-9) and close(b, se, 1e-6) and round(f, 2) == 1.78
ok = ok and fact(d, "physical_per_doubling_levels") == 3
print("ok" if ok else "%r (SE %r), want %r (SE %r)" % (a, b, f, se))
