# terminal_help.py (tests/e2e/terminal.sh): the help a pane showed (argv[1]) fits argv[2] columns
import sys
lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
bad = ["%d characters: %s" % (len(l), l) for l in lines if len(l) > int(sys.argv[2])]
print("\n".join(bad[:20]) if bad or len(lines) < 3 else "ok")