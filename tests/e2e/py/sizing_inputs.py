# sizing_inputs.py (tests/e2e/sizing.sh): PYINPUTS, shared by the checks that import or run it
# Inputs recomputed from the corpus files: base, per doubling (+- t SE, t the
# 0.975 quantile of Student's t with the fit's dof: t_975 below, by Simpson's rule),
# SMT (median ratio, range min/max and max/min), memory OLS.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers; the script prefixed them)
def t_975(dof):
    """Student's t 0.975 quantile: bisection on the CDF, the density integrated by Simpson's rule."""
    c = math.exp(math.lgamma((dof + 1) / 2) - math.lgamma(dof / 2)) / math.sqrt(dof * math.pi)
    def cdf(t, m=4000):
        h = t / m
        f = lambda x: c * (1 + x * x / dof) ** (-(dof + 1) / 2)
        return 0.5 + h / 3 * (f(0) + f(t) + sum((4 if k % 2 else 2) * f(k * h) for k in range(1, m)))
    lo, hi = 0.0, 50.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < 0.975 else (lo, mid)
    return (lo + hi) / 2


def inputs(shared):
    cap = shared + "/sky/gcp-x86-capacity-20260816"
    core = [float(r["ips"]) for r in rows(cap + "/core/results.tsv")]
    base = (statistics.median(core), min(core), max(core))
    pts = [(float(r["gomaxprocs"]), float(r["tput"])) for r in rows(shared + "/sky/gomaxprocs-scaling-20260816/results.tsv")
           if r["block"] in ("1", "2", "3") and r["gomaxprocs"] in ("1", "2", "4")]
    a, b, se_b = power_law(pts, 100)  # X = a N^b by Gauss-Newton from the log-log OLS
    d = 2 ** b; dse = d * math.log(2) * se_b
    t = t_975(len(pts) - 2)
    pd = (d, d - t * dse, d + t * dse)
    aff = rows(shared + "/writeups/gomaxprocs-affinity/runs.tsv")
    sib = [float(r["tput"]) for r in aff if r["cpuset"] == "0,4,1,5"]
    two = [float(r["tput"]) for r in aff if r["cpuset"] == "" and r["procs"] == "1" and r["threads_per_proc"] == "2"]
    smt = (statistics.median(sib) / statistics.median(two), min(sib) / max(two), max(sib) / min(two))
    sysr = [r for r in rows(cap + "/system.tsv") if r["target"] == "medium" and r["cfg"] == "pg" and r["block"] in ("1", "2", "3")]
    xs = [float(r["level"]) for r in sysr]; ys = [float(r["load_app_kb"]) for r in sysr]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    slope = sum((u - mx) * (v - my) for u, v in zip(xs, ys)) / sum((u - mx) ** 2 for u in xs)
    app_gib = (my - slope * mx + slope * 500) / 1048576
    # co-located PostgreSQL: per run, the median pg_tree_rss_kb (samples
    # column 3) over the plateau of the system.tsv rule of FORMATS.md (conn >=
    # 0.8 max, one row off each end when more than 5), statistics.median
    # (the harness takes the upper median: load_pg_rss_kb of system.tsv
    # differs on even windows); then the median over the runs
    pg = [plateau_median(cap + "/samples/" + r["run"] + ".tsv", 2) for r in sysr]
    mem_gib = app_gib + statistics.median(pg) / 1048576 + 512 / 1024
    return base, pd, smt, mem_gib, len(pts), len(sysr)
def plateau_median(path, col):
    t = [[float(x) for x in l.split("\t")] for l in open(path).read().split("\n") if l]
    mx = max(r[6] for r in t)
    idx = [i for i, r in enumerate(t) if r[6] >= 0.8 * mx]
    lo, hi = idx[0], idx[-1]
    if hi - lo > 4:
        lo, hi = lo + 1, hi - 1
    return statistics.median(r[col] for r in t[lo:hi + 1])
def scale(p, d):
    return d ** math.log2(p) if p >= 1 else p
def predict(inst, base, pd, smt, k):
    p = float(inst["vcpus"]) * float(inst["sustained_vcpu_fraction"]) / float(inst["threads_per_core"])
    s = smt[k] if inst["threads_per_core"] == "2" else 1.0
    return base[k] * scale(p, pd[k] if p >= 1 else 1.0) * s
