# hosts_sweep_physical_efficiency_speedup_level.py (tests/e2e/hosts.sh): sweep: physical efficiency = speedup / level at level 4; host epyc, 4 physical cores
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_sweep import *  # noqa: F401,F403 (the shared helpers)
want = med[4] / med[1] / 4
ok = close(fact(d, "physical_efficiency"), want, 1e-12) and fact(d, "physical_efficiency_level") == 4
ok = ok and fact(d, "host") == "epyc" and fact(d, "physical_cores") == 4 and fact(d, "logical_cpus") == 8
print("ok" if ok else "%r, want %r" % (fact(d, "physical_efficiency"), want))
