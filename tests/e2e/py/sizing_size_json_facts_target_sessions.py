# sizing_size_json_facts_target_sessions.py (tests/e2e/sizing.sh): size json facts: target, sessions, headroom, cheapest, its prediction, each input's value/lo/hi (python), catalogs
# The facts: the request, the cheapest and its capacity, every input with its
# bounds recomputed from the corpus files, the catalogs used (shipped: the
# database holds none).
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
base, pd, smt, mem, npts, nmem = inputs(sys.argv[2])
inst = {i["instance"]: i for c in sys.argv[3:5] for i in rows(c)}
bad = []
want = {"target": 1000, "sessions": 500, "headroom": 0, "metric": "tput", "cheapest": "e2-standard-8",
        "catalog_origin": "shipped", "instances": len(inst), "base_cpu": "gce-e2", "max_measured_cores": 4,
        "translations": 0}
for k, v in want.items():
    if f.get(k) != v:
        bad.append("%s: %r, expected %r" % (k, f.get(k), v))
cp = predict(inst["e2-standard-8"], base, pd, smt, 0)
if not close(f.get("cheapest_predicted") or 0, cp, 1e-6):
    bad.append("cheapest_predicted %r, python %r" % (f.get("cheapest_predicted"), cp))
for name, trio in (("base_rate", base), ("per_doubling", pd), ("smt_factor", smt)):
    for suffix, v in zip(("", "_lo", "_hi"), trio):
        if not close(f.get(name + suffix) or 0, v, 1e-6):
            bad.append("%s%s %r, python %r" % (name, suffix, f.get(name + suffix), v))
cat = f.get("catalogs") or ""
for c in sys.argv[3:5]:
    if c not in cat:
        bad.append("catalogs %r does not name %s" % (cat, c))
if not cat.startswith("shipped: aws ("):
    bad.append("catalogs %r" % cat)
for k in ("plot", "plot_data", "plot_script"):
    if f.get(k, 1) is not None:
        bad.append("%s %r without --plot" % (k, f.get(k)))
print("\n".join(bad) if bad else "ok")
