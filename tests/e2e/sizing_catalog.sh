#!/usr/bin/env bash
# End-to-end tests of `coreplan size` on given numbers (no database, a catalog of
# one's own) and of `coreplan catalog` (split from sizing.sh; see its header).
#
#   bash tests/e2e/sizing_catalog.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
source "$E2E_DIR/sizing_lib.sh"

# a database with runs (the version-3 check copies it) and the request sizing.sh checks
untied_gmp_manifest "$T/gmp-untied.manifest"
cpl import -q "$GMP" --manifest "$T/gmp-untied.manifest"
expect_rc "import gomaxprocs-scaling-20260816 untied" 0
cpl import -q "$CAP"
expect_rc "import gcp-x86-capacity-20260816" 0
cpl import -q "$AFF" --manifest "$AFF_MANIFEST"
expect_rc "import gomaxprocs-affinity with its manifest" 0
SIZE=(size --target 1000 --sessions 500 --store postgres --base-from 'subcorpus=core'
	--scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4'
	--smt-from 'corpus=gomaxprocs-affinity'
	--memory-from 'corpus=gcp-x86-capacity-20260816 target=medium cfg=pg block=1,2,3'
	--measured-where 'block=1,2,3')
cpl "${SIZE[@]}" --format tsv
expect_rc "size on the shipped catalogs exits 0" 0
cp "$T/.out" "$T/size.tsv"

###########################################################################
# size: numbers given on the command line, a catalog of one's own
###########################################################################
printf 'instance\tprovider\tseries\tvcpus\tthreads_per_core\tsustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\tprice_region\tprice_source\tprice_date\n' >"$T/mine.tsv"
printf 'half\tx\tx\t2\t2\t0.5\t4\tfam-a\t0.03\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
printf 'two\tx\tx\t4\t2\t1\t16\tfam-a\t0.13\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
printf 'four\tx\tx\t4\t1\t1\t16\tfam-a\t0.2\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
printf 'eight\tx\tx\t16\t2\t1\t64\tfam-a\t0.5\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
GIVEN=(size --catalog "$T/mine.tsv" --target 1000 --base-rate 300 --base-cpu fam-a
	--per-doubling 1.8 --smt-factor 1.25 --format tsv)
cpl "${GIVEN[@]}"
expect_rc "size with given numbers and --catalog exits 0" 0
# half: 2 x 0.5 / 2 = 0.5 core: 300 x 0.5 x 1.25 = 187.5; burst 1 core: 300 x 1.25 = 375
check_eq "size given: half = 300 x 0.5 x 1.25 = 187.5" "187.5" "$(round "$(tsvget instance half predicted)" 1)"
check_contains "size given: half burst 375" "$(tsvget instance half flags)" "burst 375 not sustained"
# two: 300 x 1.8 x 1.25 = 675, short; four: 300 x 1.8^2 = 972, short (1 thread per core)
check_eq "size given: two = 300 x 1.8 x 1.25 = 675" "675.0" "$(round "$(tsvget instance two predicted)" 1)"
check_eq "size given: four = 300 x 1.8^2 x 1 = 972" "972.0" "$(round "$(tsvget instance four predicted)" 1)"
# eight: 300 x 1.8^3 x 1.25 = 2187, meets, the only one, CHEAPEST; no --scaling-from: not flagged extrapolated
check_eq "size given: eight = 300 x 1.8^3 x 1.25 = 2187" "2187.0" "$(round "$(tsvget instance eight predicted)" 1)"
check_eq "size given: eight is the cheapest (only) meeting row, uncalibrated (no runs)" "CHEAPEST; uncalibrated" \
	"$(tsvget instance eight flags)"
