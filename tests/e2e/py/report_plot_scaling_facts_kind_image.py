# report_plot_scaling_facts_kind_image.py (tests/e2e/report.sh): plot scaling json: facts kind, image, data, script; runs = the runs the filter lists ($nsel)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(str(d["facts"][k]["value"]) for k in ("kind", "image", "data", "script", "runs")))
