# physical_apply_x86_medians_core_results.py (tests/e2e/physical.sh): apply: the x86 medians of core/results.tsv lie inside the translations of the M1 figures
# the corpus's x86 figures (core/results.tsv medians: ips 299.3, cpu_ms_per_int 3.3470,
# rss_idle_kb 28272, rss_load_med_kb 53956, p50_ms 103.254) inside each translated interval
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from physical_lib import *  # noqa: F401,F403 (the shared helpers)
out = {r["name"]: r for r in rows(sys.argv[1])}
x86 = rows(sys.argv[2] + "/core/results.tsv")
m = statistics.median
want = {"throughput": m(float(r["ips"]) for r in x86),
        "cpu per interaction": m(float(r["cpu_ms_per_int"]) for r in x86) * 1000,
        "idle rss": m(float(r["rss_idle_kb"]) for r in x86),
        "loaded rss": m(float(r["rss_load_med_kb"]) for r in x86),
        "p50 latency": m(float(r["p50_ms"]) for r in x86)}
bad = []
for name, x in want.items():
    r = out[name]
    if not float(r["translated_lo"]) <= x <= float(r["translated_hi"]):
        bad.append("%s: %r outside [%s, %s]" % (name, x, r["translated_lo"], r["translated_hi"]))
    if r["check"] != "inside" or not close(float(r["measured"]), x, 1e-3) or r["measured_n"] != "3":
        bad.append("%s: check %r, measured %s (python %r)" % (name, r["check"], r["measured"], x))
for name in ("net", "disk", "peak"):
    if not out[name]["check"].startswith("not checked: the check runs measure"):
        bad.append("%s: %r" % (name, out[name]["check"]))
print("\n".join(bad) if bad else "ok")
