# analysis_noise.py (tests/e2e/analysis.sh): NOISE_PY, shared by the checks that import or run it
# the steps, levels, verdicts and bursts recomputed in python from
# results.tsv and json/<tag>.json (started_at orders the runs): a step
# between neighbouring levels is resolved when Welch's t (on ln values; on
# values when a value is 0) gives p < 0.05 (tests/stat_check.py, the t
# distribution in the standard library), unreplicated when a level has one
# run; its ranges_disjoint is the range rule (|median difference| > the
# spreads facing each other), evidence only; a level takes the worst of its
# steps; a first run >= 1.5x the median of its level's later runs is a burst
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import calendar, csv, json, math, statistics, sys, time
from stat_check import welch, t_two_sided_p
def welch_p(A, B):
    ln = all(x > 0 for x in A + B)
    A, B = ([math.log(x) for x in A], [math.log(x) for x in B]) if ln else (A, B)
    if len(set(A)) == 1 and len(set(B)) == 1:
        return 0.0 if A[0] != B[0] else 1.0
    dd, se, df = welch(A, B)
    return t_two_sided_p(dd / se, df)
out, cap, metric = sys.argv[1], sys.argv[2], sys.argv[3]
blocks = sys.argv[4].split(",")
d = json.load(open(out))
f = {k: v["value"] for k, v in d["facts"].items()}
groups = {}
for r in csv.DictReader(open(cap + "/results.tsv"), delimiter="\t"):
    if r["block"] not in blocks:
        continue
    tag = "%s-%s-n%s-b%sr%s" % (r["target"], r["cfg"], r["level"], r["block"], r["rep"])
    t = calendar.timegm(time.strptime(json.load(open(cap + "/json/" + tag + ".json"))["started_at"], "%Y-%m-%dT%H:%M:%SZ"))
    groups.setdefault("target=%s, cfg=%s" % (r["target"], r["cfg"]), {}).setdefault(int(r["level"]), []).append((t, float(r[metric]), tag))
rank = {"within-noise": 0, "unreplicated": 1, "single-level": 2, "resolved": 3}
bad = []
verdicts = {v["group"]: v for v in d["sections"]["verdict"]["rows"]}
levels = {(v["group"], v["level"]): v for v in d["sections"]["levels"]["rows"]}
steps = {(v["group"], v["from"]): v for v in d["sections"]["steps"]["rows"]}
bursts = 0
overall = "resolved"
for g, by in groups.items():
    lv = sorted(by)
    vals = {l: [x[1] for x in by[l]] for l in lv}
    sv, names = [], {"resolved": [], "within-noise": [], "unreplicated": []}
    for a, b in zip(lv, lv[1:]):
        A, B = vals[a], vals[b]
        ma, mb = statistics.median(A), statistics.median(B)
        gap = min(B) - max(A) if mb > ma else min(A) - max(B) if mb < ma else None
        p = None
        if len(A) < 2 or len(B) < 2:
            v = "unreplicated"
        else:
            p = welch_p(A, B)
            v = "resolved" if p < 0.05 else "within-noise"
        sv.append(v)
        names[v].append("%d→%d" % (a, b))
        row = steps.get((g, a))
        if (not row or row["to"] != b or row["verdict"] != v or not math.isclose(row["difference"], mb - ma, rel_tol=1e-12, abs_tol=1e-15)
                or (gap is not None and not math.isclose(row["gap"], gap, rel_tol=1e-12, abs_tol=1e-15))
                or row["ranges_disjoint"] != ("yes" if gap is not None and gap > 0 else "no")
                or (p is not None and not math.isclose(row["p"], p, rel_tol=1e-8, abs_tol=1e-12))):
            bad.append("step %s %s->%s: %r, python %s p %r gap %r" % (g, a, b, row, v, p, gap))
    noisy = []
    for i, l in enumerate(lv):
        v = vals[l]
        n, m = len(v), statistics.median(v)
        cand = sv[max(0, i - 1):i] + sv[i:i + 1]
        w = min(cand, key=rank.get) if cand else "single-level"
        if n < 2:
            w = "unreplicated"
        if w == "within-noise":
            noisy.append(l)
        rp = (max(v) - min(v)) / m * 100 if m else None
        row = levels.get((g, l))
        if (not row or row["verdict"] != w or row["n"] != n or not math.isclose(row["range_abs"], max(v) - min(v), rel_tol=1e-12, abs_tol=1e-15)
                or (rp is None) != (row["range_pct"] is None) or (rp is not None and not math.isclose(row["range_pct"], rp, rel_tol=1e-9))):
            bad.append("level %s %s: %r, python %s %d %r" % (g, l, row, w, n, rp))
        runs = sorted(by[l])
        if len(runs) >= 2:
            later = statistics.median([x[1] for x in runs[1:]])
            bursts += later != 0 and runs[0][1] / later >= 1.5
    want = min(sv, key=rank.get) if sv else "single-level"
    overall = min(overall, want, key=rank.get)
    v = verdicts.get(g)
    if (not v or v["verdict"] != want or v["within_noise_levels"] != ",".join(map(str, noisy))
            or v["steps_resolved"] != ", ".join(names["resolved"]) or v["steps_within_noise"] != ", ".join(names["within-noise"])):
        bad.append("verdict %s: %r, python %s %r %r" % (g, v, want, noisy, names))
want = {"runs": sum(len(x) for b in groups.values() for x in b.values()), "groups": len(groups),
        "verdict": overall, "group": "target,cfg", "by": "sessions", "metric": metric,
        "block": "block", "threshold_burst_factor": 1.5, "threshold_drift_pct": 1,
        "steps_resolved": sum(len(v["steps_resolved"].split(", ")) for v in verdicts.values() if v["steps_resolved"])}
if metric == "tput":
    want["bursts"] = bursts
bad += ["fact %s: %r, python %r" % (k, f.get(k), w) for k, w in want.items() if f.get(k) != w]
if len(verdicts) != len(groups):
    bad.append("%d verdict rows, python %d groups" % (len(verdicts), len(groups)))
print("\n".join(bad) if bad else "ok")
