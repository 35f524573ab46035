# standard_same_verdict.py (tests/e2e/standard.sh): one step, the same runs,
# the same verdict and p in noise, compare and the report. The step is found
# in every document by its two medians (the same runs give the same medians);
# p is SciPy's, quoted by the script: scipy.stats.ttest_ind(ln b, ln a,
# equal_var=False) over results.tsv.
# argv: the last command's output (unused), noise JSON, compare JSON, report JSON, median_from, median_to,
#       step verdict (noise/report), compare verdict, p
import json, math, sys

noise, compare, report = (json.load(open(p)) for p in sys.argv[2:5])
m_from, m_to = float(sys.argv[5]), float(sys.argv[6])
want_step, want_cmp, want_p = sys.argv[7], sys.argv[8], float(sys.argv[9])
bad = []


def steps(o):
    if isinstance(o, dict):
        rows = o.get("rows")
        if isinstance(rows, list):
            for r in rows:
                if isinstance(r, dict) and isinstance(r.get("median_from"), (int, float)) and \
                        isinstance(r.get("median_to"), (int, float)) and "p" in r and \
                        math.isclose(r["median_from"], m_from, rel_tol=1e-12) and \
                        math.isclose(r["median_to"], m_to, rel_tol=1e-12):
                    yield r
        for v in o.values():
            yield from steps(v)
    elif isinstance(o, list):
        for v in o:
            yield from steps(v)


def close(x):
    return isinstance(x, (int, float)) and math.isclose(x, want_p, rel_tol=1e-8)


for name, doc in (("noise", noise), ("report", report)):
    found = list(steps(doc))
    if not found:
        bad.append("%s: no step %s -> %s" % (name, m_from, m_to))
    for r in found:
        if r["verdict"] != want_step or not close(r["p"]) or r["test"] != "welch":
            bad.append("%s: %s p %r test %s, want %s p %r welch" % (name, r["verdict"], r["p"], r["test"], want_step, want_p))
f = {k: v["value"] for k, v in compare["facts"].items()}
if f["verdict"] != want_cmp or not close(f["welch_p"]):
    bad.append("compare: %s p %r, want %s p %r" % (f["verdict"], f["welch_p"], want_cmp, want_p))
print("\n".join(bad) if bad else "ok")
