# tools_gobench_old_median.py (tests/e2e/tools_gobench.sh): old median
import re, statistics, sys
v = [float(m.group(1)) for m in (re.search(r'\s(\S+) ns/op', l) for l in open(sys.argv[1]) if l.startswith('Benchmark')) if m]
print('%g' % statistics.median(v))
