# sizing_size_format_json_the_instances.py (tests/e2e/sizing.sh): size --format json: the instances view has one row per tsv row, the same verdicts and cheapest
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
d = json.load(open(sys.argv[1]))
t = rows(sys.argv[2])
bad = []
sec = d.get("sections", {}).get("instances", {})
j = sec.get("rows")
if d.get("command") != "size" or not isinstance(j, list) or len(j) != len(t):
    bad.append("no instances rows matching the tsv (%d rows): %r" % (len(t), str(d)[:200]))
else:
    if [c["name"] for c in sec["columns"]] != list(t[0].keys()):
        bad.append("columns %r" % [c["name"] for c in sec["columns"]])
    for r, x in zip(j, t):
        if r["instance"] != x["instance"] or r["verdict"] != x["verdict"]:
            bad.append("%s %s vs %s %s" % (r["instance"], r["verdict"], x["instance"], x["verdict"]))
        if x["predicted"] != "NA" and not close(r["predicted"], float(x["predicted"]), 1e-12):
            bad.append("%s predicted %r vs %s" % (r["instance"], r["predicted"], x["predicted"]))
    ch = [r["instance"] for r in j if r.get("flags") and "CHEAPEST" in r["flags"]]
    if ch != ["e2-standard-8"]:
        bad.append("cheapest %r" % ch)
    small = [r for r in j if r["instance"] == "e2-small"][0]
    if small["measured_n"] != 3 or small["predicted"] is None:
        bad.append("e2-small %r" % small)
    if [r for r in j if r["instance"] == "m7i.large"][0]["predicted"] is not None:
        bad.append("m7i.large has a prediction")
print("\n".join(bad) if bad else "ok")
