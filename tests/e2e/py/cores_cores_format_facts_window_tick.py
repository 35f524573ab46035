# cores_cores_format_facts_window_tick.py (tests/e2e/cores.sh): cores --format json facts: the window and tick options; untrustworthy_runs = system.tsv runs whose stat_tick_hz / 200 is below 0.75
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
n = sum(float(s["stat_tick_hz"]) / 200 < 0.75 for s in rows(sys.argv[2]))
t = trust_counts(rows(sys.argv[2]))
want = {"window_frac": 0.8, "trim": 1, "min_rows": 10, "tick_min": 0.75,
        "untrustworthy_runs": n, "degraded_runs": t["degraded"], "trusted_runs": t["trusted"],
        "tick_check": "%d trusted, %d degraded, %d untrustworthy" % (t["trusted"], t["degraded"], n)}
bad = ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in want.items() if f.get(k) != v]
if n != 26:
    bad.append("system.tsv gives %d untrustworthy runs, the seed 26" % n)
if "idle banner" not in f.get("clock_source", ""):
    bad.append("clock_source %r" % f.get("clock_source"))
print("\n".join(bad) if bad else "ok")
