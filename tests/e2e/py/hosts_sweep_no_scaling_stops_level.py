# hosts_sweep_no_scaling_stops_level.py (tests/e2e/hosts.sh): sweep: no 'scaling stops' (level 8 is SMT, not an application limit); scaling continues
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_sweep import *  # noqa: F401,F403 (the shared helpers)
notes = [r["note"] for r in d["sections"]["levels"]["rows"]]
ok = "scaling stops" not in notes and fact(d, "scaling") == "continues" and "stop_level" not in d["facts"]
ok = ok and lv[8]["note"] == "SMT siblings"
print("ok" if ok else "notes %s, scaling %s" % (notes, fact(d, "scaling")))
