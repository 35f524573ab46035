# hosts_fit_levels_1_2_4.py (tests/e2e/hosts.sh): fit: levels 1, 2 and 4 fitted, 8 left out; points counted from results.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
res = [r for r in rows(sys.argv[2]) if r["block"] in ("1", "2", "3")]
n4 = sum(1 for r in res if int(r["gomaxprocs"]) <= 4)
ok = fact(d, "levels_fitted") == "1, 2, 4" and fact(d, "levels_left_out") == "8"
ok = ok and fact(d, "points_fitted") == n4 == 9 and fact(d, "points_left_out") == len(res) - n4
for m in ("usl", "amdahl", "power"):
    ok = ok and fact(d, m + "_n") == n4 and fact(d, m + "_levels") == 3
pts = d["sections"]["points"]["rows"]
ok = ok and all((p["level"] <= 4) == p["fitted"] and p["core_kind"] == ("smt" if p["level"] == 8 else "physical") for p in pts)
print("ok" if ok else "levels %s / %s, points %s" % (fact(d, "levels_fitted"), fact(d, "levels_left_out"), fact(d, "points_fitted")))
