# physical_apply_check_format_5_inside.py (tests/e2e/physical.sh): apply --check --format json: 5 inside, 0 outside, the check runs are the to-arm's (note)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
notes = " ".join(d["sections"]["applied"]["notes"])
ok = (f["checks_inside"] == 5 and f["checks_outside"] == 0 and f["check_runs"] == 3 and f["check_is_to"] is True
      and "by construction" in notes and len(d["sections"]["applied"]["rows"]) == 9
      and all(r["status"] in ("translated", "not translated") for r in d["sections"]["applied"]["rows"])
      and all((r["status"] == "translated") == isinstance(r["translated"], (int, float)) for r in d["sections"]["applied"]["rows"]))
print("ok" if ok else repr(f)[:600])
