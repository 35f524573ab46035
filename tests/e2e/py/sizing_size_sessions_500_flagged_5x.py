# sizing_size_sessions_500_flagged_5x.py (tests/e2e/sizing.sh): size: sessions 500 flagged 5x beyond the CPU inputs' largest count (python: max sessions of the base and sweep runs)
# No sessions factor: the CPU inputs' runs measured at most 100 sessions
# (results.tsv of the GOMAXPROCS corpus, blocks 1-3, all at 100; core runs at 25):
# 500 sessions is 5x beyond, on every predicted row; memory's slope spans 100-500.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
g = [float(r["sessions"]) for r in rows(sys.argv[2] + "/sky/gomaxprocs-scaling-20260816/results.tsv") if r["block"] in ("1", "2", "3")]
biggest = max(g + [25.0])
want = "sessions extrapolated: 500, %.2fx the largest measured (%g)" % (500 / biggest, biggest)
bad = ["%s: %r" % (r["instance"], r["flags"]) for r in rows(sys.argv[1])
       if not math.isnan(num(r["predicted"])) and (want not in r["flags"] or num(r["sessions_beyond"]) != 500 / biggest)]
bad += ["%s memory_beyond %r" % (r["instance"], r["memory_beyond"]) for r in rows(sys.argv[1]) if r["memory_beyond"] != "NA"]
print("\n".join(bad) if bad else "ok")
