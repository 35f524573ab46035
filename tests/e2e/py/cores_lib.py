# cores_lib.py (tests/e2e/cores.sh): PYLIB, shared by the checks that import or run it
# Python helpers shared by the checks below: a TSV reader (plain split, the
# corpora have no quoting), the system.tsv window rule, the upper median
# of FORMATS.md and least squares, all from the standard library.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv, json, math, statistics, sys
def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
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
def ols(pts):
    n = len(pts); mx = sum(x for x, _ in pts) / n; my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    b = sxy / sxx; a = my - b * mx
    sse = sum((y - a - b * x) ** 2 for x, y in pts)
    return b, math.sqrt(sse / (n - 2) / sxx), a
def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)
