# cores_memory_format_parses_2_groups.py (tests/e2e/cores.sh): memory --format json parses: 2 groups with a slope
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))["sections"]["slopes"]["rows"]
print("ok" if len(d) == 2 and all(isinstance(r["slope"], (int, float)) for r in d) else repr(d)[:400])
