# physical_apply_each_figure_own_kind.py (tests/e2e/physical.sh): apply: each figure with its own kind's factor and interval (rates divided, the rest multiplied)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import sys
def rows(path):
    lines = open(path).read().split("\n"); head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
out = rows(sys.argv[1]); fac = {r["kind"]: r for r in rows(sys.argv[2])}
kinds = {"throughput": "rate", "cpu per interaction": "cpu_time", "idle rss": "idle_memory",
         "loaded rss": "loaded_memory", "per-session slope": "session_slope", "p50 latency": "latency",
         "peak": "rate", "net": "rate", "disk": "rate"}
bad = []
for r in out:
    k = kinds[r["name"]]
    if r["kind"] != k:
        bad.append("%s: kind %s, expected %s" % (r["name"], r["kind"], k)); continue
    if k == "session_slope":
        if r["status"] != "not translated" or r["translated"] != "NA" or "one session count" not in r["how"]:
            bad.append("slope: %r" % r)
        continue
    v = float(r["value"]); f = fac[k]
    F, lo, hi = float(f["factor"]), float(f["ci_lo"]), float(f["ci_hi"])
    want = (v / F, v / hi, v / lo) if k == "rate" else (v * F, v * lo, v * hi)
    got = (float(r["translated"]), float(r["translated_lo"]), float(r["translated_hi"]))
    for g, w, c in zip(got, want, ("translated", "translated_lo", "translated_hi")):
        if abs(g - w) > 1e-9 * abs(w):
            bad.append("%s %s: coreplan %r, expected %r" % (r["name"], c, g, w))
    if float(r["factor"]) != F:
        bad.append("%s: factor %s, its kind %s" % (r["name"], r["factor"], F))
    if r["status"] != "translated" or "with the %s factor" % k not in r["how"]:
        bad.append("%s: not labelled: %r %r" % (r["name"], r["status"], r["how"]))
print("\n".join(bad) if bad else "ok")
