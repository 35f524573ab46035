# tools_gobench_benchstat_view_prints_benchstat_s.py (tests/e2e/tools_gobench.sh): benchstat view prints benchstat's figures (its documentation)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["level"]: r for r in d["sections"]["benchstat"]["rows"]}
def line(r):
    delta = "~" if r["change"] == "~" else "%+.2f%%" % r["delta_pct"]
    return "%.4gµ ± %.0f%%   %.4gµ ± %.0f%%  %s (p=%.3f n=%d)" % (
        # benchstat prints seconds: 1422.5 ns is 1.4225e-06 s, not exactly binary, shown 1.423µ;
        # %.4g of 1.4225 rounds half to even, hence the 1e-12
        r["a_median"] / 1000, r["a_ci_pct"], r["b_median"] / 1000 + 1e-12, r["b_ci_pct"],
        delta, r["p"], r["a_n"])
want = {"BenchmarkEncode/format=json": "1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)",
        "BenchmarkEncode/format=gob": "3.066µ ± 0%   3.07µ ± 2%  ~ (p=0.446 n=10)"}
got = {k: line(rows[k]) for k in want}
print("ok" if got == want else "got %r" % got)
