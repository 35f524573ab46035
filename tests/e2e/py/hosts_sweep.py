# hosts_sweep.py (tests/e2e/hosts.sh): SWEEP_PY, shared by the checks that import or run it
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
res = [r for r in rows(sys.argv[2]) if r["block"] in ("1", "2", "3")]
med = {g: statistics.median(float(r["tput"]) for r in res if int(r["gomaxprocs"]) == g)
       for g in (1, 2, 4, 8)}
lv = level_rows(d)
