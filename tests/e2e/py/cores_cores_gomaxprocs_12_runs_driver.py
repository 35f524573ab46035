# cores_cores_gomaxprocs_12_runs_driver.py (tests/e2e/cores.sh): cores gomaxprocs: 12 runs; driver_app_cores is results.tsv app_cores, below app_cores_wall; the note says the driver is lower and why (the ramp)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
res = {r["tag"]: r for r in rows(sys.argv[2]) if r["block"] in ("1", "2", "3")}
bad = []
out = rows(sys.argv[1])
if sorted(r["tag"] for r in out) != sorted(res):
    bad.append("tags: %r" % sorted(r["tag"] for r in out))
for r in out:
    d, w = float(r["driver_app_cores"]), float(r["app_cores_wall"])
    if d != float(res[r["tag"]]["app_cores"]):
        bad.append("%s: driver_app_cores %s, results.tsv %s" % (r["tag"], d, res[r["tag"]]["app_cores"]))
    if not d < w or not float(r["driver_minus_wall"]) < 0:
        bad.append("%s: driver %s not below wall %s" % (r["tag"], d, w))
    if "driver lower" not in r["note"] or "ramp" not in r["note"]:
        bad.append("%s: note %r" % (r["tag"], r["note"]))
    if not r["driver_window"].startswith("rows "):
        bad.append("%s: driver_window %r" % (r["tag"], r["driver_window"]))
print("\n".join(bad) if bad else "ok")
