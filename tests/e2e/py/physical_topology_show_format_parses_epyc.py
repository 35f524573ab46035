# physical_topology_show_format_parses_epyc.py (tests/e2e/physical.sh): topology --show --format json parses: epyc and here
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["hosts"]["rows"]
by = {r["host"]: r for r in rows}
e = by.get("epyc", {})
ok = ("here" in by and e.get("logical_cpus") == 8 and e.get("physical_cores") == 4
      and e.get("threads_per_core") == 2 and e.get("sockets") == 1
      and d["facts"]["hosts"]["value"] == len(rows) and d["facts"]["action"]["value"] == "shown")
print("ok" if ok else repr(d)[:400])
