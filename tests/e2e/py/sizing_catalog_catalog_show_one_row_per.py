# sizing_catalog_catalog_show_one_row_per.py (tests/e2e/sizing_catalog.sh): catalog --show: one row per file line (aws then gce), fields as in the files
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = rows(sys.argv[1])
want = [("aws", r) for r in rows(sys.argv[2])] + [("gce", r) for r in rows(sys.argv[3])]
bad = []
if len(out) != len(want):
    bad.append("%d rows, files %d" % (len(out), len(want)))
for o, (c, w) in zip(out, want):
    if o["catalog"] != c or any(o[k] != w[k] for k in ("instance", "provider", "series", "vcpus", "cpu_family", "price_date")) \
       or o["cpu_platforms"] != (w["cpu_platforms"] or "NA") \
       or float(o["price_per_hour"]) != float(w["price_per_hour"]) or float(o["physical_cores"]) != int(w["vcpus"]) / int(w["threads_per_core"]):
        bad.append("%r vs %r" % (o, w))
print("\n".join(bad[:10]) if bad else "ok")
