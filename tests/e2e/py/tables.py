# tables.py: what the end-to-end checkers share (the *_lib.py modules
# re-export it): a TSV reader (plain split: the corpora and fixtures have
# no quoting), a closeness test and the power law X = a N^b fitted by
# Gauss-Newton from the log-log least squares, standard library only.
import math, statistics
def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)
def power_law(pts, iterations=200):
    """(a, b, se_b) of X = a N^b over pts [(N, X)]: Gauss-Newton from the
    log-log OLS; se_b from the Jacobian at the fit, sse / (n - 2)."""
    lx = [math.log(n) for n, _ in pts]; ly = [math.log(x) for _, x in pts]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    b = sum((u - mx) * (v - my) for u, v in zip(lx, ly)) / sum((u - mx) ** 2 for u in lx)
    a = math.exp(my - b * mx)
    for _ in range(iterations):
        J = [(n ** b, a * n ** b * math.log(n)) for n, _ in pts]
        r = [x - a * n ** b for n, x in pts]
        s00 = sum(j[0] * j[0] for j in J); s01 = sum(j[0] * j[1] for j in J); s11 = sum(j[1] * j[1] for j in J)
        g0 = sum(j[0] * e for j, e in zip(J, r)); g1 = sum(j[1] * e for j, e in zip(J, r))
        det = s00 * s11 - s01 * s01
        a += (s11 * g0 - s01 * g1) / det; b += (s00 * g1 - s01 * g0) / det
    J = [(n ** b, a * n ** b * math.log(n)) for n, _ in pts]
    s00 = sum(j[0] * j[0] for j in J); s01 = sum(j[0] * j[1] for j in J); s11 = sum(j[1] * j[1] for j in J)
    sse = sum((x - a * n ** b) ** 2 for n, x in pts)
    return a, b, math.sqrt(s00 / (s00 * s11 - s01 * s01) * sse / (len(pts) - 2))
