# hosts_lib.py (tests/e2e/hosts.sh): PYLIB, shared by the checks that import or run it
# TSV reader (plain split: these files have no quoting), medians and the
# least squares of ln(y) on log2(x) (slope b: factor exp(b), SE exp(b) * se(b)).
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, statistics, sys
from tables import rows, close  # noqa: F401 (re-exported to the checkers)
def doubling(levels, medians):
    x = [math.log2(v) for v in levels]
    y = [math.log(m) for m in medians]
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sxx
    a0 = my - b * mx
    sse = sum((c - a0 - b * a) ** 2 for a, c in zip(x, y))
    se = math.sqrt(sse / (n - 2) / sxx)
    return math.exp(b), math.exp(b) * se
def fact(d, name):
    return d["facts"][name]["value"]
def level_rows(d, section="levels"):
    return {r["level"]: r for r in d["sections"][section]["rows"]}
