# hosts_instances_hosts_gce_tsv_s.py (tests/e2e/hosts.sh): the instances' hosts are gce.tsv's shapes: vcpus / threads_per_core cores, source catalog
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
hosts = {r["host"]: r for r in rows(sys.argv[1])}
cat = {r["instance"]: r for r in rows(sys.argv[2])}
bad = []
for name in ("e2-small", "e2-medium", "e2-standard-4"):
    h, c = hosts.get(name), cat[name]
    want = (int(c["vcpus"]), int(c["vcpus"]) // int(c["threads_per_core"]), int(c["threads_per_core"]))
    got = h and (int(h["logical_cpus"]), int(h["physical_cores"]), int(h["threads_per_core"]))
    if not h or got != want or h["source"] != "catalog":
        bad.append("%s: %s, want %s from catalog" % (name, h, want))
print("; ".join(bad) or "ok")
