# report_figure_captions.py (tests/e2e/report.sh): a "Figure: ... Runs: ... (n N)." caption under every image of report.md (argv[1])
import re, sys
lines = [l for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if l]
bad = [l for i, l in enumerate(lines) if l.startswith("![") and not (i + 1 < len(lines)
       and lines[i + 1].startswith("Figure: ") and (re.search(r"Runs: .*\(n [0-9]+\)", lines[i + 1])
       or "Trace of run" in lines[i + 1]))]
print("ok" if not bad else "missing: %s" % bad)
