# cores_cores_rss_median_kb_mean.py (tests/e2e/cores.sh): cores: rss_median_kb is the mean-of-middle median, load_app_kb the upper median, of the window rows
# rss_median_kb is coreplan's median (mean of the two middle values for an
# even count); system.tsv load_app_kb is the upper median (FORMATS.md)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
ours = {r["tag"]: r for r in rows(sys.argv[1])}
bad = []; even = 0
for s in rows(sys.argv[2]):
    t = raw(sys.argv[3] + "/samples/" + s["run"] + ".tsv")
    lo, hi = system_window([float(r[6]) for r in t])
    rss = sorted(float(r[1]) for r in t[lo:hi + 1])
    upper = rss[len(rss) // 2]
    if upper != float(s["load_app_kb"]):
        bad.append("%s: upper median %s, system.tsv %s" % (s["run"], upper, s["load_app_kb"]))
    if float(ours[s["run"]]["rss_median_kb"]) != statistics.median(rss):
        bad.append("%s: rss_median_kb %s, statistics.median %s" % (s["run"], ours[s["run"]]["rss_median_kb"], statistics.median(rss)))
    even += len(rss) % 2 == 0
if even == 0:
    bad.append("no even-count window: the convention check did not run")
print("\n".join(bad) if bad else "ok")
