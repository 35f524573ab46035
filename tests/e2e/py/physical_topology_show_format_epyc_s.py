# physical_topology_show_format_epyc_s.py (tests/e2e/physical.sh): topology --show --format json: epyc's counts and cores list match python3 on lscpu.txt
# the lscpu.txt counted here: CPU lines, distinct (socket, core) pairs, each core's CPUs
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
e = {r["host"]: r for r in d["sections"]["hosts"]["rows"]}["epyc"]
head, cpus = None, []
for line in open(sys.argv[2]):
    line = line.strip()
    if line.startswith("# CPU"):
        head = line[2:].split(",")
    elif line and not line.startswith("#"):
        cpus.append(dict(zip(head, line.split(","))))
cores = {}
for c in cpus:
    cores.setdefault((c["Socket"], c["Core"]), []).append(int(c["CPU"]))
order = sorted(cores.values(), key=min)
want = {"logical_cpus": len(cpus), "physical_cores": len(cores),
        "sockets": len({c["Socket"] for c in cpus}),
        "threads_per_core": max(len(v) for v in cores.values()),
        "cores": " ".join(",".join(str(x) for x in sorted(v)) for v in order)}
bad = ["%s: %r, python %r" % (k, e.get(k), v) for k, v in want.items() if e.get(k) != v]
print("\n".join(bad) if bad else "ok")
