# report_md_check.py (tests/e2e/report.sh): md_check.py
# md_check.py REPORT.md: GFM tables well-formed.
import re, sys
path = sys.argv[1]
lines = open(path, encoding="utf-8").read().split("\n")
def pipes(line):
    n = 0
    for i, c in enumerate(line):
        if c == "|" and (i == 0 or line[i - 1] != "\\"):
            n += 1
    return n
align = re.compile(r"\|(\s*:?-+:?\s*\|)+")
errors, tables, fence, i = [], 0, False, 0
while i < len(lines):
    line = lines[i]
    if line.startswith("```"):
        fence = not fence
        i += 1
        continue
    if fence or not line.startswith("|"):
        i += 1
        continue
    tables += 1
    n = pipes(line)
    if i + 1 >= len(lines) or not align.fullmatch(lines[i + 1].rstrip()):
        errors.append("line %d: table header without an alignment row after it: %r"
                      % (i + 1, line[:80]))
    j = i + 1
    while j < len(lines) and lines[j].startswith("|"):
        row = lines[j].rstrip()
        if pipes(row) != n:
            errors.append("line %d: %d unescaped '|', the header (line %d) has %d: %r"
                          % (j + 1, pipes(row), i + 1, n, row[:120]))
        if not row.endswith("|") or row.endswith("\\|"):
            errors.append("line %d: row does not end with an unescaped '|'" % (j + 1))
        j += 1
    if j < len(lines) and lines[j].strip() != "":
        errors.append("line %d: table not followed by a blank line: %r" % (j + 1, lines[j][:80]))
    i = j
if fence:
    errors.append("a ``` code fence is not closed")
if tables == 0:
    errors.append("no table at all")
print("\n".join(errors[:30]) if errors else "ok")
