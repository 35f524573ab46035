# analysis_order.py (tests/e2e/analysis.sh): ORDER_PY, shared by the checks that import or run it
# the order of each factor recomputed in python from json/<tag>.json:
# started_at and the measured window (duration), first run of each value
# per block; runs whose windows overlap share a position
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import calendar, csv, json, re, sys, time
out, cap = sys.argv[1], sys.argv[2]
d = json.load(open(out))
f = {k: v["value"] for k, v in d["facts"].items()}
def secs(text):
    m = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", text)
    return int(m.group(1) or 0) * 60 + int(m.group(2) or 0)
runs = []
for i, r in enumerate(csv.DictReader(open(cap + "/results.tsv"), delimiter="\t")):
    if r["block"] not in ("1", "2", "3"):
        continue
    tag = "%s-%s-n%s-b%sr%s" % (r["target"], r["cfg"], r["level"], r["block"], r["rep"])
    j = json.load(open(cap + "/json/" + tag + ".json"))
    t = calendar.timegm(time.strptime(j["started_at"], "%Y-%m-%dT%H:%M:%SZ"))
    runs.append(dict(i=i, target=r["target"], cfg=r["cfg"], sessions=r["level"], block=r["block"], start=t, end=t + secs(j["duration"])))
def orders(factor, strat):
    res = {}
    for s in sorted({strat(x) for x in runs}):
        for b in ("1", "2", "3"):
            seen, slots = [], []
            for x in sorted((x for x in runs if strat(x) == s and x["block"] == b), key=lambda x: (x["start"], x["i"])):
                if x[factor] in seen:
                    continue
                if slots and (x["start"] < slots[-1][1] or x["start"] == slots[-1][0]):
                    slots[-1][2].append(x[factor]); slots[-1][1] = max(slots[-1][1], x["end"])
                else:
                    slots.append([x["start"], x["end"], [x[factor]]])
                seen.append(x[factor])
            res[(s, b)] = slots
    return res
def judge(res):
    words = []
    for s in sorted({k[0] for k in res}):
        cons = [res[(s, b)] for b in ("1", "2", "3") if sum(len(sl[2]) for sl in res[(s, b)]) >= 2]
        if not cons:
            words.append("not-rotated"); continue
        if all(len(o) == 1 for o in cons):
            words.append("simultaneous"); continue
        if len(cons) == 1:
            words.append("one-block"); continue
        pos = {}
        for o in cons:
            for p, sl in enumerate(o):
                for v in sl[2]:
                    pos.setdefault(v, []).append(p)
        words.append("no" if any(len(p) >= 2 and len(set(p)) == 1 for p in pos.values()) else "yes")
    for w in ("no", "one-block", "yes", "simultaneous", "not-rotated"):
        if w in words:
            return w
text = lambda slots: ",".join("+".join(sl[2]) for sl in slots)
bad = []
rows = {(r["factor"], r["group"], r["block"]): r["levels_in_order"] for r in d["sections"]["order"]["rows"]}
factors = {"sessions": lambda x: "target=%s, cfg=%s" % (x["target"], x["cfg"]),
           "target": lambda x: "cfg=" + x["cfg"], "cfg": lambda x: "target=" + x["target"]}
for name, strat in factors.items():
    res = orders(name, strat)
    for (s, b), slots in res.items():
        if rows.get((name, s, b)) != text(slots):
            bad.append("order %s %s block %s: %r, python %r" % (name, s, b, rows.get((name, s, b)), text(slots)))
    w = judge(res)
    if f.get("counterbalanced_" + name) != w:
        bad.append("counterbalanced_%s: %r, python %r" % (name, f.get("counterbalanced_" + name), w))
print("\n".join(bad) if bad else "ok")
