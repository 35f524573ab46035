# formats_json_has_view.py (tests/e2e/formats.sh): exit 0 when the json document argv[1] has a table section named argv[2]
import json, sys
d = json.load(open(sys.argv[1]))
s = d["sections"].get(sys.argv[2])
sys.exit(0 if s is not None and "columns" in s else 1)
