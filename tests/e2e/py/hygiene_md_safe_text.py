# hygiene_md_safe_text.py (tests/e2e/hygiene.sh): md safe text
import re, sys
# every table row has as many unescaped | as its header (a value's | cannot split a cell)
bad = []
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
width = None
for n, line in enumerate(lines, 1):
    if not line.startswith("|"):
        width = None
        continue
    cells = len(re.findall(r"(?<!\\)\|", line))
    if width is None:
        width = cells
    elif cells != width:
        bad.append("line %d: %d bars, header %d" % (n, cells, width))
print("ok" if not bad else "; ".join(bad[:3]))
