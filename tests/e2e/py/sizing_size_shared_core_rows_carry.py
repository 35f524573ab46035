# sizing_size_shared_core_rows_carry.py (tests/e2e/sizing.sh): size: shared-core rows carry the shared-core flag and the burst figure (all vCPUs at full speed); no other row does
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
out = {r["instance"]: r for r in rows(sys.argv[1])}
base, pd, smt, _, _, _ = inputs(sys.argv[2])
bad = []
nshared = 0
for inst in rows(sys.argv[3]):
    o = out[inst["instance"]]
    flags = o["flags"]
    shared = float(inst["sustained_vcpu_fraction"]) < 1
    if not shared or inst["cpu_family"] != "gce-e2":
        if "shared-core" in flags:
            bad.append("%s: %r" % (inst["instance"], flags))
        continue
    nshared += 1
    phys = float(inst["vcpus"]) / float(inst["threads_per_core"])
    burst = base[0] * scale(phys, pd[0]) * (smt[0] if inst["threads_per_core"] == "2" else 1)
    want = "shared-core: sustained share; burst %.0f not sustained" % burst
    if want not in flags:
        bad.append("%s: flags %r, expected %r" % (inst["instance"], flags, want))
    if num(o["predicted"]) >= burst:
        bad.append("%s: predicted %s is not below the burst %r" % (inst["instance"], o["predicted"], burst))
if nshared != 3:
    bad.append("%d shared-core e2 rows, expected 3 (micro, small, medium)" % nshared)
print("\n".join(bad) if bad else "ok")
