# cores_cores_format_parses_53_runs.py (tests/e2e/cores.sh): cores --format json parses: 53 runs, numbers for medium, null for m1
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["runs"]["rows"]
by = {r["tag"]: r for r in rows}
ok = (len(rows) == 53 and d["facts"]["runs"]["value"] == 53
      and isinstance(by["medium-pg-n100-b1r1"]["app_cores_wall"], (int, float))
      and by["m1-r1"]["app_cores_wall"] is None and "UNTRUSTWORTHY" in by["small-pg-n500-b1r1"]["note"]
      and by["small-pg-n500-b1r1"]["tick_ok"] is False and by["medium-pg-n100-b1r1"]["tick_ok"] is True)
print("ok" if ok else repr(d)[:400])
