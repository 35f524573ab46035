# sizing_fit_3_points_usl_not.py (tests/e2e/sizing.sh): fit on 3 points: usl not fitted, its reason a note and a fact; amdahl and power fitted
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
rows = {r["model"]: r for r in d["sections"]["summary"]["rows"]}
bad = []
if not rows["usl"]["note"].startswith("not fitted: the usl model has 3 parameters"):
    bad.append("usl note %r" % rows["usl"]["note"])
if not f.get("usl_error", "").endswith("got 3 levels and 3 points") or "usl_r2" in f:
    bad.append("usl facts %r" % {k: v for k, v in f.items() if k.startswith("usl")})
if rows["usl"]["n"] is not None or rows["amdahl"]["dof"] != 1 or rows["power"]["dof"] != 1:
    bad.append("summary %r" % rows)
if f.get("models") != "usl,amdahl,power" or f.get("amdahl_dof") != 1 or f.get("power_dof") != 1:
    bad.append("facts %r" % f)
if [r["model"] for r in d["sections"]["params"]["rows"]] != ["amdahl", "amdahl", "power", "power"]:
    bad.append("params %r" % d["sections"]["params"]["rows"])
print("\n".join(bad) if bad else "ok")
