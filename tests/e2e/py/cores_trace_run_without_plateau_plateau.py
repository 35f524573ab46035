# cores_trace_run_without_plateau_plateau.py (tests/e2e/cores.sh): trace of a run without a plateau: plateau none, the plateau facts null, the note says why
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
nulls = [k for k in ("plateau_first", "plateau_last", "plateau_rows", "plateau_seconds", "app_cores_wall") if f[k] is not None]
print("ok" if f["plateau"] == "none" and not nulls and "conn" in f["note"] else repr(f)[:400])
