# pooling_cap_runs_fields_plain_names.py (tests/e2e/pooling.sh): cap runs --fields: the plain names read system.tsv where FORMATS.md calls results.tsv defective
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["field"], r["source"]): r for r in d["sections"]["fields"]["rows"]}
bad = []
for name in ("xact_per_s", "wal_rec_per_s", "load_app_kb", "load_pg_rss_kb", "backends_max"):
    j, r = rows.get((name, "join")), rows.get((name, "results"))
    if not j or not r or (j["read"], r["read"], j["runs"]) != (47, 0, 47) or "prefer" not in j["rule"]:
        bad.append("%s: join %r results %r" % (name, j, r))
    if r and r["select"] != name + "@results":
        bad.append("%s select %r" % (name, r["select"]))
lr = rows.get(("load_rss_kb", "join"))
if not lr or (lr["column"], lr["read"]) != ("load_app_kb", 47) or not lr["rule"].startswith("canonical"):
    bad.append("load_rss_kb %r" % lr)
g = rows.get(("gomaxprocs", "generator"))
if not g or g["read"] != 0:
    bad.append("the generator record gomaxprocs is read: %r" % g)
if d["sections"]["runs"]["rows"]:
    bad.append("runs rows with --fields")
if d["facts"]["runs"]["value"] != 47:
    bad.append("runs %r" % d["facts"]["runs"])
print("\n".join(bad) if bad else "ok")