# cost per 1k: 0.5 x 1000 / 2187 = 0.22862...
check_eq "size given: eight cost per 1k = 0.5 x 1000 / 2187" "0.2286" "$(round "$(tsvget instance eight cost_per_1k)" 4)"
check_eq "size given: no sessions, no memory figure" "NA" "$(tsvget instance eight memory_needed_gib)"
cpl "${GIVEN[@]}" --headroom 60
# 40% kept: eight 2187 x 0.4 = 874.8, short: nothing meets, nothing marked
check_eq "size given --headroom 60: eight = 2187 x 0.4 = 874.8" "874.8" "$(round "$(tsvget instance eight predicted)" 1)"
check_eq "size given --headroom 60: eight is short" "short" "$(tsvget instance eight verdict)"
check_eq "size given --headroom 60: no CHEAPEST row" "0" "$(grep -c CHEAPEST "$T/.out")"
cpl "${GIVEN[@]}" --sessions 500 --mem-per-session 30000 --mem-fixed 1048576
# (1048576 + 30000 x 500) / 1048576 = 16048576 / 1048576 = 15.305 GiB of app,
# + the default OS reserve 512 MiB = 0.5 GiB: 15.805; more than half's 4 GiB,
# less than two's 16
check_eq "size given: memory (1048576 + 30000 x 500) / 1048576 + 512 / 1024 = 15.81 GiB" "15.81" \
	"$(round "$(tsvget instance two memory_needed_gib)" 2)"
check_eq "size given: the app part 15.31 GiB" "15.31" "$(round "$(tsvget instance two memory_app_gib)" 2)"
check_eq "size given: the OS part 0.5 GiB" "0.50" "$(round "$(tsvget instance two memory_os_gib)" 2)"
check_eq "size given: nothing co-located without --memory-from or --colocated-kb" "0.00" \
	"$(round "$(tsvget instance two memory_colocated_gib)" 2)"
# --os-reserve-mib 0 and --colocated-kb 1048576: 15.305 + 1 = 16.305 > 16: two is memory-bound
cpl "${GIVEN[@]}" --sessions 500 --mem-per-session 30000 --mem-fixed 1048576 --os-reserve-mib 0 \
	--colocated-kb 1048576
check_eq "size given --os-reserve-mib 0 --colocated-kb 1048576: 15.305 + 1 = 16.31 GiB" "16.31" \
	"$(round "$(tsvget instance two memory_needed_gib)" 2)"
check_eq "size given --colocated-kb: two (16 GiB) is now memory-bound" "memory-bound" "$(tsvget instance two verdict)"
cpl "${GIVEN[@]}" --sessions 500 --mem-per-session 30000 --mem-fixed 1048576
check_eq "size given: half (4 GiB) is memory-bound" "memory-bound" "$(tsvget instance half verdict)"
check_eq "size given: two (16 GiB) is not memory-bound" "short" "$(tsvget instance two verdict)"

###########################################################################
# size without a database: given numbers, the shipped catalogs, every cell
###########################################################################
echo "# size without a database"
NODB=$T/none.db
NOSIZE=(size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78
	--smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000)
for fmt in md json tsv; do
	"${TIMEOUT[@]}" "$BIN" --db "$NODB" "${NOSIZE[@]}" --format "$fmt" >"$T/nodb.$fmt" 2>"$T/.err"
	RC=$?
	ERR=$(cat "$T/.err")
	expect_rc "size without a database --format $fmt exits 0" 0
done
"$BIN" --db "$NODB" "${NOSIZE[@]}" --format tsv --view inputs >"$T/nodb-inputs.tsv" 2>/dev/null
check_eq "size without a database: no database file made" "no" "$([ -e "$NODB" ] && echo yes || echo no)"
cp "$T/nodb.tsv" "$T/.out"
# Every number and word of the instances view, recomputed from the catalog
# files with the formulas of analysis/size.h and the given inputs (no WHERE:
# bounds equal the values; no sweep: nothing is extrapolated).
py_check "size without a database: every cell of the instances view recomputed from aws.tsv, gce.tsv and the given numbers (1e-12)" "$PYLIB"'
base, pd, smt, per, fixed, sessions, target = 299.0, 1.78, 1.27, 637.0, 40000.0, 500, 1000.0
cat = rows(sys.argv[2]) + rows(sys.argv[3])  # shipped: in name order, aws then gce
out = rows(sys.argv[1])
bad = []
if [r["instance"] for r in out] != [i["instance"] for i in cat]:
    bad.append("rows %r" % [r["instance"] for r in out][:5])
def scale(p, d):
    return d ** math.log2(p) if p >= 1 else p
