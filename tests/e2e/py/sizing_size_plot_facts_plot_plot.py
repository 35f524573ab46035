# sizing_size_plot_facts_plot_plot.py (tests/e2e/sizing.sh): size --plot: facts plot, plot_data and plot_script name the files, which exist; one box per predicted instance
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
import os
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
dirn = sys.argv[2]
bad = []
for k, name in (("plot", "sizing.svg"), ("plot_data", "sizing.svg.tsv"), ("plot_script", "sizing.svg.gp")):
    if f.get(k) != dirn + "/" + name or not os.path.getsize(dirn + "/" + name):
        bad.append("%s %r" % (k, f.get(k)))
pred = [r for r in d["sections"]["instances"]["rows"] if r["predicted"] is not None]
data = [l for l in open(dirn + "/sizing.svg.tsv").read().split("\n\n\n")[0].split("\n") if l and not l.startswith("#")]
if len(data) != len(pred) or len(pred) != 8:
    bad.append("%d boxes, %d predicted rows" % (len(data), len(pred)))
for line, r in zip(data, pred):
    if not close(float(line.split("\t")[1]), r["predicted"], 1e-15):
        bad.append("box %r vs %s %r" % (line, r["instance"], r["predicted"]))
print("\n".join(bad) if bad else "ok")
