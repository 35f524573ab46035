# sizing_measured_size_sessions_each_session_count.py (tests/e2e/sizing_measured.sh): size --sessions $sess: each session count listed per store, medians (python), the worst cell decides, memory at 500
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
res = rows(sys.argv[2] + "/sky/gcp-x86-capacity-20260816/results.tsv")
meas = d["sections"]["measured"]["rows"]
inst = {r["instance"]: r for r in d["sections"]["instances"]["rows"]}
bad = []
cells = {}
for x in res:
    if x["level"] in ("300", "500") and x["block"] in ("1", "2", "3"):
        cells.setdefault(("e2-" + x["target"], int(x["level"]), "cfg=" + x["cfg"]), []).append(float(x["tput"]))
got = {(r["instance"], r["sessions"], r["group"]): r for r in meas if r["at_target"] and r["n"]}
# only the pg cells (the target store) decide
if sorted(k for k, r in got.items() if r["decides"]) != sorted(k for k in cells if k[2] == "cfg=pg"):
    bad.append("deciding cells %r" % sorted(k for k, r in got.items() if r["decides"]))
if sorted(got) != sorted(cells):
    bad.append("cells %r, python %r" % (sorted(got), sorted(cells)))
for k, v in cells.items():
    r = got.get(k)
    if r and (not close(r["median"], statistics.median(v), 1e-12) or r["n"] != len(v)):
        bad.append("%r: %r (n %r), python %r" % (k, r["median"], r["n"], statistics.median(v)))
for name in ("e2-small", "e2-medium"):
    mine = {k: statistics.median(v) for k, v in cells.items() if k[0] == name and k[2] == "cfg=pg"}
    worst = min(mine, key=mine.get)
    want_at = "%s at %d sessions" % (worst[2], worst[1])
    r = inst[name]
    if r["measured_at"] != want_at or not close(r["measured_median"], mine[worst], 1e-12) or r["verdict_basis"] != "measured":
        bad.append("%s: %r %r %r, python worst %r %r" % (name, r["measured_at"], r["measured_median"], r["verdict_basis"], want_at, mine[worst]))
    w = [m for m in meas if m["instance"] == name and m["worst"]]
    if len(w) != 1 or (w[0]["sessions"], w[0]["group"]) != (worst[1], worst[2]):
        bad.append("%s worst rows %r" % (name, w))
f = {k: v["value"] for k, v in d["facts"].items()}
if f["sessions"] != 500 or f["sessions_asked"] != sys.argv[3] or not close(inst["e2-small"]["memory_app_gib"], (f["mem_fixed_kb"] + 500 * f["mem_per_session_kb"]) / 1048576, 1e-12):
    bad.append("sessions %r asked %r memory %r" % (f["sessions"], f["sessions_asked"], inst["e2-small"]["memory_app_gib"]))
print("\n".join(bad) if bad else "ok")
