#!/usr/bin/env python3
"""sim_check_scipy: the false-alarm and power simulation of
tests/test_verdict_sim.c (and tests/sim_check.py) again, in NumPy and SciPy
(python3-numpy, python3-scipy; not needed by the test suite): lognormal
run-to-run noise of coefficient of variation cv, n runs a side, Welch's t
on ln values (scipy.stats.ttest_ind, equal_var=False) at alpha 0.05.
Null: the share of p < 0.05; power: the share of p < 0.05 in the true
effect's direction. docs/statistics.md quotes its output.

  /usr/bin/python3 tests/sim_check_scipy.py [TRIALS]   (default 40000, seed 7)
"""
import sys

import numpy as np
from scipy import stats

trials = int(sys.argv[1]) if len(sys.argv) > 1 else 40000
rng = np.random.default_rng(7)


def rate(n, cv, effect):
    s = np.sqrt(np.log(1 + cv * cv))
    a = rng.normal(0, s, (trials, n))
    b = rng.normal(np.log(1 + effect), s, (trials, n))
    t, p = stats.ttest_ind(b, a, axis=1, equal_var=False)
    return np.mean((p < 0.05) & (t > 0)) if effect > 0 else np.mean(p < 0.05)


for n in (3, 5, 10):
    print("null n=%d cv 1/10/30%%: %s" % (n, " ".join("%.4f" % rate(n, cv, 0) for cv in (0.01, 0.1, 0.3))))
for cv in (0.05, 0.10):
    for e in (0.05, 0.10, 0.20):
        print("power cv=%g effect=%g n=3/5/10: %s" % (cv, e, " ".join("%.4f" % rate(n, cv, e) for n in (3, 5, 10))))
