# report_hostile_plot_trace_kind_trace.py (tests/e2e/report.sh): hostile: plot trace json: kind trace, the tag literally, the image path
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
print("|".join(d["facts"][k]["value"] for k in ("kind", "tag", "image")))
