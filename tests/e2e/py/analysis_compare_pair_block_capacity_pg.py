# analysis_compare_pair_block_capacity_pg.py (tests/e2e/analysis.sh): compare --pair-by block (capacity, pg, 300): paired t 23.6778 df 2 p 0.00177893, 3 pairs, soak runs left out
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, sys
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
bad = []
for k, w in (("paired_t", 23.677765445309184), ("paired_df", 2), ("paired_p", 0.001778928526777874),
             ("paired_ratio", 4.175629300385263), ("paired_ratio_lo", 3.220521496256526),
             ("paired_ratio_hi", 5.413992756919357), ("pairs", 3)):
    if not isinstance(f.get(k), (int, float)) or not math.isclose(f[k], w, rel_tol=1e-9): bad.append("%s %r, want %r" % (k, f.get(k), w))
pairs = d["sections"]["pairs"]["rows"]
if [(p["key"], p["a_tag"], p["b_tag"]) for p in pairs] != [(b, "small-pg-n300-b%sr1" % b, "medium-pg-n300-b%sr1" % b) for b in "123"]:
    bad.append("pairs %r" % pairs)
soak = [x for x in d["left_out"] if "bsoak" in x["tag"]]
if len(soak) != 8 or any(x["reason"] != "no run of arm b has block=soak to pair with" for x in soak): bad.append("left out %r" % soak[:2])
if (f["verdict"], f["method"], f["design"]) != ("higher", "paired t on ln differences", "paired"): bad.append("%s %s" % (f["verdict"], f["method"]))
print("\n".join(bad) if bad else "ok")
