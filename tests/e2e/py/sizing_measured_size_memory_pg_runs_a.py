# sizing_measured_size_memory_pg_runs_a.py (tests/e2e/sizing_measured.sh): size memory (pg runs, a pg_rss_kb trace column): co-located = median over the 9 runs of the plateau median of pg_rss_kb (python from samples/*.tsv)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
by = {r["input"]: r for r in rows(sys.argv[1])}
cap = sys.argv[2] + "/sky/gcp-x86-capacity-20260816"
runs = [r["run"] for r in rows(cap + "/system.tsv") if r["target"] == "medium" and r["cfg"] == "pg" and r["block"] in ("1", "2", "3")]
pg = [plateau_median(cap + "/samples/" + t + ".tsv", 2) for t in runs]
got = tuple(num(by["colocated_kb"][c]) for c in ("value", "lo", "hi"))
want = (statistics.median(pg), min(pg), max(pg))
bad = []
if not all(close(g, w, 1e-12) for g, w in zip(got, want)) or by["colocated_kb"]["runs"] != "9":
    bad.append("colocated %r (runs %s), python %r" % (got, by["colocated_kb"]["runs"], want))
if num(by["os_reserve_mib"]["value"]) != 512:
    bad.append("os reserve %r" % by["os_reserve_mib"]["value"])
print("\n".join(bad) if bad else "ok")
