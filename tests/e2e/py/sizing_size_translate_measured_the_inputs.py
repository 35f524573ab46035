# sizing_size_translate_measured_the_inputs.py (tests/e2e/sizing.sh): size --translate measured: the inputs view carries the factor, its interval and where it came from
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
r = [r for r in rows(sys.argv[1]) if r["input"] == "translation"]
xl = {x["kind"]: x for x in rows(sys.argv[2])}["rate"]
bad = []
if len(r) != 1:
    bad.append("%d translation rows" % len(r))
else:
    r = r[0]
    want = {"value": xl["factor"], "lo": xl["ci_lo"], "hi": xl["ci_hi"], "runs": "6", "cpu_family": "gce-e2",
            "where": "from:subcorpus=m1,to:subcorpus=core"}
    bad += ["%s: %r, expected %r" % (k, r[k], v) for k, v in want.items() if r[k] != v]
    for part in ("measured (coreplan translate): median tput of from:subcorpus=m1 (3 runs, apple-m1) / to:subcorpus=core (3 runs, gce-e2)",
                 "the bounds widened by the interval"):
        if part not in r["source"]:
            bad.append("source %r lacks %r" % (r["source"], part))
print("\n".join(bad) if bad else "ok")
