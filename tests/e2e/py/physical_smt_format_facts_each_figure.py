# physical_smt_format_facts_each_figure.py (tests/e2e/physical.sh): smt --format json facts: each figure, _lo and _hi match python3 medians of runs.tsv; host, logical_cpus, physical_cores, runs, placement
# every figure a fact with its bounds (name with _ for spaces), against python3
# medians of runs.tsv; host, counts, runs and the placement assumption
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from physical_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
R = rows(sys.argv[2])
want = {}
for name, (a, b) in smt_arms(sys.argv[2]).items():
    name = name.replace(" ", "_")
    want[name], want[name + "_lo"], want[name + "_hi"] = ratio_bounds(a, b)
for k in ("", "_lo", "_hi"):
    want["ceiling" + k] = 4 * want["smt_factor" + k]
bad = ["%s: %r, python %r" % (k, f.get(k), v) for k, v in want.items()
       if not isinstance(f.get(k), float) or not close(f[k], v, 1e-9)]
exact = {"host": "gomaxprocs-affinity", "logical_cpus": 8, "physical_cores": 4, "threads_per_core": 2,
         "runs": len(R), "metric": "tput"}
bad += ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in exact.items() if f.get(k) != v]
if "min(T, physical cores)" not in f.get("placement", ""):
    bad.append("placement %r" % f.get("placement"))
print("\n".join(bad) if bad else "ok")
