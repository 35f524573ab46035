# sizing_size_verdict_unmeasured_cpu_n2.py (tests/e2e/sizing.sh): size verdict unmeasured CPU: n2-standard-8
# marginal: a target between e2-standard-8's lower bound and its prediction (python, from the corpus inputs)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
base, pd, smt, _, _, _ = inputs(sys.argv[1])
i = [r for r in rows(sys.argv[2]) if r["instance"] == "e2-standard-8"][0]
lo, p = predict(i, base, pd, smt, 1), predict(i, base, pd, smt, 0)
print(round((lo + p) / 2))