app = (fixed + per * sessions) / (1024.0 * 1024.0)
mem = app + 0 + 512 / 1024.0  # nothing co-located; the default OS reserve, 512 MiB
want_rows = []
for i in cat:
    v, t, f = int(i["vcpus"]), int(i["threads_per_core"]), float(i["sustained_vcpu_fraction"])
    phys, sus = v / t, v * f / t
    price, gib = float(i["price_per_hour"]), float(i["memory_gib"])
    s = smt if t == 2 else 1.0
    w = {"instance": i["instance"], "vcpus": v, "threads_per_core": t, "physical_cores": phys,
         "sustained_cores": sus, "memory_needed_gib": mem, "memory_app_gib": app,
         "memory_colocated_gib": 0.0, "memory_os_gib": 0.5, "memory_gib": gib,
         "price_per_hour": price, "price_date": i["price_date"], "measured_n": None,
         "measured_median": None, "measured_min": None, "measured_max": None,
         "measured_at": None, "measured_shortfall": None, "model_check": None,
         "model_ratio": None, "verdict_basis": "predicted",
         # no runs, no sessions factor, no fitted levels: nothing calibrates or extrapolates
         "sessions_factor": None, "sessions_factor_at": None, "cores_beyond": None,
         "sessions_beyond": None, "memory_beyond": None}
    flags = []
    if i["cpu_family"] != "gce-e2":
        w.update(predicted=None, predicted_low=None, predicted_high=None, shortfall=None,
                 cost_per_1k=None, verdict="unmeasured CPU", calibrated_low=None,
                 calibrated_high=None, calibration=None)
    else:
        p = base * scale(sus, pd) * s
        w.update(predicted=p, predicted_low=p, predicted_high=p, shortfall=target / p,
                 cost_per_1k=price * 1000 / p, calibrated_low=p, calibrated_high=p,
                 calibration="uncalibrated: no eligible measured cell of a %s instance" %
                             ("shared-core" if f < 1 else "dedicated"),
                 verdict="memory-bound" if mem > gib else "meets" if p >= target else "short")
        if f < 1:
            flags.append("shared-core: sustained share; burst %.0f not sustained" % (base * scale(phys, pd) * s))
        flags.append("uncalibrated")
    w["flags"] = flags
    want_rows.append(w)
meets = [w for w in want_rows if w["verdict"] == "meets"]
cheapest = min(meets, key=lambda w: w["price_per_hour"]) if meets else None
for w in want_rows:
    fl = (["CHEAPEST"] if w is cheapest else []) + w["flags"]
    w["flags"] = "; ".join(fl) if fl else None
for r, w in zip(out, want_rows):
    if set(r) != set(w):
        bad.append("columns %r" % sorted(set(r) ^ set(w))); break
    for k, v in w.items():
        got = r[k]
        if v is None:
            ok = got == "NA"
        elif isinstance(v, str):
            ok = got == v
        elif isinstance(v, int):
            ok = got == str(v)
        elif v == 0:
            ok = got == "0"
        else:
            ok = got != "NA" and close(float(got), v, 1e-12)
        if not ok:
            bad.append("%s %s: coreplan %r, python %r" % (w["instance"], k, got, v))
if cheapest is None or cheapest["instance"] != "e2-standard-8":
    bad.append("python cheapest %r" % (cheapest and cheapest["instance"]))
print("\n".join(bad[:20]) if bad else "ok")' "$AWS" "$GCE"
cp "$T/nodb.json" "$T/.out"
py_check "size without a database: facts (target, sessions, headroom, cheapest and its capacity, inputs, catalogs shipped)" "$PYLIB"'
d = json.load(open(sys.argv[1]))
f = {k: v["value"] for k, v in d["facts"].items()}
bad = []
want = {"target": 1000, "sessions": 500, "headroom": 0, "cheapest": "e2-standard-8", "catalog_origin": "shipped",
        "base_rate": 299, "base_rate_lo": 299, "base_rate_hi": 299, "per_doubling": 1.78, "per_doubling_lo": 1.78,
        "per_doubling_hi": 1.78, "smt_factor": 1.27, "smt_factor_lo": 1.27, "smt_factor_hi": 1.27,
        "mem_per_session_kb": 637, "mem_fixed_kb": 40000, "base_cpu": "gce-e2", "max_measured_cores": None,
        "per_doubling_se": None, "corpora": "none"}
for k, v in want.items():
    if f.get(k, "absent") != v:
        bad.append("%s: %r, expected %r" % (k, f.get(k, "absent"), v))
