# cores_cores_every_main_run_system.py (tests/e2e/cores.sh): cores: every main run matches system.tsv (rows, seconds, cores to 3 decimals, Hz to 1, mem_avail exactly)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
ours = {r["tag"]: r for r in rows(sys.argv[1])}
bad = []
sysrows = rows(sys.argv[2])
if len(sysrows) != 47:
    bad.append("system.tsv has %d rows" % len(sysrows))
for s in sysrows:
    o = ours.get(s["run"])
    if o is None:
        bad.append(s["run"] + ": missing"); continue
    checks = [("window_rows", "win_n", 0), ("window_s", "win_s", 0),
              ("app_cores_wall", "app_cores", 0.0005), ("pg_cores", "pg_cores", 0.0005),
              ("machine_busy_cores", "machine_busy_cores", 0.0005),
              ("stat_tick_hz", "stat_tick_hz", 0.05),
              ("mem_avail_min_kb", "mem_avail_min_kb", 0)]
    for mine, theirs, tol in checks:
        if not abs(float(o[mine]) - float(s[theirs])) <= tol:
            bad.append("%s %s: coreplan %s, system.tsv %s %s" % (s["run"], mine, o[mine], theirs, s[theirs]))
print("\n".join(bad) if bad else "ok")
