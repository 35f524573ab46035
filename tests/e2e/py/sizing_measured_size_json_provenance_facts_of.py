# sizing_measured_size_json_provenance_facts_of.py (tests/e2e/sizing_measured.sh): size json: provenance facts of each input (runs, WHERE, statistic, source; scaling levels, left out, host)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
bad = []
want = {"per_doubling_runs": 9, "per_doubling_where": "corpus=gomaxprocs-scaling-20260816 block=1,2,3",
        "scaling_levels": "1, 2, 4", "scaling_left_out": "8 (smt: 3 runs)", "scaling_runs_left_out": 3,
        "scaling_host": "epyc", "scaling_level_kind": "physical cores (the host\x27s topology)",
        "max_measured_cores": 4, "base_rate_runs": 3, "smt_factor_runs": 30, "mem_per_session_kb_runs": 9,
        "colocated_kb_runs": 9, "os_reserve_mib": 512, "base_cpu": "gce-e2", "verdicts_measured": 2,
        "cheapest": "e2-standard-8", "cheapest_basis": "predicted", "sessions_asked": "500"}
for k, v in want.items():
    if f.get(k, "absent") != v:
        bad.append("%s: %r, expected %r" % (k, f.get(k, "absent"), v))
for k in ("base_rate", "per_doubling", "smt_factor", "mem_per_session_kb", "colocated_kb"):
    if not f.get(k + "_statistic") or not f.get(k + "_source") or not f.get(k + "_where"):
        bad.append("%s: statistic %r, source %r, where %r" % (k, f.get(k + "_statistic"), f.get(k + "_source"), f.get(k + "_where")))
cols = [c["name"] for c in d["sections"]["inputs"]["columns"]]
for c in ("runs", "where", "host", "levels", "left_out", "statistic", "source"):
    if c not in cols:
        bad.append("inputs view lacks %s" % c)
print("\n".join(bad) if bad else "ok")
