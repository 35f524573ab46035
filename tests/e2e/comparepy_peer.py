#!/usr/bin/env python3
"""comparepy_peer.py OLD.json NEW.json: Google Benchmark's tools/compare.py
`benchmarks OLD NEW` output (tools/gbench/report.py, no colour), written here
with the standard library only (compare.py needs scipy, which is not
installed): runs paired by name and place; U test by SciPy >= 1.7's
mannwhitneyu(alternative='two-sided', method='auto'): exact (all C(n, n_a)
assignments enumerated) when no value ties and an arm has <= 8 values, else
the normal approximation with tie and continuity corrections. Aggregate rows
(run_type "aggregate") are left out, as coreplan's import leaves them out.
"""
import itertools, json, math, sys


def load(path):
    return [b for b in json.load(open(path))["benchmarks"]
            if b.get("run_type", "iteration") != "aggregate"
            and "real_time" in b and "cpu_time" in b and "time_unit" in b]


def change(old, new):
    if old == 0 and new == 0:
        return 0.0
    if old == 0:
        return float(new - old) / (float(old + new) / 2)
    return float(new - old) / abs(old)


def mwu(x, y):
    n1, n2 = len(x), len(y)
    allv = sorted(x + y)
    ranks = {}
    i = 0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j] == allv[i]:
            j += 1
        ranks[allv[i]] = (i + 1 + j) / 2
        i = j
    u1 = sum(ranks[v] for v in x) - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    ties = len(set(allv)) < len(allv)
    if not ties and (n1 <= 8 or n2 <= 8):
        # exact: the share of assignments with U at least u, both tails
        rk = [ranks[v] for v in allv]
        count = total = 0
        for c in itertools.combinations(range(n1 + n2), n1):
            total += 1
            uc = sum(rk[k] for k in c) - n1 * (n1 + 1) / 2
            if max(uc, n1 * n2 - uc) >= u:
                count += 1
        return min(1.0, count / total)
    n = n1 + n2
    tie = sum(t ** 3 - t for t in [allv.count(v) for v in set(allv)])
    s = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1))))
    z = (u - n1 * n2 / 2 - 0.5) / s
    return min(1.0, math.erfc(z / math.sqrt(2)))


a, b = load(sys.argv[1]), load(sys.argv[2])
names = []
for x in a:
    if x["name"] not in names and any(y["name"] == x["name"] for y in b):
        names.append(x["name"])
w = max([len(n) for n in names] + [len("Benchmark")]) + len("_pvalue")
first = "{:<{}s}Time             CPU      Time Old      Time New       CPU Old       CPU New".format(
    "Benchmark", 12 + w)
print("Comparing %s to %s" % (sys.argv[1].split("/")[-1], sys.argv[2].split("/")[-1]))
print(first)
print("-" * len(first))
for name in names:
    unit = next(x["time_unit"] for x in a if x["name"] == name)
    lhs = [x for x in a if x["name"] == name and x["time_unit"] == unit]
    rhs = [x for x in b if x["name"] == name and x["time_unit"] == unit]
    for l, r in zip(lhs, rhs):
        print("{:<{}s}{:+16.4f}{:+16.4f}{:14.0f}{:14.0f}{:14.0f}{:14.0f}".format(
            name, w, change(l["real_time"], r["real_time"]), change(l["cpu_time"], r["cpu_time"]),
            l["real_time"], r["real_time"], l["cpu_time"], r["cpu_time"]))
    n = min(len(lhs), len(rhs))
    if n < 2:
        continue
    pt = mwu([x["real_time"] for x in lhs], [x["real_time"] for x in rhs])
    pc = mwu([x["cpu_time"] for x in lhs], [x["cpu_time"] for x in rhs])
    if not (pt and pc):
        continue
    dsc = "U Test, Repetitions: {} vs {}".format(len(lhs), len(rhs))
    if n < 9:
        dsc += ". WARNING: Results unreliable! 9+ repetitions recommended."
    print("{:<{}s}{:16.4f}{:16.4f}      {}".format(name + "_pvalue", w, pt, pc, dsc))
