# sizing_fleet_platform_e2_standard_4_on.py (tests/e2e/sizing_fleet.sh): platform: e2-standard-4 on EPYC = the Xeon chain / (median core ips / median g1 tput, blocks 1-3)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
from sizing_model import *  # noqa: F401,F403 (the shared helpers)
out = {r["instance"]: r for r in rows(sys.argv[1])}
core = [float(r["ips"]) for r in rows(sys.argv[2] + "/sky/gcp-x86-capacity-20260816/core/results.tsv")]
g1 = [float(r["tput"]) for r in rows(sys.argv[2] + "/sky/gomaxprocs-scaling-20260816/results.tsv") if r["gomaxprocs"] == "1" and r["block"] in ("1", "2", "3")]
factor = statistics.median(core) / statistics.median(g1)
want = model(GCE["e2-standard-4"], 500)[0] / factor
r = out["e2-standard-4"]
ok = close(float(r["predicted"]), want, 1e-9) and "translated to another platform (factor %.4f" % factor in r["flags"] \
     and "measured from intel-xeon-2.2ghz to amd-epyc-7b12" in r["flags"]
print("ok" if ok else "%s %r, python %r (factor %r)" % (r["predicted"], r["flags"], want, factor))
