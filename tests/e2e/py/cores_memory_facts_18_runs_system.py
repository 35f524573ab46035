# cores_memory_facts_18_runs_system.py (tests/e2e/cores.sh): memory json facts: 18 runs (system.tsv, medium, blocks 1-3), 2 groups, no slope fact
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
n = sum(1 for s in rows(sys.argv[2]) if s["target"] == "medium" and s["block"] in ("1", "2", "3"))
want = {"runs": n, "metric": "load_rss_kb", "by": "sessions", "group": "cfg", "groups": 2, "runs_left_out": 0}
bad = ["%s: %r, python %r" % (k, f.get(k), w) for k, w in want.items() if f.get(k) != w]
if "slope" in f:
    bad.append("a slope fact with two groups: %r" % f["slope"])
if len(d["sections"]["residuals"]["rows"]) != n:
    bad.append("%d residual rows" % len(d["sections"]["residuals"]["rows"]))
print("\n".join(bad) if bad else "ok")
