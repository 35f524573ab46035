# analysis_noise_view_rows.py (tests/e2e/analysis.sh): a value the script compares
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
print("%d %s" % (len(d["sections"][sys.argv[2]]["rows"]), ",".join(d["sections"])))
