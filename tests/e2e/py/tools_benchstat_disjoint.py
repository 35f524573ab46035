# tools_benchstat_disjoint.py (tests/e2e/tools_benchstat.sh): arms that share
# no benchmark (old.txt at GOMAXPROCS 1 against new.txt at 2) give one table a
# unit, each benchmark of either arm once, in input order, and benchstat's
# footnote on the geomean; the names are read here from the Go text itself.
# argv[1]: the --format text output; argv[2], argv[3]: old.txt, new.txt
import re, sys

def names(path, procs):
    out = []
    for line in open(path):
        m = re.match(r"Benchmark(\S+)\s+\d+\s", line)
        if not m:
            continue
        name = m.group(1)
        suffix = re.search(r"-(\d+)$", name)
        if (int(suffix.group(1)) if suffix else 1) == procs and name not in out:
            out.append(name)
    return out

text = open(sys.argv[1]).read()
want = names(sys.argv[2], 1) + names(sys.argv[3], 2)
tables = text[text.index("\ngoos:"):]  # the view's text, after the preamble
table = tables.split("sec/op", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
got = [line.split()[0] for line in table if line and line[0] not in " ¹"]
if got != want + ["geomean"]:
    print("sec/op rows %s, want %s" % (got, want + ["geomean"]))
elif "benchmark set differs from baseline" not in text:
    print("no footnote: benchmark set differs from baseline")
elif max(len(line) for line in text.splitlines()) > 200:
    print("a line of %d characters" % max(len(line) for line in text.splitlines()))
else:
    print("ok")
