# cores_lib.py (tests/e2e/cores.sh): PYLIB, shared by the checks that import or run it
# Python helpers shared by the checks below: a TSV reader (plain split, the
# corpora have no quoting), the system.tsv window rule, the upper median
# of FORMATS.md and least squares, all from the standard library.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
from tables import rows, close  # noqa: F401 (re-exported to the checkers)
def raw(path):
    with open(path) as f:
        return [l.split("\t") for l in f.read().split("\n") if l]
def system_window(conn):
    mx = max(conn)
    idx = [i for i, c in enumerate(conn) if c >= 0.8 * mx]
    lo, hi = idx[0], idx[-1]
    if hi - lo > 4:
        lo, hi = lo + 1, hi - 1
    return lo, hi
def plateau_window(conn):
    # the plateau of FORMATS.md (the analysis script of the repository): rows
    # at the maximum conn, first to last, minus the first and the last
    mx = max(conn)
    idx = [i for i, c in enumerate(conn) if c == mx]
    return idx[0] + 1, idx[-1] - 1
def trust_counts(sysrows, tick_min=0.75):
    # the trust scale over system.tsv: ratio = stat_tick_hz / 200 (2 vCPUs),
    # app cores on the clock of the guest = app_cores / ratio; untrustworthy below
    # tick_min, degraded below 0.95 or above 2 cores, else trusted
    n = {"trusted": 0, "degraded": 0, "untrustworthy": 0}
    for s in sysrows:
        ratio = float(s["stat_tick_hz"]) / 200
        stat = float(s["app_cores"]) / ratio
        n["untrustworthy" if ratio < tick_min else "degraded" if ratio < 0.95 or stat > 2 else "trusted"] += 1
    return n
def ols(pts):
    n = len(pts); mx = sum(x for x, _ in pts) / n; my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    b = sxy / sxx; a = my - b * mx
    sse = sum((y - a - b * x) ** 2 for x, y in pts)
    return b, math.sqrt(sse / (n - 2) / sxx), a
