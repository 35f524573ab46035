# physical_translate_every_kind_s_factor.py (tests/e2e/physical.sh): translate: every kind's factor, mean factor, range (and cpu_time's ends) match python3 (1e-9)
# every kind's factor from the files: m1.tsv and core/results.tsv (python3 medians and means);
# cpu_time: m1's cpu_s spans 3 + 3 + 45 = 51 s (FORMATS.md), its window's CPU lies between
# cpu_s x 45/51 and cpu_s, the run's value their midpoint; core's cpu_s_win is the window's
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from physical_lib import *  # noqa: F401,F403 (the shared helpers)
out = {r["kind"]: r for r in rows(sys.argv[1])}
m1 = rows(sys.argv[2] + "/m1/m1.tsv"); x86 = rows(sys.argv[2] + "/core/results.tsv")
col = lambda rs, k: [float(r[k]) for r in rs]
m = statistics.median; mean = statistics.mean
def ratio(a, b):  # b / a
    return (m(b) / m(a), mean(b) / mean(a), min(b) / max(a), max(b) / min(a))
a, b = col(m1, "tput"), col(x86, "ips")
want = {"rate": (m(a) / m(b), mean(a) / mean(b), min(a) / max(b), max(a) / min(b)),
        "idle_memory": ratio(col(m1, "idle_rss"), col(x86, "rss_idle_kb")),
        "loaded_memory": ratio(col(m1, "load_rss"), col(x86, "rss_load_med_kb")),
        "latency": ratio(col(m1, "p50"), col(x86, "p50_ms"))}
hi = [float(r["cpu_s"]) * 1e6 / float(r["ints"]) for r in m1]
lo = [h * 45 / 51 for h in hi]
mid = [(x + y) / 2 for x, y in zip(lo, hi)]
to = [float(r["cpu_s_win"]) * 1e6 / float(r["ints"]) for r in x86]
want["cpu_time"] = (m(to) / m(mid), mean(to) / mean(mid), min(to) / max(hi), max(to) / min(lo))
bad = []
for kind, (f, fm, rlo, rhi) in want.items():
    o = out[kind]
    if o["status"] != "measured":
        bad.append("%s: %s" % (kind, o["status"])); continue
    for c, x in (("factor", f), ("mean_factor", fm), ("range_lo", rlo), ("range_hi", rhi)):
        if not close(float(o[c]), x, 1e-9):
            bad.append("%s %s: coreplan %s, python %r" % (kind, c, o[c], x))
    if not float(o["ci_lo"]) <= float(o["factor"]) <= float(o["ci_hi"]):
        bad.append("%s: factor outside its interval" % kind)
c = out["cpu_time"]
for k, x in (("end_lo", m(to) / m(hi)), ("end_hi", m(to) / m(lo))):
    if not close(float(c[k]), x, 1e-9):
        bad.append("cpu_time %s: coreplan %s, python %r" % (k, c[k], x))
if not float(c["ci_lo"]) <= float(c["end_lo"]) < float(c["end_hi"]) <= float(c["ci_hi"]):
    bad.append("cpu_time: the interval does not hold both ends: %r" % c)
if out["session_slope"]["status"] != "not measured" or out["session_slope"]["factor"] != "NA":
    bad.append("session_slope: %r" % out["session_slope"])
print("\n".join(bad) if bad else "ok")
