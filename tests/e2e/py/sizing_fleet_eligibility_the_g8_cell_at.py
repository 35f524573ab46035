# sizing_fleet_eligibility_the_g8_cell_at.py (tests/e2e/sizing_fleet.sh): eligibility: the g8 cell at 100 sessions is the median of results.tsv's g8 default-GOGC runs at 100 (blocks 1-3, 7)
# the e2-standard-8 g8 cell at 100 (blocks 1-3 and the gctrace block 7, pooled as one cell by pooling's rule)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = [r for r in rows(sys.argv[1]) if r["instance"] == "e2-standard-8" and r["group"] == "gogc=default, gomaxprocs=8" and r["sessions"] == "100"]
v = [float(x["tput"]) for x in rows(sys.argv[2] + "/sky/gomaxprocs-scaling-20260816/results.tsv")
     if x["gomaxprocs"] == "8" and x["sessions"] == "100" and x["gogc"] == "default"]
print("ok" if len(out) == 1 and close(float(out[0]["median"]), statistics.median(v), 1e-12) and out[0]["n"] == str(len(v))
      else "%r, python %r" % (out, v))
