# tools_report_check.py (tests/e2e/tools_report.sh): REPORT_JSON TOOL FILE LEVEL_FIELD METRIC UNIT
#
# The report's sweep and noise documents (report --format json, the report
# section's parts) against the tool's own output, read here by Python alone:
#   hyperfine  the JSON's own "median" of each result (hyperfine computed it)
#              and statistics.median of its "times", per parameter value
#   go         statistics.median of the ns/op figures of the result lines,
#              per -N suffix (GOMAXPROCS; no suffix is 1), by regex
#   wrk        statistics.median of the "Requests/sec:" figures of the
#              folder's files, per "C connections" of their second line
#   gbench     statistics.median of real_time (cpu_time for the metric
#              cpu_time_ns; in ns by time_unit) of the JSON's iteration
#              rows, per threads
# Checks: the sweep and noise sections were measured with METRIC named
# (facts metric), the sweep's median column is in UNIT, and each level's
# median equals the tool's to 1e-9 relative. Prints "ok" or what differs.
import glob, json, os, re, statistics, sys

report, tool, src, level_field, metric, unit = sys.argv[1:7]
NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def expected():
    out = {}
    if tool == "hyperfine":
        for r in json.load(open(src))["results"]:
            level = float(r["parameters"][level_field])
            assert abs(r["median"] - statistics.median(r["times"])) <= 1e-12 * r["median"]
            out[level] = r["median"]
    elif tool == "go":
        per = {}
        for line in open(src):
            m = re.match(r"^Benchmark\S*?(?:-(\d+))?\s+\d+\s+([0-9.e+]+) ns/op", line)
            if m:
                per.setdefault(float(m.group(1) or 1), []).append(float(m.group(2)))
        out = {k: statistics.median(v) for k, v in per.items()}
    elif tool == "wrk":
        per = {}
        for path in glob.glob(os.path.join(src, "*.txt")):
            text = open(path).read()
            conns = float(re.search(r"(\d+) threads and (\d+) connections", text).group(2))
            rps = float(re.search(r"^Requests/sec:\s+([0-9.]+)$", text, re.M).group(1))
            per.setdefault(conns, []).append(rps)
        out = {k: statistics.median(v) for k, v in per.items()}
    elif tool == "gbench":
        per = {}
        for b in json.load(open(src))["benchmarks"]:
            if b.get("run_type", "iteration") == "iteration":
                key = "cpu_time" if metric == "cpu_time_ns" else "real_time"
                per.setdefault(float(b.get("threads", 1)), []).append(
                    b[key] * NS[b["time_unit"]])
        out = {k: statistics.median(v) for k, v in per.items()}
    return out


def documents(node, found):
    """Every embedded document of the report, by command."""
    if isinstance(node, dict):
        if node.get("command") in ("sweep", "noise") and "facts" in node:
            found.setdefault(node["command"], []).append(node)
        for v in node.values():
            documents(v, found)
    elif isinstance(node, list):
        for v in node:
            documents(v, found)
    return found


d = json.load(open(report))
status = {r["section"]: r["status"] for r in d["sections"]["sections"]["rows"]}
problems = []
for s in ("sweep", "noise"):
    if status.get(s) != "measured":
        problems.append(f"section {s}: {status.get(s)}")
docs = documents(d, {})
want = expected()
if not want:
    problems.append("the tool's output gave no figure")
for cmd in ("sweep", "noise"):
    if not docs.get(cmd):
        problems.append(f"no {cmd} document in the report")
        continue
    doc = docs[cmd][0]
    if doc["facts"].get("metric", {}).get("value") != metric:
        problems.append(f"{cmd}: metric {doc['facts'].get('metric')}, expected {metric}")
    table = doc["sections"]["levels"]
    if cmd == "sweep":
        col = [c for c in table["columns"] if c["name"] == "median"][0]
        if col["unit"] != unit:
            problems.append(f"sweep: median unit '{col['unit']}', expected '{unit}'")
    got = {float(r["level"]): r["median"] for r in table["rows"]}
    if sorted(got) != sorted(want):
        problems.append(f"{cmd}: levels {sorted(got)}, expected {sorted(want)}")
        continue
    for k in want:
        if abs(got[k] - want[k]) > 1e-9 * abs(want[k]):
            problems.append(f"{cmd}: level {k}: median {got[k]!r}, the tool's {want[k]!r}")
print("ok" if not problems else "; ".join(problems))
