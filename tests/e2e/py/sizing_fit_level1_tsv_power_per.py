# sizing_fit_level1_tsv_power_per.py (tests/e2e/sizing.sh): fit level1.tsv json: power per doubling (python Gauss-Newton) and usl/amdahl summaries from their parameters
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_fit import *  # noqa: F401,F403 (the shared helpers)
