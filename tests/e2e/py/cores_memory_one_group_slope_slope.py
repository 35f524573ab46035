# cores_memory_one_group_slope_slope.py (tests/e2e/cores.sh): memory one group json: slope, slope_se, intercept, intercept_se facts match python OLS
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
p = [(float(s["level"]), float(s["load_app_kb"])) for s in rows(sys.argv[2])
     if s["target"] == "medium" and s["cfg"] == "pg" and s["block"] in ("1", "2", "3")]
b, se, a = ols(p)
n = len(p); mx = sum(x for x, _ in p) / n
sxx = sum((x - mx) ** 2 for x, _ in p)
sse = sum((y - a - b * x) ** 2 for x, y in p)
se_a = math.sqrt(sse / (n - 2) * (1 / n + mx * mx / sxx))
bad = ["%s: coreplan %r, python %r" % (k, f.get(k), v)
       for k, v in (("slope", b), ("slope_se", se), ("intercept", a), ("intercept_se", se_a),
                    ("runs", n), ("groups", 1))
       if not isinstance(f.get(k), (int, float)) or not close(f[k], v, 1e-9)]
row = d["sections"]["slopes"]["rows"][0]
bad += ["table %s %r != fact %r" % (k, row[k], f[k]) for k in ("slope", "intercept", "r2") if row[k] != f[k]]
print("\n".join(bad) if bad else "ok")
