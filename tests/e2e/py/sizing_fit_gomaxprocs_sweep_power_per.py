# sizing_fit_gomaxprocs_sweep_power_per.py (tests/e2e/sizing.sh): fit GOMAXPROCS sweep json: power per doubling (python Gauss-Newton), summaries from the parameters
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_fit import *  # noqa: F401,F403 (the shared helpers)
