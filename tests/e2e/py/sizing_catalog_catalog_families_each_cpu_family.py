# sizing_catalog_catalog_families_each_cpu_family.py (tests/e2e/sizing_catalog.sh): catalog --families: each CPU family and series with its count, vCPU range, instances and CPU platforms (python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = rows(sys.argv[1])
groups = {}
for path in sys.argv[2:]:
    for r in rows(path):
        groups.setdefault((r["cpu_family"], r["series"]), []).append(r)
bad = []
keys = sorted(groups, key=lambda k: (k[0].encode(), k[1].encode()))
if [(o["cpu_family"], o["series"]) for o in out] != keys:
    bad.append("groups %r" % [(o["cpu_family"], o["series"]) for o in out])
for o, k in zip(out, keys):
    g = groups[k]
    v = [int(r["vcpus"]) for r in g]
    plat = []
    for r in g:
        plat += [p for p in r["cpu_platforms"].split(",") if p and p not in plat]
    want = (g[0]["provider"], str(len(g)), str(min(v)), str(max(v)), ", ".join(r["instance"] for r in g),
            ",".join(plat) or "NA")
    if (o["provider"], o["n"], o["vcpus_min"], o["vcpus_max"], o["instances"], o["cpu_platforms"]) != want:
        bad.append("%r: %r" % (k, o))
print("\n".join(bad) if bad else "ok")
