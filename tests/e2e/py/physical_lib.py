# physical_lib.py (tests/e2e/physical.sh): PYLIB, shared by the checks that import or run it
# TSV reader (plain split: the corpora have no quoting) and a closeness test.
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, math, statistics, sys
def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:] if l]
def close(a, b, rel):
    return abs(a - b) <= rel * abs(b)
