# sizing_fleet_example_e2_standard_8_s.py (tests/e2e/sizing_fleet.sh): example: e2-standard-8's cells: g1, g2, g4 left out for their workers, every one for its platform (amd-epyc-7b12 against the base's intel-xeon-2.2ghz) and store
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
bad = []
e8 = [r for r in d["sections"]["measured"]["rows"] if r["instance"] == "e2-standard-8" and r["n"]]
if not e8:
    bad.append("no e2-standard-8 cells")
for r in e8:
    why = r["left_out_because"] or ""
    g = [p.split("=")[1] for p in r["group"].split(", ") if p.startswith("gomaxprocs=")][0]
    if (int(g) < 8) != ("gomaxprocs %s: %s of its 8 vCPUs" % (g, g) in why):
        bad.append("%s: %r" % (r["group"], why))
    if "platform amd-epyc-7b12, the target\x27s intel-xeon-2.2ghz (assumed: the base runs\x27)" not in why \
       or "store memory, the target\x27s postgres (given)" not in why or r["eligible"]:
        bad.append("%s: %r" % (r["group"], why))
print("\n".join(bad) if bad else "ok")
