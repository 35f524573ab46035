#!/usr/bin/env python3
"""sim_check: the false-alarm rate and the power of the decision rule
(analysis/verdict.h: Welch's t on ln values, two-sided, alpha 0.05), by
simulation in the Python standard library only (random.Random, the t
distribution of tests/stat_check.py). An independent reference for
tests/test_verdict_sim.c, which simulates the same designs in C with GSL's
generator; the two agree within their simulation errors.

  python3 tests/sim_check.py null TRIALS SEED     Welch's size at n = 3, 5, 10
  python3 tests/sim_check.py power TRIALS SEED    power at n = 3, 5, 10 for
                                                  effects 5, 10, 20% at cv 5%, 10%

Lognormal noise: a run is m * exp(sigma * z), sigma = sqrt(ln(1 + cv^2))
(cv the coefficient of variation); on ln values the test is scale-free, so
the false-alarm rate does not depend on cv or m.
"""
import math
import random
import sys

from stat_check import t_two_sided_p, welch


def real(a, b, alpha=0.05, up=False):
    """The rule's verdict is real (up: and b above a, the effect's way)."""
    d, se, df = welch([math.log(x) for x in a], [math.log(x) for x in b])
    return t_two_sided_p(d / se, df) < alpha and (d > 0 or not up)


def lognormal(rng, m, cv, n):
    s = math.sqrt(math.log(1 + cv * cv))
    return [m * math.exp(s * rng.gauss(0, 1)) for _ in range(n)]


def main(argv):
    what, trials, seed = argv[1], int(argv[2]), int(argv[3])
    rng = random.Random(seed)
    if what == "null":
        for n in (3, 5, 10):
            k = sum(real(lognormal(rng, 100, 0.1, n), lognormal(rng, 100, 0.1, n))
                    for _ in range(trials))
            print("n=%d rate=%.5f se=%.5f" % (n, k / trials, math.sqrt(0.05 * 0.95 / trials)))
    else:
        for cv in (0.05, 0.10):
            for effect in (0.05, 0.10, 0.20):
                for n in (3, 5, 10):
                    k = sum(real(lognormal(rng, 100, cv, n),
                                 lognormal(rng, 100 * (1 + effect), cv, n), up=True)
                            for _ in range(trials))
                    print("cv=%g effect=%g n=%d power=%.4f" % (cv, effect, n, k / trials))


if __name__ == "__main__":
    main(sys.argv)
