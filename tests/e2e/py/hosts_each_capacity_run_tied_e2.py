# hosts_each_capacity_run_tied_e2.py (tests/e2e/hosts.sh): each capacity run is tied to e2-{target} (core: e2-standard-4, the profile's instance); m1 to none
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
runs = rows(sys.argv[2])
got = {}
for h in ("e2-small", "e2-medium", "e2-standard-4"):
    for r in rows(sys.argv[2].replace("cap-runs", "cap-" + h)):
        got[r["tag"]] = h
bad = []
for r in runs:
    want = None
    if r["subcorpus"] == "core":
        want = "e2-standard-4"
    elif r["subcorpus"] == "" and r["target"] != "NA":
        want = "e2-" + r["target"]
    if got.get(r["tag"]) != want:
        bad.append("%s: %s, want %s" % (r["tag"], got.get(r["tag"]), want))
n = sum(1 for r in runs if r["subcorpus"] == "m1")
if n != 3 or any(got.get(r["tag"]) for r in runs if r["subcorpus"] == "m1"):
    bad.append("m1 runs: %d, some tied" % n)
print("; ".join(bad[:5]) or "ok")
