# physical_translate_format_facts_each_kind.py (tests/e2e/physical.sh): translate --format json facts: each kind's factor and interval (the table's), mixed bounds, arms
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from physical_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
by = {r["kind"]: r for r in d["sections"]["factors"]["rows"]}
m1 = rows(sys.argv[2] + "/m1/m1.tsv"); x86 = rows(sys.argv[2] + "/core/results.tsv")
a = [float(r["tput"]) for r in m1]; b = [float(r["ips"]) for r in x86]
m = statistics.median; mean = statistics.mean
bad = []
for kind, r in by.items():
    for k in ("factor", "ci_lo", "ci_hi", "mean_factor"):
        if f.get("%s_%s" % (kind, k)) != r[k]:
            bad.append("%s_%s: %r, table %r" % (kind, k, f.get("%s_%s" % (kind, k)), r[k]))
    if f.get(kind + "_measured") != (r["status"] == "measured"):
        bad.append(kind + "_measured")
want = {"rate_factor": m(a) / m(b), "mixed_lo": min(mean(a) / m(b), m(a) / mean(b)),
        "mixed_hi": max(mean(a) / m(b), m(a) / mean(b))}
bad += ["%s: %r, python %r" % (k, f.get(k), v) for k, v in want.items()
        if not isinstance(f.get(k), float) or not close(f[k], v, 1e-9)]
exact = {"from": "apple-m1", "to": "gce-e2", "from_where": "subcorpus=m1", "to_where": "subcorpus=core",
         "from_runs": 3, "to_runs": 3, "metric": "tput", "seed": 1, "resamples": 10000,
         "session_slope_factor": None, "check_runs": 0, "checks_inside": 0}
bad += ["%s: %r, expected %r" % (k, f.get(k), v) for k, v in exact.items() if f.get(k) != v]
if len(by) != 6 or d["sections"]["applied"]["rows"] != []:
    bad.append("%d kinds, applied %r" % (len(by), d["sections"]["applied"]["rows"]))
print("\n".join(bad) if bad else "ok")
