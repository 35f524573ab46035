# sizing_model.py (tests/e2e/sizing_fleet.sh): PYMODEL, shared by the checks that import it
# The model from the corpus files: the inputs (PYINPUTS), the e2-medium
# medians by store and session count (blocks 1-3), the store factor at
# 100 sessions (the count nearest the core runs' 25), the sessions factor
# with the lower neighbour between measured counts.
# argv[2]: the shared corpora folder; argv[3]: fixtures/catalogs/gce.tsv
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
CAPR = sys.argv[2] + "/sky/gcp-x86-capacity-20260816/results.tsv"
def cellvals(target, cfg, level, blocks=("1", "2", "3")):
    return [float(x["tput"]) for x in rows(CAPR) if x["target"] == target and x["cfg"] == cfg
            and x["level"] == str(level) and x["block"] in blocks]
def stat(v):
    return (statistics.median(v), min(v), max(v))
def store_factor():
    pg, mem = stat(cellvals("medium", "pg", 100)), stat(cellvals("medium", "mem", 100))
    return (pg[0] / mem[0], pg[1] / mem[2], pg[2] / mem[1])
CURVE = {s: stat(cellvals("medium", "pg", s)) for s in (100, 300, 500)}
def sessions_factor(s):
    counts = sorted(CURVE)
    if s <= counts[0]: at = counts[0]
    elif s >= counts[-1]: at = counts[-1]
    elif s in CURVE: at = s
    else:
        a = max(c for c in counts if c < s); b = min(c for c in counts if c > s)
        at = b if CURVE[b][0] < CURVE[a][0] else a
    r = CURVE[100]
    return (CURVE[at][0] / r[0], CURVE[at][1] / r[2], CURVE[at][2] / r[1]), at
def model(inst, s):
    base, pd, smt, _, _, _ = inputs(sys.argv[2])
    sf, (f, _) = store_factor(), sessions_factor(s)
    return [predict(inst, base, pd, smt, k) * sf[k] * f[k] for k in range(3)]
GCE = {r["instance"]: r for r in rows(sys.argv[3])}
