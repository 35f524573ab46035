# hosts_sweep_levels_1_2_4.py (tests/e2e/hosts.sh): sweep: levels 1, 2, 4 are physical, 8 smt (4 physical cores in lscpu.txt)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_sweep import *  # noqa: F401,F403 (the shared helpers)
cores = len({(l.split(",")[2], l.split(",")[1]) for l in open(sys.argv[3]) if l[0].isdigit()})
want = {g: ("physical" if g <= cores else "smt") for g in (1, 2, 4, 8)}
got = {int(k): v["core_kind"] for k, v in lv.items()}
print("ok" if cores == 4 and got == want else "cores %d: %s, want %s" % (cores, got, want))
