# physical_smt_format_parses_7_figures.py (tests/e2e/physical.sh): smt --format json parses: 7 figures, smt_factor 1.2675
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["figures"]["rows"]
by = {r["figure"]: r for r in rows}
ok = len(rows) == 7 and abs(by["smt_factor"]["value"] - 1.2675219529905761) < 1e-9 and by["smt_step"]["num_n"] == 6
print("ok" if ok else repr(d)[:400])
