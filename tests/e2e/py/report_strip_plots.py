# report_strip_plots.py (tests/e2e/report.sh): strip_plots.py
# strip_plots.py REPORT.md: the text without plot lines (images, data
# and script names, "Plot not drawn" notes), blank runs collapsed.
import re, sys
out = []
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if line.startswith("![") or line.startswith("(data: `") or line.startswith("*Plot not drawn") or line.startswith("Figure: "):
        continue
    if line == "" and out and out[-1] == "":
        continue
    out.append(line)
print("\n".join(out))
