# report_corpus_row.py (tests/e2e/report.sh): corpus_row.py
# corpus summary against `coreplan corpora`
import csv, sys
md, tsv, name = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {r["name"]: r for r in csv.DictReader(open(tsv), delimiter="\t")}
want = rows.get(name)
text = open(md).read()
corpora = text[text.find("### Corpora"):text.find("### Excluded runs")]
line = [l for l in corpora.split("\n") if l.startswith("| " + name + " |")]
if not want or len(line) != 1:
    print("no single row for %s (corpora: %s; report rows: %d)" % (name, list(rows), len(line)))
    sys.exit()
cells = [c.strip() for c in line[0].strip("|").split("|")]
got = dict(zip(["corpus", "layout", "runs", "listed", "unlisted", "excluded", "trace rows", "files"], cells))
bad = []
for k_md, k_tsv in [("layout", "layout"), ("runs", "runs"), ("listed", "listed"), ("unlisted", "unlisted"),
                    ("excluded", "excluded"), ("trace rows", "trace_rows"), ("files", "files")]:
    if got.get(k_md) != want.get(k_tsv):
        bad.append("%s: report %s, corpora %s" % (k_md, got.get(k_md), want.get(k_tsv)))
print("\n".join(bad) if bad else "ok")
