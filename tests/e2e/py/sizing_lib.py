# sizing_lib.py (tests/e2e/sizing.sh): PYLIB, shared by the checks that import or run it
# TSV reader (plain split: no quoting in these files), closeness, printed precision.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, statistics, sys
from tables import rows, close, power_law  # noqa: F401 (re-exported to the checkers)
def printed(x, pub, decimals, slack=0.0):
    return abs(x - pub) <= 0.5 * 10 ** -decimals + slack
def num(s):
    return float("nan") if s in ("NA", "", None) else float(s)