# e2-standard-8: 4 sustained cores: 299 x 1.78^2 x 1.27
if not close(f.get("cheapest_predicted") or 0, 299 * 1.78 ** 2 * 1.27, 1e-12):
    bad.append("cheapest_predicted %r" % f.get("cheapest_predicted"))
if not f.get("catalogs", "").startswith("shipped: aws (" + sys.argv[2] + "), gce (" + sys.argv[3] + ")"):
    bad.append("catalogs %r" % f.get("catalogs"))
print("\n".join(bad) if bad else "ok")' "$AWS" "$GCE"
cp "$T/nodb-inputs.tsv" "$T/.out"
check_eq "size without a database, inputs view: the base rate as given" "given: base rate 299" "$(tsvget input base_rate source)"
check_eq "size without a database, inputs view: no runs behind a given number" "NA" "$(tsvget input base_rate runs)"
check_eq "size without a database, inputs view: fixed memory as given" "40000" "$(tsvget input mem_fixed_kb value)"
for view in instances inputs; do
	tsv=$T/nodb.tsv
	[ "$view" = inputs ] && tsv=$T/nodb-inputs.tsv
	py_check "doc_check size without a database (view $view): md, json and tsv agree" \
		"import subprocess, sys; r = subprocess.run([sys.executable] + sys.argv[2:], capture_output=True, text=True); print(r.stdout.strip())" \
		"$E2E_DIR/doc_check.py" "$T/nodb.md" "$T/nodb.json" "$tsv"
done

###########################################################################
# catalog: instance catalogs in the database
###########################################################################
echo "# catalog"
SAVED_DB=$DB
DB=$T/catalog.db
q() { sqlite3 -batch -noheader -separator $'\t' "$DB" "$@"; }
cpl catalog --format json
expect_rc "catalog (no file) on a new database exits 0" 0
check_eq "catalog: stored the two shipped catalogs" "2 0 2 116" \
	"$(jget 'd["facts"]["stored"]["value"], d["facts"]["replaced"]["value"], d["facts"]["catalogs"]["value"], d["facts"]["instances"]["value"]' | tr -d '(),')"
check_eq "catalog: the catalogs table (name order: aws, gce; absolute paths; sha256 of the files)" \
	"aws	$AWS	$(sha256sum "$AWS" | cut -d' ' -f1)
gce	$GCE	$(sha256sum "$GCE" | cut -d' ' -f1)" "$(q 'SELECT name, source_path, sha256 FROM catalogs ORDER BY catalog_id')"
py_check "catalog: every instance row equals its catalog file's line, with the derived cores" "$PYLIB"'
import sqlite3
db = sqlite3.connect(sys.argv[2])
bad = []
n = 0
for name, path in (("aws", sys.argv[3]), ("gce", sys.argv[4])):
    got = db.execute("SELECT i.* FROM instances i JOIN catalogs c USING (catalog_id) WHERE c.name = ? ORDER BY line", (name,))
    cols = [c[0] for c in got.description]
    got = [dict(zip(cols, r)) for r in got]
    want = rows(path)
    if len(got) != len(want):
        bad.append("%s: %d rows, file %d" % (name, len(got), len(want)))
    for line, (g, w) in enumerate(zip(got, want), start=2):
        n += 1
        for k in ("instance", "provider", "series", "cpu_family", "price_region", "price_source", "price_date"):
            if g[k] != w[k]:
                bad.append("%s %s %s %r %r" % (name, w["instance"], k, g[k], w[k]))
        for k in ("vcpus", "threads_per_core"):
            if g[k] != int(w[k]) or type(g[k]) is not int:
                bad.append("%s %s %s %r" % (name, w["instance"], k, g[k]))
        for k in ("sustained_vcpu_fraction", "memory_gib", "price_per_hour"):
            if g[k] != float(w[k]):
                bad.append("%s %s %s %r" % (name, w["instance"], k, g[k]))
        v, t, f = int(w["vcpus"]), int(w["threads_per_core"]), float(w["sustained_vcpu_fraction"])
        if g["physical_cores"] != v / t or not close(g["sustained_cores"], v * f / t, 1e-15) or g["line"] != line:
            bad.append("%s %s derived %r %r line %r" % (name, w["instance"], g["physical_cores"], g["sustained_cores"], g["line"]))
