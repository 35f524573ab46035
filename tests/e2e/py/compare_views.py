#!/usr/bin/env python3
"""Oracle for tests/e2e/compare_views.sh: compare's benchstat and compare.py
rows on runs that are not a tool's (one metric per run), recomputed from the
corpus table with the standard library only.

  compare_views.py OUT.json TABLE.tsv METRIC 'F=V ...' 'F=V ...' [F=V ...]

The arms are the table's rows matching each set of FIELD=V conditions and
the common ones after them (compare's --where).
Checked: each arm's n, median (benchstat), mean (compare.py), compare.py's
relative change (b - a) / |a| of the means, and the two-sided exact
Mann-Whitney p (no ties: 2 P(U <= min(U_a, U_b)) counted over every
assignment of the pooled values to the arms)."""
import csv
import itertools
import json
import statistics
import sys


WHERE = {}  # the common --where conditions (one value each), from argv[6:]


def arm(rows, conds, metric):
    want = dict(c.split("=", 1) for c in conds.split())
    for k, v in WHERE.items():
        want.setdefault(k, v)
    return [float(r[metric]) for r in rows if all(r.get(k) == v for k, v in want.items())]


def exact_p(a, b):
    pooled = a + b
    def u_of(xs, ys):
        return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in xs for y in ys)
    ua = u_of(a, b)
    obs = min(ua, len(a) * len(b) - ua)
    count = total = 0
    for idx in itertools.combinations(range(len(pooled)), len(a)):
        xs = [pooled[i] for i in idx]
        ys = [pooled[i] for i in range(len(pooled)) if i not in idx]
        u = u_of(xs, ys)
        total += 1
        count += min(u, len(a) * len(b) - u) <= obs
    return min(1.0, count / total)


def main():
    out, table, metric, ca, cb = sys.argv[1:6]
    WHERE.update(c.split("=", 1) for c in sys.argv[6:])
    d = json.load(open(out))
    rows = list(csv.DictReader(open(table), delimiter="\t"))
    a, b = arm(rows, ca, metric), arm(rows, cb, metric)
    secs = d["sections"]
    want = {}
    if "benchstat" in secs:
        bs = secs["benchstat"]["rows"][0]
        want.update({
            "benchstat a_n": (bs["a_n"], len(a)),
            "benchstat b_n": (bs["b_n"], len(b)),
            "benchstat a_median": (bs["a_median"], statistics.median(a)),
            "benchstat b_median": (bs["b_median"], statistics.median(b)),
            "benchstat p": (bs["p"], exact_p(a, b)),
        })
    if "comparepy" in secs:
        cp = secs["comparepy"]["rows"][0]
        ma, mb = statistics.mean(a), statistics.mean(b)
        want.update({
            "comparepy a_mean": (cp["a_mean"], ma),
            "comparepy b_mean": (cp["b_mean"], mb),
            "comparepy change": (cp["change"], (mb - ma) / abs(ma)),
            "comparepy utest_p": (cp["utest_p"], exact_p(a, b) if min(len(a), len(b)) >= 2 else None),
        })
    if not want:
        print("neither a benchstat nor a comparepy section in", sorted(secs))
        return
    bad = ["%s: got %r, expected %r" % (k, g, e) for k, (g, e) in want.items()
           if (g is None) != (e is None) or (e is not None and abs(g - e) > 1e-9 * max(1.0, abs(e)))]
    print("; ".join(bad) if bad else "ok")


main()
