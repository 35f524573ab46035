# cores_cores_m1_runs_no_trace.py (tests/e2e/cores.sh): cores: m1 runs (no trace) and core runs (no conn column) have a note and no numbers
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
bad = []
numeric = ["window_rows", "window_s", "app_cores_wall", "app_cores_stat", "machine_busy_cores",
           "pg_cores", "stat_tick_hz", "owed_tick_hz", "tick_ratio", "tick_ok",
           "driver_minus_wall", "rss_median_kb", "rss_mean_kb", "rss_peak_kb", "mem_avail_min_kb"]
seen = {"m1": 0, "core": 0}
for r in rows(sys.argv[1]):
    kind = "m1" if r["tag"].startswith("m1-") else "core" if r["tag"].startswith("core-") else None
    if not kind:
        continue
    seen[kind] += 1
    want = "no trace" if kind == "m1" else "conn"
    if want not in r["note"]:
        bad.append("%s: note %r lacks %r" % (r["tag"], r["note"], want))
    for c in numeric:
        if r[c] != "NA":
            bad.append("%s: %s = %s" % (r["tag"], c, r[c]))
if seen != {"m1": 3, "core": 3}:
    bad.append("runs seen: %r" % seen)
print("\n".join(bad) if bad else "ok")