print("\n".join(bad[:20]) if bad or n != 116 else "ok")' "$DB" "$AWS" "$GCE"
LOADED=$(q 'SELECT group_concat(loaded_at) FROM catalogs')
cpl catalog --format json
expect_rc "catalog again exits 0" 0
check_eq "catalog again: the database already holds catalogs, none stored" "0 2" \
	"$(jget 'd["facts"]["stored"]["value"], d["facts"]["catalogs"]["value"]' | tr -d '(),')"
check_contains "catalog again: a note says so" "$(jget 'd["sections"]["catalogs"]["notes"]')" "already holds catalogs"
check_eq "catalog again: nothing rewritten" "$LOADED" "$(q 'SELECT group_concat(loaded_at) FROM catalogs')"

cpl catalog --show --format tsv
expect_rc "catalog --show exits 0" 0
check_eq "catalog --show: the instances view's header" \
	"catalog	instance	provider	series	vcpus	threads_per_core	sustained_vcpu_fraction	memory_gib	cpu_family	price_per_hour	price_region	price_source	price_date	physical_cores	sustained_cores	line	cpu_platforms" \
	"$(head -n 1 "$T/.out")"
py_check "catalog --show: one row per file line (aws then gce), fields as in the files" "$PYLIB"'
out = rows(sys.argv[1])
want = [("aws", r) for r in rows(sys.argv[2])] + [("gce", r) for r in rows(sys.argv[3])]
bad = []
if len(out) != len(want):
    bad.append("%d rows, files %d" % (len(out), len(want)))
for o, (c, w) in zip(out, want):
    if o["catalog"] != c or any(o[k] != w[k] for k in ("instance", "provider", "series", "vcpus", "cpu_family", "price_date")) \
       or o["cpu_platforms"] != (w["cpu_platforms"] or "NA") \
       or float(o["price_per_hour"]) != float(w["price_per_hour"]) or float(o["physical_cores"]) != int(w["vcpus"]) / int(w["threads_per_core"]):
        bad.append("%r vs %r" % (o, w))
print("\n".join(bad[:10]) if bad else "ok")' "$AWS" "$GCE"
cpl catalog --show
check_contains "catalog --show md: the instances section" "$OUT" "### Instances"
check_eq "catalog --show md: only that section" "" "$(grep -E '^### (Catalogs|CPU families)' <<<"$OUT")"
cpl catalog --show --format json
cp "$T/.out" "$T/show.json"
cpl catalog --show
cp "$T/.out" "$T/show.md"
cpl catalog --show --format tsv
cp "$T/.out" "$T/show.tsv"
py_check "doc_check catalog --show: md, json and tsv agree" \
	"import subprocess, sys; r = subprocess.run([sys.executable] + sys.argv[2:], capture_output=True, text=True); print(r.stdout.strip())" \
	"$E2E_DIR/doc_check.py" "$T/show.md" "$T/show.json" "$T/show.tsv"

cpl catalog --families --format tsv
expect_rc "catalog --families exits 0" 0
py_check "catalog --families: each CPU family and series with its count, vCPU range, instances and CPU platforms (python)" "$PYLIB"'
out = rows(sys.argv[1])
groups = {}
for path in sys.argv[2:]:
    for r in rows(path):
        groups.setdefault((r["cpu_family"], r["series"]), []).append(r)
bad = []
keys = sorted(groups, key=lambda k: (k[0].encode(), k[1].encode()))
if [(o["cpu_family"], o["series"]) for o in out] != keys:
    bad.append("groups %r" % [(o["cpu_family"], o["series"]) for o in out])
for o, k in zip(out, keys):
    g = groups[k]
    v = [int(r["vcpus"]) for r in g]
    plat = []
    for r in g:
        plat += [p for p in r["cpu_platforms"].split(",") if p and p not in plat]
    want = (g[0]["provider"], str(len(g)), str(min(v)), str(max(v)), ", ".join(r["instance"] for r in g),
            ",".join(plat) or "NA")
    if (o["provider"], o["n"], o["vcpus_min"], o["vcpus_max"], o["instances"], o["cpu_platforms"]) != want:
        bad.append("%r: %r" % (k, o))
print("\n".join(bad) if bad else "ok")' "$AWS" "$GCE"
check_eq "catalog --families: gce-e2 lists the eight e2 shapes" \
	"e2-micro, e2-small, e2-medium, e2-standard-2, e2-standard-4, e2-standard-8, e2-standard-16, e2-standard-32" \
	"$(tsvget cpu_family gce-e2 instances)"

