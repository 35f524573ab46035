# sizing_measured_size_memory_each_part_of.py (tests/e2e/sizing_measured.sh): size memory: each part of e2-small's row (app OLS at 500, PostgreSQL, 512 MiB) and their sum (python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
r = [x for x in rows(sys.argv[1]) if x["instance"] == "e2-small"][0]
cap = sys.argv[2] + "/sky/gcp-x86-capacity-20260816"
sysr = [x for x in rows(cap + "/system.tsv") if x["target"] == "medium" and x["cfg"] == "pg" and x["block"] in ("1", "2", "3")]
xs = [float(x["level"]) for x in sysr]; ys = [float(x["load_app_kb"]) for x in sysr]
mx, my = statistics.mean(xs), statistics.mean(ys)
slope = sum((u - mx) * (v - my) for u, v in zip(xs, ys)) / sum((u - mx) ** 2 for u in xs)
app = (my - slope * mx + slope * 500) / 1048576
pg = statistics.median(plateau_median(cap + "/samples/" + x["run"] + ".tsv", 2) for x in sysr) / 1048576
want = {"memory_app_gib": app, "memory_colocated_gib": pg, "memory_os_gib": 0.5, "memory_needed_gib": app + pg + 0.5}
bad = ["%s %s, python %r" % (k, r[k], v) for k, v in want.items() if not close(num(r[k]), v, 1e-9)]
print("\n".join(bad) if bad else "ok")
