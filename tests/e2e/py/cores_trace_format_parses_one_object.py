# cores_trace_format_parses_one_object.py (tests/e2e/cores.sh): trace --format json parses: one object per sample.tsv line
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sections"]["rows"]["rows"]
n = sum(1 for _ in open(sys.argv[2]))
print("ok" if len(rows) == n and rows[0]["row_no"] == 1 and d["facts"]["rows"]["value"] == n
      else "%d objects, %d lines" % (len(rows), n))
