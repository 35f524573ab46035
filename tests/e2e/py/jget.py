# jget.py (tests/e2e/lib.sh jget EXPR): the Python expression argv[2] over d, the JSON document argv[1]
import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))
