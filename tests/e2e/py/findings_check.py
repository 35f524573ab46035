# findings_check.py (tests/e2e/findings.sh): check NAME JSON PYTHON: the body PYTHON
# (argv[2]; `f` holds the findings rows, each with its report.md bullet as "text";
# `md` holds report.md) runs against report --format json's document argv[1],
# whose report.md is beside it (argv[1] without .json); prints "ok" or the reason
import json, math, sys
d = json.load(open(sys.argv[1]))
f = d["sections"]["findings"]["rows"]
md = open(sys.argv[1][:-5] + "/report.md", encoding="utf-8").read()
# each row's sentence: report.md's bullet in the same place of the list
_b = [l for l in md.split("\n## Findings\n", 1)[1].split("\n## ", 1)[0].split("\n") if l.startswith("- ")]
assert len(_b) == len(f), "%d bullets, %d findings rows" % (len(_b), len(f))
for _r, _l in zip(f, _b):
    _r["text"] = _l
def one(kind, subject_part=""):
    m = [x for x in f if x["finding"] == kind and subject_part in x["subject"]]
    assert len(m) >= 1, "no %s finding with %r: %r" % (kind, subject_part, [x["subject"] for x in f if x["finding"] == kind])
    return m[0]
def near(a, b, tol):
    assert a is not None and abs(a - b) <= tol, "%r is not %r +- %r" % (a, b, tol)
try:
    exec(sys.argv[2])
    print("ok")
except AssertionError as e:
    print(e)
