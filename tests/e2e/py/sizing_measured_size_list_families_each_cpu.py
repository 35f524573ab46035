# sizing_measured_size_list_families_each_cpu.py (tests/e2e/sizing_measured.sh): size --list-families: each CPU family and series of the shipped catalogs (python groups)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = rows(sys.argv[1])
groups = {}
for path in sys.argv[2:]:
    for r in rows(path):
        groups.setdefault((r["cpu_family"], r["series"]), []).append(r["instance"])
keys = sorted(groups, key=lambda k: (k[0].encode(), k[1].encode()))
got = [(o["cpu_family"], o["series"]) for o in out]
bad = [] if got == keys else ["groups %r" % got]
bad += ["%r: %r" % (k, o["instances"]) for o, k in zip(out, keys) if o["instances"] != ", ".join(groups[k])]
print("\n".join(bad) if bad else "ok")
