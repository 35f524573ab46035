# hosts_sweep_level_8_s_step.py (tests/e2e/hosts.sh): sweep: level 8's step is median 8 / median 4 (1796.2 / 1538.8 = 1.1673), as a cell and a fact
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_sweep import *  # noqa: F401,F403 (the shared helpers)
want = med[8] / med[4]
a, b = lv[8]["smt_step"], fact(d, "smt_step_at_8")
print("ok" if close(a, want, 1e-12) and close(b, want, 1e-12) and round(want, 4) == 1.1673
      else "%r %r, want %r" % (a, b, want))
