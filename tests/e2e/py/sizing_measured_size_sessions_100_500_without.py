# sizing_measured_size_sessions_100_500_without.py (tests/e2e/sizing_measured.sh): size --sessions 100-500 without --measured-where: the soak and fsync blocks are cells of their own (python medians)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
out = {(r["instance"], r["sessions"], r["group"]): r for r in rows(sys.argv[1])}
res = rows(sys.argv[2] + "/sky/gcp-x86-capacity-20260816/results.tsv")
bad = []
for inst, target, lvl, block in (("e2-small", "small", "300", "soak"), ("e2-medium", "medium", "100", "fs")):
    v = [float(x["tput"]) for x in res if x["target"] == target and x["cfg"] == "pg" and x["block"] == block]
    r = out.get((inst, lvl, "cfg=pg, block=" + block))
    if r is None or not close(num(r["median"]), statistics.median(v), 1e-12) or r["n"] != str(len(v)):
        bad.append("%s %s: %r, python %r (n %d)" % (inst, block, r, statistics.median(v), len(v)))
    main = [float(x["tput"]) for x in res if x["target"] == target and x["cfg"] == "pg" and x["level"] == lvl and x["block"] in ("1", "2", "3")]
    r = out.get((inst, lvl, "cfg=pg"))
    if r is None or r["n"] != str(len(main)):
        bad.append("%s %s main blocks: %r (n %d)" % (inst, lvl, r, len(main)))
print("\n".join(bad) if bad else "ok")
