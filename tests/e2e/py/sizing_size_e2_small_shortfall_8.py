# sizing_size_e2_small_shortfall_8.py (tests/e2e/sizing.sh): size e2-small: shortfall > 8; e2-medium: shortfall > 4
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
by = {r["instance"]: r for r in rows(sys.argv[1])}
s, m = num(by["e2-small"]["shortfall"]), num(by["e2-medium"]["shortfall"])
print("ok" if s > 8 and m > 4 else "e2-small %r, e2-medium %r" % (s, m))
