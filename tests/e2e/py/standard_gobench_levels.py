# standard_gobench_levels.py (tests/e2e/standard.sh): compare --a file=old.txt
# --b file=new.txt --by name --metric ns_per_op on a `go test -bench . -count 6
# -cpu 1,2` pair: one level per benchmark and GOMAXPROCS (never pooled), each
# level's Welch t on ln values recomputed here by tests/stat_check.py (the t
# distribution in the standard library) from the Go text itself (a regex over
# the result lines), its verdict at alpha 0.05 (slower / faster: a time), the
# count in the headline, and the geometric mean's interval from the levels'
# own standard errors (Welch-Satterthwaite df).
# argv: the command's JSON output, old.txt, new.txt
import json, math, re, sys
from stat_check import welch, t_quantile, t_two_sided_p

LINE = re.compile(r"^(Benchmark\S*?)(?:-(\d+))?\s+\d+\s+([0-9.e+]+) ns/op")


def runs(path):
    out = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            key = "%s, gomaxprocs=%s" % (m.group(1), m.group(2) or "1")
            out.setdefault(key, []).append(math.log(float(m.group(3))))
    return out


d = json.load(open(sys.argv[1]))
old, new = runs(sys.argv[2]), runs(sys.argv[3])
f = {k: v["value"] for k, v in d["facts"].items()}
rows = {r["level"]: r for r in d["sections"]["levels"]["rows"]}
bad = []
if sorted(rows) != sorted(old):
    bad.append("levels %s, want %s" % (sorted(rows), sorted(old)))
count = {"slower": 0, "faster": 0, "within-noise": 0}
ds, ses, dfs = [], [], []
for key in sorted(old):
    diff, se, df = welch(old[key], new[key])
    t = diff / se
    p = t_two_sided_p(t, df)
    word = ("slower" if diff > 0 else "faster") if p < 0.05 else "within-noise"
    count[word] += 1
    ds.append(diff); ses.append(se); dfs.append(df)
    r = rows.get(key)
    if r is None:
        continue
    for col, want in (("a_n", len(old[key])), ("b_n", len(new[key])), ("gm_ratio", math.exp(diff)),
                      ("t_p", p), ("df", df)):
        if not isinstance(r.get(col), (int, float)) or not math.isclose(r[col], want, rel_tol=1e-6):
            bad.append("%s %s %r, want %r" % (key, col, r.get(col), want))
    if r["verdict"] != word:
        bad.append("%s verdict %s, want %s (p %.4g)" % (key, r["verdict"], word, p))
k = len(ds)
if f.get("levels") != k:
    bad.append("levels fact %r, want %d" % (f.get("levels"), k))
for w, n in count.items():
    if n and not re.search(r"\b%d (of %d )?%s\b" % (n, k, w), f["verdict"]):
        bad.append("headline %r lacks '%d %s'" % (f["verdict"], n, w))
ss = sum(x * x for x in ses)
se, df = math.sqrt(ss) / k, ss * ss / sum(x ** 4 / y for x, y in zip(ses, dfs))
q, m = t_quantile(0.975, df), sum(ds) / k
for col, want in (("summary_ratio", math.exp(m)), ("summary_ratio_lo", math.exp(m - q * se)),
                  ("summary_ratio_hi", math.exp(m + q * se)), ("summary_df", df)):
    if not isinstance(f.get(col), (int, float)) or not math.isclose(f[col], want, rel_tol=1e-6):
        bad.append("%s %r, want %r" % (col, f.get(col), want))
print("\n".join(bad) if bad else "ok")
