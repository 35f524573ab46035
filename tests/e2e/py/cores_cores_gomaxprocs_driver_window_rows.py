# cores_cores_gomaxprocs_driver_window_rows.py (tests/e2e/cores.sh): cores gomaxprocs: driver window = rows with conn >= sessions minus first and last, as in window.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
import re
res = {r["tag"]: r for r in rows(sys.argv[2])}
bad = []
for r in rows(sys.argv[1]):
    t = raw(sys.argv[3] + "/runs/" + r["tag"] + "/sample.tsv")
    w = raw(sys.argv[3] + "/runs/" + r["tag"] + "/window.tsv")
    n = float(res[r["tag"]]["sessions"])
    idx = [i for i, x in enumerate(t) if float(x[3]) >= n][1:-1]
    m = re.match(r"rows (\d+)-(\d+) \((\d+) rows", r["driver_window"])
    want = (idx[0] + 1, idx[-1] + 1, len(w))
    got = tuple(int(g) for g in m.groups()) if m else None
    if got != want or t[idx[0]] != w[0] or t[idx[-1]] != w[-1]:
        bad.append("%s: driver_window %r, expected rows %d-%d (%d rows)" % ((r["tag"], r["driver_window"]) + want))
print("\n".join(bad) if bad else "ok")
