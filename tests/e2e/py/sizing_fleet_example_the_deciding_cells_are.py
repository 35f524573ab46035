# sizing_fleet_example_the_deciding_cells_are.py (tests/e2e/sizing_fleet.sh): example: the deciding cells are e2-small and e2-medium pg at 300 and 500 sessions, medians and n as results.tsv (blocks 1-3)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_model import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
dec = {(r["instance"], r["sessions"]): r for r in d["sections"]["measured"]["rows"] if r["decides"]}
bad = []
want = {("e2-" + t, s): stat(cellvals(t, "pg", s)) for t in ("small", "medium") for s in (300, 500)}
if sorted(dec) != sorted(want):
    bad.append("deciding %r" % sorted(dec))
for k, (m, lo, hi) in want.items():
    r = dec.get(k)
    if r and (r["group"] != "cfg=pg" or r["store"] != "postgres" or not close(r["median"], m, 1e-12)
              or r["n"] != len(cellvals(k[0][3:], "pg", k[1]))):
        bad.append("%r: %r" % (k, r))
print("\n".join(bad) if bad else "ok")