# size on the stored catalogs, then replacing gce with a catalog of one's own
cpl "${NOSIZE[@]}" --format json
expect_rc "size on the stored catalogs exits 0" 0
check_eq "size on the stored catalogs: origin database" "database" "$(jget 'd["facts"]["catalog_origin"]["value"]')"
check_eq "size on the stored catalogs: the same rows as on the shipped ones" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sections"]["instances"]["rows"])' "$T/nodb.json")" \
	"$(jget 'd["sections"]["instances"]["rows"]')"
cpl catalog --name gce "$T/mine.tsv" --format json
expect_rc "catalog --name gce mine.tsv (replace) exits 0" 0
check_eq "catalog replace: stored 1, replaced 1, still 2 catalogs, 54 + 4 instances" "1 1 2 58" \
	"$(jget 'd["facts"]["stored"]["value"], d["facts"]["replaced"]["value"], d["facts"]["catalogs"]["value"], d["facts"]["instances"]["value"]' | tr -d '(),')"
check_eq "catalog replace: the action column" "aws:None gce:replaced" \
	"$(jget '" ".join("%s:%s" % (r["catalog"], r["action"]) for r in d["sections"]["catalogs"]["rows"])')"
check_eq "catalog replace: gce keeps its place and now holds mine.tsv" "aws	54
gce	4	$(realpath "$T/mine.tsv")" \
	"$(q 'SELECT c.name, count(*), CASE c.name WHEN "gce" THEN c.source_path END FROM catalogs c JOIN instances USING (catalog_id) GROUP BY c.catalog_id ORDER BY c.catalog_id' | sed 's/\t$//')"
cpl size --target 1000 --base-rate 300 --base-cpu fam-a --per-doubling 1.8 --smt-factor 1.25 --format tsv
expect_rc "size on the replaced catalogs exits 0" 0
check_eq "size on the replaced catalogs: 58 rows" "58" "$(($(grep -c . "$T/.out") - 1))"
check_eq "size on the replaced catalogs: eight = 300 x 1.8^3 x 1.25 = 2187" "2187.0" "$(round "$(tsvget instance eight predicted)" 1)"
# --catalog FILE wins over the stored ones, for that run only: the database does not change
BEFORE=$(sha256sum "$DB" | cut -d' ' -f1)
cpl size --catalog "$GCE" --target 1000 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78 --format json
expect_rc "size --catalog on a database with catalogs exits 0" 0
check_eq "size --catalog: origin given, catalog gce from the file" "given: gce ($GCE)" "$(jget 'd["facts"]["catalogs"]["value"]')"
check_eq "size --catalog: the file's 62 instances" "62" "$(jget 'len(d["sections"]["instances"]["rows"])')"
check_eq "size --catalog: the database is unchanged" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
check_eq "size --catalog: the stored gce still holds mine.tsv" "4" "$(q "SELECT count(*) FROM instances JOIN catalogs USING (catalog_id) WHERE name = 'gce'")"
mkdir -p "$T/other"
cp "$GCE" "$T/other/gce.tsv"
cpl size --catalog "$GCE" --catalog "$T/other/gce.tsv" --target 1000 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78
expect_rc "size --catalog: two files of the same name are refused (exit 2)" 2
check_contains "size --catalog: two files of the same name: says so" "$ERR" "are both catalog 'gce'"

# refused catalogs leave the database byte for byte as it was
head -n 2 "$T/mine.tsv" >"$T/badcat.tsv"
printf 'broken\tx\tx\tmany\t2\t1\t8\tfam-a\t0.1\tr\ts\t2026-01-01\n' >>"$T/badcat.tsv"
BEFORE=$(sha256sum "$DB" | cut -d' ' -f1)
cpl catalog "$T/badcat.tsv"
expect_rc "catalog with a malformed file exits 1" 1
check_contains "catalog with a malformed file: names the file, line 3 and column 4" "$ERR" "badcat.tsv:3:4: vcpus 'many'"
check_eq "catalog with a malformed file: the database is byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
cpl catalog "$AWS" "$T/badcat.tsv"
expect_rc "catalog with a good and a malformed file exits 1" 1
check_eq "catalog good + malformed: nothing stored, byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
cpl catalog --name copy "$AWS"
expect_rc "catalog: an instance type already in another catalog exits 1" 1
check_contains "catalog duplicate: names the instance and both catalogs" "$ERR" "instance 'm6i.large' is in catalog 'aws' (line 2) and in catalog 'copy' (line 2)"
check_eq "catalog duplicate: the database is byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
cpl catalog --name x "$AWS" "$GCE"
expect_rc "catalog --name with two files is a usage error (exit 2)" 2
cpl catalog --show "$AWS"
expect_rc "catalog --show FILE is a usage error (exit 2)" 2
cpl catalog --show --families
expect_rc "catalog --show --families is a usage error (exit 2)" 2
check_eq "catalog usage errors: the database is byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"

