# install_man_matches_help.py (tests/e2e/install.sh): man matches help
import re, sys
page = open(sys.argv[1]).read().split("\n")
helptext = open(sys.argv[2]).read()
cmd = sys.argv[3]
cmds = set(sys.argv[4].split())
# the command's subsection: from the line "   CMD" to the next subsection or section
start = next((i for i, l in enumerate(page) if l == "   " + cmd), None)
if start is None:
    print("no subsection '%s'" % cmd); sys.exit()
end = next((i for i in range(start + 1, len(page))
            if (page[i].startswith("   ") and not page[i].startswith("    ")
                and page[i].strip() in cmds) or re.match(r"^[A-Z]", page[i])), len(page))
section = "\n".join(page[start:end])
lines = {l.strip() for l in page[start:end]}
problems = []
parts = helptext.split("\n\n")
opts = re.findall(r"^  (?:-\w, )?\s*(--[a-z0-9-]+)", helptext, re.M)
# --help itself and at least one option of the command's own (help and completion have none)
if len(opts) < (1 if cmd in ("help", "completion") else 2):
    problems.append("only %d options in --help" % len(opts))
for o in opts:
    if not re.search(re.escape(o) + r"(?![a-z0-9-])", section):
        problems.append("option %s" % o)
m = re.search(r"^views \(.*\n  (.*)$", helptext, re.M)
views = re.findall(r"([a-z0-9_-]+)(?: \(default\))?(?:, |$)", m.group(1).split(", facts")[0]) if m else []
for v in views:
    if not re.search(r"\b%s\b" % re.escape(v), section):
        problems.append("view %s" % v)
# details: the text after the options (and the views paragraph)
tail = helptext.split("\n  -h, --help")[1].split("\n", 1)[1] if "\n  -h, --help" in helptext else ""
if tail.lstrip("\n").startswith("views ("):
    tail = tail.lstrip("\n").split("\n", 2)[2] if tail.count("\n") > 2 else ""
details = [l.strip() for l in tail.split("\n") if l.strip()]
for l in details:
    if l not in lines:
        problems.append("details line %r" % l)
print("ok %d options, %d views, %d details lines" % (len(opts), len(views), len(details))
      if not problems else "missing: " + "; ".join(problems[:5]))
