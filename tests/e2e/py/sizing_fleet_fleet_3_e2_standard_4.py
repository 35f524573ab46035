# sizing_fleet_fleet_3_e2_standard_4.py (tests/e2e/sizing_fleet.sh): fleet: 3 e2-standard-4 on the capacity corpus's Xeon (the lower bound meets), 2 at the central estimate and the upper bound; each at ceil(500 / 3) = 167 sessions, its sessions factor at 300 (python)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
from sizing_model import *  # noqa: F401,F403 (the shared helpers)
r = rows(sys.argv[1])[0]
i = GCE["e2-standard-4"]
def need(k):
    for n in range(1, 100):
        if n * model(i, math.ceil(500 / n))[k] >= 1000:
            return n
n, nc, no = need(1), need(0), need(2)
m = model(i, math.ceil(500 / n))
want = {"n": n, "n_central": nc, "n_optimistic": no, "sessions_each": math.ceil(500 / n), "sessions_factor_at": 300}
bad = ["%s %s, python %r" % (k, r[k], v) for k, v in want.items() if float(r[k]) != v]
for c, v in (("capacity_each", m[0]), ("capacity_each_low", m[1]), ("capacity_each_high", m[2]),
             ("total_low", n * m[1]), ("cost_per_hour", n * float(i["price_per_hour"]))):
    if not close(float(r[c]), v, 1e-9):
        bad.append("%s %s, python %r" % (c, r[c], v))
if (n, nc, no) != (3, 2, 2):
    bad.append("python counts %r (the issue: 3)" % ((n, nc, no),))
print("\n".join(bad) if bad else "ok")
