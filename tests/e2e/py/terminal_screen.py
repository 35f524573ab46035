# terminal_screen.py (tests/e2e/terminal.sh): what a pane showed (argv[1]) fits argv[2]
# columns (characters, as the terminal counts this text) and is the text format
import sys
width = int(sys.argv[2])
lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
bad = ["%d characters: %s" % (len(l), l) for l in lines if len(l) > width]
if len(lines) < 2 or not lines[1] or set(lines[1]) != {"="}:
    bad.append("not the text format (no title underlined with =): %r" % lines[:2])
for l in lines:
    if l.startswith("|") or "&lt;" in l or "&amp;" in l or "\\*" in l or "\\_" in l:
        bad.append("Markdown: " + l)
print("\n".join(bad[:20]) if bad else "ok")