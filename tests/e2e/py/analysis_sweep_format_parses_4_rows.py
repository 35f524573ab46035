# analysis_sweep_format_parses_4_rows.py (tests/e2e/analysis.sh): sweep --format json parses: 4 rows with level and speedup
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))["sections"]["levels"]["rows"]
print("ok" if len(d) == 4 and all("speedup" in r and "level" in r for r in d) else repr(d)[:300])
