# sizing_measured_size_measured_the_model_disagrees.py (tests/e2e/sizing_measured.sh): size measured: the model disagrees (python bounds from the corpus inputs): e2-small below predicted_low, e2-medium above predicted_high, ratio = median / that bound; the model predicts about 95 and 190
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
out = rows(sys.argv[1])
base, pd, smt, _, _, _ = inputs(sys.argv[2])
inst = {i["instance"]: i for i in rows(sys.argv[3])}
bad = []
for r in out:
    i = inst[r["instance"]]
    lo, p, hi = (predict(i, base, pd, smt, k) for k in (1, 0, 2))
    m = num(r["median"])
    want = ("below", m / lo) if m < lo else ("above", m / hi) if m > hi else ("within", None)
    if r["model_check"] != want[0] or (want[1] and not close(num(r["model_ratio"]), want[1], 1e-9)):
        bad.append("%s %s: %s %s, python %r (bounds %r-%r)" % (r["instance"], r["group"], r["model_check"], r["model_ratio"], want, lo, hi))
    if round(p) != {"e2-small": 95, "e2-medium": 190}[r["instance"]]:
        bad.append("%s predicted %r" % (r["instance"], p))
    if (r["instance"] == "e2-small") != (want[0] == "below"):
        bad.append("%s %s: %r" % (r["instance"], r["group"], want))
print("\n".join(bad) if bad else "ok")
