# sizing_catalog_size_without_a_database_facts.py (tests/e2e/sizing_catalog.sh): size without a database: facts (target, sessions, headroom, cheapest and its capacity, inputs, catalogs shipped)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
bad = []
want = {"target": 1000, "sessions": 500, "headroom": 0, "cheapest": "e2-standard-8", "catalog_origin": "shipped",
        "base_rate": 299, "base_rate_lo": 299, "base_rate_hi": 299, "per_doubling": 1.78, "per_doubling_lo": 1.78,
        "per_doubling_hi": 1.78, "smt_factor": 1.27, "smt_factor_lo": 1.27, "smt_factor_hi": 1.27,
        "mem_per_session_kb": 637, "mem_fixed_kb": 40000, "base_cpu": "gce-e2", "max_measured_cores": None,
        "per_doubling_se": None, "corpora": "none"}
for k, v in want.items():
    if f.get(k, "absent") != v:
        bad.append("%s: %r, expected %r" % (k, f.get(k, "absent"), v))
# e2-standard-8: 4 sustained cores: 299 x 1.78^2 x 1.27
if not close(f.get("cheapest_predicted") or 0, 299 * 1.78 ** 2 * 1.27, 1e-12):
    bad.append("cheapest_predicted %r" % f.get("cheapest_predicted"))
if not f.get("catalogs", "").startswith("shipped: aws (" + sys.argv[2] + "), gce (" + sys.argv[3] + ")"):
    bad.append("catalogs %r" % f.get("catalogs"))
print("\n".join(bad) if bad else "ok")
