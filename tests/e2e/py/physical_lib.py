# physical_lib.py (tests/e2e/physical.sh): PYLIB, shared by the checks that import or run it
# TSV reader (plain split: the corpora have no quoting) and a closeness test.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, statistics, sys
from tables import rows, close  # noqa: F401 (re-exported to the checkers)
def smt_arms(path):
    """The affinity write-up's comparisons (runs.tsv): figure -> (arm a, arm b),
    the tput of each arm's runs: siblings against distinct cores, SMT against
    unpinned 2 threads, 8 threads against 4, each sharding against 1 thread."""
    R = rows(path)
    def arm(p): return [float(r["tput"]) for r in R if p(r)]
    def unpinned(t): return arm(lambda r: r["cpuset"] == "" and r["procs"] == "1" and r["threads_per_proc"] == str(t))
    def shard(p, t): return arm(lambda r: r["procs"] == str(p) and r["threads_per_proc"] == str(t))
    sib = arm(lambda r: r["cpuset"] == "0,4,1,5")
    return {"shared_vs_distinct": (sib, arm(lambda r: r["cpuset"] == "0,1,2,3")),
            "smt_factor": (sib, unpinned(2)), "smt_step": (unpinned(8), unpinned(4)),
            "sharded 8x1": (shard(8, 1), unpinned(1)), "sharded 4x2": (shard(4, 2), unpinned(1)),
            "sharded 2x4": (shard(2, 4), unpinned(1))}
def ratio_bounds(a, b):
    """median(a) / median(b) and the range bounds min(a) / max(b), max(a) / min(b)"""
    m = statistics.median
    return m(a) / m(b), min(a) / max(b), max(a) / min(b)