# a version-3 database (before catalogs): size refuses it read-only, catalog migrates it
cp "$SAVED_DB" "$T/v3.db"
DB=$T/v3.db
q "DROP TABLE field_origins; DROP TABLE field_prefs; DROP TABLE instances; DROP TABLE catalogs; PRAGMA user_version = 3"
cpl "${NOSIZE[@]}"
expect_rc "size on a version-3 database exits 1" 1
check_contains "size on a version-3 database: asks for a writing command" "$ERR" "schema version 3"
cpl catalog --format json
expect_rc "catalog on a version-3 database exits 0 (migrates)" 0
check_eq "catalog on a version-3 database: now the latest version, the shipped catalogs stored, runs kept" \
	"$(sqlite3 "$SAVED_DB" 'PRAGMA user_version') 2 116 $(sqlite3 "$SAVED_DB" 'SELECT count(*) FROM runs')" \
	"$(q 'PRAGMA user_version') $(q 'SELECT count(*) FROM catalogs') $(q 'SELECT count(*) FROM instances') $(q 'SELECT count(*) FROM runs')"
cpl "${SIZE[@]}" --format tsv
expect_rc "size on the migrated database exits 0" 0
check_eq "size on the migrated database: the same table as on the shipped catalogs" "$(cat "$T/size.tsv")" "$OUT"
DB=$SAVED_DB

###########################################################################
# size: input errors
###########################################################################
printf 'instance\tprovider\tseries\tvcpus\tthreads_per_core\tsustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\tprice_region\tprice_source\tprice_date\n' >"$T/bad.tsv"
printf 'fine\tx\tx\t2\t2\t1\t8\tfam-a\t0.1\tr\ts\t2026-01-01\n' >>"$T/bad.tsv"
printf 'broken\tx\tx\tmany\t2\t1\t8\tfam-a\t0.1\tr\ts\t2026-01-01\n' >>"$T/bad.tsv"
cpl size --catalog "$T/bad.tsv" --target 1000 --base-rate 300 --base-cpu fam-a --per-doubling 1.8
expect_rc "size with a malformed --catalog exits 1" 1
check_contains "size malformed catalog: names the file and line 3" "$ERR" "bad.tsv:3:"
cpl size --catalog "$T/nosuch.tsv" --target 1000 --base-rate 300 --base-cpu fam-a --per-doubling 1.8
expect_rc "size with a missing --catalog exits 1" 1
check_contains "size missing catalog: names the file" "$ERR" "nosuch.tsv"
cpl size --base-rate 300 --base-cpu fam-a --per-doubling 1.8
expect_rc "size without --target is a usage error (exit 2)" 2
check_contains "size without --target: says so" "$ERR" "--target"
cpl size --target 1000 --base-rate 300 --per-doubling 1.8
expect_rc "size --base-rate without --base-cpu is a usage error (exit 2)" 2
check_contains "size --base-rate without --base-cpu: says so" "$ERR" "--base-cpu"
cpl size --target 1000 --base-rate 300 --base-cpu gce-e2
expect_rc "size without scaling is a usage error (exit 2)" 2
check_contains "size without scaling: names --per-doubling" "$ERR" "--per-doubling"
cpl size --target 1000 --per-doubling 1.8
expect_rc "size without a base is a usage error (exit 2)" 2
cpl size --target 1000 --base-rate 300 --base-cpu gce-e2 --per-doubling 1.8 --translate gce-n2
expect_rc "size --translate without =F is a usage error (exit 2)" 2
cpl size --target 1000 --base-rate 300 --base-cpu gce-e2 --per-doubling 1.8 --headroom 100
expect_rc "size --headroom 100 is a usage error (exit 2)" 2


echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
