# tools_gobench_median_of.py (tests/e2e/tools_gobench.sh): median of
import re, statistics, sys
path, name, procs, unit = sys.argv[1:]
vals = []
for line in open(path):
    m = re.match(r'^(Benchmark\S*?)(?:-(\d+))?\s+(\d+)\s+(.*)$', line.rstrip('\n'))
    if not m or m.group(1) != name or (m.group(2) or '1') != procs:
        continue
    f = m.group(4).split()
    for v, u in zip(f[0::2], f[1::2]):
        if u == unit:
            vals.append(float(v))
print('%g' % statistics.median(vals) if vals else 'none')
