# sizing_catalog_catalog_every_instance_row_equals.py (tests/e2e/sizing_catalog.sh): catalog: every instance row equals its catalog file's line, with the derived cores
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
import sqlite3
db = sqlite3.connect(sys.argv[2])
bad = []
n = 0
for name, path in (("aws", sys.argv[3]), ("gce", sys.argv[4])):
    got = db.execute("SELECT i.* FROM instances i JOIN catalogs c USING (catalog_id) WHERE c.name = ? ORDER BY line", (name,))
    cols = [c[0] for c in got.description]
    got = [dict(zip(cols, r)) for r in got]
    want = rows(path)
    if len(got) != len(want):
        bad.append("%s: %d rows, file %d" % (name, len(got), len(want)))
    for line, (g, w) in enumerate(zip(got, want), start=2):
        n += 1
        for k in ("instance", "provider", "series", "cpu_family", "price_region", "price_source", "price_date"):
            if g[k] != w[k]:
                bad.append("%s %s %s %r %r" % (name, w["instance"], k, g[k], w[k]))
        for k in ("vcpus", "threads_per_core"):
            if g[k] != int(w[k]) or type(g[k]) is not int:
                bad.append("%s %s %s %r" % (name, w["instance"], k, g[k]))
        for k in ("sustained_vcpu_fraction", "memory_gib", "price_per_hour"):
            if g[k] != float(w[k]):
                bad.append("%s %s %s %r" % (name, w["instance"], k, g[k]))
        v, t, f = int(w["vcpus"]), int(w["threads_per_core"]), float(w["sustained_vcpu_fraction"])
        if g["physical_cores"] != v / t or not close(g["sustained_cores"], v * f / t, 1e-15) or g["line"] != line:
            bad.append("%s %s derived %r %r line %r" % (name, w["instance"], g["physical_cores"], g["sustained_cores"], g["line"]))
print("\n".join(bad[:20]) if bad or n != 116 else "ok")
