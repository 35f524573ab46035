# report_segment_check.py (tests/e2e/report.sh): segment_check.py
# segment_check.py REPORT.md START END CMD_STDOUT LEVEL: the report's text
# after START up to END is the command's document as the report embeds it
# (then blank): the command's Markdown without its "## title" line and its
# footer (from the last "---"), with every heading moved to start at LEVEL
# (the report's sections sit under its own headings). START may be
# "ANCHOR@@START" (START found after ANCHOR: a group's heading within one
# section); END may be "E1@@E2" (whichever comes first).
import difflib, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
start, end = sys.argv[2].replace("\\n", "\n"), sys.argv[3].replace("\\n", "\n")
out = open(sys.argv[4], encoding="utf-8").read()
level = int(sys.argv[5])
a = 0
if "@@" in start:
    anchor, start = start.split("@@", 1)
    a = md.find(anchor)
    if a < 0:
        print("%r not in the report" % anchor); sys.exit()
a = md.find(start, a)
if a < 0:
    print("%r not in the report" % start); sys.exit()
a += len(start)
ends = [md.find(e, a) for e in end.split("@@")]
b = min([x for x in ends if x >= 0], default=-1)
if b < 0:
    print("%r not after %r in the report" % (end, start)); sys.exit()
seg = md[a:b]
if out.strip() == "":
    print("the command printed nothing"); sys.exit()
lines = out.split("\n")
if "---" in lines:
    lines = lines[:len(lines) - 1 - lines[::-1].index("---")]
if lines and lines[0].startswith("## "):
    lines = lines[2:]  # the title and the blank line after it
shift = level - 2
lines = [("#" * shift + l) if re.match(r"#+ ", l) else l for l in lines]
want = "\n".join(lines).strip("\n")
got = seg.strip("\n")
if got.startswith(want) and got[len(want):].strip() == "":
    print("ok")
else:
    d = difflib.unified_diff(want.splitlines(), got.splitlines(), "command", "report.md", lineterm="")
    print("the report's section differs from the command's document\n" + "\n".join(list(d)[:40]))
