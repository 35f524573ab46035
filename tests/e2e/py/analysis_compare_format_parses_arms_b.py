# analysis_compare_format_parses_arms_b.py (tests/e2e/analysis.sh): compare --format json parses: arms a and b, one comparison row, verdict higher
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["arms"]["rows"]
cmp = d["sections"]["comparison"]["rows"]
print("ok" if [r["arm"] for r in rows] == ["a", "b"] and rows[1]["verdict"] == "higher"
      and len(cmp) == 1 and cmp[0]["verdict"] == "higher"
      and d["facts"]["verdict"]["value"] == "higher" else repr(d)[:300])
