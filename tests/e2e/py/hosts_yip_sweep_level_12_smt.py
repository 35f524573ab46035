# hosts_yip_sweep_level_12_smt.py (tests/e2e/hosts.sh): yip sweep: level 12 smt (6 cores), 1, 4, 6 physical; step 10.55 / 8.99; physical fit over 1, 4, 6
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
r = {int(x["N"]): float(x["Gbps"]) for x in rows(sys.argv[2])}
lv = level_rows(d)
kinds = {int(k): v["core_kind"] for k, v in lv.items()}
f, se = doubling([1, 4, 6], [r[1], r[4], r[6]])
ok = kinds == {1: "physical", 4: "physical", 6: "physical", 12: "smt"}
ok = ok and close(fact(d, "smt_step_at_12"), r[12] / r[6], 1e-12)
ok = ok and close(fact(d, "physical_per_doubling"), f, 1e-9) and close(fact(d, "physical_per_doubling_se"), se, 1e-6)
ok = ok and close(fact(d, "physical_efficiency"), r[6] / r[1] / 6, 1e-12) and fact(d, "scaling") == "continues"
print("ok" if ok else "%s, step %r, pd %r want %r" % (kinds, fact(d, "smt_step_at_12"), fact(d, "physical_per_doubling"), f))
