#!/usr/bin/env python3
"""stat_check: t tests and t quantiles in the Python standard library only.

An independent check of analysis/stats.c and analysis/verdict.c (which use
GSL): Student's t distribution from the regularized incomplete beta
function (continued fraction, modified Lentz, as in Numerical Recipes
6.4), the t quantile by bisection on that CDF, Welch's and the paired t
test as scipy.stats.ttest_ind(b, a, equal_var=False) / ttest_rel(b, a)
define them. The tests quote its output with the command that made it.

  python3 tests/stat_check.py welch-ln  A1,A2,... B1,B2,...
  python3 tests/stat_check.py welch     A1,A2,... B1,B2,...
  python3 tests/stat_check.py paired-ln A1,A2,... B1,B2,...
  python3 tests/stat_check.py tq P DF        the P quantile of t(DF)
  python3 tests/stat_check.py doubling L1,L2,... M1,M2,...
        OLS of ln M on log2 L: exp(slope) and its 95% t interval (df n-2)

Output: key=value lines, 17 significant digits.
"""
import math
import statistics
import sys


def betacf(a, b, x):
    tiny, eps = 1e-300, 1e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1.0) < eps:
            return h
    raise RuntimeError("betacf did not converge")


def betai(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def t_two_sided_p(t, df):
    return betai(df / 2.0, 0.5, df / (df + t * t))


def t_cdf(t, df):
    tail = 0.5 * betai(df / 2.0, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def t_quantile(p, df):
    lo, hi = -1e6, 1e6
    for _ in range(400):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def welch(a, b):
    va, vb = statistics.variance(a), statistics.variance(b)
    qa, qb = va / len(a), vb / len(b)
    d = statistics.fmean(b) - statistics.fmean(a)
    se = math.sqrt(qa + qb)
    df = (qa + qb) ** 2 / (qa * qa / (len(a) - 1) + qb * qb / (len(b) - 1))
    return d, se, df


def paired(a, b):
    d = [y - x for x, y in zip(a, b)]
    return statistics.fmean(d), statistics.stdev(d) / math.sqrt(len(d)), len(d) - 1.0


def report(d, se, df, ln):
    t = d / se
    q = t_quantile(0.975, df)
    out = {"diff": d, "se": se, "df": df, "t": t, "p": t_two_sided_p(t, df),
           "lo": d - q * se, "hi": d + q * se}
    if ln:
        out.update(ratio=math.exp(d), ratio_lo=math.exp(d - q * se), ratio_hi=math.exp(d + q * se))
    for k, v in out.items():
        print("%s=%.17g" % (k, v))


def nums(text):
    return [float(x) for x in text.split(",")]


def main(argv):
    what = argv[1]
    if what == "tq":
        print("q=%.17g" % t_quantile(float(argv[2]), float(argv[3])))
        return
    a, b = nums(argv[2]), nums(argv[3])
    if what == "doubling":
        x = [math.log2(v) for v in a]
        y = [math.log(v) for v in b]
        n = len(x)
        mx, my = statistics.fmean(x), statistics.fmean(y)
        sxx = sum((v - mx) ** 2 for v in x)
        slope = sum((u - mx) * (v - my) for u, v in zip(x, y)) / sxx
        icpt = my - slope * mx
        rss = sum((v - icpt - slope * u) ** 2 for u, v in zip(x, y))
        se = math.sqrt(rss / (n - 2) / sxx)
        q = t_quantile(0.975, n - 2)
        for k, v in {"factor": math.exp(slope), "slope_se": se, "df": n - 2.0, "q": q,
                     "lo": math.exp(slope - q * se), "hi": math.exp(slope + q * se)}.items():
            print("%s=%.17g" % (k, v))
        return
    ln = what.endswith("-ln")
    if ln:
        a, b = [math.log(v) for v in a], [math.log(v) for v in b]
    if what.startswith("welch"):
        report(*welch(a, b), ln)
    elif what.startswith("paired"):
        report(*paired(a, b), ln)
    else:
        sys.exit("unknown check " + what)


if __name__ == "__main__":
    main(sys.argv)
